#!/usr/bin/python3
"""Soak run: a whole trace through `batfill serve`, beside a real Batsim and beside batfill's
embedded stand-in (`batfill simulate --scheduler`), with the resident memory of both processes
sampled every second. Writes, under experiments/benchmarks/soak/work/:

  <run>_memory.csv   seconds since start, then VmRSS (kB) of each process
  <run>_jobs.csv     the simulator's Batsim _jobs.csv (checked by `batfill check`)
and results.md (peak and growth per process), memory.png when matplotlib is installed.

Growth is the resident memory at the end of the run minus the one after a tenth of it: a
scheduler that keeps finished jobs grows with the trace, one that forgets them stays flat.

usage: experiments/benchmarks/soak/soak.py [--trace SWF] [--policy P] [--build DIR]
       BATSIM=/path/to/bin/batsim for the Batsim run (skipped with a message without it)
Standard library (+ matplotlib for the figure) only."""
import argparse
import csv
import gzip
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent.parent
WORK = HERE / "work"


def swf_records(path):
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            if line.strip() and not line.startswith(";"):
                yield [float(x) for x in line.split()]


def machine_size(path):
    """The header's MaxProcs, else MaxNodes: batfill's default machine size (docs/semantics.md#swf)."""
    opener = gzip.open if str(path).endswith(".gz") else open
    header = {}
    with opener(path, "rt") as f:
        for line in f:
            if not line.startswith(";"):
                break
            key, _, value = line[1:].partition(":")
            if value.split():
                header[key.strip()] = value.split()[0]
    for key in ("MaxProcs", "MaxNodes"):
        if key in header:
            return int(header[key])
    raise SystemExit(f"{path}: no MaxProcs/MaxNodes header")


def write_batsim_workload(swf, machines, out):
    """batfill's SWF conventions (docs/semantics.md#swf): runtime field 4, nodes field 8 (else 5),
    walltime field 9 (else the runtime); records batfill rejects, and runtimes of 0 (Batsim
    refuses a delay of 0), are left out. Returns the number of jobs."""
    jobs, delays = [], set()
    for f in swf_records(swf):
        if len(f) < 18:
            continue
        runtime, nodes = int(f[3]), int(f[7] if f[7] > 0 else f[4])
        walltime = int(f[8] if f[8] > 0 else f[3])
        if runtime <= 0 or nodes <= 0 or nodes > machines or walltime <= 0 or f[1] < 0:
            continue
        delays.add(runtime)
        jobs.append(f'{{"id":"{int(f[0])}","subtime":{int(f[1])},"res":{nodes},'
                    f'"walltime":{walltime},"profile":"d{runtime}"}}')
    profiles = ",".join(f'"d{d}":{{"type":"delay","delay":{d}}}' for d in sorted(delays))
    out.write_text(f'{{"nb_res":{machines},"jobs":[\n' + ",\n".join(jobs) +
                   f'],"profiles":{{{profiles}}}}}\n')
    return len(jobs)


def write_platform(machines, out):
    xml = (ROOT / "platforms" / "cluster16.xml").read_text()
    out.write_text(xml.replace('radical="0-15"', f'radical="0-{machines - 1}"'))


def rss_kb(pid):
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def run_pair(name, simulator_cmd, serve_cmd):
    """Starts serve, then the simulator; samples both every second until the simulator exits."""
    log = open(WORK / f"{name}.log", "w")
    serve = subprocess.Popen(serve_cmd, stdout=log, stderr=subprocess.STDOUT)
    time.sleep(0.5)
    sim = subprocess.Popen(simulator_cmd, stdout=log, stderr=subprocess.STDOUT)
    start, samples = time.monotonic(), []
    while sim.poll() is None:
        samples.append((round(time.monotonic() - start, 1), rss_kb(sim.pid), rss_kb(serve.pid)))
        time.sleep(1)
    elapsed = time.monotonic() - start
    try:
        serve_status = serve.wait(timeout=60)
    except subprocess.TimeoutExpired:
        serve.kill()
        serve_status = "killed"
    with open(WORK / f"{name}_memory.csv", "w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["seconds", "simulator_rss_kb", "serve_rss_kb"])
        out.writerows(samples)
    return {"name": name, "status": (sim.returncode, serve_status), "elapsed": elapsed,
            "samples": samples}


def growth(values):
    values = [v for v in values if v is not None]
    if len(values) < 10:
        return None, None
    return max(values), values[-1] - values[len(values) // 10]


def check(batfill, jobs_csv, platform, workload):
    result = subprocess.run([batfill, "check", str(jobs_csv), "--platform", str(platform),
                             "--workload", str(workload)], capture_output=True, text=True)
    return result.returncode == 0, (result.stdout + result.stderr).strip().splitlines()[-1:]


def plot(runs):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for run in runs:
        t = [s[0] for s in run["samples"]]
        ax.plot(t, [(s[1] or 0) / 1024 for s in run["samples"]], label=f"{run['name']}: simulator")
        ax.plot(t, [(s[2] or 0) / 1024 for s in run["samples"]], label=f"{run['name']}: batfill serve")
    ax.set_xlabel("seconds since start")
    ax.set_ylabel("resident memory (MB)")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(HERE / "memory.png", dpi=90)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--trace", default=str(ROOT / "workloads" / "SDSC-BLUE-2000-4.2-cln.swf.gz"))
    parser.add_argument("--policy", default="easy")
    parser.add_argument("--build", default=str(ROOT / "build"))
    args = parser.parse_args()
    batfill = str(Path(args.build).resolve() / "batfill")
    WORK.mkdir(exist_ok=True)
    machines = machine_size(args.trace)
    workload, platform = WORK / "workload.json", WORK / "platform.xml"
    jobs = write_batsim_workload(args.trace, machines, workload)
    write_platform(machines, platform)
    serve = [batfill, "serve", "--timeout", "600", "--verbosity", "quiet", "--backfill", args.policy]
    runs = []
    standin = run_pair("standin", [batfill, "simulate", str(workload), "--platform", str(platform),
                                   "--scheduler", "tcp://127.0.0.1:28731", "--timeout", "600",
                                   "--no-progress", "--output", str(WORK / "standin")],
                       serve + ["-s", "tcp://127.0.0.1:28731"])
    runs.append(standin)
    batsim = os.environ.get("BATSIM")
    if batsim:
        runs.append(run_pair("batsim", [batsim, "-q", "-p", str(platform), "-w", str(workload),
                                        "-e", str(WORK / "batsim"), "-s", "tcp://127.0.0.1:28732",
                                        "--disable-schedule-tracing",
                                        "--disable-machine-state-tracing"],
                             serve + ["-s", "tcp://127.0.0.1:28732"]))
    else:
        print("BATSIM not set: the run beside a real Batsim is skipped", file=sys.stderr)
    lines = [f"# Soak: {Path(args.trace).name} ({jobs:,} jobs, {machines} machines), `--backfill "
             f"{args.policy}`", "",
             f"Measured by `experiments/benchmarks/soak/soak.py` on {time.strftime('%Y-%m-%d')}; resident "
             "memory (VmRSS) sampled every second. Growth: the last sample minus the sample after "
             "a tenth of the run.", "",
             "| simulator | exit codes (simulator, serve) | wall time (s) | `batfill check` | "
             "simulator peak / growth (MB) | serve peak / growth (MB) |", "|---|---|---|---|---|---|"]
    for run in runs:
        sim_peak, sim_growth = growth([s[1] for s in run["samples"]])
        serve_peak, serve_growth = growth([s[2] for s in run["samples"]])
        ok, detail = check(batfill, WORK / f"{run['name']}_jobs.csv", platform, workload)
        mb = lambda v: "n/a" if v is None else f"{v / 1024:.0f}"
        lines.append(f"| {run['name']} | {run['status'][0]}, {run['status'][1]} | "
                     f"{run['elapsed']:.0f} | {'passes' if ok else 'FAILS: ' + ' '.join(detail)} | "
                     f"{mb(sim_peak)} / {mb(sim_growth)} | {mb(serve_peak)} / {mb(serve_growth)} |")
    (HERE / "results.md").write_text("\n".join(lines) + "\n")
    plot(runs)
    print("\n".join(lines))
    return 0 if all(r["status"] == (0, 0) for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())

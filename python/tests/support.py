"""What the Python tests share: the repository's files and the CLI to compare with."""

import os
import subprocess
import tempfile

SOURCE = os.environ.get("BATFILL_SOURCE_DIR",
                        os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("BATFILL_BINARY", os.path.join(SOURCE, "build", "batfill"))
KTH = os.path.join(SOURCE, "workloads", "KTH-SP2-1996-2.1-cln.swf.gz")
DREVT = os.path.join(SOURCE, "workloads", "drevt-huge_2000jobs.csv")
TINY = os.path.join(SOURCE, "workloads", "tiny.swf")

# Wall times: the only values of _schedule.csv that differ from run to run.
WALL_TIMES = ("scheduling_time", "simulation_time")


def cli_outputs(workload, *options):
    """`batfill simulate`'s _jobs.csv (bytes) and _schedule.csv (keys to texts)."""
    with tempfile.TemporaryDirectory() as directory:
        prefix = os.path.join(directory, "cli")
        subprocess.run([BINARY, "simulate", workload, "--output", prefix, "--no-progress",
                        *options], check=True, stdout=subprocess.DEVNULL)
        return read_outputs(prefix)


def cli_error(workload, *options):
    """What `batfill simulate` prints on failing, without its "batfill simulate: error: "."""
    run = subprocess.run([BINARY, "simulate", workload, "--output", "/nonexistent/x",
                          "--no-progress", *options], capture_output=True, text=True)
    assert run.returncode != 0, run.stdout
    return run.stderr.strip().removeprefix("batfill simulate: error: ")


def read_outputs(prefix):
    with open(prefix + "_jobs.csv", "rb") as jobs:
        jobs_bytes = jobs.read()
    with open(prefix + "_schedule.csv") as schedule:
        header, values = schedule.read().splitlines()
    return jobs_bytes, dict(zip(header.split(","), values.split(",")))


def python_outputs(result):
    """The files Result.to_csv writes, read as cli_outputs reads the CLI's."""
    with tempfile.TemporaryDirectory() as directory:
        prefix = os.path.join(directory, "py")
        result.to_csv(prefix)
        return read_outputs(prefix)


def without_wall_times(schedule):
    return {key: value for key, value in schedule.items() if key not in WALL_TIMES}


def kth_batsim_workload(path, count, delay_type="delay"):
    """The first `count` jobs of KTH-SP2 as a Batsim JSON workload of delay jobs (100 nodes),
    through batfill's own conversion of rows (docs/python.md, "Workloads as rows"); Batsim 5
    calls the profile type "DelayProfile"."""
    import gzip
    import importlib
    simulate_module = importlib.import_module("batfill.simulate")  # the module, not the function
    rows = []
    with gzip.open(KTH, "rt") as trace:
        for line in trace:
            fields = line.split()
            if not fields or line.startswith(";"):
                continue
            rows.append({"id": fields[0], "submit_time": int(fields[1]),
                         "runtime": max(int(fields[3]), 0), "nodes": int(fields[7]),
                         "walltime": int(fields[8])})
            if len(rows) == count:
                break
    first = rows[0]["submit_time"]
    for row in rows:
        row["submit_time"] -= first
    _, text = simulate_module._workload_json(rows, None, 100)
    with open(path, "w") as out:
        out.write(text.replace('"type": "delay"', f'"type": "{delay_type}"'))
    return path


def free_port():
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def serve_beside_batsim(test, batsim, platform, workload, policy, protocol, directory,
                        init=None):
    """batfill.serve(policy) in a thread of this process, a real Batsim connecting to it: the
    serve's error (None when it ended cleanly), Batsim's exit status and log, the _jobs.csv
    path."""
    import threading

    import batfill
    endpoint = f"tcp://127.0.0.1:{free_port()}"
    outcome = {}

    def run():
        try:
            batfill.serve(policy, protocol=protocol, endpoint=endpoint, timeout=60)
            outcome["error"] = None
        except Exception as error:  # reported to the test
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    # Batsim 4 adds "_jobs.csv" to the prefix, Batsim 5 "jobs.csv".
    prefix = directory + ("/out" if protocol == "batsim4" else "/out_")
    command = [batsim, "-q", "-p", platform, "-w", workload, "-e", prefix, "-s", endpoint]
    if init is not None:
        command.append(init)
    batsim_run = subprocess.run(command, capture_output=True, text=True, timeout=900)
    thread.join(180)
    test.assertFalse(thread.is_alive(), "batfill.serve did not return")
    return outcome.get("error"), batsim_run, directory + "/out_jobs.csv"


def expect_every_job_completed(test, error, batsim, jobs_csv, count, platform, workload):
    """A clean run beside Batsim: serve and Batsim ended well, `count` jobs completed, and
    `batfill check` accepts Batsim's own _jobs.csv."""
    import csv
    test.assertIsNone(error)
    test.assertEqual(batsim.returncode, 0, batsim.stdout + batsim.stderr)
    with open(jobs_csv) as jobs:
        rows = list(csv.DictReader(jobs))
    test.assertEqual(len(rows), count)
    test.assertTrue(all(row["final_state"].startswith("COMPLETED_") for row in rows))
    check = subprocess.run([BINARY, "check", jobs_csv, "--platform", platform, "--workload",
                            workload], capture_output=True, text=True)
    test.assertEqual(check.returncode, 0, check.stdout + check.stderr)

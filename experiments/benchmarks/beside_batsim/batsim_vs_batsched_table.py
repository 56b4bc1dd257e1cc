#!/usr/bin/env python3
"""The table of experiments/benchmarks/beside_batsim/batsim_vs_batsched.sh from its runs.csv.

usage: batsim_vs_batsched_table.py RUNS.csv OUT.md [tcp|ipc]
"""
import csv
import datetime
import os
import statistics
import sys


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__)
    transport = sys.argv[3] if len(sys.argv) == 4 else "tcp"
    endpoint = ("a Unix socket (ipc://)" if transport == "ipc"
                else "a TCP port on the loopback (tcp://)")
    rows = list(csv.DictReader(open(sys.argv[1])))
    runs = max(int(r["run"]) for r in rows)

    def values(variant, scheduler, key):
        return [float(r[key]) for r in rows if r["variant"] == variant and r["scheduler"] == scheduler]

    def cell(numbers):
        return f"{statistics.median(numbers):.2f} ({min(numbers):.2f}–{max(numbers):.2f})"

    def paired_ratio(variant, key):
        """Median over runs of batfill's value over batsched's in the same round."""
        ours = {r["run"]: float(r[key]) for r in rows
                if r["variant"] == variant and r["scheduler"] == "batfill"}
        theirs = {r["run"]: float(r[key]) for r in rows
                  if r["variant"] == variant and r["scheduler"] == "batsched"}
        return statistics.median(ours[run] / theirs[run] for run in ours if run in theirs)

    lines = [
        "# batfill serve vs batsched beside Batsim 4.2.1",
        "",
        f"Measured by `experiments/benchmarks/beside_batsim/batsim_vs_batsched.sh` on {datetime.date.today()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end. KTH-SP2 (28,467 replayable jobs) as a "
        "Batsim JSON workload on cluster512 cut to 100 machines, as tests/batsim run it; each "
        "scheduler started as `-v VARIANT -s ENDPOINT` beside `batsim -q`, ENDPOINT "
        f"{endpoint}, the two schedulers alternated. Median (smallest–largest) of {runs} runs. CPU: the scheduler's user + "
        "system time (`/usr/bin/time`). scheduling_time: from Batsim's `_schedule.csv`, the wall "
        "time Batsim waited for the scheduler, messaging included. Ratios: batfill over "
        "batsched in the same round, median over rounds. Targets: batfill's CPU at most 1 s, its "
        "scheduling_time at most 0.3 x batsched's.",
        "",
        "| variant | scheduler | CPU (s) | scheduling_time (s) | mean wait (s) |",
        "|---|---|---|---|---|",
    ]
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    for variant in variants:
        for scheduler, name in (("batfill", "batfill serve"), ("batsched", "batsched 1.4.0")):
            wait = statistics.median(values(variant, scheduler, "mean_wait_s"))
            lines.append(f"| {variant} | {name} | {cell(values(variant, scheduler, 'cpu_s'))} | "
                         f"{cell(values(variant, scheduler, 'scheduling_time_s'))} | {wait:.1f} |")
    lines += ["", "| variant | batfill / batsched CPU | batfill / batsched scheduling_time |",
              "|---|---|---|"]
    for variant in variants:
        lines.append(f"| {variant} | {paired_ratio(variant, 'cpu_s'):.2f} | "
                     f"{paired_ratio(variant, 'scheduling_time_s'):.2f} |")
    open(sys.argv[2], "w").write("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()

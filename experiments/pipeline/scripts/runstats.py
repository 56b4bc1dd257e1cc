#!/usr/bin/python3
"""One run's summary row (CSV header + row on stdout) from PREFIX_jobs.csv and PREFIX_schedule.csv.

Waits are computed from _jobs.csv over executed jobs (rows with a starting time, i.e. not
REJECTED); makespan, utilization, mean bounded slowdown and wall time (simulation_time) come
from _schedule.csv. Standard library only."""
import argparse
import csv
import math
import sys

COLUMNS = ["trace", "policy", "options", "load", "seed", "jobs", "executed", "makespan", "utilization",
           "mean_wait", "p50_wait", "p95_wait", "max_wait", "mean_bounded_slowdown", "wall_time"]


def quantile(sorted_values, q):
    """Linear interpolation between closest ranks (numpy's default, R type 7)."""
    if not sorted_values:
        return float("nan")
    pos = (len(sorted_values) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_values) - 1)
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def stats(prefix):
    waits, total = [], 0
    with open(prefix + "_jobs.csv", newline="") as f:
        for row in csv.DictReader(f):
            total += 1
            if row["starting_time"] not in ("", None):
                waits.append(float(row["waiting_time"]))
    with open(prefix + "_schedule.csv", newline="") as f:
        sched = next(csv.DictReader(f))
    waits.sort()
    return {
        "jobs": total,
        "executed": len(waits),
        "makespan": f"{float(sched['makespan']):.6f}",
        "utilization": f"{float(sched.get('utilization', 'nan')):.6f}",
        "mean_wait": f"{(sum(waits) / len(waits)) if waits else float('nan'):.6f}",
        "p50_wait": f"{quantile(waits, 0.5):.6f}",
        "p95_wait": f"{quantile(waits, 0.95):.6f}",
        "max_wait": f"{waits[-1] if waits else float('nan'):.6f}",
        "mean_bounded_slowdown": f"{float(sched.get('mean_bounded_slowdown', 'nan')):.6f}",
        "wall_time": f"{float(sched['simulation_time']):.6f}",
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("prefix")
    for key in ("trace", "policy", "options", "load", "seed"):
        ap.add_argument("--" + key, default="")
    a = ap.parse_args()
    row = {"trace": a.trace, "policy": a.policy, "options": " ".join(a.options.split()),
           "load": "" if a.load == "none" else a.load, "seed": "" if a.seed == "none" else a.seed}
    row.update(stats(a.prefix))
    w = csv.DictWriter(sys.stdout, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    w.writerow(row)


if __name__ == "__main__":
    main()

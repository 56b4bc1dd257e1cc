#!/usr/bin/python3
"""Table and figure of the resize experiment (README.md beside this file).

usage: table.py OUT_DIR REQUESTS.csv FIGURE.png > results.md

For each policy: what became of the requests (made, granted, cancelled, never made; the waits of
the granted ones), and what they cost the jobs that made none: their mean wait and mean bounded
slowdown (tau = 10 s) without and with the requests, over executed jobs.
"""
import csv
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

POLICIES = ["easy-classic", "conservative-classic"]


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def bounded_slowdown(row):
    wait, run = float(row["waiting_time"]), float(row["execution_time"])
    return max(1.0, (wait + run) / max(run, 10.0))


def others(jobs, asking):
    """Waits and bounded slowdowns of the executed jobs that made no request, by id."""
    return {r["job_id"]: (float(r["waiting_time"]), bounded_slowdown(r))
            for r in jobs if r["final_state"] != "REJECTED" and r["job_id"] not in asking}


def mean(values):
    return sum(values) / len(values) if values else 0.0


def main():
    out, requests_path, figure = sys.argv[1], sys.argv[2], sys.argv[3]
    asking = {r["job_id"] for r in read(requests_path)}
    rows, waits = [], {}
    for policy in POLICIES:
        resizes = read(f"{out}/{policy}_with_resizes.csv")
        granted = [float(r["grant_time"]) - float(r["request_time"])
                   for r in resizes if r["outcome"] == "granted"]
        waits[policy] = sorted(granted)
        without = others(read(f"{out}/{policy}_without_jobs.csv"), asking)
        with_ = others(read(f"{out}/{policy}_with_jobs.csv"), asking)
        rows.append((policy, len(asking), len(resizes), len(granted), len(resizes) - len(granted),
                     len(asking) - len(resizes), mean(granted),
                     statistics.median(granted) if granted else 0.0,
                     len(without), mean([w for w, _ in without.values()]),
                     mean([w for w, _ in with_.values()]),
                     mean([s for _, s in without.values()]), mean([s for _, s in with_.values()])))
    print("# Resize experiment: results\n")
    print("SDSC-SP2 (128 nodes), real queues, 10 % of jobs (seed 1) ask once, halfway through their")
    print("run, for 25 % more nodes. Written by `run.sh`; times in seconds.\n")
    print("| policy | requests | made | granted | cancelled | never made | mean wait of grants | "
          "median wait of grants | other jobs | their mean wait without → with | "
          "their mean bounded slowdown without → with |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for (policy, asked, made, granted, cancelled, not_made, mean_wait, median_wait, n,
         wait0, wait1, bsld0, bsld1) in rows:
        print(f"| {policy} | {asked} | {made} | {granted} | {cancelled} | {not_made} | "
              f"{mean_wait:.1f} | {median_wait:.1f} | {n} | {wait0:.1f} → {wait1:.1f} "
              f"({100 * (wait1 - wait0) / wait0:+.1f} %) | {bsld0:.2f} → {bsld1:.2f} "
              f"({100 * (bsld1 - bsld0) / bsld0:+.1f} %) |")
    plot(rows, waits, figure)


def plot(rows, waits, figure):
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for policy in POLICIES:
        w = waits[policy]
        if w:
            left.step([max(x, 1.0) for x in w], [(i + 1) / len(w) for i in range(len(w))],
                      where="post", label=policy)
    left.set_xscale("log")
    left.set_xlabel("wait of a granted request (s, log; 0 shown at 1 s)")
    left.set_ylabel("fraction of granted requests")
    left.set_title("How long a resize request waits")
    left.legend()
    x = range(len(rows))
    right.bar([i - 0.2 for i in x], [r[9] / 3600 for r in rows], 0.4, label="no requests")
    right.bar([i + 0.2 for i in x], [r[10] / 3600 for r in rows], 0.4, label="with requests")
    right.set_xticks(list(x))
    right.set_xticklabels([r[0] for r in rows])
    right.set_ylabel("mean wait of the jobs that ask nothing (h)")
    right.set_title("What the requests cost the other jobs")
    right.legend()
    fig.tight_layout()
    fig.savefig(figure, dpi=100)


if __name__ == "__main__":
    main()

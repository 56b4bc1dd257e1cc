#!/usr/bin/python3
"""Per-queue mean wait and bounded slowdown of the queues experiment, as a Markdown table, and
a figure (queues.png beside this file) when matplotlib is there."""
import csv
import os
import sys

out = sys.argv[1]
here = os.path.dirname(os.path.abspath(__file__))
TRACES = ["SDSC-SP2-1998-4.2-cln", "SDSC-BLUE-2000-4.2-cln"]
VARIANTS = [("one", "one queue"), ("real", "real queues"), ("standby", "real, standby non-reserving"),
            ("flat_standby", "one priority, standby non-reserving")]
QUEUES = ["interactive", "express", "high", "normal", "low", "standby"]


def schedule(trace, variant):
    with open(f"{out}/{trace}_{variant}_schedule.csv") as f:
        return next(csv.DictReader(f))


print("# Queues experiment: results\n")
print("easy-classic, FCFS inside each queue; wait in hours / mean bounded slowdown (tau = 10 s) "
      "over executed jobs; n = jobs executed. Produced by `experiments/reproductions/queues/run.sh`.\n")
figures = {}
for trace in TRACES:
    print(f"## {trace}\n")
    print("| queue | n | " + " | ".join(label for _, label in VARIANTS) + " |")
    print("|---|---|" + "---|" * len(VARIANTS))
    rows = {v: schedule(trace, v) for v, _ in VARIANTS}
    for queue in QUEUES + ["all"]:
        cells = []
        for variant, _ in VARIANTS:
            row = rows[variant]
            if queue == "all":  # over executed jobs, as the per-queue figures
                n_all = sum(int(row[f"queue_{q}_nb_jobs_finished"]) for q in QUEUES)
                wait = sum(int(row[f"queue_{q}_nb_jobs_finished"]) *
                           float(row[f"queue_{q}_mean_waiting_time"]) for q in QUEUES) / n_all
                bsld = float(row["mean_bounded_slowdown"])
            else:
                wait = float(row[f"queue_{queue}_mean_waiting_time"])
                bsld = float(row[f"queue_{queue}_mean_bounded_slowdown"])
            cells.append(f"{wait / 3600:.2f} h / {bsld:.1f}")
            figures.setdefault(trace, {}).setdefault(variant, {})[queue] = wait / 3600
        n = rows["one"]["nb_jobs_finished"] if queue == "all" else rows["one"][f"queue_{queue}_nb_jobs_finished"]
        print(f"| {queue} | {n} | " + " | ".join(cells) + " |")
    print()

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(0)
fig, axes = plt.subplots(1, len(TRACES), figsize=(12, 4.5))
for ax, trace in zip(axes, TRACES):
    width = 0.2
    for i, (variant, label) in enumerate(VARIANTS):
        xs = [q + (i - 1.5) * width for q in range(len(QUEUES))]
        ax.bar(xs, [figures[trace][variant][q] for q in QUEUES], width, label=label)
    ax.set_xticks(range(len(QUEUES)), QUEUES, rotation=30)
    ax.set_ylabel("mean wait (h)")
    ax.set_yscale("symlog", linthresh=0.1)
    ax.set_title(trace.split("-cln")[0])
handles, labels = axes[0].get_legend_handles_labels()
fig.legend(handles, labels, loc="lower center", ncol=len(VARIANTS))
fig.tight_layout(rect=(0, 0.08, 1, 1))
fig.savefig(os.path.join(here, "queues.png"), dpi=110)

#!/usr/bin/python3
"""Gantt chart of a Batsim _jobs.csv (batfill's, batsched's, any Batsim run) over a time window,
with machine utilization and queue length over time below it.

  plot_schedule.py PREFIX_jobs.csv [--from T] [--to T] [--out FILE.png] [--title TEXT]

Jobs are rectangles over their machine ids (allocated_resources, e.g. "0-3 7"); backfilled jobs
(started while an earlier-submitted job was still waiting; submit time then id order) are drawn
in their own colour. Writes FILE.png and FILE.svg (default: PREFIX_gantt.{png,svg})."""
import argparse
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batsim_jobs import executed, machine_count, read_jobs, save, step_series  # noqa: E402

COLOURS = {False: "#4c72b0", True: "#dd8452"}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("jobs_csv")
    ap.add_argument("--from", dest="t0", type=float, help="window start (s, default: first submission)")
    ap.add_argument("--to", dest="t1", type=float, help="window end (s, default: last finish)")
    ap.add_argument("--out", help="output file (.png or .svg; both are written)")
    ap.add_argument("--title", help="figure title (default: the file name)")
    ap.add_argument("--nodes", type=int, help="machine count (default: highest allocated id + 1)")
    a = ap.parse_args()

    jobs = read_jobs(a.jobs_csv)
    run = executed(jobs)
    if not run:
        sys.exit(f"{a.jobs_csv}: no executed job")
    t0 = a.t0 if a.t0 is not None else min(j.submit for j in jobs)
    t1 = a.t1 if a.t1 is not None else max(j.finish for j in run)
    if t1 <= t0:
        sys.exit("--to must be after --from")
    nodes = a.nodes or machine_count(run)
    out = a.out or a.jobs_csv.replace("_jobs.csv", "") + "_gantt.png"

    fig, (ax, axu, axq) = plt.subplots(3, 1, figsize=(11, 7.5), sharex=True,
                                       gridspec_kw={"height_ratios": [4, 1.2, 1.2]})
    shown = {False: 0, True: 0}
    for flag in (False, True):
        polys = []
        for j in run:
            if j.backfilled != flag or j.finish < t0 or j.start > t1:
                continue
            shown[flag] += 1
            s, e = max(j.start, t0), min(max(j.finish, j.start), t1)
            for lo, hi in j.resources:
                polys.append([(s, lo), (e, lo), (e, hi + 1), (s, hi + 1)])
        if polys:
            ax.add_collection(PolyCollection(polys, facecolors=COLOURS[flag], edgecolors="black",
                                             linewidths=0.2 if len(polys) < 3000 else 0))
    ax.set_xlim(t0, t1)
    ax.set_ylim(0, nodes)
    ax.set_ylabel("machine id")
    ax.legend(handles=[plt.Rectangle((0, 0), 1, 1, color=COLOURS[False]),
                       plt.Rectangle((0, 0), 1, 1, color=COLOURS[True])],
              labels=[f"in queue order ({shown[False]})", f"backfilled ({shown[True]})"],
              loc="upper right", fontsize=8, framealpha=0.9)
    ax.set_title(a.title or "/".join(os.path.abspath(a.jobs_csv).split(os.sep)[-3:]), fontsize=10)

    # utilization: busy machines / machines; queue: submitted, not yet started (rejected excluded)
    busy = [(j.start, sum(hi - lo + 1 for lo, hi in j.resources)) for j in run]
    busy += [(j.finish, -sum(hi - lo + 1 for lo, hi in j.resources)) for j in run]
    tb, vb = step_series(busy)
    axu.step(tb, [100.0 * v / nodes for v in vb], where="post", color="#55a868", lw=0.8)
    axu.set_ylim(0, 105)
    axu.set_ylabel("utilization (%)")
    tq, vq = step_series([(j.submit, 1) for j in run] + [(j.start, -1) for j in run])
    axq.step(tq, vq, where="post", color="#c44e52", lw=0.8)
    axq.set_ylabel("queued jobs")
    # y range from the window only (the whole trace's peak can hide the window's queue)
    inside = [v for t, v in zip(tq, vq) if t0 <= t <= t1]
    before = [v for t, v in zip(tq, vq) if t < t0][-1:]
    axq.set_ylim(0, 1.1 * max(inside + before + [1]))
    axq.set_xlabel("time (s)")
    axq.ticklabel_format(axis="x", style="plain", useOffset=False)
    for axis in (axu, axq):
        axis.grid(alpha=0.3)
    fig.tight_layout()
    print(" ".join(save(fig, out)))


if __name__ == "__main__":
    main()

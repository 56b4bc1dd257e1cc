#!/usr/bin/python3
"""CDF of waiting times (executed jobs) of several Batsim _jobs.csv files, one curve each.

  plot_wait_cdf.py [LABEL=]JOBS.csv ... [--out FILE.png] [--title TEXT]

Works on any Batsim _jobs.csv (batfill, batsched). The label defaults to the run's policy
directory (results/.../runs/TRACE/POLICY_ORDER_VARIANT/...) or the file name. Log-scaled x axis
(wait + 1 s). Writes FILE.png and FILE.svg."""
import argparse
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from batsim_jobs import POLICY_ORDER, executed, policy_colour, read_jobs, save  # noqa: E402


def label_of(path):
    parent = os.path.basename(os.path.dirname(os.path.abspath(path)))
    if parent.count("_") == 2:                       # POLICY_ORDER_VARIANT of the pipeline
        policy, order, variant = parent.split("_")
        return policy + ("" if variant == "default" else f" ({variant})")
    return os.path.basename(path).replace("_jobs.csv", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--out", default="wait_cdf.png")
    ap.add_argument("--title", default="CDF of waiting times")
    a = ap.parse_args()
    fig, ax = plt.subplots(figsize=(7, 4.5))
    curves = []
    for item in a.inputs:
        label, sep, path = item.partition("=")
        if not sep or not os.path.exists(path):
            label, path = label_of(item), item
        curves.append((label, path))
    order = lambda c: (POLICY_ORDER.index(c[0].split(" ")[0]) if c[0].split(" ")[0] in POLICY_ORDER else 99, c[0])
    for label, path in sorted(curves, key=order):
        waits = sorted(j.wait for j in executed(read_jobs(path)))
        n = len(waits)
        colour = policy_colour(label) if label.split(" ")[0] in POLICY_ORDER else None
        ax.step([w + 1 for w in waits], [(i + 1) / n for i in range(n)], where="post", lw=1.3, color=colour,
                label=f"{label} (mean {sum(waits) / n:,.0f} s)")
    ax.set_xscale("log")
    ax.set_xlabel("waiting time + 1 (s, log scale)")
    ax.set_ylabel("fraction of executed jobs")
    ax.set_ylim(0, 1.01)
    ax.grid(alpha=0.3, which="both")
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(a.title, fontsize=10)
    fig.tight_layout()
    print(" ".join(save(fig, a.out)))


if __name__ == "__main__":
    main()

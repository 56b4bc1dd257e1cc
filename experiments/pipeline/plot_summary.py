#!/usr/bin/python3
"""Figures from a pipeline summary.csv (results/<target>/summary.csv):

  plot_summary.py load    SUMMARY.csv [--metric M] [--out FILE.png]   metric vs load, one panel per
                                                  trace, one line per policy, 95 % CI band over seeds
  plot_summary.py bars    SUMMARY.csv [--metric M] [--load L] [--out FILE.png]   bar chart per trace
                                                  and policy at one load, 95 % CI error bars

M is a summary column (default mean_bounded_slowdown). Means and Student-t intervals over the
seeds of each (trace, policy, options, load), as in summary.md. Writes FILE.png and FILE.svg."""
import argparse
import csv
import math
import os
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "scripts"))
from batsim_jobs import POLICY_ORDER, policy_colour as colour, save  # noqa: E402
from summarize import mean_ci  # noqa: E402

LABELS = {"mean_bounded_slowdown": "mean bounded slowdown", "mean_wait": "mean wait (s)",
          "utilization": "utilization", "makespan": "makespan (s)", "p95_wait": "p95 wait (s)",
          "max_wait": "max wait (s)", "p50_wait": "median wait (s)", "wall_time": "wall time (s)"}


def groups(path, metric):
    """{(trace, policy+options): {load: [values]}}"""
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            name = r["policy"] + ("" if r["options"] in ("", "--order fcfs") else f" {r['options']}")
            load = float(r["load"]) if r["load"] else 1.0
            out.setdefault(r["trace"], {}).setdefault(name, {}).setdefault(load, []).append(float(r[metric]))
    return out


def policy_key(p):
    base = p.split(" ")[0]
    return (POLICY_ORDER.index(base) if base in POLICY_ORDER else 99, p)


def plot_load(data, metric, out):
    traces = sorted(data)
    cols = min(3, len(traces))
    rows = math.ceil(len(traces) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.4 * rows), squeeze=False)
    for ax, trace in zip(axes.flat, traces):
        for policy in sorted(data[trace], key=policy_key):
            by_load = data[trace][policy]
            loads = sorted(by_load)
            stats = [mean_ci(by_load[l]) for l in loads]
            m = [s[0] for s in stats]
            h = [0 if math.isnan(s[1]) else s[1] for s in stats]
            ax.plot(loads, m, marker="o", ms=3, lw=1.3, color=colour(policy), label=policy)
            ax.fill_between(loads, [x - y for x, y in zip(m, h)], [x + y for x, y in zip(m, h)],
                            color=colour(policy), alpha=0.2, lw=0)
        ax.set_title(trace, fontsize=10)
        ax.set_yscale("log")
        ax.set_xlabel("load factor")
        ax.set_ylabel(LABELS.get(metric, metric) + " (log)")
        ax.grid(alpha=0.3, which="both")
    for ax in list(axes.flat)[len(traces):]:
        ax.axis("off")
    handles, labels = axes.flat[0].get_legend_handles_labels()
    if len(traces) < rows * cols:
        list(axes.flat)[-1].legend(handles, labels, loc="center", fontsize=9, title="policy")
    else:
        axes.flat[0].legend(fontsize=7)
    fig.suptitle(f"{LABELS.get(metric, metric)} vs load (mean over seeds, 95 % CI band)", fontsize=11)
    fig.tight_layout()
    return fig


def plot_bars(data, metric, load, out):
    traces = sorted(data)
    policies = sorted({p for t in traces for p in data[t]}, key=policy_key)
    width = 0.8 / len(policies)
    fig, ax = plt.subplots(figsize=(max(7, 1.6 * len(traces) + 2), 4.2))
    for k, policy in enumerate(policies):
        xs, ms, hs = [], [], []
        for i, trace in enumerate(traces):
            values = data[trace].get(policy, {}).get(load)
            if not values:
                continue
            m, h = mean_ci(values)
            xs.append(i - 0.4 + width * (k + 0.5))
            ms.append(m)
            hs.append(0 if math.isnan(h) else h)
        ax.bar(xs, ms, width, yerr=hs, capsize=2, color=colour(policy), label=policy)
    ax.set_xticks(range(len(traces)))
    ax.set_xticklabels(traces, fontsize=9)
    ax.set_yscale("log")
    ax.set_ylabel(LABELS.get(metric, metric) + " (log)")
    ax.grid(alpha=0.3, axis="y", which="both")
    ax.legend(fontsize=8, ncol=min(5, len(policies)))
    ax.set_title(f"{LABELS.get(metric, metric)} at load {load:g} (mean over seeds, 95 % CI)", fontsize=10)
    fig.tight_layout()
    return fig


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=["load", "bars"])
    ap.add_argument("summary")
    ap.add_argument("--metric", default="mean_bounded_slowdown")
    ap.add_argument("--load", type=float, default=1.0)
    ap.add_argument("--out")
    a = ap.parse_args()
    data = groups(a.summary, a.metric)
    out = a.out or os.path.join(os.path.dirname(a.summary), f"{a.kind}_{a.metric}.png")
    fig = plot_load(data, a.metric, out) if a.kind == "load" else plot_bars(data, a.metric, a.load, out)
    print(" ".join(save(fig, out)))


if __name__ == "__main__":
    main()

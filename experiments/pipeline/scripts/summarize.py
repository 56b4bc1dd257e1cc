#!/usr/bin/python3
"""Concatenates per-run _stats.csv files into summary.csv and writes summary.md: per (trace,
policy, options, load), the mean over seeds and its 95 % Student-t confidence half-width.
Usage: summarize.py SUMMARY.csv SUMMARY.md STATS.csv...   (standard library only)"""
import csv
import math
import statistics
import sys

# two-sided 95 % Student t quantiles t(0.975, df), df = 1..30; 1.96 beyond
T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042]


def t975(df):
    return T975[df - 1] if df <= len(T975) else 1.96


def mean_ci(values):
    """(mean, half-width of the 95 % CI); half-width is nan with a single value."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, float("nan")
    return m, t975(len(values) - 1) * statistics.stdev(values) / math.sqrt(len(values))


def fmt(m, h, digits):
    s = f"{m:,.{digits}f}"
    return s if math.isnan(h) else f"{s} ± {h:,.{digits}f}"


def load_key(row):
    return float(row["load"]) if row["load"] else 1.0


def main():
    out_csv, out_md, inputs = sys.argv[1], sys.argv[2], sys.argv[3:]
    rows, fields = [], None
    for path in inputs:
        with open(path, newline="") as f:
            r = csv.DictReader(f)
            fields = fields or r.fieldnames
            rows.extend(r)
    seed_key = lambda r: int(r["seed"]) if r["seed"] else -1
    rows.sort(key=lambda r: (r["trace"], r["policy"], r["options"], load_key(r), seed_key(r)))
    with open(out_csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)

    groups = {}
    for r in rows:
        groups.setdefault((r["trace"], r["policy"], r["options"], r["load"]), []).append(r)
    metrics = [("makespan", "makespan (s)", 0), ("utilization", "utilization (%)", 2),
               ("mean_wait", "mean wait (s)", 0), ("p50_wait", "p50 wait (s)", 0),
               ("p95_wait", "p95 wait (s)", 0), ("max_wait", "max wait (s)", 0),
               ("mean_bounded_slowdown", "mean bounded slowdown", 3), ("wall_time", "wall time (s)", 3)]
    with open(out_md, "w") as f:
        f.write(f"# Summary: {len(rows)} runs\n\n")
        f.write("Means over shaking seeds, ± the half-width of the 95 % confidence interval "
                "(Student t, n − 1 degrees of freedom; no interval with a single seed). "
                "Waits over executed jobs, from `_jobs.csv`.\n\n")
        f.write("| trace | policy | options | load | seeds | jobs | " + " | ".join(m[1] for m in metrics) + " |\n")
        f.write("|" + "---|" * (6 + len(metrics)) + "\n")
        for (trace, policy, options, load), g in groups.items():
            cells = [trace, policy, f"`{options}`" if options else "", load or "—", str(len(g)), g[0]["jobs"]]
            for key, _, digits in metrics:
                vals = [float(x[key]) for x in g]
                if key == "utilization":
                    vals = [100 * v for v in vals]
                cells.append(fmt(*mean_ci(vals), digits))
            f.write("| " + " | ".join(cells) + " |\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the scale benchmark's table (and figure, when matplotlib is installed).

usage: report.py RESULTS.csv OUT.md FIGURE_DIR
"""
import csv
import datetime
import os
import platform
import sys

TARGETS = ("1M jobs with `easy` in at most 8 s and 250 MB; 10M jobs in at most 90 s and 300 MB; "
           "replay CPU at most 3 x the first pass's under `none` and `easy`, 5 x under "
           "`conservative-classic`")


def cpu_ratio(row):
    first_cpu = float(row["first_pass_cpu_s"] or 0)
    return float(row["cpu_s"]) / first_cpu if first_cpu else 0


def verdict(measured, limit, unit):
    if measured <= limit:
        return f"met ({measured:g} {unit}, limit {limit:g})"
    return f"**missed** by {measured / limit:.1f} x ({measured:g} {unit}, limit {limit:g})"


def verdicts(rows):
    """The targets, each met or missed by how much, from this run's rows."""
    def find(copies, policy):
        return [r for r in rows if r["copies"] == copies and r["policy"] == policy]
    table = ["Targets, from this run:", "", "| target | result |", "|---|---|"]
    for copies, jobs, wall, rss in (("4", "1M", 8, 250), ("41", "10M", 90, 300)):
        found = find(copies, "easy")
        if not found:
            table.append(f"| {jobs} jobs, `easy`, {wall} s and {rss} MB | not run "
                         "(`SCALE_10M=1` runs it) |")
            continue
        r = found[0]
        table.append(f"| {jobs} jobs, `easy`: wall time | {verdict(float(r['wall_s']), wall, 's')} |")
        table.append(f"| {jobs} jobs, `easy`: peak memory | "
                     f"{verdict(float(r['max_rss_mb']), rss, 'MB')} |")
    for policy, limit in (("none", 3), ("easy", 3), ("conservative-classic", 5)):
        for r in find("1", policy):
            table.append(f"| SDSC-BLUE, `{policy}`: CPU / first pass CPU | "
                         f"{verdict(round(cpu_ratio(r), 1), limit, 'x')} |")
    return table + ["", f"Targets as set: {TARGETS}."]


def main():
    results, out, figure_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    rows = list(csv.DictReader(open(results)))
    lines = [
        "# Scale benchmark",
        "",
        f"Measured by `experiments/benchmarks/scale/run.sh` on {datetime.date.today()}, "
        f"{platform.node()}, {os.cpu_count()} CPUs. SDSC-BLUE (243,306 jobs, 144 nodes) repeated "
        "k times, each copy shifted past the previous one's makespan, so every copy must be "
        "scheduled exactly like the first (checked per job: state, wait, execution time, "
        "machines). Whole `batfill simulate` runs: wall time and peak resident memory "
        "(`/usr/bin/time`).",
        "",
        f"Targets: {TARGETS}.",
        "",
        "CPU time is user + system time (steadier than wall time on a shared machine); the first "
        "pass is the summary's reading time, one parse of the whole trace (docs/semantics.md "
        "docs/semantics.md#streaming-replay), in wall and CPU time; the ratio is the run's CPU time over the first pass's CPU "
        "time.",
        "",
        "| copies | jobs | policy | wall time (s) | CPU time (s) | first pass (s) | first pass CPU "
        "(s) | CPU / first pass CPU | peak memory (MB) | copies identical |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    at = lines.index(f"Targets: {TARGETS}.")
    lines[at:at + 1] = verdicts(rows)
    for r in rows:
        ratio = cpu_ratio(r)
        lines.append(f"| {r['copies']} | {int(r['jobs']):,} | {r['policy']} | {r['wall_s']} | "
                     f"{r['cpu_s']} | {r['first_pass_s']} | {r['first_pass_cpu_s']} | "
                     f"{ratio:.1f} | {r['max_rss_mb']} | {r['copies_identical']} |")
    # Why the targets that are missed are missed: hand-written, from profiles.
    analysis = os.path.join(os.path.dirname(out), "analysis.md")
    if os.path.exists(analysis):
        lines += ["", open(analysis).read().rstrip()]
    # The schedulers beside a real Batsim (beside_batsim/batsim_vs_batsched.sh), under its own title.
    beside = os.path.join(os.path.dirname(out), "..", "beside_batsim", "batsim_vs_batsched.md")
    if os.path.exists(beside):
        text = open(beside).read().rstrip().split("\n", 1)[1]
        lines += ["", "## batfill serve vs batsched beside a real Batsim", "", text.lstrip("\n")]
    # Hand-written measurements of earlier versions, kept across runs.
    history = os.path.join(os.path.dirname(out), "history.md")
    if os.path.exists(history):
        lines += ["", open(history).read().rstrip()]
    open(out, "w").write("\n".join(lines) + "\n")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no figure")
        return
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 3.5))
    for policy in sorted({r["policy"] for r in rows}):
        mine = sorted((int(r["jobs"]), float(r["wall_s"]), float(r["max_rss_mb"]))
                      for r in rows if r["policy"] == policy)
        left.plot([m[0] for m in mine], [m[1] for m in mine], marker="o", label=policy)
        right.plot([m[0] for m in mine], [m[2] for m in mine], marker="o", label=policy)
    for axis, label in ((left, "wall time (s)"), (right, "peak memory (MB)")):
        axis.set_xlabel("jobs")
        axis.set_ylabel(label)
        axis.grid(alpha=0.3)
    left.legend(fontsize=7)
    fig.tight_layout()
    for ext in ("png", "svg"):
        fig.savefig(os.path.join(figure_dir, f"scale.{ext}"), dpi=90)


if __name__ == "__main__":
    main()

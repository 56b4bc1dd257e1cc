#!/usr/bin/python3
"""The energy experiment's points (README.md beside this file): reads the runs' _schedule.csv in
OUT_DIR and writes points.csv, results.md and energy.png (when matplotlib is there) to
RESULTS_DIR. A run that has no _schedule.csv yet is listed as missing.
Usage: table.py OUT_DIR RESULTS_DIR DAYS   (DAYS: the traces' cut, as run.sh's)"""
import csv
import os
import sys

TRACES = [("KTH-SP2-1996-2.1-cln", "KTH-SP2", 100), ("SDSC-SP2-1998-4.2-cln", "SDSC-SP2", 128)]
AFTERS = ["0", "60", "300", "1800", "3600", "never"]
BATFILL = [(policy, after) for policy in ["easy-classic", "conservative-classic"] for after in AFTERS]
BATSCHED = ["energy_bf_idle_sleeper", "energy_bf", "conservative_bf"]
ENERGY_AWARE = BATSCHED[:2]   # conservative_bf never switches a machine: a reference only
COLUMNS = ["trace", "scheduler", "policy", "power_off_after", "consumed_joules",
           "mean_bounded_slowdown", "mean_waiting_time", "nb_machine_switches", "time_sleeping",
           "makespan", "simulation_time"]


def schedule(out, name):
    path = f"{out}/{name}_schedule.csv"
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return next(csv.DictReader(f))


def points(out):
    rows, missing = [], []
    for trace, label, _ in TRACES:
        runs = [("batfill", policy, after, f"{trace}_{policy}_{after}") for policy, after in BATFILL]
        runs += [("batsched", variant, "", f"{trace}_{variant}") for variant in BATSCHED]
        for scheduler, policy, after, name in runs:
            row = schedule(out, name)
            if row is None:
                missing.append(f"{label} {scheduler} {policy} {after}".strip())
                continue
            point = {"trace": label, "scheduler": scheduler, "policy": policy,
                     "power_off_after": after}
            for column in COLUMNS[4:]:
                point[column] = row[column]
            rows.append(point)
    return rows, missing


def dominates(a, b):
    """a uses less energy than b at an equal or lower mean bounded slowdown."""
    return (float(a["consumed_joules"]) < float(b["consumed_joules"]) and
            float(a["mean_bounded_slowdown"]) <= float(b["mean_bounded_slowdown"]))


def summary(rows):
    """Energy (GJ) / mean bounded slowdown per run, one column per trace (docs/experiments.md)."""
    print("| scheduler | policy | power_off_after | " +
          " | ".join(label for _, label, _ in TRACES) + " |")
    print("|---|---|---|" + "---|" * len(TRACES))
    keys = []
    for r in rows:
        key = (r["scheduler"], r["policy"], r["power_off_after"])
        if key not in keys:
            keys.append(key)
    for key in keys:
        cells = []
        for _, label, _ in TRACES:
            found = [r for r in rows if (r["scheduler"], r["policy"], r["power_off_after"]) == key
                     and r["trace"] == label]
            cells.append(f"{float(found[0]['consumed_joules']) / 1e9:.3f} / "
                         f"{float(found[0]['mean_bounded_slowdown']):.2f}" if found else "–")
        print(f"| {key[0]} | {key[1]} | {key[2] or '–'} | " + " | ".join(cells) + " |")
    print()


def report(rows, missing, days):
    cut = "the whole traces" if days == "all" else f"the jobs submitted in each trace's first {days} days"
    print("# Energy experiment: results\n")
    print(f"{cut.capitalize()}, on Batsim's 128-node energy platform (`energy_platform_homogeneous_no_net_128.xml`) cut to "
          "each trace's size, `simulate --energy`; energy in GJ over the whole run (Batsim's "
          "`consumed_joules`), mean bounded slowdown with tau = 10 s, mean wait in hours, "
          "wall = the run's wall time in seconds on a shared machine. Produced by "
          "`experiments/reproductions/energy/run.sh`.\n")
    summary(rows)
    for _, label, nodes in TRACES:
        mine = [r for r in rows if r["trace"] == label]
        print(f"## {label} ({nodes} machines)\n")
        print("| scheduler | policy | power_off_after | energy (GJ) | mean bounded slowdown | "
              "mean wait (h) | switches | wall (s) |")
        print("|---|---|---|---|---|---|---|---|")
        for r in mine:
            print(f"| {r['scheduler']} | {r['policy']} | {r['power_off_after'] or '-'} | "
                  f"{float(r['consumed_joules']) / 1e9:.3f} | "
                  f"{float(r['mean_bounded_slowdown']):.2f} | "
                  f"{float(r['mean_waiting_time']) / 3600:.2f} | {r['nb_machine_switches']} | "
                  f"{float(r['simulation_time']):.0f} |")
        print()
        theirs = [r for r in mine if r["scheduler"] == "batsched" and r["policy"] in ENERGY_AWARE]
        ours = [r for r in mine if r["scheduler"] == "batfill"]
        if not theirs:
            print("No run of batsched's energy schedulers finished: no comparison.\n")
            continue
        best = min(theirs, key=lambda r: float(r["consumed_joules"]))
        winners = [r for r in ours if dominates(r, best)]
        print(f"batsched's lowest energy (of its energy schedulers): {best['policy']}, "
              f"{float(best['consumed_joules']) / 1e9:.3f} GJ at mean bounded slowdown "
              f"{float(best['mean_bounded_slowdown']):.2f}. ", end="")
        if winners:
            names = ", ".join(f"{r['policy']} at {r['power_off_after']}" for r in winners)
            print(f"batfill points with less energy at an equal or lower mean bounded slowdown: "
                  f"{names}.\n")
        else:
            print("No batfill point uses less energy at an equal or lower mean bounded "
                  "slowdown.\n")
    if missing:
        print("Runs that did not finish: " + "; ".join(missing) + ".\n")


def figure(rows, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, axes = plt.subplots(1, len(TRACES), figsize=(12, 4.8))
    styles = {"easy-classic": ("o-", "tab:blue"), "conservative-classic": ("s-", "tab:orange")}
    for ax, (_, label, nodes) in zip(axes, TRACES):
        mine = [r for r in rows if r["trace"] == label]
        for policy, (marker, color) in styles.items():
            line = [r for r in mine if r["scheduler"] == "batfill" and r["policy"] == policy]
            xs = [float(r["mean_bounded_slowdown"]) for r in line]
            ys = [float(r["consumed_joules"]) / 1e9 for r in line]
            ax.plot(xs, ys, marker, color=color, label=f"batfill {policy}")
            for r, x, y in zip(line, xs, ys):
                ax.annotate(r["power_off_after"], (x, y), textcoords="offset points",
                            xytext=(4, 4), fontsize=7, color=color)
        for variant, marker in [("energy_bf_idle_sleeper", "^"), ("energy_bf", "v"),
                                ("conservative_bf", "x")]:
            for r in mine:
                if r["scheduler"] == "batsched" and r["policy"] == variant:
                    ax.plot(float(r["mean_bounded_slowdown"]), float(r["consumed_joules"]) / 1e9,
                            marker, color="tab:red", markersize=9, label=f"batsched {variant}")
        ax.set_xlabel("mean bounded slowdown (tau = 10 s)")
        ax.set_ylabel("energy (GJ)")
        ax.set_title(f"{label}, {nodes} machines")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    out, results = sys.argv[1], sys.argv[2]
    rows, missing = points(out)
    with open(os.path.join(results, "points.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(results, "results.md"), "w") as f:
        sys.stdout = f
        report(rows, missing, sys.argv[3])
        sys.stdout = sys.__stdout__
    figure(rows, os.path.join(results, "energy.png"))


if __name__ == "__main__":
    main()

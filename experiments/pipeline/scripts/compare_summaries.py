#!/usr/bin/python3
"""Exit 0 if two summary.csv files are identical except the columns named on the command line
(default: wall_time); otherwise print the differing rows and exit 1.
Usage: compare_summaries.py A.csv B.csv [--ignore COL ...]"""
import argparse
import csv
import sys

ap = argparse.ArgumentParser()
ap.add_argument("a")
ap.add_argument("b")
ap.add_argument("--ignore", nargs="*", default=["wall_time"])
args = ap.parse_args()


def load(path):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        cols = [c for c in r.fieldnames if c not in args.ignore]
        return cols, [tuple(row[c] for c in cols) for row in r]


ca, ra = load(args.a)
cb, rb = load(args.b)
if ca != cb:
    sys.exit(f"different columns:\n  {ca}\n  {cb}")
if not ra:
    sys.exit(f"{args.a}: no rows")
bad = [(x, y) for x, y in zip(ra, rb) if x != y]
if len(ra) != len(rb) or bad:
    print(f"{len(ra)} vs {len(rb)} rows; {len(bad)} differ", file=sys.stderr)
    for x, y in bad[:10]:
        print(f"  {x}\n  {y}", file=sys.stderr)
    sys.exit(1)
print(f"identical except {', '.join(args.ignore)}: {len(ra)} rows, {len(ca)} columns")

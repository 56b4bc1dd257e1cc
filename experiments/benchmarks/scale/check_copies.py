#!/usr/bin/env python3
"""Checks that every copy of a repeated trace was scheduled like the first one.

usage: check_copies.py JOBS.csv COPIES SHIFT_SECONDS ID_STEP

For each job of copy k (id // ID_STEP == k), its waiting time, execution time, final state and
allocated machines must equal those of the job with the same original id in copy 0, and its
start must be exactly k * SHIFT_SECONDS later. Prints the number of jobs checked and the first
differences; exits 1 if any.
"""
import csv
import sys


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    path, copies, shift, step = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    base, others = {}, []
    with open(path, newline="") as rows:
        for row in csv.DictReader(rows):
            job = int(row["job_id"])
            key = (row["final_state"], row["waiting_time"], row["execution_time"],
                   row["allocated_resources"])
            start = row["starting_time"]
            if job // step == 0:
                base[job] = (key, start)
            else:
                others.append((job // step, job % step, key, start))
    differences = []
    for copy, original, key, start in others:
        expected_key, expected_start = base.get(original, (None, None))
        same_start = (start == expected_start == "" or
                      (start and expected_start and
                       abs(float(start) - float(expected_start) - copy * shift) < 1e-6))
        if key != expected_key or not same_start:
            differences.append((copy, original, key, expected_key))
    checked = len(others)
    print(f"{checked} jobs of copies 1..{copies - 1} checked against copy 0 ({len(base)} jobs): "
          f"{len(differences)} differ")
    for copy, original, key, expected in differences[:5]:
        print(f"  copy {copy} job {original}: {key} instead of {expected}")
    sys.exit(1 if differences or checked != len(base) * (copies - 1) else 0)


if __name__ == "__main__":
    main()

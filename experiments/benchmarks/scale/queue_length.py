#!/usr/bin/env python3
"""The wait queue's time-averaged and peak length over a replay, read from its _jobs.csv: each
job waits over [submission_time, starting_time). The mean is the total wait over the span from
the first submission to the last start (Little's law); the peak, the most intervals open at once
(a start before a submission at one instant). Nothing is counted inside the replay, so it costs
the replay nothing.
Usage: queue_length.py JOBS_CSV   -> prints "mean peak"
"""
import csv
import sys


def main(path):
    changes = []
    total_wait = 0.0
    first, last = None, None
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["starting_time"] in ("", "-1"):
                continue  # rejected
            submit, start = float(row["submission_time"]), float(row["starting_time"])
            changes += [(submit, 1), (start, -1)]
            total_wait += start - submit
            first = submit if first is None else min(first, submit)
            last = start if last is None else max(last, start)
    changes.sort()
    waiting = peak = 0
    for _, change in changes:
        waiting += change
        peak = max(peak, waiting)
    span = (last - first) if changes and last > first else 1.0
    print("%.0f %d" % (total_wait / span, peak))


if __name__ == "__main__":
    main(sys.argv[1])

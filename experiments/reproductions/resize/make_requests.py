#!/usr/bin/python3
"""Writes the resize requests of the experiment (README.md beside this file) as batfill's
--resize CSV: a seeded 10 % of the trace's jobs each ask once, halfway through their run, for
25 % more nodes (rounded up).

usage: make_requests.py TRACE.swf[.gz] OUT.csv [SEED] [FRACTION] [GROWTH]

Jobs are read with batfill's SWF conventions (docs/semantics.md#swf): id field 1, runtime field
4, nodes field 8 (field 5 when 8 is missing), limit field 9 (the runtime when missing). Only jobs
that run at least 2 s are chosen, so that "halfway" is a whole second strictly inside the run
and before the limit, as --resize requires.
"""
import gzip
import math
import random
import sys


def jobs(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith(";") or len(fields) < 9:
                continue
            job_id, runtime, nodes, limit = fields[0], int(float(fields[3])), int(fields[7]), int(float(fields[8]))
            if nodes <= 0:
                nodes = int(fields[4])
            if limit <= 0:
                limit = runtime
            run = min(runtime, limit)
            if nodes > 0 and run >= 2:
                yield job_id, nodes, run


def requests(path, seed=1, fraction=0.10, growth=0.25):
    eligible = list(jobs(path))
    chosen = random.Random(seed).sample(eligible, round(fraction * len(eligible)))
    chosen_ids = {job_id for job_id, _, _ in chosen}
    # In trace order, so the file reads like the trace.
    return [(job_id, run // 2, math.ceil(growth * nodes))
            for job_id, nodes, run in eligible if job_id in chosen_ids]


def main():
    trace, out = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    fraction = float(sys.argv[4]) if len(sys.argv) > 4 else 0.10
    growth = float(sys.argv[5]) if len(sys.argv) > 5 else 0.25
    rows = requests(trace, seed, fraction, growth)
    with open(out, "w") as f:
        f.write("job_id,after,nodes\n")
        for job_id, after, nodes in rows:
            f.write(f"{job_id},{after},{nodes}\n")
    print(f"{len(rows)} requests in {out}")


if __name__ == "__main__":
    main()

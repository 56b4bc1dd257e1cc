#!/usr/bin/env python3
"""Builds a large SWF trace by repeating a real one, each copy shifted in time.

usage: make_trace.py TRACE.swf[.gz] COPIES SHIFT_SECONDS OUT.swf[.gz]

Copy k (0-based) submits every job SHIFT_SECONDS * k later, and its job ids are the original
ids plus k * 10^d, where 10^d exceeds every original id, so ids stay unique and numeric. With a
shift of at least one copy's makespan the copies never overlap in time, so every copy must be
scheduled exactly like the original (check_copies.py verifies it). The header is the original
one, so the machine size (MaxProcs) is unchanged.
"""
import gzip
import sys


def open_text(path, mode):
    return gzip.open(path, mode + "t") if path.endswith(".gz") else open(path, mode)


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    trace, copies, shift, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    header, records = [], []
    with open_text(trace, "r") as lines:
        for line in lines:
            fields = line.split()
            if not fields:
                continue
            if fields[0].startswith(";"):
                header.append(line.rstrip("\n"))
            else:
                records.append(fields)
    id_step = 10 ** len(str(max(int(f[0]) for f in records)))
    with open_text(out, "w") as output:
        for line in header:
            output.write(line + "\n")
        output.write(f"; batfill scale trace: {copies} copies of {trace}, shifted by {shift} s, "
                     f"ids + k * {id_step}\n")
        for k in range(copies):
            for fields in records:
                copy = list(fields)
                copy[0] = str(int(fields[0]) + k * id_step)
                copy[1] = str(int(fields[1]) + k * shift)
                output.write(" ".join(copy) + "\n")


if __name__ == "__main__":
    main()

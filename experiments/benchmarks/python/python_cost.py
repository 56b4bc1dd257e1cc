"""What Python costs in a replay, side by side in one run (docs/performance.md, "Python"):

1. a policy written in Python against the same policy in C++, on KTH-SP2: the example EASY
   (python/examples/easy.py) against easy-classic, a Python FCFS against `none`;
2. batfill.simulate against the `batfill simulate` command, on SDSC-BLUE (easy).

CPU time (user + system) of each whole replay, the child process included, and its wall time,
median of REPEATS runs interleaved so that a load change hits every case alike:

    PYTHONPATH=build/python /usr/bin/python3 experiments/benchmarks/python/python_cost.py [REPEATS]
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "python", "examples"))
sys.path.insert(0, os.path.join(ROOT, "python", "tests"))

import batfill  # noqa: E402
import easy  # noqa: E402
from test_policy import Fcfs  # noqa: E402

KTH = os.path.join(ROOT, "workloads", "KTH-SP2-1996-2.1-cln.swf.gz")
BLUE = os.path.join(ROOT, "workloads", "SDSC-BLUE-2000-4.2-cln.swf.gz")
BINARY = os.path.join(ROOT, "build", "batfill")


def cpu():
    """CPU seconds of this process and its ended children."""
    own, children = (resource.getrusage(who) for who in
                     (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measured(run):
    """CPU and wall seconds of run()."""
    start, wall = cpu(), time.perf_counter()
    run()
    return cpu() - start, time.perf_counter() - wall


def cli(workload, *options):
    with tempfile.TemporaryDirectory() as directory:
        subprocess.run([BINARY, "simulate", workload, "--no-progress", "--output",
                        os.path.join(directory, "out"), *options], check=True,
                       stdout=subprocess.DEVNULL)


CASES = {
    "KTH-SP2, easy-classic in C++": lambda: batfill.simulate(KTH, backfill="easy-classic"),
    "KTH-SP2, EASY in Python": lambda: batfill.simulate(KTH, backfill=easy.Easy()),
    "KTH-SP2, none in C++": lambda: batfill.simulate(KTH, backfill="none"),
    "KTH-SP2, FCFS in Python": lambda: batfill.simulate(KTH, backfill=Fcfs()),
    "SDSC-BLUE, easy, batfill simulate": lambda: cli(BLUE, "--backfill", "easy"),
    "SDSC-BLUE, easy, batfill.simulate": lambda: batfill.simulate(BLUE, backfill="easy").jobs,
}


def main():
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    times = {case: [] for case in CASES}
    for _ in range(repeats):
        for case, run in CASES.items():
            times[case].append(measured(run))
    print(f"| case | CPU (s), median of {repeats} | wall (s), median | CPU runs |")
    print("|---|---|---|---|")
    for case, values in times.items():
        runs = ", ".join(f"{cpu_time:.2f}" for cpu_time, _ in values)
        print(f"| {case} | {statistics.median(v[0] for v in values):.2f} | "
              f"{statistics.median(v[1] for v in values):.2f} | {runs} |")


if __name__ == "__main__":
    main()

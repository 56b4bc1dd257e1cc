"""What the Python tests share: the repository's files and the CLI to compare with."""

import os
import subprocess
import tempfile

SOURCE = os.environ.get("BATFILL_SOURCE_DIR",
                        os.path.join(os.path.dirname(__file__), "..", ".."))
BINARY = os.environ.get("BATFILL_BINARY", os.path.join(SOURCE, "build", "batfill"))
KTH = os.path.join(SOURCE, "workloads", "KTH-SP2-1996-2.1-cln.swf.gz")
DREVT = os.path.join(SOURCE, "workloads", "drevt-huge_2000jobs.csv")
TINY = os.path.join(SOURCE, "workloads", "tiny.swf")

# Wall times: the only values of _schedule.csv that differ from run to run.
WALL_TIMES = ("scheduling_time", "simulation_time")


def cli_outputs(workload, *options):
    """`batfill simulate`'s _jobs.csv (bytes) and _schedule.csv (keys to texts)."""
    with tempfile.TemporaryDirectory() as directory:
        prefix = os.path.join(directory, "cli")
        subprocess.run([BINARY, "simulate", workload, "--output", prefix, "--no-progress",
                        *options], check=True, stdout=subprocess.DEVNULL)
        return read_outputs(prefix)


def cli_error(workload, *options):
    """What `batfill simulate` prints on failing, without its "batfill simulate: error: "."""
    run = subprocess.run([BINARY, "simulate", workload, "--output", "/nonexistent/x",
                          "--no-progress", *options], capture_output=True, text=True)
    assert run.returncode != 0, run.stdout
    return run.stderr.strip().removeprefix("batfill simulate: error: ")


def read_outputs(prefix):
    with open(prefix + "_jobs.csv", "rb") as jobs:
        jobs_bytes = jobs.read()
    with open(prefix + "_schedule.csv") as schedule:
        header, values = schedule.read().splitlines()
    return jobs_bytes, dict(zip(header.split(","), values.split(",")))


def python_outputs(result):
    """The files Result.to_csv writes, read as cli_outputs reads the CLI's."""
    with tempfile.TemporaryDirectory() as directory:
        prefix = os.path.join(directory, "py")
        result.to_csv(prefix)
        return read_outputs(prefix)


def without_wall_times(schedule):
    return {key: value for key, value in schedule.items() if key not in WALL_TIMES}

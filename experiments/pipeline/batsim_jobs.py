"""Reading Batsim _jobs.csv files (batfill's, batsched's, any Batsim 3/4 run). Standard library only."""
import csv
import re


def _id_key(job_id):
    """Sort key of a job id: 'w0!12' and '12' both sort as 12, numerically; other ids as text."""
    tail = job_id.rsplit("!", 1)[-1]
    return (0, int(tail), job_id) if re.fullmatch(r"\d+", tail) else (1, 0, job_id)


def parse_resources(text):
    """'0-3 7' -> [(0, 3), (7, 7)] (inclusive intervals). Batsim 3 also writes '0-3,7'."""
    out = []
    for part in re.split(r"[ ,]+", text.strip()):
        if not part:
            continue
        lo, _, hi = part.partition("-")
        out.append((int(lo), int(hi or lo)))
    return out


class Job:
    __slots__ = ("id", "submit", "start", "finish", "wait", "nodes", "walltime", "resources",
                 "backfilled", "state")


def read_jobs(path):
    """All jobs of a _jobs.csv; executed ones have start/finish/resources, rejected ones start=None.
    Sets `backfilled` (see mark_backfilled)."""
    jobs = []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            j = Job()
            j.id = row["job_id"]
            j.submit = float(row["submission_time"])
            j.nodes = int(float(row.get("requested_number_of_resources") or 0))
            j.walltime = float(row["requested_time"]) if row.get("requested_time") else None
            j.state = row.get("final_state", "")
            started = row.get("starting_time", "") not in ("", None)
            j.start = float(row["starting_time"]) if started else None
            j.finish = float(row["finish_time"]) if started else None
            j.wait = float(row["waiting_time"]) if started else None
            j.resources = parse_resources(row.get("allocated_resources") or "") if started else []
            j.backfilled = False
            jobs.append(j)
    mark_backfilled(jobs)
    return jobs


def mark_backfilled(jobs):
    """A job is backfilled when it started while an earlier-submitted job (queue order: submission
    time, then id) was still waiting, i.e. some job before it in that order started strictly later."""
    executed = sorted((j for j in jobs if j.start is not None), key=lambda j: (j.submit, _id_key(j.id)))
    latest = float("-inf")
    for j in executed:
        j.backfilled = latest > j.start
        latest = max(latest, j.start)


def executed(jobs):
    return [j for j in jobs if j.start is not None]


def machine_count(jobs):
    return 1 + max((hi for j in jobs for _, hi in j.resources), default=-1)


def step_series(events):
    """events: [(time, delta)] -> (times, values) of the running sum, one point per distinct time."""
    events.sort()
    times, values, level = [], [], 0
    for t, d in events:
        level += d
        if times and times[-1] == t:
            values[-1] = level
        else:
            times.append(t)
            values.append(level)
    return times, values


def save(fig, out):
    """Saves out (.png or .svg) and the other format beside it; returns the paths."""
    base = out[:-4] if out.endswith((".png", ".svg")) else out
    paths = [base + ".png", base + ".svg"]
    fig.savefig(paths[0], dpi=110)
    fig.savefig(paths[1])
    return paths


POLICY_ORDER = ["none", "easy", "easy-classic", "conservative", "conservative-classic"]


def policy_colour(policy):
    """The same colour for a policy in every figure (matplotlib's C0..C9 cycle)."""
    base = policy.split(" ")[0]
    return f"C{POLICY_ORDER.index(base)}" if base in POLICY_ORDER else f"C{5 + sum(map(ord, policy)) % 5}"

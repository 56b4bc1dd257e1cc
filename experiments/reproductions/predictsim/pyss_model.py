#!/usr/bin/env python3
"""A small, independent model of the event handling of predictsim's pyss FCFS+EASY run, written
from the published description of its algorithm (not a copy of its code), used only to EXPLAIN
the differences between batfill and the reference schedules.

Rules modelled (see results.md, "Why the schedules differ"):
  * one event at a time, in the order (time, type, creation counter) with type order
    submission < termination; every event triggers its own scheduling pass;
  * a submission triggers a pass only if the submitted job fits in the processors free now;
  * the availability profile frees a job's processors at its planned end (start + requested
    time) even before its termination event is handled, and at the handling of its termination
    event when it ends early;
  * a pass = start the head while it fits; then, if jobs remain behind a blocked head, reserve the
    head at its earliest start (shadow) and scan the rest once in queue order: a job starts if it
    fits now and the profile keeps room for it until its planned end (equivalently: it ends by the
    shadow, or it fits in the extra processors left at the shadow).

Other modes switch single rules off to attribute the differences (MODES below); "batched"
applies all completions of an instant, then all its submissions, then schedules (docs/semantics.md#one-instant:
the batching batfill uses).

usage: pyss_model.py INPUT.swf OUT.csv [MODE]    (OUT.csv: id,submit,start,run,backfilled)
"""
import heapq
import sys


def read_swf(path):
    total = None
    jobs = []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith(";"):
                if s[1:].strip().startswith("MaxProcs:"):
                    total = int(s.split(":", 1)[1])
                continue
            if not s:
                continue
            x = s.split()
            jobs.append(dict(id=int(x[0]), submit=int(x[1]), run=int(x[3]), procs=int(x[7]),
                             req=int(x[8]), start=None, bf=0))
    return total, jobs


def simulate(total, jobs, opts):
    running = {}  # id -> job, kept until its termination is handled
    queue = []
    counter = [0]
    events = []
    for j in jobs:  # file order = creation order of submission events
        counter[0] += 1
        heapq.heappush(events, (j["submit"], 0, counter[0], j))

    def free(t):
        return total - sum(r["procs"] for r in running.values() if r["start"] + r["req"] > t)

    def start(j, t, bf):
        j["start"], j["bf"] = t, bf
        running[j["id"]] = j
        counter[0] += 1
        heapq.heappush(events, (t + j["run"], 1, counter[0], j))

    def schedule(t):
        while queue and free(t) >= queue[0]["procs"]:
            start(queue.pop(0), t, 0)
        if len(queue) <= 1:
            return
        head = queue[0]
        avail = free(t)
        ends = {}
        for r in running.values():
            e = r["start"] + r["req"]
            if e > t:
                ends[e] = ends.get(e, 0) + r["procs"]
        shadow = None
        for e in sorted(ends):
            avail += ends[e]
            if avail >= head["procs"]:
                shadow = e
                break
        extra = avail - head["procs"]
        free_now = free(t)
        for j in list(queue[1:]):
            if j["procs"] > free_now:
                continue
            if t + j["req"] <= shadow:
                pass
            elif j["procs"] <= extra:
                extra -= j["procs"]
            else:
                continue
            queue.remove(j)
            free_now -= j["procs"]
            start(j, t, 1)

    while events:
        t = events[0][0]
        batch = []
        while events and events[0][0] == t:
            batch.append(heapq.heappop(events))
        subs = [b[3] for b in batch if b[1] == 0]   # creation order = file order
        terms = [b[3] for b in batch if b[1] == 1]  # creation order = order of the starts
        sub_steps = [("sub", subs)] if opts["group_subs"] else [("sub", [j]) for j in subs]
        term_steps = [("term", terms)] if opts["group_terms"] else [("term", [j]) for j in terms]
        steps = term_steps + sub_steps if opts["term_first"] else sub_steps + term_steps
        steps = [s for s in steps if s[1]]
        for kind, group in steps:
            if kind == "term":
                for j in group:
                    del running[j["id"]]
                schedule(t)
            else:
                queue.extend(group)
                if not opts["gate"] or len(group) > 1 or free(t) >= group[0]["procs"]:
                    schedule(t)
    return jobs


MODES = {
    # name: (term_first, group_terms, group_subs, gate)
    "pyss": (False, False, False, True),            # the published pyss run
    "pyss-nogate": (False, False, False, False),    # every submission triggers a pass
    "pyss-termfirst": (True, False, False, True),   # terminations before submissions
    "group-terms": (False, True, False, True),      # one pass for all completions of an instant
    "termfirst-group-terms": (True, True, False, True),
    "batched": (True, True, True, False),           # notes section 1 (batfill)
}


def main():
    total, jobs = read_swf(sys.argv[1])
    mode = sys.argv[3] if len(sys.argv) > 3 else "pyss"
    tf, gt, gs, gate = MODES[mode]
    simulate(total, jobs, dict(term_first=tf, group_terms=gt, group_subs=gs, gate=gate))
    with open(sys.argv[2], "w") as f:
        f.write("id,submit,start,run,backfilled\n")
        for j in jobs:
            f.write("%d,%d,%d,%d,%d\n" % (j["id"], j["submit"], j["start"], j["run"], j["bf"]))


if __name__ == "__main__":
    main()

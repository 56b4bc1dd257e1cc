#!/usr/bin/env python3
"""Compare batfill schedules with predictsim's published pyss FCFS+EASY schedules.

Subcommands (python3 standard library only):
  rebuild REF.swf.gz OUT.swf [MAXPROCS_FALLBACK]
      rebuild the exact input pyss scheduled: fields 1, 2, 4, 8, 9 of the reference, others -1,
      records sorted by (submit, id), one '; MaxProcs: N' header line.
  compare REF.swf.gz JOBS.csv OUT.json
      per-job comparison of waits, bounded slowdowns and backfill counts; writes a JSON summary.
  models REF.swf.gz JOBS.csv OUT.json NAME=MODEL.csv...
      agreement of pyss_model.py outputs with the reference and with batfill.
  row REF.swf.gz JOBS.csv LOG OUT.json
      one row of the predictions table: per-job waits, initial predictions (field 18) and
      under-prediction counts (field 17) against batfill's (from its --verbosity debug LOG).
  bsld JOBS.csv OUT.json
      mean bounded slowdown of a batfill run (rows without a published per-job file).
  firstdiff REF.swf.gz JOBS.csv [N]
      reconstructs the situation at the first N jobs (by submission) whose wait differs.
"""
import csv
import gzip
import json
import sys

TAU = 10.0


def open_text(path):
    return gzip.open(path, "rt") if path.endswith(".gz") else open(path)


def read_reference(path):
    """Returns (maxprocs or None, {id: dict}) from a pyss output SWF."""
    maxprocs = None
    jobs = {}
    with open_text(path) as f:
        for line in f:
            s = line.strip()
            if not s:
                continue
            if s.startswith(";"):
                body = s[1:].strip()
                if body.startswith("MaxProcs:"):
                    try:
                        v = int(body.split(":", 1)[1])
                        if v > 0:
                            maxprocs = v
                    except ValueError:
                        pass
                continue
            x = s.split()
            jid = int(x[0])
            jobs[jid] = dict(id=jid, submit=int(x[1]), wait=int(x[2]), run=int(x[3]),
                             procs=int(x[7]), req=int(x[8]), user=int(x[11]), bf=(x[15] == "1"),
                             under=int(x[16]), predicted=int(x[17]))
    return maxprocs, jobs


def read_batfill(path):
    """Reads PREFIX_jobs.csv by column name; returns {id: dict} (times in seconds, floats)."""
    jobs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            jid = int(row["job_id"].split("!")[-1])
            if row["final_state"] == "REJECTED" or row["starting_time"] == "":
                jobs[jid] = dict(id=jid, rejected=True, state=row["final_state"])
                continue
            jobs[jid] = dict(id=jid, rejected=False, state=row["final_state"],
                             submit=float(row["submission_time"]),
                             start=float(row["starting_time"]),
                             run=float(row["execution_time"]),
                             wait=float(row["waiting_time"]))
    return jobs


def node_conflicts(path, nodes):
    """Sanity check of a batfill schedule: number of job starts whose allocated machines are
    still held by another job (intervals [start, finish)), or outside 0..nodes-1, or whose
    allocation size differs from the request."""
    ev = []
    bad = 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if not row["starting_time"]:
                continue
            ids = set()
            for part in row["allocated_resources"].split():
                a, _, b = part.partition("-")
                ids.update(range(int(a), int(b or a) + 1))
            if len(ids) != int(row["requested_number_of_resources"]) or \
                    min(ids) < 0 or max(ids) >= nodes:
                bad += 1
            ev.append((float(row["finish_time"]), 0, ids))
            ev.append((float(row["starting_time"]), 1, ids))
    busy = set()
    for _, kind, ids in sorted(ev, key=lambda e: (e[0], e[1])):
        if kind == 0:
            busy -= ids
        else:
            if busy & ids:
                bad += 1
            busy |= ids
    return bad


def bsld(wait, run):
    return max(1.0, (wait + run) / max(run, TAU))


def backfilled_set(jobs):
    """Jobs that started while an earlier-submitted job (earlier in queue order: submit, id)
    was still waiting, i.e. the earlier job started strictly later."""
    order = sorted(jobs.values(), key=lambda j: (j["submit"], j["id"]))
    res = set()
    max_start_before = float("-inf")  # latest start among jobs ahead in queue order
    for j in order:
        if j["start"] < max_start_before:
            res.add(j["id"])
        max_start_before = max(max_start_before, j["start"])
    return res


def cmd_rebuild(ref, out, fallback=None):
    maxprocs, jobs = read_reference(ref)
    source = "reference header"
    if maxprocs is None:
        maxprocs = int(fallback)
        source = "original trace header"
    with open(out, "w") as f:
        f.write("; Rebuilt from %s (fields 1,2,4,8,9,12; others -1)\n" % ref.split("/")[-1])
        f.write("; MaxProcs: %d\n" % maxprocs)
        for j in sorted(jobs.values(), key=lambda j: (j["submit"], j["id"])):
            fields = [-1] * 18
            fields[0], fields[1], fields[3] = j["id"], j["submit"], j["run"]
            fields[7], fields[8], fields[11] = j["procs"], j["req"], j["user"]
            f.write(" ".join(str(v) for v in fields) + "\n")
    print("%s: %d jobs, MaxProcs %d (from %s)" % (out, len(jobs), maxprocs, source))


def read_predictions(path):
    """{id: (initial prediction s, corrections)} from batfill's debug log lines
    "job 'w0!7' completed: predicted 3468.000000 s, 0 corrections"."""
    out = {}
    with open(path) as f:
        for line in f:
            if "completed: predicted" not in line:
                continue
            jid = int(line.split("'")[1].split("!")[-1])
            rest = line.split("completed: predicted ")[1].split()
            out[jid] = (int(float(rest[0])), int(rest[2]))
    return out


def cmd_row(ref_path, csv_path, log_path, out_path):
    _, ref = read_reference(ref_path)
    bat = read_batfill(csv_path)
    pred = read_predictions(log_path)
    ids = sorted(ref, key=lambda i: (ref[i]["submit"], i))
    same_wait = same_pred = same_under = 0
    first = None
    has_pred = any(ref[i]["predicted"] != -1 for i in ids)
    for i in ids:
        r, b = ref[i], bat.get(i)
        ok = b is not None and not b["rejected"] and round(b["wait"]) == r["wait"]
        same_wait += ok
        if not ok and first is None:
            first = dict(id=i, submit=r["submit"], pyss_wait=r["wait"],
                         batfill_wait=None if b is None or b["rejected"] else round(b["wait"]))
        p = pred.get(i)
        if p is not None:
            same_pred += (not has_pred) or p[0] == r["predicted"]
            same_under += (p[1] - 1 if p[1] > 0 else -1) == r["under"]
    bsld_ref = sum(bsld(ref[i]["wait"], ref[i]["run"]) for i in ids) / len(ids)
    done = [b for b in bat.values() if not b["rejected"]]
    bsld_bat = sum(bsld(b["wait"], b["run"]) for b in done) / len(done)
    summary = dict(jobs=len(ids), same_wait=same_wait, same_prediction=same_pred,
                   same_under=same_under, bsld_ref=bsld_ref, bsld_batfill=bsld_bat,
                   first_diff=first, has_prediction=has_pred,
                   corrected_ref=sum(ref[i]["under"] != -1 for i in ids),
                   corrected_batfill=sum(p[1] > 0 for p in pred.values()))
    with open(out_path, "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary))


def cmd_bsld(csv_path, out_path):
    done = [b for b in read_batfill(csv_path).values() if not b["rejected"]]
    summary = dict(jobs=len(done), bsld_batfill=sum(bsld(b["wait"], b["run"]) for b in done) / len(done))
    with open(out_path, "w") as f:
        json.dump(summary, f, indent=1)
    print(json.dumps(summary))


def compare(ref_path, csv_path):
    maxprocs, ref = read_reference(ref_path)
    bf = read_batfill(csv_path)
    ids = sorted(ref)
    missing = [i for i in ids if i not in bf]
    rejected = [i for i in ids if i in bf and bf[i]["rejected"]]
    ok = [i for i in ids if i in bf and not bf[i]["rejected"]]
    same = sum(1 for i in ok if abs(bf[i]["wait"] - ref[i]["wait"]) < 1e-6)
    mad = sum(abs(bf[i]["wait"] - ref[i]["wait"]) for i in ok) / max(len(ok), 1)
    run_mismatch = sum(1 for i in ok if abs(bf[i]["run"] - ref[i]["run"]) > 1e-6)
    ref_bsld = sum(bsld(ref[i]["wait"], ref[i]["run"]) for i in ids) / len(ids)
    bf_bsld = sum(bsld(bf[i]["wait"], bf[i]["run"]) for i in ok) / max(len(ok), 1)
    ref_wait = sum(ref[i]["wait"] for i in ids) / len(ids)
    bf_wait = sum(bf[i]["wait"] for i in ok) / max(len(ok), 1)
    # backfilled: reference field 16, and the same definition as batfill on the reference
    ref_bf16 = sum(1 for i in ids if ref[i]["bf"])
    ref_starts = {i: dict(id=i, submit=ref[i]["submit"], start=ref[i]["submit"] + ref[i]["wait"])
                  for i in ids}
    ref_bf_def = backfilled_set(ref_starts)
    bf_def = backfilled_set({i: bf[i] for i in ok})
    # first job (queue order) whose wait differs
    first = None
    for i in sorted(ok, key=lambda i: (ref[i]["submit"], i)):
        if abs(bf[i]["wait"] - ref[i]["wait"]) >= 1e-6:
            first = i
            break
    early = sum(1 for i in ok if bf[i]["wait"] < ref[i]["wait"] - 1e-6)
    late = sum(1 for i in ok if bf[i]["wait"] > ref[i]["wait"] + 1e-6)
    walltime_reached = sum(1 for i in ok if bf[i]["state"] == "COMPLETED_WALLTIME_REACHED")
    return dict(jobs=len(ids), executed=len(ok), missing=len(missing), rejected=len(rejected),
                run_mismatch=run_mismatch, same_wait=same, same_wait_frac=same / max(len(ok), 1),
                batfill_earlier=early, batfill_later=late,
                mean_abs_wait_diff=mad, ref_mean_wait=ref_wait, bf_mean_wait=bf_wait,
                ref_bsld=ref_bsld, bf_bsld=bf_bsld,
                ref_backfilled_field16=ref_bf16, ref_backfilled_def=len(ref_bf_def),
                bf_backfilled_def=len(bf_def),
                field16_vs_def_agree=len(set(i for i in ids if ref[i]["bf"]) & ref_bf_def),
                first_diff=first,
                first_diff_ref_wait=ref[first]["wait"] if first else None,
                first_diff_bf_wait=bf[first]["wait"] if first else None,
                walltime_reached=walltime_reached,
                node_conflicts=node_conflicts(csv_path, maxprocs))


def cmd_compare(ref, csv_path, out):
    r = compare(ref, csv_path)
    with open(out, "w") as f:
        json.dump(r, f, indent=1)
    print(json.dumps(r))


def situation(ref_path, csv_path, n=1):
    """Text reconstruction of the first n differing jobs: at the reference start time and at
    batfill's start time of the job, which jobs run (with planned ends) and which wait."""
    _, ref = read_reference(ref_path)
    bf = read_batfill(csv_path)
    maxprocs, _ = read_reference(ref_path)
    order = sorted(ref, key=lambda i: (ref[i]["submit"], i))
    diffs = [i for i in order if i in bf and not bf[i]["rejected"]
             and abs(bf[i]["wait"] - ref[i]["wait"]) >= 1e-6][:n]
    out = []
    for d in diffs:
        j = ref[d]
        rs, bs = j["submit"] + j["wait"], bf[d]["start"]
        out.append("job %d: submit %d, %d procs, req %d s, run %d s; pyss start %d (wait %d), "
                   "batfill start %d (wait %d)" % (d, j["submit"], j["procs"], j["req"], j["run"],
                                                   rs, j["wait"], bs, bf[d]["wait"]))
        for label, sched, t in (("pyss", "ref", min(rs, bs)), ("batfill", "bf", min(rs, bs))):
            def start(i):
                return ref[i]["submit"] + ref[i]["wait"] if sched == "ref" else bf[i]["start"]
            running = [i for i in ref if i in bf and not bf[i]["rejected"]
                       and start(i) <= t < start(i) + ref[i]["run"]]
            ending_now = [i for i in ref if i in bf and not bf[i]["rejected"]
                          and start(i) + ref[i]["run"] == t and ref[i]["run"] > 0]
            waiting = sorted([i for i in ref if i in bf and not bf[i]["rejected"]
                              and ref[i]["submit"] <= t and start(i) > t],
                             key=lambda i: (ref[i]["submit"], i))
            busy = sum(ref[i]["procs"] for i in running)
            out.append("  %s schedule at t=%d: %d/%d procs busy" % (label, t, busy, maxprocs))
            for i in sorted(running, key=lambda i: start(i) + ref[i]["req"]):
                out.append("    running %d: %d procs, start %d, planned end %d, real end %d"
                           % (i, ref[i]["procs"], start(i), start(i) + ref[i]["req"],
                              start(i) + ref[i]["run"]))
            for i in ending_now:
                out.append("    ended at t: job %d, %d procs (run %d, req %d)"
                           % (i, ref[i]["procs"], ref[i]["run"], ref[i]["req"]))
            for i in waiting[:8]:
                out.append("    waiting %d: submit %d, %d procs, req %d, starts %d"
                           % (i, ref[i]["submit"], ref[i]["procs"], ref[i]["req"], start(i)))
            if len(waiting) > 8:
                out.append("    ... %d more waiting" % (len(waiting) - 8))
    return "\n".join(out)


def read_model(path):
    with open(path, newline="") as f:
        return {int(r["id"]): (int(r["start"]), r["backfilled"] == "1") for r in csv.DictReader(f)}


def cmd_models(ref_path, csv_path, out, *models):
    """For each pyss_model.py output NAME=PATH: fraction of jobs whose start equals the
    reference's, whose backfill flag equals field 16, and whose start equals batfill's."""
    _, ref = read_reference(ref_path)
    bf = read_batfill(csv_path)
    res = {}
    for m in models:
        name, path = m.split("=", 1)
        mod = read_model(path)
        n = len(ref)
        res[name] = dict(
            same_start_ref=sum(1 for i in ref if mod[i][0] == ref[i]["submit"] + ref[i]["wait"]) / n,
            same_flag_ref=sum(1 for i in ref if mod[i][1] == ref[i]["bf"]) / n,
            same_start_batfill=sum(1 for i in ref if not bf[i]["rejected"]
                                   and abs(mod[i][0] - bf[i]["start"]) < 1e-6) / n)
    with open(out, "w") as f:
        json.dump(res, f, indent=1)
    print(json.dumps(res))


def main():
    cmd = sys.argv[1]
    if cmd == "rebuild":
        cmd_rebuild(*sys.argv[2:])
    elif cmd == "compare":
        cmd_compare(*sys.argv[2:5])
    elif cmd == "models":
        cmd_models(*sys.argv[2:])
    elif cmd == "bsld":
        cmd_bsld(*sys.argv[2:4])
    elif cmd == "row":
        cmd_row(*sys.argv[2:6])
    elif cmd == "firstdiff":
        print(situation(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 1))
    else:
        sys.exit("unknown subcommand " + cmd)


if __name__ == "__main__":
    main()

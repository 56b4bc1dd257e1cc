"""Classic conservative backfilling (Feitelson & Weil) as a batfill.Policy, written on the view's
availability profile: the same schedule as `--backfill conservative-classic` (docs/semantics.md,
"`conservative-classic`"; without --queues or corrections).

    PYTHONPATH=build/python python3 python/examples/conservative.py workloads/KTH-SP2-1996-2.1-cln.swf.gz
"""

import sys

import batfill


class Conservative(batfill.Policy):
    """One persistent reservation per waiting job: a new job gets its earliest slot around
    everything planned; after a completion, compression moves each reservation, in queue order,
    to its earliest slot with the others in place (never later); jobs whose slot has come start."""

    def __init__(self):
        self.slots = {}  # job id -> the start of its reservation
        self.running = 0  # the running jobs after the last pass

    def select(self, view):
        profile, queue = view.profile(), view.queue
        waiting = {job.id for job in queue}
        # A completion, or a reserved job gone without starting, gives capacity back.
        compress = len(view.running) < self.running or any(
            job_id not in waiting for job_id in self.slots)
        self.slots = {job.id: self.slots[job.id] for job in queue if job.id in self.slots}
        # A due job whose nodes are not really free yet (a late report beside Batsim) keeps its
        # slot, planned from now.
        for job in queue:  # the reservations kept from earlier passes
            if job.id in self.slots:
                profile.reserve_job(job, max(self.slots[job.id], view.now))
        for job in queue if compress else ():
            if job.id in self.slots:
                start = max(self.slots[job.id], view.now)
                profile.release(start, start + job.occupancy, job.nodes)
                self.slots[job.id] = profile.earliest_start(job)
                profile.reserve_job(job, self.slots[job.id])
        started, free = [], view.free_nodes
        for job in queue:  # one walk: place the new jobs, start the jobs whose slot has come
            if job.id not in self.slots:
                self.slots[job.id] = profile.earliest_start(job)
                profile.reserve_job(job, self.slots[job.id])
            if self.slots[job.id] <= view.now and job.nodes <= free:
                started.append(job)
                free -= job.nodes
                del self.slots[job.id]
        self.running = len(view.running) + len(started)
        return started


if __name__ == "__main__":
    result = batfill.simulate(sys.argv[1], backfill=Conservative())
    print(result.summary_text, end="")

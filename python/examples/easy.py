"""Lifka's EASY backfilling as a batfill.Policy, the same schedule as `--backfill easy-classic`
(docs/semantics.md, "`easy-classic`"; without --queues), with the predictions and the SJBF
backfill order of EASY++ too.

    PYTHONPATH=build/python python3 python/examples/easy.py workloads/KTH-SP2-1996-2.1-cln.swf.gz
"""

import sys

import batfill


class Easy(batfill.Policy):
    follows_backfill_order = True

    def select(self, view):
        plan, queue, started = view.timeline(), view.queue, []
        head = 0
        while head < len(queue) and queue[head].nodes <= plan.free_nodes:  # start in order
            plan.start(queue[head])
            started.append(queue[head])
            head += 1
        if head == len(queue) or plan.free_nodes == 0:
            return started
        # The first job that does not fit gets a reservation at the shadow time; a job behind
        # it may start now if it ends by then or uses only the nodes the head leaves over.
        shadow = plan.earliest_time_with(queue[head].nodes)
        extra = plan.free_nodes_at(shadow) - queue[head].nodes
        candidates = queue[head + 1:]
        if view.backfill_order == "sjbf":  # shortest predicted runtime first, ties in order
            candidates.sort(key=lambda job: job.planned_runtime)
        for job in candidates:
            if job.nodes > plan.free_nodes or not job.has_walltime:
                continue
            if job.planned_end(view.now) > shadow:
                if job.nodes > extra:
                    continue
                extra -= job.nodes
            plan.start(job)
            started.append(job)
        return started


if __name__ == "__main__":
    result = batfill.simulate(sys.argv[1], backfill=Easy())
    print(result.summary_text, end="")

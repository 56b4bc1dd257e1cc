"""A Python policy run in the caller's process (in_process=True, once per process: this file is
a test process of its own), checking the view's tools at every pass of KTH-SP2."""

import unittest

import batfill
from support import KTH, TINY, cli_outputs, python_outputs
from test_policy import Fcfs


class ViewTools(unittest.TestCase):
    def test_fcfs_with_checks_on_the_tools_equals_none(self):
        class Probe(Fcfs):
            passes = 0

            def select(self, view):
                self.passes += 1
                profile, plan = view.profile(), view.timeline()
                assert profile.free_at(view.now) == view.free_nodes == plan.free_nodes
                for end, nodes in view.running:
                    assert end > view.now or end == batfill.NEVER
                    assert plan.free_nodes_at(end) >= nodes, (end, nodes)
                started = super().select(view)
                for job in started:
                    assert profile.earliest_start(job) == view.now, job
                    profile.reserve_job(job, view.now)
                    plan.start(job)
                assert profile.free_at(view.now) == plan.free_nodes
                if len(started) < len(view.queue):
                    head = view.queue[len(started)]
                    assert profile.earliest_start(head) >= plan.earliest_time_with(head.nodes)
                return started

        probe = Probe()
        # In this process, once per process, so that the probe's count is seen here.
        result = batfill.simulate(KTH, backfill=probe, in_process=True)
        jobs, _ = python_outputs(result)
        self.assertEqual(jobs, cli_outputs(KTH, "--backfill", "none")[0])
        self.assertGreater(probe.passes, 28000)
        with self.assertRaisesRegex(RuntimeError, "SimGrid allows one engine per process"):
            batfill.simulate(TINY)


if __name__ == "__main__":
    unittest.main()

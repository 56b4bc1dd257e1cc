"""batfill.serve beside a real Batsim 4.2.1 (ctest label `batsim`; skipped unless BATSIM names its
batsim binary): a Python policy answers every request, every job ends, `batfill check` accepts
Batsim's own _jobs.csv."""

import os
import sys
import tempfile
import unittest

import batfill
from support import (SOURCE, expect_every_job_completed, kth_batsim_workload,
                     serve_beside_batsim)

sys.path.insert(0, os.path.join(SOURCE, "python", "examples"))
import easy  # noqa: E402  (python/examples/easy.py)

BATSIM = os.environ.get("BATSIM", "")


class CountingEasy(easy.Easy):
    """The example EASY, counting its calls: it runs in this process and keeps its state."""

    calls = 0

    def select(self, view):
        self.calls += 1
        return super().select(view)


class Raising(batfill.Policy):
    def select(self, view):
        raise ZeroDivisionError("planned failure")


def platform():
    return os.path.join(os.path.dirname(os.path.dirname(BATSIM)), "share", "batsim-platforms",
                        "cluster512.xml")


@unittest.skipUnless(BATSIM and os.path.exists(BATSIM), "set BATSIM=/path/to/batsim (4.2.1)")
class BesideBatsim4(unittest.TestCase):
    def test_python_easy_runs_every_job_and_check_accepts_it(self):
        with tempfile.TemporaryDirectory() as directory:
            workload = kth_batsim_workload(os.path.join(directory, "kth300.json"), 300)
            policy = CountingEasy()
            error, batsim, jobs_csv = serve_beside_batsim(
                self, BATSIM, platform(), workload, policy, "batsim4", directory)
            expect_every_job_completed(self, error, batsim, jobs_csv, 300, platform(), workload)
            self.assertGreater(policy.calls, 0)  # the policy in this process decided

    def test_a_raising_policy_is_a_serve_error_with_its_traceback(self):
        with tempfile.TemporaryDirectory() as directory:
            error, batsim, _ = serve_beside_batsim(
                self, BATSIM, platform(), os.path.join(SOURCE, "workloads", "tiny_batsim.json"),
                Raising(), "batsim4", directory)
            self.assertIsInstance(error, batfill.ServeError)
            self.assertEqual(error.status, 1)
            self.assertIn("ZeroDivisionError: planned failure", str(error))
            self.assertIn("policy Raising at time", str(error))
            # Batsim is told to stop rather than left waiting for a reply.
            self.assertNotEqual(batsim.returncode, 0)


if __name__ == "__main__":
    unittest.main()

"""batfill.serve beside a real Batsim 5.0.0-rc2 (ctest label `batsim5`; skipped unless BATSIM5
names its prefix or its bin/batsim): a Python policy answers in batprotocol, every job ends,
`batfill check` accepts Batsim's own jobs.csv."""

import os
import sys
import tempfile
import unittest

import batfill
from support import (SOURCE, expect_every_job_completed, kth_batsim_workload,
                     serve_beside_batsim)

sys.path.insert(0, os.path.join(SOURCE, "python", "examples"))
import easy  # noqa: E402  (python/examples/easy.py)


def batsim5_prefix():
    value = os.environ.get("BATSIM5", "")
    if value and os.path.isfile(value):
        value = os.path.dirname(os.path.dirname(value))
    return value if value and os.path.exists(os.path.join(value, "bin", "batsim")) else ""


PREFIX = batsim5_prefix()


class CountingEasy(easy.Easy):
    calls = 0

    def select(self, view):
        self.calls += 1
        return super().select(view)


@unittest.skipUnless(PREFIX, "set BATSIM5=/path/to/batsim5/prefix (or its bin/batsim)")
class BesideBatsim5(unittest.TestCase):
    def run_policy(self, policy, directory, workload, init="{}"):
        platform = os.path.join(PREFIX, "share", "batsim", "platforms", "cluster512.xml")
        error, batsim, jobs_csv = serve_beside_batsim(
            self, os.path.join(PREFIX, "bin", "batsim"), platform, workload, policy, "batsim5",
            directory, init=init)
        return platform, error, batsim, jobs_csv

    def test_python_easy_runs_every_job_and_check_accepts_it(self):
        with tempfile.TemporaryDirectory() as directory:
            workload = kth_batsim_workload(os.path.join(directory, "kth300.json"), 300,
                                           "DelayProfile")
            policy = CountingEasy()
            platform, error, batsim, jobs_csv = self.run_policy(policy, directory, workload)
            expect_every_job_completed(self, error, batsim, jobs_csv, 300, platform, workload)
            self.assertGreater(policy.calls, 0)  # the policy in this process decided

    def test_init_string_settings_are_refused_for_a_python_policy(self):
        with tempfile.TemporaryDirectory() as directory:
            _, error, batsim, _ = self.run_policy(
                CountingEasy(), directory,
                kth_batsim_workload(os.path.join(directory, "kth20.json"), 20, "DelayProfile"),
                init='{"order": "asc_size"}')
            self.assertIsInstance(error, batfill.ServeError)
            self.assertIn("given by the program that made it", str(error))
            self.assertNotEqual(batsim.returncode, 0)


if __name__ == "__main__":
    unittest.main()

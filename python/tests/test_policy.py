"""Policies written in Python: the example EASY against easy-classic, and every bad policy ends
the run with a clear Python error."""

import os
import sys
import unittest

import batfill
from support import KTH, SOURCE, TINY, cli_outputs, python_outputs

sys.path.insert(0, os.path.join(SOURCE, "python", "examples"))
import conservative  # noqa: E402  (python/examples/conservative.py)
import easy  # noqa: E402  (python/examples/easy.py)


class ExampleEasy(unittest.TestCase):
    def test_same_jobs_csv_as_easy_classic_on_kth(self):
        result = batfill.simulate(KTH, backfill=easy.Easy())
        jobs, _ = python_outputs(result)
        cli_jobs, _ = cli_outputs(KTH, "--backfill", "easy-classic")
        self.assertEqual(jobs, cli_jobs)
        self.assertIn("batfill Easy (Python)", result.summary["scheduler"])

    def test_with_predictions_and_sjbf_equal_to_easy_plus_plus(self):
        # EASY++ (docs/semantics.md, "Predictions, correctors and backfill order"), and a
        # queue order: the view's jobs and their planned runtimes are the core's.
        settings = {"predictor": "tsafrir", "corrector": "tsafrir", "backfill_order": "sjbf",
                    "order": "asc_walltime"}
        result = batfill.simulate(KTH, backfill=easy.Easy(), **settings)
        flags = [text for key, value in settings.items()
                 for text in ("--" + key.replace("_", "-"), value)]
        cli_jobs, _ = cli_outputs(KTH, "--backfill", "easy-classic", *flags)
        self.assertEqual(python_outputs(result)[0], cli_jobs)


class ExampleConservative(unittest.TestCase):
    def test_same_jobs_csv_as_conservative_classic_on_1000_kth_jobs(self):
        import gzip
        import tempfile
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "kth1000.swf")
            with gzip.open(KTH, "rt") as trace, open(path, "w") as out:
                records = 0
                for line in trace:
                    records += not line.startswith(";")
                    if records > 1000:
                        break
                    out.write(line)
            result = batfill.simulate(path, backfill=conservative.Conservative())
            cli_jobs, _ = cli_outputs(path, "--backfill", "conservative-classic")
        jobs, _ = python_outputs(result)
        self.assertEqual(jobs.count(b"\n"), 1001)
        self.assertEqual(jobs, cli_jobs)


# Policies that break the rules, on tiny.swf (8 nodes): job 1 (4 nodes) starts at 0 s; at 5 s
# jobs 2 (2 nodes) and 3 (8 nodes) wait with 4 nodes free.
class Fcfs(batfill.Policy):
    """First come, first served: the queue's jobs in order while they fit."""

    def select(self, view):
        started, free = [], view.free_nodes
        for job in view.queue:
            if job.nodes > free:
                break
            started.append(job)
            free -= job.nodes
        return started


class Raises(Fcfs):
    def select(self, view):
        if view.now == 5 * batfill.SECOND:
            return self.decide(view)
        return super().select(view)

    def decide(self, view):
        raise KeyError("no plan")


class ReturnsNone(Fcfs):
    def select(self, view):
        return None if view.now > 0 else super().select(view)


class ReturnsANumber(Fcfs):
    def select(self, view):
        return [1]


class ReturnsTwice(Fcfs):
    def select(self, view):
        return [view.queue[0], view.queue[0]]


class ReturnsTooMany(Fcfs):
    def select(self, view):
        return list(view.queue) if view.now == 5 * batfill.SECOND else super().select(view)


class KeepsJobs(Fcfs):
    kept = None

    def select(self, view):
        if self.kept:
            return [self.kept]
        self.kept = view.queue[-1] if view.now == 5 * batfill.SECOND else None
        return super().select(view)


class ReadsAnOldJob(Fcfs):
    kept = None

    def select(self, view):
        if self.kept is not None:
            print(self.kept.nodes)
        self.kept = view.queue[0] if view.queue else None
        return super().select(view)


class StartsNothing(batfill.Policy):
    def select(self, view):
        return []


class BadPolicies(unittest.TestCase):
    def test_an_exception_ends_the_run_with_its_traceback_time_and_queue(self):
        with self.assertRaises(batfill.PolicyError) as raised:
            batfill.simulate(TINY, backfill=Raises())
        message = str(raised.exception)
        self.assertRegex(message, r"policy Raises at time 5\.000000 s, 2 waiting, first job w0!2")
        self.assertIn("Traceback", message)
        self.assertIn("in decide", message)
        self.assertIn("KeyError: 'no plan'", message)

    def test_not_a_list(self):
        with self.assertRaisesRegex(TypeError, r"ReturnsNone\.select returned a NoneType, not a "
                                               r"list of jobs of view\.queue"):
            batfill.simulate(TINY, backfill=ReturnsNone())

    def test_not_a_job(self):
        with self.assertRaisesRegex(TypeError, r"returned item 0, a int, not a job"):
            batfill.simulate(TINY, backfill=ReturnsANumber())

    def test_a_job_twice(self):
        with self.assertRaisesRegex(ValueError, r"returned job w0!1 twice"):
            batfill.simulate(TINY, backfill=ReturnsTwice())

    def test_jobs_that_do_not_fit(self):
        with self.assertRaisesRegex(ValueError, r"job w0!3 \(8 nodes\), which does not fit: the "
                                                r"jobs up to it need 10 nodes, 4 are free"):
            batfill.simulate(TINY, backfill=ReturnsTooMany())

    def test_a_job_of_an_earlier_call(self):
        with self.assertRaisesRegex(ValueError, r"a job of an earlier call's view"):
            batfill.simulate(TINY, backfill=KeepsJobs())

    def test_reading_a_job_after_its_call(self):
        with self.assertRaises(batfill.PolicyError) as raised:
            batfill.simulate(TINY, backfill=ReadsAnOldJob())
        self.assertIn("valid only during the call to select that received it",
                      str(raised.exception))

    def test_a_policy_that_starts_nothing_on_an_idle_machine(self):
        with self.assertRaisesRegex(RuntimeError, r"on an idle machine and policy 'StartsNothing "
                                                  r"\(Python\)' starts none"):
            batfill.simulate(TINY, backfill=StartsNothing())

    def test_a_class_instead_of_an_instance(self):
        with self.assertRaisesRegex(TypeError, r"give an instance, StartsNothing\(\)"):
            batfill.simulate(TINY, backfill=StartsNothing)

    def test_sjbf_needs_a_policy_that_follows_it(self):
        with self.assertRaisesRegex(ValueError, "backfill order 'sjbf' needs a policy"):
            batfill.simulate(TINY, backfill=Fcfs(), backfill_order="sjbf")


if __name__ == "__main__":
    unittest.main()

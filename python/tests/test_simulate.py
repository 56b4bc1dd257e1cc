"""batfill.simulate against `batfill simulate`: the same outputs byte for byte, the same errors."""

import os
import subprocess
import tempfile
import unittest

import pandas as pd

import batfill
from support import (BINARY, DREVT, KTH, SOURCE, TINY, cli_error, cli_outputs, python_outputs,
                     without_wall_times)


class SameAsCli(unittest.TestCase):
    def assert_same(self, result, cli):
        jobs, schedule = python_outputs(result)
        cli_jobs, cli_schedule = cli
        self.assertEqual(jobs, cli_jobs)
        self.assertEqual(without_wall_times(schedule), without_wall_times(cli_schedule))
        self.assertEqual(set(schedule), set(cli_schedule))

    def test_drevt_on_400_nodes_under_each_spec_policy(self):
        for policy in ("easy", "conservative"):
            with self.subTest(policy=policy):
                result = batfill.simulate(DREVT, nodes=400, backfill=policy)
                self.assert_same(result, cli_outputs(DREVT, "--nodes", "400", "--backfill",
                                                     policy))
        # The spec's figures (docs/semantics.md, "DR_EVT, 2000 jobs on 400 nodes").
        easy = batfill.simulate(DREVT, nodes=400)
        self.assertEqual(easy.summary["makespan"], 909621)
        self.assertEqual(easy.schedule["makespan"], 909621.0)

    def test_kth_under_every_policy(self):
        for policy in batfill.policy_names():
            with self.subTest(policy=policy):
                self.assert_same(batfill.simulate(KTH, backfill=policy),
                                 cli_outputs(KTH, "--backfill", policy))

    def test_settings_and_transforms(self):
        result = batfill.simulate(KTH, backfill="easy-classic", predictor="tsafrir",
                                  corrector="tsafrir", backfill_order="sjbf", load_factor=1.2,
                                  shake="42:10")
        self.assert_same(result, cli_outputs(KTH, "--backfill", "easy-classic", "--predictor",
                                             "tsafrir", "--corrector", "tsafrir",
                                             "--backfill-order", "sjbf", "--load-factor", "1.2",
                                             "--shake", "42:10"))
        self.assertEqual(result.schedule["load_factor"], 1.2)
        self.assertEqual(result.schedule["shake"], "42:10")

    def test_queues_given_as_a_dict(self):
        queues = {"queues": [{"name": "express", "ids": [1], "priority": 40, "slot_limit": 4},
                             {"name": "normal", "ids": [3], "priority": 20}],
                  "default": "normal"}
        import json
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "queues.json")
            with open(path, "w") as out:
                json.dump(queues, out)
            cli = cli_outputs(KTH, "--queues", path, "--backfill", "easy-classic")
        result = batfill.simulate(KTH, queues=queues, backfill="easy-classic")
        self.assert_same(result, cli)
        self.assertEqual(set(result.summary["queues"]), {"express", "normal"})


class Resizes(unittest.TestCase):
    def test_resize_requests_as_the_cli_makes_them(self):
        example = os.path.join(SOURCE, "workloads", "resize_example.json")
        result = batfill.simulate(example, backfill="easy-classic")
        with tempfile.TemporaryDirectory() as directory:
            prefix = os.path.join(directory, "cli")
            subprocess.run([BINARY, "simulate", example, "--backfill", "easy-classic",
                            "--output", prefix], check=True, stdout=subprocess.DEVNULL)
            result.to_csv(os.path.join(directory, "py"))
            for name in ("_jobs.csv", "_resizes.csv"):
                with open(prefix + name, "rb") as cli, \
                        open(os.path.join(directory, "py") + name, "rb") as python:
                    self.assertEqual(python.read(), cli.read(), name)
        # The README's case: a asks for 2 nodes after 4 h and gets them at once.
        request = result.resizes.iloc[0]
        self.assertEqual((request["job_id"], request["grant_time"]), ("a", 14400.0))
        self.assertEqual(result.summary["resizes"]["granted"], 1)

    def test_resize_requests_given_as_a_dataframe(self):
        requests = pd.DataFrame({"job_id": ["1"], "after": [10], "nodes": [2]})
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "requests.csv")
            requests.to_csv(path, index=False)
            cli_jobs, _ = cli_outputs(TINY, "--resize", path)
        result = batfill.simulate(TINY, resize=requests)
        self.assertEqual(python_outputs(result)[0], cli_jobs)
        self.assertEqual(len(result.resizes), 1)


class Types(unittest.TestCase):
    def test_jobs_columns_and_types(self):
        jobs = batfill.simulate(TINY).jobs
        self.assertEqual(list(jobs.columns), list(batfill.simulate.__globals__["JOB_COLUMNS"]))
        self.assertEqual(jobs["requested_number_of_resources"].dtype, "int64")
        self.assertEqual(jobs["submission_time"].dtype, "float64")
        self.assertEqual(jobs["job_id"].dtype, object)
        rejected = jobs[jobs["final_state"] == "REJECTED"]
        self.assertEqual(len(rejected), 1)
        self.assertTrue(rejected["starting_time"].isna().all())

    def test_times_are_the_doubles_nearest_to_the_csv_text(self):
        # A load factor of 1.37 and shaking give times with microseconds; Python's float() is
        # correctly rounded, an independent reading of each cell.
        result = batfill.simulate(KTH, load_factor=1.37, shake="5:20")
        jobs_bytes, _ = cli_outputs(KTH, "--load-factor", "1.37", "--shake", "5:20")
        rows = [line.split(",") for line in jobs_bytes.decode().splitlines()]
        header, rows = rows[0], rows[1:]
        self.assertEqual(len(rows), len(result.jobs))
        for column in ("submission_time", "starting_time", "finish_time", "stretch"):
            index = header.index(column)
            expected = [float(row[index]) if row[index] else None for row in rows]
            values = [None if value != value else value for value in result.jobs[column]]
            self.assertEqual(values, expected, column)
        self.assertTrue(any(value % 1 for value in result.jobs["submission_time"]))

    def test_summary_is_what_the_cli_prints(self):
        result = batfill.simulate(TINY)
        self.assertEqual(result.summary["jobs"], 6)
        self.assertEqual(result.summary["rejected"], 1)
        self.assertIn("jobs: 5 executed, 1 rejected (of 6)", result.summary_text)
        self.assertEqual(result.schedule["nb_jobs_rejected"], result.summary["rejected"])


class RowsAsWorkload(unittest.TestCase):
    def test_list_of_dicts_by_hand(self):
        # Two nodes: A takes both from 0 to 100 s; B, submitted at 10 s, waits for them.
        rows = [{"submit_time": 0, "nodes": 2, "walltime": 200, "runtime": 100},
                {"submit_time": 10, "nodes": 1, "walltime": 100, "runtime": 50}]
        jobs = batfill.simulate(rows, nodes=2).jobs.set_index("job_id")
        self.assertEqual(jobs.loc["1", "starting_time"], 0)
        self.assertEqual(jobs.loc["2", "starting_time"], 100)
        self.assertEqual(jobs.loc["2", "finish_time"], 150)
        self.assertEqual(jobs.loc["2", "final_state"], "COMPLETED_SUCCESSFULLY")

    def test_a_dataframe_of_a_schedule_replays_to_it(self):
        # DR_EVT's jobs run their whole limit: replaying the executed jobs of a schedule, with
        # their execution times as runtimes, must give the same starts and ends.
        first = batfill.simulate(DREVT, nodes=400).jobs
        frame = first[["job_id", "submission_time", "requested_number_of_resources",
                       "requested_time", "execution_time"]]
        again = batfill.simulate(frame, nodes=400).jobs
        columns = ["job_id", "starting_time", "finish_time", "final_state",
                   "allocated_resources"]
        pd.testing.assert_frame_equal(first[columns], again[columns])

    def test_a_row_without_nodes(self):
        with self.assertRaisesRegex(ValueError, r"<list> row 1: no 'nodes'"):
            batfill.simulate([{"submit_time": 0, "nodes": 1, "runtime": 5},
                              {"submit_time": 0, "runtime": 5}], nodes=2)

    def test_a_bad_row_is_rejected_with_its_position(self):
        result = batfill.simulate([{"submit_time": 0, "nodes": -3, "runtime": 5}], nodes=2)
        self.assertEqual(result.summary["rejected"], 1)
        self.assertIn("<list>:", result.summary_text)


class Errors(unittest.TestCase):
    def assert_error(self, kind, call, cli_args):
        with self.assertRaises(kind) as raised:
            call()
        self.assertEqual(str(raised.exception), cli_error(*cli_args))

    def test_unknown_policy_name(self):
        self.assert_error(ValueError, lambda: batfill.simulate(TINY, backfill="nope"),
                          (TINY, "--backfill", "nope"))

    def test_settings_that_do_not_go_together(self):
        with self.assertRaises(ValueError) as raised:
            batfill.simulate(TINY, backfill_order="sjbf")
        self.assertIn(str(raised.exception),
                      cli_error(TINY, "--sched-cfg", '{"backfill_order":"sjbf"}'))

    def test_a_workload_that_cannot_be_read(self):
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "trace.csv")
            with open(path, "w") as out:
                out.write("a,b\n1,2\n")
            with self.assertRaisesRegex(ValueError, r"trace\.csv:1: "):
                batfill.simulate(path, nodes=4)
            self.assert_error(ValueError, lambda: batfill.simulate(path, nodes=4),
                              (path, "--nodes", "4"))
        self.assert_error(ValueError, lambda: batfill.simulate("nothere.swf"),
                          ("nothere.swf",))

    def test_unknown_setting(self):
        with self.assertRaisesRegex(TypeError, "unknown setting 'bakfill'.*backfill"):
            batfill.simulate(TINY, bakfill="easy")

    def test_many_replays_in_one_process(self):
        makespans = {batfill.simulate(TINY).summary["makespan"] for _ in range(5)}
        self.assertEqual(makespans, {180})


if __name__ == "__main__":
    unittest.main()

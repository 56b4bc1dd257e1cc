#!/usr/bin/python3
"""Tests of the pipeline's Python scripts (standard library unittest; Debian's python3):
  /usr/bin/python3 experiments/pipeline/tests/test_scripts.py"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "scripts"))
from batsim_jobs import parse_resources, read_jobs  # noqa: E402
from runstats import quantile  # noqa: E402
from summarize import mean_ci  # noqa: E402

HEADER = ("job_id,workload_name,profile,submission_time,requested_number_of_resources,requested_time,"
          "success,final_state,starting_time,execution_time,finish_time,waiting_time,turnaround_time,"
          "stretch,allocated_resources,consumed_energy,metadata\n")


def row(jid, submit, nodes, start, run, res):
    if start is None:
        return f"{jid},w0,p,{submit},{nodes},100,0,REJECTED,,,,,,,,-1,\n"
    return (f"{jid},w0,p,{submit},{nodes},100,1,COMPLETED_SUCCESSFULLY,{start},{run},{start + run},"
            f"{start - submit},{start + run - submit},1,{res},-1,\n")


class Scripts(unittest.TestCase):
    def write(self, text):
        f = tempfile.NamedTemporaryFile("w", suffix="_jobs.csv", delete=False)
        f.write(text)
        f.close()
        self.addCleanup(os.unlink, f.name)
        return f.name

    def test_resources(self):
        self.assertEqual(parse_resources("0-3 7"), [(0, 3), (7, 7)])
        self.assertEqual(parse_resources("0-3,7"), [(0, 3), (7, 7)])  # Batsim 3 / batsched

    def test_backfilled(self):
        # 4 machines. Job 1 runs 0-10 on 3 machines, job 2 (4 machines) waits until 10,
        # job 3 (submitted after 2) starts at 1 on the free machine: backfilled. Batsched ids.
        path = self.write(HEADER + row("w0!1", 0, 3, 0, 10, "0-2") + row("w0!3", 1, 1, 1, 5, "3")
                          + row("w0!2", 0.5, 4, 10, 5, "0-3") + row("w0!4", 2, 9, None, 0, ""))
        jobs = {j.id: j for j in read_jobs(path)}
        self.assertEqual([jobs[i].backfilled for i in ("w0!1", "w0!2", "w0!3")], [False, False, True])
        self.assertIsNone(jobs["w0!4"].start)

    def test_id_order_breaks_ties(self):
        # same submit time: 10 is after 9 (numeric order), so 10 starting first is backfilling
        path = self.write(HEADER + row("9", 0, 4, 5, 1, "0-3") + row("10", 0, 1, 0, 1, "0"))
        jobs = {j.id: j for j in read_jobs(path)}
        self.assertTrue(jobs["10"].backfilled)
        self.assertFalse(jobs["9"].backfilled)

    def test_quantile_and_ci(self):
        self.assertEqual(quantile([0, 10, 20, 30], 0.5), 15)
        self.assertEqual(quantile([1, 2, 3, 4, 5], 0.95), 4.8)
        m, h = mean_ci([1.0, 2.0, 3.0])            # sd 1, t(0.975, 2) = 4.303
        self.assertAlmostEqual(m, 2.0)
        self.assertAlmostEqual(h, 4.303 / 3 ** 0.5, places=6)

    def test_plots_run(self):
        path = self.write(HEADER + row("w0!1", 0, 3, 0, 10, "0-2") + row("w0!3", 1, 1, 1, 5, "3")
                          + row("w0!2", 0.5, 4, 10, 5, "0-3"))
        with tempfile.TemporaryDirectory() as d:
            for cmd in (["plot_schedule.py", path, "--from", "0", "--to", "12", "--out", f"{d}/g.png"],
                        ["plot_wait_cdf.py", f"a={path}", path, "--out", f"{d}/c.png"]):
                subprocess.run([sys.executable, os.path.join(HERE, cmd[0])] + cmd[1:], check=True,
                               stdout=subprocess.DEVNULL)
            for name in ("g.png", "g.svg", "c.png", "c.svg"):
                self.assertGreater(os.path.getsize(f"{d}/{name}"), 1000)

    def test_runstats(self):
        path = self.write(HEADER + row("1", 0, 3, 0, 10, "0-2") + row("2", 0, 3, 10, 10, "0-2")
                          + row("3", 1, 9, None, 0, ""))
        prefix = path[:-len("_jobs.csv")]
        with open(prefix + "_schedule.csv", "w") as f:
            f.write("makespan,utilization,mean_bounded_slowdown,simulation_time\n20,0.5,1.5,0.01\n")
        self.addCleanup(os.unlink, prefix + "_schedule.csv")
        out = subprocess.run([sys.executable, os.path.join(HERE, "scripts", "runstats.py"), prefix,
                              "--trace", "t", "--load", "none"], check=True, capture_output=True, text=True).stdout
        r = next(csv.DictReader(out.splitlines()))
        self.assertEqual((r["jobs"], r["executed"], r["load"]), ("3", "2", ""))
        self.assertEqual(float(r["mean_wait"]), 5.0)
        self.assertEqual(float(r["max_wait"]), 10.0)

    def test_resize_requests(self):
        # Job 1: 9 nodes, ran 101 s of a 200 s limit: asks after 50 s for ceil(2.25) = 3 nodes.
        # Job 2: field 8 missing, so field 5's 4 nodes; ran 300 s but its limit is 100 s: asks
        # after 50 s for 1. Job 3 ran 1 s and job 4 has no nodes: never chosen.
        f = tempfile.NamedTemporaryFile("w", suffix=".swf", delete=False)
        f.write("; MaxProcs: 16\n"
                "1 0 -1 101 9 -1 -1 9 200 -1 1 1 -1 -1 1 -1 -1 -1\n"
                "2 0 -1 300 4 -1 -1 -1 100 -1 1 1 -1 -1 1 -1 -1 -1\n"
                "3 0 -1 1 4 -1 -1 4 100 -1 1 1 -1 -1 1 -1 -1 -1\n"
                "4 0 -1 50 -1 -1 -1 -1 100 -1 1 1 -1 -1 1 -1 -1 -1\n")
        f.close()
        self.addCleanup(os.unlink, f.name)
        sys.path.insert(0, os.path.join(HERE, "..", "reproductions", "resize"))
        from make_requests import requests
        self.assertEqual(requests(f.name, seed=1, fraction=1.0, growth=0.25),
                         [("1", 50, 3), ("2", 50, 1)])
        self.assertEqual(len(requests(f.name, seed=1, fraction=0.5, growth=0.25)), 1)

    def test_energy_points_and_goal(self):
        # Two runs of KTH-SP2 written by hand: batfill's at 4 GJ and slowdown 10 uses less energy
        # than batsched's energy_bf (5 GJ) at a lower slowdown, so it meets the goal; a run whose
        # _schedule.csv is absent is listed as missing, not dropped silently.
        out, results = tempfile.mkdtemp(), tempfile.mkdtemp()
        for folder in (out, results):
            self.addCleanup(shutil.rmtree, folder)
        header = ("consumed_joules,mean_bounded_slowdown,mean_waiting_time,nb_machine_switches,"
                  "time_sleeping,makespan,simulation_time\n")
        for name, row in [("KTH-SP2-1996-2.1-cln_easy-classic_0", "4e9,10,3600,8,5,100,1\n"),
                          ("KTH-SP2-1996-2.1-cln_energy_bf", "5e9,12,7200,2,1,100,9\n")]:
            with open(os.path.join(out, name + "_schedule.csv"), "w") as f:
                f.write(header + row)
        subprocess.run([sys.executable, os.path.join(HERE, "..", "reproductions", "energy",
                                                     "table.py"), out, results, "14"], check=True)
        with open(os.path.join(results, "points.csv")) as f:
            rows = list(csv.DictReader(f))
        self.assertEqual([(r["scheduler"], r["policy"], r["power_off_after"]) for r in rows],
                         [("batfill", "easy-classic", "0"), ("batsched", "energy_bf", "")])
        with open(os.path.join(results, "results.md")) as f:
            text = f.read()
        self.assertIn("less energy at an equal or lower mean bounded slowdown: easy-classic at 0.",
                      text)
        self.assertIn("KTH-SP2 batfill easy-classic 60", text)
        self.assertIn("No run of batsched's energy schedulers finished", text)  # SDSC-SP2


if __name__ == "__main__":
    unittest.main()

"""batfill.gym.SchedulingEnv: the Gymnasium API contract, episodes that keep every job once and
pass `batfill check`, and the baselines' numbers against RLScheduler's own environment."""

import csv
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import batfill
from batfill import gym
from support import BINARY, KTH, SOURCE

LUBLIN = os.path.join(SOURCE, "workloads", "lublin_256.swf")
# Mean bounded slowdowns (or the metric named) of each baseline on windows of 256 jobs, as
# RLScheduler's HPCEnv.schedule_curr_sequence_reset computes them (DIR-LAB/deep-batch-scheduler,
# commit cd433e3, HPCSimPickJobs.py run with numpy and stand-ins for tensorflow, scipy and gym;
# the window set through env.start). Its KTH-SP2 is the same trace uncompressed.
RLSCHEDULER = os.path.join(os.path.dirname(__file__), "data", "rlscheduler_baselines.csv")


def check_contract(test, env, observation, info):
    """What Gymnasium's env checker asks of an observation and its info."""
    test.assertIsInstance(observation, np.ndarray)
    test.assertEqual(observation.dtype, np.float32)
    test.assertEqual(observation.shape, env.observation_space.shape)
    test.assertTrue(env.observation_space.contains(observation))
    test.assertIsInstance(info, dict)
    test.assertEqual(info["action_mask"].shape, (env.action_space.n,))


def run_episode(env, choose, **reset):
    """Plays an episode; the observations, the rewards and the last info."""
    observation, info = env.reset(**reset)
    observations, rewards = [observation], []
    while True:
        observation, reward, terminated, truncated, info = env.step(choose(env, info))
        observations.append(observation)
        rewards.append(reward)
        if terminated or truncated:
            return observations, rewards, info


def first_allowed(env, info):
    return int(np.flatnonzero(info["action_mask"])[0])


class Contract(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.env = gym.SchedulingEnv(LUBLIN)

    def test_spaces_are_rlschedulers(self):
        self.assertEqual(self.env.action_space.n, 128)
        self.assertEqual(self.env.observation_space.shape, (128 * 8,))
        self.assertEqual(self.env.observation_space.dtype, np.float32)
        self.assertTrue(self.env.action_space.contains(127))
        self.assertFalse(self.env.action_space.contains(128))

    def test_reset_and_step_return_gymnasiums_tuples(self):
        observation, info = self.env.reset(seed=1)
        check_contract(self, self.env, observation, info)
        steps = 0
        while True:
            result = self.env.step(first_allowed(self.env, info))
            self.assertEqual(len(result), 5)
            observation, reward, terminated, truncated, info = result
            check_contract(self, self.env, observation, info)
            self.assertIsInstance(reward, float)
            self.assertIsInstance(terminated, bool)
            self.assertFalse(truncated)
            steps += 1
            if terminated:
                break
            self.assertEqual(reward, 0.0)
        # Without backfilling, each step starts exactly one job.
        self.assertEqual(steps, 256)
        self.assertLess(reward, 0.0)
        self.assertEqual(reward, -info["mean_bounded_slowdown"])
        with self.assertRaises(RuntimeError):
            self.env.step(0)

    def test_seeding_repeats_episodes(self):
        pick = lambda env, info: int(np.flatnonzero(info["action_mask"])[-1])  # noqa: E731
        first = run_episode(self.env, pick, seed=7)
        again = run_episode(self.env, pick, seed=7)
        other = run_episode(self.env, pick, seed=8)
        self.assertEqual(len(first[0]), len(again[0]))
        for a, b in zip(first[0], again[0]):
            np.testing.assert_array_equal(a, b)
        self.assertEqual(first[1], again[1])
        self.assertNotEqual(first[2]["window_start"], other[2]["window_start"])
        # Unseeded resets go on with the seeded generator: a sequence of windows repeats too.
        self.env.reset(seed=3)
        starts = [self.env.reset()[1]["window_start"] for _ in range(3)]
        self.env.reset(seed=3)
        self.assertEqual(starts, [self.env.reset()[1]["window_start"] for _ in range(3)])
        low, high = self.env.window_starts()
        self.assertTrue(all(low <= start < high for start in starts))

    def test_bad_actions_are_python_errors(self):
        _, info = self.env.reset(seed=2, options={"start": 1000})
        waiting = int(info["action_mask"].sum())
        with self.assertRaisesRegex(ValueError, "slot empty"):
            self.env.step(waiting)
        with self.assertRaises(TypeError):
            self.env.step(0.5)
        with self.assertRaises(TypeError):
            self.env.step(True)
        with self.assertRaisesRegex(ValueError, "start"):
            self.env.reset(options={"start": 10**6})
        with self.assertRaisesRegex(ValueError, "metric"):
            gym.SchedulingEnv(LUBLIN, metric="fun")
        with self.assertRaises(RuntimeError):
            gym.SchedulingEnv(LUBLIN).step(0)

    def test_bad_trace_names_file_and_line(self):
        with tempfile.NamedTemporaryFile("w", suffix=".swf") as trace:
            trace.write("; MaxNodes: 4\n1 0 -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 -1 -1 -1\n"
                        "2 x -1 10 2 -1 -1 2 20 -1 1 1 1 1 1 -1 -1 -1\n")
            trace.flush()
            with self.assertRaisesRegex(ValueError, "line 3: 'x' is not an integer"):
                gym.SchedulingEnv(trace.name)

    def test_observation_features(self):
        observation, info = self.env.reset(options={"start": 256})
        rows = observation.reshape(128, 8)
        # One job waits at the start, on an idle machine: no wait, it can start; the other
        # slots are RLScheduler's padding.
        trace = self.env.trace
        self.assertEqual(int(info["action_mask"].sum()), 1)
        np.testing.assert_allclose(
            rows[0], [0, trace.requested_time[256] / trace.runtime.max(),
                      trace.processors[256] / 256, 1, 1, 1, 1, 1 - 1e-5], rtol=1e-6)
        np.testing.assert_array_equal(rows[1:], np.tile([0, 1, 1, 1, 1, 1, 1, 0], (127, 1)))


class Episodes(unittest.TestCase):
    """Every job of the window starts once, and the schedule is one batfill check accepts."""

    def check_schedule(self, env):
        table = env.schedule()
        self.assertEqual(len(table), 256)
        self.assertEqual(len(set(table.job_id)), 256)
        self.assertTrue((table.start_time >= table.submit_time).all())
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "episode_jobs.csv")
            env.jobs_csv(path)
            with open(path) as jobs:
                self.assertEqual(len(list(csv.DictReader(jobs))), 256)
            run = subprocess.run([BINARY, "check", path, "--nodes",
                                  str(env.trace.machine_nodes)], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        return table

    def test_random_agents_with_and_without_backfilling(self):
        for backfill in (False, True):
            env = gym.SchedulingEnv(LUBLIN, backfill=backfill)
            for seed in range(3):
                rng = np.random.default_rng(seed)
                choose = lambda env, info: int(rng.choice(  # noqa: E731
                    np.flatnonzero(info["action_mask"])))
                _, rewards, _ = run_episode(env, choose, seed=seed)
                self.check_schedule(env)

    def test_fcfs_metrics_equal_an_independent_computation(self):
        # From the returned schedule alone: bounded slowdown max(1, (wait + run) / max(run, 10))
        # averaged over the window; waiting time; turnaround.
        formulas = {
            "bounded_slowdown": lambda t: np.maximum(
                1.0, (t.start_time - t.submit_time + t.runtime) / np.maximum(t.runtime, 10)),
            "wait": lambda t: (t.start_time - t.submit_time).astype(float),
            "turnaround": lambda t: (t.start_time - t.submit_time + t.runtime).astype(float),
        }
        for metric, formula in formulas.items():
            for trace in (LUBLIN, KTH):
                env = gym.SchedulingEnv(trace, backfill=True, metric=metric)
                for seed in (11, 12):
                    choose = lambda env, info: env.baseline_action("fcfs")  # noqa: E731
                    _, rewards, info = run_episode(env, choose, seed=seed)
                    table = self.check_schedule(env)
                    self.assertAlmostEqual(-rewards[-1], formula(table).mean(), delta=1e-9 *
                                           max(1.0, formula(table).mean()))

    def test_stepping_a_baseline_equals_playing_it(self):
        env = gym.SchedulingEnv(LUBLIN, backfill=True)
        for baseline in gym.BASELINES:
            _, rewards, _ = run_episode(env, lambda env, info: env.baseline_action(baseline),
                                        options={"start": 4444})
            self.assertEqual(-rewards[-1], env.play(baseline, 4444), baseline)


class RLSchedulerNumbers(unittest.TestCase):
    def test_every_baseline_equals_rlscheduler_on_its_windows(self):
        with open(RLSCHEDULER) as table:
            rows = list(csv.DictReader(table))
        envs = {}
        for row in rows:
            key = (row["trace"], row["backfill"], row["metric"])
            if key not in envs:
                envs[key] = gym.SchedulingEnv(os.path.join(SOURCE, "workloads", row["trace"]),
                                              backfill=row["backfill"] == "1",
                                              metric=row["metric"])
            for baseline in gym.BASELINES:
                with self.subTest(window=key + (row["start"],), baseline=baseline):
                    # Exact: the same operations in the same order as RLScheduler's.
                    self.assertEqual(envs[key].play(baseline, int(row["start"])),
                                     float(row[baseline]))


class NanScores(unittest.TestCase):
    def test_f2_of_a_missing_walltime_ties_with_every_job(self):
        # One node. Job 1 (100 s, runs 1000 s) starts at once; job 2 (200 s) is picked alone
        # and waits for the node while jobs 3, 4 and 5 arrive (300, 400, 500 s); it runs from
        # 1100 to 1200 s. Job 3 has neither runtime nor walltime: its runtime counts as 10 s,
        # its requested time is -1, so its F2 score is sqrt(-1) * 1 + 25600 log10(300) = NaN.
        # Jobs 4 and 5 score sqrt(30) + 25600 log10(400) = 66618.2 and
        # sqrt(40) + 25600 log10(500) = 69099.9. NaN ties with both, so submission decides:
        # 3 starts at 1200 (to 1210), then 4 (to 1240), then 5. RLScheduler's list.sort gives
        # the same here: its queue [3, 4, 5] is one ascending run (no key is less than NaN, and
        # 69099.9 is not less than 66618.2), which the sort leaves as it is.
        lines = ["; MaxNodes: 1", "; MaxProcs: 1"]
        jobs = [(1, 100, 1000, 1000), (2, 200, 100, 100), (3, 300, -1, -1), (4, 400, 30, 30),
                (5, 500, 40, 40)] + [(i, 10000 * i, 10, 10) for i in range(6, 13)]
        for number, submit, runtime, walltime in jobs:
            lines.append(f"{number} {submit} -1 {runtime} 1 -1 -1 1 {walltime} -1 1 1 1 1 1 "
                         f"-1 -1 -1")
        with tempfile.NamedTemporaryFile("w", suffix=".swf") as trace:
            trace.write("\n".join(lines) + "\n")
            trace.flush()
            env = gym.SchedulingEnv(trace.name, window=5, slots=4)
        env.play("f2", 0)
        starts = dict(zip(env.schedule().job_id, env.schedule().start_time))
        self.assertEqual(starts, {1: 100, 2: 1100, 3: 1200, 4: 1210, 5: 1240})


class Orders(unittest.TestCase):
    def test_baselines_are_batfill_queue_orders(self):
        # Usable everywhere: a replay takes them as `order`.
        for order in set(gym.BASELINES.values()) | {"wfp3", "unicep"}:
            result = batfill.simulate(KTH, order=order, backfill="easy")
            self.assertEqual(result.summary["jobs"], 28476)
            self.assertIn(f"order {order}", result.summary_text)


class Example(unittest.TestCase):
    def test_baselines_example_prints_every_baseline_on_ten_windows(self):
        run = subprocess.run([sys.executable, os.path.join(SOURCE, "python", "examples",
                                                           "baselines.py")],
                             capture_output=True, text=True, check=True)
        rows = [line.split() for line in run.stdout.splitlines()
                if line.split() and line.split()[0] in gym.BASELINES]
        self.assertEqual(len(rows), 2 * len(gym.BASELINES))
        self.assertTrue(all(len(row) == 12 for row in rows))
        sjf_off = rows[1]
        self.assertEqual(sjf_off[1], f"{gym.SchedulingEnv(LUBLIN).play('sjf', 256):.1f}")


if __name__ == "__main__":
    unittest.main()

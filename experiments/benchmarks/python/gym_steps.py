"""Steps per second of batfill.gym.SchedulingEnv against RLScheduler's own environment
(HPCSimPickJobs.HPCEnv) on the same windows of lublin_256.swf, side by side in one run
(docs/performance.md, "Python: the scheduling environment").

RLScheduler's code is not part of this repository: pass the directory of a checkout of
DIR-LAB/deep-batch-scheduler (HPCSimPickJobs.py, job.py, cluster.py). It imports tensorflow,
scipy and gym, which only its learning code uses: minimal stand-ins are put in their place, so it
runs with numpy alone. Both environments play the same agent, "the first visible job" (RLScheduler's
observation order and batfill's are both by submission then), with backfilling off and on; CPU
time of the steps only, episodes reset outside the timing:

    PYTHONPATH=build/python /usr/bin/python3 experiments/benchmarks/python/gym_steps.py RLSCHEDULER_DIR [WINDOWS] [ROUNDS]

Each round plays every window once in each environment, the two alternated; the CPU times are
the median over the rounds.
"""

import contextlib
import io
import os
import statistics
import sys
import tempfile
import time
import types

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
LUBLIN = os.path.join(ROOT, "workloads", "lublin_256.swf")

from batfill import gym  # noqa: E402


def stand_ins():
    """tensorflow, scipy.signal and gym as HPCSimPickJobs.py imports them, doing nothing."""
    class Env:
        pass

    class Space:
        def __init__(self, *args, **kwargs):
            pass

    modules = {
        "tensorflow": types.ModuleType("tensorflow"),
        "scipy": types.ModuleType("scipy"),
        "scipy.signal": types.ModuleType("scipy.signal"),
        "gym": types.ModuleType("gym"),
        "gym.spaces": types.ModuleType("gym.spaces"),
        "gym.utils": types.ModuleType("gym.utils"),
        "gym.utils.seeding": types.ModuleType("gym.utils.seeding"),
    }
    modules["gym"].Env = Env
    modules["gym"].spaces = modules["gym.spaces"]
    modules["gym.spaces"].Box = modules["gym.spaces"].Discrete = Space
    import numpy as np
    modules["gym.utils.seeding"].np_random = lambda seed=None: (np.random.RandomState(seed), seed)
    modules["gym.utils"].seeding = modules["gym.utils.seeding"]
    sys.modules.update(modules)


def theirs(directory, starts, backfill):
    stand_ins()
    sys.path.insert(0, directory)
    import HPCSimPickJobs
    with contextlib.redirect_stdout(io.StringIO()):
        env = HPCSimPickJobs.HPCEnv(backfil=backfill)
        env.seed(0)
        env.my_init(workload_file=LUBLIN)
    steps, cpu = 0, 0.0
    for start in starts:
        env.reset_for_test(256, 0)
        env.start = env.start_idx_last_reset = start
        env.last_job_in_batch = start + 256
        env.current_timestamp = env.loads[start].submit_time
        env.job_queue = [env.loads[start]]
        env.next_arriving_job_idx = start + 1
        env.build_observation()
        begin = time.process_time()
        done = False
        while not done:
            _, _, done, _ = env.step_for_test(0)
            steps += 1
        cpu += time.process_time() - begin
    return steps, cpu


def ours(starts, backfill):
    env = gym.SchedulingEnv(LUBLIN, backfill=backfill)
    steps, cpu = 0, 0.0
    for start in starts:
        env.reset(options={"start": start})
        begin = time.process_time()
        terminated = False
        while not terminated:
            _, _, terminated, _, _ = env.step(0)
            steps += 1
        cpu += time.process_time() - begin
    return steps, cpu


def main():
    directory = sys.argv[1]
    windows = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    starts = [256 + (9400 - 256) * i // windows for i in range(windows)]
    print(f"| backfilling | environment | steps | CPU (s), median of {rounds} | steps/s |")
    print("|---|---|---|---|---|")
    for backfill in (False, True):
        runs = {"RLScheduler HPCEnv": [], "batfill.gym": []}
        for _ in range(rounds):  # alternated, so that a change of load hits both alike
            runs["RLScheduler HPCEnv"].append(theirs(directory, starts, backfill))
            runs["batfill.gym"].append(ours(starts, backfill))
        rates = []
        for name, results in runs.items():
            steps = results[0][0]
            cpu = statistics.median(result[1] for result in results)
            rates.append(steps / cpu)
            print(f"| {'on' if backfill else 'off'} | {name} | {steps} | {cpu:.3f} | "
                  f"{steps / cpu:,.0f} |")
        print(f"| {'on' if backfill else 'off'} | ratio | | | {rates[1] / rates[0]:.0f}x |")


if __name__ == "__main__":
    main()

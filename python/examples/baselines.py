"""Every baseline of batfill.gym on 10 fixed windows of 256 jobs of lublin_256.swf, without and
with backfilling: their mean bounded slowdowns (docs/python.md, "The scheduling environment").

    PYTHONPATH=build/python python3 python/examples/baselines.py [TRACE]
"""

import os
import sys

from batfill import gym

HERE = os.path.dirname(os.path.abspath(__file__))
TRACE = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "workloads",
                                                           "lublin_256.swf")
WINDOWS = [256 + 900 * i for i in range(10)]  # window starts, fixed


def main():
    for backfill in (False, True):
        env = gym.SchedulingEnv(TRACE, backfill=backfill)
        print(f"backfilling {'on' if backfill else 'off'}: mean bounded slowdown per window")
        print(f"{'baseline':<10}" + "".join(f"{start:>9}" for start in WINDOWS) + f"{'mean':>9}")
        for baseline in gym.BASELINES:
            values = [env.play(baseline, start) for start in WINDOWS]
            print(f"{baseline:<10}" + "".join(f"{v:9.1f}" for v in values) +
                  f"{sum(values) / len(values):9.1f}")
        print()


if __name__ == "__main__":
    main()

"""batfill.gym where Gymnasium is installed: Gymnasium is not a Debian package, so a minimal
stand-in module takes its place in sys.modules before batfill.gym is imported (in a fresh
interpreter, so that no other test sees it)."""

import subprocess
import sys
import textwrap
import unittest

from support import SOURCE

# The stand-in: gymnasium.Env and gymnasium.spaces.Box/Discrete with the constructor arguments
# Gymnasium documents (Box(low, high, shape, dtype), Discrete(n)), recording how they were made.
CHILD = textwrap.dedent("""
    import os, sys, types
    import numpy as np

    gymnasium = types.ModuleType("gymnasium")
    spaces = types.ModuleType("gymnasium.spaces")

    class Env:
        pass

    class Discrete:
        def __init__(self, n, seed=None):
            self.n = n
            self.seeded = []
        def seed(self, seed=None):
            self.seeded.append(seed)

    class Box:
        def __init__(self, low, high, shape=None, dtype=np.float32, seed=None):
            self.low, self.high, self.shape, self.dtype = low, high, tuple(shape), np.dtype(dtype)

    gymnasium.Env = Env
    gymnasium.spaces = spaces
    spaces.Discrete, spaces.Box = Discrete, Box
    sys.modules["gymnasium"] = gymnasium
    sys.modules["gymnasium.spaces"] = spaces

    from batfill import gym
    env = gym.SchedulingEnv(os.path.join(sys.argv[1], "workloads", "lublin_256.swf"))
    assert isinstance(env, Env), type(env).__mro__
    assert issubclass(gym.SchedulingEnv, Env)
    assert type(env.action_space) is Discrete and env.action_space.n == 128
    box = env.observation_space
    assert type(box) is Box, type(box)
    assert (box.low, box.high, box.shape, box.dtype) == (0.0, 1.0, (1024,), np.float32), vars(box)
    observation, info = env.reset(seed=5)
    assert env.action_space.seeded == [5]
    terminated = False
    while not terminated:
        observation, reward, terminated, truncated, info = env.step(0)
    assert reward < 0 and observation.dtype == np.float32
    print("subclasses the stand-in")
""")


class WithGymnasium(unittest.TestCase):
    def test_subclasses_gymnasium_env_and_uses_its_spaces(self):
        run = subprocess.run([sys.executable, "-c", CHILD, SOURCE], capture_output=True,
                             text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        self.assertIn("subclasses the stand-in", run.stdout)

    def test_without_gymnasium_the_own_spaces(self):
        from batfill import gym
        if "gymnasium" in sys.modules:
            self.skipTest("Gymnasium is installed here")
        env = gym.SchedulingEnv(f"{SOURCE}/workloads/lublin_256.swf")
        self.assertIs(type(env.action_space), gym.Discrete)
        self.assertIs(type(env.observation_space), gym.Box)
        self.assertEqual(gym.SchedulingEnv.__mro__[1], object)


if __name__ == "__main__":
    unittest.main()

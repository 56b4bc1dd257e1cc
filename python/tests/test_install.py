"""`cmake --install` puts an importable package under the prefix."""

import os
import subprocess
import sys
import tempfile
import unittest

from support import TINY

BUILD = os.environ.get("BATFILL_BUILD_DIR")


@unittest.skipUnless(BUILD, "BATFILL_BUILD_DIR names the CMake build (CTest sets it)")
class Install(unittest.TestCase):
    def test_the_installed_package_replays(self):
        with tempfile.TemporaryDirectory() as prefix:
            subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], check=True,
                           stdout=subprocess.DEVNULL)
            version = f"python{sys.version_info.major}.{sys.version_info.minor}"
            site = os.path.join(prefix, "lib", version, "dist-packages")
            run = subprocess.run(
                [sys.executable, "-c", "import batfill; print(batfill.__file__); "
                 f"print(batfill.simulate({TINY!r}).summary['makespan'])"],
                env={**os.environ, "PYTHONPATH": site}, capture_output=True, text=True,
                check=True, cwd=prefix)
            where, makespan = run.stdout.split()
            self.assertTrue(where.startswith(site), where)
            self.assertEqual(makespan, "180.0")


if __name__ == "__main__":
    unittest.main()

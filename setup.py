"""`pip install .`: the package's Python files from python/batfill, and its C++ module built by
the project's CMake build (target _batfill), so pip and `cmake --build` build the same thing."""

import os
import re
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


def version():
    """project()'s version in CMakeLists.txt, where it is written once."""
    with open(os.path.join(ROOT, "CMakeLists.txt")) as cmake:
        return re.search(r"project\(batfill VERSION ([0-9.]+)", cmake.read()).group(1)


class CMakeBuild(build_ext):
    def build_extension(self, extension):
        build = os.path.abspath(os.path.join(self.build_temp, "cmake"))
        subprocess.run(["cmake", "-S", ROOT, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                        f"-DPython_EXECUTABLE={sys.executable}", "-DBATFILL_BUILD_TESTS=OFF",
                        "-DBATFILL_BUILD_BENCHMARKS=OFF"], check=True)
        jobs = str(os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", build, "--target", "_batfill", "-j", jobs],
                       check=True)
        built = os.path.join(build, "python", "batfill")
        module = next(name for name in os.listdir(built) if name.startswith("_batfill"))
        target = self.get_ext_fullpath(extension.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, module), target)


setup(version=version(),
      packages=["batfill"],
      package_dir={"batfill": "python/batfill"},
      ext_modules=[Extension("batfill._batfill", sources=[])],
      cmdclass={"build_ext": CMakeBuild},
      # Beside CMake's own build/, not inside it.
      options={"build": {"build_base": "build-pip"}})

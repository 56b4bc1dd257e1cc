#!/usr/bin/env bash
# README command 1: install what is missing, build batfill and its Python package, replay the
# spec's DR_EVT trace.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)" --target batfill _batfill   # the CLI and the Python package
mkdir -p out
./build/batfill simulate workloads/drevt-huge_2000jobs.csv --nodes 400 --backfill easy --output out/drevt-easy

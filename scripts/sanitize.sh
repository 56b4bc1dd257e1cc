#!/bin/bash
# Builds the whole suite with AddressSanitizer + UndefinedBehaviorSanitizer in build-asan/ and
# runs it (label `batsim` included: those tests skip without BATSIM). Any sanitizer report fails
# the test that triggered it.
#
# SimGrid switches between its actors' stacks by hand (its default "raw" and "ucontext" context
# factories), which ASan cannot follow; the sanitized build therefore runs the embedded simulator
# on SimGrid's thread contexts (BATFILL_SIMGRID_CFG, docs/semantics.md#extra-simgrid-settings-batfill_simgrid_cfg).
#
# usage: scripts/sanitize.sh [ctest arguments...]
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=$ROOT/build-asan
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBATFILL_SANITIZE=ON \
  -DBATFILL_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$BUILD" -j"${JOBS:-2}"
export BATFILL_SIMGRID_CFG=contexts/factory:thread
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:detect_stack_use_after_return=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-suppressions=$ROOT/fuzz/ubsan.supp:print_stacktrace=1:halt_on_error=1}
# SDSC-BLUE's golden replay (243,306 jobs, five policies) exceeds its 300 s limit under ASan with
# thread contexts on two cores, and its literal-transcription replays would add minutes; every
# other trace's replay runs.
ctest --test-dir "$BUILD" --output-on-failure -j"${JOBS:-2}" \
  -E 'GoldenOutputs.*sdsc_blue|LiteralOnRealTrace.*SDSC_BLUE' "$@"

#!/bin/sh
# The resize experiment (README.md beside this file): SDSC-SP2 with its real queues under
# easy-classic and conservative-classic, without and with a seeded 10 % of jobs asking once,
# halfway through their run, for 25 % more nodes.
# Usage: experiments/reproductions/resize/run.sh [BUILD_DIR] [OUT_DIR] [RESULTS_DIR]
# RESULTS_DIR gets results.md and resize.png (default: this folder).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
out=${2:-$here/out}
results=${3:-$here}
trace=$root/workloads/SDSC-SP2-1998-4.2-cln.swf.gz
mkdir -p "$out" "$results"
# The queues of the queues experiment, with its plausible priorities (its README).
/usr/bin/python3 "$root/experiments/reproductions/queues/make_configs.py" "$out"
/usr/bin/python3 "$here/make_requests.py" "$trace" "$out/requests.csv" 1 0.10 0.25
for policy in easy-classic conservative-classic; do
  "$build/batfill" simulate "$trace" --no-progress --backfill "$policy" --queues "$out/real.json" \
    --output "$out/${policy}_without" > "$out/${policy}_without.txt"
  "$build/batfill" simulate "$trace" --no-progress --backfill "$policy" --queues "$out/real.json" \
    --resize "$out/requests.csv" --output "$out/${policy}_with" > "$out/${policy}_with.txt"
  # Every grant on free machines: no machine held twice, jobs and grants together.
  "$build/batfill" check "$out/${policy}_with_jobs.csv" --nodes 128 > /dev/null
done
/usr/bin/python3 "$here/table.py" "$out" "$out/requests.csv" "$results/resize.png" > "$results/results.md"

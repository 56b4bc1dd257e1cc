#!/bin/sh
# The queues experiment (README.md beside this file): SDSC-SP2 and SDSC-BLUE under
# easy-classic with one queue, their real queues with priorities, and a non-reserving standby.
# Usage: experiments/reproductions/queues/run.sh [BUILD_DIR] [OUT_DIR]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
out=${2:-$here/out}
mkdir -p "$out"
/usr/bin/python3 "$here/make_configs.py" "$out"
for trace in SDSC-SP2-1998-4.2-cln SDSC-BLUE-2000-4.2-cln; do
  for variant in one real standby flat_standby; do
    "$build/batfill" simulate "$root/workloads/$trace.swf.gz" --no-progress \
      --backfill easy-classic --queues "$out/$variant.json" \
      --output "$out/${trace}_$variant" > "$out/${trace}_$variant.txt"
  done
  # One queue with equal flags is today's scheduler: the same _jobs.csv as without --queues.
  "$build/batfill" simulate "$root/workloads/$trace.swf.gz" --no-progress \
    --backfill easy-classic --output "$out/${trace}_noqueues" > /dev/null
  cmp "$out/${trace}_noqueues_jobs.csv" "$out/${trace}_one_jobs.csv"
done
/usr/bin/python3 "$here/table.py" "$out" > "$here/results.md"

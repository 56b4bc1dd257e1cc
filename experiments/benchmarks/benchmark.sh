#!/usr/bin/env bash
# Wall time of `batfill simulate` per policy on three real traces, beside the time to only parse
# each trace. Writes experiments/benchmarks/benchmark.md.
# Usage: experiments/benchmarks/benchmark.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
batfill="$build/batfill"
traces=(KTH-SP2-1996-2.1-cln CTC-SP2-1996-3.1-cln SDSC-BLUE-2000-4.2-cln)
policies=$("$batfill" policies | grep -v '^-' | cut -f1)
out=experiments/benchmarks/benchmark.md
tmp=$(mktemp -d)
{
  echo "# batfill simulate: wall time per policy"
  echo
  echo "Measured by \`experiments/benchmarks/benchmark.sh\` on $(date -u +%Y-%m-%d), $(nproc) cores,"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Release build."
  echo "Each cell is the whole \`batfill simulate\` command as its summary reports it (reading the"
  echo "trace, SimGrid simulation, scheduling, writing both CSV files), best of 3; \"parse\" is the"
  echo "time spent reading the trace alone. Makespan in seconds."
  echo
  printf "| trace | jobs | parse (s) |"
  for p in $policies; do printf " %s (s) |" "$p"; done
  echo
  printf "|---|---|---|"
  for p in $policies; do printf -- "---|"; done
  echo
  for trace in "${traces[@]}"; do
    file=workloads/$trace.swf.gz
    [ -f "$file" ] || continue
    row=""
    parse=""
    jobs=""
    for p in $policies; do
      best=""
      for i in 1 2 3; do
        "$batfill" simulate "$file" --backfill "$p" --no-progress --output "$tmp/run" > "$tmp/summary"
        wall=$(sed -n "s/^wall time: \([0-9.]*\) s.*/\1/p" "$tmp/summary")
        read_s=$(sed -n 's/^wall time: .*(reading \([0-9.]*\) s.*/\1/p' "$tmp/summary")
        jobs=$(sed -n 's/.*(\([0-9]*\) records.*/\1/p' "$tmp/summary")
        if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; fi
        if [ -z "$parse" ] || awk "BEGIN{exit !($read_s < $parse)}"; then parse=$read_s; fi
      done
      makespan=$(sed -n 's/^makespan: \([0-9]*\).*/\1/p' "$tmp/summary")
      row="$row $(printf '%.3f' "$best") (makespan $makespan) |"
    done
    echo "| $trace | $jobs | $(printf '%.3f' "$parse") |$row"
  done
  bench_core="$build/experiments/benchmarks/bench_core"
  if [ -x "$bench_core" ]; then
    echo
    echo "## Where the time goes: parsing and the scheduling core alone"
    echo
    echo "\`bench_core\` (Google Benchmark): \`parse/\` reads a trace, \`core/POLICY/\` replays it through"
    echo "the scheduling core with the instant-by-instant driver (no SimGrid, no protocol, no outputs)."
    echo
    echo '```'
    "$bench_core" --benchmark_min_time=0.3 2>/dev/null | sed -n '/^Benchmark/,$p'
    echo '```'
  fi
} > "$out"
rm -rf "$tmp"
cat "$out"

#!/usr/bin/env bash
# Replay CPU of two batfill builds side by side, runs alternated so that both see the same load
# on a shared machine: per trace and policy, the smallest user + system time of RUNS runs
# (default 5) of each build, and its ratio to the CPU time of the trace's first pass (the
# summary's "CPU time ... (reading X s)", docs/semantics.md#streaming-replay; taken from the second build,
# which must print it). Prints a Markdown table. With INSTRUCTIONS=1, a second table counts the
# instructions each build executes per trace and policy (valgrind's callgrind, about 50 times
# slower than a run): a figure a loaded machine does not change.
# Usage: [RUNS=N] [POLICIES="..."] [INSTRUCTIONS=1]
#        experiments/benchmarks/scale/compare.sh BEFORE_BATFILL AFTER_BATFILL [TRACE...]
#   (default traces: SDSC-BLUE and the 4-copy scale trace run.sh builds in work/)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
BEFORE="$1"
AFTER="$2"
shift 2
TRACES=("$@")
[ ${#TRACES[@]} -gt 0 ] ||
  TRACES=("$ROOT/workloads/SDSC-BLUE-2000-4.2-cln.swf.gz" "$HERE/work/blue_x4.swf")
POLICIES="${POLICIES:-none easy conservative easy-classic conservative-classic}"
RUNS="${RUNS:-5}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

# "user+sys first_pass_cpu" of one run; first_pass_cpu is 0 when the build does not print it.
# The CPU time is the kernel's account of the child (getrusage), to the microsecond: /usr/bin/time
# rounds it to 10 ms, 4 % of a KTH-SP2 replay.
one_run() {  # BATFILL TRACE POLICY
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[2:], check=True)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%.4f" % (usage.ru_utime + usage.ru_stime))' \
    "$OUT/time" "$1" simulate "$2" --backfill "$3" --no-progress --output "$OUT/run" \
    > "$OUT/summary"
  local first
  first=$(sed -n 's/^CPU time: .*(reading \([0-9.]*\) s)/\1/p' "$OUT/summary")
  echo "$(cat "$OUT/time") ${first:-0}"
}

min() { sort -g | sed -n 1p; }

echo "| trace | jobs | policy | first pass CPU (s) | before CPU (s) | after CPU (s) | after / before | before / first pass | after / first pass |"
echo "|---|---|---|---|---|---|---|---|---|"
for trace in "${TRACES[@]}"; do
  jobs=$(zcat -f "$trace" | grep -vc '^;')
  for policy in $POLICIES; do
    : > "$OUT/before"
    : > "$OUT/after"
    for _ in $(seq "$RUNS"); do
      one_run "$BEFORE" "$trace" "$policy" >> "$OUT/before"
      one_run "$AFTER" "$trace" "$policy" >> "$OUT/after"
    done
    before=$(cut -d' ' -f1 "$OUT/before" | min)
    after=$(cut -d' ' -f1 "$OUT/after" | min)
    first=$(cut -d' ' -f2 "$OUT/after" | min)
    awk -v t="$(basename "$trace")" -v j="$jobs" -v p="$policy" -v f="$first" -v b="$before" \
      -v a="$after" 'BEGIN{printf "| %s | %\047d | %s | %.3f | %.3f | %.3f | %.3f | %.1f | %.1f |\n",
                            t, j, p, f, b, a, a / b, b / f, a / f}'
  done
done

[ "${INSTRUCTIONS:-0}" = 1 ] || exit 0
instructions() {  # BATFILL TRACE POLICY
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" simulate "$2" --backfill "$3" \
    --no-progress --output "$OUT/run" 2>&1 >/dev/null | sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' |
    tr -d ,
}
echo
echo "| trace | policy | before (M instructions) | after (M instructions) | after / before |"
echo "|---|---|---|---|---|"
for trace in "${TRACES[@]}"; do
  for policy in $POLICIES; do
    before=$(instructions "$BEFORE" "$trace" "$policy")
    after=$(instructions "$AFTER" "$trace" "$policy")
    awk -v t="$(basename "$trace")" -v p="$policy" -v b="$before" -v a="$after" \
      'BEGIN{printf "| %s | %s | %.1f | %.1f | %.3f |\n", t, p, b / 1e6, a / 1e6, a / b}'
  done
done

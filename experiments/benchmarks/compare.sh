#!/usr/bin/env bash
# Two builds of batfill side by side in one run: `batfill simulate` per policy on three real
# traces, the two binaries alternated round by round so that both meet the same machine load.
# Each cell is the smallest processor time (user + system, the summary's "CPU time") of ROUNDS
# runs; the table also says whether both wrote byte-identical _jobs.csv. With CALLGRIND=1, a
# second table counts the instructions each executes on KTH-SP2 (valgrind's callgrind): the
# same on a loaded machine as on an idle one.
# Usage: [CALLGRIND=1] experiments/benchmarks/compare.sh OLD_BUILD_DIR NEW_BUILD_DIR [ROUNDS] > compare.md
set -euo pipefail
cd "$(dirname "$0")/../.."
old=$1/batfill
new=$2/batfill
rounds=${3:-3}
traces=(KTH-SP2-1996-2.1-cln CTC-SP2-1996-3.1-cln SDSC-BLUE-2000-4.2-cln)
policies=$("$new" policies | grep -v '^-' | cut -f1)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cpu_of() { sed -n 's/^CPU time: \([0-9.]*\) s.*/\1/p' "$1"; }
smaller() { if [ -z "$1" ] || awk "BEGIN{exit !($2 < $1)}"; then echo "$2"; else echo "$1"; fi; }

echo "# Two builds side by side: \`batfill simulate\` processor time per policy"
echo
echo "\`experiments/benchmarks/compare.sh\` on $(date -u +%Y-%m-%d), $(nproc) cores, load average"
echo "$(cut -d' ' -f1-3 /proc/loadavg) at the start; old: \`$("$old" --version)\` ($1), new:"
echo "\`$("$new" --version)\` ($2). Smallest CPU time (s) of $rounds rounds, the binaries alternated."
echo
echo "| trace | policy | old (s) | new (s) | new / old | same _jobs.csv |"
echo "|---|---|---|---|---|---|"
for trace in "${traces[@]}"; do
  file=workloads/$trace.swf.gz
  for p in $policies; do
    best_old="" best_new=""
    for ((i = 0; i < rounds; i++)); do
      "$old" simulate "$file" --backfill "$p" --no-progress --output "$tmp/old" > "$tmp/old.txt"
      best_old=$(smaller "$best_old" "$(cpu_of "$tmp/old.txt")")
      "$new" simulate "$file" --backfill "$p" --no-progress --output "$tmp/new" > "$tmp/new.txt"
      best_new=$(smaller "$best_new" "$(cpu_of "$tmp/new.txt")")
    done
    same=no
    cmp -s "$tmp/old_jobs.csv" "$tmp/new_jobs.csv" && same=yes
    ratio=$(awk "BEGIN{printf \"%.3f\", $best_new / $best_old}")
    echo "| $trace | $p | $best_old | $best_new | $ratio | $same |"
  done
done

[ "${CALLGRIND:-0}" = 1 ] || exit 0
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" simulate \
    workloads/KTH-SP2-1996-2.1-cln.swf.gz --backfill "$2" --no-progress --output "$tmp/cg" 2>&1 |
    sed -n 's/.*I *refs: *\([0-9,]*\).*/\1/p' | tr -d ,
}
echo
echo "Instructions executed on KTH-SP2 (callgrind), millions:"
echo
echo "| policy | old | new | new / old |"
echo "|---|---|---|---|"
for p in $policies; do
  a=$(instructions "$old" "$p")
  b=$(instructions "$new" "$p")
  echo "| $p | $((a / 1000000)) | $((b / 1000000)) | $(awk "BEGIN{printf \"%.3f\", $b / $a}") |"
done

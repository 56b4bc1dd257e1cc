#!/usr/bin/env bash
# The cost of the SC'15 table's rows (experiments/reproductions/predictsim) beside plain EASY,
# measured side by side on one trace: every row is `batfill simulate TRACE --backfill
# easy-classic --batching per-event` plus its flags. Writes experiments/benchmarks/benchmark_rows.md.
#
# Usage: experiments/benchmarks/benchmark_rows.sh [BUILD_DIR] [TRACE] [ROUNDS]
#   (defaults: build, workloads/CTC-SP2-1996-3.1-cln.swf.gz, 5)
#
# The requirement checked: every row runs within 1.5x of EASY's time, except the learned
# predictor (sgd), whose cost is only reported. The rows run in turn within each round, so that
# a change in the machine's load falls on all of them alike; each row keeps its best round.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
trace=${2:-workloads/CTC-SP2-1996-3.1-cln.swf.gz}
rounds=${3:-5}
batfill="$build/batfill"
out=experiments/benchmarks/benchmark_rows.md
limit=1.5
names=("EASY" "EASY-SJBF" "EASY, clairvoyant" "EASY++, clairvoyant" "EASY++, Tsafrir"
       "EASY++, learned (sgd)")
flags=("" "--backfill-order sjbf" "--predictor clairvoyant"
       "--predictor clairvoyant --backfill-order sjbf"
       "--predictor tsafrir --corrector tsafrir --backfill-order sjbf"
       "--predictor sgd --corrector reqtime --backfill-order sjbf")
exempt=5  # the learned predictor: reported, not held to the limit
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run: prints "wall cpu" in seconds (the whole process, as the shell measures it).
run_once() {
  local TIMEFORMAT='%R %U %S'
  local times
  # shellcheck disable=SC2086  # the flags are words
  times=$( { time "$batfill" simulate "$trace" --backfill easy-classic --batching per-event $1 \
               --no-progress --output "$tmp/run" > "$tmp/summary" 2> /dev/null; } 2>&1 )
  read -r wall user sys <<< "$times"
  awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f %.3f\n", w, u + s }'
}

declare -a best_wall best_cpu slowdown
for ((round = 1; round <= rounds; round++)); do
  for i in "${!names[@]}"; do
    read -r wall cpu <<< "$(run_once "${flags[$i]}")"
    if [ -z "${best_wall[$i]:-}" ] || awk "BEGIN{exit !($wall < ${best_wall[$i]})}"; then
      best_wall[$i]=$wall
    fi
    if [ -z "${best_cpu[$i]:-}" ] || awk "BEGIN{exit !($cpu < ${best_cpu[$i]})}"; then
      best_cpu[$i]=$cpu
    fi
    slowdown[$i]=$(sed -n 's/^mean bounded slowdown (tau = 10 s): //p' "$tmp/summary")
  done
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
met=yes
{
  echo "# The SC'15 rows beside plain EASY: time per row"
  echo
  echo "Measured by \`experiments/benchmarks/benchmark_rows.sh\` on $(date -u +%Y-%m-%d), $(nproc) cores,"
  echo "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), Release build, batfill at"
  echo "commit \`$(git rev-parse --short HEAD 2>/dev/null || echo unknown)\`, load average $(cut -d' ' -f1-3 /proc/loadavg)."
  echo "Trace \`$trace\`; each row is \`batfill simulate TRACE --backfill easy-classic --batching"
  echo "per-event FLAGS\`, the whole process (reading, simulating, writing the outputs), best of"
  echo "$rounds rounds in which the rows take turns. CPU = user + system. The requirement: every row"
  echo "within ${limit}x of EASY, the learned predictor (sgd) reported only."
  echo
  echo "| row | flags | mean bounded slowdown | wall (s) | wall / EASY | CPU (s) | CPU / EASY |"
  echo "|---|---|---|---|---|---|---|"
  for i in "${!names[@]}"; do
    wall_ratio=$(ratio "${best_wall[$i]}" "${best_wall[0]}")
    cpu_ratio=$(ratio "${best_cpu[$i]}" "${best_cpu[0]}")
    if [ "$i" != "$exempt" ] && awk "BEGIN{exit !($wall_ratio > $limit || $cpu_ratio > $limit)}"; then
      met=no
    fi
    shown_flags=${flags[$i]:-(none)}
    echo "| ${names[$i]} | \`$shown_flags\` | ${slowdown[$i]} | ${best_wall[$i]} | ${wall_ratio}x | ${best_cpu[$i]} | ${cpu_ratio}x |"
  done
  echo
  echo "Every row but sgd within ${limit}x of EASY (wall and CPU): **$met**."
} > "$out"
cat "$out"

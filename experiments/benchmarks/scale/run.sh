#!/usr/bin/env bash
# Scale benchmark: SDSC-BLUE repeated into traces of about 1M (and, with SCALE_10M=1, 10M) jobs,
# each copy shifted past the previous one's makespan; wall time and peak memory per policy, and
# a check that every copy was scheduled exactly like the first. Writes results.md (and
# scale.png/svg when matplotlib is installed). Generated traces go to work/ (not committed).
# CPU time is reported beside wall time: on a shared machine it is the steadier of the two; the
# replay's CPU is compared with its first pass's CPU (experiments/benchmarks/scale/compare.sh does it for
# two builds side by side).
# The 10M trace runs only POLICIES_10M (default: easy), as one run takes about a minute.
# Usage: experiments/benchmarks/scale/run.sh [BUILD_DIR]      (from anywhere; needs python3, /usr/bin/time)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
BATFILL="$(cd "${1:-$ROOT/build}" && pwd)/batfill"
WORK="$HERE/work"
BASE="$ROOT/workloads/SDSC-BLUE-2000-4.2-cln.swf.gz"
POLICIES="${POLICIES:-none easy conservative easy-classic conservative-classic}"
SIZES="1 4"                      # copies: 243k and 973k jobs
[ "${SCALE_10M:-0}" = 1 ] && SIZES="$SIZES 41"   # 9.98M jobs
POLICIES_10M="${POLICIES_10M:-easy}"
mkdir -p "$WORK"
[ -x "$BATFILL" ] || { echo "missing $BATFILL" >&2; exit 1; }

# The shift: the largest absolute makespan of one copy under any policy, rounded up to 1e6 s.
shift_s=0
for p in $POLICIES; do
  m=$("$BATFILL" simulate "$BASE" --backfill "$p" --no-progress --output "$WORK/base_$p" |
      sed -n 's/^makespan: \([0-9]*\)\..*/\1/p')
  [ "$m" -gt "$shift_s" ] && shift_s=$m
done
shift_s=$(( (shift_s / 1000000 + 1) * 1000000 ))
id_step=1000000   # 10^d above SDSC-BLUE's largest id (243,306)

echo "trace,copies,jobs,policy,wall_s,cpu_s,first_pass_s,first_pass_cpu_s,max_rss_mb,copies_identical" \
  > "$WORK/results.csv"
for copies in $SIZES; do
  # Named by its shift too: a trace built for another shift would misalign the copies.
  trace="$WORK/blue_x${copies}_shift$shift_s.swf"
  [ -f "$trace" ] || python3 "$HERE/make_trace.py" "$BASE" "$copies" "$shift_s" "$trace"
  jobs=$(grep -vc '^;' "$trace")
  policies=$POLICIES
  [ "$copies" -gt 4 ] && policies=$POLICIES_10M
  for p in $policies; do
    out="$WORK/x${copies}_$p"
    /usr/bin/time -f "%e %M %U %S" -o "$out.time" \
      "$BATFILL" simulate "$trace" --backfill "$p" --no-progress --output "$out" > "$out.log"
    read -r wall rss user sys < "$out.time"
    cpu=$(python3 -c "print(f'{$user + $sys:.2f}')")
    # The summary's "reading" times: the first pass over the whole trace (docs/semantics.md
    # docs/semantics.md#streaming-replay), wall and CPU.
    first_pass=$(sed -n 's/^wall time: .*(reading \([0-9.]*\) s.*/\1/p' "$out.log")
    first_pass_cpu=$(sed -n 's/^CPU time: .*(reading \([0-9.]*\) s)/\1/p' "$out.log")
    same=yes
    if [ "$copies" -gt 1 ]; then
      python3 "$HERE/check_copies.py" "${out}_jobs.csv" "$copies" "$shift_s" "$id_step" \
        > "$out.check" || same=NO
    fi
    echo "SDSC-BLUE,$copies,$jobs,$p,$wall,$cpu,$first_pass,$first_pass_cpu,$(( rss / 1024 )),$same" \
      >> "$WORK/results.csv"
    rm -f "${out}_jobs.csv"
    echo "x$copies $p: ${wall} s (CPU $cpu s, first pass $first_pass s, CPU $first_pass_cpu s), $(( rss / 1024 )) MB, copies identical: $same"
  done
done
"${PYTHON:-/usr/bin/python3}" "$HERE/report.py" "$WORK/results.csv" "$HERE/results.md" "$HERE"

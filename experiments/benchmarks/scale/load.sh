#!/usr/bin/env bash
# Load-factor sweep of two batfill builds side by side: every policy on each trace with the
# inter-arrival times divided by 1.0, 1.5, 2.0 and 3.0 (`--load-factor`), runs alternated so that
# both builds see the same load on a shared machine. Per case: the wait queue's mean and peak
# length (queue_length.py, from the after build's _jobs.csv), the smallest user + system CPU of
# RUNS runs of each build (getrusage, to the microsecond), after / before, and each build's CPU
# over its own at load 1.0. A run stopped at TIMEOUT seconds of CPU shows as "> T".
# Checks that both builds wrote byte-identical _jobs.csv (column "same").
# Usage: [RUNS=N] [TIMEOUT=S] [LOADS="..."] [POLICIES="..."]
#        experiments/benchmarks/scale/load.sh BEFORE_BATFILL AFTER_BATFILL [TRACE...]
#   (default traces: CTC-SP2 and KTH-SP2)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
BEFORE="$1"
AFTER="$2"
shift 2
TRACES=("$@")
[ ${#TRACES[@]} -gt 0 ] || TRACES=("$ROOT/workloads/CTC-SP2-1996-3.1-cln.swf.gz"
                                   "$ROOT/workloads/KTH-SP2-1996-2.1-cln.swf.gz")
POLICIES="${POLICIES:-none easy conservative easy-classic conservative-classic}"
LOADS="${LOADS:-1 1.5 2 3}"
RUNS="${RUNS:-3}"
TIMEOUT="${TIMEOUT:-600}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT

# The CPU seconds of one run (user + system of the child), or "inf" when it reached TIMEOUT
# seconds of CPU (a limit in CPU, not wall time: a loaded machine does not stop a run early).
one_run() {  # BATFILL TRACE POLICY LOAD OUTPUT_PREFIX
  python3 -c 'import resource, signal, subprocess, sys
limit = int(sys.argv[1])
cap = lambda: resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 5))
run = subprocess.run(sys.argv[2:], preexec_fn=cap, stdout=subprocess.DEVNULL)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
if run.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
    print("inf"); sys.exit(0)
if run.returncode != 0:
    sys.exit("batfill failed: %s" % " ".join(sys.argv[2:]))
print("%.4f" % (usage.ru_utime + usage.ru_stime))' \
    "$TIMEOUT" "$1" simulate "$2" --backfill "$3" --load-factor "$4" --no-progress \
    --output "$5"
}

min() { sort -g | sed -n 1p; }
cpu() { [ "$1" = inf ] && echo "> $TIMEOUT" || printf "%.3f" "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a == "inf" || b == "inf") print "-";
                                          else printf "%.2f", a / b }'; }

echo "| trace | policy | load | queue mean | queue peak | before CPU (s) | after CPU (s) | after / before | before / its load 1 | after / its load 1 | same |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for trace in "${TRACES[@]}"; do
  name=$(basename "$trace" | sed 's/-[0-9].*//')
  for policy in $POLICIES; do
    base_before="" base_after=""
    for load in $LOADS; do
      : > "$OUT/before"
      : > "$OUT/after"
      for _ in $(seq "$RUNS"); do
        one_run "$BEFORE" "$trace" "$policy" "$load" "$OUT/b" >> "$OUT/before"
        one_run "$AFTER" "$trace" "$policy" "$load" "$OUT/a" >> "$OUT/after"
        grep -q inf "$OUT/before" "$OUT/after" && break  # one stopped run says enough
      done
      before=$(min < "$OUT/before")
      after=$(min < "$OUT/after")
      [ -n "$base_before" ] || { base_before=$before; base_after=$after; }
      queue="- -"
      same="-"
      if [ "$before" != inf ] && [ "$after" != inf ]; then
        queue=$(python3 "$HERE/queue_length.py" "$OUT/a_jobs.csv")
        cmp -s "$OUT/a_jobs.csv" "$OUT/b_jobs.csv" && same=yes || same=NO
      elif [ "$after" != inf ]; then
        queue=$(python3 "$HERE/queue_length.py" "$OUT/a_jobs.csv")
      fi
      echo "| $name | $policy | $load | ${queue% *} | ${queue#* } | $(cpu "$before") |" \
           "$(cpu "$after") | $(ratio "$after" "$before") | $(ratio "$before" "$base_before") |" \
           "$(ratio "$after" "$base_after") | $same |"
      rm -f "$OUT"/a_* "$OUT"/b_*
    done
  done
done

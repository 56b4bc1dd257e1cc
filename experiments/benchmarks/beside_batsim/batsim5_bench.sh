#!/usr/bin/env bash
# batfill beside a real Batsim 5.0.0-rc2 on KTH-SP2 (28,467 replayable jobs as a Batsim 5 JSON
# workload on cluster512 cut to 100 machines, as tests/batsim5 runs it), in three ways:
#   library  Batsim loads build/libbatfill_edc.so (-l), EASY;
#   process  `batfill serve --protocol batsim5` behind a TCP port on the loopback (-s), EASY;
#   libeasy  Batsim's bundled example EASY library (-l), the floor: a minimal EASY, no socket.
# For each, the median of RUNS runs (default 3) of: Batsim's wall time and processor time (user +
# sys, /usr/bin/time; in library mode it includes the EDC's), the time Batsim spent in the EDC
# (time_in_edc_seconds of its real_exec_info.json: wall time of the calls), batfill serve's
# processor time (process mode) and the mean wait. On a shared machine wall times vary with the
# load; processor times much less. Writes batsim5_bench.md beside it and the runs' files under
# results/batsim5_bench/ beside it (not committed).
# Usage: BATSIM5=.../prefix [RUNS=N] experiments/benchmarks/beside_batsim/batsim5_bench.sh [BUILD_DIR]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
BUILD="$(cd "${1:-$ROOT/build}" && pwd)"
PREFIX="${BATSIM5:-$HOME/.cache/batsim-5.0.0-rc2/prefix}"
BATSIM="$PREFIX/bin/batsim"
RUNS="${RUNS:-3}"
WORK="$HERE/results/batsim5_bench"
OUT="$HERE/batsim5_bench.md"
for program in "$BUILD/batfill" "$BUILD/libbatfill_edc.so" "$BATSIM" \
  "$PREFIX/lib/batsim-edc/libeasy.so"; do
  [ -e "$program" ] || { echo "missing $program (set BATSIM5 to the Batsim 5 prefix)" >&2; exit 1; }
done
mkdir -p "$WORK"
sed 's/radical="0-511"/radical="0-99"/' "$PREFIX/share/batsim/platforms/cluster512.xml" \
  > "$WORK/cluster100.xml"
python3 "$HERE/swf_to_batsim_json.py" "$ROOT/workloads/KTH-SP2-1996-2.1-cln.swf.gz" 100 \
  "$WORK/kth4.json"
# Batsim 5 names the delay profile after batprotocol's table.
sed 's/"type":"delay"/"type":"DelayProfile"/g' "$WORK/kth4.json" > "$WORK/kth.json"

# One run; prints "wall_s batsim_cpu_s edc_s serve_cpu_s mean_wait_s".
port=28900
run_one() {  # NAME MODE
  local name="$1" mode="$2" dir="$WORK/$1" serve_pid="" endpoint
  rm -rf "$dir"; mkdir -p "$dir"
  local batsim=("$BATSIM" -q -p "$WORK/cluster100.xml" -w "$WORK/kth.json" -e "$dir/")
  case "$mode" in
    library) batsim+=(-l "$BUILD/libbatfill_edc.so" '{}') ;;
    libeasy) batsim+=(-l "$PREFIX/lib/batsim-edc/libeasy.so" '{"format_json": true}') ;;
    process)
      port=$((port + 1)); endpoint="tcp://127.0.0.1:$port"
      /usr/bin/time -f "%U %S" -o "$dir/serve.time" "$BUILD/batfill" serve --protocol batsim5 \
        -s "tcp://*:$port" --verbosity quiet > "$dir/serve.log" 2>&1 &
      serve_pid=$!
      batsim+=(-s "$endpoint" '{}') ;;
  esac
  /usr/bin/time -f "%e %U %S" -o "$dir/batsim.time" "${batsim[@]}" > "$dir/batsim.log" 2>&1
  [ -z "$serve_pid" ] || wait "$serve_pid"
  python3 - "$dir" <<'PY'
import csv, json, os, sys
d = sys.argv[1]
wall, user, system = (float(x) for x in open(f"{d}/batsim.time").read().split()[-3:])
edc = float(json.load(open(f"{d}/real_exec_info.json"))["time_in_edc_seconds"])
cpu = 0.0
if os.path.exists(f"{d}/serve.time"):
    cpu = sum(float(x) for x in open(f"{d}/serve.time").read().split()[-2:])
waits = [float(r["waiting_time"]) for r in csv.DictReader(open(f"{d}/jobs.csv"))
         if r["final_state"] != "REJECTED" and r["waiting_time"]]
print(f"{wall} {user + system:.2f} {edc:.2f} {cpu:.2f} {sum(waits) / len(waits):.2f}")
PY
}

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

{
  echo "| EDC | Batsim wall time (s) | Batsim CPU (s) | time in the EDC (s) | batfill serve CPU (s) | mean wait (s) |"
  echo "|---|---|---|---|---|---|"
  for mode in library process libeasy; do
    : > "$WORK/$mode.rows"
    for run in $(seq "$RUNS"); do run_one "$mode-$run" "$mode" >> "$WORK/$mode.rows"; done
    col() { cut -d' ' -f"$1" "$WORK/$mode.rows" | median; }
    echo "| $mode | $(col 1) | $(col 2) | $(col 3) | $(col 4) | $(col 5) |"
  done
} | tee "$OUT"

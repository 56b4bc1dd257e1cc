#!/usr/bin/env bash
# batfill serve against batsched, each beside a real Batsim 4.2.1 on KTH-SP2 (28,467 replayable
# jobs as a Batsim JSON workload, on cluster512 cut to 100 machines, as the integration tests in
# tests/batsim run it), for batsched's easy_bf and conservative_bf: the scheduler's processor
# time (user + sys, from /usr/bin/time) and Batsim's scheduling_time (its _schedule.csv: the wall
# time it spent waiting for the scheduler), the median of RUNS runs (default 3), and their ratio
# to batsched's. Both schedulers get the same command line (`-v VARIANT -s ENDPOINT`): a TCP
# port on the loopback, or with TRANSPORT=ipc a Unix socket, which saves the kernel's TCP work.
# Writes batsim_vs_batsched.md beside this script (the table) and the runs' files under
# results/batsim_vs_batsched/ beside it (not committed).
# Usage: BATSIM=.../bin/batsim BATSCHED=.../bin/batsched [TRANSPORT=tcp|ipc] [RUNS=N] \
#          experiments/benchmarks/beside_batsim/batsim_vs_batsched.sh [BUILD_DIR]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
BATFILL="$(cd "${1:-$ROOT/build}" && pwd)/batfill"
PREFIX="$HOME/.cache/batsim-4.2.1/prefix"
BATSIM="${BATSIM:-$PREFIX/bin/batsim}"
BATSCHED="${BATSCHED:-$PREFIX/bin/batsched}"
RUNS="${RUNS:-3}"
TRANSPORT="${TRANSPORT:-tcp}"
VARIANTS="${VARIANTS:-easy_bf conservative_bf}"
WORK="$HERE/results/batsim_vs_batsched"
OUT="$HERE/batsim_vs_batsched.md"
case "$TRANSPORT" in
  tcp) ;;
  ipc) WORK="$WORK/ipc"; OUT="$HERE/batsim_vs_batsched_ipc.md" ;;
  *) echo "TRANSPORT must be tcp or ipc, not '$TRANSPORT'" >&2; exit 1 ;;
esac
for program in "$BATFILL" "$BATSIM" "$BATSCHED"; do
  [ -x "$program" ] || { echo "missing $program (set BATSIM and BATSCHED)" >&2; exit 1; }
done
mkdir -p "$WORK"

platforms="$(dirname "$(dirname "$BATSIM")")/share/batsim-platforms"
sed 's/radical="0-511"/radical="0-99"/' "$platforms/cluster512.xml" > "$WORK/cluster100.xml"
python3 "$HERE/swf_to_batsim_json.py" "$ROOT/workloads/KTH-SP2-1996-2.1-cln.swf.gz" 100 \
  "$WORK/kth.json"

# One run: the scheduler (`PROGRAM... -v VARIANT -s ENDPOINT`) under /usr/bin/time, Batsim
# beside it on a port (or a socket file) of its own. Prints "cpu_s scheduling_time_s mean_wait_s".
port=28700
run_pair() {  # NAME VARIANT PROGRAM...
  local name="$1" variant="$2" bind connect
  shift 2
  port=$((port + 1))
  if [ "$TRANSPORT" = ipc ]; then
    bind="ipc://$WORK/$name.socket"; connect="$bind"
  else
    bind="tcp://*:$port"; connect="tcp://127.0.0.1:$port"
  fi
  /usr/bin/time -f "%U %S" -o "$WORK/$name.time" \
    "$@" -v "$variant" -s "$bind" > "$WORK/$name.scheduler.log" 2>&1 &
  local scheduler=$!
  "$BATSIM" -q -p "$WORK/cluster100.xml" -w "$WORK/kth.json" -e "$WORK/$name" \
    -s "$connect" > "$WORK/$name.batsim.log" 2>&1
  wait "$scheduler"
  python3 - "$WORK/$name.time" "$WORK/${name}_schedule.csv" <<'PY'
import csv, sys
user, system = (float(x) for x in open(sys.argv[1]).read().split()[-2:])
row = next(csv.DictReader(open(sys.argv[2])))
print(f"{user + system:.2f} {float(row['scheduling_time']):.2f} {float(row['mean_waiting_time']):.1f}")
PY
}

echo "variant,scheduler,run,cpu_s,scheduling_time_s,mean_wait_s" > "$WORK/runs.csv"
for run in $(seq "$RUNS"); do
  for variant in $VARIANTS; do
    # Alternated, so that both schedulers see the same load on a shared machine.
    for scheduler in batfill batsched; do
      name="${variant}_${scheduler}_$run"
      if [ "$scheduler" = batfill ]; then
        read -r cpu sched wait < <(run_pair "$name" "$variant" "$BATFILL" serve)
      else
        read -r cpu sched wait < <(run_pair "$name" "$variant" "$BATSCHED")
      fi
      echo "$variant,$scheduler,$run,$cpu,$sched,$wait" >> "$WORK/runs.csv"
      echo "$name: CPU $cpu s, scheduling_time $sched s, mean wait $wait s"
    done
  done
done

python3 "$HERE/batsim_vs_batsched_table.py" "$WORK/runs.csv" "$OUT" "$TRANSPORT"

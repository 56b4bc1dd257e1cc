#!/usr/bin/env bash
# The energy experiment (README.md beside this file): KTH-SP2 and SDSC-SP2 on Batsim's 128-node
# energy platform cut to each trace's size, with batfill's idle power-off under easy-classic and
# conservative-classic at several power_off_after, beside batsched's energy_bf_idle_sleeper and
# energy_bf driven by batfill's stand-in (simulate --scheduler).
# Usage: BATSCHED=/path/to/batsched experiments/reproductions/energy/run.sh [BUILD_DIR] [OUT_DIR] [RESULTS_DIR]
# RESULTS_DIR gets points.csv, results.md and energy.png (default: this folder).
# PARTS=batfill or PARTS=batsched runs one half only (default: both). DAYS=N keeps the jobs
# submitted in each trace's first N days (default 14: batsched's runs through the stand-in take
# hours on the whole traces, README.md); DAYS=all keeps the whole traces.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=${1:-$root/build}
out=${2:-$here/out}
results=${3:-$here}
parts=${PARTS:-batfill batsched}
days=${DAYS:-14}
platform=$root/tests/batsim/data/energy/energy_platform_homogeneous_no_net_128.xml
declare -A NODES=([KTH-SP2-1996-2.1-cln]=100 [SDSC-SP2-1998-4.2-cln]=128)   # the traces' MaxNodes
TRACES="KTH-SP2-1996-2.1-cln SDSC-SP2-1998-4.2-cln"
AFTERS="0 60 300 1800 3600 never"
mkdir -p "$out" "$results"
[ -x "$build/batfill" ] || { echo "missing $build/batfill: cmake --build build --target batfill" >&2; exit 1; }
for trace in $TRACES; do   # header lines, and the jobs submitted in the first $days days
  zcat "$root/workloads/$trace.swf.gz" |
    awk -v days="$days" '/^;/ || days == "all" || $2 < days * 86400' > "$out/$trace.swf.new"
  mv "$out/$trace.swf.new" "$out/$trace.swf"   # a run of another PARTS may be reading it
done

# The platform's switch times, as batfill plans them: one flop at the speed of the virtual
# pstates 14 (off, 0.163 flop/s) and 15 (on, 0.0066 flop/s).
power="--pstate-sleep 13 --pstate-compute 0 --power-switch-off 6.1 --power-switch-on 151.52"

run_batfill() {   # trace policy after
  local name="$1_$2_$3"
  [ -f "$out/${name}_schedule.csv" ] && return 0
  local opts=""
  [ "$3" = never ] || opts="--power-off-after $3 $power"
  "$build/batfill" simulate "$out/$1.swf" --platform "$platform" --nodes "${NODES[$1]}" \
    --energy --no-progress --backfill "$2" $opts --output "$out/$name" > "$out/$name.txt"
  "$build/batfill" check "$out/${name}_jobs.csv" --nodes "${NODES[$1]}" \
    --workload "$out/$1.swf" > /dev/null
}

# batsched's energy model instance of Batsim's test_energy.py (the 128-node energy platforms),
# with test_energy_minimal's options of energy_bf_idle_sleeper.
batsched_options() {   # variant file name
  local extra=""
  [ "$1" = energy_bf_idle_sleeper ] && extra=',"monitoring_period":30,"idle_time_to_sedate":0,"sedate_idle_on_classical_events":false,"ensured_sleep_time_lower_bound":0,"ensured_sleep_time_upper_bound":0'
  cat > "$2" <<JSON
{"power_sleep":9.75,"power_idle":95,"energy_switch_on":19030,"power_compute":190.738,"energy_switch_off":620,"time_switch_off":6.1,"pstate_sleep":13,"pstate_compute":0,"time_switch_on":152,"output_dir":"$out/batsched_$3","trace_output_filename":"$out/batsched_$3/sched_trace.csv"$extra}
JSON
}

run_batsched() {   # trace variant port
  local name="$1_$2" start end
  [ -f "$out/${name}_schedule.csv" ] && return 0
  mkdir -p "$out/batsched_$name"
  batsched_options "$2" "$out/options_$name.json" "$name"
  start=$(date +%s)
  "$BATSCHED" --verbosity quiet -v "$2" --variant_options_filepath "$out/options_$name.json" \
    -s "tcp://127.0.0.1:$3" > "$out/${name}_batsched.log" 2>&1 &
  local pid=$!
  "$build/batfill" simulate "$out/$1.swf" --platform "$platform" --nodes "${NODES[$1]}" \
    --energy --no-progress --timeout 600 --scheduler "tcp://127.0.0.1:$3" --output "$out/$name" \
    > "$out/$name.txt"
  wait "$pid"
  end=$(date +%s)
  echo "$((end - start))" > "$out/$name.seconds"
  "$build/batfill" check "$out/${name}_jobs.csv" --nodes "${NODES[$1]}" \
    --workload "$out/$1.swf" > /dev/null
}

for part in $parts; do
  if [ "$part" = batfill ]; then
    pids=""
    for trace in $TRACES; do   # one trace at a time per core
      (for policy in easy-classic conservative-classic; do
        for after in $AFTERS; do run_batfill "$trace" "$policy" "$after"; done
      done) &
      pids="$pids $!"
    done
    for pid in $pids; do wait "$pid"; done
  else
    [ -x "${BATSCHED:-}" ] || { echo "set BATSCHED to batsched 1.4.0's binary (README.md beside this script says how to build it)" >&2; exit 1; }
    # All at once: each waits on its messages most of the time. conservative_bf, which never
    # switches a machine, separates batsched's backfilling from its energy decisions.
    port=${PORT:-28350}
    pids=""
    for trace in $TRACES; do
      for variant in ${VARIANTS:-energy_bf_idle_sleeper energy_bf conservative_bf}; do
        run_batsched "$trace" "$variant" "$port" &
        pids="$pids $!"
        port=$((port + 1))
      done
    done
    for pid in $pids; do wait "$pid"; done
  fi
done
/usr/bin/python3 "$here/table.py" "$out" "$results" "$days"

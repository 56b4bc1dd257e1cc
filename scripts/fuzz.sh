#!/bin/bash
# Builds the libFuzzer targets (fuzz/, clang + ASan/UBSan) in build-fuzz/ and runs each for
# SECONDS (default 60) on one core, seeded from workloads/ and the captured Batsim messages.
# Exits non-zero on the first crash, leak or timeout; the reproducer is left in build-fuzz/.
#
# usage: scripts/fuzz.sh [SECONDS] [TARGET...]     (targets: swf batsim_json drevt_csv codec
#                                                   adapter machine_set batsim5_handshake
#                                                   batsim5_codec; default: all)
# FUZZ_RUNS=N stops each target after N executions instead (SECONDS still caps it).
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECONDS_EACH=${1:-60}
shift || true
TARGETS=${*:-swf batsim_json drevt_csv codec adapter machine_set batsim5_handshake batsim5_codec}
BUILD=$ROOT/build-fuzz
CORPUS=$BUILD/corpus

# clang 14 and its libFuzzer runtime (Debian 12), installed when missing.
missing=()
for package in clang-14 libclang-rt-14-dev; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

CC=clang-14 CXX=clang++-14 cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DBATFILL_FUZZ=ON -DBATFILL_BUILD_TESTS=OFF -DBATFILL_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$BUILD" -j"${JOBS:-2}" --target $(printf 'fuzz_%s ' $TARGETS) >/dev/null

# Seeds: the bundled workloads (cut to 40 lines so that each seed stays small and fast), the
# captured Batsim 4.2.1 messages one per file, and whole exchanges for the adapter.
seed() {
  local name=$1 dir=$CORPUS/$1
  mkdir -p "$dir"
  case $name in
    swf) head -40 "$ROOT/workloads/tiny.swf" > "$dir/tiny"; head -40 "$ROOT/workloads/lublin_256.swf" > "$dir/lublin"
         (zcat "$ROOT/workloads/KTH-SP2-1996-2.1-cln.swf.gz" || true) | head -40 > "$dir/kth" ;;
    batsim_json) cp "$ROOT/workloads/tiny_batsim.json" "$dir/tiny" ;;
    drevt_csv) head -40 "$ROOT/workloads/drevt-huge_2000jobs.csv" > "$dir/drevt" ;;
    codec) grep '^[A-Z]*->[A-Z]* ' "$ROOT/tests/protocol/data/real-batsim-4.2.1-messages.txt" \
             | cut -d' ' -f3- | split -l 1 - "$dir/message-" ;;
    adapter) awk '/^### Run/{n++} /^BATSIM->SCHED /{sub(/^[^ ]* [^ ]* /,""); print > (dir "/run-" n)}' \
               dir="$dir" "$ROOT/tests/protocol/data/real-batsim-4.2.1-messages.txt"
             for f in "$dir"/run-*; do { printf '\003'; cat "$f"; } > "$f.seed" && rm "$f"; done ;;
    machine_set) printf '0-3 7' > "$dir/a"; printf '5 1-2 2-4' > "$dir/b"; printf '0' > "$dir/c" ;;
    # Init messages (a native-endian u32 length, then the init string) and bare init strings,
    # with and without NULs.
    batsim5_handshake) init_message() { printf "$(printf '\\x%02x\\x00\\x00\\x00' "${#1}")%s" "$1"; }
                       init_message '{"backfill":"conservative","order":"asc_size"}' > "$dir/init"
                       init_message '{"format_json": true}' > "$dir/format"
                       printf '{"backfill":"none"}\0{"backfill":"bogus"}' > "$dir/nul"
                       printf '{"predictor":"tsafrir","corrector":"tsafrir"}\0' > "$dir/trailing" ;;
    batsim5_codec) printf '%s' '{"now":0.0,"events":[{"timestamp":0.0,"event_type":"JobSubmittedEvent","event":{"job_id":"w0!1","job":{"resource_request":4,"walltime":7200.0,"extra_data":"{\"user\":12}","rigid":true,"profile_id":"p"},"submission_time":0.0}}]}' > "$dir/submitted"
                   printf '%s' '{"now":5.0,"events":[{"timestamp":5.0,"event_type":"JobCompletedEvent","event":{"job_id":"w0!1","state":"COMPLETED_SUCCESSFULLY","return_code":0}},{"timestamp":5.0,"event_type":"ExecuteJobEvent","event":{"job_id":"w0!2","allocation":{"host_allocation":"0-3","executor_placement_type":"PredefinedExecutorPlacementStrategyWrapper","executor_placement":{"strategy":"SpreadOverHostsFirst"}}}}]}' > "$dir/completed" ;;
  esac
}

export UBSAN_OPTIONS=suppressions=$ROOT/fuzz/ubsan.supp:halt_on_error=1:print_stacktrace=1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
for target in $TARGETS; do
  seed "$target"
  echo "=== fuzz_$target for ${SECONDS_EACH}s"
  log=$BUILD/fuzz_$target.log
  if ! (cd "$BUILD" && "./fuzz/fuzz_$target" "$CORPUS/$target" -dict="$ROOT/fuzz/batsim.dict" \
          -max_total_time="$SECONDS_EACH" ${FUZZ_RUNS:+-runs=$FUZZ_RUNS} -timeout=10 \
          -rss_limit_mb=4096 -max_len=65536 \
          -print_final_stats=1 > "$log" 2>&1); then
    tail -40 "$log"
    echo "fuzz_$target FAILED: see $log and the crash-* file in $BUILD" >&2
    exit 1
  fi
  grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$log"
done
echo "fuzzing passed: $TARGETS"

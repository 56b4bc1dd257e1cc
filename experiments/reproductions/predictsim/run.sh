#!/usr/bin/env bash
# Reproduce predictsim's (SC'15) pyss schedules (FCFS+EASY, and the rows with predictions) with
# batfill and compare per job.
# Usage: experiments/reproductions/predictsim/run.sh     (from anywhere; needs build/batfill and python3)
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
BATFILL="$ROOT/build/batfill"
REFDIR="${REFDIR:-$HERE/reference}"   # the published per-job schedules (reference/README.md)
WORK="$HERE/work"          # generated inputs and outputs (not committed)
PY="python3 $HERE/predictsim.py"
mkdir -p "$WORK"
[ -x "$BATFILL" ] || { echo "missing $BATFILL: cmake --build build -j2 --target batfill" >&2; exit 1; }

declare -A FALLBACK=([KTH-SP2]=100 [CTC-SP2]=338 [SDSC-SP2]=128)   # original traces' MaxProcs
TRACES="KTH-SP2 CTC-SP2 SDSC-SP2"
POLICIES="easy-classic easy"
MODES="pyss pyss-nogate pyss-termfirst group-terms termfirst-group-terms batched"

: > "$WORK/commands.txt"
for T in $TRACES; do
  REF="$REFDIR/predictsim_pyss_EASY_$T.swf.gz"
  $PY rebuild "$REF" "$WORK/$T.swf" "${FALLBACK[$T]}"
  for P in $POLICIES; do
    CMD="build/batfill simulate experiments/reproductions/predictsim/work/$T.swf --backfill $P --no-progress --output experiments/reproductions/predictsim/work/${T}_$P"
    echo "$CMD" >> "$WORK/commands.txt"
    (cd "$ROOT" && $CMD > "$WORK/${T}_$P.log")
    $PY compare "$REF" "$WORK/${T}_${P}_jobs.csv" "$WORK/${T}_$P.json" > /dev/null
  done
  # batfill with pyss's event handling (--batching per-event) instead of the spec's batching
  CMD="build/batfill simulate experiments/reproductions/predictsim/work/$T.swf --backfill easy-classic --batching per-event --no-progress --output experiments/reproductions/predictsim/work/${T}_per-event"
  echo "$CMD" >> "$WORK/commands.txt"
  (cd "$ROOT" && $CMD > "$WORK/${T}_per-event.log")
  $PY compare "$REF" "$WORK/${T}_per-event_jobs.csv" "$WORK/${T}_per-event.json" > /dev/null
  # the explanation: a small model of pyss's event handling, with single rules switched
  ARGS=()
  for M in $MODES; do
    python3 "$HERE/pyss_model.py" "$WORK/$T.swf" "$WORK/${T}_model_$M.csv" "$M"
    ARGS+=("$M=$WORK/${T}_model_$M.csv")
  done
  $PY models "$REF" "$WORK/${T}_easy-classic_jobs.csv" "$WORK/${T}_models.json" "${ARGS[@]}" > /dev/null
  $PY firstdiff "$REF" "$WORK/${T}_easy-classic_jobs.csv" 1 > "$WORK/${T}_firstdiff.txt"
done
# The predictions table (docs/semantics.md#predictions-correctors-and-backfill-order): each published row from its own reference,
# replayed with --batching per-event; batfill's initial predictions and correction counts come
# from its debug log. EASY-SJBF has no published per-job file: its input is EASY's.
declare -A ROW_FLAGS=(
  [EASY]=""
  [EASY-prediction-clairvoyant]="--predictor clairvoyant"
  [EASYpp-clairvoyant]="--predictor clairvoyant --backfill-order sjbf"
  [EASYpp-tsafrir]="--predictor tsafrir --corrector tsafrir --backfill-order sjbf"
  [EASYpp-sgd-square-logmr-reqtime]="--predictor sgd --corrector reqtime --backfill-order sjbf"
)
ROWS="EASY EASY-prediction-clairvoyant EASYpp-clairvoyant EASYpp-tsafrir EASYpp-sgd-square-logmr-reqtime"
for T in $TRACES; do
  for R in $ROWS; do
    REF="$REFDIR/predictsim_pyss_${R}_$T.swf.gz"
    $PY rebuild "$REF" "$WORK/${T}_$R.swf" "${FALLBACK[$T]}" > /dev/null
    CMD="build/batfill simulate experiments/reproductions/predictsim/work/${T}_$R.swf --backfill easy-classic ${ROW_FLAGS[$R]} --batching per-event --no-progress --verbosity debug --output experiments/reproductions/predictsim/work/${T}_row_$R"
    echo "$CMD" >> "$WORK/commands.txt"
    (cd "$ROOT" && $CMD > "$WORK/${T}_row_$R.log" 2> "$WORK/${T}_row_$R.debug")
    $PY row "$REF" "$WORK/${T}_row_${R}_jobs.csv" "$WORK/${T}_row_$R.debug" "$WORK/${T}_row_$R.json" > /dev/null
  done
  CMD="build/batfill simulate experiments/reproductions/predictsim/work/${T}_EASY.swf --backfill easy-classic --backfill-order sjbf --batching per-event --no-progress --output experiments/reproductions/predictsim/work/${T}_row_EASY-SJBF"
  echo "$CMD" >> "$WORK/commands.txt"
  (cd "$ROOT" && $CMD > "$WORK/${T}_row_EASY-SJBF.log")
  $PY bsld "$WORK/${T}_row_EASY-SJBF_jobs.csv" "$WORK/${T}_row_EASY-SJBF.json" > /dev/null
done
python3 "$HERE/report.py" "$WORK" "$HERE/results.md"
echo "wrote $HERE/results.md"

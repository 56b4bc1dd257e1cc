#!/usr/bin/env bash
# CI check of the pipeline's two engines: runs the `smoke` target locally (snakemake -j2) and
# through a real one-node Slurm cluster started on localhost (cluster/local-slurm.sh, profile
# profiles/slurm), then checks both summary.csv files are identical except the wall_time column.
# Root on Debian 12; installs what it needs (scripts/install-deps.sh, Slurm, munge), builds
# build/batfill if missing, and removes its cluster, results and logs on exit.
# Usage: experiments/pipeline/ci/slurm_smoke.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"      # experiments/pipeline/
ROOT="$(cd "$HERE/../.." && pwd)"
[ "$(id -u)" -eq 0 ] || { echo "slurm_smoke.sh: needs root (it starts munged, slurmctld, slurmd)" >&2; exit 1; }

"$ROOT/scripts/install-deps.sh"
if [ ! -x "$ROOT/build/batfill" ]; then
  cmake -S "$ROOT" -B "$ROOT/build" -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$ROOT/build" -j2 --target batfill >/dev/null
fi

WORK=$(mktemp -d /tmp/batfill-slurm-smoke.XXXXXX)
export BATFILL_SLURM_DIR=$WORK/slurm
# ports apart from a developer's cluster on the defaults (6817/6818)
export BATFILL_SLURMCTLD_PORT=${BATFILL_SLURMCTLD_PORT:-6917}
export BATFILL_SLURMD_PORT=${BATFILL_SLURMD_PORT:-6918}
touch "$WORK/started"
cleanup() {
  local rc=$?
  "$HERE/cluster/local-slurm.sh" down || true
  find "$HERE/.snakemake" -maxdepth 1 -name 'slurm-*.out' -newer "$WORK/started" -delete 2>/dev/null || true
  rm -rf "$WORK"
  exit $rc
}
trap cleanup EXIT

cd "$HERE"
start=$EPOCHREALTIME
snakemake -j2 smoke -q --config results="$WORK/local" > "$WORK/local.log" 2>&1 \
  || { tail -30 "$WORK/local.log"; exit 1; }
local_s=$(awk "BEGIN{print $EPOCHREALTIME - $start}")

"$HERE/cluster/local-slurm.sh" up
export SLURM_CONF=$BATFILL_SLURM_DIR/slurm.conf
start=$EPOCHREALTIME
snakemake --profile profiles/slurm smoke -q --config results="$WORK/slurm" > "$WORK/slurm.log" 2>&1 \
  || { tail -30 "$WORK/slurm.log"; tail -20 "$BATFILL_SLURM_DIR"/log/*.log; exit 1; }
slurm_s=$(awk "BEGIN{print $EPOCHREALTIME - $start}")

nruns=$(ls "$WORK"/slurm/smoke/runs/*/*/*_stats.csv | wc -l)
# every run went through Slurm: the controller saw one completed job per run
nlogs=$(grep -c "_job_complete: JobId=[0-9]* done" "$BATFILL_SLURM_DIR/log/slurmctld.log" || true)
[ "$nlogs" -ge "$nruns" ] || { echo "slurm_smoke: only $nlogs Slurm jobs for $nruns runs" >&2; exit 1; }
/usr/bin/python3 scripts/compare_summaries.py "$WORK/local/smoke/summary.csv" "$WORK/slurm/smoke/summary.csv"
printf 'slurm_smoke: OK: smoke local %.1f s, via Slurm %.1f s (%d Slurm jobs)\n' "$local_s" "$slurm_s" "$nlogs"

#!/usr/bin/env bash
# A real one-node Slurm cluster on localhost (Debian 12: slurmctld, slurmd, slurm-client, munge),
# for running the pipeline's Slurm profile without a real cluster.
#
#   experiments/pipeline/cluster/local-slurm.sh up       # installs what is missing, writes the config, starts
#                                               # munged (if no munge daemon answers), slurmctld, slurmd
#   export SLURM_CONF=/tmp/batfill-slurm/slurm.conf   # (printed by `up`) for sinfo, sbatch, snakemake
#   experiments/pipeline/cluster/local-slurm.sh status
#   experiments/pipeline/cluster/local-slurm.sh down     # stops what `up` started, by pid; removes the state
#
# Everything (slurm.conf, state, spool, pid files, logs) lives under $BATFILL_SLURM_DIR
# (default /tmp/batfill-slurm). Needs root (SlurmUser=root, munged run as the munge user).
# Without cgroups or systemd: proctrack/linuxproc, task/none, select/cons_tres + CR_Core. No
# accounting (no sacct): wait for jobs with squeue/scontrol. Both commands are idempotent.
set -euo pipefail
DIR=${BATFILL_SLURM_DIR:-/tmp/batfill-slurm}
CONF=$DIR/slurm.conf
CTLD_PORT=${BATFILL_SLURMCTLD_PORT:-6817}
SLURMD_PORT=${BATFILL_SLURMD_PORT:-6818}
export SLURM_CONF=$CONF

say() { echo "local-slurm: $*" >&2; }
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

install_packages() {
  local missing=()
  for p in slurmctld slurmd slurm-client munge; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

start_munge() {
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    say "a munge daemon already answers; using it"
    return
  fi
  if [ ! -s /etc/munge/munge.key ]; then
    say "creating /etc/munge/munge.key"
    mkdir -p /etc/munge
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
  fi
  chown munge:munge /etc/munge /etc/munge/munge.key
  chmod 700 /etc/munge
  chmod 400 /etc/munge/munge.key
  mkdir -p /run/munge /var/log/munge /var/lib/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge
  chmod 755 /run/munge
  runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
  cp /run/munge/munged.pid "$DIR/munged.pid"        # ours: `down` stops it
  for _ in $(seq 50); do munge -n 2>/dev/null | unmunge >/dev/null 2>&1 && return; sleep 0.1; done
  say "munged does not answer (munge -n | unmunge)"; exit 1
}

write_conf() {
  local host node
  host=$(hostname -s)
  node=$(slurmd -C | head -1)                        # NodeName=HOST CPUs=... RealMemory=...
  cat > "$CONF" <<CONF
# written by experiments/pipeline/cluster/local-slurm.sh
ClusterName=batfill-local
SlurmctldHost=$host
SlurmUser=root
SlurmctldPort=$CTLD_PORT
SlurmdPort=$SLURMD_PORT
AuthType=auth/munge
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/slurmctld.pid
SlurmdPidFile=$DIR/slurmd.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
MinJobAge=300
$node State=UNKNOWN
PartitionName=batch Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

up() {
  [ "$(id -u)" -eq 0 ] || { say "needs root"; exit 1; }
  install_packages
  mkdir -p "$DIR/state" "$DIR/spool" "$DIR/log"
  start_munge
  if alive "$DIR/slurmctld.pid" && alive "$DIR/slurmd.pid"; then
    say "already up"
  else
    write_conf
    alive "$DIR/slurmctld.pid" || slurmctld
    alive "$DIR/slurmd.pid" || slurmd
  fi
  local host state
  host=$(hostname -s)
  for _ in $(seq 60); do
    state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
    case "$state" in
      idle*|mixed*|allocated*) say "node $host $state; export SLURM_CONF=$CONF"; return ;;
    esac
    sleep 1
  done
  say "node not idle after 60 s (state '${state:-?}'); see $DIR/log/"; exit 1
}

stop_pid() {  # pidfile name
  local f=$1 pid
  alive "$f" || { rm -f "$f"; return 0; }
  pid=$(cat "$f")
  kill "$pid"
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then say "$2 ($pid) did not stop; KILL"; kill -9 "$pid"; fi
  rm -f "$f"
}

down() {
  stop_pid "$DIR/slurmd.pid" slurmd
  stop_pid "$DIR/slurmctld.pid" slurmctld
  stop_pid "$DIR/munged.pid" munged               # only if `up` started it
  rm -rf "$DIR/state" "$DIR/spool"
  say "down (logs kept in $DIR/log)"
}

status() {
  for d in slurmctld slurmd munged; do
    if alive "$DIR/$d.pid"; then echo "$d: running ($(cat "$DIR/$d.pid"))"; else echo "$d: not running (or not ours)"; fi
  done
  [ -f "$CONF" ] && sinfo 2>/dev/null || true
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  *) echo "usage: $0 up|down|status" >&2; exit 2 ;;
esac

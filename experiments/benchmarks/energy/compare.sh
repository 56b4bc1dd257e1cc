#!/usr/bin/env bash
# simulate --energy against the same run without it, runs alternated so that both see the same
# load on a shared machine: SDSC-BLUE (1152 machines) on Batsim's energy platform grown to 1152
# hosts (make_platform.py), per policy the smallest user + system CPU time of RUNS runs (default
# 3) of each, their ratio, and each one's largest peak memory (max RSS). Prints a Markdown table.
# Usage: [RUNS=N] [POLICIES="..."] experiments/benchmarks/energy/compare.sh BATFILL [TRACE]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../../.." && pwd)"
BATFILL="$1"
TRACE="${2:-$ROOT/workloads/SDSC-BLUE-2000-4.2-cln.swf.gz}"
POLICIES="${POLICIES:-easy-classic conservative-classic}"
RUNS="${RUNS:-3}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
/usr/bin/python3 "$HERE/make_platform.py" 1152 "$OUT/platform.xml"

# "user+sys max_rss_kb" of one run, from the kernel's account of the child (getrusage).
one_run() {  # POLICY EXTRA...
  local policy="$1"
  shift
  python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
r = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{r.ru_utime + r.ru_stime:.3f} {r.ru_maxrss}")' \
    "$BATFILL" simulate "$TRACE" --platform "$OUT/platform.xml" --backfill "$policy" \
    --no-progress --output "$OUT/run" "$@"
}

echo "| policy | without --energy: CPU (s) | with: CPU (s) | with / without | max RSS without (MB) | with (MB) |"
echo "|---|---|---|---|---|---|"
for policy in $POLICIES; do
  plain=() energy=() plain_rss=0 energy_rss=0
  for _ in $(seq "$RUNS"); do
    read -r cpu rss < <(one_run "$policy")
    plain+=("$cpu"); [ "$rss" -gt "$plain_rss" ] && plain_rss=$rss
    read -r cpu rss < <(one_run "$policy" --energy)
    energy+=("$cpu"); [ "$rss" -gt "$energy_rss" ] && energy_rss=$rss
  done
  python3 -c 'import sys
n = int(sys.argv[1]); values = list(map(float, sys.argv[4:]))
plain, energy = min(values[:n]), min(values[n:])
print(f"| {sys.argv[2]} | {plain:.2f} | {energy:.2f} | {energy / plain:.2f} | "
      f"{int(sys.argv[3].split()[0]) / 1024:.0f} | {int(sys.argv[3].split()[1]) / 1024:.0f} |")' \
    "$RUNS" "$policy" "$plain_rss $energy_rss" "${plain[@]}" "${energy[@]}"
done

#!/usr/bin/python3
"""Snakemake 7 --cluster-status script: prints running, success or failed for a Slurm job id.
Uses scontrol (no accounting needed); a job Slurm has already forgotten counts as success
(Snakemake then checks its output files)."""
import subprocess
import sys

job = sys.argv[1].split(";")[0].strip()
try:
    out = subprocess.run(["scontrol", "show", "job", "-o", job], capture_output=True, text=True,
                         timeout=30).stdout
except (subprocess.TimeoutExpired, OSError):
    print("running")  # ask again later
    sys.exit(0)
state = next((f.split("=", 1)[1] for f in out.split() if f.startswith("JobState=")), None)
if state is None:
    print("success")
elif state == "COMPLETED":
    print("success")
elif state in ("PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "RESIZING",
               "REQUEUE_HOLD", "REQUEUE_FED", "SIGNALING", "STAGE_OUT", "STOPPED"):
    print("running")
else:  # FAILED, CANCELLED, TIMEOUT, NODE_FAIL, OUT_OF_MEMORY, PREEMPTED, BOOT_FAIL, DEADLINE
    print("failed")

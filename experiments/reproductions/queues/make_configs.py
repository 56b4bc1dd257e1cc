#!/usr/bin/python3
"""Writes the three queue configurations of the experiment (README.md beside this file).

SDSC-SP2 and SDSC-BLUE number their queues in SWF field 15 (their headers): 0 interactive,
1 express, 2 high, 3 normal, 4 low, 5 standby; other ids (BLUE's Diag*, parallel, unknown...)
go to the default queue `normal`.
"""
import json
import sys

# Plausible priorities in the order of the queue names: interactive and express (short, small
# jobs) first, standby last; LSF installations order them the same way.
REAL = [("interactive", 0, 50), ("express", 1, 40), ("high", 2, 30), ("normal", 3, 20),
        ("low", 4, 10), ("standby", 5, 1)]


def config(priorities, standby_reserves):
    queues = []
    for name, qid, priority in REAL:
        queue = {"name": name, "ids": [qid], "priority": priority if priorities else 0,
                 "backfill": True, "slot_reserve": True}
        if name == "standby" and not standby_reserves:
            queue["slot_reserve"] = False
        queues.append(queue)
    return {"queues": queues, "default": "normal"}


out = sys.argv[1]
for variant, priorities, reserves in [("one", False, True), ("real", True, True),
                                      ("standby", True, False), ("flat_standby", False, False)]:
    with open(f"{out}/{variant}.json", "w") as f:
        json.dump(config(priorities, reserves), f, indent=1)

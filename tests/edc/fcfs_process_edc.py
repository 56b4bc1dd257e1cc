#!/usr/bin/env python3
"""A Batsim 5 process EDC in Python, as a peer would write one (pybatsim 4 style), for the
tests of `batfill simulate --scheduler ENDPOINT --protocol batsim5`: written from batprotocol's
schema and Batsim 5's process-mode handshake alone, sharing no code with batfill.

Policy: first come first served without backfilling, each job on the lowest-numbered free
hosts; a job larger than the machine is rejected.

usage: fcfs_process_edc.py ENDPOINT
"""
import json
import struct
import sys

import zmq

JSON_FORMAT = 0x2


def hello():
    event = {
        "batprotocol_version": "0.1.0",
        "decision_component_name": "python-fcfs",
        "decision_component_version": "1.0",
        "decision_component_commit": "",
    }
    return {"now": 0.0, "events": [{"timestamp": 0.0, "event_type": "EDCHelloEvent",
                                     "event": event}]}


def intervals(hosts):
    """'0-3 7' for [0, 1, 2, 3, 7]."""
    parts, start = [], None
    for i, host in enumerate(hosts):
        if start is None:
            start = host
        if i + 1 == len(hosts) or hosts[i + 1] != host + 1:
            parts.append(str(start) if start == host else f"{start}-{host}")
            start = None
    return " ".join(parts)


class Fcfs:
    def __init__(self):
        self.free = []
        self.size = 0
        self.queue = []      # (job_id, hosts asked)
        self.running = {}    # job_id -> hosts
        self.ended = False

    def take(self, message):
        decisions = []
        for event in message["events"]:
            kind, data = event["event_type"], event.get("event", {})
            if kind == "SimulationBeginsEvent":
                self.size = data["computation_host_number"]
                self.free = list(range(self.size))
            elif kind == "JobSubmittedEvent":
                asked = data["job"]["resource_request"]
                if asked > self.size:
                    decisions.append(("RejectJobEvent", {"job_id": data["job_id"]}))
                else:
                    self.queue.append((data["job_id"], asked))
            elif kind == "JobCompletedEvent":
                self.free = sorted(self.free + self.running.pop(data["job_id"]))
            elif kind == "SimulationEndsEvent":
                self.ended = True
        while self.queue and self.queue[0][1] <= len(self.free):
            job_id, asked = self.queue.pop(0)
            hosts, self.free = self.free[:asked], self.free[asked:]
            self.running[job_id] = hosts
            allocation = {
                "host_allocation": intervals(hosts),
                "executor_placement_type": "PredefinedExecutorPlacementStrategyWrapper",
                "executor_placement": {"strategy": "SpreadOverHostsFirst"},
            }
            decisions.append(("ExecuteJobEvent", {"job_id": job_id, "allocation": allocation}))
        now = message["now"]
        return {"now": now, "events": [{"timestamp": now, "event_type": kind, "event": data}
                                       for kind, data in decisions]}


def main():
    socket = zmq.Context().socket(zmq.REP)
    socket.bind(sys.argv[1])
    init = socket.recv()
    (length,) = struct.unpack("=I", init[:4])
    assert length == len(init) - 4, "init message length"
    socket.send(struct.pack("=I", JSON_FORMAT) + json.dumps(hello()).encode())
    scheduler = Fcfs()
    while not scheduler.ended:
        request = socket.recv().rstrip(b"\0")
        socket.send(json.dumps(scheduler.take(json.loads(request))).encode() + b"\0")
    socket.close(linger=1000)


if __name__ == "__main__":
    main()

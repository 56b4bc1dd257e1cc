"""batfill.serve: a policy beside a real Batsim (docs/python.md, "Beside a real Batsim")."""

import json
import sys

from . import _batfill
from .policy import Policy

PROTOCOLS = ("batsim4", "batsim5")


class ServeError(RuntimeError):
    """`batfill serve` ended with a non-zero status (`status`, docs/protocol.md "Timeouts and
    exit statuses of batfill serve"); the message is what it printed."""

    def __init__(self, status, text):
        super().__init__(text.strip() or f"batfill serve ended with status {status}")
        self.status = status


def serve(policy, protocol="batsim4", endpoint="tcp://*:28000", *, timeout=3600,
          verbosity="quiet", **settings):
    """Answers one Batsim simulation, as `batfill serve` does, with `policy`: a batfill.Policy
    (run in this process: it keeps its state) or the name of one of batfill's policies.

    protocol: "batsim4" (Batsim 4's JSON) or "batsim5" (batprotocol JSON); endpoint: the ZeroMQ
    endpoint Batsim connects to (its -s); timeout: seconds without a message before giving up;
    verbosity: "quiet", "info" or "debug", the log lines written to sys.stderr; settings: the
    keys of --sched-cfg (batfill.setting_keys()). Returns when Batsim's simulation ends; raises
    ServeError when batfill serve would exit with an error, with its message (for a policy that
    raised, its traceback, the time and the job it was deciding).
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"protocol {protocol!r}: valid are {', '.join(PROTOCOLS)}")
    keys = _batfill.setting_keys()
    for key in settings:
        if key not in keys:
            raise TypeError(f"unknown setting {key!r} (valid: {', '.join(keys)})")
    if isinstance(policy, type) and issubclass(policy, Policy):
        raise TypeError(f"policy {policy.__name__}: give an instance, {policy.__name__}()")
    if isinstance(policy, str):
        settings["backfill"], policy = policy, None
    elif not isinstance(policy, Policy):
        raise TypeError(f"policy {policy!r}: a batfill.Policy or a policy's name")
    status, output = _batfill.serve(json.dumps(settings) if settings else "", policy, protocol,
                                    endpoint, float(timeout), verbosity)
    if status != 0:
        raise ServeError(status, output)
    if output:
        sys.stderr.write(output)

"""batfill from Python: replays into pandas, scheduling policies written in Python (in replays
and beside a real Batsim), and a Gymnasium-style environment (batfill.gym).

    import batfill
    result = batfill.simulate("workloads/KTH-SP2-1996-2.1-cln.swf.gz", backfill="easy-classic")
    result.jobs        # _jobs.csv as a pandas DataFrame
    result.summary     # the figures `batfill simulate` prints

The API is described in docs/python.md.
"""

from ._batfill import (NEVER, SECOND, Job, PolicyError, Profile, Timeline, View, policy_names,
                       setting_keys)
from ._batfill import VERSION as __version__
from .policy import Policy
from .serve import ServeError, serve
from .simulate import TRANSFORMS, Result, simulate
from . import gym

__all__ = ["simulate", "serve", "ServeError", "Result", "Policy", "PolicyError", "Job", "View",
           "Timeline", "Profile", "gym", "NEVER", "SECOND", "TRANSFORMS", "setting_keys", "policy_names", "__version__"]

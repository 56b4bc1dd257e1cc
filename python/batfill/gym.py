"""batfill.gym: a Gymnasium-style environment for learned schedulers (docs/python.md, "The
scheduling environment").

    env = batfill.gym.SchedulingEnv("workloads/lublin_256.swf")
    observation, info = env.reset(seed=0)
    while True:
        action = env.baseline_action("sjf")
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated:
            break

Its defaults are RLScheduler's (DIR-LAB/deep-batch-scheduler, HPCSimPickJobs.py): windows of
256 jobs, 128 visible jobs of 8 features, the reward at the end of an episode. It subclasses
gymnasium.Env when Gymnasium is installed and has the same API without it.
"""

import gzip
import math

import numpy as np
import pandas as pd

from . import _batfill

try:  # pragma: no cover - Gymnasium is not a Debian package
    import gymnasium as _gymnasium
    from gymnasium import spaces as _spaces
    _Env = _gymnasium.Env
except ImportError:
    _gymnasium = None
    _spaces = None
    _Env = object

WINDOW = 256
SLOTS = 128
FEATURES = 8
METRICS = ("bounded_slowdown", "wait", "turnaround", "utilization", "slowdown")

# The baselines, as batfill queue orders (`--order`). WFP3 and UNICEP follow RLScheduler's code,
# whose waiting time is fixed at submission; `wfp3` and `unicep` are the textbook orders.
BASELINES = {
    "fcfs": "fcfs",
    "sjf": "asc_walltime",
    "smallest": "asc_size",
    "wfp3": "wfp3_rlscheduler",
    "unicep": "unicep_rlscheduler",
    "f1": "f1",
    "f2": "f2",
    "f3": "f3",
    "f4": "f4",
}


class Discrete:
    """Gymnasium's Discrete(n) where Gymnasium is not installed: the integers 0 to n - 1."""

    def __init__(self, n, seed=None):
        self.n = int(n)
        self.shape = ()
        self.dtype = np.dtype(np.int64)
        self._rng = np.random.default_rng(seed)

    def seed(self, seed=None):
        self._rng = np.random.default_rng(seed)

    def sample(self):
        return int(self._rng.integers(self.n))

    def contains(self, x):
        return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n

    def __repr__(self):
        return f"Discrete({self.n})"


class Box:
    """Gymnasium's Box where Gymnasium is not installed: arrays of `shape` within [low, high]."""

    def __init__(self, low, high, shape, dtype=np.float32, seed=None):
        self.shape = tuple(shape)
        self.dtype = np.dtype(dtype)
        self.low = np.full(self.shape, low, dtype=self.dtype)
        self.high = np.full(self.shape, high, dtype=self.dtype)
        self._rng = np.random.default_rng(seed)

    def seed(self, seed=None):
        self._rng = np.random.default_rng(seed)

    def sample(self):
        return self._rng.uniform(self.low, self.high).astype(self.dtype)

    def contains(self, x):
        x = np.asarray(x)
        return (x.shape == self.shape and x.dtype == self.dtype and
                bool(np.all(x >= self.low)) and bool(np.all(x <= self.high)))

    def __repr__(self):
        return f"Box({self.low.flat[0]}, {self.high.flat[0]}, {self.shape}, {self.dtype})"


def _space_types():
    if _spaces is not None:
        return _spaces.Discrete, _spaces.Box
    return Discrete, Box


class Trace:
    """An SWF trace read as RLScheduler reads it (docs/python.md, "The scheduling environment"):
    jobs with a runtime of 0 are left out, a negative runtime counts as 10 s, the processors are
    the larger of the allocated and requested ones, a missing requested time is the runtime, the
    jobs are taken in job-number order, and the machine is the header's MaxNodes nodes of
    MaxProcs / MaxNodes processors."""

    def __init__(self, path, nodes=None):
        self.path = str(path)
        header = {}
        rows = []
        opener = gzip.open if self.path.endswith(".gz") else open
        with opener(self.path, "rt") as lines:
            for number, line in enumerate(lines, start=1):
                if line.startswith(";"):
                    for key in ("MaxNodes", "MaxProcs"):
                        if line.startswith(f"; {key}:"):
                            header[key] = self._int(line.split(":")[1].strip(), number)
                    continue
                fields = line.split()
                if not fields:
                    continue
                if len(fields) < 18:
                    raise ValueError(f"{self.path}:{number}: an SWF record has 18 fields, "
                                     f"this one {len(fields)}")
                rows.append([self._int(fields[i], number) for i in (0, 1, 3, 4, 7, 8, 9, 11, 12, 13)]
                            + [number])
        if not rows:
            raise ValueError(f"{self.path}: no job")
        data = np.array(rows, dtype=np.int64)
        ident, submit, runtime, allocated, requested, walltime, memory, user, group, executable, \
            line_numbers = data.T
        maxima = {name: max(0, int(column.max())) for name, column in (
            ("runtime", runtime), ("memory", memory), ("user", user), ("group", group),
            ("executable", executable))}
        # A missing requested time is the runtime as the trace gives it, -1 when unknown, before
        # an unknown runtime counts as 10 s.
        walltime = np.where(walltime == -1, runtime, walltime)
        runtime = np.where(runtime < 0, 10, runtime)
        kept = np.flatnonzero(runtime > 0)
        kept = kept[np.argsort(ident[kept], kind="stable")]
        self.machine_nodes = int(nodes) if nodes is not None else header.get("MaxNodes", 0)
        if self.machine_nodes <= 0:
            raise ValueError(f"{self.path}: the header has no '; MaxNodes:' line: pass nodes=")
        self.machine_processors = header.get("MaxProcs", 0) or self.machine_nodes
        per_node = self.machine_processors / self.machine_nodes
        self.job_id = ident[kept]
        self.line = line_numbers[kept]
        self.submit = submit[kept]
        self.runtime = runtime[kept]
        self.processors = np.maximum(allocated, requested)[kept]
        self.requested_time = walltime[kept]
        self.nodes = np.array([int(math.ceil(float(p) / float(per_node))) for p in self.processors],
                              dtype=np.int64)
        too_big = np.flatnonzero(self.nodes > self.machine_nodes)
        if too_big.size:
            i = too_big[0]
            raise ValueError(f"{self.path}:{self.line[i]}: job {self.job_id[i]} needs "
                             f"{self.nodes[i]} nodes, the machine has {self.machine_nodes}")
        below_one = 1.0 - 1e-5

        def share(values, maximum):
            # -1 (unknown) counts as 1, as RLScheduler's features do.
            ratio = np.minimum(values / float(maximum or 1), below_one)
            return np.where(values == -1, 1.0, ratio)

        self.static_features = np.column_stack([
            np.minimum(self.requested_time / float(maxima["runtime"]), below_one),
            np.minimum(self.processors / float(self.machine_processors), below_one),
            share(memory[kept], maxima["memory"]),
            share(user[kept], maxima["user"]),
            share(group[kept], maxima["group"]),
            share(executable[kept], maxima["executable"]),
        ]).astype(np.float64)

    @staticmethod
    def _int(text, number):
        try:
            return int(text)
        except ValueError:
            raise ValueError(f"line {number}: '{text}' is not an integer") from None

    def __len__(self):
        return len(self.submit)


class SchedulingEnv(_Env):
    """One episode: a window of `window` consecutive jobs of a trace, starting with the first
    job's submission. At each step the agent picks one of the first `slots` waiting jobs; it
    starts as soon as it fits (with `backfill`, other jobs start meanwhile). The reward is 0 until
    the last job of the window has started, then the negative mean of `metric` over the window
    (for "utilization", the utilization)."""

    metadata = {"render_modes": []}

    def __init__(self, workload, *, nodes=None, backfill=False, metric="bounded_slowdown",
                 window=WINDOW, slots=SLOTS):
        if metric not in METRICS:
            raise ValueError(f"metric {metric!r}: valid are {', '.join(METRICS)}")
        self.trace = workload if isinstance(workload, Trace) else Trace(workload, nodes)
        if len(self.trace) < 2 * window + 2:
            raise ValueError(f"{self.trace.path}: {len(self.trace)} jobs, too few for windows of "
                             f"{window} jobs")
        self.backfill, self.metric, self.window, self.slots = bool(backfill), metric, window, slots
        self._episode = _batfill.PickEpisode(
            self.trace.submit, self.trace.runtime, self.trace.requested_time,
            self.trace.processors, self.trace.nodes, self.trace.static_features.ravel(),
            self.trace.machine_nodes, self.trace.machine_processors, window, slots,
            self.backfill, metric)
        discrete, box = _space_types()
        self.action_space = discrete(slots)
        self.observation_space = box(0.0, 1.0, (slots * FEATURES,), np.float32)
        self.np_random = np.random.default_rng()
        self._started = self._done = False

    def window_starts(self):
        """The first and one past the last index a window may start at (RLScheduler's range)."""
        return self.window, len(self.trace) - self.window - 1

    def reset(self, *, seed=None, options=None):
        """A new episode. `seed` seeds the choice of windows; options={"start": i} picks the
        window starting at the trace's i-th job (0-based, in job-number order)."""
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
            self.action_space.seed(seed)
        options = options or {}
        if "start" in options:
            start = int(options["start"])
            if not 0 <= start <= len(self.trace) - self.window:
                raise ValueError(f"start {start}: a window starts in [0, "
                                 f"{len(self.trace) - self.window}]")
        else:
            start = int(self.np_random.integers(*self.window_starts()))
        self._episode.reset(start)
        self._started, self._done, self._start = True, False, start
        observation, mask, now = self._episode.observed()
        return observation, {"time": now, "window_start": start, "action_mask": mask}

    def step(self, action):
        if self._done or not self._started:
            raise RuntimeError("the episode is over: call reset()" if self._done
                               else "call reset() before step()")
        if type(action) is not int and (not isinstance(action, (int, np.integer)) or
                                        isinstance(action, bool)):
            raise TypeError(f"action {action!r}: an int in [0, {self.slots})")
        try:
            terminated, observation, mask, now = self._episode.advance(action)
        except (IndexError, OverflowError, TypeError):
            raise ValueError(f"action {action}: slot empty ({self._episode.shown} jobs waiting "
                             f"in view)") from None
        info = {"time": now, "window_start": self._start, "action_mask": mask}
        if terminated:
            self._done = True
            mean = self._episode.total()
            info["mean_" + self.metric] = mean
            return observation, -mean, True, False, info
        return observation, 0.0, False, False, info

    def baseline_action(self, baseline):
        """The slot of the job a baseline (BASELINES' key, or a --order name) starts next, among
        every waiting job; None when that job is not among the visible ones. Like RLScheduler's
        baselines, it sorts the waiting queue in its order, which decides which of the jobs
        submitted at the same time backfilling tries first."""
        job = self._episode.sort_queue(BASELINES.get(baseline, baseline))
        visible = self._episode.visible()
        return visible.index(job) if job in visible else None

    def play(self, baseline, start):
        """Plays a baseline over the whole window starting at `start`, choosing among every
        waiting job as RLScheduler's baselines do; its mean `metric` (the episode's -reward)."""
        self._episode.reset(int(start))
        self._started, self._done, self._start = True, True, int(start)
        return self._episode.play(BASELINES.get(baseline, baseline))

    def schedule(self):
        """The window's jobs so far: trace id, submission, start (-1 while waiting), runtime,
        requested time and nodes, in seconds."""
        start = self._episode.start
        jobs = slice(start, start + self.window)
        return pd.DataFrame({
            "job_id": self.trace.job_id[jobs],
            "submit_time": self.trace.submit[jobs],
            "start_time": np.asarray(self._episode.start_times),
            "runtime": self.trace.runtime[jobs],
            "requested_time": self.trace.requested_time[jobs],
            "processors": self.trace.processors[jobs],
            "nodes": self.trace.nodes[jobs],
        })

    def jobs_csv(self, path):
        """Writes the window's started jobs as a Batsim 4 `_jobs.csv`, for `batfill check`: each
        job runs its runtime on the lowest-numbered nodes free at its start (the environment counts
        nodes; any placement of a valid count schedule works)."""
        table = self.schedule()
        table = table[table.start_time >= 0].sort_values(["start_time", "job_id"], kind="stable")
        free = list(range(self.trace.machine_nodes))
        ends = []  # (end, nodes) of the jobs holding nodes
        rows = []
        for job in table.itertuples():
            still = []
            for end, nodes in ends:
                (free.extend(nodes) if end <= job.start_time else still.append((end, nodes)))
            ends = still
            free.sort()
            taken, free = free[:job.nodes], free[job.nodes:]
            ends.append((job.start_time + job.runtime, taken))
            wait = job.start_time - job.submit_time
            rows.append({
                "job_id": job.job_id, "workload_name": "w0", "profile": "delay",
                "submission_time": job.submit_time, "requested_number_of_resources": job.nodes,
                "requested_time": job.requested_time, "success": 1,
                "final_state": "COMPLETED_SUCCESSFULLY", "starting_time": job.start_time,
                "execution_time": job.runtime, "finish_time": job.start_time + job.runtime,
                "waiting_time": wait, "turnaround_time": wait + job.runtime,
                "stretch": (wait + job.runtime) / job.runtime,
                "allocated_resources": " ".join(map(str, taken)), "consumed_energy": -1,
                "metadata": ""})
        pd.DataFrame(rows).to_csv(path, index=False, float_format="%.6f")

    def render(self):
        return None

    def close(self):
        return None

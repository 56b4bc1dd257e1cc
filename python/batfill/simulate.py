"""batfill.simulate: a replay as `batfill simulate` runs it, its outputs as pandas objects.

SimGrid allows one simulation engine per process, so each replay runs in a child process
(os.fork) that hands its outputs back in memory shared with the caller; nothing goes through
files on disk. A Python
policy runs in that child too: what it changes in itself is not seen by the caller, unless the
replay runs in the caller's process (in_process=True, once per process).
"""

import io
import json
import math
import mmap
import os
import pickle
import signal
import struct
import sys
import tempfile

import numpy as np
import pandas as pd

from . import _batfill
from .policy import Policy

# The options of `batfill simulate` that transform the workload rather than set the scheduler.
TRANSFORMS = ("load_factor", "shake", "resize", "reject_missing_walltime")

# _jobs.csv's columns (Batsim 4's) and the types they are read with: ids, profiles and machine
# sets stay text ("007" is not 7), times are float seconds, counts are ints.
JOB_COLUMNS = {
    "job_id": "str", "workload_name": "str", "profile": "str", "submission_time": "float64",
    "requested_number_of_resources": "int64", "requested_time": "float64", "success": "int64",
    "final_state": "str", "starting_time": "float64", "execution_time": "float64",
    "finish_time": "float64", "waiting_time": "float64", "turnaround_time": "float64",
    "stretch": "float64", "allocated_resources": "str", "consumed_energy": "int64",
    "metadata": "str",
}
RESIZE_COLUMNS = {
    "job_id": "str", "request_time": "float64", "nodes": "int64", "grant_time": "float64",
    "allocated_resources": "str", "release_time": "float64", "outcome": "str",
}


class Result:
    """A replay's outputs.

    jobs: _jobs.csv as a DataFrame (JOB_COLUMNS' columns and types), one row per job in the
        order the jobs ended; to_csv(prefix) writes it back byte for byte.
    schedule: _schedule.csv's keys and values (ints, floats, text).
    summary: the figures `batfill simulate` prints (summary_text holds its lines).
    resizes: _resizes.csv as a DataFrame when the workload made resize requests, else None.
    """

    def __init__(self, raw):
        self._columns = raw["jobs"]
        self._jobs = None
        self.schedule = {key: _value(text) for key, text in raw["schedule"].items()}
        self.summary = raw["summary"]
        self.summary_text = raw["summary_text"]
        self.resizes = (_read_csv(raw["resizes_csv"].encode(), RESIZE_COLUMNS)
                        if raw["resizes_csv"] else None)

    @property
    def jobs(self):
        # Made on first use: a caller who wants only the figures does not pay for its texts.
        if self._jobs is None:
            self._jobs = _jobs_frame(self._columns)
            self._columns = None
        return self._jobs

    def to_csv(self, prefix):
        """Writes PREFIX_jobs.csv and PREFIX_schedule.csv (and PREFIX_resizes.csv) from the
        DataFrames with pandas, in `batfill simulate`'s format; like its --output, a prefix in a
        directory that does not exist yet creates it."""
        directory = os.path.dirname(os.fspath(prefix))
        if directory:
            os.makedirs(directory, exist_ok=True)
        with open(f"{prefix}_jobs.csv", "w", newline="") as out:
            out.write(jobs_csv_text(self.jobs))
        with open(f"{prefix}_schedule.csv", "w", newline="") as out:
            out.write(schedule_csv_text(self.schedule))
        if self.resizes is not None:
            with open(f"{prefix}_resizes.csv", "w", newline="") as out:
                out.write(_frame_csv_text(self.resizes))

    def __repr__(self):
        return f"<batfill.Result: {len(self.jobs)} jobs>\n{self.summary_text}"


def _read_csv(data, columns):
    # pandas' "high" parser is exact for Batsim's times: at most 16 significant digits, an
    # integer divided by 10^6, both exact doubles, so one correctly rounded division; a test
    # checks it against Python's float() on fractional times. "round_trip" takes twice as long.
    text_columns = [name for name, kind in columns.items() if kind == "str"]
    return pd.read_csv(io.BytesIO(data), dtype=columns, keep_default_na=False,
                       na_values={name: [""] for name in columns if name not in text_columns},
                       float_precision="high")


def _jobs_frame(columns):
    """Result.jobs from the replay's columns (batfill._batfill.replay): each number column as it
    comes, each text column made into str objects, the metadata column empty."""
    size = len(columns["success"])
    data = {}
    for name, kind in JOB_COLUMNS.items():
        if name == "metadata":
            data[name] = np.full(size, "", dtype=object)
        elif kind == "str":
            data[name] = _batfill.texts(*columns[name])
        else:
            data[name] = columns[name]
    return pd.DataFrame(data, copy=False)


def _value(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _frame_csv_text(frame):
    # Batsim writes times with 6 decimals; the floats read from them print back the same text.
    return frame.to_csv(index=False, float_format="%.6f", lineterminator="\n")


def jobs_csv_text(jobs):
    """_jobs.csv's text from Result.jobs: pandas' to_csv with 6 decimals, and Batsim's empty
    metadata written "" as Batsim writes it."""
    if (jobs["metadata"] != "").any():
        raise ValueError("metadata holds values: batfill writes it empty")
    lines = _frame_csv_text(jobs.drop(columns="metadata")).split("\n")[:-1]
    return "\n".join([lines[0] + ",metadata"] + [line + ',""' for line in lines[1:]]) + "\n"


def schedule_csv_text(schedule):
    """_schedule.csv's text from Result.schedule."""
    def text(key, value):
        # Figures have 6 decimals; the load factor is written as given, its shortest text.
        if isinstance(value, float) and key != "load_factor":
            return f"{value:.6f}"
        return str(value)
    return (",".join(schedule) + "\n" + ",".join(text(k, v) for k, v in schedule.items()) +
            "\n")


# ---- Workloads given as rows.

# The columns a DataFrame or list of dicts may use, each with the names it may have.
_ROW_FIELDS = {
    "id": ("id", "job_id"),
    "submit_time": ("submit_time", "subtime", "submission_time"),
    "nodes": ("nodes", "res", "requested_number_of_resources"),
    "walltime": ("walltime", "requested_time"),
    "runtime": ("runtime", "delay", "execution_time"),
    "user": ("user",),
    "queue": ("queue",),
}


def _rows_of(workload):
    if isinstance(workload, pd.DataFrame):
        return "<DataFrame>", workload.to_dict("records")
    return "<list>", list(workload)


def _field(row, field, label, index):
    for name in _ROW_FIELDS[field]:
        if name in row:
            return row[name]
    if field in ("submit_time", "nodes", "runtime"):
        raise ValueError(f"{label} row {index}: no {field!r} "
                         f"(its names: {', '.join(_ROW_FIELDS[field])})")
    return None


def _missing(value):
    return value is None or (isinstance(value, float) and math.isnan(value))


def _number(value, label, index, field):
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{label} row {index}: {field} {value!r} is not a number") from None
    return int(number) if number.is_integer() else number


def _workload_json(workload, platform, nodes):
    """A Batsim JSON workload of the rows, one job a line so that the reader's line numbers
    stay near the rows (jobs[i] is row i)."""
    label, rows = _rows_of(workload)
    if nodes is None and platform is None:
        raise ValueError(f"a workload given as {label} needs nodes=N or platform=FILE")
    jobs, profiles = [], {}
    for index, row in enumerate(rows):
        runtime = _number(_field(row, "runtime", label, index), label, index, "runtime")
        profile = str(runtime)
        profiles[profile] = {"type": "delay", "delay": runtime}
        job = {"id": str(index + 1) if _missing(_field(row, "id", label, index))
               else str(_field(row, "id", label, index)),
               "subtime": _number(_field(row, "submit_time", label, index), label, index,
                                  "submit_time"),
               "res": _number(_field(row, "nodes", label, index), label, index, "nodes"),
               "profile": profile}
        walltime = _field(row, "walltime", label, index)
        if not _missing(walltime):
            job["walltime"] = _number(walltime, label, index, "walltime")
        for field in ("user", "queue"):
            value = _field(row, field, label, index)
            if not _missing(value):
                job[field] = value if isinstance(value, str) else _number(value, label, index,
                                                                          field)
        jobs.append(json.dumps(job))
    head = json.dumps({"nb_res": nodes if nodes is not None else 1, "profiles": profiles})
    return label, head[:-1] + ', "jobs": [\n' + ",\n".join(jobs) + "\n]}\n"


# ---- The replay.

def _shake_text(shake):
    if isinstance(shake, (tuple, list)):
        return ":".join(str(part) for part in shake)
    return str(shake)


def _resize_input(resize):
    if isinstance(resize, pd.DataFrame):
        return "<resize DataFrame>", resize.to_csv(index=False, lineterminator="\n")
    with open(resize) as text:
        return str(resize), text.read()


def _request(workload, platform, nodes, settings):
    settings = dict(settings)
    transforms = {key: settings.pop(key) for key in TRANSFORMS if key in settings}
    keys = _batfill.setting_keys()
    for key in settings:
        if key not in keys:
            raise TypeError(f"unknown setting {key!r} (valid: {', '.join(keys + list(TRANSFORMS))})")
    policy = settings.get("backfill")
    if isinstance(policy, type) and issubclass(policy, Policy):
        raise TypeError(f"backfill={policy.__name__}: give an instance, {policy.__name__}()")
    if isinstance(policy, Policy):
        del settings["backfill"]
    else:
        policy = None
    if isinstance(workload, (str, os.PathLike)):
        path, text = os.fspath(workload), ""
    else:
        path, text = _workload_json(workload, platform, nodes)
    resize_label, resize_csv = ("", None)
    if transforms.get("resize") is not None:
        resize_label, resize_csv = _resize_input(transforms["resize"])
    shake = transforms.get("shake")
    return dict(workload_path=path, workload_json=text,
                platform=os.fspath(platform) if platform is not None else "", nodes=nodes,
                settings_json=json.dumps(settings) if settings else "", policy=policy,
                load_factor=float(transforms.get("load_factor", 1)),
                shake=None if shake is None else _shake_text(shake),
                resize_label=resize_label, resize_csv=resize_csv,
                reject_missing_walltime=bool(transforms.get("reject_missing_walltime", False)))


_engine_used = False  # whether this process ran a replay itself (in_process=True)


def simulate(workload, platform=None, nodes=None, *, in_process=False, **settings):
    """Replays `workload` as `batfill simulate` does and returns its Result.

    workload: a trace file (SWF, plain or gzip; Batsim JSON; DR_EVT CSV), or the jobs as a
        DataFrame or a list of dicts (docs/python.md, "Workloads as rows").
    platform, nodes: the machine, as --platform and --nodes.
    in_process: run in this process rather than in a child, so that a Python policy's own
        state (counters, a learned model) is the caller's afterwards. SimGrid allows one engine
        per process: a process that did so can run no other replay.
    settings: the keys of --sched-cfg (batfill.setting_keys(): backfill, order, predictor,
        queues, ...; `backfill` may also be a batfill.Policy instance), and the transforms
        load_factor, shake ("SEED[:PCT]", SEED or (SEED, PCT)), resize (a CSV file or a
        DataFrame job_id,after,nodes) and reject_missing_walltime.

    Raises ValueError (bad input or settings, with the CLI's message), TypeError (an unknown
    setting, a policy's bad return), batfill.PolicyError (a policy raised: its traceback,
    the time and the queue it was deciding on) or RuntimeError.
    """
    global _engine_used
    request = _request(workload, platform, nodes, settings)
    if _engine_used:
        raise RuntimeError("this process already ran a replay in_process=True, and SimGrid "
                           "allows one engine per process: run the others in another process")
    if not in_process:
        return Result(_in_child(_batfill.replay, request))
    _engine_used = True
    return Result(_batfill.replay(**request))


_ERRORS = {"ValueError": ValueError, "TypeError": TypeError, "PolicyError": _batfill.PolicyError,
           "KeyboardInterrupt": KeyboardInterrupt, "MemoryError": MemoryError,
           "OverflowError": OverflowError, "IndexError": IndexError}


def _in_child(function, arguments):
    """function(**arguments) in a forked child; its result or its exception comes back."""
    with _result_file() as out:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            _child(out, function, arguments)
        try:
            _, status = os.waitpid(pid, 0)
        except BaseException:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            raise
        received = _receive(out)
    if received is None:
        raise RuntimeError(f"the replay's process ended without a result ({_describe(status)})")
    outcome, *content = received
    if outcome == "ok":
        return content[0]
    kind, message = content
    raise _ERRORS.get(kind, RuntimeError)(message)


def _child(out, function, arguments):
    try:
        try:
            payload = ("ok", function(**arguments))
        except BaseException as error:  # everything goes back to the caller
            kind = type(error).__name__
            message = str(error) if kind in _ERRORS or kind == "RuntimeError" else f"{kind}: {error}"
            payload = ("error", kind, message)
        _send(out, payload)
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(0)


# The result comes back in memory the two processes share (an anonymous memory file, not a
# file on disk): a pickle whose arrays (the jobs' columns) lie beside it as raw bytes, never
# copied into it, and which the caller maps instead of reading. A pipe cost more than the
# replay's outputs were worth: tens of megabytes crossing it a few kilobytes per wake-up.
_LENGTH = struct.Struct("<Q")


def _result_file():
    if hasattr(os, "memfd_create"):
        return os.fdopen(os.memfd_create("batfill-replay", os.MFD_CLOEXEC), "w+b", buffering=0)
    return tempfile.TemporaryFile(buffering=0)


def _send(out, payload):
    """The number of parts, each part's length, the pickle, then each array's bytes."""
    buffers = []
    data = pickle.dumps(payload, protocol=5, buffer_callback=buffers.append)
    parts = [memoryview(data)] + [buffer.raw() for buffer in buffers]
    head = b"".join(_LENGTH.pack(n) for n in [len(parts)] + [part.nbytes for part in parts])
    for part in [memoryview(head)] + parts:
        while part:
            part = part[out.write(part):]


def _receive(out):
    """The payload _send wrote, its arrays mapped, not copied; None for a partial one."""
    size = os.fstat(out.fileno()).st_size
    if size < _LENGTH.size:
        return None
    memory = mmap.mmap(out.fileno(), size, access=mmap.ACCESS_COPY)  # writable columns
    view = memoryview(memory)
    count = _LENGTH.unpack_from(view)[0]
    offset = _LENGTH.size * (count + 1)
    if count < 1 or offset > size:
        return None
    parts = []
    for index in range(count):
        length = _LENGTH.unpack_from(view, _LENGTH.size * (index + 1))[0]
        if offset + length > size:
            return None
        parts.append(view[offset:offset + length])
        offset += length
    return pickle.loads(parts[0], buffers=parts[1:])


def _describe(status):
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit status {os.WEXITSTATUS(status)}"

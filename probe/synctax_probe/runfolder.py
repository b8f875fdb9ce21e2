"""The run folder: where it goes, what is in it, and writing its JSON files whole."""
from __future__ import annotations

import json
import os
import socket
import time
from typing import Any, Mapping, Optional

FORMAT_VERSION = 1

PROBE = "probe.json"
STEPS = "steps.jsonl"
BLOCKS = "blocks.jsonl"
PHASES = "phases.csv"
SITES = "sites.json"
AB = "ab.json"
TRACE = "trace.pt.trace.json"
END = "end.json"
ALL = (PROBE, STEPS, BLOCKS, PHASES, SITES, AB, TRACE, TRACE + ".gz", END)
LOCK = ".synctax-probe.lock"  # the job writing the folder: "pid host"


class RunFolderError(Exception):
    def __init__(self, path: str, reason: str):
        super().__init__(f"cannot write the run folder '{path}': {reason}")
        self.path = path
        self.reason = reason


def rank_of(env: Mapping[str, str]) -> Optional[int]:
    """The process's rank under torchrun (RANK, else LOCAL_RANK), None outside it."""
    for key in ("RANK", "LOCAL_RANK"):
        value = env.get(key, "")
        if value.strip().isdigit():
            return int(value)
    return None


def default_out(script: str, env: Mapping[str, str], now: float, parent_pid: int) -> str:
    """synctax-probe/<script stem>-<date-time> in the working folder. Under torchrun every rank
    must find the same folder without talking to the others: the launcher's pid stands in for the
    time there."""
    stem = os.path.splitext(os.path.basename(script))[0] or "script"
    if rank_of(env) is not None:
        return os.path.join("synctax-probe", f"{stem}-{time.strftime('%Y%m%d', time.localtime(now))}-ppid{parent_pid}")
    return os.path.join("synctax-probe", f"{stem}-{time.strftime('%Y%m%d-%H%M%S', time.localtime(now))}")


def rank_folder(out: str, env: Mapping[str, str]) -> str:
    rank = rank_of(env)
    return out if rank is None else os.path.join(out, f"rank-{rank}")


def unused(folder: str) -> str:
    """The folder, or the first of folder-2, folder-3, ... that does not exist: a default folder is
    never another run's."""
    candidate, n = folder, 1
    while os.path.lexists(candidate):
        n += 1
        candidate = f"{folder}-{n}"
    return candidate


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _take_lock(folder: str) -> Optional[str]:
    """Takes the folder's lock; returns a note where a stale one (its process gone) was taken over.
    Raises RunFolderError where a live job holds it, or one on another host."""
    path = os.path.join(folder, LOCK)
    host = socket.gethostname()
    note = None
    for _ in range(3):
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            try:
                with open(path, encoding="utf-8") as f:
                    words = f.read().split()
            except OSError:
                continue  # its holder let it go meanwhile
            pid = int(words[0]) if words and words[0].isdigit() else None
            holder = words[1] if len(words) > 1 else host
            if holder != host:
                raise RunFolderError(folder, f"a job on {holder} (pid {pid}) holds it ({path}); give another --out, "
                                             "or remove the lock if that job is gone") from None
            if pid is not None and _alive(pid):
                raise RunFolderError(folder, f"another job (pid {pid}) is writing it; give another --out") from None
            note = f"a stale lock of pid {pid} (no longer running) in {folder} was taken over"
            try:
                os.remove(path)
            except FileNotFoundError:
                pass
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(f"{os.getpid()} {host}\n")
        return note
    raise RunFolderError(folder, f"its lock ({path}) could not be taken")


def release(folder: str) -> None:
    """Gives the folder's lock back, where this process holds it."""
    path = os.path.join(folder, LOCK)
    try:
        with open(path, encoding="utf-8") as f:
            words = f.read().split()
        if words and words[0] == str(os.getpid()):
            os.remove(path)
    except OSError:
        pass


def claim(folder: str, force: bool = False) -> Optional[str]:
    """Makes the folder and takes its lock (one job a folder); refuses a folder that holds a run
    (its probe.json) unless force, then clears the files a former run left. Raises RunFolderError
    with the reason; returns a note where a stale lock was taken over."""
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise RunFolderError(folder, e.strerror or str(e)) from None
    try:
        note = _take_lock(folder)
    except OSError as e:
        raise RunFolderError(folder, e.strerror or str(e)) from None
    try:
        if not force and os.path.isfile(os.path.join(folder, PROBE)):
            raise RunFolderError(folder, "it holds a run already (probe.json); --force replaces it, or give "
                                         "another --out")
        for name in ALL:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                os.remove(path)
        probe_path = os.path.join(folder, ".write-test")
        with open(probe_path, "w", encoding="utf-8") as f:
            f.write("")
        os.remove(probe_path)
    except OSError as e:
        release(folder)
        raise RunFolderError(folder, e.strerror or str(e)) from None
    except RunFolderError:
        release(folder)
        raise
    return note


def write_json(folder: str, name: str, obj: Any) -> None:
    """Whole or not at all: a reader never sees half a file."""
    path = os.path.join(folder, name)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=1, allow_nan=False, default=str)
        f.write("\n")
    os.replace(tmp, path)


def finite(value: Any) -> Any:
    """NaN and infinities as null, through dicts and lists (JSON has no NaN)."""
    if isinstance(value, float):
        return value if value == value and value not in (float("inf"), float("-inf")) else None
    if isinstance(value, dict):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value

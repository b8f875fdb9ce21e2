"""The run folder: where it goes, what is in it, and writing its JSON files whole."""
from __future__ import annotations

import json
import os
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


def prepare(folder: str) -> None:
    """Makes the folder and clears the files a former run left in it; raises RunFolderError with
    the reason where it cannot be written."""
    try:
        os.makedirs(folder, exist_ok=True)
        for name in ALL:
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                os.remove(path)
        probe_path = os.path.join(folder, ".write-test")
        with open(probe_path, "w", encoding="utf-8") as f:
            f.write("")
        os.remove(probe_path)
    except OSError as e:
        raise RunFolderError(folder, e.strerror or str(e)) from None


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

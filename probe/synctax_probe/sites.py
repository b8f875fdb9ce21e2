"""Sync sites: the user's file:line that caused each sync, found by walking frames outward past
torch's and the probe's own, with the answer per code object cached (a dict look-up per frame)."""
from __future__ import annotations

import random
import sys
from typing import Dict, List, Tuple

from .stats import median

# Waits kept per site for its median: a uniform sample of all of them (reservoir), so a million
# syncs cost no more memory than a thousand.
_SAMPLES = 1024


class Site:
    __slots__ = ("id", "op", "file", "line", "function", "count", "total_ns", "max_ns", "samples")

    def __init__(self, site_id: int, op: str, file: str, line: int, function: str):
        self.id = site_id
        self.op = op
        self.file = file
        self.line = line
        self.function = function
        self.count = 0
        self.total_ns = 0
        self.max_ns = 0
        self.samples: List[int] = []

    def add(self, wait_ns: int, rand=random.random) -> None:
        self.count += 1
        self.total_ns += wait_ns
        if wait_ns > self.max_ns:
            self.max_ns = wait_ns
        if self.count <= _SAMPLES:
            self.samples.append(wait_ns)
        else:
            j = int(rand() * self.count)
            if j < _SAMPLES:
                self.samples[j] = wait_ns

    def as_dict(self) -> dict:
        samples = list(self.samples)
        return {"id": self.id, "op": self.op, "file": self.file, "line": self.line, "function": self.function,
                "count": self.count, "total_wait_ms": self.total_ns * 1e-6,
                "median_wait_us": median(samples) * 1e-3 if samples else None,
                "max_wait_us": self.max_ns * 1e-3}


class SiteTable:
    def __init__(self, internal_dirs: Tuple[str, ...]):
        self._prefixes = internal_dirs
        self._internal: Dict[object, bool] = {}
        self._sites: Dict[tuple, Site] = {}
        self._getframe = sys._getframe

    def site(self, op: str) -> Site:
        """The site of `op` called from the frames above this call."""
        f = self._getframe(1)
        internal = self._internal
        code = None
        while f is not None:
            code = f.f_code
            inside = internal.get(code)
            if inside is None:
                inside = internal[code] = code.co_filename.startswith(self._prefixes)
            if not inside:
                break
            f = f.f_back
        line = f.f_lineno if f is not None else 0
        key = (op, code if f is not None else None, line)
        found = self._sites.get(key)
        if found is None:
            if f is None:
                found = Site(len(self._sites), op, "<torch>", 0, "")
            else:
                found = Site(len(self._sites), op, code.co_filename, line, code.co_name)
            self._sites[key] = found
        return found

    def snapshot(self) -> List[dict]:
        """Every site so far, as plain dicts (safe from the writer's thread)."""
        return [s.as_dict() for s in list(self._sites.values())]

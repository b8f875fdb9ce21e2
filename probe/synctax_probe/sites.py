"""Sync sites: where each sync was called from, found by walking frames outward, the answer per code
object cached (a dict look-up per frame). A site names two frames: the innermost outside torch and
the probe (the call that syncs, which may be a library's: torchvision's save_image, a trainer
framework's logging), and the first of the user's own code on the way out (the line the user can
change; library code is what Python's install paths and site-packages hold)."""
from __future__ import annotations

import os
import random
import sys
import sysconfig
import types
from typing import Callable, Dict, List, Optional, Tuple

from .stats import median

# Waits kept per site for its median: a uniform sample of all of them (reservoir), so a million
# syncs cost no more memory than a thousand.
_SAMPLES = 1024


def library_dirs() -> Tuple[str, ...]:
    """Where installed code lives: the standard library's and the packages' folders."""
    paths = sysconfig.get_paths()
    dirs = {os.path.join(path, "") for k in ("stdlib", "platstdlib", "purelib", "platlib") if paths.get(k)
            for path in (paths[k], os.path.realpath(paths[k]))}
    return tuple(sorted(dirs))


def _is_library(filename: str, dirs: Tuple[str, ...]) -> bool:
    return (filename.startswith("<") or filename.startswith(dirs) or "/site-packages/" in filename
            or "/dist-packages/" in filename)


class Site:
    __slots__ = ("id", "op", "file", "line", "function", "user", "count", "total_ns", "max_ns", "samples", "defer")

    def __init__(self, site_id: int, op: str, file: str, line: int, function: str,
                 user: Optional[Tuple[str, int, str]] = None):
        self.id = site_id
        self.op = op
        self.file = file
        self.line = line
        self.function = function
        self.user = user  # (file, line, function) of the user's own frame; None: none on the stack
        self.count = 0
        self.total_ns = 0
        self.max_ns = 0
        self.samples: List[int] = []
        self.defer = False  # --ab defer defers its calls in the defer blocks

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
        user = self.user or (None, None, None)
        return {"id": self.id, "op": self.op, "file": self.file, "line": self.line, "function": self.function,
                "user_file": user[0], "user_line": user[1], "user_function": user[2],
                "count": self.count, "total_wait_ms": self.total_ns * 1e-6,
                "median_wait_us": median(samples) * 1e-3 if samples else None,
                "max_wait_us": self.max_ns * 1e-3}


class SiteTable:
    def __init__(self, internal_dirs: Tuple[str, ...], library: Optional[Tuple[str, ...]] = None):
        self._prefixes = internal_dirs
        self._library_dirs = library_dirs() if library is None else library
        self._internal: Dict[object, bool] = {}
        self._library: Dict[object, bool] = {}  # code object -> installed code (not the user's)
        self._sites: Dict[tuple, Site] = {}
        self._getframe = sys._getframe
        self.on_new: Optional[Callable[[Site], None]] = None  # told of each site as it is first seen

    def site(self, op: str) -> Site:
        """The site of `op` called from the frames above this call."""
        f: Optional[types.FrameType] = self._getframe(1)
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
        u = self._user_frame(f)
        user_code = u.f_code if u is not None else None
        user_line = u.f_lineno if u is not None else 0
        key = (op, code if f is not None else None, line, user_code, user_line)
        found = self._sites.get(key)
        if found is None:
            user = (user_code.co_filename, user_line, user_code.co_name) if user_code is not None else None
            if f is None:
                found = Site(len(self._sites), op, "<torch>", 0, "", user)
            else:
                assert code is not None  # the frame f was found from
                found = Site(len(self._sites), op, code.co_filename, line, code.co_name, user)
            self._sites[key] = found
            if self.on_new is not None:
                self.on_new(found)
        return found

    def all(self) -> List[Site]:
        """Every site so far (on the loop's thread)."""
        return list(self._sites.values())

    def _user_frame(self, f):
        """The first frame from f outward in the user's own code (neither installed nor torch's)."""
        library = self._library
        while f is not None:
            code = f.f_code
            lib = library.get(code)
            if lib is None:
                lib = library[code] = (code.co_filename.startswith(self._prefixes)
                                       or _is_library(code.co_filename, self._library_dirs))
            if not lib:
                return f
            f = f.f_back
        return None

    def snapshot(self) -> List[dict]:
        """Every site so far, as plain dicts (safe from the writer's thread)."""
        return [s.as_dict() for s in list(self._sites.values())]

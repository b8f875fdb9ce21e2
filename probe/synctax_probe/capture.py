"""The short profiler capture: a few steps with stacks, started and stopped at step boundaries,
each step marked `ProfilerStep#N` as torch.profiler's schedule marks it, so that SyncTax's trace
reader finds the steps."""
from __future__ import annotations

import gzip
import json
import os
import shutil
import warnings
from typing import Any, Dict, Optional

TEARDOWN = "TEARDOWN_CUPTI"


class Capture:
    def __init__(self, torch, path: str, gz: bool):
        self._torch = torch
        self._cuda_synchronize = None  # torch.cuda.synchronize, where the capture has CUDA
        self.path = path + ".gz" if gz else path
        self._plain_path = path
        self._gz = gz
        self._prof: Any = None  # torch.profiler.profile while a capture is under way
        self._mark: Any = None  # the step's record_function range
        self.steps = 0
        self.error: Optional[str] = None
        self.first_step: Optional[int] = None
        self.teardown = "no capture"  # what becomes of CUPTI after the capture, in words
        self._env_before: Optional[str] = None  # TEARDOWN_CUPTI as it was, where the probe set it
        self._set_env = False

    def start(self, step: int, cuda: bool) -> None:
        torch = self._torch
        self._arrange_teardown(cuda)
        self._cuda_synchronize = torch.cuda.synchronize if cuda else None
        try:
            from torch.profiler import ProfilerActivity, profile
            activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
            with warnings.catch_warnings():
                # torch 2.x warns that a profiler without a schedule keeps one cycle: one is all
                # the capture is.
                warnings.simplefilter("ignore", UserWarning)
                self._prof = profile(activities=activities, with_stack=True, record_shapes=False)
                self._prof.start()
            self.first_step = step
            self._open_mark(step)
        except Exception as e:  # a profiler that cannot start costs the trace, not the run
            self.error = f"the profiler did not start: {type(e).__name__}: {e}"
            self._prof = None

    def _arrange_teardown(self, cuda: bool) -> None:
        """Kineto leaves CUPTI running after a capture (every later CUDA call slower: pytorch issue
        144455) unless TEARDOWN_CUPTI=1 is in the environment when the profiler stops; it is read
        then, so setting it here is enough. A value the user set is left as it is."""
        value = os.environ.get(TEARDOWN)
        if not cuda:
            self.teardown = "no CUDA activity captured: no CUPTI to tear down"
        elif value is None:
            os.environ[TEARDOWN] = "1"
            self._set_env = True
            self.teardown = "TEARDOWN_CUPTI=1 set by the probe: CUPTI torn down after the capture"
        elif value == "1":
            self.teardown = "TEARDOWN_CUPTI=1 in the environment: CUPTI torn down after the capture"
        else:
            self.teardown = (f"TEARDOWN_CUPTI={value} in the environment, left as it was: CUPTI may stay on "
                             "after the capture")

    def restore_environment(self) -> None:
        """TEARDOWN_CUPTI as it was before the probe set it (at the end of the run: the teardown
        runs on a thread of its own after the capture, and reads the variable again)."""
        if self._set_env:
            self._set_env = False
            os.environ.pop(TEARDOWN, None)

    @property
    def running(self) -> bool:
        return self._prof is not None

    def next_step(self, step: int) -> None:
        self._close_mark()
        self.steps += 1
        self._open_mark(step)

    def stop(self) -> None:
        """Ends the capture and writes the trace (the loop waits for this, outside any block)."""
        if self._prof is None:
            return
        self._close_mark()
        self.steps += 1
        prof, self._prof = self._prof, None
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                prof.stop()
                if self._cuda_synchronize is not None:
                    # Kineto finishes its teardown from inside a later CUDA runtime call: one now,
                    # not in the first measured step.
                    self._cuda_synchronize()
                prof.export_chrome_trace(self._plain_path)
            kinetoize(self._plain_path, os.getpid())
            if self._gz:
                with open(self._plain_path, "rb") as src, gzip.open(self.path, "wb") as dst:
                    shutil.copyfileobj(src, dst)
                os.remove(self._plain_path)
        except Exception as e:
            self.error = f"the trace was not written: {type(e).__name__}: {e}"

    def abandon(self) -> None:
        """Stops a capture cut short (the script ended inside it) and keeps what it holds."""
        if self._prof is not None:
            self.steps -= 1  # the step under way did not end
            self.stop()

    def _open_mark(self, step: int) -> None:
        self._mark = self._torch.autograd.profiler.record_function(f"ProfilerStep#{step}")
        self._mark.__enter__()

    def _close_mark(self) -> None:
        if self._mark is not None:
            mark, self._mark = self._mark, None
            mark.__exit__(None, None, None)


def kinetoize(path: str, pid: int) -> bool:
    """A torch built without Kineto (Debian's 1.13) exports the legacy profiler's list of events,
    without categories and with names for pid: rewritten as Kineto writes a trace (an object with
    traceEvents; record_function ranges as user_annotation, ops as cpu_op; integer pid), so that
    every run folder holds one kind of trace. Returns whether it was rewritten."""
    with open(path, "rb") as f:
        head = f.read(64).lstrip()
    if not head.startswith(b"["):
        return False
    with open(path, encoding="utf-8") as f:
        events = json.load(f)
    lanes: Dict[Any, int] = {}
    for e in events:
        if not isinstance(e, dict):
            continue
        name = str(e.get("name", ""))
        if "cat" not in e:
            e["cat"] = "user_annotation" if "#" in name else "cpu_op"
        if not isinstance(e.get("pid"), int):
            e["pid"] = pid
        if not isinstance(e.get("tid"), int):
            e["tid"] = lanes.setdefault(e.get("tid"), len(lanes) + 1)
    # with_stack as Kineto's traces say it: the capture asked for stacks, which this profiler's
    # export leaves out.
    trace = {"schemaVersion": 1, "traceEvents": events, "with_stack": True,
             "synctax_probe": {"converted": "the legacy profiler's event list (torch without Kineto)"}}
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(trace, f)
    os.replace(tmp, path)
    return True

"""synctax_probe: SyncTax's probe for a PyTorch training loop as it is.

    python3 -m synctax_probe [--out DIR] [--ab item|defer|defer:FILE:LINE] train.py ARGS...

or, from a notebook:

    import synctax_probe
    synctax_probe.attach(out="probe-run", ab="item")   # or ab="defer", ab="defer:train.py:88"
    ... train ...
    synctax_probe.detach()

It times the loop's phases and syncs without the profiler, reads the GPU's step time from CUDA
events without a sync, captures a few profiled steps for SyncTax's what-if, and with `ab="item"`
measures what a `loss.item()` after each optimizer step costs, paired in rounds of blocks (with
`ab="defer"`, what deferring one line's syncs saves: its values read one call late). The run
folder's format: docs/probe-folder.md. Importing this module changes nothing until attach();
detach() puts every patched function back."""
from __future__ import annotations

import atexit
import os
import socket
import sys
import time
from dataclasses import fields
from typing import Any, Dict, List, Optional

from .options import Options
from .runfolder import (FORMAT_VERSION, PROBE, RunFolderError, claim, default_out, rank_folder, rank_of, release, unused,
                        write_json)

__version__ = "0.1.0"
__all__ = ["attach", "detach", "attached", "Options", "RunFolderError", "ProbeStartError", "FORMAT_VERSION"]

_probe = None


def attach(out: Optional[str] = None, ab: Optional[str] = None, *, script: Optional[str] = None,
           argv: Optional[List[str]] = None, force: bool = False, **options: Any) -> str:
    """Starts measuring the loop that runs next in this process; returns the run folder. The
    keyword options are Options' fields (block_steps=20, profile_steps=5, quiet=False, ...).

    A folder that holds a run is refused unless force; one another job writes is refused always.
    Raises TypeError for an option that does not exist, ValueError for one out of range (or a
    FILE:LINE of ab="defer:FILE:LINE" or keep with no such file or no code on that line),
    ProbeStartError without torch and RunFolderError where the folder cannot be written or is
    refused; nothing is patched then."""
    unknown = sorted(set(options) - {f.name for f in fields(Options)})
    if unknown:
        raise TypeError(f"attach() got unknown options: {', '.join(unknown)}")
    return _attach(Options(ab=ab, **options), out, script, argv, mode="attach", force=force)


def _attach(options: Options, out: Optional[str], script: Optional[str], argv: Optional[List[str]],
            mode: str, force: bool = False) -> str:
    global _probe
    if _probe is not None:
        raise RuntimeError("synctax_probe is attached already; detach() first")
    options.check()
    from .defersite import resolve_options
    defer_lines = resolve_options(options, script)  # ValueError before anything is made
    torch = import_torch()  # before the folder: no empty run folder where there is no torch
    now = time.time()
    env = os.environ
    # Absolute before the script starts: a script that changes its working folder (Hydra does)
    # still writes its run here.
    if out is not None:
        folder = os.path.abspath(rank_folder(out, env))
    elif rank_of(env) is None:
        folder = unused(os.path.abspath(default_out(script or "notebook", env, now, os.getppid())))
    else:  # every rank finds the same default folder and writes its own rank-N inside it
        folder = os.path.abspath(rank_folder(default_out(script or "notebook", env, now, os.getppid()), env))
    created = not os.path.exists(folder)
    note = claim(folder, force)
    if note and not options.quiet:
        print(f"synctax_probe: {note}", file=sys.stderr, flush=True)
    try:
        from .probe import Probe
        info = _info(torch, options, script, argv, mode, now)
        try:
            write_json(folder, PROBE, info)
        except OSError as e:
            raise RunFolderError(folder, e.strerror or str(e)) from None
        probe = Probe(torch, options, folder, info, defer_lines)
        probe.start()
    except BaseException:
        release(folder)
        if created:  # a folder this start made, left as empty as it found nothing: gone again
            try:
                os.remove(os.path.join(folder, PROBE))
            except OSError:
                pass
            try:
                os.rmdir(folder)
            except OSError:
                pass
        raise
    _probe = probe
    atexit.register(_at_exit)
    return folder


def import_torch():
    """torch, or ProbeStartError saying which interpreter has none and what to do."""
    try:
        import torch  # only once attached: importing the probe costs nothing
    except Exception as e:
        raise ProbeStartError(
            f"{sys.executable} cannot import torch ({type(e).__name__}: {e}); run the probe with the python3 "
            f"that has your torch, as in /path/to/venv/bin/python3 -m synctax_probe ...") from None
    return torch


class ProbeStartError(RuntimeError):
    """The probe cannot start in this interpreter (no torch): nothing was patched or written."""


def detach(exit_code: Optional[int] = None) -> Optional[Dict[str, Any]]:
    """Stops measuring, puts every patched function back and writes the end of the run folder.
    Returns the end record (None where not attached)."""
    return _detach({"exit_code": exit_code})


def attached() -> bool:
    return _probe is not None


def _detach(outcome: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    global _probe
    probe, _probe = _probe, None
    if probe is None:
        return None
    atexit.unregister(_at_exit)
    return probe.finish(outcome)


def _at_exit() -> None:
    if _probe is not None and _probe.info.get("pid") != os.getpid():
        return  # a forked child (a DataLoader worker): the run folder is its parent's
    _detach({"exit_code": None, "exception": {"type": "exit", "message": "the interpreter exited while attached"}})


def _info(torch, options: Options, script, argv, mode: str, now: float) -> Dict[str, Any]:
    env = os.environ
    world = env.get("WORLD_SIZE", "")
    return {
        "format_version": FORMAT_VERSION,
        "probe_version": __version__,
        "mode": mode,
        "script": os.path.abspath(script) if script else None,
        "argv": list(argv) if argv is not None else list(sys.argv),
        "cwd": os.getcwd(),
        "torch": torch.__version__,
        "cuda_available": torch.cuda.is_available(),
        "cuda_version": getattr(torch.version, "cuda", None),
        "cuda_device": None,
        "python": sys.version.split()[0],
        "executable": sys.executable,
        "hostname": socket.gethostname(),
        "pid": os.getpid(),
        "rank": rank_of(env),
        "world_size": int(world) if world.isdigit() else None,
        "start_time": time.strftime("%Y-%m-%dT%H:%M:%S%z", time.localtime(now)),
        "start_unix": now,
        "options": options.as_dict(),
    }

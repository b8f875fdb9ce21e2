"""python3 -m synctax_probe [options] train.py ARGS...: the script runs as `python3 train.py ARGS...`
would run it (as __main__, its __file__ absolute, its folder first on sys.path, its exit code,
stdout and stderr its own), measured; `-m package.module ARGS...` runs a module as `python3 -m`
does. The run folder is kept on an exception, Ctrl+C and SIGTERM."""
from __future__ import annotations

import argparse
import builtins
import importlib.machinery
import importlib.util
import io
import os
import runpy
import signal
import sys
import traceback
import types
from dataclasses import fields
from typing import Any, Callable, Dict, List, Optional, Tuple

from . import ProbeStartError, _attach, _detach
from .options import Options
from .runfolder import RunFolderError

_PROG = "python3 -m synctax_probe"


class _Terminated(BaseException):
    pass


def _count(low: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"expected an integer of at least {low}, got {value}")
        return value
    return parse


def _milliseconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of milliseconds, got {text!r}") from None
    if not 0 <= value <= 60000:
        raise argparse.ArgumentTypeError(f"expected milliseconds from 0 to 60000, got {text}")
    return value


class _Append(argparse.Action):
    """Each use of a repeatable option adds its value to the tuple (the field's default: none)."""

    def __call__(self, parser, namespace, values, option_string=None):
        setattr(namespace, self.dest, tuple(getattr(namespace, self.dest) or ()) + (values,))


def parser() -> argparse.ArgumentParser:
    """The command line: --out, --force, -m and the script, and one option for each of Options'
    fields (its help and bounds are the field's)."""
    p = argparse.ArgumentParser(
        prog=_PROG, description="Run a PyTorch training script unchanged and measure what its syncs cost: "
        "phases and syncs per step without the profiler, GPU step times from CUDA events, a short "
        "profiled capture, and with --ab item a paired measurement of loss.item() after each step (with --ab "
        "defer, of one sync deferred).",
        epilog="The run folder's format: docs/probe-folder.md.")
    p.add_argument("--out", metavar="DIR", help="run folder (default: synctax-probe/<script>-<date-time>; "
                   "under torchrun one rank-N folder per rank inside it)")
    for f in fields(Options):
        flag, meta = "--" + f.name.replace("_", "-"), f.metadata
        if meta["unit"] == "":
            p.add_argument(flag, action="store_true", help=meta["help"])
        elif meta.get("many"):
            p.add_argument(flag, action=_Append, default=f.default, metavar=meta["unit"], help=meta["help"])
        elif meta.get("text"):  # Options.check reads it
            p.add_argument(flag, metavar=meta["unit"], help=meta["help"])
        else:
            kind = _milliseconds if meta["unit"] == "MS" else _count(int(meta["bounds"][0]))
            said = meta["help"]
            said = said[:-1] + "; default %(default)s)" if said.endswith(")") else said + " (default %(default)s)"
            p.add_argument(flag, type=kind, default=f.default, metavar=meta["unit"], help=said)
    p.add_argument("--force", action="store_true", help="replace the run an --out folder holds")
    p.add_argument("-m", dest="module", metavar="MODULE",
                   help="run a module as python3 -m does (its arguments after it), instead of a script")
    p.add_argument("script", nargs="?", help="the training script")
    p.add_argument("args", nargs="*", help="its arguments")
    return p


def split_argv(argv: List[str], p: argparse.ArgumentParser) -> Tuple[List[str], List[str]]:
    """The probe's options and the script, then the script's arguments untouched (argparse alone
    would read the script's own --options and drop a `--`)."""
    takes_value = {s for a in p._actions if a.option_strings and a.nargs != 0 for s in a.option_strings}
    i = 0
    while i < len(argv):
        token = argv[i]
        if token == "--":
            return argv[:i + 2], argv[i + 2:]
        if token == "-m":  # the module, then its own arguments
            return argv[:i + 2], argv[i + 2:]
        if not token.startswith("-") or token == "-":
            return argv[:i + 1], argv[i + 1:]
        i += 2 if token in takes_value else 1
    return argv, []


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = parser()
    ours, theirs = split_argv(argv, p)
    ns = p.parse_args(ours)
    if (ns.module is None) == (ns.script is None):
        p.error("give a script, or -m MODULE" if ns.module is None else "-m MODULE takes the place of the script")
    options = Options(**{f.name: getattr(ns, f.name) for f in fields(Options)})
    try:
        options.check()
    except ValueError as e:
        p.error(str(e))
    try:
        return _start(ns, options, theirs)
    except KeyboardInterrupt:  # Ctrl+C before the script started: nothing of it ran
        _detach({"exit_code": 130, "interrupted": True, "signal": "SIGINT"})
        return 130


def _start(ns, options: Options, theirs: List[str]) -> int:
    if ns.module is not None:
        try:
            path = _module_file(ns.module)
        except ImportError as e:
            print(f"{_PROG}: cannot run module '{ns.module}': {e}", file=sys.stderr)
            return 2
        script, script_argv = path, [path] + theirs
    else:
        script = ns.script
        if not os.path.isfile(script):
            reason = "no such file" if not os.path.exists(script) else "not a file"
            print(f"{_PROG}: cannot run '{script}': {reason}", file=sys.stderr)
            return 2
        script_argv = [script] + theirs
    try:
        _attach(options, ns.out, script, script_argv, mode="command", force=ns.force)
    except (RunFolderError, ProbeStartError) as e:
        print(f"{_PROG}: {e}", file=sys.stderr)
        return 2
    except ValueError as e:  # --ab defer:FILE:LINE or --keep naming no code
        print(f"{_PROG}: error: {e}", file=sys.stderr)
        return 2
    if ns.module is not None:
        return _run(lambda: runpy.run_module(ns.module, run_name="__main__", alter_sys=True), script, script_argv,
                    os.getcwd())
    return _run(lambda: _run_script(script), script, script_argv, os.path.dirname(os.path.realpath(script)))


def _run_script(script: str) -> None:
    """The script as `python3 script` runs it: its __file__ absolute, sys.argv[0] as given (runpy's
    run_path would set both to the path it is given), in a __main__ module of its own."""
    path = os.path.abspath(script)
    with io.open_code(path) as f:
        code = compile(f.read(), path, "exec", dont_inherit=True)
    module = types.ModuleType("__main__")
    module.__dict__.update(__file__=path, __cached__=None, __package__=None, __spec__=None,
                           __loader__=importlib.machinery.SourceFileLoader("__main__", path),
                           __builtins__=builtins)
    saved = sys.modules.get("__main__")
    sys.modules["__main__"] = module
    try:
        exec(code, module.__dict__)
    finally:
        if saved is not None:
            sys.modules["__main__"] = saved


def _module_file(name: str) -> str:
    """The file `python3 -m name` would run (a package's __main__), found as Python finds it: from
    the working folder first."""
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    if name.startswith("."):
        raise ImportError("relative module names are not supported")
    spec = importlib.util.find_spec(name)
    if spec is None:
        raise ImportError(f"No module named {name}")
    if spec.submodule_search_locations is not None:  # a package: its __main__
        spec = importlib.util.find_spec(name + ".__main__")
        if spec is None:
            raise ImportError(f"No module named {name}.__main__; '{name}' is a package and cannot be directly executed")
    if not spec.origin or not os.path.isfile(spec.origin):
        raise ImportError(f"{name} is not a Python file")
    return spec.origin


def _run(run: Callable[[], object], script: str, script_argv: List[str], path0: str) -> int:
    """Runs the script (or module) as Python would: sys.argv and sys.path[0] as `python3` sets
    them, its exit code, its traceback without the probe's frames."""
    outcome: Dict[str, Any] = {"exit_code": 0, "exception": None, "interrupted": False, "signal": None}

    def on_sigterm(signum, frame):
        raise _Terminated()

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    sys.argv = script_argv
    sys.path[0] = path0
    try:
        run()
    except SystemExit as e:
        outcome["exit_code"] = _exit_code(e.code)
    except KeyboardInterrupt as e:
        _print_traceback(e, script)
        outcome.update(exit_code=130, interrupted=True, signal="SIGINT")
    except _Terminated:
        outcome.update(exit_code=143, interrupted=True, signal="SIGTERM")
    except BaseException as e:
        _print_traceback(e, script)
        outcome.update(exit_code=1, exception={"type": type(e).__name__, "message": str(e)})
    finally:
        # A second Ctrl+C or SIGTERM must not cut the run folder's end short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        try:
            sys.stdout.flush()
        except Exception:
            pass
        _detach(outcome)
        signal.signal(signal.SIGTERM, previous)
    return outcome["exit_code"]


def _exit_code(code) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _print_traceback(e: BaseException, script: str) -> None:
    """The traceback as Python prints it for the script alone: runpy's and the probe's frames
    above the script's are left out."""
    tb = e.__traceback__
    target = os.path.abspath(script)
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != target:
        tb = tb.tb_next
    traceback.print_exception(type(e), e, tb if tb is not None else e.__traceback__)


def main_exit() -> None:
    sys.exit(main())


if __name__ == "__main__":
    main_exit()

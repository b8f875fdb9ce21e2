"""Which line --ab defer defers: the one --ab defer:FILE:LINE names (checked before the script
runs), or the one it picks after the warm-up (the largest wait per step among the lines whose every
sync can be deferred, --keep's lines left out); the sites at it flagged as they are first seen, a
sync there that cannot be deferred said and the line refused; and what ab.json says of it."""
from __future__ import annotations

import os
import sys
from typing import Any, Dict, List, Optional, Sequence, Tuple

from .defer import DEFERRABLE, refusal
from .options import Options, parse_line

WHATIF_ABSENT = ("the probe has none of its own: `synctax-run trace DIR` and the app replay the captured step "
                 "without that line's syncs and print it beside this measurement")


class Line:
    """A line of the user's code: its file (as the interpreter names it, resolved) and number."""

    def __init__(self, file: str, line: int):
        self.file = os.path.realpath(file)
        self.line = line
        rel = os.path.relpath(self.file)
        self.name = f"{rel if not rel.startswith('..') else self.file}:{line}"

    def matches(self, user: Optional[Tuple[str, int, str]]) -> bool:
        """Whether a site's user frame (file, line, function) is this line."""
        return user is not None and user[1] == self.line and os.path.realpath(user[0]) == self.file

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Line) and (self.file, self.line) == (other.file, other.line)

    def __hash__(self) -> int:
        return hash((self.file, self.line))


def resolve(text: str, option: str, script: Optional[str]) -> Line:
    """FILE:LINE as a Line: FILE as given, else from the working folder, else from the script's
    folder. ValueError naming the option where there is no such file or no code at that line."""
    file, line = parse_line(text, option)
    candidates = [file] if os.path.isabs(file) else [os.path.abspath(file)] + (
        [os.path.join(os.path.dirname(os.path.abspath(script)), file)] if script else [])
    path = next((c for c in candidates if os.path.isfile(c)), None)
    if path is None:
        raise ValueError(f"{option}: {text}: no such file ({' nor '.join(candidates)})")
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ValueError(f"{option}: {text}: cannot read {path}: {e.strerror or e}") from None
    if line > len(lines):
        raise ValueError(f"{option}: {text}: {path} has {len(lines)} lines")
    code = lines[line - 1].strip()
    if not code or code.startswith("#"):
        raise ValueError(f"{option}: {text}: no code on that line ({'a comment' if code else 'blank'}): nothing "
                         "there can sync")
    return Line(path, line)


def resolve_options(options: Options, script: Optional[str]) -> Tuple[Optional[Line], List[Line]]:
    """The line --ab defer:FILE:LINE names (None for --ab defer's own pick) and the --keep lines."""
    spec = options.defer_spec
    named = resolve(spec, "ab", script) if spec is not None else None
    return named, [resolve(k, "keep", script) for k in options.keep]


class DeferSite:
    """--ab defer's line and what became of it. `line` is None until one is named or picked."""

    def __init__(self, named: Optional[Line], kept: Sequence[Line], quiet: bool):
        self.line = named
        self.named = named is not None
        self.kept = list(kept)
        self.quiet = quiet
        self.refused: Optional[str] = None  # why the line cannot be deferred, once known
        self.picked_after_steps: Optional[int] = None  # the steps the pick saw
        self.passed_over: List[Dict[str, Any]] = []  # the lines the pick passed over, with why
        self._looked = False  # a pick was tried (and said) at least once
        self._flagged: List[Any] = []  # the sites flagged to defer

    def on_new(self, site) -> None:
        """A site first seen (SiteTable.on_new): flagged where it is at the line; a sync there that
        cannot be deferred refuses the line, its sites unflagged."""
        line = self.line
        if line is None or self.refused is not None or not line.matches(site.user):
            return
        why = refusal(site.op)
        if why is None:
            self._flag(site)
            return
        self.refuse(f"{line.name} cannot be deferred: its `{site.op}` sync: {why}")

    def _flag(self, site) -> None:
        site.defer = True
        self._flagged.append(site)

    def refuse(self, reason: str) -> None:
        """The line is deferred no more (a sync there cannot be, or a copy failed): said once."""
        if self.refused is not None:
            return
        self.refused = reason
        for s in self._flagged:
            s.defer = False
        self._say(reason + "; its blocks run the loop as it is")

    def try_pick(self, sites: Sequence[Any], steps: int) -> bool:
        """At a block's start, while --ab defer has no line: picks one from the sites seen so far,
        flags its sites and says which. False where none can be picked yet."""
        best, passed = pick(sites, steps, self.kept)
        self.passed_over = passed
        if best is None:
            if not self._looked:
                self._say(f"--ab defer: no line seen in {steps} steps has syncs that can all be deferred"
                          + _passed_text(passed) + "; looked for again at each block's start")
            self._looked = True
            return False
        self.line, self.picked_after_steps = best, steps
        summary = line_summary(sites, best)
        if summary["refused"]:  # never: a line with a sync that cannot be deferred is not picked
            return False
        for s in summary["sites"]:
            self._flag(s)
        self._say(f"--ab defer picked {best.name} ({_about(summary, steps)}): the largest wait per step of the "
                  f"lines whose syncs can be deferred{_passed_text(passed)}")
        return True

    def _say(self, text: str) -> None:
        if not self.quiet:
            print(f"synctax_probe: {text}", file=sys.stderr, flush=True)

    def record(self, options: Options, sites: Sequence[Any], steps: int, deferred: Dict[str, Any]) -> Dict[str, Any]:
        """ab.json's `defer`: the line, its syncs, what happened to its calls in the defer blocks,
        and `refused` where the A/B measured nothing (the line refused, never seen, never synced)."""
        line = self.line
        rec: Dict[str, Any] = {
            "spec": options.ab, "site": line.name if line else None, "file": line.file if line else None,
            "line": line.line if line else None, "chosen": "named" if self.named else "picked",
            "picked_after_steps": self.picked_after_steps, "passed_over": self.passed_over,
            "kept": [k.name for k in self.kept], "deferrable_ops": list(DEFERRABLE)}
        refused = self.refused
        if line is None:
            refused = refused or ("no line seen had syncs that could all be deferred" + _passed_text(self.passed_over))
            rec.update(ops=[], calls_per_step=0.0, wait_ms=None)
        else:
            summary = line_summary(sites, line)
            calls = summary["count"] + deferred["late"]
            wait = summary["median_wait_ns"]
            rec.update(ops=summary["ops"], calls=calls, calls_per_step=calls / steps if steps else 0.0,
                       wait_ms=wait * 1e-6 if wait is not None else None,
                       wait_ms_per_step=summary["total_ns"] * 1e-6 / steps if steps else None)
            if calls == 0 and refused is None:
                refused = (f"{line.name} never synced in {steps} steps: nothing there to defer (sites.json lists the "
                           "lines that sync)")
        rec["refused"] = refused
        rec["deferred"] = deferred
        rec["whatif"] = None
        rec["whatif_reason"] = WHATIF_ABSENT
        return rec


def about(rec: Dict[str, Any]) -> str:
    """`item`, 1 a step, 3.1 ms wait: a line's syncs as ab.json's `defer` says them."""
    ops = ", ".join(rec.get("ops") or []) or "no sync"
    wait = rec.get("wait_ms")
    return f"`{ops}`, {rec.get('calls_per_step', 0):.3g} a step" + (f", {duration_ms(wait)} wait" if wait else "")


def _about(summary: Dict[str, Any], steps: int) -> str:
    """A line's syncs so far, at the pick: their count in the steps seen (a read after the
    optimizer's step counts in the next step: the first step has none)."""
    wait = summary["median_wait_ns"]
    ops = ", ".join(summary["ops"])
    return f"`{ops}`, {summary['count']} in {steps} steps" + (f", {duration_ms(wait * 1e-6)} wait" if wait else "")


def duration_ms(ms: float) -> str:
    return f"{ms:.3g} ms" if ms >= 1 else f"{ms * 1e3:.3g} µs"


def _passed_text(passed: Sequence[Dict[str, Any]]) -> str:
    if not passed:
        return ""
    shown = "; ".join(f"{p['site']} ({p['reason']})" for p in passed[:3])
    return f"; passed over: {shown}" + (f" and {len(passed) - 3} more" if len(passed) > 3 else "")


def line_summary(sites: Sequence[Any], line: Line) -> Dict[str, Any]:
    """The syncs of the sites at `line` (Site objects): their ops, count, waits, and why any of
    them cannot be deferred."""
    at = [s for s in sites if line.matches(s.user)]
    ops = sorted({s.op for s in at})
    waits = sorted(w for s in at for w in s.samples)
    refused = {op: r for op in ops for r in [refusal(op)] if r is not None}
    return {"sites": at, "ops": ops, "count": sum(s.count for s in at), "total_ns": sum(s.total_ns for s in at),
            "median_wait_ns": waits[len(waits) // 2] if waits else None, "refused": refused}


def pick(sites: Sequence[Any], steps: int, kept: Sequence[Line]) -> Tuple[Optional[Line], List[Dict[str, Any]]]:
    """--ab defer's own pick: the line of the user's code whose syncs wait longest per step among
    those whose every sync can be deferred and that --keep does not name. Returns it (None where
    there is none) and the lines passed over, each with why (largest wait first)."""
    lines: Dict[Line, Dict[str, Any]] = {}
    for s in sites:
        if s.user is None:
            continue
        line = Line(s.user[0], s.user[1])
        entry = lines.setdefault(line, {"ops": set(), "total_ns": 0, "count": 0})
        entry["ops"].add(s.op)
        entry["total_ns"] += s.total_ns
        entry["count"] += s.count
    best, passed = None, []
    for line, e in sorted(lines.items(), key=lambda kv: -kv[1]["total_ns"]):
        refused = [f"{op}: {refusal(op)}" for op in sorted(e["ops"]) if refusal(op) is not None]
        why = "; ".join(refused) if refused else ("--keep names it" if line in kept else None)
        if why is None and best is None:
            best = line
        elif why is not None:
            passed.append({"site": line.name, "ops": sorted(e["ops"]), "reason": why,
                           "wait_ms_per_step": round(e["total_ns"] * 1e-6 / max(1, steps), 6)})
    return best, passed

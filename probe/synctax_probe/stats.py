"""Paired block statistics: the method of docs/method.md in plain Python (no numpy).

A round holds one block of each style; a style's tax is the geometric mean of its paired ratios
(its block's step time over the baseline block's of the same round), with a bootstrap 95% interval
over rounds, the A/A control's interval as the noise floor, and a drift check on the baseline."""
from __future__ import annotations

import math
import random
from typing import Any, Dict, List, Optional, Sequence

BASELINE = "none"
CONTROL = "none_aa"

# Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom (the windows' intervals).
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042)


def median(values: Sequence[float]) -> float:
    s = sorted(values)
    n = len(s)
    if n == 0:
        return float("nan")
    return float(s[n // 2]) if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def _pct(log_ratio: float) -> float:
    return (math.exp(log_ratio) - 1.0) * 100.0


def bootstrap_interval(logs: Sequence[float], resamples: int, seed: int) -> Dict[str, float]:
    """Geometric-mean overhead (%) of paired log ratios and its bootstrap 95% interval."""
    n = len(logs)
    mean = math.fsum(logs) / n
    rng = random.Random(seed)
    boot = sorted(math.fsum(rng.choices(logs, k=n)) / n for _ in range(resamples))
    low = boot[max(0, int(resamples * 0.025) - 1)]
    high = boot[min(resamples - 1, int(resamples * 0.975) - 1)]
    return {"pct": _pct(mean), "ci_low": _pct(low), "ci_high": _pct(high)}


def t_interval(logs: Sequence[float]) -> Dict[str, Any]:
    """Geometric-mean overhead (%) with a Student's t 95% interval on the log ratios (cheap enough
    for many windows; the whole run's interval is the bootstrap's)."""
    n = len(logs)
    mean = math.fsum(logs) / n
    if n < 2:
        return {"pct": _pct(mean), "ci_low": None, "ci_high": None}
    sd = math.sqrt(math.fsum((x - mean) ** 2 for x in logs) / (n - 1))
    t = _T95[n - 2] if n - 1 <= len(_T95) else 1.96
    half = t * sd / math.sqrt(n)
    return {"pct": _pct(mean), "ci_low": _pct(mean - half), "ci_high": _pct(mean + half)}


def _logs(rounds: List[Dict[str, float]], style: str) -> List[float]:
    return [math.log(r[style] / r[BASELINE]) for r in rounds]


def _geomean(values: Sequence[float]) -> float:
    return math.exp(math.fsum(math.log(v) for v in values) / len(values))


def analyse(rounds: List[Dict[str, float]], styles: Sequence[str], resamples: int, seed: int,
            window_rounds: int) -> Dict[str, Any]:
    """rounds: complete rounds, each {style: ms per step}. styles: the styles compared with the
    baseline (the control among them)."""
    result: Dict[str, Any] = {"baseline": BASELINE, "control": CONTROL, "rounds": len(rounds)}
    if len(rounds) < 2:
        result["estimates"] = None
        result["reason"] = f"{len(rounds)} complete round(s); at least 2 are needed for an interval"
        return result
    estimates: Dict[str, Dict[str, Any]] = {}
    for i, style in enumerate(styles):
        # Each style its own resampling stream, fixed by the seed.
        est: Dict[str, Any] = dict(bootstrap_interval(_logs(rounds, style), resamples, seed + i))
        est["step_ms"] = _geomean([r[style] for r in rounds])
        est["naive_best_of_pct"] = (min(r[style] for r in rounds) / min(r[BASELINE] for r in rounds) - 1) * 100
        estimates[style] = est
    floor = estimates.get(CONTROL)
    for style, est in estimates.items():
        if style == CONTROL or floor is None:
            continue
        low, high = est["ci_low"], est["ci_high"]
        excludes_zero = low > 0 or high < 0
        clears_floor = low > floor["ci_high"] or high < floor["ci_low"]
        est["significant"] = bool(excludes_zero and clears_floor)
    result["estimates"] = estimates
    result["baseline_step_ms"] = _geomean([r[BASELINE] for r in rounds])
    if floor is not None:
        result["noise_floor"] = {"ci_low": floor["ci_low"], "ci_high": floor["ci_high"]}
    result["drift"] = drift(rounds, estimates)
    result["tax_drift"] = tax_drift(rounds, styles)
    result["windows"] = windows(rounds, styles, window_rounds)
    return result


def tax_drift(rounds: List[Dict[str, float]], styles: Sequence[str]) -> Dict[str, Dict[str, Any]]:
    """Each style's tax in the first half of the rounds against the second, flagged when their
    95% intervals do not meet: the tax itself moved during the run (the host's speed changes over
    minutes on a shared machine), so one number for the whole run hides it. Needs 3 rounds a half."""
    half = len(rounds) // 2
    out: Dict[str, Dict[str, Any]] = {}
    if half < 3:
        return out
    for style in styles:
        if style == CONTROL:
            continue
        first, second = t_interval(_logs(rounds[:half], style)), t_interval(_logs(rounds[half:], style))
        out[style] = {"first_half": first, "second_half": second,
                      "flagged": bool(first["ci_high"] < second["ci_low"] or second["ci_high"] < first["ci_low"])}
    return out


def drift(rounds: List[Dict[str, float]], estimates: Dict[str, Dict[str, Any]]) -> Dict[str, Any]:
    """The baseline's first half of rounds against its second half, flagged when it moved by more
    than the widest interval of the styles."""
    half = len(rounds) // 2
    first = _geomean([r[BASELINE] for r in rounds[:half]])
    second = _geomean([r[BASELINE] for r in rounds[half:]])
    pct = (second / first - 1.0) * 100.0
    width = max(float(e["ci_high"]) - float(e["ci_low"]) for e in estimates.values())
    return {"first_half_ms": first, "second_half_ms": second, "pct": pct, "threshold_pp": width,
            "flagged": abs(pct) > width}


def windows(rounds: List[Dict[str, float]], styles: Sequence[str], size: int) -> List[Dict[str, Any]]:
    """The tax per window of `size` rounds, in order: how it moves over the run. A last window
    shorter than half the size joins the one before."""
    bounds = list(range(0, len(rounds), size))
    if len(bounds) > 1 and len(rounds) - bounds[-1] < size / 2:
        bounds.pop()
    out = []
    for i, start in enumerate(bounds):
        end = bounds[i + 1] if i + 1 < len(bounds) else len(rounds)
        part = rounds[start:end]
        entry: Dict[str, Any] = {"first_round": start, "rounds": len(part),
                                 "baseline_step_ms": _geomean([r[BASELINE] for r in part])}
        entry.update({style: t_interval(_logs(part, style)) for style in styles})
        out.append(entry)
    return out


def shift(before: Sequence[float], after: Sequence[float], resamples: int, seed: int) -> Optional[Dict[str, Any]]:
    """How much slower (%) the blocks after an event ran than those before it: the ratio of their
    geometric means, with a bootstrap 95% interval that resamples each side on its own (the two
    sides cannot be paired: every block before comes before every block after). None with fewer
    than two blocks a side."""
    if len(before) < 2 or len(after) < 2:
        return None
    lb, la = [math.log(v) for v in before], [math.log(v) for v in after]
    rng = random.Random(seed)
    boot = sorted(math.fsum(rng.choices(la, k=len(la))) / len(la) - math.fsum(rng.choices(lb, k=len(lb))) / len(lb)
                  for _ in range(resamples))
    low = boot[max(0, int(resamples * 0.025) - 1)]
    high = boot[min(resamples - 1, int(resamples * 0.975) - 1)]
    mean = math.fsum(la) / len(la) - math.fsum(lb) / len(lb)
    return {"pct": _pct(mean), "ci_low": _pct(low), "ci_high": _pct(high), "before_blocks": len(before),
            "after_blocks": len(after), "before_ms": _geomean(before), "after_ms": _geomean(after)}

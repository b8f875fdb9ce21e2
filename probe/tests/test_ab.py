"""--ab item on a CPU loop: the numbers mean nothing here, the structure of the answer does."""
import itertools
import json
import os
import random

import pytest
import torch

from conftest import run_probe

ROUNDS = 6
BLOCK = 3
WARMUP = 3
AB = ["--ab", "item", "--warmup-steps", str(WARMUP), "--warmup-max-steps", str(WARMUP), "--profile-steps", "0",
      "--block-steps", str(BLOCK), "--block-ms", "0", "--window-rounds", "2", "--seed", "7"]
STEPS = WARMUP + ROUNDS * 4 * BLOCK + 2  # two steps of a seventh round, left out


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("ab") / "run")
    result = run_probe(["--out", out] + AB, "mlp_sgd.py", ["--steps", str(STEPS)])
    assert result.returncode == 0, result.stderr
    with open(os.path.join(out, "ab.json"), encoding="utf-8") as f:
        return out, result, json.load(f)


def test_rounds_in_seeded_random_orders(run):
    _, _, ab = run
    assert ab["seed"] == 7 and ab["rounds"] == ROUNDS and ab["resamples"] >= 2000
    rng = random.Random(7)
    styles = ("none", "none_aa", "item", "calib")
    expected = [rng.sample(styles, 4) for _ in range(ROUNDS + 1)]
    assert ab["orders"] == expected
    assert len({tuple(o) for o in ab["orders"]}) > 1
    assert ab["partial_rounds_dropped"] == 1
    assert ab["warmup_steps_dropped"] == WARMUP
    assert len(ab["round_ms_per_step"]) == ROUNDS
    assert all(set(r) == set(styles) and min(r.values()) > 0 for r in ab["round_ms_per_step"])


def test_estimates_intervals_floor_drift_and_windows(run):
    _, result, ab = run
    est = ab["estimates"]
    assert set(est) == {"item", "none_aa", "calib"}
    for e in est.values():
        assert e["ci_low"] <= e["pct"] <= e["ci_high"]
        assert e["text"].endswith("]") and "%" in e["text"]
    assert ab["noise_floor"] == {"ci_low": est["none_aa"]["ci_low"], "ci_high": est["none_aa"]["ci_high"]}
    assert isinstance(est["item"]["significant"], bool)
    assert set(ab["drift"]) == {"first_half_ms", "second_half_ms", "pct", "threshold_pp", "flagged"}
    windows = ab["windows"]
    assert [w["first_round"] for w in windows] == [0, 2, 4] and all(w["rounds"] == 2 for w in windows)
    assert all("item" in w and "none_aa" in w for w in windows)
    assert f"item {est['item']['text']} over {ROUNDS} rounds" in result.stderr
    assert ab["counted_styles"] == ["none", "none_aa", "item"]
    assert "every step timed" not in result.stderr  # no cost of its own that separate processes did not measure
    if not torch.cuda.is_available():
        assert ab["measures"] == "the Python cost of loss.item(): no device to wait for"
        assert "; no device: the Python cost of the call, not a sync)" in result.stderr
        assert "no call waits for a device here" in result.stderr


def test_item_added_only_in_item_blocks(run):
    """Calibration blocks are timed step by step; the A/B's other blocks are only counted, each
    item block's line saying how many items it added."""
    out, _, ab = run
    with open(os.path.join(out, "steps.jsonl"), encoding="utf-8") as f:
        steps = [json.loads(line) for line in f]
    with open(os.path.join(out, "end.json"), encoding="utf-8") as f:
        end = json.load(f)
    assert end["steps"] == STEPS == end["steps_written"] + end["steps_untimed"]
    assert len(steps) == end["steps_written"] == WARMUP + ROUNDS * BLOCK + (2 if ab["orders"][-1][0] == "calib" else 0)
    assert all(s["x_ns"] == 0 for s in steps)
    measured = steps[WARMUP:]
    for block, members in itertools.groupby(measured, key=lambda s: s["block"]):
        members = list(members)
        assert {s["style"] for s in members} == {"calib"}
        assert members[0]["round"] == block // 4
    with open(os.path.join(out, "blocks.jsonl"), encoding="utf-8") as f:
        blocks = [json.loads(line) for line in f]
    assert len(blocks) == ROUNDS * 4
    for b in blocks:
        assert b["timed"] == (b["style"] == "calib") and b["steps"] == BLOCK and b["ms_per_step"] > 0
        assert b.get("added_items", 0) == (BLOCK if b["style"] == "item" else 0), b
        assert ("f_ms" in b) == b["timed"]
    # Calibration blocks alone give phases.
    with open(os.path.join(out, "phases.csv"), encoding="utf-8") as f:
        rows = [line for line in f if line[0].isdigit()]
    assert len(rows) == sum(b["style"] == "calib" for b in blocks) == ROUNDS

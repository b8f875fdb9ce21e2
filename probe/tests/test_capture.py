"""The profiled capture between measured blocks: the loop before it against after it (what the
capture left behind), CUPTI's teardown arranged and undone, and an A/B kept to the rounds before
a capture that left the loop changed."""
import json
import os
from types import SimpleNamespace

import pytest

import synctax_probe
from synctax_probe import report, stats
from synctax_probe.blocks import BlockBook
from synctax_probe.capture import TEARDOWN, Capture
from synctax_probe.options import Options
from synctax_probe.schedule import BLOCK, BLOCK_END, BLOCK_START, CAPTURE_START, CAPTURE_STOP, PROFILE, Schedule
from test_attach import train


def test_the_capture_comes_after_whole_rounds_and_the_blocks_go_on_after_it():
    opts = Options(ab="item", warmup_steps=2, warmup_max_steps=2, profile_steps=2, capture_after_blocks=5,
                   settle_steps=1, block_steps=2, block_ms=0)
    s = Schedule(opts, profiling=True)
    events = [s.step_done(1000) for _ in range(2 + 8 * 2)]  # warm-up, two rounds of four blocks
    assert events[1] == BLOCK_START and s.stage == PROFILE and s.capture_block == 8
    assert events[-1] == BLOCK_END | CAPTURE_START  # five blocks asked for: the capture waits for the round's end
    assert [s.step_done(1000) for _ in range(3)] == [0, CAPTURE_STOP, BLOCK_START]
    assert s.stage == BLOCK and s.block == 8 and s.round == 2


def test_without_an_ab_the_capture_comes_after_as_many_blocks_as_asked():
    opts = Options(warmup_steps=0, warmup_max_steps=0, profile_steps=1, capture_after_blocks=3, settle_steps=0,
                   block_steps=2, block_ms=0)
    s = Schedule(opts, profiling=True)
    assert s.initial == BLOCK_START
    events = [s.step_done(1000) for _ in range(3 * 2 + 1)]
    assert events[5] == BLOCK_END | CAPTURE_START and events[6] == CAPTURE_STOP | BLOCK_START
    assert s.block == 3 and s.capture_block == 3


def test_the_capture_waits_while_the_loop_speeds_up_and_is_judged_on_the_blocks_just_before_it():
    answers = iter([True, True])  # still speeding up at the first two rounds' ends, then not
    opts = Options(ab="item", warmup_steps=0, warmup_max_steps=0, profile_steps=1, capture_after_blocks=8,
                   settle_steps=0, block_steps=2, block_ms=0)
    s = Schedule(opts, profiling=True, speeding_up=lambda: next(answers, False))
    events = [s.step_done(1000) for _ in range(16 * 2)]
    assert events[-1] == BLOCK_END | CAPTURE_START and events.count(BLOCK_END | CAPTURE_START) == 1
    assert s.capture_block == 16 and s.capture_waited_blocks == 8 and s.capture_loop_settled
    assert s.capture_window_block == 8  # the eight blocks just before it
    end = {"capture_after_effect": {"text": "+0.1% [-1.0, +1.2]", "after_blocks": 4, "before_blocks": 4},
           "capture_teardown": "", "capture_waited_blocks": 8, "capture_loop_settled": True}
    assert "taken 8 blocks later than asked, once the loop stopped speeding up" in report.capture_text(end, ab=True)


def test_a_loop_that_never_stops_speeding_up_is_captured_at_the_longest_wait_and_said():
    opts = Options(warmup_steps=0, warmup_max_steps=0, profile_steps=1, capture_after_blocks=3, settle_steps=0,
                   block_steps=2, block_ms=0)
    s = Schedule(opts, profiling=True, speeding_up=lambda: True)
    events = [s.step_done(1000) for _ in range(12 * 2)]
    assert events.index(BLOCK_END | CAPTURE_START) == 12 * 2 - 1  # CAPTURE_WAIT times 3 blocks
    assert s.capture_block == 12 and not s.capture_loop_settled and s.capture_window_block == 9
    end = {"capture_after_effect": {"text": "-5.0% [-7.0, -3.0]", "after_blocks": 3, "before_blocks": 3},
           "capture_teardown": "", "capture_waited_blocks": 9, "capture_loop_settled": False}
    assert "still speeding up when it was taken (9 blocks later than asked" in report.capture_text(end, ab=False)


def test_the_book_tells_a_loop_still_speeding_up():
    book = BlockBook(ab=True)
    book.baseline_before = [11.0, 11.1, 10.9, 11.0, 10.0, 10.1, 9.9, 10.0]
    assert book.speeding_up()
    book.baseline_before = [10.1, 10.0, 9.9, 10.0, 10.0, 10.1, 9.9, 9.95]
    assert not book.speeding_up()
    book.baseline_before = [11.0, 11.2, 10.0, 10.1, 10.0, 10.1]  # six blocks: three a side
    assert book.speeding_up()
    book.baseline_before = [11.0, 10.0, 10.0]  # too few blocks to tell
    assert not book.speeding_up()


def test_the_after_effect_is_judged_on_the_window_before_the_capture_only():
    probe = probe_with([14.0, 14.1, 13.9, 14.0, 10.0, 10.1, 9.9, 10.0], [10.0, 9.9, 10.1, 10.0], [False] * 3 + [True] * 6)
    probe.sched.capture_window_block = 4
    check = report.capture_check(probe)
    assert check["estimate"]["before_blocks"] == 4 and abs(check["estimate"]["pct"]) < 1
    assert not check.get("faster_after")


def test_a_run_says_what_the_capture_left_behind(tmp_path):
    folder = synctax_probe.attach(out=str(tmp_path / "run"), warmup_steps=2, warmup_max_steps=2, profile_steps=2,
                                  capture_after_blocks=4, settle_steps=1, block_steps=3, block_ms=0, quiet=True)
    try:
        train(2 + 4 * 3 + 2 + 1 + 4 * 3)
    finally:
        end = synctax_probe.detach()
    with open(os.path.join(folder, "blocks.jsonl"), encoding="utf-8") as f:
        blocks = [json.loads(line) for line in f]
    assert [b["after_capture"] for b in blocks] == [False] * 4 + [True] * 4
    assert end["profiled_steps"] == 2 and end["capture_first_step"] == 2 + 4 * 3 and end["trace"]
    effect = end["capture_after_effect"]
    # Blocks 1-3 and 5-7 are the loop as it is (none); 0 and 4 calibration blocks.
    assert effect["before_blocks"] == effect["after_blocks"] == 3
    assert effect["ci_low"] <= effect["pct"] <= effect["ci_high"]
    assert isinstance(end["capture_after_effect_flagged"], bool)
    assert end["capture_teardown"].startswith("no CUDA activity captured")


def test_a_run_too_short_for_blocks_after_the_capture_says_why(tmp_path):
    synctax_probe.attach(out=str(tmp_path / "run"), warmup_steps=2, warmup_max_steps=2, profile_steps=2,
                         capture_after_blocks=4, settle_steps=1, block_steps=3, block_ms=0, quiet=True)
    try:
        train(2 + 4 * 3 + 2 + 1)
    finally:
        end = synctax_probe.detach()
    assert end["capture_after_effect"] is None
    assert end["capture_after_effect_reason"] == "3 block(s) of the loop as it is before the capture and 0 after it: " \
                                                "at least 2 a side are needed"


def test_shift_is_the_ratio_of_the_two_sides():
    est = stats.shift([10.0, 10.0, 10.0], [11.0, 11.0, 11.0], 2000, 1)
    assert est["pct"] == pytest.approx(10.0) and est["ci_low"] == pytest.approx(10.0)
    assert stats.shift([10.0], [11.0, 12.0], 2000, 1) is None


def probe_with(before, after, rounds_after):
    """A probe as report's functions read it: a capture of 5 steps, the blocks' step times as given."""
    book = BlockBook(ab=True)
    book.baseline_before, book.baseline_after = before, after
    book.baseline_before_blocks = list(range(len(before)))
    for i, later in enumerate(rounds_after):
        book.rounds.append({"none": 10.0, "none_aa": 10.0, "item": 11.0 if not later else 10.1, "calib": 10.2 + i % 2})
        book.rounds_after_capture.append(later)
        book.round_steps.append(20)
    capture = SimpleNamespace(steps=5, teardown="TEARDOWN_CUPTI=1 set by the probe")
    return SimpleNamespace(capture=capture, book=book, opts=Options(ab="item"),
                           sched=SimpleNamespace(warmup_steps=30, orders=[None] * len(rounds_after),
                                                 capture_window_block=0), gpu=None,
                           cpu_mode=False)


def test_a_capture_that_left_the_loop_slower_keeps_the_ab_to_the_rounds_before_it():
    probe = probe_with([10.0, 10.1, 9.9, 10.0], [12.0, 12.1, 11.9, 12.0, 10.0], [False] * 3 + [True] * 6)
    check = report.capture_check(probe)
    assert check["flagged"] and check["estimate"]["after_blocks"] == 4  # as many after as before
    ab = report.ab_result(probe, check)
    assert ab["rounds"] == 3 and ab["rounds_from"] == "before the capture" and ab["rounds_before_capture"] == 3
    assert ab["estimates"]["item"]["pct"] == pytest.approx(10.0)
    end = {"capture_after_effect": check["estimate"], "capture_after_effect_flagged": True,
           "capture_teardown": check["teardown"]}
    assert "flagged: the capture left the loop changed, the A/B comes from the rounds before it" in \
        report.capture_text(end, ab=True)


def test_a_capture_that_left_nothing_keeps_every_round():
    probe = probe_with([10.0, 10.1, 9.9, 10.0], [10.0, 9.9, 10.1, 10.0], [False] * 3 + [True] * 6)
    check = report.capture_check(probe)
    assert not check["flagged"]
    ab = report.ab_result(probe, check)
    assert ab["rounds"] == 9 and ab["rounds_from"] == "all"


def test_teardown_is_asked_for_and_the_environment_put_back(tmp_path, monkeypatch):
    monkeypatch.delenv(TEARDOWN, raising=False)
    capture = Capture(None, str(tmp_path / "trace.json"), gz=False)
    capture._arrange_teardown(cuda=True)
    assert os.environ[TEARDOWN] == "1" and "set by the probe" in capture.teardown
    capture.restore_environment()
    assert TEARDOWN not in os.environ


def test_a_teardown_setting_of_the_user_is_left_as_it_is(tmp_path, monkeypatch):
    monkeypatch.setenv(TEARDOWN, "0")
    capture = Capture(None, str(tmp_path / "trace.json"), gz=False)
    capture._arrange_teardown(cuda=True)
    capture.restore_environment()
    assert os.environ[TEARDOWN] == "0" and "left as it was: CUPTI may stay on" in capture.teardown


def test_a_loop_faster_after_the_capture_is_no_after_effect_and_keeps_every_round():
    """Blocks before the capture that ran slower (the loop still speeding up) flag nothing."""
    probe = probe_with([12.0, 12.1, 11.9, 12.0], [10.0, 9.9, 10.1, 10.0], [False] * 3 + [True] * 6)
    check = report.capture_check(probe)
    assert not check["flagged"] and check["faster_after"]
    assert report.ab_result(probe, check)["rounds_from"] == "all"
    end = {"capture_after_effect": check["estimate"], "capture_after_effect_flagged": False,
           "capture_faster_after": True, "capture_teardown": check["teardown"]}
    assert "the loop ran faster after it: still speeding up before it" in report.capture_text(end, ab=True)


def test_a_loop_that_slows_as_much_without_the_capture_flags_nothing():
    """Blocks after the capture slower than before, but the loop goes on slowing as much with no
    capture between the next blocks: its own drift, no after-effect; a step that stays slower
    is one."""
    drifting = probe_with([10.0, 10.1, 9.9, 10.0], [12.0, 12.1, 11.9, 12.0, 14.4, 14.5, 14.3, 14.4],
                          [False] * 3 + [True] * 6)
    check = report.capture_check(drifting)
    assert check["within_drift"] and not check["flagged"]
    assert report.ab_result(drifting, check)["rounds_from"] == "all"
    end = {"capture_after_effect": check["estimate"], "capture_after_effect_flagged": False,
           "capture_within_drift": True, "capture_drift": check["drift"], "capture_teardown": check["teardown"]}
    assert "not flagged: the loop slowed +20.0% over as many blocks after it" in report.capture_text(end, ab=True)
    stuck = probe_with([10.0, 10.1, 9.9, 10.0], [13.0, 13.1, 12.9, 13.0, 13.0, 13.1, 12.9, 13.0],
                       [False] * 3 + [True] * 6)
    check = report.capture_check(stuck)
    assert check["flagged"] and not check["within_drift"]

"""The probe's parts without a training loop: the writer's queue, the statistics, the schedule."""
import json
import math
import random

import pytest

from synctax_probe import stats
from synctax_probe.options import Options
from synctax_probe.schedule import BLOCK, BLOCK_END, BLOCK_START, CAPTURE_START, CAPTURE_STOP, Schedule
from synctax_probe.writer import Writer


def open_writer(tmp_path, capacity):
    w = Writer(capacity, interval_s=0.01)
    w.open(str(tmp_path / "steps.jsonl"), str(tmp_path / "blocks.jsonl"), str(tmp_path / "phases.csv"),
           "F,B,O\n", lambda item: json.dumps({"step": item}) + "\n", lambda held: held)
    return w


def test_a_full_queue_drops_and_counts_never_blocks(tmp_path):
    w = open_writer(tmp_path, capacity=3)  # the thread not started: nothing drains the queue
    for i in range(10):
        w.put_step(i)
    assert w.dropped == 7
    w.put_block(({"block": 0}, "1.0,2.0,3.0\n"))  # blocks are never dropped
    assert w.close() is None
    with open(tmp_path / "steps.jsonl") as f:
        assert [json.loads(line)["step"] for line in f] == [0, 1, 2]
    assert w.written == 3
    assert (tmp_path / "phases.csv").read_text() == "F,B,O\n1.0,2.0,3.0\n"
    assert json.loads((tmp_path / "blocks.jsonl").read_text()) == {"block": 0}


def test_the_writer_thread_keeps_up(tmp_path):
    w = open_writer(tmp_path, capacity=100000)
    w.start()
    for i in range(20000):
        w.put_step(i)
    assert w.close() is None
    assert w.dropped == 0 and w.written == 20000


def test_a_failing_disk_is_reported_not_raised(tmp_path):
    w = open_writer(tmp_path, capacity=10)
    w._format_step = lambda item: 1 / 0
    w.put_step(1)
    failure = w.close()
    assert failure and "ZeroDivisionError" in failure


def rounds_with(tax, noise, n, seed=3):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        base = 10.0 * (1 + rng.uniform(-noise, noise))
        out.append({"none": base, "none_aa": base * (1 + rng.uniform(-noise, noise)),
                    "item": base * (1 + tax) * (1 + rng.uniform(-noise, noise)), "calib": base})
    return out


def test_a_clear_tax_is_significant_and_inside_its_interval():
    result = stats.analyse(rounds_with(0.10, 0.01, 40), ("item", "none_aa"), 2000, 1, 10)
    item, aa = result["estimates"]["item"], result["estimates"]["none_aa"]
    assert item["ci_low"] < 10.0 < item["ci_high"] and item["ci_high"] - item["ci_low"] < 2
    assert item["significant"]
    assert aa["ci_low"] < 0 < aa["ci_high"]
    assert result["noise_floor"] == {"ci_low": aa["ci_low"], "ci_high": aa["ci_high"]}
    assert [w["first_round"] for w in result["windows"]] == [0, 10, 20, 30]
    assert not result["drift"]["flagged"]
    assert not result["tax_drift"]["item"]["flagged"] and "none_aa" not in result["tax_drift"]


def test_exact_ratios_give_a_point_interval():
    rounds = [{"none": 2.0 + i, "none_aa": 2.0 + i, "item": (2.0 + i) * 1.25} for i in range(5)]
    est = stats.analyse(rounds, ("item", "none_aa"), 2000, 1, 10)["estimates"]
    assert est["item"]["pct"] == pytest.approx(25.0)
    assert est["item"]["ci_low"] == pytest.approx(25.0) and est["item"]["ci_high"] == pytest.approx(25.0)
    assert est["item"]["naive_best_of_pct"] == pytest.approx(25.0)


def test_a_tax_within_the_noise_floor_is_not_significant():
    result = stats.analyse(rounds_with(0.0, 0.05, 20), ("item", "none_aa"), 2000, 1, 10)
    assert not result["estimates"]["item"]["significant"]


def test_drift_of_the_baseline_is_flagged():
    rounds = [{"none": 10.0 * (1.5 if i >= 20 else 1.0), "none_aa": 10.0 * (1.5 if i >= 20 else 1.0),
               "item": 11.0 * (1.5 if i >= 20 else 1.0)} for i in range(40)]
    drift = stats.analyse(rounds, ("item", "none_aa"), 2000, 1, 10)["drift"]
    assert drift["pct"] == pytest.approx(50.0) and drift["flagged"]


def test_a_tax_that_moves_during_the_run_is_flagged():
    steady = rounds_with(0.04, 0.01, 20, seed=3)
    moved = rounds_with(0.08, 0.01, 20, seed=4)
    moves = stats.analyse(steady + moved, ("item", "none_aa"), 2000, 1, 10)["tax_drift"]["item"]
    assert moves["flagged"]
    assert moves["first_half"]["pct"] == pytest.approx(4.0, abs=1) and moves["second_half"]["pct"] == pytest.approx(8.0, abs=1)
    assert stats.analyse(steady[:5], ("item", "none_aa"), 2000, 1, 10)["tax_drift"] == {}


def test_too_few_rounds_say_why():
    result = stats.analyse(rounds_with(0.1, 0.01, 1), ("item",), 2000, 1, 10)
    assert result["estimates"] is None and "at least 2" in result["reason"]


def test_the_same_seed_gives_the_same_interval():
    rounds = rounds_with(0.05, 0.05, 30)
    a = stats.analyse(rounds, ("item", "none_aa"), 2000, 5, 10)
    b = stats.analyse(rounds, ("item", "none_aa"), 2000, 5, 10)
    assert a == b


def test_windows_follow_a_tax_that_moves():
    rounds = [{"none": 10.0, "none_aa": 10.0, "item": 10.0 * (1.05 if i < 10 else 1.15)} for i in range(20)]
    windows = stats.windows(rounds, ("item",), 10)
    assert [round(w["item"]["pct"], 6) for w in windows] == [5.0, 15.0]
    short = stats.windows(rounds[:13], ("item",), 10)
    assert [w["rounds"] for w in short] == [13]  # a last window under half the size joins the one before


def test_median():
    assert stats.median([3, 1, 2]) == 2 and stats.median([4, 1, 3, 2]) == 2.5 and math.isnan(stats.median([]))


def test_schedule_stages_and_rounds():
    opts = Options(ab="item", warmup_steps=3, warmup_max_steps=3, profile_steps=2, settle_steps=1, block_steps=2)
    s = Schedule(opts, profiling=True)
    events = [s.step_done(1000) for _ in range(3 + 2 + 1 + 16)]
    assert events[2] == CAPTURE_START and events[4] == CAPTURE_STOP and events[5] == BLOCK_START
    assert events[7] == events[9] == BLOCK_END | BLOCK_START
    assert s.stage == BLOCK and s.block == 8 and s.round == 2
    assert len(s.orders) == 3 and all(sorted(o) == ["calib", "item", "none", "none_aa"] for o in s.orders)


def test_warmup_runs_until_settled():
    opts = Options(warmup_steps=5, warmup_max_steps=100, profile_steps=0)
    s = Schedule(opts, profiling=False)
    times = [1000 * (60 - i) if i < 40 else 1000 for i in range(100)]
    for i, t in enumerate(times):
        if s.step_done(t) & BLOCK_START:
            break
    assert s.warmup_settled and 40 < s.warmup_steps < 100


def test_options_are_checked():
    Options().check()
    for bad in (dict(block_steps=1), dict(bootstrap=10), dict(ab="x"), dict(warmup_steps=10, warmup_max_steps=5),
                dict(queue_size=0), dict(seed=-1)):
        with pytest.raises(ValueError):
            Options(**bad).check()


class FakeEvent:
    """A CUDA event on a fake GPU that has passed `clock.done` recorded events."""

    def __init__(self, clock):
        self.clock, self.at = clock, None

    def record(self, stream=None):
        self.clock.recorded += 1
        self.at = self.clock.recorded

    def query(self):
        return self.at <= self.clock.done

    def synchronize(self):
        self.clock.done = max(self.clock.done, self.at)

    def elapsed_time(self, end):
        return float(end.at - self.at)  # one "ms" per recorded event


class FakeTorch:
    def __init__(self):
        import types
        clock = types.SimpleNamespace(recorded=0, done=0)
        self.clock = clock
        self._C = types.SimpleNamespace()
        self.cuda = types.SimpleNamespace(Event=lambda enable_timing: FakeEvent(clock), current_device=lambda: 99,
                                          current_stream=lambda: "stream")


def test_gpu_times_come_in_order_without_waiting():
    from synctax_probe import gputimer
    torch = FakeTorch()
    out = []
    timer = gputimer.GpuTimer(torch, lambda record, ms: out.append((record, ms)), pool=8)
    base = torch.clock.recorded  # the pool's events, recorded once when made
    for step in range(5):
        timer.mark(step, ("r", step))
    assert out == []  # the GPU has passed nothing yet: nothing is waited for
    torch.clock.done = base + 3
    timer.mark(5, ("r", 5))
    assert [r for r, _ in out] == [("r", 0), ("r", 1)]  # two a step at most
    assert out[0][1] is None and out[1][1] == 1.0  # the first step has no step before it
    timer.finish()
    assert [r for r, _ in out] == [("r", i) for i in range(6)]
    assert all(ms == 1.0 for _, ms in out[1:]) and timer.missed == 0
    gputimer._POOLS.clear()


def test_gpu_times_over_spans_share_the_span_out_in_order():
    from synctax_probe import gputimer
    torch = FakeTorch()
    out = []
    timer = gputimer.GpuTimer(torch, lambda record, ms: out.append((record, ms)), every=3, pool=8)
    base = torch.clock.recorded
    for step in range(9):  # spans end at steps 2, 5, 8: three events
        timer.mark(step, step)
    assert torch.clock.recorded == base + 3 and out == []
    torch.clock.done = base + 2
    timer.mark(9, 9)  # no event: a span's middle step polls nothing
    assert out == []
    for step in (10, 11):
        timer.mark(step, step)  # the span 9-11 ends: the first two spans are passed
    assert [r for r, _ in out] == list(range(6))
    # The first span has no start; the second's one "ms" is shared by its three steps.
    assert [ms for _, ms in out] == [None] * 3 + [1 / 3] * 3
    timer.mark(12, 12)  # after the last span's end: untimed at the finish
    timer.finish()
    assert [r for r, _ in out] == list(range(13))
    assert [ms for _, ms in out[6:]] == [1 / 3] * 6 + [None] and timer.missed == 0
    gputimer._POOLS.clear()


def test_a_block_end_ends_the_span():
    from synctax_probe import gputimer
    torch = FakeTorch()
    out = []
    timer = gputimer.GpuTimer(torch, lambda record, ms: out.append((record, ms)), every=8, pool=8)
    base = torch.clock.recorded
    timer.mark(0, 0)
    timer.mark(1, 1, span_end=True)  # a block's last step: an event, though the span is short
    assert torch.clock.recorded == base + 1
    for step in range(2, 10):
        timer.mark(step, step)
    assert torch.clock.recorded == base + 2  # the next span runs its full 8 steps
    timer.finish()
    assert [ms for _, ms in out] == [None, None] + [1 / 8] * 8
    gputimer._POOLS.clear()


def test_a_span_given_up_still_starts_the_next():
    from synctax_probe import gputimer
    torch = FakeTorch()
    out = []
    timer = gputimer.GpuTimer(torch, lambda record, ms: out.append((record, ms)), pool=3)
    base = torch.clock.recorded
    torch.clock.done = base + 1
    timer.mark(0, 0)
    timer.mark(1, 1)  # step 0 resolves (no start): it is the next span's start
    assert out == [(0, None)]
    for step in range(2, 5):
        timer.mark(step, step)  # the pool runs out at step 3: steps 1 and 2 are given up
    assert timer.missed == 2 and out[1:] == [(1, None), (2, None)]
    timer.finish()
    assert [r for r, _ in out] == list(range(5))
    assert [ms for _, ms in out[3:]] == [1.0, 1.0]  # step 3 timed from step 2's event
    gputimer._POOLS.clear()


def test_a_gpu_a_pool_behind_costs_its_oldest_times():
    from synctax_probe import gputimer
    torch = FakeTorch()
    out = []
    timer = gputimer.GpuTimer(torch, lambda record, ms: out.append((record, ms)), pool=4)
    for step in range(10):
        timer.mark(step, step)  # the GPU passes nothing
    assert timer.missed == 6 and [r for r, _ in out] == list(range(6))
    assert all(ms is None for _, ms in out)
    timer.finish()
    assert [r for r, _ in out] == list(range(10))
    assert [ms for _, ms in out[6:]] == [None, 1.0, 1.0, 1.0]
    gputimer._POOLS.clear()


def test_the_end_of_a_run_says_a_tax_that_moved(capsys):
    import types
    from synctax_probe import report
    steady = rounds_with(0.04, 0.01, 20, seed=3)
    moved = rounds_with(0.08, 0.01, 20, seed=4)
    ab = stats.analyse(steady + moved, ("item", "none_aa"), 2000, 1, 10)
    for est in ab["estimates"].values():
        est["text"] = "%+.1f%%" % est["pct"]
    ab["ab"] = "item"
    probe = types.SimpleNamespace(opts=Options(), folder="run")
    report._say({"message": "40 steps", "steps": 40, "steps_dropped": 0, "write_errors": []}, ab, probe)
    said = capsys.readouterr().err
    assert "synctax_probe: the tax moved during the run: +4." in said and "in the second" in said

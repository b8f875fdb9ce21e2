"""The probe's parts without a training loop: the writer's queue, the statistics, the schedule."""
import json
import math
import os
import random
import sys

import pytest

from synctax_probe import stats
from synctax_probe.options import Options
from synctax_probe.schedule import BLOCK, BLOCK_END, BLOCK_START, CAPTURE_START, CAPTURE_STOP, Schedule
from synctax_probe.blocks import STEP, Segment
from synctax_probe.writer import Writer


def open_writer(tmp_path, capacity):
    w = Writer(capacity, interval_s=0.01)
    w.open(str(tmp_path / "steps.jsonl"), str(tmp_path / "blocks.jsonl"), str(tmp_path / "phases.csv"),
           "F,B,O\n", run_start=0)
    return w


def segment(first, steps, block=None, style="calib"):
    """A closed segment of `steps` steps of 1 ms each (F 0.5, B 0.3, O 0.2), timed from 0."""
    seg = Segment(BLOCK if block is not None else "warmup", first,
                  {"block": block, "round": None, "style": style, "t_ms": 0.0} if block is not None else None)
    for i in range(first, first + steps):
        t = i * 1_000_000
        seg.rec.extend(STEP.pack(t, t + 500_000, t + 800_000, t + 1_000_000, t + 1_000_000))
    seg.closed = True
    if block is not None:
        seg.block.update(steps=steps, ms_per_step=1.0, drain_ms=0.0)
        seg.t0 = first * 1_000_000
    return seg


def test_a_writer_too_far_behind_drops_and_counts_never_blocks(tmp_path):
    w = open_writer(tmp_path, capacity=3)  # the thread not started: nothing drains
    w.put_segment(segment(0, 5, block=0))
    w.put_segment(segment(5, 5, block=1))  # 5 steps behind: more than 3
    assert w.close() is None
    with open(tmp_path / "steps.jsonl") as f:
        steps = [json.loads(line) for line in f]
    assert [s["step"] for s in steps] == [0, 1, 2, 3, 4] and w.written == 5 and w.dropped == 5
    assert steps[1]["f_ns"] == 500_000 and steps[1]["b_ns"] == 300_000 and steps[1]["o_ns"] == 200_000
    # blocks are never dropped: both blocks' lines and phases come out
    with open(tmp_path / "blocks.jsonl") as f:
        assert [json.loads(line)["block"] for line in f] == [0, 1]
    assert (tmp_path / "phases.csv").read_text() == "F,B,O\n0.5000,0.3000,0.2000\n0.5000,0.3000,0.2000\n"


def test_the_writer_thread_keeps_up(tmp_path):
    w = open_writer(tmp_path, capacity=100000)
    w.start()
    for i in range(2000):
        w.put_segment(segment(i * 10, 10))
    assert w.close() is None
    assert w.dropped == 0 and w.written == 20000
    with open(tmp_path / "steps.jsonl") as f:
        assert sum(1 for _ in f) == 20000


def test_a_failing_disk_is_reported_not_raised(tmp_path, monkeypatch):
    from synctax_probe import writer
    monkeypatch.setattr(writer, "step_lines", lambda *args: 1 / 0)
    w = open_writer(tmp_path, capacity=10)
    w.put_segment(segment(0, 2))
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
    opts = Options(ab="item", warmup_steps=3, warmup_max_steps=3, profile_steps=2, capture_after_blocks=0, settle_steps=1, block_steps=2, block_ms=0)
    s = Schedule(opts, profiling=True)
    events = [s.step_done(1000) for _ in range(3 + 2 + 1 + 16)]
    assert events[2] == CAPTURE_START and events[4] == CAPTURE_STOP and events[5] == BLOCK_START
    assert events[7] == events[9] == BLOCK_END | BLOCK_START
    assert s.stage == BLOCK and s.block == 8 and s.round == 2
    assert len(s.orders) == 3 and all(sorted(o) == ["calib", "item", "none", "none_aa"] for o in s.orders)


def test_schedule_told_of_several_steps_at_once_inside_a_block():
    """The probe tells the schedule of a block's steps at the block's end (or a GPU span's), in
    one call: the block still ends at its last step."""
    s = Schedule(Options(warmup_steps=0, warmup_max_steps=0, profile_steps=0, block_steps=5, block_ms=0), profiling=False)
    assert s.initial == BLOCK_START and s.block == 0
    assert s.step_done(1000, 3) == 0 and s.steps_in_block == 3
    assert s.step_done(1000, 2) == BLOCK_END | BLOCK_START and s.block == 1 and s.steps_in_block == 0


def test_blocks_last_block_ms_at_the_loop_s_speed_one_length_a_round():
    """At 1 ms a step, blocks of 100 ms hold 100 steps; the first round's length comes from the
    warm-up, later ones from the block before, and every block of a round is as long."""
    opts = Options(ab="item", warmup_steps=20, warmup_max_steps=20, profile_steps=0, block_steps=20, block_ms=100)
    s = Schedule(opts, profiling=False)
    for _ in range(20):
        event = s.step_done(1_000_000)
    assert event == BLOCK_START and s.block_len == 100
    lengths = {}
    step_ns = 1_000_000
    for r in range(3):
        for b in range(4):
            block, steps = s.block, s.block_len
            lengths.setdefault(s.round, set()).add(steps)
            for i in range(steps):
                event = s.step_done(step_ns, 1, (i + 1) * step_ns)
            assert event == BLOCK_END | BLOCK_START and s.block == block + 1
        step_ns = 4_000_000  # the loop slows down: 25 steps take 100 ms
    assert lengths[0] == {100} and lengths[1] == {100} and lengths[2] == {25}
    step_ns = 20_000_000  # slower than block_ms / block_steps: never fewer than block_steps
    for _ in range(4):
        for i in range(s.block_len):
            s.step_done(step_ns, 1, (i + 1) * step_ns)
    assert s.block_len == 20


def test_blocks_without_block_ms_hold_block_steps():
    s = Schedule(Options(warmup_steps=0, warmup_max_steps=0, profile_steps=0, block_steps=5, block_ms=0), profiling=False)
    for _ in range(3):
        for _ in range(5):
            event = s.step_done(1000, 1, 1000)
        assert event == BLOCK_END | BLOCK_START and s.block_len == 5


def test_warmup_runs_until_settled():
    opts = Options(warmup_steps=5, warmup_max_steps=100, profile_steps=0)
    s = Schedule(opts, profiling=False)
    times = [1000 * (60 - i) if i < 40 else 1000 for i in range(100)]
    for i, t in enumerate(times):
        if s.step_done(t) & BLOCK_START:
            break
    assert s.warmup_settled and 40 < s.warmup_steps < 100


def test_patches_put_back_only_those_asked_for_as_they_were():
    from synctax_probe.hooks import Patches

    class Base:
        def inherited(self):
            return "base"

    class Owner(Base):
        def own(self):
            return "own"

    patches = Patches()
    patches.set(Owner, "inherited", lambda self: "patched")
    patches.set(Owner, "own", lambda self: "patched")
    patches.restore(lambda owner, name: name == "inherited")
    assert "inherited" not in Owner.__dict__ and Owner().inherited() == "base"  # not set over Base's
    assert Owner().own() == "patched"
    patches.restore()
    assert Owner().own() == "own"


def test_options_are_checked():
    Options().check()
    for bad in (dict(block_steps=1), dict(bootstrap=10), dict(ab="x"), dict(warmup_steps=10, warmup_max_steps=5),
                dict(queue_size=0), dict(seed=-1), dict(gpu_span_ms=-1), dict(gpu_span_ms=float("nan")),
                dict(block_ms=-1), dict(block_ms=True),
                dict(gpu_span_ms="5")):
        with pytest.raises(ValueError):
            Options(**bad).check()


def test_the_command_line_has_every_option_with_its_default_and_bounds():
    """The parser is built from Options' fields: each field an option with the field's default, and a
    value past a field's bounds refused on the command line as attach() refuses it."""
    from dataclasses import fields

    from synctax_probe.__main__ import main, parser
    p = parser()
    defaults = vars(p.parse_args([]))
    for f in fields(Options):
        assert f.name in defaults, f.name
        assert defaults[f.name] == getattr(Options(), f.name), f.name
        bounds = f.metadata.get("bounds")
        if bounds is None:
            continue
        over = bounds[1] * 2 + 1 if f.metadata["unit"] == "N" else bounds[1] + 1
        with pytest.raises(SystemExit) as e:
            main(["--" + f.name.replace("_", "-"), str(over), "train.py"])
        assert e.value.code == 2, f.name
        with pytest.raises(ValueError):
            Options(**{f.name: over}).check()


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


@pytest.fixture(autouse=True)
def fresh_event_pools():
    from synctax_probe import gputimer
    yield
    gputimer._POOLS.clear()


def test_gpu_spans_resolve_in_order_without_waiting():
    from synctax_probe import gputimer
    torch = FakeTorch()
    timer = gputimer.GpuTimer(torch, 0, pool=8)
    base = torch.clock.recorded  # the pool's events, recorded once when made
    for n in (0, 3, 5, 9):  # spans of 3, 2 and 4 steps
        timer.mark(n)
    assert list(timer.spans) == [] and timer.resolved == 0  # the GPU has passed nothing: none waited for
    torch.clock.done = base + 3
    timer.mark(12)  # two events resolved a mark at most: the first is only the first span's start
    assert list(timer.spans) == [(0, 3, 1 / 3)] and timer.resolved == 3
    timer.finish()
    assert list(timer.spans)[1:] == [(3, 5, 1 / 2), (5, 9, 1 / 4), (9, 12, 1 / 3)]
    assert timer.resolved == 12 and timer.missed == 0


def test_a_span_already_ended_at_a_step_is_not_ended_twice():
    from synctax_probe import gputimer
    torch = FakeTorch()
    timer = gputimer.GpuTimer(torch, 4, pool=8)
    base = torch.clock.recorded
    timer.mark(4)
    timer.mark(4)
    assert torch.clock.recorded == base + 1


def test_a_gpu_a_pool_behind_gives_up_its_oldest_spans():
    from synctax_probe import gputimer
    torch = FakeTorch()
    timer = gputimer.GpuTimer(torch, 0, pool=3)
    for n in range(0, 10, 2):  # the GPU passes nothing: the pool runs out at the fourth mark
        timer.mark(n)
    assert timer.missed == 2 and list(timer.spans) == [(0, 2, None)]
    timer.finish()
    # the span after the one given up has no start; the next ones are timed
    assert list(timer.spans)[1:] == [(2, 4, None), (4, 6, 1 / 2), (6, 8, 1 / 2)] and timer.resolved == 8


def test_the_writer_gives_each_step_its_span_time(tmp_path):
    """Steps wait for their span's GPU time; steps before the timer started have none."""
    import types
    w = open_writer(tmp_path, capacity=1000)
    gpu = types.SimpleNamespace(spans=__import__("collections").deque([(2, 4, 0.5), (4, 7, 0.25)]), resolved=7)
    w.gpu = gpu
    w.put_segment(segment(0, 9, block=0))
    w._drain(final=False)
    assert w.written == 7  # steps 7 and 8 wait for their span
    w.gpu = None
    assert w.close() is None
    with open(tmp_path / "steps.jsonl") as f:
        times = [json.loads(line)["gpu_ms"] for line in f]
    assert times == [None, None, 0.5, 0.5, 0.25, 0.25, 0.25, None, None]
    with open(tmp_path / "blocks.jsonl") as f:
        block = json.loads(f.read())
    assert block["gpu_steps"] == 5 and block["gpu_ms_median"] == 0.25


def test_the_end_of_a_run_says_a_tax_that_moved(capsys):
    import types
    from synctax_probe import report
    steady = rounds_with(0.04, 0.01, 20, seed=3)
    moved = rounds_with(0.08, 0.01, 20, seed=4)
    ab = stats.analyse(steady + moved, ("item", "none_aa"), 2000, 1, 10)
    for est in ab["estimates"].values():
        est["text"] = "%+.1f%%" % est["pct"]
    ab["ab"] = "item"
    probe = types.SimpleNamespace(opts=Options(), folder="run", cpu_mode=False)
    report._say({"message": "40 steps", "steps": 40, "steps_dropped": 0, "write_errors": []}, ab, probe)
    said = capsys.readouterr().err
    assert "synctax_probe: the tax moved during the run: +4." in said and "in the second" in said


def test_a_site_names_the_call_that_syncs_and_the_user_line_that_led_there(tmp_path):
    """A sync inside a library (an installed package's logging, say) names the library's line and
    the user's own line that called it; one in the user's code names that line twice."""
    import importlib.util
    from synctax_probe.sites import SiteTable
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "fakelib.py").write_text("def log(table):\n    return table.site('item')\n")
    spec = importlib.util.spec_from_file_location("fakelib", lib / "fakelib.py")
    fakelib = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fakelib)
    table = SiteTable(("/nowhere/torch/",), library=(str(lib) + os.sep,))
    here = sys._getframe().f_lineno
    inside = fakelib.log(table)
    direct = table.site("item")
    d = inside.as_dict()
    assert (d["file"], d["line"], d["function"]) == (str(lib / "fakelib.py"), 2, "log")
    assert (d["user_file"], d["user_line"]) == (__file__, here + 1)
    d = direct.as_dict()
    assert (d["file"], d["line"]) == (d["user_file"], d["user_line"]) == (__file__, here + 2)
    assert fakelib.log(table) is not inside  # another user line: a site of its own

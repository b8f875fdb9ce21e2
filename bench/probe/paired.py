"""Paired blocks in rounds of random order, for the benchmarks beside it: each block starts and
ends with a synchronize (SyncTax's runner and the probe's --ab do the same), the answer is the
geometric mean of the paired ratios with a bootstrap 95% interval (the probe's own statistics)."""
import os
import random
import sys
import time

try:
    import synctax_probe  # noqa: F401  (installed)
except ImportError:  # from the checkout
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "probe"))
from synctax_probe import stats  # noqa: E402

from loops import synchronize  # noqa: E402


def timed_block(loop, steps, item=False):
    """ms per step of `steps` steps, from an idle GPU to the GPU done."""
    synchronize(loop.device)
    t0 = time.perf_counter_ns()
    for _ in range(steps):
        loop.step(item=item)
    synchronize(loop.device)
    return (time.perf_counter_ns() - t0) * 1e-6 / steps


def run_rounds(configs, rounds, seed, on_round=None):
    """configs: name -> function() returning one block's ms per step; "none" is the baseline.
    Returns the rounds ({name: ms}) and their orders."""
    rng = random.Random(seed)
    done, orders = [], []
    for r in range(rounds):
        order = rng.sample(sorted(configs), len(configs))
        orders.append(order)
        done.append({name: configs[name]() for name in order})
        if on_round:
            on_round(r, done)
    return done, orders


def estimate(rounds, styles, seed, window_rounds=10):
    return stats.analyse(rounds, styles, 2000, seed, window_rounds)


def text(est):
    return "%+.1f%% [%+.1f, %+.1f]" % (est["pct"], est["ci_low"], est["ci_high"])

#!/usr/bin/env python3
"""Compares two synctax results.json files of the same config, cell by cell: both estimates,
their difference, whether each run's 95% interval holds the other's estimate, and the same for
the naive best-of estimate computed from the same blocks. Prints a table and the goal checks."""
import json
import sys

GOALS_PP = {"tiny_mlp": 2.0}  # largest allowed |difference|, percentage points; 1.0 elsewhere


def cells(path):
    with open(path) as f:
        data = json.load(f)
    out = {}
    for c in data["cells"]:
        if c["status"] == "ok" and c["overhead_pct"] is not None:
            out[(c["model"], c["mode"], c["style"])] = c
    return data, out


def main(a_path, b_path):
    a_data, a = cells(a_path)
    b_data, b = cells(b_path)
    rows, contained, total, naive_diffs, worst, agree = [], 0, 0, [], {}, 0
    print(f"{'cell':44} {'run A':>22} {'run B':>22} {'|d|':>6} {'A~B':>4} {'naive A':>8} {'naive B':>8} {'|d|':>6}")
    for key in a:
        if key not in b:
            continue
        ea, eb = a[key]["overhead_pct"], b[key]["overhead_pct"]
        d = abs(ea["estimate"] - eb["estimate"])
        a_holds_b = ea["ci_low"] <= eb["estimate"] <= ea["ci_high"]
        b_holds_a = eb["ci_low"] <= ea["estimate"] <= eb["ci_high"]
        contained += a_holds_b + b_holds_a
        total += 2
        # Do the runs differ by more than their two intervals allow? The difference of two
        # independent estimates has the standard error sqrt(se_a^2 + se_b^2).
        se = lambda e: (e["ci_high"] - e["ci_low"]) / 2 / 1.96
        agree += d <= 1.96 * (se(ea) ** 2 + se(eb) ** 2) ** 0.5
        na, nb = a[key]["naive_best_of_pct"], b[key]["naive_best_of_pct"]
        nd = abs(na - nb)
        naive_diffs.append(nd)
        model = key[0]
        worst[model] = max(worst.get(model, 0.0), d)
        fmt = lambda e: f"{e['estimate']:+.2f} [{e['ci_low']:+.2f},{e['ci_high']:+.2f}]"
        print(f"{'/'.join(key):44} {fmt(ea):>22} {fmt(eb):>22} {d:6.2f} {('yy' if a_holds_b and b_holds_a else 'y' if a_holds_b or b_holds_a else '-'):>4} "
              f"{na:+8.2f} {nb:+8.2f} {nd:6.2f}")
    print()
    ok = True
    for model, d in worst.items():
        goal = GOALS_PP.get(model, 1.0)
        met = d <= goal
        ok &= met
        print(f"{model}: max |d| {d:.2f} pp (goal <= {goal:.0f}) {'met' if met else 'MISSED'}")
    share = contained / total if total else 0.0
    print(f"intervals holding the other run's estimate: {contained}/{total} = {share:.0%} (goal >= 90%) "
          f"{'met' if share >= 0.9 else 'MISSED'}")
    # Even exact 95% intervals of equal width hold an independent repeat's estimate only
    # P(|Z| < 1.96 / sqrt(2)) = 83% of the time: the repeat's estimate has its own error too.
    print("  (exact 95% intervals of equal width, independent runs: 83% expected)")
    print(f"differences within 1.96 x their standard error: {agree}/{total // 2} = {agree / (total // 2):.0%} "
          f"(95% expected when the runs differ only by the noise their intervals describe)")
    print(f"naive best-of: max |d| {max(naive_diffs):.2f} pp, mean |d| {sum(naive_diffs) / len(naive_diffs):.2f} pp")
    for name, data in (("A", a_data), ("B", b_data)):
        groups = ", ".join(f"{g['model']} {g['rounds']} rounds ({g['stop_reason']})" for g in data["groups"])
        print(f"run {name}: {data['duration_s']:.0f} s; {groups}")
    return 0 if ok and share >= 0.9 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))

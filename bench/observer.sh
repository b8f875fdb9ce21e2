#!/usr/bin/env bash
# The observer effect of per-step CUDA events on TinyMLP (the `observer` preset): the baseline with
# events against the baseline without them, interleaved in one run. Goal: at most 1%.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
OUT_DIR=${OUT:-/tmp/synctax-observer}
mkdir -p "$OUT_DIR"
"$BUILD/bin/synctax-run" run observer --out "$OUT_DIR/observer" >"$OUT_DIR/observer-table.txt" 2>/dev/null
rm -f "$OUT_DIR/observer/steps.csv"
python3 - "$OUT_DIR/observer/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cells = {c["style"]: c for c in r["cells"]}
bare = cells["none_no_events"]["overhead_pct"]  # uninstrumented vs instrumented baseline
ratio = 1 / (1 + bare["estimate"] / 100)
low, high = 1 / (1 + bare["ci_high"] / 100), 1 / (1 + bare["ci_low"] / 100)
print(f"instrumented / uninstrumented step time: {ratio:.4f} [{low:.4f}, {high:.4f}]"
      f" = {100 * (ratio - 1):+.2f}% (goal <= 1%: {'met' if ratio - 1 <= 0.01 else 'MISSED'})")
print(f"baseline {cells['none']['step_ms']['mean']:.3f} ms/step, without events "
      f"{cells['none_no_events']['step_ms']['mean']:.3f} ms/step; {r['groups'][0]['rounds']} rounds")
PY

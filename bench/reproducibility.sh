#!/usr/bin/env bash
# Runs a preset (default: seed) twice on the GPU and compares the runs cell by cell
# (bench/compare_runs.py). BUILD: the build folder with synctax-run. FIRST: an earlier run's
# output folder to use as run A instead of running it again.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build}
OUT_DIR=${OUT:-/tmp/synctax-repro}
PRESET=${PRESET:-seed}
mkdir -p "$OUT_DIR"
runs=(a b)
a="$OUT_DIR/repro-a"
if [ -n "${FIRST:-}" ]; then
    a=$FIRST
    runs=(b)
fi
for run in "${runs[@]}"; do
    start=$(date +%s)
    "$BUILD/bin/synctax-run" run "$PRESET" --out "$OUT_DIR/repro-$run" >"$OUT_DIR/repro-$run-table.txt" 2>/dev/null
    rm -f "$OUT_DIR/repro-$run/steps.csv"
    echo "run $run: $(($(date +%s) - start)) s wall"
done
python3 bench/compare_runs.py "$a/results.json" "$OUT_DIR/repro-b/results.json" | tee "$OUT_DIR/reproducibility.txt"

#!/usr/bin/env bash
# Runs a preset (default: seed) twice on the GPU and compares the runs cell by cell
# (bench/compare_runs.py): both estimates, their difference, whether each interval holds the
# other run's estimate, and the naive best-of estimates from the same blocks.
# BUILD: the build folder (synctax-run is built there when missing). OUT: where the runs go.
# RUNS: which of the two runs to make now ("a b" by default; "a" or "b" to split them over two
# calls). FIRST: an earlier run's output folder to use as run A. PROCESSES: spread each run over
# that many processes (synctax-run run --processes).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/synctax-gpu-build}
OUT_DIR=${OUT:-/tmp/synctax-repro}
PRESET=${PRESET:-seed}
RUNS=${RUNS:-"a b"}
mkdir -p "$OUT_DIR"
[ -x "$BUILD/bin/synctax-run" ] || scripts/gpu/validate.sh --only build --build "$BUILD" --out "$BUILD/validate"
a=${FIRST:-$OUT_DIR/repro-a}
for run in $RUNS; do
    start=$(date +%s)
    rc=0
    "$BUILD/bin/synctax-run" run "$PRESET" ${PROCESSES:+--processes "$PROCESSES"} --out "$OUT_DIR/repro-$run" \
        >"$OUT_DIR/repro-$run-table.txt" \
        2>"$OUT_DIR/repro-$run-stderr.txt" || rc=$?
    rm -f "$OUT_DIR/repro-$run/steps.csv" "$OUT_DIR"/repro-$run/process-*/steps.csv
    echo "run $run: exit $rc, $(($(date +%s) - start)) s wall"
done
if [ -f "$a/results.json" ] && [ -f "$OUT_DIR/repro-b/results.json" ]; then
    python3 bench/compare_runs.py "$a/results.json" "$OUT_DIR/repro-b/results.json" | tee "$OUT_DIR/reproducibility.txt"
fi

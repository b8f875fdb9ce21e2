#!/usr/bin/env bash
# On the GPU machine: the measurements the replay model is checked against.
#  1. ResNet-50 eager, `none` and `item`, at host work 0 to 45 ms per step (the middle regime),
#     one run per host work, each with its captured step (results: middle/host<US>.json).
#  2. The Python loops of scripts/whatif-traces.py: paired unprofiled measurements, then traces.
# Into $OUT/middle.tar.gz and $OUT/python.tar.gz.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/synctax-gpu-build}
OUT_DIR=${OUT:-$BUILD/out}
WORK=$BUILD/replay-check
HOST_WORKS=${HOST_WORKS:-0 5000 10000 15000 20000 30000 45000}
BUDGET_S=${BUDGET_S:-40}
mkdir -p "$OUT_DIR"
rm -rf "$WORK" && mkdir -p "$WORK/middle"
source scripts/gpu-build.sh

for h in $HOST_WORKS; do
    cat >"$WORK/middle-$h.yaml" <<YAML
synctax: 1
name: middle-host$h
description: resnet50 eager, none and item, host work $h us per step
device: auto
seed: 1
steps_per_block: 5
blocks: 5000
min_blocks: 20
target_ci_pp: 0.5
time_budget_s: $BUDGET_S
host_work_us: $h
warmup:
  min_steps: 20
  max_steps: 300
models: [resnet50]
styles: [none, item]
modes: [eager]
YAML
    "$BUILD/bin/synctax-run" run "$WORK/middle-$h.yaml" --out "$WORK/run-$h" --kineto "$WORK/run-$h/kineto" \
        2>"$WORK/run-$h.stderr" | grep -E '^item|replay:|regime' || true
    cp "$WORK/run-$h/results.json" "$WORK/middle/host$h.json"
done

rm -f "$WORK"/run-*/steps.csv
tar -C "$WORK" -czf "$OUT_DIR/middle.tar.gz" middle $(cd "$WORK" && ls -d run-*)

if [ "${PYTHON_LOOPS:-1}" = 1 ]; then
    python3 scripts/whatif-traces.py "$WORK/python" 2>&1 | grep -v -i warn | tee "$WORK/python.log"
    tar -C "$WORK" -czf "$OUT_DIR/python.tar.gz" python python.log
fi
ls -la "$OUT_DIR"

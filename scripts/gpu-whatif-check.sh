#!/usr/bin/env bash
# On the GPU machine: fresh Python loops for the what-if of `synctax-run trace`, then runs of the
# replay's presets. Builds; runs scripts/whatif-traces.py (RECORDINGS recordings of each trace,
# default 2) into $OUT/python.tar.gz; then the presets of PRESETS (default `seed@25`, as
# scripts/gpu-drain-check.sh reads them, steps kept) into $OUT/presets.tar.gz.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/gpu-build.sh # sets BUILD and OUT_DIR
final_out=$OUT_DIR
if [ "${PYTHON_LOOPS:-1}" = 1 ]; then
    rm -rf "$BUILD/python"
    t0=$(date +%s)
    PYTHONUNBUFFERED=1 python3 scripts/whatif-traces.py "$BUILD/python" --recordings "${RECORDINGS:-2}" ${WHATIF_ARGS:-} 2>&1 \
        | grep -v -i warn | tee "$BUILD/python.log"
    echo "python loops: $(($(date +%s) - t0)) s"
    cp "$BUILD/python.log" "$BUILD/python/"
    tar -C "$BUILD" -czf "$final_out/python.tar.gz" python
fi
if [ -n "${PRESETS-seed@25}" ]; then
    OUT=$BUILD/presets TESTS=${TESTS:-0} KEEP_STEPS=1 PRESETS="${PRESETS-seed@25}" scripts/gpu-drain-check.sh || true
    cp "$BUILD/presets/drain-check.tar.gz" "$final_out/presets.tar.gz"
fi
ls -la "$final_out"

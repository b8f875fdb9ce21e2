#!/usr/bin/env bash
# On the GPU machine, with Qt from .gpu-debs (../shared/gpu/fetch-debs.sh): build everything, the
# desktop app included, against the image's LibTorch. STAGES (comma-separated, default all):
#   test   every test, the gpu and ui labels included
#   oom    bench/oom-demo.yaml: one model runs out of memory, the other completes
#   gputest  only the tests labelled gpu
#   shots  the seed preset run live in the app: screenshot, results, exports, predicted vs measured
# Results, logs and screenshots go to $OUT (at most 8 files come back from there).
set -euo pipefail
cd "$(dirname "$0")/.."
source .gpu-debs/env.sh
BUILD=${BUILD:-$PWD/build-gpu}
OUT_DIR=${OUT:-$BUILD/out}
STAGES=${STAGES:-test,oom,shots}
mkdir -p "$OUT_DIR" "$BUILD/logs"
export CMAKE_POLICY_VERSION_MINIMUM=3.5
export XDG_DATA_HOME=$BUILD/xdg-data XDG_CONFIG_HOME=$BUILD/xdg-config XDG_RUNTIME_DIR=$BUILD/xdg-runtime
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
has() { [[ ",$STAGES," == *",$1,"* ]]; }

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader || true
t0=$(date +%s)
cmake -S . -B "$BUILD" "${GPU_CMAKE_ARGS[@]}" -DCMAKE_BUILD_TYPE=Release >"$BUILD/logs/configure.log" 2>&1 \
    || { tail -40 "$BUILD/logs/configure.log"; exit 1; }
grep 'SyncTax:' "$BUILD/logs/configure.log"
cmake --build "$BUILD" -j"$(nproc)" >"$BUILD/logs/build.log" 2>&1 \
    || { grep -A5 -E 'error|FAILED' "$BUILD/logs/build.log" | head -60; exit 1; }
echo "build: $(($(date +%s) - t0)) s"
status=0

if has test; then
    t=$(date +%s)
    (cd "$BUILD" && ctest --output-on-failure -j4 >"$OUT_DIR/ctest.log" 2>&1) || status=1
    grep -E 'tests passed|tests failed|\(Failed\)|\(SKIPPED\)|Not Run' "$OUT_DIR/ctest.log" || true
    echo "tests: $(($(date +%s) - t)) s"
fi

if has oom; then
    t=$(date +%s)
    set +e
    "$BUILD/bin/synctax-run" run bench/oom-demo.yaml --out "$BUILD/oom" >"$OUT_DIR/oom-table.txt" 2>"$BUILD/logs/oom-stderr.log"
    rc=$?
    set -e
    cat "$OUT_DIR/oom-table.txt"
    python3 - "$BUILD/oom/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for c in r["cells"]:
    print(f'{c["model"]:>10} {c["style"]:<16} {c["status"]:<7} {(c.get("error") or "")[:150]}')
PY
    echo "oom-demo: exit $rc (1 expected: a cell failed), $(($(date +%s) - t)) s"
fi

if has gputest; then
    t=$(date +%s)
    (cd "$BUILD" && ctest --output-on-failure -L gpu >"$OUT_DIR/ctest-gpu.log" 2>&1) || status=1
    grep -E 'tests passed|tests failed|\(Failed\)' "$OUT_DIR/ctest-gpu.log" || true
    echo "gpu tests: $(($(date +%s) - t)) s"
fi

if has shots; then
    # The seed preset run live in the app: the screenshot, its results (with the queue model's
    # predictions), and everything File > Export writes, the GPU timeline included.
    t=$(date +%s)
    exported=$BUILD/app-export
    rm -rf "$exported"
    "$BUILD/bin/synctax" --preset seed --run --cell small_resnet/eager/item \
        --screenshot "$OUT_DIR/app-seed-gpu.png" --results-out "$OUT_DIR/app-seed-gpu.json" \
        --export-charts "$exported" >"$BUILD/logs/app-seed.log" 2>&1 || status=1
    tail -3 "$BUILD/logs/app-seed.log"
    ls -la "$exported" || true
    cp "$exported/overhead.png" "$exported/queue.png" "$exported/report.pdf" "$OUT_DIR/" || status=1
    [ -f "$exported/trace.json" ] && gzip -c "$exported/trace.json" >"$OUT_DIR/trace.json.gz"
    "$BUILD/bin/synctax-run" simulate "$OUT_DIR/app-seed-gpu.json" | tee "$OUT_DIR/predicted-vs-measured.txt" || status=1
    echo "app run and exports: $(($(date +%s) - t)) s"
fi
exit $status

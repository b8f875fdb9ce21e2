#!/usr/bin/env bash
# On the GPU machine: build the runner and tests against the LibTorch inside the image's python
# torch (no Qt there), run the tests (TESTS: a ctest label, default gpu; `all` for every test),
# then a preset (seed).
# The test log and the preset's results go to $OUT when it is set, else to $BUILD/out; build logs
# and steps.csv stay in $BUILD.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/synctax-gpu-build}
OUT_DIR=${OUT:-$BUILD/out}
PRESET=${PRESET:-seed}
mkdir -p "$OUT_DIR" "$BUILD/logs"
export CMAKE_POLICY_VERSION_MINIMUM=3.5

torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
# The GPU image has no RapidJSON (header-only): carry Debian's headers in .gpu-deps/include
# (`mkdir -p .gpu-deps/include && cp -r /usr/include/rapidjson .gpu-deps/include/`).
extra_cmake=()
[ -d .gpu-deps/include/rapidjson ] && extra_cmake+=(-DRAPIDJSON_INCLUDE_DIR="$PWD/.gpu-deps/include")
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "devices", torch.cuda.device_count())'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv || true

t0=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$torch_prefix" \
    -DSYNCTAX_BUILD_GUI=OFF "${extra_cmake[@]}" >"$BUILD/logs/configure.log" 2>&1 || { tail -40 "$BUILD/logs/configure.log"; exit 1; }
grep 'SyncTax:' "$BUILD/logs/configure.log"
cmake --build "$BUILD" -j"$(nproc)" >"$BUILD/logs/build.log" 2>&1 || { grep -A5 -E 'error|FAILED' "$BUILD/logs/build.log" | head -60; exit 1; }
t1=$(date +%s)
echo "build: $((t1 - t0)) s"

TESTS=${TESTS:-gpu}
label=(-L "$TESTS")
[ "$TESTS" = all ] && label=()
(cd "$BUILD" && ctest "${label[@]}" --timeout 300 --output-on-failure -j4 >"$OUT_DIR/ctest.log" 2>&1) && tests=ok || tests=FAILED
t2=$(date +%s)
grep -E 'tests passed|tests failed|\(Failed\)|\(SKIPPED\)|Not Run' "$OUT_DIR/ctest.log" || true
(cd "$BUILD" && ctest -L gpu -N | tail -1)
echo "tests: $tests ($((t2 - t1)) s)"

out="$OUT_DIR/$PRESET"
"$BUILD/bin/synctax-run" run "$PRESET" --out "$out" 2>"$BUILD/logs/$PRESET-stderr.log" | tee "$out-table.txt"
rc=${PIPESTATUS[0]}
mv "$out/steps.csv" "$BUILD/logs/$PRESET-steps.csv"
t3=$(date +%s)
echo "$PRESET preset: exit $rc, $((t3 - t2)) s"
[ "$tests" = ok ] && [ "$rc" -eq 0 ]

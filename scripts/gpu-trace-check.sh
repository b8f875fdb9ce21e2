#!/usr/bin/env bash
# On the GPU machine: record torch.profiler traces of Python training loops (scripts/record-traces.py,
# with paired unprofiled measurements of each loop), build synctax-run against the image's LibTorch,
# and open every recorded trace with `synctax-run trace`. The traces, summaries and tables go to
# $OUT (a tarball and a log) when it is set, else to $BUILD/out.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/synctax-gpu-build}
OUT_DIR=${OUT:-$BUILD/out}
TRACES=${TRACES:-/tmp/synctax-traces}
mkdir -p "$OUT_DIR" "$BUILD/logs"
export CMAKE_POLICY_VERSION_MINIMUM=3.5 PYTHONUNBUFFERED=1
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
# The GPU image has no RapidJSON (header-only): carry Debian's headers in .gpu-deps/include
# (`mkdir -p .gpu-deps/include && cp -r /usr/include/rapidjson .gpu-deps/include/`).
extra_cmake=()
[ -d .gpu-deps/include/rapidjson ] && extra_cmake+=(-DRAPIDJSON_INCLUDE_DIR="$PWD/.gpu-deps/include")

# Build first, then record: a build beside the recording would take the host's CPUs from the
# loops being measured.
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$torch_prefix" \
    -DSYNCTAX_BUILD_GUI=OFF "${extra_cmake[@]}" >"$BUILD/logs/configure.log" 2>&1 || { tail -n 40 "$BUILD/logs/configure.log"; exit 1; }
cmake --build "$BUILD" -j"$(nproc)" --target synctax-run >"$BUILD/logs/build.log" 2>&1 ||
    { grep -A5 -E 'error|FAILED' "$BUILD/logs/build.log" | head -60; exit 1; }
if [ -z "${SKIP_RECORD:-}" ] || [ ! -d "$TRACES" ]; then
    rm -rf "$TRACES"
    python3 scripts/record-traces.py "$TRACES" 2>&1 | grep -v -i warn | tee "$OUT_DIR/record.log"
fi

runner=$BUILD/bin/synctax-run
log=$OUT_DIR/trace-check.log
: >"$log"
for f in $(find "$TRACES" -name '*.json*' -not -name measured.json -not -path '*/summaries/*' | sort); do
    name=$(basename "$(dirname "$f")")
    echo "### $name: $(basename "$f")" | tee -a "$log"
    "$runner" trace "$f" --out "$TRACES/summaries/$name" >>"$log" 2>&1 || echo "exit $?" | tee -a "$log"
done
echo "### ddp-gloo-2ranks together" | tee -a "$log"
"$runner" trace "$TRACES"/ddp-gloo-2ranks/*.json.gz --out "$TRACES/summaries/ddp-together" >>"$log" 2>&1 || echo "exit $?" | tee -a "$log"
tar -C "$TRACES" -czf "$OUT_DIR/traces.tar.gz" .
grep -E '^### |tax|sync' "$log" | head -80

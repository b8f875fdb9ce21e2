#!/usr/bin/env bash
# On the GPU machine: configure and build the runner and tests against the LibTorch inside the
# image's python torch (no Qt there). Sourced by the scripts/gpu-*-check.sh; leaves logs in $BUILD/logs.
# BUILD and OUT_DIR default here for the scripts that source this one: the build folder, and $OUT
# (the device's folder that comes back) where it is set.
BUILD=${BUILD:-/tmp/synctax-gpu-build}
OUT_DIR=${OUT:-$BUILD/out}
export CMAKE_POLICY_VERSION_MINIMUM=3.5
mkdir -p "$BUILD/logs" "$OUT_DIR"
torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
# The GPU image has no RapidJSON (header-only): carry Debian's headers in .gpu-deps/include
# (scripts/gpu-deps.sh fills .gpu-deps/).
extra_cmake=()
[ -d .gpu-deps/include/rapidjson ] && extra_cmake+=(-DRAPIDJSON_INCLUDE_DIR="$PWD/.gpu-deps/include")
# The pip wheel's torch ships c10d's headers but not Gloo's own, which ProcessGroupGloo.hpp includes
# (the Gloo code itself is inside libtorch_cpu). Where the image has none, carry Gloo's headers in
# .gpu-deps/gloo/include (scripts/gpu-deps.sh: a facebookincubator/gloo checkout's gloo/*.h and a
# written config.h).
torch_include=$(python3 -c 'import torch, os; print(os.path.join(os.path.dirname(torch.__file__), "include"))')
if [ -z "${NO_CARRIED_GLOO:-}" ] && [ ! -f "$torch_include/gloo/rendezvous/store.h" ] && [ -d .gpu-deps/gloo/include/gloo ]; then
    echo "gloo headers: from .gpu-deps/gloo ($(cat .gpu-deps/gloo/SOURCE 2>/dev/null))"
    extra_cmake+=(-DCMAKE_INCLUDE_PATH="$PWD/.gpu-deps/gloo/include")
fi
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda, "devices", torch.cuda.device_count())'
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv || true
build_t0=$(date +%s)
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$torch_prefix" \
    -DSYNCTAX_BUILD_GUI=OFF "${extra_cmake[@]}" >"$BUILD/logs/configure.log" 2>&1 || { tail -40 "$BUILD/logs/configure.log"; exit 1; }
grep 'SyncTax:' "$BUILD/logs/configure.log"
cmake --build "$BUILD" -j"$(nproc)" >"$BUILD/logs/build.log" 2>&1 || { grep -A5 -E 'error|FAILED' "$BUILD/logs/build.log" | head -60; exit 1; }
echo "build: $(($(date +%s) - build_t0)) s"

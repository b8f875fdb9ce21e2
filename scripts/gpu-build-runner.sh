#!/usr/bin/env bash
# On the GPU machine: configure and build the given targets (default synctax-run) against the
# LibTorch inside the image's python torch, without Qt. BUILD: the build folder; logs go to
# $BUILD/logs. Prints the build time; prints the first errors and fails when the build does.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD:-/tmp/synctax-gpu-build}
targets=("${@:-synctax-run}")
mkdir -p "$BUILD/logs"
export CMAKE_POLICY_VERSION_MINIMUM=3.5
t0=$(date +%s)
if [ ! -f "$BUILD/build.ninja" ]; then
    torch_prefix=$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')
    cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$torch_prefix" \
        -DSYNCTAX_BUILD_GUI=OFF >"$BUILD/logs/configure.log" 2>&1 || { tail -40 "$BUILD/logs/configure.log"; exit 1; }
fi
cmake --build "$BUILD" -j"$(nproc)" --target "${targets[@]}" >"$BUILD/logs/build.log" 2>&1 \
    || { grep -A5 -E 'error|FAILED' "$BUILD/logs/build.log" | head -60; exit 1; }
echo "build (${targets[*]}): $(($(date +%s) - t0)) s"

#!/bin/sh
# Builds trace-bench (not part of the project's build): ./build.sh [OUT_DIR], default /tmp/trace-bench
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-/tmp/trace-bench}
mkdir -p "$out"
for f in source read_rapidjson read_nlohmann read_simdjson main; do
    g++ -std=c++17 -O2 -DNDEBUG -Wall -Wextra -c "$here/$f.cpp" -o "$out/$f.o"
done
g++ -o "$out/trace-bench" "$out"/source.o "$out"/read_rapidjson.o "$out"/read_nlohmann.o \
    "$out"/read_simdjson.o "$out"/main.o -lsimdjson -lz
echo "$out/trace-bench"

#!/usr/bin/env bash
# Fuzzes the config loader with libFuzzer (clang, ASan + UBSan) for SECONDS (default 60), starting
# from the presets and the bad-config corpus. Crashing inputs land in build-fuzz/; add each one to
# tests/data/bad-configs/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-60}
out=build-fuzz
mkdir -p "$out/corpus"
[ -f build/resources/presetdata.cpp ] || { echo "build first (make build): the presets are generated there"; exit 2; }
cp resources/presets/*.yaml tests/data/bad-configs/*.yaml "$out/corpus/"
clang++ -std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. \
    tests/fuzz/fuzz_configloader.cpp core/configloader.cpp core/yamlchecker.cpp core/configerror.cpp core/presets.cpp \
    core/stylecatalog.cpp core/experimentconfig.cpp models/modelcatalog.cpp build/resources/presetdata.cpp \
    -lyaml-cpp -o "$out/fuzz_configloader"
cd "$out"
./fuzz_configloader -max_total_time="$SECONDS_TO_RUN" -max_len=4096 -timeout=5 -print_final_stats=1 corpus 2>&1 \
    | grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|ERROR|SUMMARY|Done' || true

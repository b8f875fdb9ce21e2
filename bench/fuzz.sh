#!/usr/bin/env bash
# Fuzzes the config loader, the results loader and the Kineto trace reader with libFuzzer (clang,
# ASan + UBSan) for SECONDS each (default 60), starting from the presets and the bad-config,
# bad-results and bad-trace (tests/data/traces/bad/) corpora.
# Crashing inputs land in build-fuzz/; add each one to its corpus in tests/data/ once fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_TO_RUN=${1:-60}
out=build-fuzz
[ -f build/resources/presetdata.cpp ] && [ -f build/core/simulationdata.cpp ] || { echo "build first (make build): the presets and simulations are generated there"; exit 2; }
mkdir -p "$out/config-corpus" "$out/results-corpus" "$out/kineto-corpus"
cp resources/presets/*.yaml tests/data/bad-configs/*.yaml "$out/config-corpus/"
cp tests/data/bad-results/*.json "$out/results-corpus/"
cp tests/data/traces/bad/*.json tests/data/traces/bad/*.gz "$out/kineto-corpus/"
# The fuzzers link the whole LibTorch-free core, every room of it, as the build does: no list to keep.
core=$(ls core/config/*.cpp core/steps/*.cpp core/queuemodel/*.cpp core/analysis/*.cpp core/files/*.cpp)
generated="build/resources/presetdata.cpp build/core/simulationdata.cpp"
flags="-std=c++17 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I. -Ibuild/core
    -include cmake/torchfree.h -fsanitize-ignorelist=tests/fuzz/ubsan-ignorelist.txt"
for target in configloader resultsloader kinetoreader; do
    clang++ $flags tests/fuzz/fuzz_$target.cpp $core $generated -lyaml-cpp -lz -o "$out/fuzz_$target"
done
cd "$out"
for target in configloader resultsloader kinetoreader; do
    case $target in
    kinetoreader) corpus=kineto-corpus ;;
    *) corpus=${target%loader}-corpus ;;
    esac
    echo "fuzz_$target, $SECONDS_TO_RUN s:"
    ./fuzz_$target -max_total_time="$SECONDS_TO_RUN" -max_len=16384 -timeout=5 -print_final_stats=1 "$corpus" 2>&1 \
        | grep -E 'stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|ERROR|SUMMARY|Done' || true
done

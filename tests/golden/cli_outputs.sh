#!/usr/bin/env bash
# Prints everything deterministic that synctax-run says: print-config of every preset and of the
# built-in simulation, the simulation, the sweep, and the message and exit code of every bad config
# and bad model entry,
# bad results file and input of the wrong kind (a directory, a config given to simulate).
# tests/golden/cli-outputs.txt holds what it printed; a change there is a change of behaviour.
# Usage: cli_outputs.sh RUNNER DATA_DIR
set -uo pipefail
# One order of files and one spelling of numbers, whatever the machine's locale.
export LC_ALL=C
runner=$1
data=$2
# Paths in messages are printed relative to the data folder, so the file is the same in any checkout.
cd "$data" || exit 2
show() {
    echo "### $*"
    "$runner" "$@" 2>&1
    echo "### exit $?"
}
for preset in $("$runner" presets | awk 'NR > 0 { print $1 }'); do
    show print-config "$preset"
done
show presets
show print-config teach-regimes
show simulate teach-regimes
show sweep
show sweep --d-ms 3 --l-us 40 --k 200 --steps-per-block 20
# Refused as a simulation file refuses the same values: exit 2, no CSV.
show sweep --d-ms nan
show sweep --k 0
show sweep --steps-per-block 1000000000
for f in bad-configs/*.yaml; do
    show validate "$f"
done
show validate bad-configs
# Configs that load but whose torchscript model fails its checks (the engine loads each file).
for f in bad-models/*.yaml; do
    show validate "$f"
done
show simulate bad-configs
show simulate configs/long-cpu.yaml
for f in bad-results/*; do
    case $f in *.expect) continue ;; esac
    show simulate "$f"
done

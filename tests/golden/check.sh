#!/usr/bin/env bash
# Fails when synctax-run's deterministic outputs differ from tests/golden/cli-outputs.txt, and shows
# how. After an intended change: tests/golden/cli_outputs.sh RUNNER tests/data > tests/golden/cli-outputs.txt
set -euo pipefail
here=$(dirname "$0")
diff -u "$here/cli-outputs.txt" <(bash "$here/cli_outputs.sh" "$1" "$2")

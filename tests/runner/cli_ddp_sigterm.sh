#!/usr/bin/env bash
# SIGTERM to the launcher of a data-parallel run (as a job scheduler sends it): it passes the stop
# on to the ranks, which end together at the end of a round; exit 130, every rank ok, and
# results.json keeps what they measured, marked stopped.
set -u
runner=$1 data=$2 work=$3
source "$(dirname "$0")/ddp_long_started.sh"
kill -TERM $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { echo "exit $rc, expected 130"; exit 1; }
grep -q '"stopped": true' "$work/results.json" || { echo "results.json is not marked stopped"; exit 1; }
# Each rank's entry: "rank": K, then (the keys are in order) its "status".
statuses=$(grep -A1 -E '^ +"rank": [0-9]+,$' "$work/results.json" | grep -c '"status": "ok"')
[ "$statuses" -eq 2 ] || { echo "$statuses of 2 ranks ok"; exit 1; }
for k in 0 1; do
    grep -q '"steps_measured": [1-9]' "$work/rank-$k/results.json" || { echo "rank $k lost its measured blocks"; exit 1; }
done
echo "a stopped data-parallel run kept every rank's results"

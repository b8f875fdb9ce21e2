#!/usr/bin/env bash
# Ctrl+C during a run: exit 130, and results.json holds what was measured, marked stopped.
set -u
runner=$1 data=$2 work=$3
rm -rf "$work"
"$runner" run "$data/configs/long-cpu.yaml" --out "$work" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 100); do
    [ "$(grep -c '"block"' "$work/journal.jsonl" 2>/dev/null || echo 0)" -ge 20 ] && break
    sleep 0.1
done
kill -INT $pid
wait $pid
rc=$?
[ $rc -eq 130 ] || { echo "exit $rc, expected 130"; exit 1; }
grep -q '"stopped": true' "$work/results.json" || { echo "results.json is not marked stopped"; exit 1; }
grep -q '"steps_measured": [1-9]' "$work/results.json" || { echo "results.json lost the measured blocks"; exit 1; }
tail -n 1 "$work/journal.jsonl" | grep -q '"type":"end"' || { echo "the journal has no end line"; exit 1; }
echo "interrupted run kept its results"

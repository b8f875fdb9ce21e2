# Sourced by the tests that signal a data-parallel launcher mid-run: starts ddp-long.yaml (a 300 s
# budget) in the background into $work and returns once rank 0 has journalled 10 blocks (or after
# 30 s). Expects runner, data and work set; leaves the launcher's pid in $pid.
rm -rf "$work"
"$runner" run "$data/configs/ddp-long.yaml" --out "$work" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 300); do
    blocks=$(grep -c '"block"' "$work/rank-0/journal.jsonl" 2>/dev/null)
    [ "${blocks:-0}" -ge 10 ] && break
    sleep 0.1
done

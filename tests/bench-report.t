#!/usr/bin/env bash
# Host test of the bench report: statistics, ratios, the event counts, and
# --check refusing output that is not well-formed.
# reads: scripts/bench-report.py
set -euo pipefail

report=$(cd "$(dirname "$0")/.." && pwd)/scripts/bench-report.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
expect() {	# expect DESCRIPTION CMD...: ok if CMD succeeds
	local what=$1; shift
	n=$((n + 1))
	if "$@" >/dev/null 2>&1; then echo "ok $n - $what"; else echo "not ok $n - $what"; failed=1; fi
}
json() {	# json EXPR: evaluate EXPR on results.json as r
	python3 -c "import json,sys; r=json.load(open('$tmp/out/results.json')); sys.exit(0 if ($1) else 1)"
}

{
	echo "info runs 4"
	for x in 1 2 3 4; do echo "sample start shim 0.$x"; echo "sample start runc $x"; echo "sample start unshare 0.1"; done
	echo "sample threads-latency shim/N4 0.001 0.002 0.003 0.100"
	echo "count threads-events shim/N4 4 4"
	echo "sample threads-memory-peak shim/N4 1048576 2097152 1572864 1048576"
	echo "note start crun: not installed in the guest"
} > "$tmp/tap"
echo "sample bpf-map_create token 2" > "$tmp/ref"
echo "sample bpf-map_create token 1 1 1 9" >> "$tmp/tap"
echo "sample bpf-map_create privileged 1 1 1 1" >> "$tmp/tap"

echo "1..11"
expect "a well-formed run passes --check" "$report" "$tmp/out" patched "$tmp/tap" --check
"$report" "$tmp/out" patched "$tmp/tap" --reference "$tmp/ref" > "$tmp/md"
expect "mean, p50 and p99 (nearest rank)" json 'abs(r["benchmarks"]["start"]["variants"]["runc"]["mean"] - 2.5) < 1e-9 and r["benchmarks"]["start"]["variants"]["runc"]["p50"] == 2 and r["benchmarks"]["start"]["variants"]["runc"]["p99"] == 4'
expect "σ is the sample standard deviation" json 'abs(r["benchmarks"]["start"]["variants"]["runc"]["sd"] - 1.2909944) < 1e-6'
expect "every value of a multi-value line is a sample" json 'r["benchmarks"]["threads-latency"]["variants"]["shim/N4"]["n"] == 4'
expect "ratios to the floor and to runc" json 'abs(r["benchmarks"]["start"]["ratios"]["shim/runc"] - 0.1) < 1e-9 and "shim/unshare" in r["benchmarks"]["start"]["ratios"]'
expect "the reference's token path beside ours" json 'abs(r["benchmarks"]["bpf-map_create"]["ratios"]["token/token@reference"] - 1.5) < 1e-9'
expect "a BPF ratio of medians beside the one of means" json 'abs(r["benchmarks"]["bpf-map_create"]["ratios"]["token/privileged"] - 3) < 1e-9 and r["benchmarks"]["bpf-map_create"]["ratios"]["token/privileged p50"] == 1'
expect "notes and event counts reach the table" grep -q 'crun: not installed' "$tmp/md"
expect "memory in bytes, shown in MiB" grep -q '| shim/N4 | 4 | 1.38 MiB |' "$tmp/md"
{ cat "$tmp/tap"; echo "sample start shim nan"; } > "$tmp/bad"
expect "a NaN fails --check" bash -c "! '$report' '$tmp/out2' patched '$tmp/bad' --check"
{ cat "$tmp/tap"; echo "note start runc-bpf: failed: hook exited 1"; } > "$tmp/failed"
expect "a variant that failed to run fails --check" bash -c "! '$report' '$tmp/out3' patched '$tmp/failed' --check"
exit $failed

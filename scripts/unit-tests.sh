#!/usr/bin/env bash
# Host-side tests (no QEMU): the pipeline's own tests in tests/ and the
# shim's unit tests. Writes "passed failed" to build/results/unit/summary.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out=$results_dir/unit
rm -rf "$out"; mkdir -p "$out"
passed=0 failed=0

# count LOG RC: add a test log's results (TAP lines, or cmocka's summary).
count() {
	local log=$1 rc=$2 p f
	p=$(grep -cE '^ok ' "$log" || true)
	f=$(grep -cE '^not ok ' "$log" || true)
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		p=$(sed -nE 's/^\[  PASSED  \] ([0-9]+) test.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
		f=$(sed -nE 's/^\[  FAILED  \] ([0-9]+) test.*/\1/p' "$log" | awk '{s += $1} END {print s + 0}')
	fi
	# A failing run that reported nothing still failed.
	[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || f=1
	[ "$rc" -ne 0 ] || [ "$p" -gt 0 ] || f=$((f + 1))
	passed=$((passed + p)); failed=$((failed + f))
	say "$(basename "$log" .log): $p passed, $f failed"
	[ "$f" -eq 0 ] || tail -n 40 "$log" >&2
}

for t in "$repo_root"/tests/*.t; do
	rc=0; bash "$t" > "$out/$(basename "$t").log" 2>&1 || rc=$?
	count "$out/$(basename "$t").log" $rc
done
if [ -f "$repo_root/runtime-shim/Makefile" ]; then
	# An output folder of its own, with the system's headers and libbpf:
	# make would not rebuild objects another build made with other flags
	# (the guests' shim is the Debian package's, scripts/deb.sh).
	rc=0; make -s -C "$repo_root/runtime-shim" test O="$build_dir/shim-host" KHDR= > "$out/shim.log" 2>&1 || rc=$?
	count "$out/shim.log" $rc
fi
echo "$passed $failed" > "$out/summary"

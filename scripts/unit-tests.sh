#!/usr/bin/env bash
# Host-side tests (no QEMU): the pipeline's own tests in tests/ and the
# shim's unit tests. Each one's log is build/results/unit/NAME.log; their
# test points make one TAP stream, build/results/unit/tap, which
# tally.sh counts with the guests' results.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out=$results_dir/unit
start=$SECONDS

# A passing run stands while its inputs are unchanged: every file of the
# checkout that git does not ignore, the patched tree's commit (the
# libbpf ABI test builds its tools/lib/bpf) and the host's packages.
# UNIT_RERUN=1 runs the tests anyway; outside a git checkout they always run.
inputs=$({ (cd "$repo_root" && git ls-files -co --exclude-standard -z | xargs -0r sha256sum) &&
	git -C "$build_dir/linux" rev-parse HEAD 2>/dev/null; dpkg-query -W; } | sha256sum | cut -c1-16) || inputs=""
if [ -n "$inputs" ] && [ -z "${UNIT_RERUN:-}" ] && [ "$(cat "$out/inputs" 2>/dev/null)" = "$inputs" ]; then
	say "unit tests: inputs unchanged since the passing run of $(date -r "$out/inputs" '+%F %T'): its results stand (UNIT_RERUN=1 runs them again)"
	exit 0
fi
rm -rf "$out"; mkdir -p "$out"

# points NAME LOG RC: the log's top-level test points as NAME's, and a
# failure of its own for a run that failed without saying which test did,
# or passed without a single test point (nothing ran, nothing counted).
points() {
	local name=$1 log=$2 rc=$3 p f
	p=$(grep -cE '^ok( |$)' "$log" || true)
	f=$(grep -cE '^not ok( |$)' "$log" || true)
	sed -nE "s/^(not )?ok( [0-9]+)?( -)? ?/\\1ok - $name: /p" "$log"
	[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || echo "not ok - $name: exited $rc without a failing test point"
	[ "$rc" -ne 0 ] || [ "$p" -gt 0 ] || echo "not ok - $name: no test point"
	say "$name: $p passed, $f failed"
	[ "$f" -eq 0 ] && [ "$rc" -eq 0 ] || tail -n 40 "$log" >&2
}

{
	for t in "$repo_root"/tests/*.t; do
		name=$(basename "$t")
		rc=0; bash "$t" > "$out/$name.log" 2>&1 || rc=$?
		points "$name" "$out/$name.log" $rc
	done
	if [ -f "$repo_root/runtime-shim/Makefile" ]; then
		# An output folder of its own, with the system's headers and libbpf
		# (the guests' shim is the Debian package's, scripts/deb.sh); the
		# shim's Makefile rebuilds whatever another build made with other
		# flags (O/.flags).
		rc=0; make -s -C "$repo_root/runtime-shim" test O="$build_dir/shim-host" KHDR= > "$out/shim.log" 2>&1 || rc=$?
		points shim "$out/shim.log" $rc
		# Every fuzz target on its seeds and for a few seconds (make fuzz
		# runs them for long): a seed that crashes again fails here.
		rc=0; make -s -C "$repo_root/runtime-shim" fuzz-smoke O="$build_dir/shim-fuzz" KHDR= > "$out/fuzz.log" 2>&1 || rc=$?
		points fuzz "$out/fuzz.log" $rc
	fi
} | awk '{ n++; sub(/ok - /, "ok " n " - "); print } END { print "1.." n }' > "$out/tap"
record_step unit-tests $((SECONDS - start))
[ -z "$inputs" ] || grep -q '^not ok' "$out/tap" || echo "$inputs" > "$out/inputs"

#!/usr/bin/env bash
# Host-side tests (no QEMU): the pipeline's own tests in tests/ and the
# shim's unit tests and fuzz smoke. Each one's log is
# build/results/unit/NAME.log; their test points make one TAP stream,
# build/results/unit/tap, which tally.sh counts with the guests' results.
#
# Each test stands while what it reads is unchanged since it passed
# (reuse_or_run, lib.sh): a test in tests/ reads the paths of its
# "# reads:" line, the shim's tests read runtime-shim/; every one also
# reads the host's packages and the patched tree's commit. UNIT_RERUN=1
# runs them all again.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out=$results_dir/unit
start=$SECONDS
mkdir -p "$out"
# Read by every test: the host's packages, the patched tree's commit
# (the libbpf ABI test builds its tools/lib/bpf).
common=$({ dpkg-query -W; git -C "$build_dir/linux" rev-parse HEAD; } 2>/dev/null | sha256sum | cut -c1-16)

# key PATH...: a hash of what a test reads: those paths (":tracked":
# every file of the checkout that git does not ignore) and the common.
key() {
	local p
	for p in "$@"; do
		if [ "$p" = :tracked ]; then
			(cd "$repo_root" && git ls-files -co --exclude-standard -z | xargs -0r sha256sum) | sha256sum | cut -c1-16
		else
			(cd "$repo_root" && hash_inputs "$p")
		fi
	done | { cat; echo "$common"; } | sha256sum | cut -c1-16
}

# reads TEST: the paths its "# reads:" line names (relative to the top).
reads() {
	local line
	line=$(sed -n 's/^# reads: *//p' "$1" | head -n 1)
	[ -n "$line" ] || die "${1#"$repo_root"/}: no \"# reads: PATH...\" line (what its result depends on)"
	echo "$line"
}

# run_test NAME CMD...: CMD's output is NAME's log; fails when it failed,
# said nothing, or passed without a test point.
run_test() {
	local name=$1 log=$out/$1.log rc=0 states
	shift
	"$@" > "$log" 2>&1 || rc=$?
	# Read whole, not piped into grep -q: its early exit would end the
	# reader with SIGPIPE, a failure under pipefail (a long log, a busy host).
	states=$(tap_points "$log" | cut -f 1)
	[ "$rc" -eq 0 ] && grep -qx pass <<<"$states" && ! grep -qx fail <<<"$states"
}

# points NAME RC: the log's top-level test points as NAME's, and a failure
# of its own for a run that failed without saying which test did, or
# passed without a single test point (nothing ran, nothing counted).
points() {
	local name=$1 log=$out/$1.log rc=$2 p f
	p=$(tap_points "$log" | grep -c '^pass' || true)
	f=$(tap_points "$log" | grep -c '^fail' || true)
	tap_points "$log" | while IFS=$'\t' read -r st text note; do
		[ "$st" != fail ] || printf 'not '
		[ "$st" != skip ] || note="SKIP $note"
		echo "ok - $name: $text${note:+ # $note}"
	done
	[ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || echo "not ok - $name: exited $rc without a failing test point"
	[ "$rc" -ne 0 ] || [ "$p" -gt 0 ] || echo "not ok - $name: no test point"
	say "$name: $p passed, $f failed"
	[ "$f" -eq 0 ] && [ "$rc" -eq 0 ] || tail -n 40 "$log" >&2
}

# unit NAME KEY CMD...: run NAME unless it passed with KEY; its points.
unit() {
	local name=$1 key=$2 rc=0
	shift 2
	reuse_or_run ${UNIT_RERUN:+--rerun} --needs "$out/$name.log" "unit/$name" "$key" \
		run_test "$name" "$@" >&2 || rc=$?
	points "$name" "$rc"
}

# In parallel, one more than there are cores: the pipeline's tests wait
# on stand-ins' time limits more than they compute. The two builds of the
# shim go first, the longest; each test's points go to a file of its own,
# joined in a fixed order, so that a test's numbers do not depend on which
# one finished first.
names=()
# spawn NAME KEY CMD...: unit, in the background, once a slot is free.
spawn() {
	while [ "$(jobs -rp | wc -l)" -gt "$(nproc)" ]; do wait -n || true; done
	unit "$@" > "$out/$1.points" &
}
if [ -f "$repo_root/runtime-shim/Makefile" ]; then
	# Every fuzz target on its seeds and for a few seconds (make fuzz
	# runs them for long): a seed that crashes again fails here.
	spawn fuzz "$(key runtime-shim)" make -s -C "$repo_root/runtime-shim" fuzz-smoke O="$build_dir/shim-fuzz" KHDR=
	# An output folder of its own, with the system's headers and libbpf
	# (the guests' shim is the Debian package's, scripts/deb.sh); the
	# shim's Makefile rebuilds whatever another build made with other
	# flags (O/.flags).
	spawn shim "$(key runtime-shim)" make -s -C "$repo_root/runtime-shim" test O="$build_dir/shim-host" KHDR=
fi
for t in "$repo_root"/tests/*.t; do
	name=$(basename "$t")
	names+=("$name")
	# shellcheck disable=SC2046 # one path a word
	spawn "$name" "$(key "tests/$name" $(reads "$t"))" bash "$t"
done
[ ! -f "$repo_root/runtime-shim/Makefile" ] || names+=(shim fuzz)
wait
for name in "${names[@]}"; do cat "$out/$name.points"; rm -f "$out/$name.points"; done |
	awk '{ n++; sub(/ok - /, "ok " n " - "); print } END { print "1.." n }' > "$out/tap"
record_step unit-tests $((SECONDS - start))

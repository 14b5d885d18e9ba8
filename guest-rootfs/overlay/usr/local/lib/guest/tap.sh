# The test points of a scenario script, in TAP: sourced by every
# scenario (scenarios/*/common.sh, or directly), never run.
# shellcheck shell=bash

tap_n=0
tap_failed=0

# ok RC TEXT...: a test point that passes when RC is 0.
ok() {
	local rc=$1; shift
	tap_n=$((tap_n + 1))
	if [ "$rc" -eq 0 ]; then
		echo "ok $tap_n - $*"
	else
		echo "not ok $tap_n - $*"
		tap_failed=1
	fi
}

# check TEXT CMD...: a test point that passes when CMD succeeds.
check() {
	local what=$1; shift
	local rc=0
	"$@" >/dev/null 2>&1 || rc=$?
	ok "$rc" "$what"
}

# skip TEXT REASON: a test point that did not run, and why ("unsupported:
# ..." for a feature the kernel lacks: scripts/tally.sh reads it).
skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - ${1:+$1 }# SKIP $2"
}

# diag TEXT: a comment in the stream, a "# " before each line (bash
# alone: a process is dear in a TCG guest).
diag() {
	local _lines
	mapfile -t _lines <<<"$*"
	printf '# %s\n' "${_lines[@]}"
}

# tap_done: end the script, failing when any test point failed.
tap_done() {
	exit "$tap_failed"
}

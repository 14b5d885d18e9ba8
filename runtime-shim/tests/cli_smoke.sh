#!/usr/bin/env bash
# The built shim's behaviour on bad input: exit 125 and the message, before
# any container exists.  Runs unprivileged-safe: nothing here gets that far.
set -euo pipefail
shim=${O:?}/shim
n=0 failed=0
expect() {
	local what=$1 want_rc=$2 want_msg=$3; shift 3
	local out rc=0
	out=$("$shim" "$@" 2>&1 >/dev/null) || rc=$?
	n=$((n + 1))
	if [ "$rc" -eq "$want_rc" ] && [[ $out == *"$want_msg"* ]]; then
		echo "ok $n - $what"
	else
		echo "not ok $n - $what"
		echo "#   exit $rc, stderr: $out"
		failed=1
	fi
}
echo "1..9"
expect "unknown option" 125 'shim: unknown option "--frob" (see shim --help)' run --frob --rootfs / true
expect "missing --rootfs" 125 'shim: run: --rootfs DIR is required' run true
expect "bad --net" 125 'shim: --net: unknown value "bridge" (valid: none, host)' run --net bridge --rootfs / true
expect "bad --uid-map" 125 'shim: --uid-map: invalid id map "1:2"' run --uid-map 1:2 --rootfs / true
expect "empty delegation element" 125 'shim: --bpf-delegate-maps=array,: empty element' run --bpf-delegate-maps=array, --rootfs / true
expect "missing rootfs dir" 125 'shim: --rootfs /nonexistent/rootfs: No such file or directory' run --rootfs /nonexistent/rootfs true
expect "bad seccomp file" 125 'shim: --seccomp: open /nonexistent/profile: No such file or directory' run --seccomp /nonexistent/profile --rootfs / true
n=$((n + 1))
if "$shim" --help | grep -q '^Usage: shim run \[OPTIONS\] --rootfs DIR \[--\] CMD \[ARGS...\]'; then
	echo "ok $n - --help prints the usage"; else echo "not ok $n - --help prints the usage"; failed=1; fi
n=$((n + 1))
if [[ $("$shim" --version) == "shim "[0-9]* ]]; then
	echo "ok $n - --version"; else echo "not ok $n - --version"; failed=1; fi
exit $failed

#!/usr/bin/env bash
# The man pages (help2man from each command's --help) render, with their
# name line and the sections users look for.
set -euo pipefail
man_dir=${O:?}/man
n=0 failed=0

expect() {	# expect PAGE TEXT...: the rendered PAGE contains each TEXT
	local page=$1 text out missing=""; shift
	out=$(MANWIDTH=100 man -l "$man_dir/$page" 2>&1) || { missing="(man -l failed: $out)"; }
	for text in "$@"; do
		[[ $out == *"$text"* ]] || missing+=" \"$text\""
	done
	n=$((n + 1))
	if [ -z "$missing" ]; then
		echo "ok $n - man $page renders with its name and sections"
	else
		echo "not ok $n - man $page: missing$missing"
		failed=1
	fi
}

echo "1..3"
expect shim.1 "shim - a container runtime" "shim run [OPTIONS] --rootfs DIR" "shim bpf-needs" \
	"--bpf-delegate-cmds=LIST" "Exit status" "EVENTS" "container-exit" "EXAMPLES" "SEE ALSO"
expect shim-hook-bpffs.8 "shim-hook-bpffs - OCI hook" "shim hook bpffs [--policy FILE]" "delegate_maps" \
	"Policy" "Refusals" "Where its messages go" "/etc/shim/bpffs-policy.conf" "EXAMPLES"
expect shim-bpf-needs.1 "shim-bpf-needs - the least BPF FS delegation" "--format FORMAT" "Formats" \
	"systemd" "lxd" "Exit status" "EXAMPLES"
exit $failed

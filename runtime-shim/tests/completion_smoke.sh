#!/usr/bin/env bash
# completion/shim under bash-completion: subcommands, option values and
# delegate_* lists complete as a user types them.
set -euo pipefail
source /usr/share/bash-completion/bash_completion
source "$(dirname "$0")/../completion/shim"
n=0 failed=0

# complete LINE: what _shim offers for the last word of LINE.
complete_line() {
	COMP_LINE=$1 COMP_POINT=${#1}
	read -ra COMP_WORDS <<<"$1"
	[[ $1 != *" " ]] || COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_shim shim "${COMP_WORDS[-1]}" "${COMP_WORDS[-2]}" 2>/dev/null || true
	echo "${COMPREPLY[*]}"
}
expect() {	# expect LINE WANT
	local got
	got=$(complete_line "$1")
	n=$((n + 1))
	if [ "$got" = "$2" ]; then
		echo "ok $n - completion of \"$1\": $got"
	else
		echo "not ok $n - completion of \"$1\": \"$got\", want \"$2\""
		failed=1
	fi
}

echo "1..10"
expect "shim " "run ps hook seccomp-profile bpf-needs --help --version"
expect "shim ps " "--help"
expect "shim run --userns " "auto auto:size="
expect "shim bpf-needs --format " "shim oci policy systemd incus lxd"
expect "shim run --net " "none host"
expect "shim hook " "bpffs"
expect "shim run --bpf-delegate-maps=ar" "array"
expect "shim run --wa" "--watch-threads"
expect "shim run --pids" "--pids-limit"
expect "shim run --pids-limit " "2048 -1"
exit $failed

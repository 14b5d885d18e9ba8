#!/usr/bin/env bash
# Host test of the project's shell: every tracked shell file (a bash or sh
# shebang, or a .sh name, as the sourced libraries have) is clean under
# `shellcheck -x -S warning`, run from the top of the tree so the
# `# shellcheck source=` paths resolve. New scripts are covered as they
# are added; one TAP point a file, its findings as diagnostics.
# reads: :tracked
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

# candidates: the tracked files; outside a git checkout, the files of the
# folders that hold the shell.
candidates() {
	git ls-files -z 2>/dev/null && return
	find .ci bench guest-rootfs runtime-shim scenarios scripts tests -type f -print0 2>/dev/null |
		LC_ALL=C sort -z
}

# is_shell FILE: a .sh file, one whose first line is a bash or sh shebang,
# or one that names its shell to shellcheck near the top (a bash
# completion script has no shebang).
is_shell() {
	[ -f "$1" ] || return 1
	case $1 in *.sh) return 0 ;; esac
	head -n 1 "$1" | LC_ALL=C grep -aqE '^#!.*[/[:space:]](ba)?sh([[:space:]]|$)' && return 0
	head -n 5 "$1" | LC_ALL=C grep -aqE '^# shellcheck shell=(ba)?sh'
}

if ! command -v shellcheck >/dev/null; then
	echo "1..1"; echo "not ok 1 - shellcheck is installed (scripts/install-deps.sh)"; exit 1
fi
files=()
while IFS= read -r -d '' f; do
	is_shell "$f" && files+=("$f")
done < <(candidates)
if [ ${#files[@]} -eq 0 ]; then
	echo "1..1"; echo "not ok 1 - shell files found in $repo"; exit 1
fi

# A file found clean stands while it, the files it sources (its
# "# shellcheck source=" lines, and theirs) and shellcheck are unchanged:
# one changed scenario is one file to check.
clean=${BUILD_DIR:-$repo/build}/reuse/shellcheck
mkdir -p "$clean"
version=$(shellcheck --version | sed -n 's/^version: //p')
# sources FILE: FILE and what it sources, recursively, each once.
sources() {
	local f=$1 s
	[[ " $seen " == *" $f "* ]] && return 0
	seen+=" $f"
	echo "$f"
	for s in $(sed -n 's/^[[:space:]]*# shellcheck source=\([^ ]*\).*/\1/p' "$f"); do
		[ -f "$s" ] && sources "$s"
	done
	return 0
}
keys=() todo=()
for i in "${!files[@]}"; do
	seen=""
	keys[i]=$({ echo "$version"; sources "${files[$i]}" | xargs sha256sum; } | sha256sum | cut -c1-32)
	[ -e "$clean/${keys[i]}" ] || todo+=("$i")
done

# Every file to check at once, each shellcheck writing its findings and
# status to files of its own (named by the file's index); the report
# keeps the order.
for i in "${todo[@]}"; do printf '%s\0%s\0' "$i" "${files[$i]}"; done |
	xargs -0 -r -n 2 -P "$(nproc)" sh -c 'shellcheck -x -S warning -f gcc "$3" > "$1/$2" 2>&1; echo $? > "$1/$2.rc"' sh "$tmp"

echo "1..${#files[@]}"
echo "# ${#todo[@]} files checked, $((${#files[@]} - ${#todo[@]})) unchanged since found clean"
for i in "${!files[@]}"; do
	n=$((n + 1))
	if [ -e "$clean/${keys[i]}" ]; then echo "ok $n - shellcheck ${files[$i]} # unchanged since clean"
	elif [ "$(cat "$tmp/$i.rc" 2>/dev/null)" = 0 ] && [ ! -s "$tmp/$i" ]; then
		echo "ok $n - shellcheck ${files[$i]}"
		: > "$clean/${keys[i]}"
	else echo "not ok $n - shellcheck ${files[$i]}"; sed 's/^/# /' "$tmp/$i" 2>/dev/null; failed=1; fi
done
exit $failed

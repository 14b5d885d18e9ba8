#!/usr/bin/env bash
# Unpack Debian's linux-source-6.1 into build/linux as a git repository
# (tag "pristine") and apply kernel-series/series on top as commits.
# The tree is unpacked once; a changed series only rewrites the files the
# patches touch, so make rebuilds just those.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

tarball=/usr/src/linux-source-6.1.tar.xz
tree=$build_dir/linux
series_dir=$repo_root/kernel-series
export GIT_AUTHOR_NAME="kernel-series" GIT_AUTHOR_EMAIL="kernel-series@localhost"
export GIT_COMMITTER_NAME="kernel-series" GIT_COMMITTER_EMAIL="kernel-series@localhost"

# run_logged calls this in a condition, where set -e is off: every step
# returns on failure, or a half-unpacked tree would become build/linux.
unpack() {
	[ -f "$tarball" ] || die "$tarball missing: run 'make deps'"
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	# The tarball is in blocks: xz decompresses them on every core.
	xz -dc -T0 "$tarball" | tar -C "$tree.tmp" --strip-components=1 -x || return
	git -C "$tree.tmp" init -q || return
	# No background gc: it would inherit and hold the build lock.
	git -C "$tree.tmp" config gc.auto 0 || return
	git -C "$tree.tmp" add -A -f . || return
	git -C "$tree.tmp" commit -q -m "Debian linux-source-6.1 $(dpkg-query -W -f='${Version}' linux-source-6.1)" || return
	git -C "$tree.tmp" tag pristine || return
	mv "$tree.tmp" "$tree"
}

series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series_dir/series" | grep -v '^$' || true
}

# Build the series' commits in a private index, without touching the work
# tree, then check the result out: git rewrites only the files that differ
# from what is checked out now, so make rebuilds only those.
apply_series() {
	local patch parent info msg tree_id
	export GIT_INDEX_FILE=$tree/.git/series-index
	git -C "$tree" read-tree pristine
	parent=$(git -C "$tree" rev-parse pristine)
	info=$(mktemp -d)
	while read -r patch; do
		[ -f "$series_dir/$patch" ] || die "series names $patch, which does not exist"
		if ! git -C "$tree" apply --cached "$series_dir/$patch" 2>"$info/err"; then
			echo "patch $patch does not apply:" >&2
			cat "$info/err" >&2
			git -C "$tree" apply --cached --check -v "$series_dir/$patch" 2>&1 |
				sed -n '/while searching for/,$p' | head -n 40 >&2
			rm -rf "$info"
			die "applying kernel-series/$patch failed"
		fi
		tree_id=$(git -C "$tree" write-tree)
		git mailinfo "$info/msg" /dev/null < "$series_dir/$patch" > "$info/head"
		msg=$(sed -n 's/^Subject: //p' "$info/head"; echo; cat "$info/msg")
		parent=$(git -C "$tree" commit-tree "$tree_id" -p "$parent" -m "$msg")
	done < <(series_patches)
	rm -rf "$info"
	unset GIT_INDEX_FILE
	git -C "$tree" checkout -q -f -B series "$parent"
	say "kernel tree: $(series_patches | wc -l) patches applied"
}

main() {
	local key
	# A tree unpacked afresh has none of the series.
	[ -d "$tree/.git" ] || { run_logged kernel-unpack unpack; reuse_forget kernel-series; }
	# shellcheck disable=SC2046 # one patch file a word
	key=$(cd "$series_dir" && hash_inputs series $(series_patches))
	reuse_or_run kernel-series "$key" apply_series
}

with_lock kernel main

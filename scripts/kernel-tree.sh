#!/usr/bin/env bash
# Unpack Debian's linux-source-6.1 into build/linux as a git repository
# (tag "pristine") and apply kernel-series/series on top as commits.
# The tree is unpacked once; a changed series only rewrites the files the
# patches touch, so make rebuilds just those.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

tarball=/usr/src/linux-source-6.1.tar.xz
tree=$build_dir/linux
series_dir=$repo_root/kernel-series
export GIT_AUTHOR_NAME="kernel-series" GIT_AUTHOR_EMAIL="kernel-series@localhost"
export GIT_COMMITTER_NAME="kernel-series" GIT_COMMITTER_EMAIL="kernel-series@localhost"

unpack() {
	[ -f "$tarball" ] || die "$tarball missing: run 'make deps'"
	rm -rf "$tree.tmp"
	mkdir -p "$tree.tmp"
	tar -C "$tree.tmp" --strip-components=1 -xf "$tarball"
	git -C "$tree.tmp" init -q
	# No background gc: it would inherit and hold the build lock.
	git -C "$tree.tmp" config gc.auto 0
	git -C "$tree.tmp" add -A -f .
	git -C "$tree.tmp" commit -q -m "Debian linux-source-6.1 $(dpkg-query -W -f='${Version}' linux-source-6.1)"
	git -C "$tree.tmp" tag pristine
	mv "$tree.tmp" "$tree"
}

series_patches() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series_dir/series" | grep -v '^$' || true
}

apply_series() {
	local patch
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" checkout -q -f -B series pristine
	while read -r patch; do
		[ -f "$series_dir/$patch" ] || die "series names $patch, which does not exist"
		if ! git -C "$tree" am -q --keep-cr "$series_dir/$patch" >/dev/null 2>&1; then
			git -C "$tree" am --abort >/dev/null 2>&1 || true
			echo "patch $patch does not apply:" >&2
			git -C "$tree" apply --check -v "$series_dir/$patch" 2>&1 | sed -n '/error:/,$p' | head -n 40 >&2
			rm -f "$tree/.series-applied"
			die "applying kernel-series/$patch failed"
		fi
	done < <(series_patches)
}

main() {
	[ -d "$tree/.git" ] || run_logged kernel-unpack unpack
	local want have=""
	want=$(cd "$series_dir" && hash_inputs series $(series_patches))
	[ -f "$tree/.series-applied" ] && have=$(cat "$tree/.series-applied")
	if [ "$want" = "$have" ]; then
		say "kernel tree: series unchanged ($(series_patches | wc -l) patches)"
		return
	fi
	say "kernel tree: applying $(series_patches | wc -l) patches"
	apply_series
	echo "$want" > "$tree/.series-applied"
}

with_lock kernel main

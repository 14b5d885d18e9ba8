#!/usr/bin/env bash
# Review checks for kernel-series: every patch is clean under checkpatch
# (--strict --no-signoff) and, with --build, the kernel builds after each
# patch in turn (bisectability), in a worktree of its own.
# Usage: series-check.sh [--build]
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

tree=$build_dir/linux
series_dir=$repo_root/kernel-series
[ -d "$tree/.git" ] || die "no kernel tree: run 'make kernel-tree'"
mapfile -t patches < <(sed -e 's/#.*//' -e 's/[[:space:]]*$//' "$series_dir/series" | grep -v '^$' || true)

# checkpatch false positives that a patch's README row explains, as
# "NNNN TYPE" lines (TYPE as --show-types prints it): only that message
# type, only in that patch, is let through.
accepted=$series_dir/checkpatch-accepted
bad=0
for p in "${patches[@]}"; do
	# GIT_DIR: the upstream commits a message names are not in any local
	# repository; checkpatch checks their format, not their existence
	# (without a repository it would call every one of them unknown).
	out=$(GIT_DIR=/nonexistent perl "$tree/scripts/checkpatch.pl" --strict --no-signoff --terse --no-tree --show-types \
		--ignore UNKNOWN_COMMIT_ID \
		"$series_dir/$p" 2>&1 || true)
	while read -r num type _; do
		[ "${p%%-*}" = "$num" ] && out=$(grep -v ":$type:" <<<"$out" || true)
	done < <(sed -e 's/#.*//' "$accepted" 2>/dev/null | grep -v '^[[:space:]]*$' || true)
	if grep -qE '(ERROR|WARNING|CHECK):' <<<"$out"; then
		echo "checkpatch: $p"; grep -E '(ERROR|WARNING|CHECK):' <<<"$out" | sed 's/^/  /'
		bad=1
	fi
done
[ $bad -eq 0 ] && say "checkpatch: ${#patches[@]} patches clean"
[ "${1:-}" = --build ] || exit $bad

work=$build_dir/series-check
export CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=$work
if [ ! -d "$work" ]; then
	git -C "$tree" worktree add -q --detach "$work" pristine
fi
git -C "$work" checkout -q -f --detach pristine
"$repo_root/scripts/kernel-config.sh" "$work/out-bisect"
for p in "${patches[@]}"; do
	git -C "$work" am -q "$series_dir/$p" || die "$p does not apply"
	# What the patch touches is built: the kernel, and libbpf for tools/.
	changed=$(git -C "$work" diff --name-only HEAD~1)
	if grep -qv '^tools/' <<<"$changed"; then
		run_logged "bisect-${p%%-*}" make -C "$work" O="$work/out-bisect" -j"${JOBS:-$(nproc)}" \
			CC="ccache gcc" HOSTCC="ccache gcc" vmlinux
	fi
	if grep -q '^tools/' <<<"$changed"; then
		mkdir -p "$work/out-libbpf"
		run_logged "bisect-${p%%-*}-libbpf" make -C "$work/tools/lib/bpf" -j"${JOBS:-$(nproc)}" \
			OUTPUT="$work/out-libbpf/" CC="ccache gcc" BUILD_STATIC_ONLY=1 "$work/out-libbpf/libbpf.a"
	fi
done
say "bisect: the tree builds after each of the ${#patches[@]} patches"
exit $bad

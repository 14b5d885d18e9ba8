#!/usr/bin/env bash
# Build the patched guest kernel (bzImage), install its UAPI headers and
# build the tree's libbpf as a static library for guest userspace.
# Usage: kernel-build.sh [default|debug]
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

variant=${1:-default}
tree=$build_dir/linux
# The debug build is long; it gets a worktree of its own at the series'
# commit so that it neither holds nor races the main tree's lock.
if [ "$variant" = debug ]; then
	commit=$(with_lock kernel git -C "$tree" rev-parse series)
	tree=$build_dir/linux-debug
	[ -d "$tree" ] || git -C "$build_dir/linux" worktree add -q --detach "$tree" "$commit"
	git -C "$tree" checkout -q -f --detach "$commit"
fi
# A subdirectory of the source tree keeps srctree relative (".."), so
# ccache hits survive a clone in another folder.
out=$tree/out-$variant
jobs=${JOBS:-$(nproc)}
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.ccache} CCACHE_NOHASHDIR=1 CCACHE_BASEDIR=$tree
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

extra=()
[ "$variant" = debug ] && extra+=("$repo_root/kernel-series/config/debug.config")

# What the outputs are made of: the tree (its commit and any change not
# committed), the config fragments, and the scripts that make the config
# and build (with their flags).  Making the config and walking an
# unchanged tree take make about 40 s; the stamp takes none.
inputs() {
	{ git -C "$tree" rev-parse HEAD; git -C "$tree" status --porcelain; git -C "$tree" diff HEAD
	  cat "$repo_root"/kernel-series/config/*.config "${extra[@]}" "$0" \
		"$repo_root/scripts/kernel-config.sh"; echo "$variant"; } | sha256sum | cut -c1-16
}

build() {
	KERNEL_TREE=$tree "$repo_root/scripts/kernel-config.sh" "$out" "${extra[@]}"
	# Variable-location lists are what var-tracking costs (about a tenth
	# of each compile, measured here); BTF is made from types and
	# prototypes only, and nothing reads a guest kernel's locations.
	# The kernel itself adds the flag for DEBUG_INFO_REDUCED.
	run_logged "kernel-$variant-bzImage" \
		make -C "$tree" O="$out" -j"$jobs" CC="ccache gcc" HOSTCC="ccache gcc" \
		KCFLAGS=-fno-var-tracking bzImage
	mkdir -p "$build_dir/images"
	cp "$out/arch/x86/boot/bzImage" "$build_dir/images/$image.bzImage"
	cp "$out/.config" "$build_dir/images/$image.config"
	if [ "$variant" = default ]; then
		run_logged kernel-headers \
			make -C "$tree" O="$out" -j"$jobs" headers_install INSTALL_HDR_PATH="$build_dir/kernel-headers"
		mkdir -p "$build_dir/libbpf/obj"
		run_logged libbpf make -C "$tree/tools/lib/bpf" -j"$jobs" \
			OUTPUT="$build_dir/libbpf/obj/" CC="ccache gcc" BUILD_STATIC_ONLY=1 \
			DESTDIR="$build_dir/libbpf" prefix= "$build_dir/libbpf/obj/libbpf.a" install_headers
		# Copied only when changed: the helpers that link it rebuild on its mtime.
		cmp -s "$build_dir/libbpf/obj/libbpf.a" "$build_dir/libbpf/libbpf.a" ||
			cp "$build_dir/libbpf/obj/libbpf.a" "$build_dir/libbpf/libbpf.a"
	fi
}

# The build folders are no change to the tree (inputs).
exclude=$(git -C "$tree" rev-parse --path-format=absolute --git-common-dir)/info/exclude
grep -qxF "out-*" "$exclude" || echo "out-*" >> "$exclude"
image=patched
[ "$variant" = default ] || image=patched-$variant
needs=(--needs "$build_dir/images/$image.bzImage")
[ "$variant" != default ] || needs+=(--needs "$build_dir/libbpf/libbpf.a" --needs "$build_dir/kernel-headers/include")
with_lock "kernel-$variant" reuse_or_run "${needs[@]}" "kernel-$variant" "$(inputs)" build

#!/usr/bin/env bash
# Build a shared libbpf from the patched tree's tools/lib/bpf and its
# bpftool, staged as `make install` lays them out, or install / uninstall
# that staged tree.
#
# Debian 12's libbpf1 (1.1.2) and bpftool (7.1) know no BPF tokens, so a
# delegated container's Debian tools get EPERM. These go under a prefix of
# their own (BPF_TOOLS_PREFIX, default /usr/lib/bpf-token) that is in no
# ld.so.conf and on no default PATH: Debian's libbpf.so.1 and bpftool stay
# what every other program gets, and a user opts in per program.
#   PREFIX/lib64/libbpf.so.1  soname and symbol versions from the tree's
#                             libbpf.map; also libbpf.a, pkgconfig/libbpf.pc
#                             (lib64: libbpf's own `make install` layout)
#   PREFIX/include/bpf/       libbpf's headers
#   PREFIX/sbin/bpftool       linked with the libbpf.a above
# bpftool calls libbpf internals (hashmap__*, libbpf_nla_*, bpf_core_*,
# btf_kind_str) that libbpf.so hides (-fvisibility=hidden and the version
# script), so it links libbpf statically, as upstream's bpftool and every
# distribution's do; exporting them would change libbpf.so.1's ABI.
#
# Usage: build-bpf-tools.sh [build|install|uninstall]
#   build      into build/bpf-tools; the staged tree is build/bpf-tools/stage
#   install    build, then copy the staged tree to DESTDIR (default /)
#   uninstall  remove from DESTDIR what install puts there
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

prefix=${BPF_TOOLS_PREFIX:-/usr/lib/bpf-token}
destdir=${DESTDIR:-}
tree=$build_dir/linux
out=$build_dir/bpf-tools
stage=$out/stage
# What install puts under the prefix; uninstall removes exactly these.
installed=(sbin/bpftool lib64/libbpf.so lib64/libbpf.so.1 "lib64/libbpf.so.*.*" lib64/libbpf.a
	lib64/pkgconfig/libbpf.pc include/bpf)

case ${prefix%/} in
"" | /usr) die "BPF_TOOLS_PREFIX=$prefix: Debian's packages own that tree (libbpf1, libbpf-dev, bpftool)" ;;
/*) ;;
*) die "BPF_TOOLS_PREFIX must be absolute: $prefix" ;;
esac

# The tools' makefiles read make's variables from the environment: a
# parent make's would leak in.
tools_make() {
	env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make "$@"
}

compile() {
	local lib=$tree/tools/lib/bpf jobs=${JOBS:-$(nproc)}
	mkdir -p "$out/libbpf" "$out/bpftool"
	# Made again every time: the .pc file has no prerequisites (a new
	# prefix or version would not reach it), and a stale libbpf.so.1.X.Y
	# from an earlier version would be installed beside the new one.
	rm -f "$out/libbpf/libbpf.pc" "$out/libbpf"/libbpf.so*
	tools_make -C "$lib" -j"$jobs" OUTPUT="$out/libbpf/" CC="ccache gcc" prefix="$prefix" all
	# The headers bpftool compiles against, where its own build puts them.
	tools_make -C "$lib" OUTPUT="$out/libbpf/" DESTDIR="$out/libbpf" prefix= install_headers
	# LIBBPF_OUTPUT: bpftool links the libbpf.a just built, not a copy of
	# its own. No libbfd (JIT disassembly), no skeletons (they need a
	# vmlinux BTF at build time), as in Debian's bpftool: the result runs
	# on a plain Debian 12.
	tools_make -C "$tree/tools/bpf/bpftool" -j"$jobs" OUTPUT="$out/bpftool/" CC="ccache gcc" \
		LIBBPF_OUTPUT="$out/libbpf/" VMLINUX_BTF= \
		feature-libbfd=0 feature-libbfd-liberty=0 feature-libbfd-liberty-z=0 \
		prefix="$prefix"
	rm -rf "$stage"
	tools_make -C "$lib" OUTPUT="$out/libbpf/" DESTDIR="$stage" \
		prefix="$prefix" install
	install -D -m 0755 "$out/bpftool/bpftool" "$stage$prefix/sbin/bpftool"
}

# Inputs: the tree's tools (libbpf, bpftool, the headers and build rules
# they use), this script and the prefix.
inputs_key() {
	{
		hash_inputs "$tree/tools/lib/bpf" "$tree/tools/bpf/bpftool" "$tree/tools/include" \
			"$tree/tools/build" "$tree/tools/scripts" "$tree/kernel/bpf/disasm.c" "$0"
		echo "$prefix"
	} | sha256sum | cut -c1-16
}

compile_changed() {
	reuse_or_run --needs "$stage$prefix/sbin/bpftool" bpf-tools "$(inputs_key)" run_logged bpf-tools compile
}

build() {
	[ -d "$tree/tools/lib/bpf" ] || die "$tree missing: run 'make kernel-tree'"
	mkdir -p "$out"
	# The tree is rewritten under this lock when the series changes.
	with_lock kernel compile_changed
	say "bpf-tools: $(readelf -d "$stage$prefix/lib64/libbpf.so.1" | grep -o 'soname: \[.*\]'), staged in ${stage#"$repo_root"/}$prefix"
}

install_tree() {
	local f
	mkdir -p "$destdir$prefix"
	cp -a "$stage$prefix/." "$destdir$prefix/"
	(cd "$stage$prefix" && find . ! -type d | LC_ALL=C sort) | while read -r f; do
		echo "installed $destdir$prefix/${f#./}"
	done
}

uninstall_tree() {
	local p dir
	for p in "${installed[@]}"; do
		# The glob is meant to expand here: the versioned file name.
		# shellcheck disable=SC2086,SC2115
		rm -rf -- "$destdir$prefix"/$p
	done
	# Folders go only if nothing else lives in them.
	for dir in lib64/pkgconfig lib64 include sbin ""; do
		dir=$destdir$prefix${dir:+/$dir}
		if [ -d "$dir" ]; then rmdir --ignore-fail-on-non-empty "$dir"; fi
	done
	say "removed libbpf and bpftool from $destdir$prefix"
}

case ${1:-build} in
build) build ;;
install) build && install_tree ;;
uninstall) uninstall_tree ;;
*) die "usage: $0 [build|install|uninstall]" ;;
esac

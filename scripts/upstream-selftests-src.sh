#!/usr/bin/env bash
# Unpack upstream's BPF token selftest and what it builds from out of
# Debian's linux-source-6.12, and give it the 6.12 kernel's types as
# vmlinux.h, into build/upstream-selftests/ (scenarios/Makefile builds it,
# token/90-upstream-selftests runs it). Skipped while the inputs are
# unchanged.
#   src/tools/testing/selftests/bpf/prog_tests/token.c, cap_helpers.[ch],
#   progs/NAME.c for each "NAME.skel.h" token.c includes;
#   src/tools/include/linux/filter.h (BPF_RAW_INSN and friends);
#   vmlinux.h: BTF of the reference kernel (build/images/reference.bzImage).
# The programs are built against 6.12's types, as upstream builds them:
# what a kernel lacks then shows as a failed load on that kernel, not as a
# build failure everywhere.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

tarball=/usr/src/linux-source-6.12.tar.xz
image=$build_dir/images/reference.bzImage
out=$build_dir/upstream-selftests
[ -f "$tarball" ] || die "$tarball missing: run scripts/install-deps.sh (linux-source-6.12)"
[ -f "$image" ] || die "$image missing: run scripts/fetch-prebuilt-kernel.sh reference"


top=linux-source-6.12
selftests=tools/testing/selftests/bpf

# tar stores the files' release dates: --touch gives them the unpack time,
# so make rebuilds what depends on them. xz decompresses the tarball's
# blocks on every core.
untar() {
	xz -dc -T0 "$tarball" | tar -x -C "$out/tmp" --touch --strip-components=1 --wildcards "${@/#/$top/}"
}

# The kernel image is a small decompressor followed by the compressed ELF
# vmlinux; its .BTF section survives the stripping.
extract_vmlinux() {
	local magic tool offset
	for magic in '\x28\xb5\x2f\xfd:zstd -dcq' '\xfd\x37\x7a\x58\x5a\x00:xz -dcq' '\x1f\x8b\x08:gzip -dcq'; do
		tool=${magic#*:}
		for offset in $(LC_ALL=C grep -obUaP "${magic%%:*}" "$image" | cut -d: -f1); do
			tail -c +$((offset + 1)) "$image" | $tool > "$1" 2>/dev/null || true
			[ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ] && return 0
		done
	done
	die "no compressed ELF vmlinux found in $image"
}

unpack() {
	local progs prog
	rm -rf "$out"; mkdir -p "$out/tmp"
	# One pass through the tarball (each one decompresses all of it): the
	# programs folder whole, then only what token.c includes is kept.
	untar "$selftests/prog_tests/token.c" "$selftests/cap_helpers.c" "$selftests/cap_helpers.h" \
		tools/include/linux/filter.h "$selftests/progs/*.c" || die "cannot unpack the selftest from $tarball"
	progs=$(sed -n 's/^#include "\(.*\)\.skel\.h"$/\1/p' "$out/tmp/$selftests/prog_tests/token.c")
	[ -n "$progs" ] || die "token.c includes no skeleton: not the expected file"
	mkdir "$out/tmp/progs"
	for prog in $progs; do
		mv "$out/tmp/$selftests/progs/$prog.c" "$out/tmp/progs/" || die "token.c includes $prog.skel.h: no progs/$prog.c"
	done
	rm -rf "$out/tmp/$selftests/progs"
	mv "$out/tmp/progs" "$out/tmp/$selftests/progs"
	mv "$out/tmp" "$out/src"
	extract_vmlinux "$out/vmlinux"
	bpftool btf dump file "$out/vmlinux" format c > "$out/vmlinux.h"
	rm -f "$out/vmlinux"
}

reuse_or_run --needs "$out/vmlinux.h" upstream-selftests-src "$(hash_inputs "$tarball" "$image" "$0")" \
	run_logged upstream-selftests-src unpack

#!/usr/bin/env bash
# Host test of the series' libbpf ABI: the shared library built from the
# patched tree's tools/lib/bpf exports every symbol at upstream's version
# (bpf_token_create@LIBBPF_1.4.0), and a program built against either
# library runs against the other. Upstream is Debian's linux-source-6.12
# (libbpf 1.5, whose nodes up to 1.4 are libbpf 1.4's). The kernel UAPI
# bpf.h and its tools copy must be identical, as upstream keeps them.
# reads: scripts/lib.sh guest-rootfs/overlay/usr/local/lib/guest/scenario.sh
set -euo pipefail
export LC_ALL=C # join and sort must agree on the order
source "$(cd "$(dirname "$0")/.." && pwd)/scripts/lib.sh"

upstream_tar=/usr/src/linux-source-6.12.tar.xz
work=$build_dir/libbpf-abi
tree=${LIBBPF_ABI_TREE:-$build_dir/linux}
n=0 failed=0

check() { # check DESCRIPTION CMD...: one TAP line, output shown on failure
	local what=$1 out rc=0
	shift
	out=$("$@" 2>&1) || rc=$?
	n=$((n + 1))
	if [ "$rc" -eq 0 ]; then echo "ok $n - $what"
	else echo "not ok $n - $what"; sed 's/^/# /' <<<"$out"; failed=1; fi
}

# build_libbpf SRC OUT: shared and static library, with libbpf's own
# check_abi and check_version (its default target runs them).
build_libbpf() {
	rm -rf "$2"; mkdir -p "$2"
	make -s -C "$1/tools/lib/bpf" -j"$(nproc)" OUTPUT="$2/" CC="ccache gcc" >"$2.log" 2>&1 ||
		{ tail -n 20 "$2.log"; return 1; }
}

# Upstream's tools/lib/bpf with what its build reads, unpacked once.
unpack_upstream() {
	[ -f "$work/upstream-src/.done" ] && return 0
	[ -f "$upstream_tar" ] || { echo "$upstream_tar missing: run 'make deps'"; return 1; }
	rm -rf "$work/upstream-src"; mkdir -p "$work/upstream-src"
	tar -C "$work/upstream-src" --strip-components=1 -xJf "$upstream_tar" --wildcards \
		'linux-source-6.12/tools/lib/bpf' 'linux-source-6.12/tools/include' \
		'linux-source-6.12/tools/build' 'linux-source-6.12/tools/scripts' \
		'linux-source-6.12/tools/arch/x86/include' 'linux-source-6.12/scripts/bpf_doc.py' \
		'linux-source-6.12/include/uapi/linux/*.h'
	touch "$work/upstream-src/.done"
}

# symbol_versions SO: "symbol version" for each versioned symbol it defines.
symbol_versions() {
	readelf --dyn-syms --wide "$1" |
		awk '$7 != "UND" && $8 ~ /@@?LIBBPF_/ { split($8, s, "@+"); print s[1], s[2] }' | sort -u
}

# map_versions MAP: "symbol version" for each symbol in a version script.
map_versions() {
	awk '/^LIBBPF_[0-9.]+ *\{/ { v = $1 } /^\t\t[a-z_0-9]+;/ { gsub(/[\t;]/, ""); print $0, v }' "$1" |
		sort -u
}

# Every symbol ours exports has the version upstream's map gives it.
same_versions() {
	local bad
	bad=$(join <(symbol_versions "$work/ours/libbpf.so") <(map_versions "$1") |
		awk '$2 != $3 { print $1 " is " $2 " here, " $3 " upstream" }')
	bad+=$(join -v1 <(symbol_versions "$work/ours/libbpf.so") <(map_versions "$1") |
		awk '{ print $1 " is not exported upstream" }')
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}

# build_prog NAME SRC LIBDIR: a program that uses bpf_token_create(),
# compiled against SRC's headers and linked against LIBDIR's libbpf.so.
build_prog() {
	mkdir -p "$work/inc-$1/bpf"
	cp "$2"/tools/lib/bpf/{bpf.h,libbpf_common.h,libbpf_legacy.h,libbpf_version.h} "$work/inc-$1/bpf/"
	cat >"$work/$1.c" <<-'EOF'
		#include <stdio.h>
		#include <bpf/bpf.h>

		/* Taking the address binds the symbol; nothing is called. */
		int main(void)
		{
			int (*fn)(int, struct bpf_token_create_opts *) = bpf_token_create;

			printf("bpf_token_create at %p\n", (void *)fn);
			return 0;
		}
	EOF
	gcc -Wall -Wextra -Werror -I"$work/inc-$1" -isystem "$2/tools/include/uapi" \
		-o "$work/$1" "$work/$1.c" -L"$3" -lbpf
}

# needs PROG VERSION: PROG's dynamic reference to bpf_token_create names VERSION.
needs() {
	nm -D "$1" | grep -E "^ +U bpf_token_create@$2\$"
}

# runs_with PROG LIBDIR: PROG resolves every symbol against LIBDIR's libbpf.
runs_with() {
	LD_BIND_NOW=1 LD_LIBRARY_PATH=$2 "$1"
}

# Upstream's library from its own sources, ours from the patched tree.
upstream_lib() { unpack_upstream && build_libbpf "$work/upstream-src" "$work/upstream"; }
soname_is_1() { readelf -d "$work/ours/libbpf.so" | grep -F 'Library soname: [libbpf.so.1]'; }
token_at_1_4() { readelf --dyn-syms --wide "$work/ours/libbpf.so" | grep -F ' bpf_token_create@@LIBBPF_1.4.0'; }
# cross NAME SRC LIBDIR OTHER: built against SRC/LIBDIR, runs with OTHER.
cross() { build_prog "$1" "$2" "$3" && needs "$work/$1" LIBBPF_1.4.0 && runs_with "$work/$1" "$4"; }
version_agrees() {
	grep -qx '#define LIBBPF_MINOR_VERSION 4' "$tree/tools/lib/bpf/libbpf_version.h" &&
		[ "$(grep -oE '^LIBBPF_[0-9.]+' "$tree/tools/lib/bpf/libbpf.map" | sort -V | tail -n1)" = LIBBPF_1.4.0 ]
}

main() {
	echo "1..9"
	# LIBBPF_ABI_TREE: a patched tree of one's own (a development clone).
	if [ -z "${LIBBPF_ABI_TREE:-}" ]; then "$repo_root/scripts/kernel-tree.sh" >&2; fi
	check "the series' libbpf builds, with libbpf's own ABI and version checks" \
		build_libbpf "$tree" "$work/ours"
	check "include/uapi/linux/bpf.h and tools/include/uapi/linux/bpf.h are identical" \
		diff -u "$tree/include/uapi/linux/bpf.h" "$tree/tools/include/uapi/linux/bpf.h"
	check "soname libbpf.so.1, as upstream" soname_is_1
	check "upstream libbpf (linux-source-6.12) builds" upstream_lib
	check "every symbol exported here has upstream's version node" \
		same_versions "$work/upstream-src/tools/lib/bpf/libbpf.map"
	check "bpf_token_create is exported as bpf_token_create@@LIBBPF_1.4.0" token_at_1_4
	check "a program built against upstream needs bpf_token_create@LIBBPF_1.4.0 and runs with ours" \
		cross from-upstream "$work/upstream-src" "$work/upstream" "$work/ours"
	check "a program built against ours needs bpf_token_create@LIBBPF_1.4.0 and runs with upstream's" \
		cross from-ours "$tree" "$work/ours" "$work/upstream"
	check "libbpf_version.h agrees with the newest node of libbpf.map (1.4)" version_agrees
}

# Other checkouts' unit tests build in the same folder: one at a time.
mkdir -p "$work"
with_lock libbpf-abi main
exit $failed

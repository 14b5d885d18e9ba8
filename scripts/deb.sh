#!/usr/bin/env bash
# Build the Debian packages into build/deb and check them with lintian:
#   shim_VERSION_ARCH.deb             runtime-shim/ (its debian/ directory)
#   bpf-token-tools_VERSION_ARCH.deb  the series' libbpf and bpftool under
#                                     /usr/lib/bpf-token, from the tree staged
#                                     by build-bpf-tools.sh
# Each is built again only when its inputs changed. lintian errors fail
# the step.
# Usage: deb.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out=$build_dir/deb
src=$out/src
stage=$build_dir/bpf-tools/stage

# package NAME DIR: dpkg-buildpackage in DIR, then lintian; the .deb files
# land in $out. run_logged calls the builders in a condition, where set -e
# is off: every step that can fail returns.
package() {
	local name=$1 dir=$2 parent changes rc=0
	parent=$(dirname "$dir")
	(cd "$dir" && dpkg-buildpackage -us -uc -b) || return
	changes=$(ls "$parent/${name}"_*.changes) || return
	# Errors fail; warnings are shown. lintian complains of root as such.
	lintian --fail-on error "$changes" > "$parent/lintian.log" 2>&1 || rc=$?
	grep -v 'running with root privileges' "$parent/lintian.log" || true
	[ "$rc" -eq 0 ] || { echo "lintian: errors in $changes"; return 1; }
	rm -f "$out/${name}"_*.deb
	mv "$parent/${name}"_*.deb "$out/" || return
	rm -f "$parent/${name}"_*.changes "$parent/${name}"_*.buildinfo "$parent/${name}"-dbgsym_*.deb
}

build_shim() {
	local version dir
	version=$(sed -n 's/^#define SHIM_VERSION "\(.*\)"/\1/p' "$repo_root/runtime-shim/src/shim.h")
	dir=$src/shim-$version
	rm -rf "$src"/shim-*; mkdir -p "$dir"
	rsync -a --exclude /build "$repo_root/runtime-shim/" "$dir/" || return
	package shim "$dir"
}

build_bpf_tools() {
	local libbpf version dir
	# libbpf.so.1.4.0 -> 1.4.0; the kernel tree it came from after it.
	libbpf=$(basename "$(readlink -f "$stage/usr/lib/bpf-token/lib64/libbpf.so.1")")
	version=${libbpf#libbpf.so.}+linux$(dpkg-query -W -f '${Version}' linux-source-6.1 | tr -- '-' '.')
	dir=$src/bpf-token-tools-$version
	rm -rf "$src"/bpf-token-tools-*; mkdir -p "$dir"
	cp -a "$repo_root/packaging/bpf-token-tools/debian" "$dir/" || return
	cp -a "$stage" "$dir/stage" || return
	cat > "$dir/debian/changelog" <<-EOF
	bpf-token-tools ($version) unstable; urgency=medium

	  * libbpf $libbpf and bpftool of linux-source-6.1 with the project's
	    kernel series applied.

	 -- shim project <maintainers@shim.invalid>  $(date -R -d @0)
	EOF
	package bpf-token-tools "$dir"
}

# build_changed NAME INPUTS...: build NAME when its inputs' hash changed.
build_changed() {
	local name=$1; shift
	reuse_or_run --needs "$(ls "$out/${name}"_*.deb 2>/dev/null | head -n 1)" "deb-$name" "$(hash_inputs "$@" "$0")" \
		run_logged "deb-$name" "build_${name//-token-/_}"
	say "deb $name: $(cd "$out" && ls "${name}"_*.deb)"
}

[ -x "$stage/usr/lib/bpf-token/sbin/bpftool" ] || die "$stage missing: run 'make bpf-tools'"
mkdir -p "$out"
build_changed shim "$repo_root/runtime-shim/src" "$repo_root/runtime-shim/tests" \
	"$repo_root/runtime-shim/debian" "$repo_root/runtime-shim/man" "$repo_root/runtime-shim/completion" \
	"$repo_root/runtime-shim/oci" "$repo_root/runtime-shim/Makefile"
build_changed bpf-token-tools "$repo_root/packaging/bpf-token-tools" "$stage"

#!/usr/bin/env bash
# Pack the guest's initramfs: the cached base archive, then a small
# archive with the overlay, the shim and the scenarios (the kernel unpacks
# concatenated cpio archives in order, later files win).
set -euo pipefail
source "$(dirname "$0")/lib.sh"

out_dir=$build_dir/rootfs
base=$out_dir/base.cpio.gz
[ -f "$base" ] || die "$base missing: run scripts/rootfs-base.sh"

staging=$(mktemp -d "$out_dir/extra.XXXXXX")
trap 'rm -rf "$staging" "$staging.cpio.gz" "$staging.initrd"' EXIT

cp -a "$repo_root/guest-rootfs/overlay/." "$staging/"
mkdir -p "$staging/opt/scenarios" "$staging/usr/local/bin"
for dir in "$repo_root"/scenarios/*/; do
	group=$(basename "$dir")
	case $group in helpers | bpf) continue ;; esac
	cp -a "$dir" "$staging/opt/scenarios/$group"
done
for sub in bin bpf selftests; do
	[ -d "$build_dir/scenarios/$sub" ] && cp -a "$build_dir/scenarios/$sub" "$staging/opt/scenarios/$sub"
done
# The benchmarks (make bench): the guest driver and its helpers.
mkdir -p "$staging/opt/bench"
cp -a "$repo_root/bench/guest/." "$staging/opt/bench/"
[ -d "$build_dir/bench/bin" ] && cp -a "$build_dir/bench/bin" "$staging/opt/bench/bin"
if [ -f "$repo_root/runtime-shim/Makefile" ]; then
	[ -x "$build_dir/shim/shim" ] || die "build/shim/shim missing: run 'make userspace'"
	cp "$build_dir/shim/shim" "$staging/usr/local/bin/shim"
	# The OCI hook's JSON, example policy and seccomp profile, as
	# `make install` puts them (scenarios/oci).
	make -s -C "$repo_root/runtime-shim" install-hook DESTDIR="$staging"
fi
# The prebuilt kernels' loop modules (scripts/fetch-prebuilt-kernel.sh),
# under /lib/modules/VERSION, where the guest's /init loads them; /lib is
# a link to usr/lib in the merged-/usr guest.
for modules in "$build_dir"/images/*.modules; do
	[ -d "$modules" ] || continue
	mkdir -p "$staging/usr/lib"
	cp -a "$modules/lib/." "$staging/usr/lib/"
done
# What `make install` puts under /opt/bpf-token (scripts/build-bpf-tools.sh),
# beside Debian's own bpftool and libbpf1: shim/45-installed-tools.
[ -d "$build_dir/bpf-tools/stage/opt/bpf-token" ] || die "build/bpf-tools/stage missing: run 'make bpf-tools'"
cp -a "$build_dir/bpf-tools/stage/." "$staging/"

# Same inputs, same bytes: a guest run can then be recognised as
# unchanged by the initramfs' hash (scripts/boot-guest.sh).
find "$staging" -exec touch -h -d @0 {} +
(cd "$staging" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --reproducible --quiet | gzip -1 -n) > "$staging.cpio.gz"
cat "$base" "$staging.cpio.gz" > "$staging.initrd"
rm -f "$staging.cpio.gz"
if cmp -s "$staging.initrd" "$out_dir/initrd.cpio.gz"; then
	rm -f "$staging.initrd"
else
	mv "$staging.initrd" "$out_dir/initrd.cpio.gz"
fi

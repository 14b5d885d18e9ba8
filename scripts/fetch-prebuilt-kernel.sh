#!/usr/bin/env bash
# Fetch one of Debian's prebuilt kernels with apt-get download and unpack
# its bzImage into build/images: IMAGE is a row's image in
# scripts/kernels.tsv whose source is apt:PACKAGE (a meta package, such
# as linux-image-cloud-amd64). Without IMAGE, every such image.
# Usage: fetch-prebuilt-kernel.sh [IMAGE]
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

if [ $# -eq 0 ]; then
	for name in $(for row in $(kernel_names 'from=apt:*'); do kernel_field "$row" image; done | awk '!seen[$0]++'); do
		"$0" "$name"
	done
	exit 0
fi
name=$1
row=$(kernel_names image="$name" 'from=apt:*' | head -n 1)
[ -n "$row" ] || die "no image $name from apt:PACKAGE in scripts/kernels.tsv"
meta=$(kernel_field "$row" from)
meta=${meta#apt:}

image=$build_dir/images/$name.bzImage
# Its loop module, which the guest's /init loads (Debian builds loop as a
# module; the patched kernel has it built in): ext4 images in scenarios.
modules=$build_dir/images/$name.modules
[ -f "$image" ] && [ -n "$(find "$modules" -name virtio_blk.ko 2>/dev/null)" ] && exit 0

fetch() {
	local dl=$build_dir/prebuilt/$name pkg deb
	rm -rf "$dl"; mkdir -p "$dl"
	# The meta package depends on the versioned image package.
	pkg=$(apt-cache depends "$meta" | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n 1)
	[ -n "$pkg" ] || { apt_update && pkg=$(apt-cache depends "$meta" | sed -n 's/^ *Depends: \(linux-image-[0-9].*\)$/\1/p' | head -n 1); }
	[ -n "$pkg" ] || die "cannot resolve $meta to a kernel image package"
	(cd "$dl" && apt-get download -q "$pkg")
	deb=$(ls "$dl"/*.deb)
	dpkg-deb -x "$deb" "$dl/root"
	mkdir -p "$build_dir/images"
	cp "$dl"/root/boot/vmlinuz-* "$image.tmp"
	cp "$dl"/root/boot/config-* "$build_dir/images/$name.config"
	mv "$image.tmp" "$image"
	echo "$pkg" > "$build_dir/images/$name.package"
	rm -rf "$dl/root"
}
# Uncompressed, so that insmod needs no decompression support (6.12's is .ko.xz).
unpack_loop() {
	local deb wanted
	deb=$(ls "$build_dir/prebuilt/$name"/*.deb 2>/dev/null | head -n 1)
	[ -n "$deb" ] || fetch
	deb=$(ls "$build_dir/prebuilt/$name"/*.deb | head -n 1)
	rm -rf "$modules.tmp"; mkdir -p "$modules.tmp"
	# and the virtio block driver with what it needs where they are
	# modules (6.12 has only virtio_blk as one): the containerd scenarios'
	# disk (scripts/cri-disk.sh).
	mapfile -t wanted < <(dpkg-deb --fsys-tarfile "$deb" | tar -t |
		grep -E '^\./lib/modules/[^/]+/kernel/drivers/(block/(loop|virtio_blk)|virtio/(virtio|virtio_ring|virtio_pci[a-z_]*))\.ko(\.xz)?$')
	[ ${#wanted[@]} -gt 0 ] || die "$deb has none of the modules the guest loads"
	dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$modules.tmp" "${wanted[@]}"
	[ -n "$(find "$modules.tmp" -name 'loop.ko*')" ] || die "$deb has no loop module"
	[ -n "$(find "$modules.tmp" -name 'virtio_blk.ko*')" ] || die "$deb has no virtio_blk module"
	find "$modules.tmp" -name '*.ko.xz' -exec xz -d {} +
	rm -rf "$modules"; mv "$modules.tmp" "$modules"
}
[ -f "$image" ] || run_logged "fetch-$name" fetch
run_logged "loop-module-$name" unpack_loop
say "$name kernel: $(cat "$build_dir/images/$name.package")"

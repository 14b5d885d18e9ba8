#!/usr/bin/env bash
# Build the guest's base root filesystem with debootstrap (bookworm,
# minbase, plus guest-rootfs/packages) and pack it as a gzip cpio archive.
# Cached by a hash of its inputs: build/rootfs/base-<hash>.cpio.gz.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out_dir=$build_dir/rootfs
key=$(hash_inputs "$repo_root/guest-rootfs/packages" "$0")
archive=$out_dir/base-$key.cpio.gz

staging=$out_dir/base-$key.tmp
cleanup() { rm -rf "$staging" "$archive.tmp"; }

bootstrap() {
	local mirror include
	mirror=$("$repo_root/scripts/apt-mirror.sh")
	include=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$repo_root/guest-rootfs/packages" | paste -sd, -)
	rm -rf "$staging"; mkdir -p "$staging"
	# run_logged calls this in a condition, where set -e is off: a failed
	# step must stop it, or a broken archive would be cached as the base.
	debootstrap --variant=minbase --include="$include" bookworm "$staging" "$mirror" || return
	# Nothing in the guest reads documentation or translations.
	rm -rf "$staging"/usr/share/{doc,man,info,locale} "$staging"/var/cache/apt/* "$staging"/var/lib/apt/lists/*
	# The kernel opens /dev/console before /init can mount devtmpfs.
	rm -rf "${staging:?}/dev"; mkdir -p "$staging/dev"
	mknod -m 600 "$staging/dev/console" c 5 1
	mknod -m 666 "$staging/dev/null" c 1 3
	(cd "$staging" && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet | gzip -1) > "$archive.tmp" || return
	mv "$archive.tmp" "$archive"
}

build_base() {
	if [ -f "$archive" ]; then
		ln -sfn "$(basename "$archive")" "$out_dir/base.cpio.gz"
		return 0
	fi
	[ "$(id -u)" -eq 0 ] || die "debootstrap needs root"
	trap cleanup EXIT
	run_logged rootfs-debootstrap bootstrap
	ln -sfn "$(basename "$archive")" "$out_dir/base.cpio.gz"
	say "rootfs: $(du -h "$archive" | cut -f1) compressed"
}

mkdir -p "$out_dir"
# Two pipelines at once would debootstrap into the same folder, and the
# second waits for the first's archive rather than racing it.
with_lock rootfs-base build_base

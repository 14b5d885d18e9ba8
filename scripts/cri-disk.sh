#!/usr/bin/env bash
# The disk of the containerd scenarios (scenarios/oci/*-containerd-cri):
# Debian's containerd (its daemon, runc shim and ctr) and the CRI client
# of scenarios/helpers/cri, on an ext4 image labelled shim-cri. They are
# about 100 MB: on a disk of their own, which boot-guest.sh attaches only
# to a guest that runs such a scenario, they cost every other boot
# nothing (the initramfs would carry them into every guest's memory).
#   build/rootfs/cri-disk.img  the image
#   build/rootfs/cri-disk.id   the hash of its files, which rootfs-pack.sh
#                              puts in the initramfs: it is part of every
#                              scenario's key, so a changed disk runs again
# The client is built offline, from Debian's Go packages of gRPC and
# protobuf (GOPATH mode, no module proxy), as one static binary.
# Usage: cri-disk.sh
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

work=$build_dir/cri-disk
image=$build_dir/rootfs/cri-disk.img
id_file=$build_dir/rootfs/cri-disk.id
client_src=$repo_root/scenarios/helpers/cri

# fetch_containerd: Debian's containerd package, unpacked into $work/pkg.
fetch_containerd() {
	local deb
	rm -rf "$work/dl" "$work/pkg"; mkdir -p "$work/dl"
	# A host whose package lists are stale gets them first.
	(cd "$work/dl" && { apt-get download -q containerd || { apt_update && apt-get download -q containerd; }; }) || return
	deb=$(ls "$work/dl"/containerd_*.deb) || return
	dpkg-deb -x "$deb" "$work/pkg" || return
	basename "$deb" > "$work/pkg/.deb"
}

# go_import PACKAGE PATTERN: the import path, matching PATTERN, of a Go
# package that Debian's PACKAGE installs. The client's sources name the
# two they use by placeholders (deps/grpc, deps/protowire): their paths
# are Debian's to say.
go_import() {
	local path
	# All of the list read (no early exit): the pipeline must not fail on SIGPIPE.
	path=$(dpkg -L "$1" | sed -n 's|^/usr/share/gocode/src/||p' | awk -v re="^$2\$" '$0 ~ re && !n++')
	[ -n "$path" ] || { echo "no Go package $2 in $1" >&2; return 1; }
	echo "$path"
}

build_client() {
	local grpc protowire src=$work/client
	grpc=$(go_import golang-google-grpc-dev '[^/]+/grpc') || return
	protowire=$(go_import golang-google-protobuf-dev '[^/]+/protobuf/encoding/protowire') || return
	rm -rf "$src"; mkdir -p "$src" "$work/gocache"
	for f in "$client_src"/*.go; do
		sed -e "s|\"deps/grpc\"|\"$grpc\"|" -e "s|\"deps/protowire\"|\"$protowire\"|" "$f" > "$src/${f##*/}" || return
	done
	(cd "$src" && GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS='' GOPROXY=off \
		GOCACHE=$work/gocache CGO_ENABLED=0 go build -trimpath -ldflags=-s -o "$work/cri.tmp" .) || return
	mv "$work/cri.tmp" "$work/cri"
}

# make_image: the staged files as an ext4 image with room to spare, made
# without a mount (mkfs.ext4 -d), owned by root.
make_image() {
	local stage=$work/stage size_mb
	rm -rf "$stage"; mkdir -p "$stage/bin"
	cp "$work/pkg/usr/bin/containerd" "$work/pkg/usr/bin/containerd-shim-runc-v2" "$work/pkg/usr/bin/ctr" "$stage/bin/" || return
	cp "$work/cri" "$stage/bin/cri" || return
	cp "$work/pkg/.deb" "$stage/containerd-package"
	size_mb=$(( $(du -sm "$stage" | cut -f1) * 5 / 4 + 16 ))
	rm -f "$image.tmp"
	truncate -s "${size_mb}M" "$image.tmp" || return
	mkfs.ext4 -q -F -L shim-cri -E root_owner=0:0 -d "$stage" "$image.tmp" || return
	mv "$image.tmp" "$image"
}

mkdir -p "$work" "$build_dir/rootfs"
[ -f "$work/pkg/.deb" ] || run_logged cri-disk-containerd fetch_containerd
reuse_or_run --needs "$work/cri" cri-disk-client "$({ go version; hash_inputs "$client_src" "$0"; } | sha256sum | cut -c1-16)" \
	run_logged cri-disk-client build_client
id=$(hash_inputs "$work/pkg/usr/bin/containerd" "$work/pkg/usr/bin/containerd-shim-runc-v2" "$work/pkg/usr/bin/ctr" "$work/cri")
reuse_or_run --needs "$image" cri-disk-image "$id" run_logged cri-disk-image make_image
echo "$id" > "$id_file"
say "cri disk: $(cat "$work/pkg/.deb"), the CRI client; $(du -h --apparent-size "$image" | cut -f1) (${image#"$repo_root"/})"

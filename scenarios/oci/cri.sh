# Shared by the containerd CRI scenario (sourced; not a scenario itself):
# containerd from its own disk, started with all its state under one
# temporary folder, and images made offline from a scenario rootfs.
# shellcheck shell=bash

CRI_LABEL=shim-cri
# The patched kernel has no overlayfs, Debian's as a module the guest
# does not load: the CRI and ctr's imports both use the native snapshotter.
CRI_SNAPSHOTTER=native
CRI_PAUSE=shim.invalid/cri-pause:1
# shellcheck disable=SC2034 # used by the scenario
CRI_IMAGE=shim.invalid/cri-test:1

# cri_tools DIR: mount the disk with containerd and the CRI client
# (scripts/cri-disk.sh) read-only at DIR; guests attach it only when they
# run a scenario that needs it. CRI_TOOLS names a folder with the same
# layout instead (a trial on a host).
cri_tools() {
	local dir=$1 dev
	mkdir -p "$dir"
	if [ -n "${CRI_TOOLS:-}" ]; then
		mount --bind -o ro "$CRI_TOOLS" "$dir"
		return
	fi
	dev=$(blkid -L "$CRI_LABEL") || { echo "no disk labelled $CRI_LABEL (scripts/cri-disk.sh, attached by boot-guest.sh)"; return 1; }
	mount -t ext4 -o ro,noload "$dev" "$dir"
}

# cri_blob DIR FILE MEDIATYPE: move FILE into the layout's blobs under its
# digest; prints the descriptor.
cri_blob() {
	local dir=$1 file=$2 type=$3 digest size
	digest=$(sha256sum < "$file" | cut -d' ' -f1)
	size=$(stat -c %s "$file")
	mv "$file" "$dir/blobs/sha256/$digest"
	echo "{\"mediaType\": \"$type\", \"digest\": \"sha256:$digest\", \"size\": $size"
}

# cri_image OUT ROOTFS REF CMD...: an OCI image archive (image-layout tar)
# at OUT, one uncompressed layer of ROOTFS whose files host root owns, as
# in an image from a registry; CMD is its entrypoint.
cri_image() {
	local out=$1 rootfs=$2 ref=$3 dir layer diff config manifest args="" a
	shift 3
	for a in "$@"; do args+="${args:+, }\"$a\""; done
	dir=$(mktemp -d "$out.XXXXXX")
	mkdir -p "$dir/blobs/sha256"
	tar -C "$rootfs" --numeric-owner --owner=0 --group=0 -cf "$dir/layer.tar" .
	diff=$(sha256sum < "$dir/layer.tar" | cut -d' ' -f1)
	layer=$(cri_blob "$dir" "$dir/layer.tar" application/vnd.oci.image.layer.v1.tar)
	cat > "$dir/config.json" <<-EOF
	{"architecture": "amd64", "os": "linux",
	 "config": {"Entrypoint": [$args], "Env": ["PATH=/bin:/opt/bin"], "WorkingDir": "/"},
	 "rootfs": {"type": "layers", "diff_ids": ["sha256:$diff"]}}
	EOF
	config=$(cri_blob "$dir" "$dir/config.json" application/vnd.oci.image.config.v1+json)
	cat > "$dir/manifest.json" <<-EOF
	{"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
	 "config": $config},
	 "layers": [$layer}]}
	EOF
	manifest=$(cri_blob "$dir" "$dir/manifest.json" application/vnd.oci.image.manifest.v1+json)
	cat > "$dir/index.json" <<-EOF
	{"schemaVersion": 2, "manifests": [$manifest,
	 "annotations": {"io.containerd.image.name": "$ref", "org.opencontainers.image.ref.name": "${ref##*:}"}}]}
	EOF
	echo '{"imageLayoutVersion": "1.0.0"}' > "$dir/oci-layout"
	tar -C "$dir" -cf "$out" oci-layout index.json blobs
	rm -rf "$dir"
}

# cri_config DIR: containerd's config, everything under DIR; the runc
# handler and the bpffs one appended as the README tells a user of
# Debian's config (a handler table of its own replaces containerd's
# default table of handlers, runc with it).
cri_config() {
	local dir=$1
	cat > "$dir/config.toml" <<-EOF
	version = 2
	root = "$dir/root"
	state = "$dir/state"
	[grpc]
	  address = "$dir/containerd.sock"
	[plugins."io.containerd.grpc.v1.cri"]
	  sandbox_image = "$CRI_PAUSE"
	  [plugins."io.containerd.grpc.v1.cri".containerd]
	    snapshotter = "$CRI_SNAPSHOTTER"
	  [plugins."io.containerd.grpc.v1.cri".cni]
	    bin_dir = "$dir/cni-bin"
	    conf_dir = "$dir/cni-conf"
	EOF
	printf '%s\n' '[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]' \
		'  runtime_type = "io.containerd.runc.v2"' >> "$dir/config.toml"
	cat "${CRI_HANDLER:-/usr/share/shim/containerd/bpffs-handler.toml}" >> "$dir/config.toml"
}

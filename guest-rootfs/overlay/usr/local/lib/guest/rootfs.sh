# Container root file systems for the guest's scenarios and its bench
# (sourced; guest-rootfs/overlay/usr/local/lib/guest/rootfs.sh).
# shellcheck shell=bash

# The host ID the container's root gets by default: the start of the
# range of user "containers" in /etc/subuid (guest-rootfs/overlay/etc).
guest_default_uid() { guest_subid_start /etc/subuid; }
guest_default_gid() { guest_subid_start /etc/subgid; }
guest_subid_start() {
	local name start rest
	while IFS=: read -r name start rest; do
		[ "$name" != containers ] || { echo "$start"; return 0; }
	done < "$1"
	return 1
}

# guest_busybox_bin: a bin folder with busybox and a link for each of its
# applets, made once per boot and copied into every rootfs. One process
# makes the links (perl is essential in Debian): a process per link made
# the first rootfs of every boot the slowest step of its scenario under
# TCG (docs/performance.md), and busybox --install would point them at
# /usr/bin/busybox, which no rootfs has.
guest_busybox_bin() {
	local bin=/tmp/.guest-busybox-bin tmp
	if [ ! -d "$bin" ]; then
		tmp=$(mktemp -d /tmp/.guest-busybox-bin.XXXXXX)
		cp /bin/busybox "$tmp/busybox"
		# shellcheck disable=SC2046 # an applet a word
		perl -e 'my $dir = shift; for (@ARGV) { -e "$dir/$_" or symlink("busybox", "$dir/$_") or die "$dir/$_: $!\n" }' \
			"$tmp" $(/bin/busybox --list) || { rm -rf "$tmp"; return 1; }
		mv -T "$tmp" "$bin" 2>/dev/null || rm -rf "$tmp"
	fi
	echo "$bin"
}

# The folder of the rootfs: root's and closed to group and others, as
# runc's and podman's storage, so that no other user reaches what a
# container makes there (shim run refuses a rootfs they could reach).
GUEST_ROOTFS_DIR=/tmp/.shim-private

# guest_rootfs BIN BPF [HELPER...]: make a rootfs in $GUEST_ROOTFS_DIR and
# print its path: busybox, the HELPERs from the folder BIN in /opt/bin with
# their shared libraries, and the folder BPF's objects (*.bpf.o) in /opt/bpf.
# Each is a copy of a template made once per boot for those arguments:
# one copy is one process, a rootfs made from nothing is a score of them,
# and a process is dear in a TCG guest (docs/performance.md).
guest_rootfs() {
	local bin=$1 bpf=$2 key template dir
	shift 2
	mkdir -m 0700 "$GUEST_ROOTFS_DIR" 2>/dev/null || [ -d "$GUEST_ROOTFS_DIR" ] || return 1
	key="$bin $bpf $*"
	template=$GUEST_ROOTFS_DIR/.template-${key//[^A-Za-z0-9_.-]/_}
	[ -d "$template" ] || guest_rootfs_template "$template" "$bin" "$bpf" "$@" || return 1
	dir=$(mktemp -u "$GUEST_ROOTFS_DIR/shim-rootfs.XXXXXX")
	cp -a "$template" "$dir" || return 1
	echo "$dir"
}

# guest_rootfs_template TEMPLATE BIN BPF [HELPER...]: make guest_rootfs's
# template, whole or not at all (a failed one would be copied for the
# rest of the boot).
guest_rootfs_template() {
	local template=$1 bin=$2 bpf=$3 dir helper lib
	shift 3
	dir=$(mktemp -d "$template.XXXXXX")
	{
		chmod 755 "$dir" &&
		mkdir -p "$dir"/{proc,sys,dev,tmp,etc,root,opt/bin,opt/bpf} &&
		cp -a "$(guest_busybox_bin)" "$dir/bin" &&
		chmod 755 "$dir/bin" &&
		echo "root:x:0:0:root:/root:/bin/sh" > "$dir/etc/passwd" &&
		echo "root:x:0:" > "$dir/etc/group"
	} || { rm -rf "$dir"; return 1; }
	for helper in "$@"; do
		cp "$bin/$helper" "$dir/opt/bin/" || { rm -rf "$dir"; return 1; }
		for lib in $(ldd "$bin/$helper" | awk '/=> \//{print $3} /^[ \t]*\//{print $1}'); do
			cp -L --parents "$lib" "$dir/" || { rm -rf "$dir"; return 1; }
		done
	done
	cp "$bpf"/*.bpf.o "$dir/opt/bpf/" 2>/dev/null || true
	# The container root's own, as chown -R to the default range makes it:
	# used as it is on every kernel. A root-owned one is mounted idmapped
	# where its file system allows (shim/27-rootfs-idmap).
	chmod -R a+rX "$dir" && chown -R "$(guest_default_uid):$(guest_default_gid)" "$dir" ||
		{ rm -rf "$dir"; return 1; }
	mv -T "$dir" "$template" 2>/dev/null || rm -rf "$dir"
	[ -d "$template" ]
}

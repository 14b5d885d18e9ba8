# Shared by the shim scenarios (sourced; not a scenario itself).
# TAP helpers and a cheap container rootfs: busybox-static plus the
# scenario helpers the container needs, with their shared libraries.
# shellcheck shell=bash

shim_n=0
shim_failed=0

ok() {	# ok CONDITION-RESULT TEXT...
	local rc=$1; shift
	shim_n=$((shim_n + 1))
	if [ "$rc" -eq 0 ]; then
		echo "ok $shim_n - $*"
	else
		echo "not ok $shim_n - $*"
		shim_failed=1
	fi
}

check() {	# check TEXT CMD...: ok if CMD succeeds
	local what=$1; shift
	local rc=0
	"$@" >/dev/null 2>&1 || rc=$?
	ok "$rc" "$what"
}

diag() {
	sed 's/^/# /' <<<"$*"
}

# shim_busybox_bin: a bin folder with busybox and a link for each of its
# applets, made once per boot and copied into every rootfs: the 400 `ln`
# took seconds of TCG time for each of the 30 rootfs of a run.
shim_busybox_bin() {
	local bin=/tmp/.shim-busybox-bin tmp applet
	if [ ! -d "$bin" ]; then
		tmp=$(mktemp -d /tmp/.shim-busybox-bin.XXXXXX)
		cp /bin/busybox "$tmp/busybox"
		for applet in $(/bin/busybox --list); do
			[ -e "$tmp/$applet" ] || ln -s busybox "$tmp/$applet"
		done
		mv -T "$tmp" "$bin" 2>/dev/null || rm -rf "$tmp"
	fi
	echo "$bin"
}

# shim_rootfs [HELPER...]: make a rootfs under /tmp, print its path.
shim_rootfs() {
	local dir helper lib
	dir=$(mktemp -d /tmp/shim-rootfs.XXXXXX)
	chmod 755 "$dir"
	mkdir -p "$dir"/{proc,sys,dev,tmp,etc,root,opt/bin,opt/bpf}
	cp -a "$(shim_busybox_bin)" "$dir/bin"
	chmod 755 "$dir/bin"
	echo "root:x:0:0:root:/root:/bin/sh" > "$dir/etc/passwd"
	echo "root:x:0:" > "$dir/etc/group"
	for helper in "$@"; do
		cp "${SCENARIO_BIN:-/opt/scenarios/bin}/$helper" "$dir/opt/bin/"
		for lib in $(ldd "${SCENARIO_BIN:-/opt/scenarios/bin}/$helper" | awk '/=> \//{print $3} /^[ \t]*\//{print $1}'); do
			cp -L --parents "$lib" "$dir/"
		done
	done
	cp ${SCENARIO_BPF:-/opt/scenarios/bpf}/shim_*.bpf.o "$dir/opt/bpf/" 2>/dev/null || true
	chmod -R a+rX "$dir"
	# The container root's own, as chown -R to the default range makes it:
	# used as it is on every kernel. A root-owned one is mounted idmapped
	# where its file system allows (shim/27-rootfs-idmap).
	chown -R "$(shim_default_uid):$(shim_default_gid)" "$dir"
	echo "$dir"
}

# The host ID the container's root gets by default: the start of the
# range of user "containers" in /etc/subuid (guest-rootfs/overlay/etc).
shim_default_uid() {
	awk -F: '$1 == "containers" { print $2; exit }' /etc/subuid
}
shim_default_gid() {
	awk -F: '$1 == "containers" { print $2; exit }' /etc/subgid
}

# Mount lines of the host (the shim's mount namespace), for leak checks.
host_mounts() {
	wc -l < /proc/self/mounts
}

# pids_in_ns NSLINK: processes whose PID namespace is NSLINK ("pid:[N]").
pids_in_ns() {
	local want=$1 p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/pid" 2>/dev/null)" = "$want" ] && echo "${p#/proc/}"
	done
	return 0
}

# wait_for COUNT_TENTHS CMD...: poll until CMD succeeds.
wait_for() {
	local tries=$1; shift
	while [ "$tries" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		tries=$((tries - 1))
	done
	return 1
}

# bpf_token_support: 0 if the kernel has BPF tokens; reason on stdout otherwise.
# Probes BPF_TOKEN_CREATE with a bad fd (EBADF with tokens, EINVAL without).
bpf_token_support() {
	${SCENARIO_BIN:-/opt/scenarios/bin}/shim_probe token
}

shim_done() {
	exit $shim_failed
}

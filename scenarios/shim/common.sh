# Shared by the shim scenarios (sourced; not a scenario itself).
# TAP helpers and a cheap container rootfs: busybox-static plus the
# scenario helpers the container needs, with their shared libraries.
# shellcheck shell=bash

# The guest's own library: root file systems, shared with the bench.
# shellcheck source=guest-rootfs/overlay/usr/local/lib/guest/rootfs.sh
source "${GUEST_LIB:-/usr/local/lib/guest}/rootfs.sh"

# The scenarios' TAP helpers: ok, check, skip, diag, tap_done.
# shellcheck source=guest-rootfs/overlay/usr/local/lib/guest/tap.sh
source "${GUEST_LIB:-/usr/local/lib/guest}/tap.sh"

# shim_rootfs [HELPER...]: a rootfs under /tmp with the scenario helpers
# named and every scenario BPF object (guest_rootfs); prints its path.
shim_rootfs() {
	guest_rootfs "${SCENARIO_BIN:-/opt/scenarios/bin}" "${SCENARIO_BPF:-/opt/scenarios/bpf}" "$@"
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

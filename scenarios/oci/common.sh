# Shared by the OCI scenarios (sourced; not a scenario itself): OCI
# bundles for runc and crun whose createRuntime hook is `shim hook bpffs`,
# on top of the shim scenarios' TAP helpers and cheap busybox rootfs.
# shellcheck shell=bash
# shellcheck source=scenarios/shim/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../shim/common.sh"
# shellcheck source=guest-rootfs/overlay/usr/local/lib/guest/oci.sh
source "${GUEST_LIB:-/usr/local/lib/guest}/oci.sh"

OCI_PREFIX=invalid.shim.bpffs.
# shellcheck disable=SC2034 # used by the scenarios
OCI_ALL="\"${OCI_PREFIX}delegate_cmds\": \"map_create:prog_load:btf_load\",
	\"${OCI_PREFIX}delegate_maps\": \"array\",
	\"${OCI_PREFIX}delegate_progs\": \"socket_filter\",
	\"${OCI_PREFIX}delegate_attachs\": \"any\""

# oci_policy FILE: a host policy that allows what the scenarios delegate
# (and one more program type, so "beyond" is not "not named").
oci_policy() {
	cat > "$1" <<-'POLICY'
	# test policy
	delegate_cmds = map_create:prog_load:btf_load:obj_get
	delegate_maps = array:hash
	delegate_progs = socket_filter:xdp
	delegate_attachs = any
	POLICY
}

# oci_bundle DIR ROOTFS POLICY ANNOTATIONS USERNS CMD...: write DIR/config.json.
#   ANNOTATIONS  JSON object members ("k": "v", ...), may be empty
#   USERNS       yes: a user namespace (root is host uid 100000); no: none
# The container has its own network namespace (sysfs and lo of its own),
# CAP_BPF and CAP_NET_ADMIN, and no seccomp filter: bpf(2) is allowed, the
# kernel decides.
oci_bundle() {
	local dir=$1 rootfs=$2 policy=$3 ann=$4 userns=$5 opts=(); shift 5
	[ "$userns" != yes ] || opts+=(--userns 100000)
	[ -z "${OCI_ENV:-}" ] || opts+=(--env "$OCI_ENV")
	mkdir -p "$dir"
	oci_config --root "$rootfs" --sysfs --tmp --masked "${opts[@]}" --annotations "$ann" --hook "$policy" \
		--caps "CAP_CHOWN CAP_DAC_OVERRIDE CAP_FOWNER CAP_SETUID CAP_SETGID CAP_KILL CAP_NET_ADMIN CAP_BPF" \
		-- "$@" > "$dir/config.json"
}

# oci_host_state: the host side a container must not leave behind:
# mount count, our fds, processes (a sorted list of commands).
oci_host_state() {
	echo "mounts $(wc -l < /proc/self/mounts)"
	echo "fds $(ls /proc/$$/fd | wc -l)"
	ps -e -o comm= | sort | uniq -c | tr -s ' ' | grep -v -e ' ps$' -e ' sort$' -e ' uniq$' -e ' tr$' -e ' grep$' -e ' bash$'
}

# oci_mounts_of_bundle DIR: mount lines anywhere that mention DIR.
oci_bundle_mounts() {
	grep -c -- "$1" /proc/self/mountinfo || true
}

# oci_setup: a bundle directory with a rootfs holding shim_bpfcount and
# the counting program, and a policy; sets OCI_DIR, cleaned up on exit.
oci_setup() {
	OCI_DIR=$(mktemp -d /tmp/oci-bundle.XXXXXX)
	chmod 755 "$OCI_DIR"
	mv "$(shim_rootfs shim_bpfcount)" "$OCI_DIR/rootfs"
	oci_policy "$OCI_DIR/policy"
	# Unprivileged BPF must be off, or socket filters would load without a token.
	[ "$(cat /proc/sys/kernel/unprivileged_bpf_disabled)" != 0 ] || echo 2 > /proc/sys/kernel/unprivileged_bpf_disabled
	trap 'oci_cleanup' EXIT
}

oci_cleanup() {
	local id
	for id in $(runc list -q 2>/dev/null); do runc delete -f "$id" >/dev/null 2>&1; done
	for id in $(crun list -q 2>/dev/null); do crun delete -f "$id" >/dev/null 2>&1; done
	rm -rf "$OCI_DIR"
}

# shellcheck disable=SC2034 # used by the scenarios
OCI_COUNT=(/opt/bin/shim_bpfcount -q /opt/bpf/shim_count.bpf.o 10)

# oci_run RUNTIME ID ANNOTATIONS USERNS CMD...: write the bundle, run it
# to completion; output (stdout and stderr) on stdout, the status as rc.
oci_run() {
	local runtime=$1 id=$2 ann=$3 userns=$4; shift 4
	oci_bundle "$OCI_DIR" rootfs "$OCI_DIR/policy" "$ann" "$userns" "$@"
	"$runtime" run --bundle "$OCI_DIR" "$id" 2>&1 < /dev/null
}

# oci_leftovers RUNTIME: what a finished container may not leave on the
# host: mounts under the bundle, the runtime's containers, processes of
# the container's root (host uid 100000) or the hook.
oci_leftovers() {
	local runtime=$1 m
	m=$(grep -c -- "$OCI_DIR" /proc/self/mountinfo)
	[ "$m" = 0 ] || echo "mounts under the bundle: $m"
	[ -z "$("$runtime" list -q 2>/dev/null)" ] || echo "$runtime containers: $("$runtime" list -q | tr '\n' ' ')"
	pgrep -u 100000 -f /opt/bin/ >/dev/null && echo "container processes: $(pgrep -u 100000 -af /opt/bin/ | tr '\n' ' ')"
	pgrep -f 'shim hook' >/dev/null && echo "hook processes: $(pgrep -af 'shim hook' | tr '\n' ' ')"
	return 0
}

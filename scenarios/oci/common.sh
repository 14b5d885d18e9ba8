# Shared by the OCI scenarios (sourced; not a scenario itself): OCI
# bundles for runc and crun whose createRuntime hook is `shim hook bpffs`,
# on top of the shim scenarios' TAP helpers and cheap busybox rootfs.
# shellcheck shell=bash
# shellcheck source=scenarios/shim/common.sh
source "$(dirname "${BASH_SOURCE[0]}")/../shim/common.sh"

OCI_PREFIX=invalid.shim.bpffs.
OCI_SHIM=${OCI_SHIM:-/usr/bin/shim}
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
	local dir=$1 rootfs=$2 policy=$3 ann=$4 userns=$5; shift 5
	local args="" a caps maps="" nsuser=""
	for a in "$@"; do
		a=${a//\\/\\\\}; a=${a//\"/\\\"}	# JSON string escapes
		args+="${args:+, }\"$a\""
	done
	caps='"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_SETUID", "CAP_SETGID", "CAP_KILL", "CAP_NET_ADMIN", "CAP_BPF"'
	if [ "$userns" = yes ]; then
		nsuser=', {"type": "user"}'
		maps='"uidMappings": [{"containerID": 0, "hostID": 100000, "size": 65536}],
		"gidMappings": [{"containerID": 0, "hostID": 100000, "size": 65536}],'
	fi
	mkdir -p "$dir"
	cat > "$dir/config.json" <<-EOF_CONFIG
	{
	  "ociVersion": "1.0.2",
	  "process": {
	    "terminal": false,
	    "user": {"uid": 0, "gid": 0},
	    "args": [$args],
	    "env": ["PATH=/bin:/opt/bin"${OCI_ENV:+, \"$OCI_ENV\"}],
	    "cwd": "/",
	    "capabilities": {"bounding": [$caps], "effective": [$caps], "permitted": [$caps]},
	    "noNewPrivileges": true
	  },
	  "root": {"path": "$rootfs", "readonly": false},
	  "hostname": "oci",
	  "mounts": [
	    {"destination": "/proc", "type": "proc", "source": "proc"},
	    {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]},
	    {"destination": "/sys", "type": "sysfs", "source": "sysfs", "options": ["nosuid", "noexec", "nodev", "ro"]},
	    {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev"]}
	  ],
	  "annotations": {$ann},
	  "hooks": {"createRuntime": [{"path": "$OCI_SHIM", "args": ["shim", "hook", "bpffs", "--policy", "$policy"], "timeout": 30}]},
	  "linux": {
	    $maps
	    "namespaces": [{"type": "pid"}, {"type": "network"}, {"type": "ipc"}, {"type": "uts"}, {"type": "mount"}$nsuser],
	    "maskedPaths": ["/proc/kcore", "/sys/firmware"],
	    "readonlyPaths": ["/proc/sys", "/proc/sysrq-trigger"]
	  }
	}
	EOF_CONFIG
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

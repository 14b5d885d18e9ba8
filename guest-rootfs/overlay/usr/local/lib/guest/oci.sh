# The one generator of OCI bundles' config.json in the guest, for the
# OCI scenarios (scenarios/oci/common.sh) and the bench (bench/guest/run).
# shellcheck shell=bash

# The shim whose hook the bundles name.
OCI_SHIM=${OCI_SHIM:-/usr/bin/shim}

# oci_json_strings WORD...: the words as JSON strings joined by ", ".
oci_json_strings() {
	local w out=""
	for w in "$@"; do
		w=${w//\\/\\\\}; w=${w//\"/\\\"}
		out+="${out:+, }\"$w\""
	done
	echo "$out"
}

# oci_config [OPTION]... -- CMD...: a config.json running CMD as the
# container's root, on stdout. Options:
#   --root PATH          the rootfs (required)
#   --hostname NAME      default "oci"
#   --env VAR=VALUE      more of the environment (PATH=/bin:/opt/bin is set)
#   --caps "CAP_X ..."   bounding, effective and permitted (default none)
#   --userns HOSTID      a user namespace, 65536 IDs from HOSTID
#   --cgroupns           a cgroup namespace
#   --sysfs              a read-only sysfs (the container has its own network)
#   --sys-rbind          the host's /sys bound recursively, read-only, as a
#                        base spec for containerd may: its cgroup mounts too
#   --tmp                a tmpfs on /tmp
#   --masked             runc's kernel files masked and /proc/sys read-only
#   --annotations JSON   the annotations object's members ("k": "v", ...)
#   --hook POLICY        the createRuntime hook `shim hook bpffs --policy POLICY`
#                        (of the shim OCI_SHIM names)
oci_config() {
	local root="" hostname=oci env=("PATH=/bin:/opt/bin") caps="" userns="" cgroupns="" sysfs="" sys_rbind="" tmp=""
	local masked="" annotations="" hook="" caps_json ns maps="" mounts hooks="" linux_extra=""
	while [ $# -gt 0 ]; do
		case $1 in
		--root) root=$2; shift 2 ;;
		--hostname) hostname=$2; shift 2 ;;
		--env) env+=("$2"); shift 2 ;;
		--caps) caps=$2; shift 2 ;;
		--userns) userns=$2; shift 2 ;;
		--cgroupns) cgroupns=1; shift ;;
		--sysfs) sysfs=1; shift ;;
		--sys-rbind) sys_rbind=1; shift ;;
		--tmp) tmp=1; shift ;;
		--masked) masked=1; shift ;;
		--annotations) annotations=$2; shift 2 ;;
		--hook) hook=$2; shift 2 ;;
		--) shift; break ;;
		*) echo "oci_config: unknown option $1" >&2; return 2 ;;
		esac
	done
	[ -n "$root" ] && [ $# -gt 0 ] || { echo "oci_config: --root and a command are required" >&2; return 2; }
	# shellcheck disable=SC2086 # one capability a word
	caps_json=$(oci_json_strings $caps)
	ns='{"type": "pid"}, {"type": "network"}, {"type": "ipc"}, {"type": "uts"}, {"type": "mount"}'
	[ -z "$userns" ] || ns+=', {"type": "user"}'
	[ -z "$cgroupns" ] || ns+=', {"type": "cgroup"}'
	[ -z "$userns" ] || maps="\"uidMappings\": [{\"containerID\": 0, \"hostID\": $userns, \"size\": 65536}],
    \"gidMappings\": [{\"containerID\": 0, \"hostID\": $userns, \"size\": 65536}],"
	mounts='{"destination": "/proc", "type": "proc", "source": "proc"},
    {"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]}'
	[ -z "$sysfs" ] || mounts+=',
    {"destination": "/sys", "type": "sysfs", "source": "sysfs", "options": ["nosuid", "noexec", "nodev", "ro"]}'
	[ -z "$sys_rbind" ] || mounts+=',
    {"destination": "/sys", "type": "bind", "source": "/sys", "options": ["rbind", "ro", "nosuid", "noexec", "nodev"]}'
	[ -z "$tmp" ] || mounts+=',
    {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev"]}'
	[ -z "$hook" ] || hooks="\"hooks\": {\"createRuntime\": [{\"path\": \"$OCI_SHIM\", \"args\": [\"shim\", \"hook\", \"bpffs\", \"--policy\", \"$hook\"], \"timeout\": 30}]},"
	[ -z "$masked" ] || linux_extra=',
    "maskedPaths": ["/proc/kcore", "/sys/firmware"],
    "readonlyPaths": ["/proc/sys", "/proc/sysrq-trigger"]'
	cat <<-EOF_CONFIG
	{
	  "ociVersion": "1.0.2",
	  "process": {
	    "terminal": false,
	    "user": {"uid": 0, "gid": 0},
	    "args": [$(oci_json_strings "$@")],
	    "env": [$(oci_json_strings "${env[@]}")],
	    "cwd": "/",
	    "capabilities": {"bounding": [$caps_json], "effective": [$caps_json], "permitted": [$caps_json]},
	    "noNewPrivileges": true
	  },
	  "root": {"path": "$root", "readonly": false},
	  "hostname": "$hostname",
	  "mounts": [
	    $mounts
	  ],
	  "annotations": {$annotations},
	  $hooks
	  "linux": {
	    $maps
	    "namespaces": [$ns]$linux_extra
	  }
	}
	EOF_CONFIG
}

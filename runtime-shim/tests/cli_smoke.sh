#!/usr/bin/env bash
# The built shim's behaviour on bad input: exit 125 and the message, before
# any container exists; then what a user without root gets.  Runs
# unprivileged-safe: nothing here needs the host's root.
set -euo pipefail
shim=${O:?}/shim
n=0 failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"

report() {	# report RC TEXT [DETAIL]
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		[ -z "${3:-}" ] || echo "#   $3"
		failed=1
	fi
}
expect() {	# expect TEXT RC MESSAGE ARGS...: exit RC, stderr contains MESSAGE
	local what=$1 want_rc=$2 want_msg=$3; shift 3
	local out rc=0
	out=$("$shim" "$@" 2>&1 >/dev/null) || rc=$?
	[[ $rc -eq $want_rc && $out == *"$want_msg"* ]]
	report $? "$what" "exit $rc, stderr: $out"
}
# as_user CMD...: run CMD without root (as nobody when we are root).
as_user() {
	if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

echo "1..25"
expect "unknown option" 125 'shim: unknown option "--frob" (see shim --help)' run --frob --rootfs / true
expect "missing --rootfs" 125 'shim: run: --rootfs DIR is required' run true
expect "bad --net" 125 'shim: --net: unknown value "bridge" (valid: none, host)' run --net bridge --rootfs / true
expect "bad --uid-map" 125 'shim: --uid-map: invalid id map "1:2"' run --uid-map 1:2 --rootfs / true
expect "empty delegation element" 125 'shim: --bpf-delegate-maps=array,: empty element' run --bpf-delegate-maps=array, --rootfs / true
expect "missing rootfs dir" 125 'shim: --rootfs /nonexistent/rootfs: No such file or directory' run --rootfs /nonexistent/rootfs true
expect "bad seccomp file" 125 'shim: --seccomp: open /nonexistent/profile: No such file or directory' run --seccomp /nonexistent/profile --rootfs / true

# errno:ENAME takes any errno name: line 1 passes, line 2 is the error.
printf 'mkdir errno:EHWPOISON\nrmdir errno:ENOTSUP\nfrobnicate kill\n' > "$tmp/profile"
expect "errno:ENAME accepts any errno name (EHWPOISON, ENOTSUP)" 125 \
	"shim: seccomp profile $tmp/profile:3: unknown system call \"frobnicate\"" run --seccomp "$tmp/profile" --rootfs / true
printf 'mkdir errno:EFROB\n' > "$tmp/profile"
expect "errno:ENAME rejects an unknown name" 125 \
	"shim: seccomp profile $tmp/profile:1: unknown action \"errno:EFROB\"" run --seccomp "$tmp/profile" --rootfs / true

# shim bpf-needs: bad input is named, exit 125, nothing on stdout.
printf 'not an object\n' > "$tmp/text.o"
head -c 40 "$(type -P true)" > "$tmp/short.o"
expect "bpf-needs: not an ELF file" 125 "shim bpf-needs: $tmp/text.o: not an ELF file" bpf-needs "$tmp/text.o"
expect "bpf-needs: an x86-64 program is not BPF" 125 \
	"shim bpf-needs: $(type -P true): not a BPF object: ELF machine 62 (BPF is 247)" bpf-needs "$(type -P true)"
expect "bpf-needs: a truncated file" 125 "shim bpf-needs: $tmp/short.o: truncated: 40 bytes" bpf-needs "$tmp/short.o"
expect "bpf-needs: a missing file" 125 "shim bpf-needs: /nonexistent.o: No such file or directory" bpf-needs /nonexistent.o
expect "bpf-needs: an unknown format" 125 \
	"shim bpf-needs: --format docker: unknown (valid: shim, oci, policy, systemd, incus, lxd)" bpf-needs --format docker "$tmp/text.o"
out=$("$shim" bpf-needs --help)
[[ $out == "Usage: shim bpf-needs [--format FORMAT] [--verbose] OBJ..."* ]]
report $? "bpf-needs --help prints its usage"

out=$("$shim" --help)
[[ $out == "Usage: shim run [OPTIONS] --rootfs DIR [--] CMD [ARGS...]"* ]]
report $? "--help prints the usage"
rc=0; bare=$("$shim" 2>&1) || rc=$?
[[ $rc -eq 0 && $bare == "$out" ]]
report $? "a bare shim prints the usage, as runc does" "exit $rc: ${bare:0:80}"
[[ $out == *"--watch-threads"*"needs --events FILE"* && $out == *"container-start, thread-exit, container-exit"* ]]
report $? "--help says --watch-threads needs --events and names the events"
[[ $(tr -s ' \n' ' ' <<<"$out") == *"--uid-map 0:\$(id -u):1 --gid-map 0:\$(id -g):1"* ]]
report $? "--help says how to run without root"
[[ $("$shim" --version) == "shim "[0-9]* ]]
report $? "--version"

# The shipped OCI profile is the default filter's rules, generated.
prof=$(dirname "$0")/../oci/seccomp-bpf.json
diff=$("$shim" seccomp-profile --bpf | diff -u "$prof" - | head -20) || true
[[ -z $diff && -s $prof ]]
report $? "oci/seccomp-bpf.json is \`shim seccomp-profile --bpf\` (make -C runtime-shim seccomp-json)" "$diff"
expect "unknown command lists every command" 125 \
	'shim: unknown command "frob" (valid: run, ps, hook, seccomp-profile, bpf-needs, help, version; see shim --help)' frob

# Without root.  The BPF probe must blame the missing privilege, not the
# kernel, unless the kernel really lacks BPF_TOKEN_CREATE.
rc=0; out=$(as_user "$shim" run --verbose --bpf-delegate-maps=array --rootfs / true 2>&1) || rc=$?
if [[ $out == *"BPF token probe: BPF_TOKEN_CREATE with fd -1:"* ]]; then
	[[ $rc -eq 125 && $out == *"this kernel cannot delegate BPF"* ]]
	report $? "without root, on a kernel without BPF tokens: the kernel is named" "exit $rc: $out"
else
	[[ $rc -eq 125 && $out == *'shim: --bpf-delegate-maps needs root: fsopen("bpf"): EPERM ('*'run it as root, or leave out the --bpf-delegate-* options)'* &&
		$out != *"cannot delegate"* ]]
	report $? "without root: --bpf-delegate-* says the shim needs root, not that the kernel cannot" "exit $rc: $out"
fi

# A user namespace of one's own: a range of host IDs needs root, one's
# own ID does not.  Some hosts forbid unprivileged user namespaces.
if ! as_user unshare --user true 2>/dev/null; then
	report 0 "without root: a range of host IDs is explained # SKIP unprivileged user namespaces are disabled on this host"
	report 0 "without root: --uid-map 0:UID:1 runs, with lo up # SKIP unprivileged user namespaces are disabled on this host"
else
	uid=$(as_user id -u) gid=$(as_user id -g)
	rc=0; out=$(as_user "$shim" run --uid-map 0:100000:65536 --gid-map 0:100000:65536 --rootfs / true 2>&1) || rc=$?
	# The default range (/etc/subuid's "containers") cannot be mapped, or
	# this host has none: either way the rootless form is named.
	[[ $rc -eq 125 && $out == *"--uid-map 0:$uid:1 --gid-map 0:$gid:1"* ]]
	report $? "without root: a range of host IDs is explained" "exit $rc: $out"
	# A rootfs of the host's own programs, owned by the user.
	mkdir -p "$tmp/root"/{bin,proc,sys,dev,tmp}
	for p in sh cat; do
		cp -L "$(command -v $p)" "$tmp/root/bin/"
		for lib in $(ldd "$(command -v $p)" | awk '/=> \//{print $3} /^[ \t]*\//{print $1}'); do
			cp -L --parents "$lib" "$tmp/root/"
		done
	done
	chown -R "$uid:$gid" "$tmp/root" 2>/dev/null || true
	rc=0; out=$(as_user "$shim" run --uid-map "0:$uid:1" --gid-map "0:$gid:1" --rootfs "$tmp/root" \
		/bin/sh -c 'cat /proc/self/uid_map /sys/class/net/lo/flags; echo > /new && echo wrote' 2>&1) || rc=$?
	# lo's flags: IFF_UP (0x1) | IFF_LOOPBACK (0x8)
	[[ $rc -eq 0 && $(tr -s ' \n' ' ' <<<"$out") == " 0 $uid 1 0x9 wrote " ]]
	report $? "without root: --uid-map 0:UID:1 runs, with lo up, the rootfs writable" "exit $rc: $out"
fi
exit $failed

#!/usr/bin/env bash
# Boot one kernel of the matrix under QEMU with the guest initramfs and
# collect its results: build/results/KERNEL/{console.log,tap}.
# Fails when the guest hangs, stops early, or its console shows an oops,
# BUG, WARNING, KASAN report or panic.
# Usage: boot-guest.sh KERNEL [check|demo] [SCENARIO...]
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kernel=${1:?usage: boot-guest.sh KERNEL [check|demo] [SCENARIO...]}
mode=${2:-check}
shift $(( $# >= 2 ? 2 : 1 ))
scenarios=$(IFS=,; echo "$*")
image=$build_dir/images/$kernel.bzImage
initrd=$build_dir/rootfs/initrd.cpio.gz
results=$build_dir/results/$kernel
limit=${GUEST_TIMEOUT:-1800}
[ -f "$image" ] || die "$image missing"
[ -f "$initrd" ] || die "$initrd missing: run 'make rootfs'"

# KVM only when it really runs guest code: /dev/kvm may open and the
# guest still never execute. The probe is a boot sector that writes to
# isa-debug-exit, which ends QEMU with status (0x31 << 1) | 1 = 99.
kvm_works() {
	[ -w /dev/kvm ] || [ "${1:-kvm}" != kvm ] || return 1
	local sector rc=0
	sector=$(mktemp)
	{ printf '\xb0\x31\xe6\xf4\xf4\xeb\xfe'; head -c 503 /dev/zero; printf '\x55\xaa'; } > "$sector"
	timeout 15 qemu-system-x86_64 -accel "${1:-kvm}" -M pc -nodefaults -display none -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-drive "file=$sector,format=raw,if=floppy" >/dev/null 2>&1 || rc=$?
	rm -f "$sector"
	[ $rc -eq 99 ]
}
# The answer holds until the host reboots.
# Guests boot side by side: one probes, the others wait for its answer.
probe=$build_dir/.accel-$(cat /proc/sys/kernel/random/boot_id)
probe_accel() {
	[ -s "$probe" ] && return 0
	rm -f "$build_dir"/.accel-*
	if kvm_works; then echo kvm; else echo tcg; fi > "$probe.tmp"
	mv "$probe.tmp" "$probe"
}
(with_lock accel probe_accel)
accel=$(cat "$probe")
[ -n "$accel" ] || die "could not tell whether KVM works"

rm -rf "$results"; mkdir -p "$results"
: > "$results/tap.raw"
append="console=ttyS0 rdinit=/init panic=-1 loglevel=6 lsm=landlock,lockdown,yama,integrity,bpf"
append+=" guest.mode=$mode${scenarios:+ guest.scenarios=$scenarios} ${GUEST_APPEND:-}"

say "$kernel: booting ($accel, timeout ${limit}s)"
start=$SECONDS
timeout -k 10 "$limit" qemu-system-x86_64 -accel "$accel" -cpu max -smp 2 -m 2048 \
	-nodefaults -no-user-config -display none -no-reboot \
	-kernel "$image" -initrd "$initrd" -append "$append" \
	-serial "file:$results/console.log" -serial "file:$results/tap.raw" &
qemu=$!
# Progress: the top-level result lines as they arrive.
if [ "$mode" = demo ]; then
	tail -n +1 -f --pid=$qemu "$results/tap.raw" | stdbuf -oL tr -d '\r' &
else
	tail -n +1 -f --pid=$qemu "$results/tap.raw" | stdbuf -oL tr -d '\r' | grep --line-buffered -E '^(not )?ok ' | sed -u "s/^/  [$kernel] /" &
fi
progress=$!
rc=0
wait $qemu || rc=$?
wait $progress 2>/dev/null || true
tr -d '\r' < "$results/tap.raw" > "$results/tap"
rm -f "$results/tap.raw"
elapsed=$((SECONDS - start))

problem=""
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	problem="guest hung: killed after ${limit}s"
elif [ $rc -ne 0 ]; then
	problem="qemu exited with status $rc"
fi
oops=$(grep -nE 'Oops|BUG:|WARNING:|KASAN|Kernel panic|general protection fault|UBSAN|kmemleak:.*unreferenced|possible circular locking|INFO: task .* blocked' "$results/console.log" | head -n 20 || true)
[ -z "$oops" ] || problem="${problem:+$problem; }kernel reported a problem:
$oops"
[ -n "$problem" ] || grep -q '^# guest: done' "$results/tap" || problem="guest stopped before the scenarios finished"

if [ -n "$problem" ]; then
	echo "$problem" > "$results/problem"
	printf -- '--- last 40 console lines (%s) ---\n' "${results#"$repo_root"/}/console.log" >&2
	tail -n 40 "$results/console.log" >&2
	die "$kernel: $problem"
fi
say "$kernel: guest finished in ${elapsed}s"

#!/usr/bin/env bash
# Print the QEMU accelerator a guest kernel runs under: kvm or tcg.
# GUEST_ACCEL=kvm|tcg skips the probes.
# Usage: guest-accel.sh IMAGE
#        guest-accel.sh --kvm-failed   (KVM stopped a guest: TCG from now on)
#
# /dev/kvm existing proves little. Seen here: it opens and never runs
# guest code; and, under nested virtualisation, it runs real-mode code
# but stops with a KVM internal error inside the 64-bit kernel, which
# leaves QEMU paused until the hang timeout. So KVM is used only when
# it has run a boot sector and booted IMAGE itself as far as mounting
# its root.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

image=${1:?usage: guest-accel.sh IMAGE | --kvm-failed}
host_answer=$build_dir/.accel-$(cat /proc/sys/kernel/random/boot_id)
# A host whose KVM stopped one guest mid-run is not trusted with the
# guests that boot after it (boot-guest.sh).
if [ "$image" = --kvm-failed ]; then
	distrust() { echo tcg > "$host_answer"; }
	with_lock accel distrust
	exit 0
fi
case ${GUEST_ACCEL:-} in
kvm|tcg) echo "$GUEST_ACCEL"; exit 0 ;;
"") ;;
*) die "GUEST_ACCEL=$GUEST_ACCEL: expected kvm or tcg" ;;
esac

# A boot sector that writes to isa-debug-exit, which ends QEMU with
# status (0x31 << 1) | 1 = 99.
runs_boot_sector() {
	local sector rc=0
	sector=$(mktemp)
	{ printf '\xb0\x31\xe6\xf4\xf4\xeb\xfe'; head -c 503 /dev/zero; printf '\x55\xaa'; } > "$sector"
	timeout 15 qemu-system-x86_64 -accel kvm -M pc -nodefaults -display none -no-reboot \
		-device isa-debug-exit,iobase=0xf4,iosize=0x04 \
		-drive "file=$sector,format=raw,if=floppy" >/dev/null 2>&1 || rc=$?
	rm -f "$sector"
	[ $rc -eq 99 ]
}

# Without an initramfs or root device the kernel panics at the end of
# its boot; panic=-1 with -no-reboot turns that into QEMU exiting. A KVM
# internal error pauses the guest instead: stop waiting at its message.
boots_image() {
	local dir qemu waited=0 rc=1
	dir=$(mktemp -d)
	qemu-system-x86_64 -accel kvm "${guest_machine[@]}" \
		-kernel "$image" -append "console=ttyS0 panic=-1" \
		-serial "file:$dir/console" >/dev/null 2>"$dir/stderr" &
	qemu=$!
	while kill -0 $qemu 2>/dev/null && [ $waited -lt 30 ] &&
		! grep -qE "$kvm_failure" "$dir/stderr"; do
		sleep 1; waited=$((waited + 1))
	done
	kill $qemu 2>/dev/null || true
	wait $qemu 2>/dev/null || true
	grep -q 'VFS: Unable to mount root' "$dir/console" && rc=0
	rm -rf "$dir"
	return $rc
}

probe() {
	local host=$host_answer answer
	# Answers hold until the host reboots; guests booting side by side
	# share them (the caller holds the lock).
	if [ ! -s "$host" ]; then
		rm -f "$build_dir"/.accel-*
		if [ -w /dev/kvm ] && runs_boot_sector; then echo kvm; else echo tcg; fi > "$host"
	fi
	[ "$(cat "$host")" = kvm ] || { echo tcg; return; }
	answer=$host-$(sha256sum "$image" | cut -c1-16)
	if [ ! -s "$answer" ]; then
		if ! boots_image; then
			# A host whose KVM cannot boot one kernel is not trusted with others.
			say "KVM runs a boot sector but did not boot ${image#"$repo_root"/}: using TCG"
			echo tcg > "$host"
			echo tcg; return
		fi
		echo kvm > "$answer"
	fi
	echo kvm
}

with_lock accel probe

#!/usr/bin/env bash
# Boot one kernel of the matrix under QEMU with the guest initramfs and
# collect its results: build/results/KERNEL/{console.log,tap}. KERNEL is
# a row of scripts/kernels.tsv: its image, command line, time limits. It
# boots, watches and judges; make check's reuse of results is
# guest-check.sh's.
# Fails when the guest hangs, stops early, or its console shows an oops,
# BUG, WARNING, KASAN or kmemleak report or panic, or the kmemleak of an
# image built with it did not scan. A guest that KVM stops mid-run boots
# again under TCG, from the start.
# Usage: boot-guest.sh KERNEL [check|demo|bench] [SCENARIO...]
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

kernel=${1:?usage: boot-guest.sh KERNEL [check|demo|bench] [SCENARIO...]}
mode=${2:-check}
shift $(( $# >= 2 ? 2 : 1 ))
kernel_row "$kernel" || die "no kernel $kernel in scripts/kernels.tsv"
# What its lines start with: make check's quick bench boots beside the
# matrix's guests of the same kernels.
label=$kernel
[ "$mode" = check ] || label="$kernel $mode"
# An earlier run's results must not stand for this one, whatever stops it.
rm -rf "${results_dir:?}/$kernel"
# The scenarios the guest runs: words joined by commas (scenario.sh).
scenarios=$(IFS=,; echo "$*")
image=$build_dir/images/$k_image.bzImage
initrd=$build_dir/rootfs/initrd.cpio
results=$results_dir/$kernel
# A hang detector for the whole boot (the row's limit, times
# GUEST_TIMEOUT_SCALE): every scenario has a limit of its own, and all of
# them together took 18 minutes under TCG with every guest at once.
limit=${GUEST_TIMEOUT:-$((k_limit * ${GUEST_TIMEOUT_SCALE:-1}))}
[ -f "$image" ] || die "$image missing"
[ -f "$initrd" ] || die "$initrd missing: run 'make rootfs'"
# kmemleak's final scan (guest-rootfs/overlay/init) is required of an
# image built with it: only then does a clean console say something.
kmemleak=
if grep -qsx 'CONFIG_DEBUG_KMEMLEAK=y' "$build_dir/images/$k_image.config"; then kmemleak=1; fi

append="console=ttyS0 rdinit=/init panic=-1 loglevel=6 lsm=landlock,lockdown,yama,integrity,bpf"
append+="${k_args:+ $k_args} guest.mode=$mode${scenarios:+ guest.scenarios=$scenarios} ${GUEST_APPEND:-}"
# The row's scale, times GUEST_TIMEOUT_SCALE (run-matrix.sh: a second
# matrix may take half of the cores).
scale=$((k_scale * ${GUEST_TIMEOUT_SCALE:-1}))
[ "$scale" -eq 1 ] || append+=" guest.timeout_scale=$scale"

mkdir -p "$results"
accel=$("$repo_root/scripts/guest-accel.sh" "$image")
# The containerd scenarios' disk (scripts/cri-disk.sh): attached only to a
# guest that runs one of them, so that no other boot carries it.
disk=()
# runs_cri: the scenarios selected include one (the manifest, rootfs-pack.sh).
runs_cri() {
	local id
	while IFS=$'\t' read -r id _; do
		[[ $id == *-containerd-cri ]] && scenario_selects "$scenarios" "$id" && return 0
	done < "$build_dir/rootfs/scenario-manifest"
	return 1
}
if [ "$mode" = check ] && runs_cri; then
	[ -f "$build_dir/rootfs/cri-disk.img" ] || die "$build_dir/rootfs/cri-disk.img missing: run 'make rootfs'"
	disk=(-drive "file=$build_dir/rootfs/cri-disk.img,if=virtio,format=raw,readonly=on")
fi

# boot ACCEL APPEND PART: one QEMU run. Its serial ports go to PART.console
# and PART.tap (raw), its stderr to PART.qemu; PART.kvm-failed says that
# KVM stopped the guest.
boot() {
	local accel=$1 append=$2 part=$3 qemu kvm_watch progress rc=0 accel_opt=$1
	[ "$accel" != tcg ] || accel_opt=$tcg_accel
	: > "$part.tap"; : > "$part.console"
	say "$label: booting ($accel_opt, timeout ${limit}s)"
	timeout -k 10 "$limit" qemu-system-x86_64 -accel "$accel_opt" "${guest_machine[@]}" \
		-kernel "$image" -initrd "$initrd" -append "$append" "${disk[@]}" \
		-serial "file:$part.console" -serial "file:$part.tap" \
		2> >(tee "$part.qemu" >&2) &
	qemu=$!
	# KVM can fail inside a guest it booted: QEMU then pauses the guest
	# with a register dump instead of exiting. End it at once.
	(
		while kill -0 $qemu 2>/dev/null; do
			if grep -qE "$kvm_failure" "$part.qemu" 2>/dev/null; then
				echo "KVM stopped the guest" > "$part.kvm-failed"
				kill $qemu
				exit 0
			fi
			sleep 2
		done
	) &
	kvm_watch=$!
	# Progress: the top-level result lines as they arrive.
	if [ "$mode" = demo ]; then
		tail -n +1 -f --pid=$qemu "$part.tap" | stdbuf -oL tr -d '\r' &
	elif [ "$mode" = bench ]; then
		tail -n +1 -f --pid=$qemu "$part.tap" | stdbuf -oL tr -d '\r' | grep --line-buffered -E '^(# bench:|note )' | sed -u "s/^/  [$label] /" &
	else
		tail -n +1 -f --pid=$qemu "$part.tap" | stdbuf -oL tr -d '\r' | grep --line-buffered -E '^(not )?ok ' | sed -u "s/^/  [$label] /" &
	fi
	progress=$!
	wait $qemu || rc=$?
	wait $progress 2>/dev/null || true
	kill $kvm_watch 2>/dev/null || true
	wait $kvm_watch 2>/dev/null || true
	return $rc
}

start=$SECONDS
rc=0
boot "$accel" "$append" "$results/boot1" || rc=$?
tr -d '\r' < "$results/boot1.tap" > "$results/tap"
cp "$results/boot1.console" "$results/console.log"
cp "$results/boot1.qemu" "$results/qemu.log"
# KVM that stopped a guest mid-run (seen under nested virtualisation)
# says nothing about the kernel: the guest boots again under TCG, from
# the start, and its results are that boot's. The results say so.
if [ -f "$results/boot1.kvm-failed" ] && ! grep -q '^# guest: done' "$results/tap"; then
	again="KVM stopped the guest (qemu.log): booted again under TCG from the start, as the guests that boot after it"
	say "$label: $again"
	"$repo_root/scripts/guest-accel.sh" --kvm-failed
	rc=0
	boot tcg "$append" "$results/boot2" || rc=$?
	{ tr -d '\r' < "$results/boot2.tap"; echo "# guest: $again"; } > "$results/tap"
	{ echo "--- boot 2 (tcg) ---"; cat "$results/boot2.console"; } >> "$results/console.log"
	{ echo "--- boot 2 (tcg) ---"; cat "$results/boot2.qemu"; } >> "$results/qemu.log"
fi
rm -f "$results"/boot[12].{tap,console,qemu}
elapsed=$((SECONDS - start))
record_step "guest-$kernel-$mode" "$elapsed"

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
if [ -n "$kmemleak" ] && ! grep -q '^# guest: kmemleak scanned' "$results/tap"; then
	problem="${problem:+$problem; }kmemleak did not scan at the end of the run"
fi

if [ -n "$problem" ]; then
	echo "$problem" > "$results/problem"
	printf -- '--- last 40 console lines (%s) ---\n' "${results#"$repo_root"/}/console.log" >&2
	tail -n 40 "$results/console.log" >&2
	die "$label: $problem"
fi
say "$label: guest finished in ${elapsed}s"

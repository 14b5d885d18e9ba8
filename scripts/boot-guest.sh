#!/usr/bin/env bash
# Boot one kernel of the matrix under QEMU with the guest initramfs and
# collect its results: build/results/KERNEL/{console.log,tap}. KERNEL
# names an image in build/images, or a variant in lib.sh's table.
# Fails when the guest hangs, stops early, or its console shows an oops,
# BUG, WARNING, KASAN or kmemleak report or panic, or a debug kernel's
# kmemleak did not scan.
# Usage: boot-guest.sh KERNEL [check|demo|bench] [SCENARIO...]
set -euo pipefail
source "$(dirname "$0")/lib.sh"

kernel=${1:?usage: boot-guest.sh KERNEL [check|demo|bench] [SCENARIO...]}
mode=${2:-check}
shift $(( $# >= 2 ? 2 : 1 ))
scenarios=$(IFS=,; echo "$*")
# patched-fred is the patched image booted with fred=on (lib.sh).
read -r image_name extra_args <<<"${guest_variants[$kernel]:-$kernel}"
image=$build_dir/images/$image_name.bzImage
initrd=$build_dir/rootfs/initrd.cpio.gz
results=$results_dir/$kernel
# A hang detector for the whole boot: every scenario has a limit of its
# own, and all of them together take about 25 minutes under TCG.
limit=${GUEST_TIMEOUT:-2700}
[ -f "$image" ] || die "$image missing"
[ -f "$initrd" ] || die "$initrd missing: run 'make rootfs'"

append="console=ttyS0 rdinit=/init panic=-1 loglevel=6 lsm=landlock,lockdown,yama,integrity,bpf"
append+="${extra_args:+ $extra_args} guest.mode=$mode${scenarios:+ guest.scenarios=$scenarios} ${GUEST_APPEND:-}"
# KASAN, lockdep and kmemleak under TCG: measured up to 60 times slower.
if [[ $image_name == *-debug ]]; then
	limit=${GUEST_TIMEOUT:-5400}
	append+=" guest.timeout_scale=${DEBUG_TIMEOUT_SCALE:-8}"
elif [ -n "${GUEST_TIMEOUT_SCALE:-}" ]; then
	append+=" guest.timeout_scale=$GUEST_TIMEOUT_SCALE"
fi

# A run whose every input is unchanged would print the same results: a
# clean earlier run (guest finished, nothing failed, console clean) is
# reused. GUEST_RERUN=1 boots anyway.
inputs=$({ echo "$append ${guest_machine[*]}"; qemu-system-x86_64 --version | head -n 1
	hash_inputs "$image" "$initrd" "$0" "$repo_root/scripts/lib.sh"; } | sha256sum | cut -c1-16)
if [ "$mode" = check ] && [ -z "${GUEST_RERUN:-}" ] && [ "$(cat "$results/inputs" 2>/dev/null)" = "$inputs" ]; then
	say "$kernel: inputs unchanged since the clean run of $(date -r "$results/inputs" '+%F %T'): its results stand (GUEST_RERUN=1 boots again)"
	exit 0
fi

accel=$("$repo_root/scripts/guest-accel.sh" "$image")

rm -rf "$results"; mkdir -p "$results"
: > "$results/tap.raw"; : > "$results/console.log"

say "$kernel: booting ($accel, timeout ${limit}s)"
start=$SECONDS
timeout -k 10 "$limit" qemu-system-x86_64 -accel "$accel" "${guest_machine[@]}" \
	-kernel "$image" -initrd "$initrd" -append "$append" \
	-serial "file:$results/console.log" -serial "file:$results/tap.raw" \
	2> >(tee "$results/qemu.log" >&2) &
qemu=$!
# KVM can fail inside a guest it booted: QEMU then pauses the guest
# with a register dump instead of exiting. End it at once.
(
	while kill -0 $qemu 2>/dev/null; do
		if grep -qE "$kvm_failure" "$results/qemu.log" 2>/dev/null; then
			echo "KVM stopped the guest" > "$results/kvm-failed"
			kill $qemu
			exit 0
		fi
		sleep 2
	done
) &
kvm_watch=$!
# Progress: the top-level result lines as they arrive.
if [ "$mode" = demo ]; then
	tail -n +1 -f --pid=$qemu "$results/tap.raw" | stdbuf -oL tr -d '\r' &
elif [ "$mode" = bench ]; then
	tail -n +1 -f --pid=$qemu "$results/tap.raw" | stdbuf -oL tr -d '\r' | grep --line-buffered -E '^(# bench:|note )' | sed -u "s/^/  [$kernel] /" &
else
	tail -n +1 -f --pid=$qemu "$results/tap.raw" | stdbuf -oL tr -d '\r' | grep --line-buffered -E '^(not )?ok ' | sed -u "s/^/  [$kernel] /" &
fi
progress=$!
rc=0
wait $qemu || rc=$?
wait $progress 2>/dev/null || true
kill $kvm_watch 2>/dev/null || true
wait $kvm_watch 2>/dev/null || true
tr -d '\r' < "$results/tap.raw" > "$results/tap"
rm -f "$results/tap.raw"
elapsed=$((SECONDS - start))
printf 'guest-%s-%s\t%s\t%s\n' "$kernel" "$mode" "$elapsed" "$(date -u +%FT%TZ)" >> "$log_dir/steps.tsv"

problem=""
if [ -f "$results/kvm-failed" ]; then
	problem="KVM failed while running the guest (qemu.log): rerun with GUEST_ACCEL=tcg"
elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	problem="guest hung: killed after ${limit}s"
elif [ $rc -ne 0 ]; then
	problem="qemu exited with status $rc"
fi
oops=$(grep -nE 'Oops|BUG:|WARNING:|KASAN|Kernel panic|general protection fault|UBSAN|kmemleak:.*unreferenced|possible circular locking|INFO: task .* blocked' "$results/console.log" | head -n 20 || true)
[ -z "$oops" ] || problem="${problem:+$problem; }kernel reported a problem:
$oops"
[ -n "$problem" ] || grep -q '^# guest: done' "$results/tap" || problem="guest stopped before the scenarios finished"
# Debug kernels: a console without kmemleak reports says something only
# if the guest's final scan ran (guest-rootfs/overlay/init).
if [[ $image_name == *-debug ]] && ! grep -q '^# guest: kmemleak scanned' "$results/tap"; then
	problem="${problem:+$problem; }kmemleak did not scan at the end of the run"
fi

if [ -n "$problem" ]; then
	echo "$problem" > "$results/problem"
	printf -- '--- last 40 console lines (%s) ---\n' "${results#"$repo_root"/}/console.log" >&2
	tail -n 40 "$results/console.log" >&2
	die "$kernel: $problem"
fi
say "$kernel: guest finished in ${elapsed}s"
grep -qE '^not ok ' "$results/tap" || echo "$inputs" > "$results/inputs"

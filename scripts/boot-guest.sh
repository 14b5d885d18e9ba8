#!/usr/bin/env bash
# Boot one kernel of the matrix under QEMU with the guest initramfs and
# collect its results: build/results/KERNEL/{console.log,tap}. KERNEL is a
# row of scripts/kernels.tsv: its image, command line, time limits.
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
# An earlier run's results must not stand for this one, whatever stops it.
rm -rf "${results_dir:?}/$kernel"
# A check runs what the row's runs column and the filter both select.
if [ "$mode" = check ]; then
	if ! scenarios=$(runs_narrow "$k_runs" "$@"); then
		say "$kernel: runs none of the scenarios selected (its row runs: $k_runs): not booted"
		mkdir -p "$results_dir/$kernel"
		echo "# guest: not booted: its row runs $k_runs, none of the scenarios selected" > "$results_dir/$kernel/tap"
		exit 0
	fi
else
	scenarios=$(IFS=,; echo "$*")
fi
image=$build_dir/images/$k_image.bzImage
initrd=$build_dir/rootfs/initrd.cpio.gz
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

# Results are reused scenario by scenario: one that passed (or skipped)
# in a clean boot stands while its key is the same, that is its own
# file, everything else in the initramfs (rootfs-pack.sh:
# build/rootfs/scenario-keys) and this boot's kernel, command line, QEMU
# and launcher. Only the others boot. GUEST_RERUN=1 boots them all.
store=$results_dir/.reuse/$kernel
reused=() to_run=()
if [ "$mode" = check ]; then
	boot_key=$({ echo "$k_args $mode ${GUEST_APPEND:-} ${guest_machine[*]}"; qemu-system-x86_64 --version | head -n 1
		hash_inputs "$image" "$0" "$repo_root/scripts/lib.sh"; } | sha256sum | cut -c1-16)
	keys=$build_dir/rootfs/scenario-keys
	[ -f "$keys" ] || die "$keys missing: run 'make rootfs'"
	while read -r id key; do
		runs_selects "${scenarios:-all}" "$id" || continue
		if [ -z "${GUEST_RERUN:-}" ] && [ "$(cat "$store/${id//\//:}.key" 2>/dev/null)" = "$boot_key $key" ]; then
			reused+=("$id")
		else
			to_run+=("$id")
		fi
	done < "$keys"
	[ $((${#reused[@]} + ${#to_run[@]})) -gt 0 ] || die "$kernel: $keys has no scenario that ${scenarios:-all} selects"
	if [ ${#reused[@]} -gt 0 ] && [ ${#to_run[@]} -gt 0 ]; then
		# The guest's filter: a group whose every selected scenario runs,
		# else the scenarios one by one.
		narrowed=$(printf '%s\n' "${to_run[@]}" | awk -v reused=" ${reused[*]} " '
			{ ids[NR] = $0 }
			END {
				for (i = 1; i <= NR; i++) {
					split(ids[i], p, "/")
					if (index(reused, " " p[1] "/")) { print ids[i] } else if (!(p[1] in done)) { print p[1]; done[p[1]] = 1 }
				}
			}' | paste -sd ,)
		# The kernel's command line holds 2,048 bytes: a filter too long
		# for it runs everything selected instead.
		if [ ${#narrowed} -le 1200 ]; then
			scenarios=$narrowed
		else
			to_run+=("${reused[@]}")
			reused=()
		fi
	fi
fi
append="console=ttyS0 rdinit=/init panic=-1 loglevel=6 lsm=landlock,lockdown,yama,integrity,bpf"
append+="${k_args:+ $k_args} guest.mode=$mode${scenarios:+ guest.scenarios=$scenarios} ${GUEST_APPEND:-}"
# The row's scale, times GUEST_TIMEOUT_SCALE (run-matrix.sh: a second
# matrix may take half of the cores).
scale=$((k_scale * ${GUEST_TIMEOUT_SCALE:-1}))
[ "$scale" -eq 1 ] || append+=" guest.timeout_scale=$scale"

# assemble: the results of this check, build/results/KERNEL/tap: this
# boot's, then the reused ones with a line that says so.
assemble() {
	local id
	[ ${#reused[@]} -gt 0 ] || return 0
	echo "# guest: ${#reused[@]} results reused, their inputs unchanged since the boot that passed them (GUEST_RERUN=1 boots them again)" >> "$results/tap"
	for id in "${reused[@]}"; do cat "$store/${id//\//:}.tap"; done >> "$results/tap"
}

rm -rf "$results"; mkdir -p "$results"
if [ "$mode" = check ] && [ ${#to_run[@]} -eq 0 ]; then
	: > "$results/tap"
	assemble
	say "$kernel: inputs unchanged for all ${#reused[@]} scenarios since the boots that passed them: their results stand (GUEST_RERUN=1 boots again)"
	exit 0
fi
[ ${#reused[@]} -eq 0 ] || say "$kernel: ${#reused[@]} results reused, ${#to_run[@]} scenarios to run"

accel=$("$repo_root/scripts/guest-accel.sh" "$image")
# The containerd scenarios' disk (scripts/cri-disk.sh): attached only to a
# guest that runs one of them, so that no other boot carries it.
disk=()
if [ "$mode" = check ] && printf '%s\n' "${to_run[@]}" | grep -q -- '-containerd-cri$'; then
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
	say "$kernel: booting ($accel_opt, timeout ${limit}s)"
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
		tail -n +1 -f --pid=$qemu "$part.tap" | stdbuf -oL tr -d '\r' | grep --line-buffered -E '^(# bench:|note )' | sed -u "s/^/  [$kernel] /" &
	else
		tail -n +1 -f --pid=$qemu "$part.tap" | stdbuf -oL tr -d '\r' | grep --line-buffered -E '^(not )?ok ' | sed -u "s/^/  [$kernel] /" &
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
	say "$kernel: $again"
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
	# Nothing this boot was to run stands on an earlier pass any more.
	for id in "${to_run[@]}"; do rm -f "$store/${id//\//:}".{tap,key}; done
	printf -- '--- last 40 console lines (%s) ---\n' "${results#"$repo_root"/}/console.log" >&2
	tail -n 40 "$results/console.log" >&2
	die "$kernel: $problem"
fi
say "$kernel: guest finished in ${elapsed}s"
# Each scenario that passed or skipped in this clean boot, its indented
# output with it, is kept for reuse under its key; a failed one is not.
if [ "$mode" = check ]; then
	mkdir -p "$store"
	declare -A key_of
	while read -r id key; do key_of[$id]=$key; done < "$build_dir/rootfs/scenario-keys"
	awk -v store="$store" '
		/^    / || /^$/ { block = block $0 "\n"; next }
		/^ok [0-9]+ - [^ ]+/ {
			file = $4; gsub("/", ":", file)
			printf "%s%s\n", block, $0 > (store "/" file ".tap"); close(store "/" file ".tap")
			block = ""; next
		}
		{ block = "" }' "$results/tap"
	grep -E '^(not )?ok [0-9]+ - ' "$results/tap" | sed -E 's/^(not )?ok [0-9]+ - ([^ ]+).*/\1 \2/' |
		while read -r first second; do
			if [ "$first" = not ]; then rm -f "$store/${second//\//:}".{tap,key}
			elif [ -n "${key_of[$first]:-}" ]; then echo "$boot_key ${key_of[$first]}" > "$store/${first//\//:}.key"; fi
		done
fi
assemble

#!/usr/bin/env bash
# make bench: boot one kernel of the matrix (KERNEL=, default the table's
# first kernel under test, patched) with the benchmarks as the guest's
# job, and turn what they print into build/results/bench/KERNEL/results.
# {json,md} and a plot per benchmark. A kernel under test has its token
# BPF figures set beside the oracle's (reference, scripts/kernels.tsv),
# measured the same way in a second guest booted alongside.
# Usage: bench.sh [--check]   (BENCH_QUICK=1: a few runs of the smallest cases)
#   --check: the quick bench as part of make check: asserts only that the
#   bench runs and its numbers are well-formed, as one TAP test point in
#   build/results/bench/check.tap for tally.sh.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

check=
[ "${1:-}" = --check ] && check=1
kernel=${KERNEL:-$(kernels_with under-test | sed -n 1p)}
kernel_row "$kernel" || die "no kernel $kernel in scripts/kernels.tsv"
[ -n "$check" ] && BENCH_QUICK=1
out=$build_dir/results/bench
mkdir -p "$out"
# make check's bench is smaller than BENCH_QUICK's (bench/guest/run).
append=
if [ -n "$check" ]; then append=guest.bench_quick=check
elif [ -n "${BENCH_QUICK:-}" ]; then append=guest.bench_quick=1
fi
oracle=$(kernels_with oracle | sed -n 1p)

boot() {	# boot NAME APPEND...: one bench guest, results in $out/NAME
	local name=$1; shift
	RESULTS_DIR=$out GUEST_APPEND="$*" "$repo_root/scripts/boot-guest.sh" "$name" bench
}

# measure: the bench's guests, then the report (with --check, only
# whether it is well-formed). Fails when a guest or the check failed.
measure() {
	local pids=() p rc=0 reference="" report what result
	# One guest set at a time: the figures need the cores to themselves.
	# make check's quick bench asserts no figure: it runs beside the
	# matrix's guests.
	[ -n "$check" ] || matrix_all_slots
	say "bench: $kernel${BENCH_QUICK:+ (quick)}"
	boot "$kernel" $append & pids+=($!)
	if [ "$k_role" = under-test ] && [ -n "$oracle" ]; then
		reference=$out/$oracle-token
		boot "$oracle" $append guest.bench_steps=bpf & pids+=($!)
	fi
	for p in "${pids[@]}"; do wait "$p" || rc=1; done
	[ -z "$reference" ] || { rm -rf "$reference"; mv "$out/$oracle" "$reference"; }
	report=("$repo_root/scripts/bench-report.py" "$out/$kernel" "$kernel" "$out/$kernel/tap"
		--steps "$steps_file" --matrix-tap "$results_dir/$kernel/tap")
	[ -z "$reference" ] || report+=(--reference "$reference/tap")
	if [ -n "$check" ]; then
		what="quick bench on $kernel: runs, every number well-formed (build/results/bench/$kernel)"
		if [ "$rc" -eq 0 ] && "${report[@]}" --check; then result="ok 1 - $what"; else result="not ok 1 - $what"; fi
		printf '1..1\n%s\n' "$result" > "$out/check.tap"
		say "bench: $result"
		[[ $result == ok* ]]
		return
	fi
	[ "$rc" -eq 0 ] || die "a bench guest failed (build/results/bench/*/console.log)"
	"${report[@]}"
	say "bench: build/results/bench/$kernel/results.md, results.json and the plots beside them"
}

[ -n "$check" ] || { measure; exit 0; }
# The quick bench of make check stands while what it reads is unchanged:
# the images, the initramfs but the scenarios (rootfs-pack.sh's bench
# key), these scripts and QEMU. GUEST_RERUN=1 boots anyway. It passes
# when it ran; its one test point (check.tap) is what tally.sh counts.
images=("$build_dir/images/$k_image.bzImage")
[ -z "$oracle" ] || images+=("$build_dir/images/$(kernel_field "$oracle" image).bzImage")
key=$({ echo "$kernel $append"; qemu-system-x86_64 --version | head -n 1; cat "$build_dir/rootfs/bench-key"
	hash_inputs "${images[@]}" "$0" "$repo_root/scripts/lib.sh" \
		"$repo_root/scripts/boot-guest.sh" "$repo_root/scripts/bench-report.py" "$kernels_table"; } | sha256sum | cut -c1-16)
# A check that stops early must leave no earlier run's result for tally.sh.
reuse_matches bench-check "$key" || rm -f "$out/check.tap"
reuse_or_run ${GUEST_RERUN:+--rerun} --needs "$out/check.tap" bench-check "$key" measure || true

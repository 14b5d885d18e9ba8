#!/usr/bin/env bash
# make bench: boot one kernel of the matrix (KERNEL=, default the table's
# first kernel under test, patched) with the benchmarks as the guest's
# job, and turn what they print into build/results/bench/KERNEL/results.
# {json,md} and a plot per benchmark. A kernel under test has its token
# BPF figures set beside the oracle's (reference, scripts/kernels.tsv),
# measured the same way in a second guest booted alongside.
# Usage: bench.sh [--check]   (BENCH_QUICK=1: a few runs of the smallest cases)
#   --check: the quick bench as part of make check: asserts only that the
#   bench runs and its numbers are well-formed, and writes "passed failed"
#   to build/results/bench/summary for run-matrix.sh.
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
append=${BENCH_QUICK:+guest.bench_quick=1}

# One guest set at a time: the figures need the cores to themselves.
matrix_all_slots

boot() {	# boot NAME APPEND...: one bench guest, results in $out/NAME
	local name=$1; shift
	RESULTS_DIR=$out GUEST_RERUN=1 GUEST_APPEND="$*" "$repo_root/scripts/boot-guest.sh" "$name" bench
}
pids=()
say "bench: $kernel${BENCH_QUICK:+ (quick)}"
boot "$kernel" $append & pids+=($!)
reference=
oracle=$(kernels_with oracle | sed -n 1p)
if [ "$k_role" = under-test ] && [ -n "$oracle" ]; then
	reference=$out/$oracle-token
	boot "$oracle" $append guest.bench_steps=bpf & pids+=($!)
fi
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
[ -z "$reference" ] || { rm -rf "$reference"; mv "$out/$oracle" "$reference"; }

report=("$repo_root/scripts/bench-report.py" "$out/$kernel" "$kernel" "$out/$kernel/tap"
	--steps "$log_dir/steps.tsv" --matrix-tap "$results_dir/$kernel/tap")
[ -z "$reference" ] || report+=(--reference "$reference/tap")
if [ -n "$check" ]; then
	passed=0 failed=0
	if [ "$rc" -eq 0 ] && "${report[@]}" --check; then passed=1; else failed=1; fi
	echo "$passed $failed" > "$out/summary"
	say "bench: quick run $([ "$failed" = 0 ] && echo well-formed || echo FAILED) (build/results/bench/$kernel)"
	exit 0
fi
[ "$rc" -eq 0 ] || die "a bench guest failed (build/results/bench/*/console.log)"
"${report[@]}"
say "bench: build/results/bench/$kernel/results.md, results.json and the plots beside them"

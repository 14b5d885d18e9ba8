#!/usr/bin/env bash
# The demo: boot the patched guest and run scenarios/demo/run in it, then
# the same on the stock kernel, which must refuse: the first default
# kernel under test and the first control of scripts/kernels.tsv. Its
# guests write to
# build/results/demo/KERNEL: boot-guest.sh empties a kernel's results
# folder first, and make check's own (build/results/KERNEL) must survive
# a demo, or the next check boots those kernels again.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
export RESULTS_DIR=$build_dir/results/demo

for kernel in $(kernels_with under-test | sed -n 1p) $(kernels_with control | sed -n 1p); do
	kernel_row "$kernel"
	echo
	say "demo on the $kernel kernel ($(cat "$build_dir/images/$k_image.package" 2>/dev/null || echo "linux-source-6.1 + kernel-series"))"
	"$repo_root/scripts/boot-guest.sh" "$kernel" demo
done

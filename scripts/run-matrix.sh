#!/usr/bin/env bash
# Boot every kernel of the matrix (scripts/kernels.tsv) and run the
# scenarios, every guest at once (at most two per core, MATRIX_JOBS):
# build/results/KERNEL/tap. It judges nothing: scripts/tally.sh, the
# next step, reads those results by each kernel's role, with the other
# steps' TAP streams, and prints the count.
# Usage: run-matrix.sh [SCENARIO...]   (KERNELS="patched reference", KERNEL_DEBUG=1; default: the table's)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

"$repo_root/scripts/scenario-filter.sh" "$@"
# shellcheck disable=SC2086 # KERNELS: names split at spaces
list=$(matrix_kernels ${KERNELS:-})
mapfile -t kernels <<<"$list"
results=$results_dir

# At most MATRIX_SLOTS matrices at a time, whatever their results folder:
# guests share the CPUs. With more than one slot, scenario time limits are
# doubled, since a second matrix may take half of the cores.
mkdir -p "$results"
matrix_slot
[ "${MATRIX_SLOTS:-2}" -le 1 ] || export GUEST_TIMEOUT_SCALE=${GUEST_TIMEOUT_SCALE:-2}
# Every guest boots at once (up to two per core): their runs are of
# unequal length, and with one guest per core the last long one ran
# alone at the end while the other core idled. Time limits are doubled
# above, as each guest may get half a core.
jobs=${MATRIX_JOBS:-$(( ${#kernels[@]} < 2 * $(nproc) ? ${#kernels[@]} : 2 * $(nproc) ))}
running=0
for k in "${kernels[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	"$repo_root/scripts/guest-check.sh" "$k" "$@" &
	running=$((running + 1))
done
wait || true

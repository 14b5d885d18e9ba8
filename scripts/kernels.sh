#!/usr/bin/env bash
# The kernel table (scripts/kernels.tsv) for the Makefile:
#   kernels.sh names   the kernels make check runs (KERNELS=, KERNEL_DEBUG=),
#                      on one line; fails on a name the table lacks
#   kernels.sh steps   the make steps that make their images: kernel,
#                      kernel-debug, and prebuilt for the Debian packages
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2086 # KERNELS: names split at spaces
list=$(matrix_kernels ${KERNELS:-})
mapfile -t kernels <<<"$list"
case ${1:-} in
names) echo "${kernels[*]}" ;;
steps)
	for k in "${kernels[@]}"; do
		kernel_row "$k"
		case $k_from in apt:*) echo prebuilt ;; *) echo "$k_from" ;; esac
	done | awk '!seen[$0]++' | paste -sd ' ' ;;
*) die "usage: kernels.sh names|steps" ;;
esac

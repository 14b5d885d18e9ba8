#!/usr/bin/env bash
# make check's guest for one kernel of the matrix: the scenarios that its
# row's runs column and the filter select. A scenario that passed (or
# skipped) in a clean boot stands while its key is the same: its key in
# the manifest (rootfs-pack.sh) and this boot's kernel, command line,
# QEMU and launcher. Only the others boot (boot-guest.sh).
# Results: build/results/KERNEL/tap, this boot's, then the reused ones
# with a line that says so.
# Usage: guest-check.sh KERNEL [SCENARIO...]   (GUEST_RERUN=1: boot them all)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

kernel=${1:?usage: guest-check.sh KERNEL [SCENARIO...]}
shift
kernel_row "$kernel" || die "no kernel $kernel in scripts/kernels.tsv"
results=$results_dir/$kernel
# An earlier run's results must not stand for this one, whatever stops it.
rm -rf "$results"
manifest=$build_dir/rootfs/scenario-manifest
[ -f "$manifest" ] || die "$manifest missing: run 'make rootfs'"
# not_booted: the row runs none of the scenarios selected.
not_booted() {
	say "$kernel: runs none of the scenarios selected (its row runs: $k_runs): not booted"
	mkdir -p "$results"
	echo "# guest: not booted: its row runs $k_runs, none of the scenarios selected" > "$results/tap"
	exit 0
}
filter=$(runs_narrow "$k_runs" "$@") || not_booted

# Each results folder keeps its own (a second matrix has one of its own).
reuse_dir=$results_dir/.reuse
boot_key=$({ echo "$k_args ${GUEST_APPEND:-} ${guest_machine[*]}"; qemu-system-x86_64 --version | head -n 1
	hash_inputs "$build_dir/images/$k_image.bzImage" "$repo_root/scripts/boot-guest.sh" \
		"$repo_root/scripts/lib.sh" "$0"; } | sha256sum | cut -c1-16)
declare -A key_of in_group
reused=() to_run=()
while IFS=$'\t' read -r id group _ key; do
	scenario_selects "$filter" "$id" || continue
	key_of[$id]="$boot_key $key"
	in_group[$group]=$(( ${in_group[$group]:-0} + 1 ))
	if [ -z "${GUEST_RERUN:-}" ] && reuse_matches "$kernel/$id" "${key_of[$id]}" && [ -f "$reuse_dir/$kernel/$id.tap" ]; then
		reused+=("$id")
	else
		to_run+=("$id")
	fi
done < "$manifest"
[ $((${#reused[@]} + ${#to_run[@]})) -gt 0 ] || not_booted

# assemble: the reused results after this boot's, with a line that says so.
assemble() {
	local id
	[ ${#reused[@]} -gt 0 ] || return 0
	echo "# guest: ${#reused[@]} results reused, their inputs unchanged since the boot that passed them (GUEST_RERUN=1 boots them again)" >> "$results/tap"
	for id in "${reused[@]}"; do cat "$reuse_dir/$kernel/$id.tap"; done >> "$results/tap"
}

if [ ${#to_run[@]} -eq 0 ]; then
	mkdir -p "$results"
	: > "$results/tap"
	assemble
	say "$kernel: inputs unchanged for all ${#reused[@]} scenarios since the boots that passed them: their results stand (GUEST_RERUN=1 boots again)"
	exit 0
fi
if [ ${#reused[@]} -gt 0 ]; then
	say "$kernel: ${#reused[@]} results reused, ${#to_run[@]} scenarios to run"
	# The guest's filter: a group whose every selected scenario runs,
	# else the scenarios one by one.
	declare -A running
	for id in "${to_run[@]}"; do running[${id%%/*}]=$(( ${running[${id%%/*}]:-0} + 1 )); done
	words=()
	for id in "${to_run[@]}"; do
		group=${id%%/*}
		if [ "${running[$group]}" -lt "${in_group[$group]}" ]; then words+=("$id")
		elif [[ " ${words[*]} " != *" $group "* ]]; then words+=("$group"); fi
	done
	# The filter's "!" words still take out what a group would bring.
	for word in ${filter//,/ }; do [[ $word != !* ]] || words+=("$word"); done
	narrowed=$(IFS=,; echo "${words[*]}")
	# The kernel's command line holds 2,048 bytes: a filter too long for
	# it runs everything selected instead.
	if [ ${#narrowed} -le 1200 ]; then
		filter=$narrowed
	else
		to_run+=("${reused[@]}")
		reused=()
	fi
fi

for id in "${to_run[@]}"; do reuse_forget "$kernel/$id"; done
"$repo_root/scripts/boot-guest.sh" "$kernel" check "$filter"

# Each scenario that passed or skipped in this clean boot, its indented
# output with it, is kept for reuse under its key; a failed one is not.
block=""
while IFS= read -r line; do
	case $line in
	"    "* | "") block+="$line"$'\n'; continue ;;
	esac
	IFS=$'\t' read -r st id _ < <(tap_points <<<"$line") || { block=""; continue; }
	if [ "$st" != fail ] && [ -n "${key_of[$id]:-}" ]; then
		mkdir -p "$(dirname "$reuse_dir/$kernel/$id")"
		printf '%s%s\n' "$block" "$line" > "$reuse_dir/$kernel/$id.tap"
		reuse_record "$kernel/$id" "${key_of[$id]}"
	fi
	block=""
done < "$results/tap"
assemble

#!/usr/bin/env bash
# Check the scenarios and a filter (make check SCENARIOS=...) before
# anything is built or booted, on the scenarios' manifest (lib.sh):
# - every scenario declares its time limit: a silent default lets a slow
#   scenario be killed, or a hung one hold its guest, at a limit nobody
#   chose;
# - no group takes the name of a build output that rootfs-pack.sh puts
#   beside the groups in the guest's /opt/scenarios (lib.sh);
# - every word of the filter, and of the kernel table's runs column,
#   names a group or one scenario. A word that matches nothing would
#   otherwise select nothing in the guest, silently, after a long run.
# Usage: scenario-filter.sh [GROUP | GROUP/NAME]...   (SCENARIO_SRC: another scenarios folder, for tests)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

scenarios=${SCENARIO_SRC:-$repo_root/scenarios}
declare -A in_group
ids=() groups=()
errors=0
error() { printf 'error: %s\n' "$*" >&2; errors=$((errors + 1)); }

while IFS=$'\t' read -r id group limit _; do
	ids+=("$id")
	if [ -z "${in_group[$group]:-}" ]; then
		groups+=("$group")
		[[ " ${scenario_build_dirs[*]} " != *" $group "* ]] ||
			error "scenarios/$group: a group may not be named $group: the guest's /opt/scenarios/$group holds build outputs (reserved: ${scenario_build_dirs[*]})"
	fi
	in_group[$group]+=" ${id#*/}"
	[ "$limit" != - ] ||
		error "scenarios/$id: no \"# timeout: SECONDS\" line in its first 5 lines (how long run-scenarios lets it run)"
done < <(scenario_manifest "$scenarios")

# check_word WHERE WORD: WORD names a group or one scenario.
check_word() {
	local where=$1 want=${2%/} group
	group=${want%%/*}
	if [ -z "${in_group[$group]:-}" ]; then
		error "${where}no scenario group $group; groups: ${groups[*]}"
	elif [[ $want == */* && " ${ids[*]} " != *" $want "* ]]; then
		error "${where}no scenario $want; $group has:${in_group[$group]}"
	fi
}

# The kernel table's runs column names scenarios too.
for name in $(kernel_names); do
	kernel_row "$name"
	for word in ${k_runs//,/ }; do
		[ "$word" = all ] || check_word "${kernels_table#"$repo_root"/}: $name runs: " "${word#!}"
	done
done

for want in "$@"; do
	check_word "" "$want"
done
[ "$errors" -eq 0 ]

#!/usr/bin/env bash
# Check the scenarios and a filter (make check SCENARIOS=...) before
# anything is built or booted:
# - every scenario declares its time limit ("# timeout: SECONDS" in its
#   first 5 lines): a silent default lets a slow scenario be killed, or
#   a hung one hold its guest, at a limit nobody chose;
# - no group takes the name of a build output that rootfs-pack.sh puts
#   beside the groups in the guest's /opt/scenarios (lib.sh);
# - every word of the filter names a group (scenarios/GROUP) or one
#   scenario (scenarios/GROUP/NN-name). A word that matches nothing
#   would otherwise select nothing in the guest, silently, after a long
#   run.
# Usage: scenario-filter.sh [GROUP | GROUP/NAME]...   (SCENARIO_SRC: another scenarios folder, for tests)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

scenarios=${SCENARIO_SRC:-$repo_root/scenarios}
# A scenario is an executable file whose name starts with a digit, as the
# guest's runner (run-scenarios) selects them.
is_scenario() { [ -f "$1" ] && [ -x "$1" ] && [[ $(basename "$1") == [0-9]* ]]; }
is_group() {
	local f
	[ -d "$1" ] || return 1
	for f in "$1"/*; do is_scenario "$f" && return 0; done
	return 1
}

errors=0
error() { printf 'error: %s\n' "$*" >&2; errors=$((errors + 1)); }

groups=()
for d in "$scenarios"/*/; do
	is_group "$d" || continue
	group=$(basename "$d")
	groups+=("$group")
	[[ " ${scenario_build_dirs[*]} " != *" $group "* ]] ||
		error "scenarios/$group: a group may not be named $group: the guest's /opt/scenarios/$group holds build outputs (reserved: ${scenario_build_dirs[*]})"
	for f in "$d"*; do
		is_scenario "$f" || continue
		head -n 5 "$f" | grep -qE "$scenario_timeout_re" ||
			error "scenarios/$group/$(basename "$f"): no \"# timeout: SECONDS\" line in its first 5 lines (how long run-scenarios lets it run)"
	done
done

# check_word WHERE WORD: WORD names a group or one scenario.
check_word() {
	local where=$1 want=${2%/} group names f
	group=${want%%/*}
	if [[ $want == */* ]]; then
		is_scenario "$scenarios/$want" && return 0
		if is_group "$scenarios/$group"; then
			names=()
			for f in "$scenarios/$group"/*; do is_scenario "$f" && names+=("$(basename "$f")"); done
			error "${where}no scenario $want; $group has: ${names[*]}"
			return 0
		fi
	else
		is_group "$scenarios/$want" && return 0
	fi
	error "${where}no scenario group $group; groups: ${groups[*]}"
}

# The kernel table's runs column names scenarios too.
while read -r name _ _ _ _ _ _ _ runs _; do
	[ "$runs" = all ] && continue
	for word in ${runs//,/ }; do check_word "${kernels_table#"$repo_root"/}: $name runs: " "$word"; done
done < <(kernel_rows)

for want in "$@"; do
	check_word "" "$want"
done
[ "$errors" -eq 0 ]

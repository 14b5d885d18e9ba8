#!/usr/bin/env bash
# Check a scenario filter (make check SCENARIOS=...) before anything is
# built or booted: every word must name a group (scenarios/GROUP) or one
# scenario (scenarios/GROUP/NN-name). A word that matches nothing would
# otherwise select nothing in the guest, silently, after a long run.
# Usage: scenario-filter.sh [GROUP | GROUP/NAME]...
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

scenarios=$repo_root/scenarios
# A scenario is an executable file whose name starts with a digit, as the
# guest's runner (run-scenarios) selects them.
is_scenario() { [ -f "$1" ] && [ -x "$1" ] && [[ $(basename "$1") == [0-9]* ]]; }
is_group() {
	local f
	[ -d "$1" ] || return 1
	for f in "$1"/*; do is_scenario "$f" && return 0; done
	return 1
}

bad=()
for want in "$@"; do
	want=${want%/}
	if [[ $want == */* ]]; then is_scenario "$scenarios/$want" || bad+=("$want")
	else is_group "$scenarios/$want" || bad+=("$want"); fi
done
[ ${#bad[@]} -eq 0 ] && exit 0

groups=()
for d in "$scenarios"/*/; do is_group "$d" && groups+=("$(basename "$d")"); done
for want in "${bad[@]}"; do
	group=${want%%/*}
	if [[ $want == */* ]] && is_group "$scenarios/$group"; then
		names=()
		for f in "$scenarios/$group"/*; do is_scenario "$f" && names+=("$(basename "$f")"); done
		printf 'error: no scenario %s; %s has: %s\n' "$want" "$group" "${names[*]}" >&2
	else
		printf 'error: no scenario group %s; groups: %s\n' "$group" "${groups[*]}" >&2
	fi
done
exit 1

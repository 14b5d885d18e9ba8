# What a scenario is, which scenarios a filter selects, and how a TAP
# stream reads: one definition for the host's pipeline (scripts/lib.sh
# sources this file) and the guest's runner (run-scenarios).
# shellcheck shell=bash

# A scenario is an executable file GROUP/NAME below the scenarios folder
# whose NAME starts with a digit. Its time limit is a line
# "# timeout: SECONDS" among its first 5 lines.
#
# The manifest lists them, one a line, tab-separated:
#   ID        GROUP/NAME
#   GROUP     the folder it is in
#   SECONDS   its time limit ("-": it declares none, and does not run)
#   KEY       what its result depends on (rootfs-pack.sh; "-" before a build)
# rootfs-pack.sh writes it as build/rootfs/scenario-manifest and ships it
# as the guest's /opt/scenarios/manifest; everything else reads it.

# scenario_manifest ROOT [KEY]: the manifest of the scenarios below ROOT,
# in their order (group, then name), each with KEY (default "-"). The
# one place that looks for scenario files.
scenario_manifest() {
	local _f _id _limit
	for _f in "$1"/*/[0-9]*; do
		[ -f "$_f" ] && [ -x "$_f" ] || continue
		_id=${_f#"$1"/}
		_limit=$(head -n 5 "$_f" | sed -n 's/^# timeout: *\([0-9][0-9]*\).*/\1/p' | head -n 1)
		printf '%s\t%s\t%s\t%s\n' "$_id" "${_id%%/*}" "${_limit:--}" "${2:--}"
	done
}

# scenario_selects FILTER ID: whether FILTER selects the scenario ID.
# FILTER is words joined by commas; a word selects ID when it is ID, or
# ID's group (a trailing / allowed); "all" selects every scenario, and so
# does a filter without such words. A word "!WORD" takes out what WORD
# selects.
scenario_selects() {
	local _word _in=0 _any=0
	for _word in ${1//,/ }; do
		case $_word in
		!*) _word=${_word#!}; _word=${_word%/}
			case $2 in "$_word" | "$_word"/*) return 1 ;; esac ;;
		all) _any=1; _in=1 ;;
		*) _any=1; _word=${_word%/}
			case $2 in "$_word" | "$_word"/*) _in=1 ;; esac ;;
		esac
	done
	[ "$_in" -eq 1 ] || [ "$_any" -eq 0 ]
}

# The TAP reader is bash alone: the guest runs it for every scenario,
# and a process is dear in a TCG guest (docs/performance.md).

# tap_points [FILE]: the top-level test points of a TAP stream (indented
# lines belong to a sub-stream), one a line, tab-separated:
#   STATUS    pass, fail or skip (an ok with a SKIP directive)
#   TEXT      what follows "ok N - ", up to a directive
#   NOTE      the directive after " # " (a skip's reason, without SKIP)
tap_points() {
	if [ -n "${1:-}" ]; then _tap_points < "$1"; else _tap_points; fi
}
_tap_points() {
	local _line _status _text _note _point='^(not )?ok( |$)' _prefix='^(not )?ok( [0-9]+)?( -)? ?'
	while IFS= read -r _line || [ -n "$_line" ]; do
		[[ $_line =~ $_point ]] || continue
		_status=pass
		[[ $_line != not* ]] || _status=fail
		_text=$_line
		[[ ! $_text =~ $_prefix ]] || _text=${_text:${#BASH_REMATCH[0]}}
		_note=""
		if [[ $_text == *" # "* ]]; then
			_note=${_text#*" # "} _text=${_text%%" # "*}
		elif [[ $_text == "# "* ]]; then
			_note=${_text:2} _text=""
		fi
		if [ "$_status" = pass ] && [[ $_note == SKIP || $_note == "SKIP "* ]]; then
			_status=skip _note=${_note#SKIP}
			_note=${_note# }
		fi
		printf '%s\t%s\t%s\n' "$_status" "$_text" "$_note"
	done
}

# tap_plan [FILE]: a stream's plan, "COUNT TAB SKIP-REASON" ("1..0 # SKIP
# why" gives 0 and why); nothing when it has none.
tap_plan() {
	if [ -n "${1:-}" ]; then _tap_plan < "$1"; else _tap_plan; fi
}
_tap_plan() {
	local _line _plan='^1\.\.([0-9]+)( *# *SKIP *(.*))?'
	while IFS= read -r _line || [ -n "$_line" ]; do
		[[ $_line =~ $_plan ]] || continue
		printf '%s\t%s\n' "${BASH_REMATCH[1]}" "${BASH_REMATCH[3]}"
		return 0
	done
}

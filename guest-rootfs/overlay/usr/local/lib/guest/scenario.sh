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

# tap_points [FILE]: the top-level test points of a TAP stream (indented
# lines belong to a sub-stream), one a line, tab-separated:
#   STATUS    pass, fail or skip (an ok with a SKIP directive)
#   TEXT      what follows "ok N - ", up to a directive
#   NOTE      the directive after " # " (a skip's reason, without SKIP)
tap_points() {
	awk '
	/^(not )?ok( |$)/ {
		status = ($0 ~ /^not /) ? "fail" : "pass"
		text = $0
		sub(/^(not )?ok( [0-9]+)?( -)? ?/, "", text)
		note = ""
		if ((i = index(text, " # ")) > 0) {
			note = substr(text, i + 3); text = substr(text, 1, i - 1)
		} else if (text ~ /^# /) {
			note = substr(text, 3); text = ""
		}
		if (status == "pass" && note ~ /^SKIP( |$)/) { status = "skip"; sub(/^SKIP ?/, "", note) }
		printf "%s\t%s\t%s\n", status, text, note
	}' "${1:--}"
}

# tap_plan [FILE]: a stream's plan, "COUNT TAB SKIP-REASON" ("1..0 # SKIP
# why" gives 0 and why); nothing when it has none.
tap_plan() {
	sed -nE '/^1\.\.[0-9]+/ { s/^1\.\.([0-9]+)( *# *SKIP *(.*))?.*$/\1\t\3/p; q; }' "${1:--}"
}

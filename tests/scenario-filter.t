#!/usr/bin/env bash
# Host test of the scenario filter check: groups and single scenarios
# pass, a word that names nothing fails with the names it could have meant;
# a scenario without its time limit, or a group named as a build output,
# fails whatever the filter.
# reads: scripts guest-rootfs/overlay/usr/local/lib/guest scenarios
set -euo pipefail

check=$(cd "$(dirname "$0")/.." && pwd)/scripts/scenario-filter.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
# expect RC PATTERN DESCRIPTION -- ARGS...: run the check, match rc and output.
expect() {
	local want_rc=$1 pattern=$2 what=$3 rc=0 out
	shift 4
	out=$(SCENARIO_SRC=${SRC:-} KERNELS_TABLE=${TABLE:-} "$check" "$@" 2>&1) || rc=$?
	n=$((n + 1))
	if [ "$rc" -eq "$want_rc" ] && grep -qE -- "$pattern" <<<"$out"; then echo "ok $n - $what"
	else echo "not ok $n - $what (exit $rc)"; sed 's/^/# /' <<<"$out"; failed=1; fi
}
echo "1..11"
expect 0 '^$' "no filter selects everything" --
expect 0 '^$' "groups and single scenarios" -- pidfd token/20-token-create guest/
expect 1 '^error: no scenario token/10-create; token has: .*20-token-create' \
	"a misspelt scenario fails and lists its group" -- pidfd token/10-create
expect 1 '^error: no scenario group pidf; groups: .*pidfd' "an unknown group fails" -- pidf
expect 1 '^error: no scenario group helpers;' "helper sources are no group" -- helpers
expect 1 '^error: no scenario token/README.md' "only numbered executables are scenarios" -- token/README.md
# A scenarios folder of its own: g/10-a declares its limit on line 3.
mk() { mkdir -p "$tmp/$1"; printf '#!/bin/bash\n%s\necho 1..0\n' "$2" > "$tmp/$1/$3"; chmod +x "$tmp/$1/$3"; }
mk ok/g '# what it does
# timeout: 30' 10-a
# A kernel table whose runs column names that folder's scenarios.
# The table's columns are read by the names of its header line.
header='#name image from role scale limit default debug runs args'
printf '%s\none  one  kernel  under-test  1  60  yes  -  g/10-a  -\n' "$header" > "$tmp/ok.tsv"
SRC=$tmp/ok TABLE=$tmp/ok.tsv expect 0 '^$' "a limit declared within the first 5 lines" -- g
SRC=$tmp/ok TABLE=$tmp/ok.tsv expect 0 '^$' "a kernel row runs a scenario of the folder" --
printf '%s\ntwo  two  kernel  under-test  1  60  yes  -  g,h  -\n' "$header" > "$tmp/bad.tsv"
SRC=$tmp/ok TABLE=$tmp/bad.tsv expect 1 '^error: .*/bad.tsv: two runs: no scenario group h; groups: g$' \
	"a kernel row whose runs column names no scenario fails, whatever the filter" -- g
mk silent/g '# timeout: 30' 10-a
mk silent/g '# what it does' 20-b
SRC=$tmp/silent TABLE=$tmp/ok.tsv expect 1 '^error: scenarios/g/20-b: no "# timeout: SECONDS" line' \
	"a scenario without a declared limit fails, whatever the filter" -- g/10-a
mk reserved/bin '# timeout: 30' 10-a
SRC=$tmp/reserved TABLE=$tmp/ok.tsv expect 1 '^error: scenarios/bin: a group may not be named bin' \
	"a group named as a build output in /opt/scenarios is refused" --
exit $failed

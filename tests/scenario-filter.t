#!/usr/bin/env bash
# Host test of the scenario filter check: groups and single scenarios
# pass, a word that names nothing fails with the names it could have meant.
set -euo pipefail

check=$(cd "$(dirname "$0")/.." && pwd)/scripts/scenario-filter.sh
n=0 failed=0
# expect RC PATTERN DESCRIPTION -- ARGS...: run the check, match rc and output.
expect() {
	local want_rc=$1 pattern=$2 what=$3 rc=0 out
	shift 4
	out=$("$check" "$@" 2>&1) || rc=$?
	n=$((n + 1))
	if [ "$rc" -eq "$want_rc" ] && grep -qE -- "$pattern" <<<"$out"; then echo "ok $n - $what"
	else echo "not ok $n - $what (exit $rc)"; sed 's/^/# /' <<<"$out"; failed=1; fi
}
echo "1..6"
expect 0 '^$' "no filter selects everything" --
expect 0 '^$' "groups and single scenarios" -- pidfd token/20-token-create guest/
expect 1 '^error: no scenario token/10-create; token has: .*20-token-create' \
	"a misspelt scenario fails and lists its group" -- pidfd token/10-create
expect 1 '^error: no scenario group pidf; groups: .*pidfd' "an unknown group fails" -- pidf
expect 1 '^error: no scenario group helpers;' "helper sources are no group" -- helpers
expect 1 '^error: no scenario token/README.md' "only numbered executables are scenarios" -- token/README.md
exit $failed

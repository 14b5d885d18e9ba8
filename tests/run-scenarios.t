#!/usr/bin/env bash
# Host test of the guest's scenario runner: every way a scenario can end
# maps to the right top-level TAP result.
# reads: guest-rootfs/overlay/usr/local
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
runner=$repo/guest-rootfs/overlay/usr/local/sbin/run-scenarios
export GUEST_LIB=$repo/guest-rootfs/overlay/usr/local/lib/guest
# shellcheck source=guest-rootfs/overlay/usr/local/lib/guest/scenario.sh
source "$GUEST_LIB/scenario.sh"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/g" "$root/h"
# mk NAME BODY: a scenario with a 10-second limit unless BODY declares one.
mk() {
	local limit='# timeout: 10'
	[[ $2 != '# timeout:'* ]] || limit=''
	printf '#!/bin/bash\n%s\n%s\n' "$limit" "$2" > "$root/$1"; chmod +x "$root/$1"
}
mk g/10-pass 'echo 1..2; echo ok 1; echo ok 2'
mk g/20-notok 'echo 1..2; echo ok 1; echo not ok 2'
mk g/30-exit 'echo 1..1; echo ok 1; exit 3'
mk g/40-short 'echo 1..3; echo ok 1'
mk g/50-noplan 'echo ok 1'
mk g/60-skip 'echo "1..0 # SKIP unsupported: probe said EINVAL"'
mk g/70-hang '# timeout: 1
echo 1..1; sleep 30'
mk g/80-emptyplan 'echo 1..0'
mk h/10-other 'echo 1..1; echo ok 1'
printf '#!/bin/bash\necho 1..1; echo ok 1\n' > "$root/h/15-nolimit"; chmod +x "$root/h/15-nolimit"
mk h/20-slow '# timeout: 1
echo 1..1; sleep 2; echo ok 1'

# What rootfs-pack.sh ships beside them: the runner globs nothing.
scenario_manifest "$root" > "$root/manifest"
printf '#!/bin/bash\necho "not ok 1 - not in the manifest"\n' > "$root/g/90-unlisted"; chmod +x "$root/g/90-unlisted"

out=$(SCENARIO_ROOT=$root "$runner" g)
n=0 failed=0
expect() {
	n=$((n + 1))
	if grep -qE "$1" <<<"$out"; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=1; fi
}
echo "1..13"
expect '^1\.\.8$' "runs only the selected group, as the manifest lists it"
expect '^ok 1 - g/10-pass( |$)' "a scenario whose tests all pass passes"
expect '^not ok 2 - g/20-notok ' "a 'not ok' fails the scenario"
expect '^not ok 3 - g/30-exit ' "a non-zero exit fails the scenario"
expect '^not ok 4 - g/40-short ' "fewer tests than planned fail the scenario"
expect '^not ok 5 - g/50-noplan # no TAP plan' "output without a plan fails"
expect '^ok 6 - g/60-skip # SKIP unsupported: probe said EINVAL$' "a skip keeps its reason"
expect '^not ok 7 - g/70-hang # timeout after 1s$' "a hung scenario is killed and fails"
expect '^not ok 8 - g/80-emptyplan ' "an empty plan without SKIP fails"
expect '^    not ok 2$' "the scenario's own TAP is kept, indented"
out=$(SCENARIO_ROOT=$root "$runner" g/10-pass h/10-other)
expect '^1\.\.2$' "selects single scenarios and groups together"
out=$(SCENARIO_ROOT=$root "$runner" h/15-nolimit)
expect '^not ok 1 - h/15-nolimit # no "# timeout: SECONDS" line' "a scenario without a declared limit fails unrun"
out=$(SCENARIO_ROOT=$root SCENARIO_TIMEOUT_SCALE=4 "$runner" h/20-slow)
expect '^ok 1 - h/20-slow ' "SCENARIO_TIMEOUT_SCALE stretches a scenario's limit"
exit $failed

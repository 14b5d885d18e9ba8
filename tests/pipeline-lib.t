#!/usr/bin/env bash
# Host test of the pipeline's shared definitions (scripts/lib.sh and the
# guest's scenario.sh) on stand-ins: the scenario manifest, the selection
# rule, the TAP reader, the reuse helper and the kernel table read by
# its columns' names.
# reads: scripts/lib.sh guest-rootfs/overlay/usr/local/lib/guest/scenario.sh
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD_DIR=$tmp/build
# The stand-ins reuse under BUILD_DIR only, whatever called this test.
unset REUSE_DIR
# shellcheck source=scripts/lib.sh
source "$(cd "$(dirname "$0")/.." && pwd)/scripts/lib.sh"
n=0 failed=0
expect() {	# expect DESCRIPTION WANT GOT
	n=$((n + 1))
	if [ "$2" = "$3" ]; then echo "ok $n - $1"; else
		echo "not ok $n - $1"; printf '#   want: %s\n#   got:  %s\n' "$2" "$3" | sed '2,$s/^/#   /'; failed=1; fi
}
echo "1..18"

# --- the manifest ---------------------------------------------------------
mk() { mkdir -p "$tmp/s/${1%/*}"; printf '#!/bin/bash\n%s\n' "$2" > "$tmp/s/$1"; chmod +x "$tmp/s/$1"; }
mk g/10-a '# timeout: 30'
mk g/20-b '# what it does
#
# timeout: 5'
mk g/30-late '#
#
#
#
#
# timeout: 9'
mk h/10-c '# timeout: 7'
mk h/helper.sh '# timeout: 7'
printf 'x\n' > "$tmp/s/h/40-notexec"
expect "the manifest lists numbered executables with group, limit and key" \
	"$(printf 'g/10-a\tg\t30\tK\ng/20-b\tg\t5\tK\ng/30-late\tg\t-\tK\nh/10-c\th\t7\tK')" \
	"$(scenario_manifest "$tmp/s" K)"

# --- the selection rule ---------------------------------------------------
sel() { local id out=(); for id in g/10-a g/20-b h/10-c gg/10-d; do scenario_selects "$1" "$id" && out+=("$id"); done; echo "${out[*]}"; }
expect "no filter selects every scenario" "g/10-a g/20-b h/10-c gg/10-d" "$(sel "")"
expect "a group selects its scenarios, not another group's with a longer name" "g/10-a g/20-b" "$(sel g/)"
expect "words joined by commas, a group and a scenario" "g/20-b h/10-c" "$(sel g/20-b,h)"
expect "a row's runs narrowed by a filter: the narrower word" "g/20-b" "$(runs_narrow g g/20-b)"
expect "a ! word takes out what it names, whatever else selects it" "g/10-a gg/10-d|h/10-c" \
	"$(sel 'all,!g/20-b,!h')|$(sel 'h,!g')"
expect "a row's ! words stay in the narrowed filter" "g,!g/20-b|!g/20-b" \
	"$(runs_narrow 'all,!g/20-b' g)|$(runs_narrow 'all,!g/20-b')"

# --- the TAP reader -------------------------------------------------------
expect "top-level points: status, text, note; sub-streams and comments ignored" \
	"$(printf 'pass\tg/10-a\t12s\nfail\tg/20-b\texit 1\nskip\th/10-c\tunsupported: no tokens\npass\t\t\nfail\tunit: a b\t')" \
	"$(printf 'TAP version 13\n1..5\nok 1 - g/10-a # 12s\n    not ok 3 - inner\nnot ok 2 - g/20-b # exit 1\n# ok 9 - said\nok 3 - h/10-c # SKIP unsupported: no tokens\nok\nnot ok 5 - unit: a b\n' | tap_points)"
expect "a skip with no text keeps its reason" "$(printf 'skip\t\twhy')" "$(echo 'ok 4 - # SKIP why' | tap_points)"
expect "a plan and a skipped plan" "$(printf '3\t\n0\tunsupported: x')" \
	"$(printf 'x\n1..3\n' | tap_plan; printf '1..0 # SKIP unsupported: x\n' | tap_plan)"
# A failed point's SKIP stays a failure; the first " # " starts the note;
# "oknot" is no point; the last line needs no newline; a file as well as
# a pipe.
printf 'not ok 1 - a # SKIP no\nok 2 - b # c # d\noknot 3\nok 4 - e # SKIPPED\nok 5 # SKIP\nok 6 - f' > "$tmp/tap"
expect "a failed skip fails, the first # starts the note, a last line without newline counts" \
	"$(printf 'fail\ta\tSKIP no\npass\tb\tc # d\npass\te\tSKIPPED\nskip\t\t\npass\tf\t')|$(printf '2\t')" \
	"$(tap_points "$tmp/tap")|$(printf '1..2 # SKIP' | tap_plan)"

# --- the reuse helper -----------------------------------------------------
runs=0
work() { runs=$((runs + 1)); return "${1:-0}"; }
reuse_or_run step k1 work 2>/dev/null
reuse_or_run step k1 work 2>/dev/null
expect "a step runs once while its key is unchanged" 1 "$runs"
reuse_or_run step k2 work 2>/dev/null
expect "a changed key runs it again" 2 "$runs"
reuse_or_run --rerun step k2 work 2>/dev/null
expect "--rerun runs it whatever the key" 3 "$runs"
reuse_or_run group/step k3 work 1 2>/dev/null || true
reuse_or_run group/step k3 work 2>/dev/null
expect "a failed run is never reused, and a name may hold /" 5 "$runs"
reuse_or_run --needs "$tmp/made" step k2 work 2>/dev/null
expect "a missing output runs it again" 6 "$runs"

# --- the kernel table, by its columns' names ------------------------------
export KERNELS_TABLE=$tmp/kernels.tsv
cat > "$KERNELS_TABLE" <<'EOF'
# A table whose columns are in another order than the project's.
#role       name   default  image  from    scale  limit  debug  runs   args
oracle      ref    yes      ref    apt:x   1      60     -      all    -
under-test  ours   yes      mine   kernel  2      60     -      g      fred=on quiet
control     off    -        mine   kernel  1      60     -      all    -
EOF
kernels_table=$KERNELS_TABLE
kernel_row ours
expect "a row's fields by column name, the last taking the rest" "mine kernel 2 g fred=on quiet" \
	"$k_image $k_from $k_scale $k_runs $k_args"
expect "rows selected by column values, in table order" "ref ours|ours" \
	"$(kernel_names default=yes | paste -sd ' ')|$(kernel_names image=mine default=yes)"
exit $failed

#!/usr/bin/env bash
# Host test of the matrix's judgement against a stand-in QEMU: every
# kernel under test is held to the oracle, and a control may only skip
# with an 'unsupported:' reason; roles come from the kernel table, where
# a new prebuilt kernel or boot variant is one row.
# reads: scripts guest-rootfs/overlay/usr/local/lib/guest
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/build/images" "$tmp/build/rootfs"
for image in patched reference stock next; do echo "$image" > "$tmp/build/images/$image.bzImage"; done
# The project's table and two made-up rows, one line each: a prebuilt
# kernel under test with an image of its own, and a boot variant of the
# stock image as a second control.
export KERNELS_TABLE=$tmp/kernels.tsv
export FAKE_LIB=$repo/guest-rootfs/overlay/usr/local/lib/guest
{
	cat "$repo/scripts/kernels.tsv"
	echo "next          next   apt:linux-image-next          under-test  1  2700  -  -  all  -"
	echo "stock-nosmt   stock  apt:linux-image-cloud-amd64   control     1  2700  -  -  all  nosmt"
	echo "patched-pidfd patched  kernel                      under-test  1  2700  -  -  pidfd  -"
} > "$KERNELS_TABLE"
: > "$tmp/build/rootfs/initrd.cpio"
printf 'guest/10-a\tguest\t10\tk1\npidfd/10-b\tpidfd\t10\tk2\n' > "$tmp/build/rootfs/scenario-manifest"
# The stand-in passes guest/10-a on every kernel but stock, which skips it;
# FAKE_FRED=fail fails it on every kernel booted with fred=on, and on
# the image "next".
cat > "$tmp/bin/qemu-system-x86_64" <<'FAKE'
#!/usr/bin/env bash
[ "$1" = --version ] && { echo "QEMU emulator version 0 (stand-in)"; exit 0; }
serials=() append=""
while [ $# -gt 0 ]; do
	case $1 in
	-serial) serials+=("${2#file:}") ;;
	-kernel) image=$(cat "$2") ;;
	-append) append=$2 ;;
	esac
	shift
done
# FAKE_STOP=reference: the reference's guest stops before its results.
[ "$image" = "${FAKE_STOP:-}" ] && exit 0
# A guest whose filter leaves the group guest out runs nothing.
filter=$(tr ' ' '\n' <<<"$append" | sed -n 's/^guest\.scenarios=//p')
# shellcheck source=guest-rootfs/overlay/usr/local/lib/guest/scenario.sh
source "$FAKE_LIB/scenario.sh"
if ! scenario_selects "$filter" guest/10-a; then :
elif [ "$image" = stock ]; then echo "ok 1 - guest/10-a # SKIP unsupported: no a"
elif [[ " $append " == *" fred=on "* || $image == next ]] && [ "$FAKE_FRED" = fail ]; then echo "not ok 1 - guest/10-a # exit 1"
else echo "ok 1 - guest/10-a # 1s"; fi > "${serials[1]}"
echo "# guest: done" >> "${serials[1]}"
FAKE
chmod +x "$tmp/bin/qemu-system-x86_64"

n=0 failed=0
out=""
# matrix FAKE_FRED KERNELS...: run the matrix, then the tally of its
# results and of the streams in STREAMS; the output in $out.
matrix() {
	local fred=$1; shift
	: > "$tmp/build/steps.tsv"	# as make check starts
	# shellcheck disable=SC2086 # STREAMS: paths split at spaces
	out=$(export PATH=$tmp/bin:$PATH BUILD_DIR=$tmp/build RESULTS_DIR=$tmp/build/results GUEST_ACCEL=tcg GUEST_RERUN=1 \
		FAKE_FRED=$fred FAKE_STOP=${FAKE_STOP:-} KERNELS="$*"
		{ "$repo/scripts/run-matrix.sh" && "$repo/scripts/tally.sh" ${STREAMS:-}; } 2>&1) && out+=$'\nexit 0' || out+=$'\nexit 1'
}
expect() {
	n=$((n + 1))
	if grep -qE "$1" <<<"$out"; then echo "ok $n - $2"; else echo "not ok $n - $2"; sed 's/^/# /' <<<"$out"; failed=1; fi
}
echo "1..24"
matrix pass patched patched-fred reference stock
expect '^guest/10-a +pass +pass +pass +skip *$' "one column per kernel, patched-fred included"
expect '^3 passed, 0 failed$' "patched, patched-fred and reference pass, stock skips"
expect '^1 skipped ' "stock's 'unsupported:' skip is counted"
expect '^exit 0$' "a matrix that agrees passes"
matrix fail patched patched-fred reference stock
expect '^  disagreement on guest/10-a: patched-fred=fail reference=pass$' \
	"the second patched kernel is held to the reference too"
expect '^exit 1$' "a patched kernel that disagrees fails the matrix"
FAKE_STOP=reference matrix pass patched patched-fred reference
expect '^  reference: 1 scenarios have no result$' "a guest that stopped early: its missing results are told once"
expect '^2 passed, 2 failed$' "each missing result and the stopped guest count as failures"
n=$((n + 1))
if grep -q disagreement <<<"$out"; then
	echo "not ok $n - a missing result is no disagreement on top"; sed 's/^/# /' <<<"$out"; failed=1
else echo "ok $n - a missing result is no disagreement on top"; fi
expect '^  reference: guest stopped before the scenarios finished' "why the guest ended badly comes last, where a log's tail shows it"
matrix pass patched next reference stock stock-nosmt
expect '^guest/10-a +pass +pass +pass +skip +skip *$' "a made-up row is a column: a prebuilt kernel and a boot variant"
expect '^3 passed, 0 failed$' "the new kernel under test passes; the second control skips, as its role allows"
matrix pass patched patched-pidfd reference
expect '^guest/10-a +pass +- +pass *$' "a row whose runs column leaves a scenario out shows '-' for it"
expect '^2 passed, 0 failed$' "and owes no result for it"
out=$(PATH=$tmp/bin:$PATH BUILD_DIR=$tmp/build RESULTS_DIR=$tmp/build/results GUEST_ACCEL=tcg GUEST_RERUN=1 \
	"$repo/scripts/guest-check.sh" patched-pidfd guest/10-fred 2>&1)
expect 'patched-pidfd: runs none of the scenarios selected \(its row runs: pidfd\): not booted' \
	"a row that runs none of a filter's scenarios is not booted"
matrix fail next reference
expect '^  disagreement on guest/10-a: next=fail reference=pass$' "the new kernel under test is held to the oracle"
# A guest that never ran leaves no results: that fails, named.
mv "$tmp/build/rootfs/scenario-manifest" "$tmp/manifest"
matrix pass patched reference
expect '^  patched: no results \(its guest did not run' "a kernel whose guest did not run fails"
expect '^0 passed, 2 failed$' "each such kernel counts as a failure"
mv "$tmp/manifest" "$tmp/build/rootfs/scenario-manifest"
matrix pass patched nosuch
expect '^error: no kernel nosuch in scripts/kernels.tsv' "a name without a row fails before anything boots"
# The other steps' TAP streams count in the same tally.
mkdir -p "$tmp/streams"
printf '1..2\nok 1 - unit: a\nnot ok 2 - unit: b\n' > "$tmp/streams/unit.tap"
printf '1..1\nok 1 - quick bench\n' > "$tmp/streams/bench.tap"
STREAMS="$tmp/streams/unit.tap $tmp/streams/bench.tap" matrix pass patched reference
expect '^4 passed, 1 failed$' "each test point of every stream counts once, with the kernels' results"
expect '^  .*/streams/unit.tap: not ok - unit: b$' "a stream's failure is named"
expect '^guest-patched-check +([0-9]+|-) +[0-9]+$' "the step table shows each guest's time and the second of the check it started at"
STREAMS="$tmp/streams/gone.tap" matrix pass patched
expect '^  .*/streams/gone.tap: missing \(its step did not run\)$' "a stream that is missing fails"
expect '^1 passed, 1 failed$' "and counts as one failure"
exit $failed

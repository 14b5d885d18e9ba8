#!/usr/bin/env bash
# Host test of the guest launcher against a stand-in QEMU: every way a
# guest can end badly fails the run with a message that says which; and
# of make check's reuse of results (guest-check.sh) on the same stand-in.
# reads: scripts guest-rootfs/overlay/usr/local/lib/guest
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/build/images" "$tmp/build/rootfs"
for image in fake patched patched-debug; do : > "$tmp/build/images/$image.bzImage"; done
# The debug image is built with kmemleak: its final scan is required.
echo CONFIG_DEBUG_KMEMLEAK=y > "$tmp/build/images/patched-debug.config"
# The project's kernel table and a made-up row for the stand-in's image.
export KERNELS_TABLE=$tmp/kernels.tsv
{
	cat "$repo/scripts/kernels.tsv"
	echo "fake    fake  kernel  under-test  1  2700  -  -  all  -"
	echo "fake-g  fake  kernel  under-test  1  2700  -  -  g    -"
} > "$KERNELS_TABLE"
: > "$tmp/build/rootfs/initrd.cpio"
# The stand-in writes the two serial files as FAKE_QEMU says.
cat > "$tmp/bin/qemu-system-x86_64" <<'FAKE'
#!/usr/bin/env bash
[ "$1" = --version ] && { echo "QEMU emulator version 0 (stand-in)"; exit 0; }
# One argument a line, for the tests of what a kernel name boots.
printf '%s\n' "$@" > "$FAKE_ARGS"
serials=() accel= append=
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && serials+=("${2#file:}")
	[ "$1" = -accel ] && accel=$2
	[ "$1" = -append ] && append=$2
	shift
done
console=${serials[0]} tap=${serials[1]}
case $FAKE_QEMU in
ok) echo "ok 1 - a"; echo "ok 2 - guest/10-x"; echo "ok 3 - g/a"; echo "ok 4 - g/b"
	echo "# guest: kmemleak scanned: 0 suspected leaks"; echo "# guest: done" ;;
noscan) echo "ok 1 - a"; echo "# guest: done" ;;
leak) echo "kmemleak: unreferenced object 0xffff888004a1c000 (size 64):" > "$console"
	echo "# guest: kmemleak scanned: 1 suspected leaks"; echo "# guest: done" ;;
early) echo "ok 1 - a" ;;
panic) echo "Kernel panic - not syncing: Attempted to kill init!" > "$console"; echo "# guest: done" ;;
warn) echo "WARNING: CPU: 0 PID: 1 at kernel/fork.c:1 x" > "$console"; echo "# guest: done" ;;
hang) exec sleep 60 ;;
# g/a and g/b, or those of them that guest.scenarios names.
ab)
	filter=$(tr ' ' '\n' <<<"$append" | sed -n 's/^guest.scenarios=//p')
	echo "1..2"
	for id in g/a g/b; do
		[[ -z $filter || ,$filter, == *",$id,"* || ,$filter, == *",g,"* ]] && echo "    output of $id" && echo "ok 1 - $id"
	done
	echo "# guest: done" ;;
kvm) [ "$accel" = kvm ] && { printf 'KVM internal error. Suberror: 1\nemulation failure\n' >&2; exec sleep 60; } ;;
# KVM stops the guest after its first scenario; under TCG it runs all.
kvm-then-tcg)
	if [ "$accel" = kvm ]; then
		echo "1..2"; echo "not ok 1 - a"; echo "    partial output of b"
		printf 'KVM internal error. Suberror: 1\nemulation failure\n' >&2; exec sleep 60
	fi
	echo "1..2"; echo "ok 1 - a"; echo "ok 2 - b"; echo "# guest: done" ;;
esac >> "$tap"
FAKE
chmod +x "$tmp/bin/qemu-system-x86_64"

n=0 failed=0
# launch MODE EXPECTED-RC PATTERN DESCRIPTION   (KERNEL=fake)
launch() {
	local rc=0 out start=$SECONDS
	n=$((n + 1))
	out=$(PATH=$tmp/bin:$PATH BUILD_DIR=$tmp/build RESULTS_DIR=$tmp/build/results GUEST_ACCEL=kvm GUEST_TIMEOUT=3 FAKE_QEMU=$1 \
		FAKE_ARGS=$tmp/args "$repo/scripts/boot-guest.sh" "${KERNEL:-fake}" 2>&1) || rc=$?
	if [ $rc -eq "$2" ] && grep -qE "$3" <<<"$out" && [ $((SECONDS - start)) -lt 20 ]; then
		echo "ok $n - $4"
	else
		echo "not ok $n - $4 (exit $rc)"; sed 's/^/# /' <<<"$out"; failed=1
	fi
}
# booted KERNEL IMAGE WANTED UNWANTED DESCRIPTION: KERNEL boots
# build/images/IMAGE.bzImage with a command line that matches the
# pattern WANTED and not UNWANTED.
booted() {
	local rc=0 out kernel_arg append_arg
	n=$((n + 1))
	out=$(PATH=$tmp/bin:$PATH BUILD_DIR=$tmp/build RESULTS_DIR=$tmp/build/results GUEST_ACCEL=kvm GUEST_TIMEOUT=3 FAKE_QEMU=ok \
		FAKE_ARGS=$tmp/args "$repo/scripts/boot-guest.sh" "$1" 2>&1) || rc=$?
	kernel_arg=$(grep -A1 -x -- -kernel "$tmp/args" | tail -n 1)
	append_arg=$(grep -A1 -x -- -append "$tmp/args" | tail -n 1)
	if [ $rc -eq 0 ] && [ "$kernel_arg" = "$tmp/build/images/$2.bzImage" ] && grep -qE -- "$3" <<<"$append_arg" &&
		! grep -qE -- "$4" <<<"$append_arg" && [ -s "$tmp/build/results/$1/tap" ]; then
		echo "ok $n - $5"
	else
		echo "not ok $n - $5 (exit $rc)"
		sed 's/^/# /' <<<"$out
-kernel $kernel_arg
-append $append_arg"
		failed=1
	fi
}
echo "1..24"
launch ok 0 'fake: guest finished' "a guest that finishes its scenarios passes"
launch early 1 'error: fake: guest stopped before the scenarios finished' "a guest that stops early fails"
launch panic 1 'error: fake: kernel reported a problem' "a kernel panic on the console fails"
launch warn 1 'kernel reported a problem:.*|1:WARNING: CPU' "a WARNING on the console fails"
launch hang 1 'error: fake: guest hung: killed after 3s' "a hung guest is killed and fails"
launch kvm 1 'KVM stopped the guest \(qemu.log\): booted again under TCG' "a KVM internal error ends that boot at once"
launch kvm-then-tcg 0 'fake: KVM stopped the guest .*booted again under TCG' "a guest that KVM stops is booted again under TCG"
n=$((n + 1))
if [ "$(grep -E '^(ok|not ok|1\.\.|    )' "$tmp/build/results/fake/tap")" = "1..2
ok 1 - a
ok 2 - b" ] && grep -q '^# guest: KVM stopped the guest' "$tmp/build/results/fake/tap"; then
	echo "ok $n - the results are the TCG boot's, which says why it ran"
else
	echo "not ok $n - the results are the TCG boot's"; sed 's/^/# /' "$tmp/build/results/fake/tap"; failed=1
fi
KERNEL=patched-debug launch leak 1 'kernel reported a problem:.*|1:kmemleak: unreferenced' "a kmemleak report on a debug kernel's console fails"
KERNEL=patched-debug launch noscan 1 'error: patched-debug: kmemleak did not scan' "a debug kernel whose kmemleak did not scan fails"
n=$((n + 1))
PATH=$tmp/bin:$PATH BUILD_DIR=$tmp/build RESULTS_DIR=$tmp/build/results GUEST_ACCEL=tcg FAKE_QEMU=ok \
	FAKE_ARGS=$tmp/args "$repo/scripts/boot-guest.sh" fake >/dev/null 2>&1 || true
if [ "$(grep -A1 -x -- -accel "$tmp/args" | tail -n 1)" = tcg,thread=single ]; then
	echo "ok $n - TCG runs the vCPUs in one thread (lib.sh: stale patched kernel text otherwise)"
else
	echo "not ok $n - TCG runs the vCPUs in one thread"; sed 's/^/# /' "$tmp/args"; failed=1
fi
# Kernel names that are an image plus command-line arguments (kernels.tsv).
booted patched patched '^console=ttyS0 ' 'fred=|no5lvl' "patched boots patched.bzImage without fred="
booted patched-fred patched ' fred=on ' 'timeout_scale' "patched-fred boots patched.bzImage with fred=on"
booted patched-debug-fred patched-debug ' fred=on no5lvl .*guest\.timeout_scale=8$' '^$' \
	"patched-debug-fred boots patched-debug.bzImage with fred=on, the debug time limits and 4-level paging"

# make check's reuse (guest-check.sh): the stand-in would hang now, so
# only a reused result passes.
printf 'a\t-\t10\tk1\nguest/10-x\tguest\t10\tk2\ng/a\tg\t10\tk3\ng/b\tg\t10\tk4\n' > "$tmp/build/rootfs/scenario-manifest"
# checked MODE EXPECTED-RC PATTERN DESCRIPTION   (KERNEL=fake, RERUN=1)
checked() {
	local rc=0 out
	n=$((n + 1))
	out=$(PATH=$tmp/bin:$PATH BUILD_DIR=$tmp/build RESULTS_DIR=$tmp/build/results GUEST_ACCEL=kvm GUEST_TIMEOUT=3 FAKE_QEMU=$1 \
		GUEST_RERUN=${RERUN-1} FAKE_ARGS=$tmp/args "$repo/scripts/guest-check.sh" "${KERNEL:-fake}" 2>&1) || rc=$?
	if [ $rc -eq "$2" ] && grep -qE "$3" <<<"$out"; then echo "ok $n - $4"
	else echo "not ok $n - $4 (exit $rc)"; sed 's/^/# /' <<<"$out"; failed=1; fi
}
checked ok 0 'fake: guest finished' "a clean run"
RERUN='' checked hang 0 'fake: inputs unchanged for all 4 scenarios' "an unchanged clean run is reused"
checked hang 1 'error: fake: guest hung' "GUEST_RERUN=1 boots again"
RERUN='' checked hang 1 'error: fake: guest hung' "a failed run is never reused"
KERNEL=patched-fred checked ok 0 'patched-fred: guest finished' "patched-fred: a clean run"
KERNEL=patched-fred RERUN='' checked hang 0 'patched-fred: inputs unchanged for all 1 scenarios' \
	"patched-fred's clean run is reused"
KERNEL=patched-fred RERUN='' GUEST_APPEND=quiet checked hang 1 'error: patched-fred: guest hung' \
	"a changed command line boots again"
# Scenario by scenario: a changed key boots that scenario alone, and the
# results are the boot's and the reused ones, each with its output.
KERNEL=fake-g checked ab 0 'fake-g: guest finished' "a clean run of two scenarios"
sed -i 's/k4$/k4-changed/' "$tmp/build/rootfs/scenario-manifest"
KERNEL=fake-g RERUN='' checked ab 0 'fake-g: 1 results reused, 1 scenarios to run' "a changed scenario runs alone"
n=$((n + 1))
if grep -qx -- -append "$tmp/args" && grep -A1 -x -- -append "$tmp/args" | grep -q ' guest.scenarios=g/b ' &&
	[ "$(grep -E '^(ok|    )' "$tmp/build/results/fake-g/tap")" = "    output of g/b
ok 1 - g/b
    output of g/a
ok 1 - g/a" ]; then
	echo "ok $n - the guest ran g/b alone; the results hold g/a's reused output and result too"
else
	echo "not ok $n - the guest ran g/b alone, g/a reused"; sed 's/^/# /' "$tmp/args" "$tmp/build/results/fake-g/tap"; failed=1
fi
exit $failed

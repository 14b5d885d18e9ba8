#!/usr/bin/env bash
# Host test of the guest launcher against a stand-in QEMU: every way a
# guest can end badly fails the run with a message that says which.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/build/images" "$tmp/build/rootfs"
: > "$tmp/build/images/fake.bzImage"
: > "$tmp/build/rootfs/initrd.cpio.gz"
# The stand-in writes the two serial files as FAKE_QEMU says.
cat > "$tmp/bin/qemu-system-x86_64" <<'FAKE'
#!/usr/bin/env bash
[ "$1" = --version ] && { echo "QEMU emulator version 0 (stand-in)"; exit 0; }
serials=()
while [ $# -gt 0 ]; do
	[ "$1" = -serial ] && serials+=("${2#file:}")
	shift
done
console=${serials[0]} tap=${serials[1]}
case $FAKE_QEMU in
ok) echo "ok 1 - a"; echo "# guest: done" ;;
early) echo "ok 1 - a" ;;
panic) echo "Kernel panic - not syncing: Attempted to kill init!" > "$console"; echo "# guest: done" ;;
warn) echo "WARNING: CPU: 0 PID: 1 at kernel/fork.c:1 x" > "$console"; echo "# guest: done" ;;
hang) exec sleep 60 ;;
kvm) printf 'KVM internal error. Suberror: 1\nemulation failure\n' >&2; exec sleep 60 ;;
esac >> "$tap"
FAKE
chmod +x "$tmp/bin/qemu-system-x86_64"

n=0 failed=0
# launch MODE EXPECTED-RC PATTERN DESCRIPTION
launch() {
	local rc=0 out start=$SECONDS
	n=$((n + 1))
	out=$(PATH=$tmp/bin:$PATH BUILD_DIR=$tmp/build GUEST_ACCEL=kvm GUEST_TIMEOUT=3 FAKE_QEMU=$1 GUEST_RERUN=${RERUN-1} \
		"$repo/scripts/boot-guest.sh" fake 2>&1) || rc=$?
	if [ $rc -eq "$2" ] && grep -qE "$3" <<<"$out" && [ $((SECONDS - start)) -lt 20 ]; then
		echo "ok $n - $4"
	else
		echo "not ok $n - $4 (exit $rc)"; sed 's/^/# /' <<<"$out"; failed=1
	fi
}
echo "1..10"
launch ok 0 'fake: guest finished' "a guest that finishes its scenarios passes"
launch early 1 'error: fake: guest stopped before the scenarios finished' "a guest that stops early fails"
launch panic 1 'error: fake: kernel reported a problem' "a kernel panic on the console fails"
launch warn 1 'kernel reported a problem:.*|1:WARNING: CPU' "a WARNING on the console fails"
launch hang 1 'error: fake: guest hung: killed after 3s' "a hung guest is killed and fails"
launch kvm 1 'error: fake: KVM failed while running the guest' "a KVM internal error ends the guest at once"
# Reuse: the stand-in would hang now, so only a reused result passes.
launch ok 0 'fake: guest finished' "a clean run"
RERUN= launch hang 0 'fake: inputs unchanged since the clean run' "an unchanged clean run is reused"
launch hang 1 'error: fake: guest hung' "GUEST_RERUN=1 boots again"
RERUN= launch hang 1 'error: fake: guest hung' "a failed run is never reused"
exit $failed

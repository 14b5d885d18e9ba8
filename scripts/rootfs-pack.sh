#!/usr/bin/env bash
# Pack the guest's initramfs: the cached base archive, then a small
# archive with the overlay, the shim and the scenarios (the kernel unpacks
# concatenated cpio archives in order, later files win). Uncompressed:
# under TCG, inflating it took seconds of every boot (docs/performance.md).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

out_dir=$build_dir/rootfs
base=$out_dir/base.cpio.gz
[ -f "$base" ] || die "$base missing: run scripts/rootfs-base.sh"

staging=$(mktemp -d "$out_dir/extra.XXXXXX")
trap 'rm -rf "$staging" "$staging.cpio" "$staging.initrd" "$staging.manifest"' EXIT

cp -a "$repo_root/guest-rootfs/overlay/." "$staging/"
mkdir -p "$staging/opt/scenarios"
for dir in "$repo_root"/scenarios/*/; do
	group=$(basename "$dir")
	case $group in helpers | bpf) continue ;; esac
	cp -a "$dir" "$staging/opt/scenarios/$group"
done
for sub in "${scenario_build_dirs[@]}"; do
	[ ! -e "$staging/opt/scenarios/$sub" ] || die "scenarios/$sub: a group may not be named as a build output (scripts/lib.sh)"
	[ -d "$build_dir/scenarios/$sub" ] && cp -a "$build_dir/scenarios/$sub" "$staging/opt/scenarios/$sub"
done
# The benchmarks (make bench): the guest driver and its helpers, and
# from the scenarios' build the two it shares with them, the kernel probe
# and the BPF object it loads; the bench reads nothing else of
# /opt/scenarios.
mkdir -p "$staging/opt/bench/bin" "$staging/opt/bench/bpf"
cp -a "$repo_root/bench/guest/." "$staging/opt/bench/"
[ -d "$build_dir/bench/bin" ] && cp -a "$build_dir/bench/bin/." "$staging/opt/bench/bin/"
cp "$build_dir/scenarios/bin/shim_probe" "$staging/opt/bench/bin/"
cp "$build_dir/scenarios/bpf/shim_count.bpf.o" "$staging/opt/bench/bpf/"
# The Debian packages (scripts/deb.sh): the guest's /init installs them
# with dpkg -i before anything runs, so the scenarios use the shim, its
# hook files and the token tools as a Debian 12 user gets them.
mkdir -p "$staging/opt/debs"
for name in shim bpf-token-tools; do
	ls "$build_dir/deb/${name}"_*.deb >/dev/null 2>&1 || die "build/deb/${name}_*.deb missing: run 'make deb'"
	cp "$build_dir/deb/${name}"_*.deb "$staging/opt/debs/"
done
# The hash of the containerd scenarios' disk (scripts/cri-disk.sh), which
# boot-guest.sh attaches: in the initramfs, a changed disk changes the keys.
[ -f "$out_dir/cri-disk.id" ] || die "$out_dir/cri-disk.id missing: run scripts/cri-disk.sh"
cp "$out_dir/cri-disk.id" "$staging/opt/scenarios/cri-disk.id"
# The prebuilt kernels' loop modules (scripts/fetch-prebuilt-kernel.sh),
# under /lib/modules/VERSION, where the guest's /init loads them; /lib is
# a link to usr/lib in the merged-/usr guest.
for modules in "$build_dir"/images/*.modules; do
	[ -d "$modules" ] || continue
	mkdir -p "$staging/usr/lib"
	cp -a "$modules/lib/." "$staging/usr/lib/"
done

# The manifest (scenario.sh): each scenario with its key, for the reuse
# of its results (guest-check.sh): its own file, and everything else the
# guest gets (the base archive, the other files of every group, the
# helpers, the packages). A change to one scenario changes its key
# alone; any other change, every key. The bench's key is everything but
# the scenarios (bench.sh): what its guest reads.
manifest=$staging/opt/scenarios/manifest
scenario_manifest "$repo_root/scenarios" > "$staging.manifest"
# hash_except PATTERN...: the staging's files but those matching a PATTERN.
hash_except() {
	{ sha256sum < "$base"
	  (cd "$staging" && find . \( -type f -o -type l \) -print0 | LC_ALL=C sort -z |
		while IFS= read -r -d '' f; do
			for p in "$@"; do
				# shellcheck disable=SC2053 # a pattern
				[[ $f != $p ]] || continue 2
			done
			if [ -L "$f" ]; then echo "link $f $(readlink "$f")"; else sha256sum "$f"; fi
		done); } | sha256sum | cut -c1-16
}
excluded=(./opt/scenarios/manifest)
while IFS=$'\t' read -r id _; do excluded+=("./opt/scenarios/$id"); done < "$staging.manifest"
shared=$(hash_except "${excluded[@]}")
bench_key=$(hash_except './opt/scenarios/*')
while IFS=$'\t' read -r id group limit _; do
	printf '%s\t%s\t%s\t%s\n' "$id" "$group" "$limit" \
		"$({ echo "$shared $(stat -c %a "$staging/opt/scenarios/$id")"; sha256sum < "$staging/opt/scenarios/$id"; } | sha256sum | cut -c1-16)"
done < "$staging.manifest" > "$manifest"
rm -f "$staging.manifest"

# Same inputs, same bytes: an unchanged initramfs is not rewritten.
find "$staging" -exec touch -h -d @0 {} +
(cd "$staging" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc -R 0:0 --reproducible --quiet) > "$staging.cpio"
{ gzip -dc "$base"; cat "$staging.cpio"; } > "$staging.initrd"
rm -f "$staging.cpio"
if cmp -s "$staging.initrd" "$out_dir/initrd.cpio"; then
	rm -f "$staging.initrd"
else
	mv "$staging.initrd" "$out_dir/initrd.cpio"
fi
rm -f "$out_dir/initrd.cpio.gz"	# the compressed one of earlier builds
cp "$manifest" "$out_dir/scenario-manifest"
echo "$bench_key" > "$out_dir/bench-key"

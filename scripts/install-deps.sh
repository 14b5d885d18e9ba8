#!/usr/bin/env bash
# Install the host packages the pipeline needs. Quiet and quick when they
# are all there; runs apt-get update only when something is missing.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

# libclang-rt-dev: libFuzzer and the sanitizers (make fuzz, and make check's
# fuzz smoke); clang's packages only recommend it, and no recommends
# are installed.
packages=(
	linux-source-6.1 linux-source-6.12 qemu-system-x86 debootstrap runc libbpf-dev libseccomp-dev
	clang libclang-rt-dev llvm flex bison bc libelf-dev libssl-dev dwarves cpio ccache
	libcmocka-dev libjson-c-dev build-essential xz-utils zstd rsync git libcap-dev pkg-config
	zlib1g-dev python3 valgrind util-linux bpftool gnuplot-nox
	debhelper dpkg-dev fakeroot help2man lintian man-db bash-completion shellcheck
	golang-go golang-google-grpc-dev golang-google-protobuf-dev e2fsprogs
)

missing=()
for p in "${packages[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
[ "$(id -u)" -eq 0 ] || die "missing packages (${missing[*]}); run as root to install them"

install() {
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}
say "installing: ${missing[*]}"
run_logged apt-install install

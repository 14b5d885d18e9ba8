#!/usr/bin/env bash
# The demo: boot the patched guest and run scenarios/demo/run in it, then
# the same on the stock kernel, which must refuse.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

for kernel in patched stock; do
	echo
	say "demo on the $kernel kernel ($(cat "$build_dir/images/$kernel.package" 2>/dev/null || echo "linux-source-6.1 + kernel-series"))"
	"$repo_root/scripts/boot-guest.sh" "$kernel" demo
done

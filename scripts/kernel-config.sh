#!/usr/bin/env bash
# Make the guest kernel's .config: x86_64_defconfig plus the fragments in
# kernel-series/config, then check that every option the fragments ask
# for really is in the result (merge_config.sh drops unmet ones silently).
# Usage: kernel-config.sh OUTDIR [extra fragment...]
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

tree=${KERNEL_TREE:-$build_dir/linux}
out=${1:?usage: kernel-config.sh OUTDIR [fragment...]}
shift
fragments=()
for f in "$repo_root"/kernel-series/config/*.config; do
	[ "$(basename "$f")" = debug.config ] || fragments+=("$f")
done
fragments+=("$@")

# Every requested option must hold in the final config.
verify() {
	local config=$1 frag line sym val missing=()
	for frag in "${fragments[@]}"; do
		while IFS= read -r line; do
			case $line in
			CONFIG_*=*)
				sym=${line%%=*}; val=${line#*=}
				grep -qxF "$sym=$val" "$config" ||
					missing+=("$sym=$val (have: $(grep -E "^(# )?${sym}[= ]" "$config" || echo unset)) [$(basename "$frag")]")
				;;
			"# CONFIG_"*" is not set")
				sym=${line#\# }; sym=${sym%% *}
				! grep -qE "^$sym=" "$config" ||
					missing+=("$sym unset (have: $(grep -E "^$sym=" "$config")) [$(basename "$frag")]")
				;;
			esac
		done < "$frag"
	done
	if [ ${#missing[@]} -gt 0 ]; then
		printf 'option not set as requested: %s\n' "${missing[@]}" >&2
		return 1
	fi
}

main() {
	mkdir -p "$out"
	local tmp
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' RETURN
	"$tree/scripts/kconfig/merge_config.sh" -m -O "$tmp" \
		"$tree/arch/x86/configs/x86_64_defconfig" "${fragments[@]}" >"$tmp/merge.log" 2>&1 ||
		{ cat "$tmp/merge.log" >&2; return 1; }
	make -s -C "$tree" O="$tmp" olddefconfig >/dev/null
	verify "$tmp/.config"
	# Keep the old file (and its mtime) when nothing changed.
	if ! cmp -s "$tmp/.config" "$out/.config"; then
		cp "$tmp/.config" "$out/.config"
		say "kernel config: updated $(basename "$out")/.config"
	fi
}

main

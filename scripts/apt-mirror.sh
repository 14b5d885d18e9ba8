#!/usr/bin/env bash
# Print the Debian mirror this machine's apt uses for bookworm main.
set -euo pipefail

candidates() {
	local f
	# deb822 stanzas whose Suites include bookworm and Components main.
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk 'BEGIN { RS = ""; FS = "\n" }
		/Suites:[^\n]*[ \t]bookworm([ \t\n]|$)/ && /Components:[^\n]*main/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", $i); split($i, u, /[ \t]+/); print u[1] }
		}' "$f"
	done
	# One-line sources.
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '$1 == "deb" && / bookworm / && / main/ {
			for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; break } }' "$f"
	done
}

mirror=$(candidates | grep -v -- '-security' | head -n 1 || true)
[ -n "$mirror" ] || { echo "no bookworm main mirror in the apt configuration" >&2; exit 1; }
echo "$mirror"

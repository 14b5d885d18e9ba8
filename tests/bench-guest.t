#!/usr/bin/env bash
# Host test of the bench's guest side: how bench/guest/run pairs the
# shim's thread-exit events (host tids) with the workload's own exits
# (its PID namespace's tids), and that a pairing that cannot be right
# gives a failed note instead of latencies.
# reads: bench/guest/run
set -euo pipefail

run=$(cd "$(dirname "$0")/.." && pwd)/bench/guest/run
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
expect() {	# expect DESCRIPTION WANT GOT
	n=$((n + 1))
	if [ "$2" = "$3" ]; then echo "ok $n - $1"; else
		echo "not ok $n - $1"; printf '#   want: %s\n#   got:  %s\n' "$2" "$3"; failed=1; fi
}
# shellcheck source=/dev/null
source <(sed -n '/^threads_pair() {/,/^}/p' "$run")

# The container's init is 900 (1 inside), the workload 901 (2 inside);
# its threads 902-904 (3-5 inside) exit out of order. Host noise: 950.
events() {
	cat <<-EV
	{"event":"container-start","pid":900,"time":1.0}
	{"event":"thread-exit","tid":$1,"pid":901,"time":10.5}
	{"event":"thread-exit","tid":$3,"pid":901,"time":10.9}
	{"event":"thread-exit","tid":$2,"pid":901,"time":10.7}
	{"event":"thread-exit","tid":901,"pid":901,"time":11.0}
	{"event":"thread-exit","tid":950,"pid":950,"time":11.0}
	{"event":"thread-exit","tid":900,"pid":900,"time":11.1}
	{"event":"container-exit","pid":900,"status":0,"time":11.2}
	EV
}
events 902 903 904 > "$tmp/ev"
printf 'main 2\nexit 3 10.4\nexit 4 10.6\nexit 5 10.8\n' > "$tmp/out"

echo "1..4"
expect "k-th smallest host tid pairs with the k-th smallest of the workload's" \
	"count threads-events shim/N3 3 3|sample threads-latency shim/N3 0.100000 0.100000 0.100000" \
	"$(threads_pair 3 shim/N3 "$tmp/ev" "$tmp/out" | paste -sd '|')"
expect "an event missing: counted, no latencies" \
	"count threads-events shim/N4 3 4" "$(threads_pair 4 shim/N4 "$tmp/ev" "$tmp/out" | paste -sd '|')"
# Host tids that wrapped at kernel.pid_max in mid-run: 903 and 904 became 5 and 6.
events 902 5 6 > "$tmp/wrapped"
got=$(threads_pair 3 shim/N3 "$tmp/wrapped" "$tmp/out" | paste -sd '|')
expect "tids that wrapped give a failed note, not latencies" \
	"count threads-events shim/N3 3 3|note threads shim/N3: failed: 1 of 3 exit events precede the end of their thread: the tids did not pair up" "$got"
expect "the guest lifts kernel.pid_max before it measures" 0 \
	"$(grep -q '^echo 4194304 > /proc/sys/kernel/pid_max' "$run"; echo $?)"
exit $failed

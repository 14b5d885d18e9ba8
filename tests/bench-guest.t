#!/usr/bin/env bash
# Host test of the bench's guest side: how bench/guest/run pairs the
# shim's thread-exit events (host tids) with the workload's own exits
# (its PID namespace's tids), and that a pairing that cannot be right
# gives a failed note instead of latencies; and how the start variants
# run in rounds.
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

echo "1..7"
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

# The start variants, with bench_exec, runc and crun stood in for: each
# call is logged, crun fails, the profile build writes one mark a start.
# shellcheck source=/dev/null
source <(sed -n '/^failure() {/p; /^start_cmd() {/,/^}/p; /^run_start() {/,/^}/p; /^profile_steps() {/,/^}/p' "$run")
note() { echo "note $*"; }
make_bundle() { :; }
runc() { :; }
crun() { :; }
bench_exec() {
	shift 5	# -n 1 -w 0 --
	echo "${*:1:3}" >> "$tmp/calls"
	case "$*" in
	*"exec crun "*) echo "crun: no cgroup"; return 1 ;;
	shim-profile*)	# a start a second, its exec half a second long
		echo x >> "$tmp/profiled"
		t=$(wc -l < "$tmp/profiled")
		echo "shim-profile launch 1 ${t}000000000 0" >&2
		echo "shim-profile exec 1 ${t}500000000 5" >&2 ;;
	esac
	echo "0.2 0.1"
}
# shellcheck disable=SC2034 # run_start's globals
token=0 warmup=1 runs=2 work=$tmp root=$tmp/rootfs maps=() delegate=()
# The guest's script runs without -e: a failed run is a note, not the end.
(set +e; run_start) > "$tmp/start"
expect "one run of each variant a round, a warm-up round first" \
	"shim run --rootfs|shim run --cgroups=disabled|shim run --rootfs|sh -c exec runc run --bundle $tmp/runc b\$\$|sh -c exec crun run --bundle $tmp/crun b\$\$|sh -c exec runc run --bundle $tmp/runc-bpf b\$\$|unshare -Urmpf --mount-proc|shim-profile run --rootfs" \
	"$(head -n 8 "$tmp/calls" | paste -sd '|')"
expect "a variant that failed leaves the rounds, with a note; the others are measured in every round" \
	"2 0 1 2" \
	"$(grep -c '^sample start shim ' "$tmp/start") $(grep -c '^sample start crun ' "$tmp/start") $(grep -c '^note start crun: failed: crun: no cgroup' "$tmp/start") $(grep -c '^sample start shim-profile ' "$tmp/start")"
expect "the profile's steps from the measured starts only" \
	"sample start-profile exec 0.500000000|sample start-profile exec 0.500000000" \
	"$(grep '^sample start-profile exec' "$tmp/start" | paste -sd '|')"
exit $failed

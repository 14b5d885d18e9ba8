# Shared helpers for the host-side step scripts; sourced, never run.
# shellcheck shell=bash

repo_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$repo_root/build}
log_dir=$build_dir/logs
# Guest results; with a RESULTS_DIR of its own, a second matrix keeps its
# results apart (it still waits for the first: run-matrix.sh).
# shellcheck disable=SC2034
results_dir=${RESULTS_DIR:-$build_dir/results}
# Each step's time, step TAB seconds TAB when: make check starts it afresh,
# tally.sh prints it, make bench reports the pipeline's costs from it.
steps_file=$build_dir/steps.tsv
mkdir -p "$log_dir"

# The QEMU machine every guest runs on, the accelerator aside.
# shellcheck disable=SC2034
guest_machine=(-cpu max -smp 2 -m 2048 -nodefaults -no-user-config -display none -no-reboot)
# TCG runs the two vCPUs in one thread, taking turns. With a thread per
# vCPU, Debian's QEMU 7.2 lets one vCPU run kernel text that another
# has just patched live as it was before: an int3 that the patching CPU
# has already removed (static keys flip at every cpuset cgroup a
# container runtime makes). Seen here: Debian's 6.12 oopses on "int3"
# in get_page_from_freelist within a few hundred flips, and the patched
# 6.1 stalled at the same site; one thread: no failure in the same runs.
# shellcheck disable=SC2034
tcg_accel=tcg,thread=single
# The kernel matrix (scripts/kernels.tsv says what each column means).
kernels_table=${KERNELS_TABLE:-$repo_root/scripts/kernels.tsv}
# Results folders beside the kernels' own (build/results/NAME).
kernel_reserved=(unit bench demo)

# kernel_rows: the table's rows, without comments and blank lines.
kernel_rows() { grep -vE '^[[:space:]]*(#|$)' "$kernels_table"; }

# kernel_row NAME: set k_image, k_from, k_role, k_scale, k_limit,
# k_default, k_debug, k_runs and k_args (empty for "-") from NAME's row;
# fails when the table has no such row, dies when the row is malformed.
kernel_row() {
	local _name
	# shellcheck disable=SC2034 # the row's fields are for the caller
	while read -r _name k_image k_from k_role k_scale k_limit k_default k_debug k_runs k_args; do
		[ "$_name" = "$1" ] || continue
		[ "$k_args" != - ] || k_args=
		[[ $k_runs == all || $k_runs =~ ^[A-Za-z0-9][A-Za-z0-9_-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)?(,[A-Za-z0-9][A-Za-z0-9_-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)?)*$ ]] ||
			die "$kernels_table: $_name: runs '$k_runs' (all, or groups and GROUP/NAME joined by commas)"
		case $k_role in under-test | oracle | control) ;;
		*) die "$kernels_table: $_name: role '$k_role' (under-test, oracle or control)" ;; esac
		[[ $k_scale =~ ^[1-9][0-9]*$ && $k_limit =~ ^[1-9][0-9]*$ ]] ||
			die "$kernels_table: $_name: scale and limit are whole numbers"
		[[ " ${kernel_reserved[*]} " != *" $_name "* ]] ||
			die "$kernels_table: $_name: a kernel may not be named as a results folder (${kernel_reserved[*]})"
		return 0
	done < <(kernel_rows)
	return 1
}

# matrix_kernels [NAME...]: the kernels to run, one a line: the names
# given, or the table's defaults; with KERNEL_DEBUG set, each row's debug
# kernel in its place. Dies on a name the table lacks.
matrix_kernels() {
	local _names=("$@") _name
	[ $# -gt 0 ] || mapfile -t _names < <(kernel_rows | awk '$7 == "yes" { print $1 }')
	[ ${#_names[@]} -gt 0 ] || die "no kernels: KERNELS is empty and scripts/kernels.tsv has no default row"
	for _name in "${_names[@]}"; do
		kernel_row "$_name" ||
			die "no kernel $_name in scripts/kernels.tsv; it has: $(kernel_rows | awk '{ print $1 }' | paste -sd ' ')"
		if [ -n "${KERNEL_DEBUG:-}" ] && [ "$k_debug" != - ]; then
			_name=$k_debug
			kernel_row "$_name" || die "scripts/kernels.tsv: the debug kernel $_name has no row"
		fi
		echo "$_name"
	done
}

# runs_selects RUNS ID: whether a row whose runs column is RUNS runs the
# scenario ID (GROUP/NAME).
runs_selects() {
	local _word
	[ "$1" = all ] && return 0
	for _word in ${1//,/ }; do
		case $2 in "$_word" | "$_word"/*) return 0 ;; esac
	done
	return 1
}

# runs_narrow RUNS [WORD...]: the filter a guest of that row runs, as
# words joined by commas: the words given (make check's SCENARIOS=, all
# when none) within the row's runs column. Fails when they share no
# scenario.
runs_narrow() {
	local _runs=$1 _want _word _out=()
	shift
	if [ "$_runs" = all ]; then
		(IFS=,; echo "$*")
		return 0
	fi
	[ $# -gt 0 ] || set -- ""
	for _want in "$@"; do
		_want=${_want%/}
		for _word in ${_runs//,/ }; do
			if [ -z "$_want" ] || [[ $_word == "$_want" || $_word == "$_want"/* ]]; then
				_out+=("$_word")
			elif [[ $_want == "$_word"/* ]]; then
				_out+=("$_want")
			fi
		done
	done
	[ ${#_out[@]} -gt 0 ] || return 1
	printf '%s\n' "${_out[@]}" | awk '!seen[$0]++' | paste -sd ,
}

# kernels_with ROLE: the default kernels of that role, in table order
# (the demo's and the bench's choices).
kernels_with() { kernel_rows | awk -v role="$1" '$4 == role && $7 == "yes" { print $1 }'; }

# Build outputs that rootfs-pack.sh puts in the guest's /opt/scenarios
# beside the groups: a scenario group may not take one of these names
# (scenario-filter.sh refuses it).
# shellcheck disable=SC2034
scenario_build_dirs=(bin bpf selftests)
# A scenario's time limit: a line "# timeout: SECONDS" among its first 5
# lines, the same pattern as the guest's run-scenarios reads.
# shellcheck disable=SC2034
scenario_timeout_re='^# timeout: *[0-9]+'
# What QEMU prints on stderr when KVM stops a guest it cannot run; the
# guest is then paused, not ended.
# shellcheck disable=SC2034
kvm_failure='KVM internal error|emulation failure|KVM: entry failed'

say() { printf '==> %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# run_logged NAME CMD...: run CMD with its output in build/logs/NAME.log,
# print the elapsed time, and on failure the last 40 lines of the log.
run_logged() {
	# Bash scoping is dynamic: these names must not shadow the caller's.
	local _step=$1; shift
	local _log=$log_dir/$_step.log _start=$SECONDS _rc=0
	say "$_step: started (log: ${_log#"$repo_root"/})"
	# A heartbeat with the log's last line, so long steps show progress.
	# Its sleep is ended with it: a stray sleep would hold the caller's
	# stdout open for up to a minute.
	(
		trap 'kill $_nap 2>/dev/null; exit 0' TERM
		while :; do
			sleep "${HEARTBEAT:-60}" & _nap=$!
			wait $_nap
			kill -0 $$ 2>/dev/null || exit 0
			say "$_step: $((SECONDS - _start))s, at: $(tail -n 1 "$_log" 2>/dev/null | cut -c1-100)"
		done
	) &
	local _beat=$!
	"$@" >"$_log" 2>&1 || _rc=$?
	kill "$_beat" 2>/dev/null; wait "$_beat" 2>/dev/null || true
	if [ "$_rc" -ne 0 ]; then
		printf -- '--- last 40 lines of %s ---\n' "$_log" >&2
		tail -n 40 "$_log" >&2
		die "$_step failed (exit $_rc) after $((SECONDS - _start))s"
	fi
	say "$_step: done in $((SECONDS - _start))s"
	record_step "$_step" $((SECONDS - _start))
}

# record_step NAME SECONDS: one row of build/steps.tsv.
record_step() { printf '%s\t%s\t%s\n' "$1" "$2" "$(date -u +%FT%TZ)" >> "$steps_file"; }

# matrix_slot: hold one of MATRIX_SLOTS (default 2) guest slots until the
# caller exits; waits while all are taken. Two matrices side by side share
# the cores, so a caller on a shared machine stretches scenario limits.
matrix_slot() {
	local _slot _fd
	while :; do
		for ((_slot = 0; _slot < ${MATRIX_SLOTS:-2}; _slot++)); do
			exec {_fd}>"$build_dir/.matrix.lock${_slot#0}"
			flock -n "$_fd" && return 0
			exec {_fd}>&-
		done
		sleep 5
	done
}

# matrix_all_slots: hold every slot (the bench needs the cores to itself).
matrix_all_slots() {
	local _slot _fd
	for ((_slot = 0; _slot < ${MATRIX_SLOTS:-2}; _slot++)); do
		exec {_fd}>"$build_dir/.matrix.lock${_slot#0}"
		flock "$_fd"
	done
}

# with_lock NAME CMD...: serialise steps that share a build folder.
with_lock() {
	local _lock_fd
	exec {_lock_fd}>"$build_dir/.$1.lock"
	shift
	flock "$_lock_fd"
	"$@"
}

# Hash of the given files and directories' contents, names included.
hash_inputs() {
	local p
	for p in "$@"; do
		if [ -d "$p" ]; then
			(cd "$p" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0r sha256sum)
		elif [ -e "$p" ]; then
			sha256sum "$p"
		else
			echo "missing $p"
		fi
	done | sha256sum | cut -c1-16
}

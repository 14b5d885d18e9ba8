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
# What a scenario is, which a filter selects, how TAP reads: shared with
# the guest's runner.
# shellcheck source=guest-rootfs/overlay/usr/local/lib/guest/scenario.sh
source "$repo_root/guest-rootfs/overlay/usr/local/lib/guest/scenario.sh"

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

# The table is read here only, by its columns' names: its header line,
# a comment of names alone with no space after the "#" ("#name image
# from ..."), names them, in any order; the last one takes the rest of
# the row.
kernel_rows() { grep -vE '^[[:space:]]*(#|$)' "$kernels_table"; }
kernel_columns() {
	sed -n 's/^#\([a-z][a-z_]*\([[:space:]][[:space:]]*[a-z][a-z_]*\)*\)[[:space:]]*$/\1/p' "$kernels_table" | head -n 1
}

# kernel_column NAME: the position of the column NAME (from 0).
kernel_column() {
	local _cols _i
	read -r -a _cols <<<"$(kernel_columns)"
	for _i in "${!_cols[@]}"; do [ "${_cols[_i]}" != "$1" ] || { echo "$_i"; return 0; }; done
	die "$kernels_table: no column $1 in its header line (#name ...)"
}

# What kernel_row sets, one variable a column of the header line.
# shellcheck disable=SC2034 # the row's fields are for the caller
k_name='' k_image='' k_from='' k_role='' k_scale='' k_limit='' k_default='' k_debug='' k_runs='' k_args=''

# kernel_row NAME: set k_COLUMN for each column of NAME's row (k_image,
# k_from, k_role, k_scale, k_limit, k_default, k_debug, k_runs, k_args;
# "-" in args is empty); fails when the table has no such row, dies when
# the row is malformed.
kernel_row() {
	local _cols _f _i _last _at
	read -r -a _cols <<<"$(kernel_columns)"
	_last=$((${#_cols[@]} - 1))
	_at=$(kernel_column name)
	while read -r -a _f; do
		[ "${_f[_at]}" = "$1" ] || continue
		for _i in "${!_cols[@]}"; do
			if [ "$_i" -eq "$_last" ]; then printf -v "k_${_cols[_i]}" '%s' "${_f[*]:_i}"
			else printf -v "k_${_cols[_i]}" '%s' "${_f[_i]:-}"; fi
		done
		[ "$k_args" != - ] || k_args=
		[[ $k_runs =~ ^!?[A-Za-z0-9][A-Za-z0-9_-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)?(,!?[A-Za-z0-9][A-Za-z0-9_-]*(/[A-Za-z0-9][A-Za-z0-9_.-]*)?)*$ ]] ||
			die "$kernels_table: $1: runs '$k_runs' (all, or groups and GROUP/NAME joined by commas, each but all with a leading ! to take it out)"
		case $k_role in under-test | oracle | control) ;;
		*) die "$kernels_table: $1: role '$k_role' (under-test, oracle or control)" ;; esac
		[[ $k_scale =~ ^[1-9][0-9]*$ && $k_limit =~ ^[1-9][0-9]*$ ]] ||
			die "$kernels_table: $1: scale and limit are whole numbers"
		[[ " ${kernel_reserved[*]} " != *" $1 "* ]] ||
			die "$kernels_table: $1: a kernel may not be named as a results folder (${kernel_reserved[*]})"
		return 0
	done < <(kernel_rows)
	return 1
}

# kernel_field NAME COLUMN: one field of NAME's row.
kernel_field() {
	local _var=k_$2
	kernel_row "$1" || die "no kernel $1 in scripts/kernels.tsv"
	echo "${!_var}"
}

# kernel_names [COLUMN=PATTERN]...: the names of the rows, in table
# order, whose every COLUMN matches its shell PATTERN.
kernel_names() {
	local _at _f _name _cond _var _names=()
	_at=$(kernel_column name)
	while read -r -a _f; do _names+=("${_f[_at]}"); done < <(kernel_rows)
	for _name in "${_names[@]}"; do
		kernel_row "$_name"
		for _cond in "$@"; do
			_var=k_${_cond%%=*}
			# shellcheck disable=SC2053 # the value is a pattern
			[[ ${!_var} == ${_cond#*=} ]] || continue 2
		done
		echo "$_name"
	done
}

# matrix_kernels [NAME...]: the kernels to run, one a line: the names
# given, or the table's defaults; with KERNEL_DEBUG set, each row's debug
# kernel in its place. Dies on a name the table lacks.
matrix_kernels() {
	local _names=("$@") _name
	[ $# -gt 0 ] || mapfile -t _names < <(kernel_names default=yes)
	[ ${#_names[@]} -gt 0 ] || die "no kernels: KERNELS is empty and scripts/kernels.tsv has no default row"
	for _name in "${_names[@]}"; do
		kernel_row "$_name" ||
			die "no kernel $_name in scripts/kernels.tsv; it has: $(kernel_names | paste -sd ' ')"
		if [ -n "${KERNEL_DEBUG:-}" ] && [ "$k_debug" != - ]; then
			_name=$k_debug
			kernel_row "$_name" || die "scripts/kernels.tsv: the debug kernel $_name has no row"
		fi
		echo "$_name"
	done
}

# runs_narrow RUNS [WORD...]: the filter a guest of that row runs, as
# words joined by commas: the words given (make check's SCENARIOS=, all
# when none) within the row's runs column, with the row's "!" words.
# Fails when they share no scenario.
runs_narrow() {
	local _runs=$1 _want _word _out=() _not=()
	shift
	for _word in ${_runs//,/ }; do [[ $_word != !* ]] || _not+=("$_word"); done
	_runs=$(for _word in ${_runs//,/ }; do [[ $_word == !* ]] || echo "$_word"; done | paste -sd ,)
	if [ "${_runs:-all}" = all ]; then
		_out=("$@")
	else
		[ $# -gt 0 ] || set -- ""
		for _want in "$@"; do
			_want=${_want%/}
			for _word in ${_runs//,/ }; do
				# The narrower of two words of which one selects the other.
				if scenario_selects "$_want" "$_word"; then _out+=("$_word")
				elif scenario_selects "$_word" "$_want"; then _out+=("$_want"); fi
			done
		done
		[ ${#_out[@]} -gt 0 ] || return 1
	fi
	printf '%s\n' "${_out[@]}" "${_not[@]}" | awk 'NF && !seen[$0]++' | paste -sd ,
}

# kernels_with ROLE: the default kernels of that role, in table order
# (the demo's and the bench's choices).
kernels_with() { kernel_names role="$1" default=yes; }

# Build outputs that rootfs-pack.sh puts in the guest's /opt/scenarios
# beside the groups: a scenario group may not take one of these names
# (scenario-filter.sh refuses it).
# shellcheck disable=SC2034
scenario_build_dirs=(bin bpf selftests)
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

# apt_update: apt-get update, one at a time: the build steps run side by
# side (Makefile), and a second apt-get update fails on the lists' lock
# instead of waiting for it.
apt_update() { mkdir -p "$build_dir" && flock "$build_dir/.apt.lock" apt-get update -q; }

# with_lock NAME CMD...: serialise steps that share a build folder.
with_lock() {
	local _lock_fd
	exec {_lock_fd}>"$build_dir/.$1.lock"
	shift
	flock "$_lock_fd"
	"$@"
}

# Reuse: a step whose inputs are unchanged since it last succeeded does
# not run again. Its key, a hash of what it reads, is kept in
# build/reuse/NAME (NAME may hold "/"; REUSE_DIR: elsewhere), written
# only when it succeeds and removed before it runs again.
reuse_dir=${REUSE_DIR:-$build_dir/reuse}
reuse_matches() { [ -n "$2" ] && [ "$(cat "$reuse_dir/$1" 2>/dev/null)" = "$2" ]; }
reuse_record() { mkdir -p "$(dirname "$reuse_dir/$1")" && echo "$2" > "$reuse_dir/$1"; }
reuse_forget() { rm -f "$reuse_dir/$1"; }

# reuse_or_run [--rerun] [--needs PATH]... NAME KEY CMD...: run CMD unless
# NAME's last success had KEY and every PATH it made is there; --rerun
# runs it anyway (GUEST_RERUN=1, UNIT_RERUN=1). CMD's status is returned.
reuse_or_run() {
	local _rerun='' _needs=() _name _key _p _rc=0
	while :; do
		case $1 in
		--rerun) _rerun=1; shift ;;
		--needs) _needs+=("$2"); shift 2 ;;
		*) break ;;
		esac
	done
	_name=$1 _key=$2
	shift 2
	if [ -z "$_rerun" ] && reuse_matches "$_name" "$_key"; then
		for _p in "${_needs[@]}"; do [ -e "$_p" ] || break; done
		if [ ${#_needs[@]} -eq 0 ] || [ -e "$_p" ]; then
			say "$_name: inputs unchanged since its success of $(date -r "$reuse_dir/$_name" '+%F %T'): it stands"
			return 0
		fi
	fi
	reuse_forget "$_name"
	"$@" || _rc=$?
	[ "$_rc" -ne 0 ] || reuse_record "$_name" "$_key"
	return "$_rc"
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

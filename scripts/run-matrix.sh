#!/usr/bin/env bash
# Boot every kernel of the matrix, run the scenarios, and judge the results
# by each kernel's role (scripts/kernels.tsv):
#   under-test (patched, patched-fred: the same image with fred=on):
#            every scenario passes, and agrees with the oracle;
#   oracle (reference): every scenario passes;
#   control (stock): features it lacks are reported unsupported with a
#            reason, everything else passes;
#   no hang, no crash anywhere.
# Ends with "N skipped (...)" and then "N passed, N failed" (host unit
# tests included).
# Usage: run-matrix.sh [SCENARIO...]   (KERNELS="patched reference", KERNEL_DEBUG=1; default: the table's)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

"$repo_root/scripts/scenario-filter.sh" "$@"
# shellcheck disable=SC2086 # KERNELS: names split at spaces
list=$(matrix_kernels ${KERNELS:-})
mapfile -t kernels <<<"$list"
declare -A role
for k in "${kernels[@]}"; do kernel_row "$k"; role[$k]=$k_role; done
results=$results_dir
passed=0 failed=0 skipped=0
failures=()
fail() { failed=$((failed + 1)); failures+=("$1"); }

# At most MATRIX_SLOTS matrices at a time, whatever their results folder:
# guests share the CPUs. With more than one slot, scenario time limits are
# doubled, since a second matrix may take half of the cores.
mkdir -p "$results"
matrix_slot
[ "${MATRIX_SLOTS:-2}" -le 1 ] || export GUEST_TIMEOUT_SCALE=${GUEST_TIMEOUT_SCALE:-2}
# Guests run side by side: a TCG guest running one scenario at a time
# keeps about one host core busy.
jobs=${MATRIX_JOBS:-$(nproc)}
running=0
for k in "${kernels[@]}"; do
	if [ "$running" -ge "$jobs" ]; then
		wait -n || true
		running=$((running - 1))
	fi
	"$repo_root/scripts/boot-guest.sh" "$k" check "$@" &
	running=$((running + 1))
done
wait || true

# Top-level TAP lines -> "id status reason" per kernel.
parse() {
	local tap=$1/tap
	[ -f "$tap" ] || return 0
	sed -nE 's/^(not )?ok [0-9]+ - ([^ ]+)( # (.*))?$/\1|\2|\4/p' "$tap" |
		while IFS='|' read -r not id note; do
			if [ -n "$not" ]; then echo "$id fail $note"
			elif [[ $note == SKIP* ]]; then echo "$id skip ${note#SKIP }"
			else echo "$id pass"; fi
		done
}

declare -A status reason missing
ids=()
problems=()
for k in "${kernels[@]}"; do
	if [ -f "$results/$k/problem" ]; then
		failed=$((failed + 1))
		problems+=("$k")
	fi
	while read -r id st note; do
		[[ " ${ids[*]} " == *" $id "* ]] || ids+=("$id")
		status[$k,$id]=$st
		reason[$k,$id]=$note
	done < <(parse "$results/$k")
done

echo
# Columns as wide as the longest kernel name (patched-debug-fred).
width=10
for k in "${kernels[@]}"; do [ ${#k} -le "$width" ] || width=${#k}; done
printf '%-34s' scenario; printf " %-${width}s" "${kernels[@]}"; echo
for id in "${ids[@]}"; do
	printf '%-34s' "$id"
	for k in "${kernels[@]}"; do
		st=${status[$k,$id]:-missing}
		printf " %-${width}s" "$st"
		case ${role[$k]},$st in
		control,pass) passed=$((passed + 1)) ;;
		control,skip)
			if [[ ${reason[$k,$id]} == unsupported:* ]]; then skipped=$((skipped + 1))
			else fail "$k $id: skipped without an 'unsupported:' reason"; fi ;;
		*,pass) passed=$((passed + 1)) ;;
		*,skip) fail "$k $id: skipped (${reason[$k,$id]}) but this kernel must have the feature" ;;
		*,missing)
			# Counted one by one, told once: a guest that stopped early
			# leaves every later scenario without a result.
			failed=$((failed + 1))
			missing[$k]=$(( ${missing[$k]:-0} + 1 )) ;;
		*) fail "$k $id: $st ${reason[$k,$id]:-}" ;;
		esac
	done
	echo
done
# Every kernel under test (debug build, fred=on) must agree with the oracle.
for ours in "${kernels[@]}"; do
	[ "${role[$ours]}" = under-test ] || continue
	for oracle in "${kernels[@]}"; do
		[ "${role[$oracle]}" = oracle ] || continue
		for id in "${ids[@]}"; do
			a=${status[$ours,$id]:-missing} b=${status[$oracle,$id]:-missing}
			# A missing result has failed above already.
			[ "$a" = missing ] || [ "$b" = missing ] || [ "$a" = "$b" ] || fail "disagreement on $id: $ours=$a $oracle=$b"
		done
	done
done
# Host unit tests, run earlier by `make unit-tests`.
if [ -f "$results/unit/summary" ]; then
	read -r up uf < "$results/unit/summary"
	passed=$((passed + up))
	[ "$uf" -eq 0 ] || fail "host unit tests: $uf failed"
	failed=$((failed + (uf > 0 ? uf - 1 : 0)))
fi

# The quick bench, run by `make check` just before (scripts/bench.sh --check).
if [ -f "$build_dir/results/bench/summary" ]; then
	read -r bp bf < "$build_dir/results/bench/summary"
	passed=$((passed + bp))
	[ "$bf" -eq 0 ] || fail "quick bench: did not run, or its numbers are malformed (build/results/bench)"
fi

for k in "${kernels[@]}"; do
	[ -z "${missing[$k]:-}" ] || failures+=("$k: ${missing[$k]} scenarios have no result")
done
if [ ${#failures[@]} -gt 0 ]; then
	echo
	echo "Failures:"
	printf '  %s\n' "${failures[@]}"
fi
# Last, where a CI log's tail shows it: why a guest ended badly.
if [ ${#problems[@]} -gt 0 ]; then
	echo
	echo "Guests that ended badly:"
	for k in "${problems[@]}"; do
		echo "  $k: $(head -n 12 "$results/$k/problem" | sed '2,$s/^/    /')"
		last=$(grep -E '^(not )?ok [0-9]+ - ' "$results/$k/tap" 2>/dev/null | tail -n 1 || true)
		echo "    last result: ${last:-none}"
	done
fi
echo
echo "$skipped skipped (features a control kernel reports unsupported)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# The one count of make check, from TAP streams: each kernel's results
# (build/results/KERNEL/tap, judged by its role in scripts/kernels.tsv)
# and the streams named on the command line (the host unit tests, the
# quick bench). Prints the matrix, this check's step times
# (build/steps.tsv), what failed, why a guest ended badly, and last the
# line CI reads: "N passed, N failed". Exits 1 on any failure.
#   under-test (patched, patched-fred: the same image with fred=on):
#            every scenario of its row's runs column passes, and agrees
#            with the oracle ("-" in the matrix: not in its runs);
#   oracle (reference): every scenario passes;
#   control (stock): features it lacks are reported unsupported with a
#            reason, everything else passes;
#   no hang, no crash anywhere.
# A stream named but missing counts as a failure: its step did not run.
# Usage: tally.sh [STREAM.tap...]   (KERNELS=, KERNEL_DEBUG= as run-matrix.sh)
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

# shellcheck disable=SC2086 # KERNELS: names split at spaces
list=$(matrix_kernels ${KERNELS:-})
mapfile -t kernels <<<"$list"
declare -A role runs
for k in "${kernels[@]}"; do kernel_row "$k"; role[$k]=$k_role; runs[$k]=$k_runs; done
results=$results_dir
passed=0 failed=0 skipped=0
failures=() failed_points=()
fail() { failed=$((failed + 1)); failures+=("$1"); }

# A kernel's results: "id status note" per scenario.
parse() {
	local tap=$1/tap
	[ -f "$tap" ] || return 0
	tap_points "$tap" | while IFS=$'\t' read -r st id note; do echo "$id $st $note"; done
}

declare -A status reason missing
ids=()
problems=()
for k in "${kernels[@]}"; do
	if [ -f "$results/$k/problem" ]; then
		failed=$((failed + 1))
		problems+=("$k")
	elif [ ! -f "$results/$k/tap" ]; then
		fail "$k: no results (its guest did not run: the output of run-matrix.sh above says why)"
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
		# Not in the row's runs column: nothing was owed.
		if [ "$st" = missing ] && ! scenario_selects "${runs[$k]}" "$id"; then
			printf " %-${width}s" -
			continue
		fi
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
		*) fail "$k $id: $st ${reason[$k,$id]:-}"
			failed_points+=("$k $id") ;;
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
# The other steps' streams: each top-level test point counts once.
for stream in "$@"; do
	name=${stream#"$build_dir"/}
	if [ ! -f "$stream" ]; then
		fail "$name: missing (its step did not run)"
		continue
	fi
	while IFS=$'\t' read -r st text note; do
		if [ "$st" = fail ]; then fail "$name: not ok - $text${note:+ # $note}"; else passed=$((passed + 1)); fi
	done < <(tap_points "$stream")
done

# This check's steps and their times, in the order they ended (each
# logged step and each guest booted; a reused guest took no time and has
# no row), each with the second of the check it started at, as the build
# steps run side by side; then the whole check's wall time: where a cold
# check goes.
if [ -s "$steps_file" ]; then
	echo
	start=$(cat "$build_dir/.check-start" 2>/dev/null || true)
	printf '%-34s %8s %8s\n' step 'from (s)' seconds
	while IFS=$'\t' read -r step seconds ended; do
		from=-
		[ -z "$start" ] || ! end=$(date -d "$ended" +%s 2>/dev/null) || from=$((end - seconds - start))
		printf '%-34s %8s %8d\n' "$step" "$from" "$seconds"
	done < "$steps_file"
	[ -z "$start" ] || printf '%-34s %8s %8d\n' "make check, wall time" "" $(($(date +%s) - start))
fi

for k in "${kernels[@]}"; do
	[ -z "${missing[$k]:-}" ] || failures+=("$k: ${missing[$k]} scenarios have no result")
done
if [ ${#failures[@]} -gt 0 ]; then
	echo
	echo "Failures:"
	printf '  %s\n' "${failures[@]}"
fi
# What a failed scenario said: its failed test points and diagnostics
# (a CI log keeps only what is printed here).
for point in "${failed_points[@]}"; do
	read -r k id <<<"$point"
	echo
	echo "$k $id said:"
	awk -v id="$id" '
		/^[ \t]/ { block[n++] = $0; next }
		/^(not )?ok / {
			name = $0
			sub(/^not ok [0-9]+ - /, "", name)
			if ($0 ~ /^not ok/ && name ~ "^" id "( |$)")
				for (i = 0; i < n && shown < 12; i++)
					if (block[i] ~ /^[ \t]+(not ok|#)/) { print "  " block[i]; shown++ }
			n = 0
		}' "$results/$k/tap"
done
# Last, where a CI log's tail shows it: why a guest ended badly.
if [ ${#problems[@]} -gt 0 ]; then
	echo
	echo "Guests that ended badly:"
	for k in "${problems[@]}"; do
		echo "  $k: $(head -n 12 "$results/$k/problem" | sed '2,$s/^/    /')"
		last=$(tap_points "$results/$k/tap" 2>/dev/null | tail -n 1 | tr '\t' ' ' || true)
		echo "    last result: ${last:-none}"
	done
fi
echo
echo "$skipped skipped (features a control kernel reports unsupported)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

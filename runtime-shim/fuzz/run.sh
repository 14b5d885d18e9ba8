#!/usr/bin/env bash
# fuzz/run.sh OUT NAME SECONDS [N]: run the fuzz target OUT/fuzz_NAME for
# SECONDS on a copy of its seed corpus (fuzz/corpus/NAME) and say in one
# line how many inputs it ran, or what it found.
#
#   without N  make fuzz: the copy is OUT/corpus-work/NAME, kept from run
#              to run so that each starts where the last stopped; prints
#              "fuzz NAME: R runs in S s"
#   with N     make fuzz-smoke: a fresh copy (OUT/smoke-work/NAME), and a
#              TAP line "ok N - fuzz NAME: R runs" or "not ok N - ..."
#
# The log is OUT/NAME.log (OUT/NAME.smoke.log); an input that crashed,
# leaked, hit undefined behaviour or timed out is saved as
# OUT/artifacts/NAME-crash-..., -leak-..., -timeout-..., and the status is
# 1.  Nothing in fuzz/corpus is written.
set -euo pipefail

out=${1:?OUT} name=${2:?NAME} seconds=${3:?SECONDS} tap=${4:-}
seeds=$(dirname "$0")/corpus/$name
fuzzer=$out/fuzz_$name

if [ -n "$tap" ]; then
	work=$out/smoke-work/$name log=$out/$name.smoke.log
	rm -rf "$work"
else
	work=$out/corpus-work/$name log=$out/$name.log
fi
mkdir -p "$work" "$out/artifacts"
cp "$seeds"/* "$work/"

# No leak check is skipped and no UB report goes on: both are failures.
# A slow input (10 s) is one too, as a parser's hang would be.
rc=0
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
	"$fuzzer" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
	-artifact_prefix="$out/artifacts/$name-" "$work" > "$log" 2>&1 || rc=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
if [ "$rc" -eq 0 ] && [ -n "$runs" ]; then
	if [ -n "$tap" ]; then
		echo "ok $tap - fuzz $name: $runs runs"
	else
		echo "fuzz $name: $runs runs in $seconds s ($(find "$work" -type f | wc -l) inputs in $work)"
	fi
	exit 0
fi

# What was found: the sanitizer's summary and the saved input.
what=$(grep -m 1 '^SUMMARY: ' "$log" | sed 's/^SUMMARY: //; s/ (BuildId: [0-9a-f]*)//g; s/ *$//') || true
artifact=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
msg="fuzz $name: ${what:-exit $rc} after ${runs:-?} runs${artifact:+, input $artifact}, log $log"
if [ -n "$tap" ]; then
	echo "not ok $tap - $msg"
else
	echo "$msg"
fi
# The report's first lines name the bug and where it is.
grep -m 1 -A 12 -E '^==[0-9]+==ERROR|runtime error:|fuzz_assert|ERROR: libFuzzer' "$log" |
	sed 's/ (BuildId: [0-9a-f]*)//g; s/^/#   /' || true
exit 1

#!/bin/sh
# run.sh OUT FUZZDIR NAME... — runs each libFuzzer harness OUT/fuzz_NAME for
# $FUZZ_SECONDS seconds (tests/fuzz/fuzz.mk) on its seed corpus
# FUZZDIR/corpus/NAME plus what earlier runs found (OUT/corpus/NAME),
# prints one line per harness (executions, speed, coverage, crashes) and
# fails when any harness crashed; crashes are in OUT/crashes/NAME/.
out=$1 dir=$2
shift 2
seconds=${FUZZ_SECONDS:-60}
status=0
for name in "$@"; do
	mkdir -p "$out/corpus/$name" "$out/crashes/$name"
	log=$out/fuzz_$name.log
	"$out/fuzz_$name" -max_total_time="$seconds" -print_final_stats=1 \
		-timeout=30 -rss_limit_mb=2048 \
		-artifact_prefix="$out/crashes/$name/" \
		"$out/corpus/$name" "$dir/corpus/$name" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
	speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
	cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.* cov: \([0-9]*\) ft: \([0-9]*\).*/\1 edges, \2 features/p')
	found=$(ls "$out/crashes/$name" | wc -l)
	printf 'fuzz %-12s %ss: %s execs, %s/s, %s, corpus %s, %s crash files\n' "$name" "$seconds" \
		"${execs:-?}" "${speed:-?}" "${cov:-?}" "$(ls "$out/corpus/$name" | wc -l)" "$found"
	if [ "$rc" -ne 0 ]; then
		echo "fuzz $name: FAILED (exit $rc); the report:" >&2
		grep -E '^==[0-9]+==ERROR|runtime error|^    #[0-9] |^SUMMARY|^Test unit written' "$log" |
			head -n 16 >&2
		status=1
	fi
done
exit $status

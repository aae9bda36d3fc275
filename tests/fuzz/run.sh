#!/bin/sh
# run.sh OUT FUZZDIR NAME... — runs each libFuzzer harness OUT/fuzz_NAME for
# $FUZZ_SECONDS seconds (tests/fuzz/fuzz.mk) on its seed corpus
# FUZZDIR/corpus/NAME plus what earlier runs found (OUT/corpus/NAME),
# $FUZZ_JOBS of them at a time (default: the number of CPUs; each harness
# is one process on one CPU), prints one line per harness (executions,
# speed, coverage, crashes) in the order named and fails when any harness
# crashed; crashes are in OUT/crashes/NAME/.
out=$1 dir=$2
shift 2
seconds=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in '' | *[!0-9]* | 0) jobs=1 ;; esac
status=0

# start NAME: the harness in the background, its exit status in its .rc
start() {
	mkdir -p "$out/corpus/$1" "$out/crashes/$1"
	rm -f "$out/fuzz_$1.rc"
	( "$out/fuzz_$1" -max_total_time="$seconds" -print_final_stats=1 \
		-timeout=30 -rss_limit_mb=2048 \
		-artifact_prefix="$out/crashes/$1/" \
		"$out/corpus/$1" "$dir/corpus/$1" >"$out/fuzz_$1.log" 2>&1
	  echo $? >"$out/fuzz_$1.rc" ) &
}

# report NAME: its line, and its report when it failed
report() {
	name=$1 log=$out/fuzz_$1.log
	rc=$(cat "$out/fuzz_$name.rc" 2>/dev/null || echo 1)
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
}

# An interrupted run stops its harnesses too.
trap 'kill $(jobs -p) 2>/dev/null; exit 130' INT TERM

# In groups of $jobs: they all run $seconds, so a group ends together.
while [ $# -gt 0 ]; do
	group=
	while [ $# -gt 0 ] && [ "$(echo $group | wc -w)" -lt "$jobs" ]; do
		start "$1"
		group="$group $1"
		shift
	done
	wait
	for name in $group; do
		report "$name"
	done
done
exit $status

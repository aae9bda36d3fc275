#!/bin/sh
# sweep.sh — exhaustive sweeps: every f16 input of a one-input op, then a
# timed f32 sweep of 2^LOG2 encodings (default 2^28, a sixteenth of all, in
# four slices) scaled up to the full 2^32, with the peak memory (GNU time's
# %M), for
#   ulpbench --op sqrt --dtype f32 --exhaustive --mode fma,nofma,rn
# (the shipped sqrt op; all threads).
# Usage (from the build directory): sh SRCDIR/bench/sweep.sh [LOG2]
set -eu
lg=${1:-28}
ub=${UB:-./ulpbench}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
sq="$ub --op sqrt --mode fma,nofma,rn -q" # the shipped sqrt: IEEE sqrt.rn, generated kernel
$sq -n 1000 >/dev/null # fill the compile cache
timed() { # prints "SECONDS PEAK_KB"
	if command -v /usr/bin/time >/dev/null 2>&1; then
		/usr/bin/time -f '%e %M' -o "$dir/t" "$@" >/dev/null
		cat "$dir/t"
	else
		s=$(date +%s.%N); "$@" >/dev/null; e=$(date +%s.%N)
		awk -v s="$s" -v e="$e" 'BEGIN { print e - s, "?" }'
	fi
}
set -- $(timed $sq --dtype f16 --exhaustive)
echo "f16 exhaustive (65,536 inputs, 3 modes + torch): $1 s, peak $2 KB"
# four slices of 2^(LOG2-2) encodings, one in each quarter of the
# encodings (small and large positive, small and large negative: the
# negative ones make NaN, which the fast reference leaves to MPFR), so
# that the projection sees every kind of input
t=0 m=0
for q in 0 1 2 3; do
	lo=$(( q << 30 ))
	set -- $(timed $sq --dtype f32 --exhaustive \
		--range $(printf '0x%08x:0x%08x' $lo $(( lo + (1 << (lg - 2)) - 1 ))))
	t=$(awk -v a="$t" -v b="$1" 'BEGIN { print a + b }')
	m=$(awk -v a="$m" -v b="$2" 'BEGIN { print (b > a ? b : a) }')
done
awk -v t="$t" -v m="$m" -v lg="$lg" 'BEGIN {
	printf "f32 sweep of 2^%d encodings (4 slices): %.1f s, peak %s KB\n", lg, t, m
	full = t * 2 ^ (32 - lg)
	printf "projected full f32 sweep (2^32): %.0f s = %.1f min\n", full, full / 60
}'

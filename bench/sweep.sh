#!/bin/sh
# sweep.sh — exhaustive sweeps: every f16 input of sqrt, then for each op a
# timed f32 sweep of 2^LOG2 encodings (default 2^26, a 64th of all) in 64
# slices spread evenly over the encodings (slice k starts at k 2^26: every
# binade of both signs, subnormals, infinities and NaNs in proportion), scaled
# up to the full 2^32, with the peak memory (GNU time's %M), for
#   ulpbench --op OP --dtype f32 --exhaustive --mode fma,nofma,rn
# (all threads).  OPS (default: sqrt exp tanh erf) names the ops.  Each
# slice is one run: the fixed cost of a run (start, compile cache, threads),
# measured as a run of one encoding, is taken off each slice before scaling
# and counted once.
# Usage (from the build directory): sh SRCDIR/bench/sweep.sh [LOG2]
set -eu
lg=${1:-26}
ub=${UB:-./ulpbench}
ops=${OPS:-sqrt exp tanh erf}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
timed() { # prints "SECONDS PEAK_KB CPU_SECONDS" (CPU: user + system of
	# every thread; on a shared machine the wall clock also counts others)
	/usr/bin/time -f '%e %M %U %S' -o "$dir/t" "$@" >/dev/null
	awk '{ print $1, $2, $3 + $4 }' "$dir/t"
}
sq="$ub --op sqrt --mode fma,nofma,rn -q"
$sq -n 1000 >/dev/null # fill the compile caches
set -- $(timed $sq --dtype f16 --exhaustive)
echo "f16 sqrt exhaustive (65,536 inputs, 3 modes + torch): $1 s, peak $2 KB"
len=$(( 1 << (lg - 6) ))
for op in $ops; do
	cmd="$ub --op $op --mode fma,nofma,rn -q --dtype f32 --exhaustive"
	$ub --op "$op" --mode fma,nofma,rn -q -n 1000 >/dev/null
	set -- $(timed $cmd --range 0x3f800000:0x3f800000)
	o=$1 oc=$3
	t=0 m=0 u=0
	for k in $(seq 0 63); do
		lo=$(( k << 26 ))
		set -- $(timed $cmd --range $(printf '0x%08x:0x%08x' $lo $(( lo + len - 1 ))))
		t=$(awk -v a="$t" -v b="$1" 'BEGIN { print a + b }')
		m=$(awk -v a="$m" -v b="$2" 'BEGIN { print (b > a ? b : a) }')
		u=$(awk -v a="$u" -v b="$3" 'BEGIN { print a + b }')
	done
	awk -v op="$op" -v t="$t" -v m="$m" -v lg="$lg" -v o="$o" -v u="$u" -v oc="$oc" 'BEGIN {
		w = t - 64 * o
		if (w < 0)
			w = 0
		full = w * 2 ^ (32 - lg) + o
		printf "%s f32: 2^%d encodings in 64 slices: %.1f s (a run costs %.2f s), peak %s KB; projected 2^32: %.0f s = %.1f min\n",
			op, lg, t, o, m, full, full / 60
		cw = u - 64 * oc
		if (cw < 0)
			cw = 0
		cf = cw * 2 ^ (32 - lg)
		printf "%s f32: CPU %.1f s over the slices; projected 2^32: %.0f CPU s = %.1f min on 2 cores\n",
			op, u, cf, cf / 120
	}'
done

#!/bin/sh
# ops.sh — per-op cost of a run over the shipped catalog in f32: N random
# inputs (default 200,000), modes fma,nofma,rn + the torch plan, one thread,
# in CPU ns per element (user + system: on a shared machine the wall clock
# also counts other programs' load), as run by default (kernels as native code, the fast
# reference), with the kernels on the interpreter (--exec interp) and with
# the reference on MPFR alone (--reference mpfr); the ratios against the
# default, all in one run.  The difference between two columns is the part
# that changed: interp - default the executor's share saved, mpfr - default
# the reference's.  Then the default run's split by stage (--times: CPU ns
# per element of the inputs, the reference, the kernels, the metrics).
# Usage (from the build directory): sh SRCDIR/bench/ops.sh [N]
set -eu
n=${1:-200000}
ub=${UB:-./ulpbench}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
secs() {
	/usr/bin/time -f '%U %S' -o "$dir/cpu" "$@" >/dev/null
	awk '{ print $1 + $2 }' "$dir/cpu"
}
printf '%-15s %10s %10s %10s %8s %8s %7s %7s %7s %7s\n' op default interp mpfr interp/d mpfr/d \
	inputs ref kernels metrics
for op in $($ub --list-ops | awk '/^[^ ]/ && $2 != "(shaped)" && $2 != "(rows)" { print $1 }'); do
	run="$ub --op $op --mode fma,nofma,rn -n $n --threads 1 -q"
	$ub --op "$op" --mode fma,nofma,rn -n 1000 -q >/dev/null # fill the caches
	d=$(secs $run --times 2>"$dir/times")
	i=$(secs $run --exec interp)
	m=$(secs $run --reference mpfr)
	# "... CPU s: inputs A reference B kernels C metrics D (all E)"
	t=$(sed -n 's/.*CPU s: inputs \([^ ]*\) reference \([^ ]*\) kernels \([^ ]*\) metrics \([^ ]*\).*/\1 \2 \3 \4/p' "$dir/times")
	awk -v op="$op" -v n="$n" -v d="$d" -v i="$i" -v m="$m" -v t="$t" 'BEGIN {
		split(t, s, " ")
		printf "%-15s %10.0f %10.0f %10.0f %7.2fx %7.2fx %7.0f %7.0f %7.0f %7.0f\n", op,
			d / n * 1e9, i / n * 1e9, m / n * 1e9, i / d, m / d,
			s[1] / n * 1e9, s[2] / n * 1e9, s[3] / n * 1e9, s[4] / n * 1e9
	}'
done

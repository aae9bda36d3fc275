#!/bin/sh
# agree.sh — bit agreement at scale, over the whole catalog:
#   (a) native code (--exec native, the default) against the interpreter
#       (--exec interp), modes fma,nofma,ftz,fastmath and the torch plan;
#   (b) the fast reference (LLVM libc where built in) against
#       --reference mpfr, mode fma and the torch plan;
# each on every output element (--dump: inputs, reference, every mode's
# and the torch plan's outputs) and every CSV figure, in f32 on the
# special values plus N random samples (default 10^6), and in f16 and bf16
# on every input of one-input ops (--exhaustive) and N samples of
# two-input ops (every pair, 2^32 of them, is too many).  Prints one line
# per op and dtype, then the totals; exits 1 when anything differs.
# tests/native.test and tests/llvmref.test check the same at test scale.
# Usage (from the build directory): sh SRCDIR/bench/agree.sh [N] [OPS...]
set -eu
n=${1:-1000000}
[ $# -gt 0 ] && shift
ub=${UB:-./ulpbench}
ops=${*:-$($ub --list-ops | awk '/^[^ ]/ && $2 != "(shaped)" && $2 != "(rows)" { print $1 }')}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
bad=0 runs=0 elems=0
# same NAME ARGS...: the default run against ARGS' run, dumps and CSV
same() {
	name=$1
	shift
	rm -rf "$dir/a" "$dir/b"
	mkdir "$dir/a" "$dir/b"
	"$ub" $common -q --dump "$dir/a" --csv "$dir/a.csv" >/dev/null
	"$ub" $common -q "$@" --dump "$dir/b" --csv "$dir/b.csv" >/dev/null
	runs=$((runs + 1))
	if diff -r "$dir/a" "$dir/b" >/dev/null && cmp -s "$dir/a.csv" "$dir/b.csv"; then
		r=same
	else
		r=DIFFERENT
		bad=$((bad + 1))
	fi
	k=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "n") c = i } NR > 1 && c { s += $c } END { print s + 0 }' "$dir/a.csv")
	elems=$((elems + k))
	printf '%-16s %-5s %-22s %10s element-rows  %s\n' "$op" "$dt" "$name" "$k" "$r"
}
for op in $ops; do
	nin=$($ub --list-ops | awk -v op="$op" '$1 == op { sub(/^[^(]*\(/, ""); sub(/\).*/, ""); print NF }')
	for dt in f32 f16 bf16; do
		if [ "$dt" = f32 ] || [ "$nin" -gt 1 ]; then
			inputs="-n $n"
		else
			inputs=--exhaustive
		fi
		common="--op $op --dtype $dt $inputs --mode fma,nofma,ftz,fastmath"
		same "native/interp" --exec interp
		common="--op $op --dtype $dt $inputs --mode fma"
		same "fast/mpfr" --reference mpfr
	done
done
echo "$runs comparisons, $elems element-rows compared, $bad differ"
[ "$bad" -eq 0 ]

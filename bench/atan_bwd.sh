#!/bin/sh
# atan_bwd.sh — throughput of ulpbench against a naive baseline, on the same
# inputs, in one go:
#   (a) ulpbench --op atan_bwd, modes fma,nofma,rn,fastmath + torch plan +
#       MPFR reference + metrics (the sim backend),
#   (b) the naive baseline: one MPFR evaluation per point plus native C for
#       each mode (bench/naive_atan_bwd.c),
#   (c) native C alone.
# Usage (from the build directory): sh SRCDIR/bench/atan_bwd.sh [N]
set -eu
n=${1:-1000000}
ub=${UB:-./ulpbench}
naive=${NAIVE:-./bench/naive_atan_bwd}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$ub" --op atan_bwd --mode nofma -n "$n" --dump "$dir/in" >/dev/null
x="$dir/in/atan_bwd.f32.input.x.npy"
g="$dir/in/atan_bwd.f32.input.g.npy"
t0=$(date +%s.%N)
"$ub" --op atan_bwd --mode fma,nofma,rn,fastmath --input x="$x" --input g="$g" >/dev/null
t1=$(date +%s.%N)
"$naive" "$x" "$g" >"$dir/naive.out"
a=$(awk -v s="$t0" -v e="$t1" 'BEGIN { print e - s }')
b=$(sed -n 's/^naive //p' "$dir/naive.out")
c=$(sed -n 's/^native //p' "$dir/naive.out")
awk -v n="$n" -v a="$a" -v b="$b" -v c="$c" 'BEGIN {
	printf "points: %d\n", n
	printf "(a) ulpbench, 4 modes + torch + reference: %8.3f s  %10.0f points/s\n", a, n / a
	printf "(b) naive MPFR + native per mode:          %8.3f s  %10.0f points/s\n", b, n / b
	printf "(c) native C alone:                        %8.4f s  %10.0f points/s\n", c, n / c
	printf "ratio (b)/(a): ulpbench is %.2fx the naive baseline\n", b / a
	printf "ratio (a)/(c): ulpbench takes %.0fx native C\n", a / c
}'

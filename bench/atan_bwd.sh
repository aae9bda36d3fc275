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
# wall-clock seconds of a command (its output discarded)
secs() {
	s=$(date +%s.%N)
	"$@" >/dev/null
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
}
run="$ub --op atan_bwd --mode fma,nofma,rn,fastmath --input x=$x --input g=$g -q"
"$ub" --op atan_bwd --mode nofma -n 1000 -q >/dev/null # fill the compile cache
a=$(secs $run)
a1=$(secs $run --threads 1)
a2=$(secs $run --threads 2)
am=$(secs $run --threads 1 --reference mpfr)
"$naive" "$x" "$g" >"$dir/naive.out"
b=$(sed -n 's/^naive //p' "$dir/naive.out")
c=$(sed -n 's/^native //p' "$dir/naive.out")
awk -v n="$n" -v a="$a" -v a1="$a1" -v a2="$a2" -v am="$am" -v b="$b" -v c="$c" 'BEGIN {
	printf "points: %d\n", n
	printf "(a) ulpbench, 4 modes + torch + reference:  %8.3f s  %10.0f points/s\n", a, n / a
	printf "    --threads 1:                             %8.3f s\n", a1
	printf "    --threads 2:                             %8.3f s\n", a2
	printf "    --threads 1 --reference mpfr:            %8.3f s\n", am
	printf "(b) naive MPFR + native per mode:           %8.3f s  %10.0f points/s\n", b, n / b
	printf "(c) native C alone:                         %8.4f s  %10.0f points/s\n", c, n / c
	printf "ratio (b)/(a): ulpbench is %.2fx the naive baseline\n", b / a
	printf "ratio (a)/(c): ulpbench takes %.0fx native C\n", a / c
	printf "ratio threads 1/2: %.2fx\n", a1 / a2
	printf "ratio reference mpfr/fast (1 thread): %.2fx\n", am / a1
}'

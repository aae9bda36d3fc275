#!/bin/sh
# atan_bwd.sh — throughput of ulpbench against a naive baseline, on the same
# inputs, in one go:
#   (a) ulpbench --op atan_bwd, modes fma,nofma,rn,fastmath + torch plan +
#       MPFR reference + metrics (the sim backend),
#   (b) the naive baseline: one MPFR evaluation per point plus native C for
#       each mode (bench/naive_atan_bwd.c), and (b') the same with its MPFR
#       variables set up once,
#   (c) native C alone;
# and (a) with the kernels on the interpreter (--exec interp), with the
# reference on MPFR alone (--reference mpfr), and with the kernel file
# launched one thread per element (--launch per-thread=1) instead of as
# its catalog entry says (:launch "per-thread=4"; the same bits).  Every figure is the best of
# BEST runs (default 3), the baseline's as ulpbench's.
# Usage (from the build directory): sh SRCDIR/bench/atan_bwd.sh [N]
set -eu
n=${1:-2000000}
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
# CPU seconds (user + system) of a command: on a shared machine the wall
# clock also counts other programs' load; for one thread it is the cost
cpu() {
	/usr/bin/time -f '%U %S' -o "$dir/cpu" "$@" >/dev/null
	awk '{ print $1 + $2 }' "$dir/cpu"
}
# best KIND COMMAND...: the least of BEST (default 3) measurements (secs
# or cpu), the same for ulpbench and the baseline: on a shared machine a
# single run also measures whatever else ran then
best() {
	k=$1
	shift
	for i in $(seq "${BEST:-3}"); do "$k" "$@"; done | sort -g | head -n 1
}
run="$ub --op atan_bwd --mode fma,nofma,rn,fastmath --input x=$x --input g=$g -q"
"$ub" --op atan_bwd --mode fma,nofma,rn,fastmath -n 1000 -q >/dev/null # fill the compile caches (PTX, native code)
a=$(best secs $run)
a1=$(best secs $run --threads 1)
a2=$(best secs $run --threads 2)
ap=$(best secs $run --launch per-thread=1)
am=$(best secs $run --threads 1 --reference mpfr)
ai=$(best secs $run --threads 1 --exec interp)
ca1=$(best cpu $run --threads 1)
cam=$(best cpu $run --threads 1 --reference mpfr)
cai=$(best cpu $run --threads 1 --exec interp)
for i in $(seq "${BEST:-3}"); do "$naive" "$x" "$g"; done >"$dir/naive.out"
least() { sed -n "s/^$1 //p" "$dir/naive.out" | sort -g | head -n 1; }
b=$(least naive)
bo=$(least naive_once)
c=$(least native)
cb=$(least naive_cpu)
cbo=$(least naive_once_cpu)
awk -v n="$n" -v a="$a" -v ap="$ap" -v a1="$a1" -v a2="$a2" -v am="$am" -v ai="$ai" -v b="$b" -v bo="$bo" -v c="$c" \
	-v ca1="$ca1" -v cam="$cam" -v cai="$cai" -v cb="$cb" -v cbo="$cbo" 'BEGIN {
	printf "points: %d\n", n
	printf "(a) ulpbench, 4 modes + torch + reference:  %8.3f s  %10.0f points/s\n", a, n / a
	printf "    --threads 1:                             %8.3f s\n", a1
	printf "    --threads 2:                             %8.3f s\n", a2
	printf "    --launch per-thread=1:                   %8.3f s\n", ap
	printf "    --threads 1 --reference mpfr:            %8.3f s\n", am
	printf "    --threads 1 --exec interp:               %8.3f s\n", ai
	printf "(b) naive MPFR + native per mode:           %8.3f s  %10.0f points/s\n", b, n / b
	printf "(b\047) the same, MPFR variables set up once: %8.3f s  %10.0f points/s\n", bo, n / bo
	printf "(c) native C alone:                         %8.4f s  %10.0f points/s\n", c, n / c
	printf "ratio (b)/(a): ulpbench is %.2fx the naive baseline\n", b / a
	printf "ratio (b\047)/(a): ulpbench is %.2fx the baseline with MPFR set up once\n", bo / a
	printf "ratio (b)/(a), --launch per-thread=1: %.2fx\n", b / ap
	printf "ratio (b)/(a), 1 thread each: %.2fx\n", b / a1
	printf "ratio (a)/(c): ulpbench takes %.0fx native C\n", a / c
	printf "ratio threads 1/2: %.2fx\n", a1 / a2
	printf "ratio reference mpfr/fast (1 thread): %.2fx\n", am / a1
	printf "ratio exec interp/native (1 thread): %.2fx\n", ai / a1
	printf "CPU seconds, one thread: ulpbench %.3f (--reference mpfr %.3f, --exec interp %.3f), naive %.3f, naive set up once %.3f\n", ca1, cam, cai, cb, cbo
	printf "CPU ratios: naive/ulpbench %.2fx, naive set up once/ulpbench %.2fx, mpfr/fast %.2fx, interp/native %.2fx\n", cb / ca1, cbo / ca1, cam / ca1, cai / ca1
}'

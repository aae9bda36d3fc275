#!/bin/sh
# cold.sh — a first run on an empty compile cache: the NVRTC compiles and
# the native code of every mode and torch step built, then the run.  The
# same command with --threads 1 (each object built after the other) and
# with the default threads (built side by side, native.h
# ub_native_use_all), each on a cache of its own, in one go.  Every figure
# is the best of BEST runs (default 3).
# Usage (from the build directory): sh SRCDIR/bench/cold.sh [ULPBENCH-ARGS...]
# (default: --op atan_bwd -n 100000, its default modes)
set -eu
ub=${UB:-./ulpbench}
[ $# -gt 0 ] || set -- --op atan_bwd -n 100000
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# cold [--threads 1] ARGS...: wall-clock seconds of a run on a fresh cache
# (the run itself is a few hundredths of a second: the builds are the time)
cold() {
	rm -rf "$dir/cache"
	s=$(date +%s.%N)
	XDG_CACHE_HOME=$dir/cache "$ub" "$@" -q >/dev/null
	e=$(date +%s.%N)
	awk -v s="$s" -v e="$e" 'BEGIN { print e - s }'
}
best() {
	for i in $(seq "${BEST:-3}"); do cold "$@"; done | sort -g | head -n 1
}
t1=$(best "$@" --threads 1)
tn=$(best "$@")
objs=$(ls "$dir/cache/ulpbench" | grep -c '\.so$' || true)
warm=$( (s=$(date +%s.%N); XDG_CACHE_HOME=$dir/cache "$ub" "$@" -q >/dev/null
	 e=$(date +%s.%N); awk -v s="$s" -v e="$e" 'BEGIN { print e - s }') )
awk -v t1="$t1" -v tn="$tn" -v w="$warm" -v o="$objs" -v cpus="$(nproc)" -v args="$*" 'BEGIN {
	printf "ulpbench %s, empty compile cache, %d native objects built\n", args, o
	printf "  --threads 1 (one object after the other): %6.2f s\n", t1
	printf "  default threads (%d CPUs, side by side):  %6.2f s\n", cpus, tn
	printf "  the same run, cache warm:                 %6.2f s\n", w
	printf "ratio: side by side %.2fx one after the other\n", t1 / tn
}'

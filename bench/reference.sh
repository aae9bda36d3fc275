#!/bin/sh
# reference.sh — the reference's cost per element and undecided share
# (docs/reference.md), this tree against an older one in the same run:
# bench/refcost.c built against each tree's libub.a, run on a
# clustering-style core (ratios of powers of sigmoids, inputs over the f32
# encodings) and a loop core (20,000 steps, inputs in [-1, 1]).
# Usage (from the build directory, after make):
#   OLD=DIR sh SRCDIR/bench/reference.sh [N_CLUSTER] [N_LOOP]
# DIR: an older ulpbench tree, configured and built in place (libub.a),
# e.g. git worktree add DIR COMMIT && (cd DIR && autoreconf -fi &&
# ./configure && make libub.a).
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
nc=${1:-300}
nl=${2:-10}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
build() { # NAME TREE LIBDIR
	inc=
	for d in src/util src/catalog src/compile src/exec src/exec/ptx src/exec/native \
		src/run src/report src/cli reference src/torchplan; do
		inc="$inc -I $2/$d"
	done
	${CC:-cc} -std=gnu11 -O2 $inc -I "$3" "$src/bench/refcost.c" "$3/libub.a" \
		-lmpfr -lgmp -lm -lpthread -ldl -o "$dir/$1"
}
build new "$src" .
[ -n "${OLD:-}" ] && build old "$OLD" "$OLD"
for side in old new; do
	[ -x "$dir/$side" ] || continue
	echo "== $side"
	"$dir/$side" "$src/bench/ref_clustering.fpcore" "$nc" enc
	"$dir/$side" "$src/bench/ref_loop.fpcore" "$nl" unit
done

#!/bin/sh
# llvm-libc.sh — brings LLVM libc's correctly rounded math functions into
# ulpbench under private names (reference/ref_llvm.h), without changing
# what any other symbol of the program means.
#
# LLVM's libc defines the C names (expf, exp, ...) that glibc defines too,
# so its archive cannot simply be linked.  This script takes from ARCHIVE
# the members that define the wanted functions and, transitively, the
# members defining the LLVM-internal symbols (C++ names in LLVM libc's
# namespace) they use; links them into one relocatable object; renames
# each wanted function NAME to ub_llvm_NAME; and makes every other symbol
# it defines local.  What the object still needs from outside (errno's
# location, the stack protector) is glibc's, as for any object.
# Usage: sh llvm-libc.sh ARCHIVE OUT.o CC OBJCOPY NAME...
set -eu
archive=$1 out=$2 cc=$3 objcopy=$4
shift 4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/llvmlibc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case $archive in /*) ;; *) archive=$(pwd)/$archive ;; esac
(cd "$tmp" && ar x "$archive")
# defined symbols: "member symbol"
nm -A --defined-only "$tmp"/*.o 2>/dev/null |
	awk '$2 ~ /^[TWDRBVi]$/ { sub(/:.*/, "", $1); print $1, $3 }' >"$tmp/defs"
want= keep=
for s in "$@"; do
	m=$(awk -v s="$s" '$2 == s { print $1; exit }' "$tmp/defs")
	[ -n "$m" ] || { echo "llvm-libc.sh: $archive has no $s" >&2; exit 1; }
	want="$want $m"
	echo "$s ub_llvm_$s" >>"$tmp/rename"
	keep="$keep --keep-global-symbol=ub_llvm_$s"
done
# the members they need, transitively (LLVM-internal names only)
todo=$want members=
while [ -n "$todo" ]; do
	next=
	for m in $todo; do
		case " $members " in *" $m "*) continue ;; esac
		members="$members $m"
		for u in $(nm -u "$m" | awk '{ print $2 }'); do
			case $u in *__llvm_libc*) ;; *) continue ;; esac
			d=$(awk -v s="$u" '$2 == s { print $1; exit }' "$tmp/defs")
			[ -n "$d" ] && next="$next $d"
		done
	done
	todo=$next
done
$cc -r -nostdlib -o "$tmp/all.o" $members
$objcopy --redefine-syms="$tmp/rename" $keep "$tmp/all.o" "$out.tmp"
mv "$out.tmp" "$out"

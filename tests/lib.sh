# lib.sh — helpers for the tests that run the real ulpbench binary.
# Each test sources this file; $UB is the binary, $SRCDIR the source tree.
set -u
: "${UB:?UB must name the ulpbench binary}"
: "${SRCDIR:?SRCDIR must name the source tree}"
# Every test runs on the sim, GPU or not, unless it points ulpbench at a
# driver itself (cuda.test loads a stand-in): --backend auto then falls back.
ULPBENCH_LIBCUDA=/nonexistent/libcuda.so.1
export ULPBENCH_LIBCUDA
TMP=$(mktemp -d "${TMPDIR:-/tmp}/ubtest.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
failures=0
checks=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { checks=$((checks + 1)); }

# expect_status CODE DESCRIPTION -- COMMAND...: runs COMMAND, captures
# stdout/stderr in $TMP/out and $TMP/err, checks the exit status.  The
# description goes to the log first: make check's progress lines show it
# (tests/progress).
expect_status() {
	want=$1 desc=$2
	shift 3
	echo "# $desc"
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" -ne "$want" ]; then
		fail "$desc: exit $got, expected $want; stderr: $(head -c 300 "$TMP/err")"
	else
		ok
	fi
}

# expect_err PATTERN DESCRIPTION: stderr is exactly one line matching PATTERN.
expect_err() {
	lines=$(wc -l <"$TMP/err")
	if [ "$lines" -ne 1 ] || ! grep -Eq -- "$1" "$TMP/err"; then
		fail "$2: stderr should be one line matching '$1', got: $(cat "$TMP/err")"
	else
		ok
	fi
}

expect_grep() { # PATTERN FILE DESCRIPTION
	if grep -Eq -- "$1" "$2"; then ok; else fail "$3: no '$1' in $2: $(head -c 400 "$2")"; fi
}

# mknpy FILE DESCR SHAPE NBYTES [DATAFILE]: a .npy v1.0 file, header as
# numpy writes it (padded so data starts at a multiple of 64 bytes), data
# from DATAFILE or zeros.
mknpy() {
	hdr="{'descr': '$2', 'fortran_order': False, 'shape': ($3), }"
	len=${#hdr}
	pad=$(( (64 - (10 + len + 1) % 64) % 64 ))
	total=$((len + pad + 1))
	{
		printf '\223NUMPY\001\000'
		printf "\\$(printf %03o $((total % 256)))\\$(printf %03o $((total / 256)))"
		printf '%s' "$hdr"
		printf "%${pad}s" ''
		printf '\n'
		if [ $# -ge 5 ]; then head -c "$4" "$5"; else head -c "$4" /dev/zero; fi
	} >"$1"
}

# csv_field FILE ROW_MODE COLUMN: the value of COLUMN in the row whose mode
# is ROW_MODE.  Fields may be quoted (RFC 4180: an op named "a, b" is
# written "a, b"; a quote inside is doubled).
csv_field() {
	awk -v mode="$2" -v col="$3" '
		function fields(line, f,   n, i, c, q, cur) {
			n = 0; cur = ""; q = 0
			for (i = 1; i <= length(line); i++) {
				c = substr(line, i, 1)
				if (q && c == "\"" && substr(line, i + 1, 1) == "\"") { cur = cur c; i++ }
				else if (c == "\"") q = !q
				else if (c == "," && !q) { f[++n] = cur; cur = "" }
				else cur = cur c
			}
			f[++n] = cur
			return n
		}
		{ n = fields($0, f) }
		NR == 1 { for (i = 1; i <= n; i++) idx[f[i]] = i; next }
		f[3] == mode { print f[idx[col]]; exit }' "$1"
}

# build_fakecuda OUT [CFLAGS...]: the stand-in driver (tests/fakecuda.c)
# with the PTX interpreter and its measured models (found as the sim finds
# them: the source tree, the build tree here), as a shared library for
# ULPBENCH_LIBCUDA.
build_fakecuda() {
	out=$1
	shift
	${CC:-cc} -shared -fPIC -O1 -std=gnu11 -ffp-contract=off -frounding-math \
		-iquote "$SRCDIR/src/util" -iquote "$SRCDIR/src/exec/ptx" -iquote "$SRCDIR/src/exec" \
		-DSRCDIR="\"$SRCDIR\"" -DBUILDDIR="\"$(pwd)\"" -DPKGDATADIR='"/nonexistent"' \
		"$@" -o "$out" "$SRCDIR/tests/fakecuda.c" "$SRCDIR"/src/exec/ptx/*.c \
		"$SRCDIR/src/exec/mufu.c" "$SRCDIR/src/exec/mma_unit.c" \
		"$SRCDIR/src/util/paths.c" "$SRCDIR/src/util/ub.c" \
		"$SRCDIR/src/util/hash.c" \
		-lm -lpthread -Wl,-Bsymbolic
}

finish() {
	echo "$checks passed, $failures failed"
	[ "$failures" -eq 0 ]
	exit $?
}

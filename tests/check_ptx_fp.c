/* check_ptx_fp.c — float instructions against their PTX ISA definitions
 * (9.7.3), one instruction per kernel (check_ptx.c's harness).
 *
 * Every expected encoding is derived by hand from the exact value and the
 * IEEE 754 rounding rule of the mode (the derivation is beside the row;
 * rows were cross-checked with exact rational arithmetic in Python's
 * fractions module, never with the interpreter).  Rows marked ASSUMPTION
 * test a documented choice where the ISA is silent (to verify on a GPU). */
#include "check_ptx.h"
#include "ptx_num.h"

#include <math.h>
#include <string.h>

/* f32 encodings used below. */
#define ONE 0x3f800000u     /* 1 */
#define MONE 0xbf800000u    /* -1 */
#define TWO 0x40000000u     /* 2 */
#define THREE 0x40400000u   /* 3 */
#define PINF 0x7f800000u
#define NINF 0xff800000u
#define QNAN 0x7fc00001u    /* a quiet NaN with a payload */
#define SNAN 0x7f800001u    /* a signalling NaN */
#define CNAN 0x7fffffffu    /* the GPU's canonical NaN (x86: 0xffc00000) */
#define NZERO 0x80000000u
/* X = 1 + 2^-12: X*X = 1 + 2^-11 + 2^-24 exactly, and 2^-24 is half an
 * ulp of [1, 2): a tie.  Y = 1 + 2^-12 + 2^-23: Y*Y = 1 + 2^-11 + 2^-22 +
 * 2^-24 + 2^-34 + 2^-46, just above a tie. */
#define X 0x3f800800u
#define NX 0xbf800800u
#define Y 0x3f800801u

#define AX(k) (1ull << (k))

static const struct ptx_case fp_arith[] = {
	/* X*X = 1 + 2^-11 + 2^-24: significand 1 + 0x1000 ulps + 1/2 ulp.
	 * RN: tie to even (0x1000 even) -> 0x3f801000; RZ, RM truncate;
	 * RP rounds up to 0x3f801001.  -X*X: RM away from zero, RP toward. */
	{ "mul.rn.f32 %x3, %x0, %x1", X, X, 0, 'x', 0x3f801000, 0, 0 },
	{ "mul.rz.f32 %x3, %x0, %x1", X, X, 0, 'x', 0x3f801000, 0, 0 },
	{ "mul.rm.f32 %x3, %x0, %x1", X, X, 0, 'x', 0x3f801000, 0, 0 },
	{ "mul.rp.f32 %x3, %x0, %x1", X, X, 0, 'x', 0x3f801001, 0, 0 },
	{ "mul.rm.f32 %x3, %x0, %x1", NX, X, 0, 'x', 0xbf801001, 0, 0 },
	{ "mul.rp.f32 %x3, %x0, %x1", NX, X, 0, 'x', 0xbf801000, 0, 0 },
	/* Y*Y: 1 + 0x1002 ulps + (1/2 + 2^-11 + 2^-23) ulp: above the tie, so
	 * RN and RP give 0x3f801003, RZ and RM 0x3f801002. */
	{ "mul.rn.f32 %x3, %x0, %x1", Y, Y, 0, 'x', 0x3f801003, 0, 0 },
	{ "mul.rz.f32 %x3, %x0, %x1", Y, Y, 0, 'x', 0x3f801002, 0, 0 },
	{ "fma.rn.f32 %x3, %x0, %x1, %x2", Y, Y, 0, 'x', 0x3f801003, 0, 0 },
	{ "fma.rz.f32 %x3, %x0, %x1, %x2", Y, Y, 0, 'x', 0x3f801002, 0, 0 },
	{ "fma.rm.f32 %x3, %x0, %x1, %x2", Y, Y, 0, 'x', 0x3f801002, 0, 0 },
	{ "fma.rp.f32 %x3, %x0, %x1, %x2", Y, Y, 0, 'x', 0x3f801003, 0, 0 },
	/* fma(X, X, 1) = 2 + 2^-11 + 2^-24; in [2, 4) an ulp is 2^-22 so the
	 * 2^-24 is a quarter ulp: RN -> 2 + 2^-11 = 0x40000800.  Rounded
	 * separately: RN(X*X) = 1 + 2^-11 (tie to even, above), + 1 is exact:
	 * the same 0x40000800. */
	{ "fma.rn.f32 %x3, %x0, %x1, %x2", X, X, ONE, 'x', 0x40000800, 0, 0 },
	{ "mul.rn.f32 %x4, %x0, %x1; add.rn.f32 %x3, %x4, %x2", X, X, ONE, 'x',
	  0x40000800, 0, 0 },
	/* fma(X, X, -1) = 2^-11 + 2^-24, exact in f32 (13 bits): 2^-11 is
	 * 0x3a000000 and 2^-24 is 2^10 of its ulps (2^-34) -> 0x3a000400.
	 * Rounded separately: RN(X*X) - 1 = 2^-11 = 0x3a000000.  They differ. */
	{ "fma.rn.f32 %x3, %x0, %x1, %x2", X, X, MONE, 'x', 0x3a000400, 0, 0 },
	{ "mul.rn.f32 %x4, %x0, %x1; add.rn.f32 %x3, %x4, %x2", X, X, MONE, 'x',
	  0x3a000000, 0, 0 },
	/* mad.rn.f32 is fma.rn.f32 (ISA, sm_20+); legacy mad.f32 taken as .rn. */
	{ "mad.rn.f32 %x3, %x0, %x1, %x2", X, X, MONE, 'x', 0x3a000400, 0, 0 },
	{ "mad.f32 %x3, %x0, %x1, %x2", X, X, MONE, 'x', 0x3a000400, 0, 0 },
	/* 1/3 = 0x3eaaaaaa + 0.666.. ulp (fraction bits 1010...): RN and RP
	 * round up to 0x3eaaaaab, RZ and RM down.  -1/3 mirrors it. */
	{ "div.rn.f32 %x3, %x0, %x1", ONE, THREE, 0, 'x', 0x3eaaaaab, 0, 0 },
	{ "div.rz.f32 %x3, %x0, %x1", ONE, THREE, 0, 'x', 0x3eaaaaaa, 0, 0 },
	{ "div.rm.f32 %x3, %x0, %x1", ONE, THREE, 0, 'x', 0x3eaaaaaa, 0, 0 },
	{ "div.rp.f32 %x3, %x0, %x1", ONE, THREE, 0, 'x', 0x3eaaaaab, 0, 0 },
	{ "div.rm.f32 %x3, %x0, %x1", MONE, THREE, 0, 'x', 0xbeaaaaab, 0, 0 },
	{ "div.rp.f32 %x3, %x0, %x1", MONE, THREE, 0, 'x', 0xbeaaaaaa, 0, 0 },
	{ "rcp.rn.f32 %x3, %x0", THREE, 0, 0, 'x', 0x3eaaaaab, 0, 0 },
	{ "rcp.rz.f32 %x3, %x0", THREE, 0, 0, 'x', 0x3eaaaaaa, 0, 0 },
	/* 1 + 2^-24 (0x33800000) is the midpoint of 1 and 1 + 2^-23: RN ties
	 * to even 1.0; RP up.  -1 - 2^-24: RM goes away from zero. */
	{ "add.rn.f32 %x3, %x0, %x1", ONE, 0x33800000, 0, 'x', ONE, 0, 0 },
	{ "add.rz.f32 %x3, %x0, %x1", ONE, 0x33800000, 0, 'x', ONE, 0, 0 },
	{ "add.rp.f32 %x3, %x0, %x1", ONE, 0x33800000, 0, 'x', 0x3f800001, 0, 0 },
	{ "add.rm.f32 %x3, %x0, %x1", MONE, 0xb3800000, 0, 'x', 0xbf800001, 0, 0 },
	/* 1 - 2^-25 (0x33000000) is the midpoint of 1 - 2^-24 (0x3f7fffff,
	 * odd) and 1 (even): RN -> 1, RZ and RM -> 0x3f7fffff, RP -> 1. */
	{ "sub.rn.f32 %x3, %x0, %x1", ONE, 0x33000000, 0, 'x', ONE, 0, 0 },
	{ "sub.rz.f32 %x3, %x0, %x1", ONE, 0x33000000, 0, 'x', 0x3f7fffff, 0, 0 },
	{ "sub.rm.f32 %x3, %x0, %x1", ONE, 0x33000000, 0, 'x', 0x3f7fffff, 0, 0 },
	{ "sub.rp.f32 %x3, %x0, %x1", ONE, 0x33000000, 0, 'x', ONE, 0, 0 },
	/* sqrt(2) = 1.41421356..; 0x3fb504f3 = 1.41421353.. is below it and
	 * the nearest (its square is < 2, the next one's is > 2). */
	{ "sqrt.rn.f32 %x3, %x0", TWO, 0, 0, 'x', 0x3fb504f3, 0, 0 },
	{ "sqrt.rz.f32 %x3, %x0", TWO, 0, 0, 'x', 0x3fb504f3, 0, 0 },
	{ "sqrt.rp.f32 %x3, %x0", TWO, 0, 0, 'x', 0x3fb504f4, 0, 0 },
	/* No modifier: executed as .rn (and counted as unmarked). */
	{ "add.f32 %x3, %x0, %x1", ONE, 0x33800000, 0, 'x', ONE, 0, 0 },
	/* .sat clamps to [0, 1]: 1 + 1 -> 1; -1 * 1 -> +0; NaN -> +0.
	 * ASSUMPTION: -0 saturates to +0. */
	{ "add.rn.sat.f32 %x3, %x0, %x1", ONE, ONE, 0, 'x', ONE, 0, 0 },
	{ "mul.rn.sat.f32 %x3, %x0, %x1", MONE, ONE, 0, 'x', 0, 0, 0 },
	{ "add.rn.sat.f32 %x3, %x0, %x1", QNAN, ONE, 0, 'x', 0, 0, 0 },
	{ "add.rn.sat.f32 %x3, %x0, %x1", NZERO, NZERO, 0, 'x', 0, 0, 0 },
	/* abs, neg, copysign (d = b with the sign of a). */
	{ "abs.f32 %x3, %x0", MONE, 0, 0, 'x', ONE, 0, 0 },
	{ "neg.f32 %x3, %x0", ONE, 0, 0, 'x', MONE, 0, 0 },
	{ "neg.f32 %x3, %x0", 0, 0, 0, 'x', NZERO, 0, 0 },
	{ "copysign.f32 %x3, %x0, %x1", MONE, TWO, 0, 'x', 0xc0000000, 0, 0 },
	{ "copysign.f32 %x3, %x0, %x1", ONE, 0xc0000000, 0, 'x', TWO, 0, 0 },
};

/* .ftz: subnormal inputs and results become zeros of the same sign. */
static const struct ptx_case fp_ftz[] = {
	/* 2^-149 + 0: flushed input -> +0; without .ftz exact 2^-149. */
	{ "add.rn.ftz.f32 %x3, %x0, %x1", 1, 0, 0, 'x', 0, 0, 0 },
	{ "add.rn.f32 %x3, %x0, %x1", 1, 0, 0, 'x', 1, 0, 0 },
	/* -2^-149 + -0: flushed to -0, and -0 + -0 = -0. */
	{ "add.rn.ftz.f32 %x3, %x0, %x1", 0x80000001, NZERO, 0, 'x', NZERO, 0, 0 },
	{ "add.rn.f32 %x3, %x0, %x1", 0x80000001, NZERO, 0, 'x', 0x80000001, 0, 0 },
	/* 2^-126 * 0.5 = 2^-127 (0x00400000), subnormal: flushed result. */
	{ "mul.rn.ftz.f32 %x3, %x0, %x1", 0x00800000, 0x3f000000, 0, 'x', 0, 0, 0 },
	{ "mul.rn.f32 %x3, %x0, %x1", 0x00800000, 0x3f000000, 0, 'x', 0x00400000, 0, 0 },
	{ "mul.rn.ftz.f32 %x3, %x0, %x1", 0x80800000, 0x3f000000, 0, 'x', NZERO, 0, 0 },
	{ "fma.rn.ftz.f32 %x3, %x0, %x1, %x2", 0x00800000, 0x3f000000, 0, 'x', 0, 0, 0 },
	/* Tininess after rounding (not in the ISA; the rule measured on an
	 * H200, docs/gpu-results.md: the product rounded to 24 bits with an
	 * unbounded exponent is compared with 2^-126): (0.5 - 2^-24) * 2^-125
	 * (1 + 2^-23) = 2^-126 (1 - 2^-46) is below 2^-126 but rounds to
	 * 2^-126 = 0x00800000, a normal, which is kept. */
	{ "mul.rn.ftz.f32 %x3, %x0, %x1", 0x3efffffe, 0x01000001, 0, 'x', 0x00800000, 0, 0 },
	/* 1 / 2^127 = 2^-127: 0x00400000, flushed with .ftz. */
	{ "div.rn.ftz.f32 %x3, %x0, %x1", ONE, 0x7f000000, 0, 'x', 0, 0, 0 },
	{ "div.rn.f32 %x3, %x0, %x1", ONE, 0x7f000000, 0, 'x', 0x00400000, 0, 0 },
	{ "sqrt.rn.ftz.f32 %x3, %x0", 4, 0, 0, 'x', 0, 0, 0 },
	/* setp compares flushed inputs: 2^-149 > 0, but not once flushed. */
	{ "setp.gt.ftz.f32 %p3, %x0, %x1", 1, 0, 0, 'p', 0, 0, 0 },
	{ "setp.gt.f32 %p3, %x0, %x1", 1, 0, 0, 'p', 1, 0, 0 },
	/* min of -0 (flushed -2^-149) and +0 is -0. */
	{ "min.ftz.f32 %x3, %x0, %x1", 0x80000001, 0, 0, 'x', NZERO, 0, 0 },
	{ "neg.ftz.f32 %x3, %x0", 1, 0, 0, 'x', NZERO, 0, 0 },
	{ "cvt.ftz.f32.f32 %x3, %x0", 0x80000001, 0, 0, 'x', NZERO, 0, 0 },
};

/* NaN results are 0x7fffffff whatever the inputs' payloads (GPU rule,
 * reference/cuda-accuracy.md); x86 would give 0xffc00000 or the payload. */
static const struct ptx_case fp_nan[] = {
	{ "add.rn.f32 %x3, %x0, %x1", QNAN, ONE, 0, 'x', CNAN, 0, 0 },
	{ "add.rn.f32 %x3, %x0, %x1", PINF, NINF, 0, 'x', CNAN, 0, 0 },
	{ "add.f32 %x3, %x0, %x1", PINF, NINF, 0, 'x', CNAN, 0, 0 },
	{ "mul.rn.f32 %x3, %x0, %x1", 0, PINF, 0, 'x', CNAN, 0, 0 },
	{ "div.rn.f32 %x3, %x0, %x1", 0, 0, 0, 'x', CNAN, 0, 0 },
	{ "div.rz.f32 %x3, %x0, %x1", 0, 0, 0, 'x', CNAN, 0, 0 },
	{ "sqrt.rn.f32 %x3, %x0", MONE, 0, 0, 'x', CNAN, 0, 0 },
	{ "fma.rn.f32 %x3, %x0, %x1, %x2", SNAN, ONE, ONE, 'x', CNAN, 0, 0 },
	{ "neg.f32 %x3, %x0", QNAN, 0, 0, 'x', CNAN, 0, 0 },
	/* f64 differs (measured on an H200, docs/gpu-results.md): an invalid
	 * operation gives 0xfff8000000000000; a NaN operand comes out made
	 * quiet with its sign and payload, b's before a's, fma's b, c, a;
	 * neg of a NaN keeps its sign. */
	{ "add.rn.f64 %y3, %y0, %y1", 0x7ff0000000000000, 0xfff0000000000000, 0,
	  'y', 0xfff8000000000000, 0, 0 },
	{ "add.rn.f64 %y3, %y0, %y1", 0xfff0000000000005, 0x3ff0000000000000, 0,
	  'y', 0xfff8000000000005, 0, 0 },
	{ "mul.rn.f64 %y3, %y0, %y1", 0x7ff8000000000001, 0xfff8000000000002, 0,
	  'y', 0xfff8000000000002, 0, 0 },
	{ "fma.rn.f64 %y3, %y0, %y1, %y2", 0x7ff8000000000001, 0x3ff0000000000000,
	  0x7ff0000000000003, 'y', 0x7ff8000000000003, 0, 0 },
	{ "neg.f64 %y3, %y0", 0x7ff8000000000007, 0, 0, 'y', 0x7ff8000000000007, 0, 0 },
};

/* min/max (ISA): a NaN operand yields the other, two NaNs (or .NaN) the
 * canonical NaN, and -0 < +0. */
static const struct ptx_case fp_minmax[] = {
	{ "min.f32 %x3, %x0, %x1", QNAN, ONE, 0, 'x', ONE, 0, 0 },
	{ "max.f32 %x3, %x0, %x1", ONE, QNAN, 0, 'x', ONE, 0, 0 },
	{ "min.f32 %x3, %x0, %x1", SNAN, 0, 0, 'x', 0, 0, 0 },  /* glibc fminf: NaN */
	{ "min.f32 %x3, %x0, %x1", QNAN, SNAN, 0, 'x', CNAN, 0, 0 },
	{ "min.NaN.f32 %x3, %x0, %x1", QNAN, ONE, 0, 'x', CNAN, 0, 0 },
	{ "min.f32 %x3, %x0, %x1", NZERO, 0, 0, 'x', NZERO, 0, 0 },
	{ "min.f32 %x3, %x0, %x1", 0, NZERO, 0, 'x', NZERO, 0, 0 },
	{ "max.f32 %x3, %x0, %x1", NZERO, 0, 0, 'x', 0, 0, 0 },
	{ "max.f32 %x3, %x0, %x1", 0, NZERO, 0, 'x', 0, 0, 0 },
	{ "min.f32 %x3, %x0, %x1", MONE, TWO, 0, 'x', MONE, 0, 0 },
	{ "max.f32 %x3, %x0, %x1", MONE, TWO, 0, 'x', TWO, 0, 0 },
	{ "min.f64 %y3, %y0, %y1", 0x8000000000000000, 0, 0, 'y', 0x8000000000000000, 0, 0 },
	{ "max.f64 %y3, %y0, %y1", 0x7ff8000000000000, 0x3ff0000000000000, 0, 'y',
	  0x3ff0000000000000, 0, 0 },
};

/* setp: ordered compares are false with a NaN, unordered ones true;
 * p = t BOOL c and q = !t BOOL c. */
static const struct ptx_case fp_setp[] = {
	{ "setp.lt.f32 %p3, %x0, %x1", QNAN, ONE, 0, 'p', 0, 0, 0 },
	{ "setp.ltu.f32 %p3, %x0, %x1", QNAN, ONE, 0, 'p', 1, 0, 0 },
	{ "setp.ne.f32 %p3, %x0, %x1", QNAN, QNAN, 0, 'p', 0, 0, 0 },
	{ "setp.neu.f32 %p3, %x0, %x1", QNAN, QNAN, 0, 'p', 1, 0, 0 },
	{ "setp.equ.f32 %p3, %x0, %x1", ONE, ONE, 0, 'p', 1, 0, 0 },
	{ "setp.geu.f32 %p3, %x0, %x1", ONE, TWO, 0, 'p', 0, 0, 0 },
	{ "setp.num.f32 %p3, %x0, %x1", ONE, TWO, 0, 'p', 1, 0, 0 },
	{ "setp.nan.f32 %p3, %x0, %x1", QNAN, ONE, 0, 'p', 1, 0, 0 },
	{ "setp.nan.f32 %p3, %x0, %x1", ONE, TWO, 0, 'p', 0, 0, 0 },
	{ "setp.eq.f32 %p3, %x0, %x1", NZERO, 0, 0, 'p', 1, 0, 0 },
	{ "setp.gt.f32 %p3, %x0, %x1", TWO, ONE, 0, 'p', 1, 0, 0 },
	{ "setp.le.f32 %p3, %x0, %x1", ONE, ONE, 0, 'p', 1, 0, 0 },
	{ "setp.lt.f32 %p3|%q3, %x0, %x1", ONE, TWO, 0, 'q', 0, 0, 0 },
	{ "setp.lt.f32 %p3|%q3, %x0, %x1", TWO, ONE, 0, 'q', 1, 0, 0 },
	{ "setp.lt.and.f32 %p3, %x0, %x1, %p2", ONE, TWO, 0, 'p', 0, 0, 0 },
	{ "setp.lt.and.f32 %p3, %x0, %x1, %p2", ONE, TWO, 1, 'p', 1, 0, 0 },
	{ "setp.lt.or.f32 %p3, %x0, %x1, !%p2", TWO, ONE, 1, 'p', 0, 0, 0 },
	{ "setp.lt.or.f32 %p3, %x0, %x1, !%p2", TWO, ONE, 0, 'p', 1, 0, 0 },
	{ "setp.lt.xor.f32 %p3|%q3, %x0, %x1, %p2", ONE, TWO, 1, 'q', 1, 0, 0 },
	{ "setp.gtu.f64 %p3, %y0, %y1", 0x7ff8000000000000, 0x3ff0000000000000, 0, 'p', 1, 0, 0 },
	/* testp: +-0 counts as normal (ISA: "as a special case"). */
	{ "testp.normal.f32 %p3, %x0", ONE, 0, 0, 'p', 1, 0, 0 },
	{ "testp.normal.f32 %p3, %x0", 0, 0, 0, 'p', 1, 0, 0 },
	{ "testp.normal.f32 %p3, %x0", 1, 0, 0, 'p', 0, 0, 0 },
	{ "testp.subnormal.f32 %p3, %x0", 1, 0, 0, 'p', 1, 0, 0 },
	{ "testp.subnormal.f32 %p3, %x0", 0, 0, 0, 'p', 0, 0, 0 },
	{ "testp.finite.f32 %p3, %x0", PINF, 0, 0, 'p', 0, 0, 0 },
	{ "testp.infinite.f32 %p3, %x0", NINF, 0, 0, 'p', 1, 0, 0 },
	{ "testp.notanumber.f32 %p3, %x0", QNAN, 0, 0, 'p', 1, 0, 0 },
	{ "testp.number.f32 %p3, %x0", QNAN, 0, 0, 'p', 0, 0, 0 },
};

/* f64: 1 + 2^-53 is the midpoint of 1 and 1 + 2^-52 (RN: even 1.0).
 * 1/3 in f64 is 0x3fd5555555555555 below 1/3 (fraction 0101..01|0101..),
 * so RZ keeps it and RP goes up.  Z = 1 + 2^-27: fma(Z, Z, -1) = 2^-26 +
 * 2^-54 exactly (0x3e50000001000000), separately RN(Z*Z) = 1 + 2^-26
 * (2^-54 is a quarter ulp) and - 1 gives 2^-26 (0x3e50000000000000). */
static const struct ptx_case fp_f64[] = {
	{ "add.rn.f64 %y3, %y0, %y1", 0x3ff0000000000000, 0x3ca0000000000000, 0, 'y',
	  0x3ff0000000000000, 0, 0 },
	{ "add.rp.f64 %y3, %y0, %y1", 0x3ff0000000000000, 0x3ca0000000000000, 0, 'y',
	  0x3ff0000000000001, 0, 0 },
	{ "div.rn.f64 %y3, %y0, %y1", 0x3ff0000000000000, 0x4008000000000000, 0, 'y',
	  0x3fd5555555555555, 0, 0 },
	{ "div.rz.f64 %y3, %y0, %y1", 0x3ff0000000000000, 0x4008000000000000, 0, 'y',
	  0x3fd5555555555555, 0, 0 },
	{ "div.rp.f64 %y3, %y0, %y1", 0x3ff0000000000000, 0x4008000000000000, 0, 'y',
	  0x3fd5555555555556, 0, 0 },
	{ "rcp.rn.f64 %y3, %y0", 0x4008000000000000, 0, 0, 'y', 0x3fd5555555555555, 0, 0 },
	{ "fma.rn.f64 %y3, %y0, %y1, %y2", 0x3ff0000002000000, 0x3ff0000002000000,
	  0xbff0000000000000, 'y', 0x3e50000001000000, 0, 0 },
	{ "mul.rn.f64 %y4, %y0, %y1; add.rn.f64 %y3, %y4, %y2", 0x3ff0000002000000,
	  0x3ff0000002000000, 0xbff0000000000000, 'y', 0x3e50000000000000, 0, 0 },
	/* sqrt(2) to nearest double: 0x3ff6a09e667f3bcd (IEEE, any libm). */
	{ "sqrt.rn.f64 %y3, %y0", 0x4000000000000000, 0, 0, 'y', 0x3ff6a09e667f3bcd, 0, 0 },
	{ "neg.f64 %y3, %y0", 0x3ff0000000000000, 0, 0, 'y', 0xbff0000000000000, 0, 0 },
};

/* Approximate instructions: models within the documented error (the
 * tolerance column, in ulps) and the approx_mask bit of each.  Exact rows
 * come from the ISA's special cases. */
static const struct ptx_case fp_approx[] = {
	/* div.approx: 2^126 < |b| < 2^128 gives 0, and NaN for an infinite a. */
	{ "div.approx.f32 %x3, %x0, %x1", ONE, 0x7f000000, 0, 'x', 0, 0, AX(PTX_AX_DIV_APPROX) },
	{ "div.approx.f32 %x3, %x0, %x1", PINF, 0x7f000000, 0, 'x', CNAN, 0, AX(PTX_AX_DIV_APPROX) },
	/* |b| = 2^126 is outside that range: 1/2^126 = 0x00800000, 2 ulp. */
	{ "div.approx.f32 %x3, %x0, %x1", ONE, 0x7e800000, 0, 'x', 0x00800000, 2,
	  AX(PTX_AX_DIV_APPROX) },
	{ "div.approx.f32 %x3, %x0, %x1", 0x40c00000, THREE, 0, 'x', TWO, 2, AX(PTX_AX_DIV_APPROX) },
	{ "div.approx.ftz.f32 %x3, %x0, %x1", 1, ONE, 0, 'x', 0, 0, AX(PTX_AX_DIV_APPROX) },
	/* .ftz, 2^126 < |b| < 2^128 (the model takes no branch there: 1/b
	 * is then below 2^-126, flushed): the zero of a*b's sign, NaN for an
	 * infinite or NaN a; at |b| = 2^126, 1/b = 2^-126 is kept */
	{ "div.approx.ftz.f32 %x3, %x0, %x1", ONE, 0x7e800001, 0, 'x', 0, 0, AX(PTX_AX_DIV_APPROX) },
	{ "div.approx.ftz.f32 %x3, %x0, %x1", 0xbf800000, 0x7f7fffff, 0, 'x', NZERO, 0,
	  AX(PTX_AX_DIV_APPROX) },
	{ "div.approx.ftz.f32 %x3, %x0, %x1", 0xbf800000, 0xff000000, 0, 'x', 0, 0,
	  AX(PTX_AX_DIV_APPROX) },
	{ "div.approx.ftz.f32 %x3, %x0, %x1", PINF, 0x7f000000, 0, 'x', CNAN, 0, AX(PTX_AX_DIV_APPROX) },
	{ "div.approx.ftz.f32 %x3, %x0, %x1", 0x7fc00001, 0x7f000000, 0, 'x', CNAN, 0,
	  AX(PTX_AX_DIV_APPROX) },
	{ "div.approx.ftz.f32 %x3, %x0, %x1", 0x40000000, 0x7e800000, 0, 'x', 0x01000000, 0,
	  AX(PTX_AX_DIV_APPROX) },
	/* .ftz of a result: 2^-126 / 2 = 2^-127 is flushed to +0, -2^-127 to -0 */
	{ "div.approx.ftz.f32 %x3, %x0, %x1", 0x00800000, TWO, 0, 'x', 0, 0, AX(PTX_AX_DIV_APPROX) },
	{ "div.approx.ftz.f32 %x3, %x0, %x1", 0x80800000, TWO, 0, 'x', NZERO, 0, AX(PTX_AX_DIV_APPROX) },
	{ "div.full.f32 %x3, %x0, %x1", ONE, THREE, 0, 'x', 0x3eaaaaab, 2, AX(PTX_AX_DIV_FULL) },
	{ "rcp.approx.f32 %x3, %x0", THREE, 0, 0, 'x', 0x3eaaaaab, 1, AX(PTX_AX_RCP_APPROX) },
	{ "sqrt.approx.f32 %x3, %x0", 0x41100000, 0, 0, 'x', THREE, 1, AX(PTX_AX_SQRT_APPROX) },
	{ "rsqrt.approx.f32 %x3, %x0", 0x40800000, 0, 0, 'x', 0x3f000000, 2,
	  AX(PTX_AX_RSQRT_APPROX) },
	{ "rsqrt.approx.f32 %x3, %x0", NZERO, 0, 0, 'x', NINF, 0, AX(PTX_AX_RSQRT_APPROX) },
	{ "ex2.approx.f32 %x3, %x0", THREE, 0, 0, 'x', 0x41000000, 2, AX(PTX_AX_EX2_APPROX) },
	{ "ex2.approx.ftz.f32 %x3, %x0", NINF, 0, 0, 'x', 0, 0, AX(PTX_AX_EX2_APPROX) },
	{ "lg2.approx.f32 %x3, %x0", 0x41000000, 0, 0, 'x', THREE, 2, AX(PTX_AX_LG2_APPROX) },
	{ "lg2.approx.f32 %x3, %x0", 0, 0, 0, 'x', NINF, 0, AX(PTX_AX_LG2_APPROX) },
	{ "sin.approx.f32 %x3, %x0", 0, 0, 0, 'x', 0, 0, AX(PTX_AX_SIN_APPROX) },
	/* cos(0) = 1 within 2^-20.5 absolute: 6 ulps of [0.5, 1). */
	{ "cos.approx.f32 %x3, %x0", 0, 0, 0, 'x', ONE, 6, AX(PTX_AX_COS_APPROX) },
	/* tanh(1) = 0.76159415..: 0x3f42f7d6; 2^-11 relative = 4096 ulps. */
	{ "tanh.approx.f32 %x3, %x0", ONE, 0, 0, 'x', 0x3f42f7d6, 4096,
	  AX(PTX_AX_TANH_APPROX) },
	/* A guarded-off approximate instruction does not run: no bit. */
	{ "@%p0 ex2.approx.f32 %x3, %x1", 0, ONE, 0, 'x', 0, 0, 0 },
};

/* f16 (p = 11: an ulp of [1, 2) is 2^-10) and bf16 (p = 8: 2^-7).
 * W = 1 + 2^-6 (0x3c10): W*W = 1 + 2^-5 + 2^-12, so fma(W, W, -1) =
 * 2^-5 + 2^-12 exactly (0x2808: 2^-12 is 8 ulps of 2^-5), while RN(W*W)
 * drops the quarter ulp 2^-12 (0x3c20) and - 1 leaves 2^-5 (0x2800).
 * bf16 V = 1 + 2^-4 (0x3f88): fma(V, V, -1) = 2^-3 + 2^-8 = 0x3e04. */
static const struct ptx_case fp_half[] = {
	/* 1 + 2^-11 ties to even 1; (1 + 2^-10) + 2^-11 ties up to 0x3c02. */
	{ "add.rn.f16 %h3, %h0, %h1", 0x3c00, 0x1000, 0, 'h', 0x3c00, 0, 0 },
	{ "add.rn.f16 %h3, %h0, %h1", 0x3c01, 0x1000, 0, 'h', 0x3c02, 0, 0 },
	{ "add.f16 %h3, %h0, %h1", 0x3c01, 0x1000, 0, 'h', 0x3c02, 0, 0 },
	{ "sub.rn.f16 %h3, %h0, %h1", 0x3c00, 0x3c00, 0, 'h', 0, 0, 0 },
	{ "mul.rn.f16 %h3, %h0, %h1", 0x3c10, 0x3c10, 0, 'h', 0x3c20, 0, 0 },
	{ "fma.rn.f16 %h3, %h0, %h1, %h2", 0x3c10, 0x3c10, 0xbc00, 'h', 0x2808, 0, 0 },
	{ "mul.rn.f16 %h4, %h0, %h1; add.rn.f16 %h3, %h4, %h2", 0x3c10, 0x3c10, 0xbc00,
	  'h', 0x2800, 0, 0 },
	/* 65504 + 65504 overflows to inf; inf - inf is NaN (ASSUMPTION: 0x7fff). */
	{ "add.rn.f16 %h3, %h0, %h1", 0x7bff, 0x7bff, 0, 'h', 0x7c00, 0, 0 },
	{ "add.rn.f16 %h3, %h0, %h1", 0x7c00, 0xfc00, 0, 'h', 0x7fff, 0, 0 },
	/* .ftz: 2^-24 + 0 -> +0; 2^-14 * 0.5 = 2^-15 (0x0200) flushed. */
	{ "add.rn.ftz.f16 %h3, %h0, %h1", 0x0001, 0, 0, 'h', 0, 0, 0 },
	{ "add.rn.f16 %h3, %h0, %h1", 0x0001, 0, 0, 'h', 0x0001, 0, 0 },
	{ "mul.rn.ftz.f16 %h3, %h0, %h1", 0x0400, 0x3800, 0, 'h', 0, 0, 0 },
	{ "mul.rn.f16 %h3, %h0, %h1", 0x0400, 0x3800, 0, 'h', 0x0200, 0, 0 },
	{ "add.rn.sat.f16 %h3, %h0, %h1", 0x3c00, 0x3c00, 0, 'h', 0x3c00, 0, 0 },
	/* x2: each half alone, low half first: 1 + 2^-11 -> 1 (0x3c00) and
	 * 1 + 2^-10 exact (0x3c01). */
	{ "add.rn.f16x2 %x3, %x0, %x1", 0x3c003c00, 0x14001000, 0, 'x', 0x3c013c00, 0, 0 },
	{ "neg.f16 %h3, %h0", 0x3c00, 0, 0, 'h', 0xbc00, 0, 0 },
	{ "abs.f16 %h3, %h0", 0xbc00, 0, 0, 'h', 0x3c00, 0, 0 },
	{ "min.f16 %h3, %h0, %h1", 0x8000, 0, 0, 'h', 0x8000, 0, 0 },
	{ "max.f16 %h3, %h0, %h1", 0x7e00, 0x3c00, 0, 'h', 0x3c00, 0, 0 },
	{ "setp.lt.f16 %p3, %h0, %h1", 0x3c00, 0x4000, 0, 'p', 1, 0, 0 },
	/* bf16: 1 + 2^-8 (0x3b80) ties to even 1 (0x3f80); 0x3f81 + 2^-8 to
	 * 0x3f82. */
	{ "add.rn.bf16 %h3, %h0, %h1", 0x3f80, 0x3b80, 0, 'h', 0x3f80, 0, 0 },
	{ "add.rn.bf16 %h3, %h0, %h1", 0x3f81, 0x3b80, 0, 'h', 0x3f82, 0, 0 },
	{ "fma.rn.bf16 %h3, %h0, %h1, %h2", 0x3f88, 0x3f88, 0xbf80, 'h', 0x3e04, 0, 0 },
	{ "setp.gt.bf16 %p3, %h0, %h1", 0x3f80, 0x3f81, 0, 'p', 0, 0, 0 },
};

#define TABLE_TEST(name)                                                 \
	START_TEST(test_##name) { ptx_check_case(&name[_i]); }           \
	END_TEST
TABLE_TEST(fp_arith)
TABLE_TEST(fp_ftz)
TABLE_TEST(fp_nan)
TABLE_TEST(fp_minmax)
TABLE_TEST(fp_setp)
TABLE_TEST(fp_f64)
TABLE_TEST(fp_approx)
TABLE_TEST(fp_half)

/* ex2.approx's model where it is inf or +0 without libm (a >= 128,
 * a <= -150): the float of libm's double exp2, as everywhere else, on
 * every 509th encoding of those ranges (a prime step: every binade, both
 * signs), their ends and the infinities. */
/* Input w's two results, with and without .ftz, model against libm: the
 * number that differ. */
static int ex2_bad(uint32_t w)
{
	float a, want, got;
	int bad = 0;
	memcpy(&a, &w, sizeof a);
	for (int ftz = 0; ftz < 2; ftz++) {
		want = (float)exp2((double)a);
		if (ftz && fabsf(want) < 0x1p-126f)   /* .ftz: a subnormal result is 0 */
			want = copysignf(0.0f, want);
		got = ptx_f32_ex2(a, ftz);   /* what both executors run */
		bad += memcmp(&got, &want, sizeof got) != 0;
	}
	return bad;
}

START_TEST(test_ex2_ends)
{
	static const uint32_t ends[] = { 0x43000000, 0x42ffffff, 0xc3160000, 0xc3160001,
					 0xc315ffff, 0x7f800000, 0xff800000, 0x7f7fffff,
					 0xff7fffff };
	uint64_t n = 0, bad = 0;
	for (uint64_t u = 0; u < 1ull << 32; u += 509) {
		float a;
		uint32_t w = (uint32_t)u;
		memcpy(&a, &w, sizeof a);
		if (a >= 128.0f || a <= -150.0f)
			bad += ex2_bad(w), n += 2;
	}
	for (size_t k = 0; k < sizeof ends / sizeof *ends; k++)
		bad += ex2_bad(ends[k]), n += 2;
	ck_assert_msg(bad == 0 && n > 6000000, "%llu of %llu results differ",
		      (unsigned long long)bad, (unsigned long long)n);
}
END_TEST

/* ptx_ftz32 (branch-free) against .ftz's definition on the bits: an
 * exponent field of 0 (a zero or a subnormal) keeps the sign alone, any
 * other encoding, NaNs with their payloads, is unchanged.  Every encoding
 * around the flush's edges, and a spread over the rest. */
static uint64_t ftz_bad(uint32_t w)
{
	float x, r;
	uint32_t got, want = (w & 0x7f800000u) ? w : (w & 0x80000000u);
	memcpy(&x, &w, sizeof x);
	r = ptx_ftz32(x);
	memcpy(&got, &r, sizeof got);
	return got != want;
}

START_TEST(test_ftz_bits)
{
	uint64_t n = 0, bad = 0;
	for (uint32_t s = 0; s < 2; s++)
		for (uint32_t m = 0; m < 0x1000u; m++) {   /* 0, up, and down from 2^-126 */
			uint32_t sign = s << 31;
			bad += ftz_bad(sign | m) + ftz_bad(sign | (0x00800000u - 1 - m)) +
			       ftz_bad(sign | (0x00800000u + m)) + ftz_bad(sign | (0x7f800000u + m)) +
			       ftz_bad(sign | (0x7fffffffu - m));
			n += 5;
		}
	for (uint64_t u = 0; u < 1ull << 32; u += 251)
		bad += ftz_bad((uint32_t)u), n++;
	ck_assert_msg(bad == 0 && n > 17000000, "%llu of %llu flushes differ",
		      (unsigned long long)bad, (unsigned long long)n);
}
END_TEST

#define ADD_TABLE(tc, name) \
	tcase_add_loop_test(tc, test_##name, 0, (int)(sizeof name / sizeof *name))

TCase *ptx_fp_tcase(void)
{
	TCase *tc = tcase_create("fp");
	ADD_TABLE(tc, fp_arith);
	ADD_TABLE(tc, fp_ftz);
	ADD_TABLE(tc, fp_nan);
	ADD_TABLE(tc, fp_minmax);
	ADD_TABLE(tc, fp_setp);
	ADD_TABLE(tc, fp_f64);
	ADD_TABLE(tc, fp_approx);
	ADD_TABLE(tc, fp_half);
	tcase_add_test(tc, test_ex2_ends);
	tcase_add_test(tc, test_ftz_bits);
	return tc;
}

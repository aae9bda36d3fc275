/* ptx_num.h — small exact helpers for the interpreter: bit casts, integer
 * widths, flush-to-zero, saturation, NaN canonicalization, and the PTX
 * min/max rules.  Everything here is exact (no rounding happens), so it is
 * inline and host-independent. */
#ifndef UB_PTX_NUM_H
#define UB_PTX_NUM_H

#include "ptx_internal.h"

#include <math.h>
#include <string.h>

/* The NaN every f32 arithmetic instruction returns on NVIDIA GPUs (x86
 * would give 0xffc00000).  The f64 value is an assumption, by analogy,
 * still to be verified on a GPU. */
#define PTX_F32_QNAN 0x7fffffffu
#define PTX_F64_QNAN 0x7fffffffffffffffull

static inline float ptx_f32(uint64_t v)
{
	uint32_t u = (uint32_t)v;
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static inline uint64_t ptx_bits32(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static inline double ptx_f64(uint64_t v)
{
	double d;
	memcpy(&d, &v, sizeof d);
	return d;
}

static inline uint64_t ptx_bits64(double d)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	return u;
}

/* All ones in the low `bits` bits (1 <= bits <= 64). */
static inline uint64_t ptx_mask(unsigned bits)
{
	return ~0ull >> (64 - bits);
}

/* The low `bits` bits of v, sign-extended. */
static inline int64_t ptx_sext(uint64_t v, unsigned bits)
{
	unsigned s = 64 - bits;
	return (int64_t)(v << s) >> s;
}

/* .ftz: a subnormal becomes a zero of the same sign (NaN compares false
 * and passes through).  Without a branch: zeros and subnormals are common
 * in some inputs (1/b is +-0 for every b = inf, a quarter of random
 * encodings), and a branch on them is mispredicted as often (~6 ns an
 * element of div.approx.ftz); a plain ?: compiles to one.  So the
 * comparison is a one-lane vector's, a mask of all ones where |x| <
 * 2^-126, which clears every bit but the sign: compare and mask, the
 * value never leaving the floating-point registers. */
static inline float ptx_ftz32(float x)
{
	typedef float v4f __attribute__((vector_size(16)));
	typedef int32_t v4i __attribute__((vector_size(16)));
	v4f v = { x, 0.0f, 0.0f, 0.0f };
	v4i u = (v4i)v;
	v4i tiny = (v4f)(u & 0x7fffffff) < (v4f){ 0x1p-126f, 0.0f, 0.0f, 0.0f };
	return ((v4f)(u & ~(tiny & 0x7fffffff)))[0];
}

/* The approximate quotients (ptx_float.c has the other approximate
 * models), inline so that the native code (src/exec/native/) folds the op
 * and the flush and calls nothing:
 * div.approx.f32 (PTX ISA [fp] div): "a * (1/b)", max 2 ulp for |b| in
 * [2^-126, 2^126]; for 2^126 < |b| < 2^128 the result is 0 (NaN if a is
 * infinite).  Model: RN(a * RN(1/b)), each flushed with .ftz; the zero
 * gets the sign of a*b (the ISA says only "0").  Written as a * F(RN(1/b))
 * with F the flush, .ftz or not, and no test of b: RN(1/b) is below 2^-126
 * exactly when |b| > 2^126 (at 2^126 it is 2^-126 itself), that is for b
 * in the range above, F making it the zero of b's sign, so a times it is
 * the zero of a*b's sign, NaN for an infinite or NaN a, as the ISA says;
 * or for b = +-inf, where RN(1/b) is already that zero.  Elsewhere F
 * changes nothing.
 * div.full.f32: 2 ulp documented; model: the IEEE quotient.
 * rcp.approx.f32: 1 ulp documented; model: RN(1/a).
 * op is one of these three; a, b and the result flushed with ftz. */
static inline float ptx_f32_quot(int op, float a, float b, int ftz)
{
	float r;
	if (ftz) {
		a = ptx_ftz32(a);
		b = ptx_ftz32(b);
	}
	if (op == PTX_DIV_APPROX_F32)
		r = a * ptx_ftz32(1.0f / b);
	else if (op == PTX_DIV_FULL_F32)
		r = a / b;
	else
		r = 1.0f / a;
	return ftz ? ptx_ftz32(r) : r;
}

/* ex2.approx.f32 (PTX ISA: max 2 ulp), a and the result flushed with
 * ftz, inline as the quotients.  Model: libm's double exp2, rounded to
 * float.  2^a is beyond FLT_MAX from a = 128 (2^128 itself rounds to inf)
 * and at most half the smallest subnormal (2^-150, a tie that rounds to
 * 0) up to a = -150: the float is inf or +0 there, without exp2's slow
 * overflow and underflow paths (errno). */
static inline float ptx_f32_ex2(float a, int ftz)
{
	if (ftz)
		a = ptx_ftz32(a);
	float r = a >= 128.0f ? INFINITY : a <= -150.0f ? 0.0f : (float)exp2((double)a);
	return ftz ? ptx_ftz32(r) : r;
}

/* .sat: clamp to [0, 1]; NaN -> +0 (ISA).  -0 -> +0 is an assumption
 * (saturation as max(+0, min(x, 1)) with -0 < +0), to verify on a GPU. */
static inline float ptx_sat32(float x)
{
	if (!(x > 0.0f))
		return 0.0f;
	return x > 1.0f ? 1.0f : x;
}

static inline double ptx_sat64(double x)
{
	if (!(x > 0.0))
		return 0.0;
	return x > 1.0 ? 1.0 : x;
}

/* The register bits of an f32 result: .ftz, .sat, then NaN made
 * canonical.  .ftz flushes a result whose ROUNDED value (rounded as IEEE
 * does, to the subnormal grid) is below 2^-126, so an exact value just
 * below 2^-126 that rounds up to 2^-126 is kept: tininess judged after
 * rounding.  The ISA does not say which (reference/cuda-accuracy.md);
 * this is an assumption to verify on a GPU. */
static inline uint64_t ptx_res32(float r, unsigned flags)
{
	if (flags & PTX_F_FTZ)
		r = ptx_ftz32(r);
	if (flags & PTX_F_SAT)
		r = ptx_sat32(r);
	return r != r ? PTX_F32_QNAN : ptx_bits32(r);
}

static inline int ptx_isnan64(uint64_t u)
{
	return (u & ~(1ull << 63)) > 0x7ff0000000000000ull;
}

/* An f64 NaN result, as sm_90 makes it (kernels/ptx-insns.txt,
 * docs/gpu-results.md): a NaN operand made quiet, its sign and payload
 * kept, b's first, then (fma) c's, then a's; with no NaN operand (an
 * invalid operation: 0 * inf, inf - inf, 0/0, sqrt of a negative) the
 * default NaN 0xfff8000000000000.  n: the operands the operation reads. */
static inline uint64_t ptx_nan64(uint64_t a, uint64_t b, uint64_t c, int n)
{
	const uint64_t quiet = 1ull << 51;
	if (n >= 2 && ptx_isnan64(b))
		return b | quiet;
	if (n >= 3 && ptx_isnan64(c))
		return c | quiet;
	if (ptx_isnan64(a))
		return a | quiet;
	return 0xfff8000000000000ull;
}

/* div.f64 (a software sequence on the GPU): a's NaN first, then b's
 * (sm_90). */
static inline uint64_t ptx_nan64_div(uint64_t a, uint64_t b)
{
	return ptx_nan64(b, a, 0, 2);
}

static inline uint64_t ptx_res64(double r, unsigned flags)
{
	if (flags & PTX_F_SAT)
		r = ptx_sat64(r);
	return r != r ? PTX_F64_QNAN : ptx_bits64(r);
}

/* min/max (PTX ISA [fp] min, max): a NaN operand yields the other one,
 * two NaNs (or any NaN with .NaN) the canonical NaN; -0 is below +0.
 * Returns the result bits.  is_max selects max. */
static inline uint64_t ptx_minmax32(float a, float b, int is_max, unsigned fl)
{
	if (a != a || b != b) {
		if ((fl & PTX_F_NAN) || (a != a && b != b))
			return PTX_F32_QNAN;
		return ptx_bits32(a != a ? b : a);
	}
	int a_first = a == b ? (signbit(a) != 0) != is_max : (a < b) != is_max;
	return ptx_bits32(a_first ? a : b);
}

static inline uint64_t ptx_minmax64(double a, double b, int is_max, unsigned fl)
{
	if (a != a || b != b) {
		if (a != a && b != b)   /* sm_90: b's NaN, quiet */
			return ptx_nan64(ptx_bits64(a), ptx_bits64(b), 0, 2);
		if (fl & PTX_F_NAN)
			return PTX_F64_QNAN;
		return ptx_bits64(a != a ? b : a);
	}
	int a_first = a == b ? (signbit(a) != 0) != is_max : (a < b) != is_max;
	return ptx_bits64(a_first ? a : b);
}

/* setp on floats: result of compare `cmp` (enum ptx_cmp). */
static inline int ptx_fcmp(double a, double b, int cmp)
{
	int un = a != a || b != b;
	switch (cmp) {
	case PTX_CMP_EQ: return !un && a == b;
	case PTX_CMP_NE: return !un && a != b;
	case PTX_CMP_LT: return !un && a < b;
	case PTX_CMP_LE: return !un && a <= b;
	case PTX_CMP_GT: return !un && a > b;
	case PTX_CMP_GE: return !un && a >= b;
	case PTX_CMP_EQU: return un || a == b;
	case PTX_CMP_NEU: return un || a != b;
	case PTX_CMP_LTU: return un || a < b;
	case PTX_CMP_LEU: return un || a <= b;
	case PTX_CMP_GTU: return un || a > b;
	case PTX_CMP_GEU: return un || a >= b;
	case PTX_CMP_NUM: return !un;
	default: return un;   /* nan */
	}
}

#endif

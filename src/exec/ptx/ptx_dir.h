/* ptx_dir.h — f32 and f64 arithmetic in the directed rounding modes
 * (.rz, .rm, .rp) without changing the host's rounding mode, so that an
 * instruction costs a few operations, not two fesetround calls.
 *
 * Method.  Let X be the exact result of the operation.  The host computes
 * h, X rounded to nearest in a format at least as wide as the result's,
 * together with the sign t of X - h, exactly:
 *   f32 operands in double: a + b and a*b + c by TwoSum (the product of
 *   two floats is exact in double, and TwoSum's error term is exact when
 *   nothing overflows, which no f32 operand can make a double do), a*b
 *   exact, a / b and sqrt a through the remainder a - h*b and a - h*h,
 *   which an FMA gives exactly (the remainder of a round-to-nearest
 *   quotient or square root is representable when it does not underflow:
 *   f32 operands keep it above 2^-600);
 *   f64: the same in double, except near the ends of the range (a result
 *   or operand beyond 2^+-960, where an error term may underflow: see
 *   f64_exact), and for fma, whose error needs three terms; those few
 *   cases run as before, in the requested mode through fesetround.
 * The result r is RN(h) in the result's format (r = h for f64).  r and h
 * are both doubles and |X - h| is below half a double spacing at h, so
 * r > h implies r > X, r < h implies r < X, and r = h gives the sign of
 * r - X from t.  Rounding toward zero, down or up is then r itself or its
 * neighbour one encoding toward zero, -inf or +inf: IEEE's directed result
 * is the representable number nearest X on the requested side, and r is
 * the nearest one on either side.  This covers overflow (RN's infinity
 * for a finite X steps back to the largest finite value; a finite r below
 * an X beyond it steps up to infinity) and underflow (the subnormal grid
 * and its zeros are steps like any other).
 * An exact zero X of a sum takes IEEE's sign (754-2008 6.3): +0 unless
 * rounding down, where -0, and a sum of two zeros of one sign keeps it;
 * infinities, NaN and exact zeros of products and quotients are exact
 * and RN's result stands.
 *
 * The f32 operations are here, inline, so that the interpreter's cases
 * and native code (native_rt.h) fold the operation and the mode; the f64
 * ones are ptx_dir.c's, with what they share of this. */
#ifndef UB_PTX_DIR_H
#define UB_PTX_DIR_H

#include "ptx_num.h"

/* TwoSum: s + *t = a + b exactly (no overflow). */
static inline double pdir_two_sum(double a, double b, double *t)
{
	double s = a + b, bb = s - a;
	*t = (a - (s - bb)) + (b - bb);
	return s;
}

/* Are the operands the operation reads all finite? */
static inline int pdir_finite_ops(int fop, double a, double b, double c)
{
	int n = fop == PTX_FOP_FMA ? 3 : fop == PTX_FOP_RCP || fop == PTX_FOP_SQRT ? 1 : 2;
	return isfinite(a) && (n < 2 || isfinite(b)) && (n < 3 || isfinite(c));
}

static inline int pdir_sgn(double x)
{
	return (x > 0) - (x < 0);
}

/* The neighbour of the f32 encoding u toward +inf (up) or -inf. */
static inline uint32_t pdir_next32(uint32_t u, int up)
{
	int neg = (u >> 31) != 0;
	if ((u & 0x7fffffffu) == 0)   /* +-0: the smallest subnormal */
		return up ? 1u : 0x80000001u;
	return neg == up ? u - 1 : u + 1;
}

/* Which way r must move for mode rnd, given c = sign(r - X) and the sign
 * of X: +1 up, -1 down, 0 stay. */
static inline int pdir_direction(int rnd, int c, int xsign)
{
	switch (rnd) {
	case PTX_RND_RZ: return c * xsign > 0 ? -xsign : 0;
	case PTX_RND_RM: return c > 0 ? -1 : 0;
	case PTX_RND_RP: return c < 0 ? 1 : 0;
	default: return 0;
	}
}

/* The f32 result of X (h = RN(X) in double, t = sign(X - h)) in mode rnd. */
static inline float pdir_round32(double h, int t, int rnd)
{
	float r = (float)h;
	double rd = r;
	int c = rd > h ? 1 : rd < h ? -1 : -t;
	int d = pdir_direction(rnd, c, pdir_sgn(h));
	if (!d)
		return r;
	uint32_t u;
	memcpy(&u, &r, sizeof u);
	u = pdir_next32(u, d > 0);
	memcpy(&r, &u, sizeof r);
	return r;
}

/* An exact zero sum a + b (IEEE 754 6.3). */
static inline double pdir_zero_sum(double a, double b, int rnd)
{
	if (a == 0 && b == 0 && signbit(a) == signbit(b))
		return a;
	return rnd == PTX_RND_RM ? -0.0 : 0.0;
}

/* X = a + b (a, b finite doubles, their sum no overflow) in f32. */
static inline float pdir_sum32(double a, double b, int rnd)
{
	double t, h = pdir_two_sum(a, b, &t);
	if (h == 0 && t == 0)
		return (float)pdir_zero_sum(a, b, rnd);
	return pdir_round32(h, pdir_sgn(t), rnd);
}

/* RN's result of the operation: the directed result too when the
 * operands are not all finite, or it is an exact zero or infinity of a
 * product or quotient (no rounding happens). */
static inline float pdir_exact32(int fop, float a, float b, float c)
{
	switch (fop) {
	case PTX_FOP_ADD: return a + b;
	case PTX_FOP_SUB: return a - b;
	case PTX_FOP_MUL: return a * b;
	case PTX_FOP_FMA: return fmaf(a, b, c);
	case PTX_FOP_DIV: return a / b;
	case PTX_FOP_RCP: return 1.0f / a;
	default: return sqrtf(a);
	}
}

static inline float ptx_f32_rnd(int fop, int rnd, float a, float b, float c)
{
	double x = a, y = b, h;
	if (!pdir_finite_ops(fop, a, b, c))
		return pdir_exact32(fop, a, b, c);
	switch (fop) {
	case PTX_FOP_ADD: return pdir_sum32(x, y, rnd);
	case PTX_FOP_SUB: return pdir_sum32(x, -y, rnd);
	case PTX_FOP_MUL: return pdir_round32(x * y, 0, rnd);   /* exact in double */
	case PTX_FOP_FMA: return pdir_sum32(x * y, c, rnd);
	case PTX_FOP_RCP: x = 1, y = a; /* fall through */
	case PTX_FOP_DIV:
		if (x == 0 || y == 0)
			return pdir_exact32(fop, a, b, c);
		h = x / y;   /* X - h = r / y, r exact */
		return pdir_round32(h, pdir_sgn(fma(-h, y, x)) * pdir_sgn(y), rnd);
	default:
		if (!(x > 0))
			return sqrtf(a);   /* +-0, NaN */
		h = sqrt(x);
		return pdir_round32(h, pdir_sgn(fma(-h, h, x)), rnd);
	}
}

#endif

/* ptx_dir.c — f32 and f64 arithmetic in the directed rounding modes
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
 * and RN's result stands. */
#include "ptx_num.h"

#include <fenv.h>

/* TwoSum: s + *t = a + b exactly (no overflow). */
static inline double two_sum(double a, double b, double *t)
{
	double s = a + b, bb = s - a;
	*t = (a - (s - bb)) + (b - bb);
	return s;
}

/* Are the operands the operation reads all finite? */
static inline int finite_ops(int fop, double a, double b, double c)
{
	int n = fop == PTX_FOP_FMA ? 3 : fop == PTX_FOP_RCP || fop == PTX_FOP_SQRT ? 1 : 2;
	return isfinite(a) && (n < 2 || isfinite(b)) && (n < 3 || isfinite(c));
}

static inline int sgn(double x)
{
	return (x > 0) - (x < 0);
}

/* The neighbour of the f32 encoding u toward +inf (up) or -inf. */
static inline uint32_t next32(uint32_t u, int up)
{
	int neg = (u >> 31) != 0;
	if ((u & 0x7fffffffu) == 0)   /* +-0: the smallest subnormal */
		return up ? 1u : 0x80000001u;
	return neg == up ? u - 1 : u + 1;
}

static inline uint64_t next64(uint64_t u, int up)
{
	int neg = (u >> 63) != 0;
	if ((u & ~(1ull << 63)) == 0)
		return up ? 1u : (1ull << 63) | 1u;
	return neg == up ? u - 1 : u + 1;
}

/* Which way r must move for mode rnd, given c = sign(r - X) and the sign
 * of X: +1 up, -1 down, 0 stay. */
static inline int direction(int rnd, int c, int xsign)
{
	switch (rnd) {
	case PTX_RND_RZ: return c * xsign > 0 ? -xsign : 0;
	case PTX_RND_RM: return c > 0 ? -1 : 0;
	case PTX_RND_RP: return c < 0 ? 1 : 0;
	default: return 0;
	}
}

/* The f32 result of X (h = RN(X) in double, t = sign(X - h)) in mode rnd. */
static float round32(double h, int t, int rnd)
{
	float r = (float)h;
	double rd = r;
	int c = rd > h ? 1 : rd < h ? -1 : -t;
	int d = direction(rnd, c, sgn(h));
	if (!d)
		return r;
	uint32_t u;
	memcpy(&u, &r, sizeof u);
	u = next32(u, d > 0);
	memcpy(&r, &u, sizeof r);
	return r;
}

static double round64(double h, int t, int rnd)
{
	int d = direction(rnd, -t, sgn(h));
	if (!d)
		return h;
	uint64_t u;
	memcpy(&u, &h, sizeof u);
	u = next64(u, d > 0);
	memcpy(&h, &u, sizeof h);
	return h;
}

/* An exact zero sum a + b (IEEE 754 6.3). */
static inline double zero_sum(double a, double b, int rnd)
{
	if (a == 0 && b == 0 && signbit(a) == signbit(b))
		return a;
	return rnd == PTX_RND_RM ? -0.0 : 0.0;
}

/* X = a + b (a, b finite doubles, their sum no overflow) in f32. */
static float sum32(double a, double b, int rnd)
{
	double t, h = two_sum(a, b, &t);
	if (h == 0 && t == 0)
		return (float)zero_sum(a, b, rnd);
	return round32(h, sgn(t), rnd);
}

/* RN's result of the operation: the directed result too when the
 * operands are not all finite, or it is an exact zero or infinity of a
 * product or quotient (no rounding happens). */
static float exact32(int fop, float a, float b, float c)
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

float ptx_f32_rnd(int fop, int rnd, float a, float b, float c)
{
	double x = a, y = b, h;
	if (!finite_ops(fop, a, b, c))
		return exact32(fop, a, b, c);
	switch (fop) {
	case PTX_FOP_ADD: return sum32(x, y, rnd);
	case PTX_FOP_SUB: return sum32(x, -y, rnd);
	case PTX_FOP_MUL: return round32(x * y, 0, rnd);   /* exact in double */
	case PTX_FOP_FMA: return sum32(x * y, c, rnd);
	case PTX_FOP_RCP: x = 1, y = a; /* fall through */
	case PTX_FOP_DIV:
		if (x == 0 || y == 0)
			return exact32(fop, a, b, c);
		h = x / y;   /* X - h = r / y, r exact */
		return round32(h, sgn(fma(-h, y, x)) * sgn(y), rnd);
	default:
		if (!(x > 0))
			return sqrtf(a);   /* +-0, NaN */
		h = sqrt(x);
		return round32(h, sgn(fma(-h, h, x)), rnd);
	}
}

/* The old way, for the f64 cases f64_exact leaves out: the IEEE
 * operation in mode rnd, operands through volatile variables so the
 * compiler can neither fold nor move it across the mode switch (GCC's
 * -frounding-math alone does not promise that); the caller's mode is
 * round-to-nearest again on return. */
static double f64_fenv(int fop, int rnd, double a, double b, double c)
{
	static const int fe_mode[] = {
		[PTX_RND_RN] = FE_TONEAREST, [PTX_RND_RZ] = FE_TOWARDZERO,
		[PTX_RND_RM] = FE_DOWNWARD, [PTX_RND_RP] = FE_UPWARD
	};
	volatile double va = a, vb = b, vc = c, vr = 0.0;
	fesetround(fe_mode[rnd]);
	switch (fop) {
	case PTX_FOP_ADD: vr = va + vb; break;
	case PTX_FOP_SUB: vr = va - vb; break;
	case PTX_FOP_MUL: vr = va * vb; break;
	case PTX_FOP_FMA: vr = fma(va, vb, vc); break;
	case PTX_FOP_DIV: vr = va / vb; break;
	case PTX_FOP_RCP: vr = 1.0 / va; break;
	case PTX_FOP_SQRT: vr = sqrt(va); break;
	}
	fesetround(FE_TONEAREST);
	return vr;
}

/* |x| within [2^-960, 2^960]: error terms of products, quotients and
 * square roots of such values neither underflow nor overflow. */
static inline int mid(double x)
{
	double m = fabs(x);
	return m >= 0x1p-960 && m <= 0x1p960;
}

/* f64: *t = sign(X - h) for h = RN(X), or 0 when that is not known here
 * (then the caller uses f64_fenv). */
static int f64_exact(int fop, double a, double b, double h, int *t)
{
	double e;
	switch (fop) {
	case PTX_FOP_ADD: case PTX_FOP_SUB:
		if (isinf(h))   /* overflow: X is finite, below h in magnitude */
			return *t = -sgn(h), 1;
		two_sum(a, fop == PTX_FOP_SUB ? -b : b, &e);
		return *t = sgn(e), 1;
	case PTX_FOP_MUL:
		if (!mid(a) || !mid(b) || !mid(h))
			return 0;
		return *t = sgn(fma(a, b, -h)), 1;
	case PTX_FOP_RCP: b = a, a = 1; /* fall through */
	case PTX_FOP_DIV:
		if (!mid(a) || !mid(b) || !mid(h))
			return 0;
		return *t = sgn(fma(-h, b, a)) * sgn(b), 1;
	case PTX_FOP_SQRT:
		if (!mid(a))
			return 0;
		return *t = sgn(fma(-h, h, a)), 1;
	default:   /* fma */
		return 0;
	}
}

double ptx_f64_rnd(int fop, int rnd, double a, double b, double c)
{
	double h;
	int t;
	switch (fop) {
	case PTX_FOP_ADD: h = a + b; break;
	case PTX_FOP_SUB: h = a - b; break;
	case PTX_FOP_MUL: h = a * b; break;
	case PTX_FOP_FMA: h = fma(a, b, c); break;
	case PTX_FOP_DIV: h = a / b; break;
	case PTX_FOP_RCP: h = 1.0 / a; break;
	default: h = sqrt(a); break;
	}
	if (!finite_ops(fop, a, b, c) || isnan(h))
		return h;   /* no rounding: inf, NaN */
	if ((fop == PTX_FOP_ADD || fop == PTX_FOP_SUB) && h == 0) {
		double t2;
		two_sum(a, fop == PTX_FOP_SUB ? -b : b, &t2);
		if (t2 == 0)   /* an exact zero sum */
			return zero_sum(a, fop == PTX_FOP_SUB ? -b : b, rnd);
	}
	if ((fop == PTX_FOP_MUL && (a == 0 || b == 0)) ||
	    ((fop == PTX_FOP_DIV || fop == PTX_FOP_RCP) &&
	     ((fop == PTX_FOP_DIV ? a : 1) == 0 || (fop == PTX_FOP_DIV ? b : a) == 0)) ||
	    (fop == PTX_FOP_SQRT && a == 0))
		return h;   /* exact zeros and infinities */
	if (!f64_exact(fop, a, b, h, &t))
		return f64_fenv(fop, rnd, a, b, c);
	return round64(h, t, rnd);
}

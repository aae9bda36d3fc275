/* ptx_dir.c — f64 arithmetic in the directed rounding modes (.rz, .rm,
 * .rp) without changing the host's rounding mode but where it must; the
 * method and the f32 operations are ptx_dir.h's. */
#include "ptx_dir.h"

#include <fenv.h>

static inline uint64_t next64(uint64_t u, int up)
{
	int neg = (u >> 63) != 0;
	if ((u & ~(1ull << 63)) == 0)
		return up ? 1u : (1ull << 63) | 1u;
	return neg == up ? u - 1 : u + 1;
}

static double round64(double h, int t, int rnd)
{
	int d = pdir_direction(rnd, -t, pdir_sgn(h));
	if (!d)
		return h;
	uint64_t u;
	memcpy(&u, &h, sizeof u);
	u = next64(u, d > 0);
	memcpy(&h, &u, sizeof h);
	return h;
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
			return *t = -pdir_sgn(h), 1;
		pdir_two_sum(a, fop == PTX_FOP_SUB ? -b : b, &e);
		return *t = pdir_sgn(e), 1;
	case PTX_FOP_MUL:
		if (!mid(a) || !mid(b) || !mid(h))
			return 0;
		return *t = pdir_sgn(fma(a, b, -h)), 1;
	case PTX_FOP_RCP: b = a, a = 1; /* fall through */
	case PTX_FOP_DIV:
		if (!mid(a) || !mid(b) || !mid(h))
			return 0;
		return *t = pdir_sgn(fma(-h, b, a)) * pdir_sgn(b), 1;
	case PTX_FOP_SQRT:
		if (!mid(a))
			return 0;
		return *t = pdir_sgn(fma(-h, h, a)), 1;
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
	if (!pdir_finite_ops(fop, a, b, c) || isnan(h))
		return h;   /* no rounding: inf, NaN */
	if ((fop == PTX_FOP_ADD || fop == PTX_FOP_SUB) && h == 0) {
		double t2;
		pdir_two_sum(a, fop == PTX_FOP_SUB ? -b : b, &t2);
		if (t2 == 0)   /* an exact zero sum */
			return pdir_zero_sum(a, fop == PTX_FOP_SUB ? -b : b, rnd);
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

/* approx.c — the instruction table and the predictors of approx.h.
 *
 * Each predictor is exact math evaluated in double with IEEE operations
 * only, to about 1e-15 relative (polynomial terms bounded in the comments),
 * then rounded once to float: the correctly rounded value except within
 * about 2^-29 ulp of a float rounding boundary, and the same bits on every
 * machine (built with -ffp-contract=off; fma() is IEEE's fused operation;
 * ldexp, frexp, nearbyint and nextafterf are exact). */
#include "approx.h"
#include "ub.h"

#include <math.h>
#include <string.h>

const struct ub_approx_info ub_approx[UB_NAPPROX] = {
#define X(id, ptx, fn, ftz, fmt, e0, e1) [id] = {ptx, fn, ftz, fmt, {e0, e1}},
	UB_APPROX_INSNS(X)
#undef X
};

int ub_approx_find(const char *ptx)
{
	for (int i = 0; i < UB_NAPPROX; i++)
		if (strcmp(ub_approx[i].ptx, ptx) == 0)
			return i;
	return -1;
}

static float f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static uint32_t bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return f != f ? 0x7fffffffu : u;
}

static float flush(float f)
{
	return fpclassify(f) == FP_SUBNORMAL ? copysignf(0.0f, f) : f;
}

#define LN2 0x1.62e42fefa39efp-1      /* ~0.693 = ln 2, rounded */
#define LN2_HI 0x1.62e42fefa3800p-1   /* ln 2 in 42 bits: k * LN2_HI exact */
#define LN2_LO 0x1.ef35793c7673p-45   /* ln 2 - LN2_HI */
#define LOG2E 0x1.71547652b82fep0     /* ~1.443 = 1/ln 2 */
#define TWO_PI 0x1.921fb54442d18p2    /* ~6.283 = 2 pi */

/* 1/k! for k = 0..23 (decimal constants, converted at compile time by
 * correct rounding; those past 18! are not exact, which costs nothing). */
static const double inv_fact[24] = {
	1.0, 1.0, 1.0 / 2, 1.0 / 6, 1.0 / 24, 1.0 / 120, 1.0 / 720, 1.0 / 5040,
	1.0 / 40320, 1.0 / 362880, 1.0 / 3628800, 1.0 / 39916800,
	1.0 / 479001600, 1.0 / 6227020800.0, 1.0 / 87178291200.0,
	1.0 / 1307674368000.0, 1.0 / 20922789888000.0, 1.0 / 355687428096000.0,
	1.0 / 6402373705728000.0, 1.0 / 121645100408832000.0,
	1.0 / 2432902008176640000.0, 1.0 / 51090942171709440000.0,
	1.0 / 1124000727777607680000.0, 1.0 / 25852016738884976640000.0,
};

/* e^r for |r| <= 0.35: Taylor to degree 14 (next term < 0.35^15/15! ~ 1e-19). */
static double exp_small(double r)
{
	double p = inv_fact[14];
	for (int k = 13; k >= 0; k--)
		p = fma(p, r, inv_fact[k]);
	return p;
}

/* e^y - 1 for y >= 0 (finite): Taylor to degree 18 for y < 0.5 (next term
 * < 0.5^19/19! ~ 1e-23 relative to y), else e^y - 1 with y = k ln2 + r. */
static double expm1_pos(double y)
{
	if (y < 0.5) {
		double p = inv_fact[18];
		for (int k = 17; k >= 1; k--)
			p = fma(p, y, inv_fact[k]);
		return p * y;
	}
	double k = nearbyint(y * LOG2E);
	double r = fma(-k, LN2_LO, fma(-k, LN2_HI, y));
	return ldexp(exp_small(r), (int)k) - 1.0;
}

/* 2^x: x = k + f with |f| <= 1/2 exactly, 2^f = e^(f ln 2). */
static double ex2(double x)
{
	if (x != x)
		return x;
	if (x > 1100)
		return INFINITY;
	if (x < -1100)
		return 0;
	double k = nearbyint(x);
	return ldexp(exp_small((x - k) * LN2), (int)k);
}

/* log2(x) for x > 0 finite: x = m 2^e, m in [sqrt(1/2), sqrt(2)),
 * ln m = 2 atanh(s), s = (m-1)/(m+1), |s| <= 0.172: series to s^41
 * (next term < 0.172^43 ~ 1e-33). */
static double lg2(double x)
{
	int e;
	double m = frexp(x, &e);
	if (m < 0x1.6a09e667f3bcdp-1) { /* sqrt(1/2) */
		m *= 2;
		e--;
	}
	double s = (m - 1) / (m + 1), s2 = s * s, p = 0;
	for (int k = 41; k >= 1; k -= 2)
		p = fma(p, s2, 1.0 / k);
	return e + 2 * s * p * LOG2E;
}

/* sin and cos of a for |a| <= pi/4: Taylor to degree 23 / 22 (next terms
 * < 0.79^25/25! ~ 1e-27). */
static double sin_a(double a)
{
	double a2 = a * a, p = 0;
	for (int k = 23; k >= 1; k -= 2)
		p = fma(p, a2, (k / 2 % 2 ? -1 : 1) * inv_fact[k]);
	return p * a;
}

static double cos_a(double a)
{
	double a2 = a * a, p = 0;
	for (int k = 22; k >= 0; k -= 2)
		p = fma(p, a2, (k / 2 % 2 ? -1 : 1) * inv_fact[k]);
	return p;
}

/* sin or cos of 2 pi t for a float t: r = t - round(t) and u = r - q/4
 * are exact (their bits are t's), the quadrant q picks the function.
 * Exact zeros as IEEE 754's sinPi and cosPi give them: sin's with the sign
 * of t, cos's positive. */
static double sincos_turns(double t, int cosine)
{
	double r = t - nearbyint(t), q = nearbyint(4 * r), u = r - q / 4;
	double a = TWO_PI * u, v;
	switch (((int)q + 4 + cosine) % 4) { /* cos(x) = sin(x + 1/4 turn) */
	case 0: v = sin_a(a); break;
	case 1: v = cos_a(a); break;
	case 2: v = -sin_a(a); break;
	default: v = -cos_a(a); break;
	}
	return v != 0 ? v : cosine ? 0.0 : copysign(0.0, t);
}

/* x * 0x3e22f983 (~0.159 = 1/2pi) rounded toward zero to float: the
 * product of two floats is exact in double. */
static float turns(float x)
{
	double p = (double)x * (double)f32(0x3e22f983u);
	float f = (float)p;
	return fabs((double)f) > fabs(p) ? nextafterf(f, 0.0f) : f;
}

static double tanh_d(double x)
{
	if (x != x)
		return x;
	double ax = fabs(x);
	if (ax > 20) /* tanh(20) = 1 - 8e-18: 1 in float */
		return copysign(1.0, x);
	double em1 = expm1_pos(2 * ax);
	return copysign(em1 / (em1 + 2), x);
}

static double eval(enum ub_approx_fn fn, float x)
{
	switch (fn) {
	case UB_AF_RCP: return 1.0f / x; /* IEEE float division */
	case UB_AF_SQRT: return sqrtf(x);
	case UB_AF_RSQRT: return 1.0 / sqrt((double)x);
	case UB_AF_EX2: return ex2(x);
	case UB_AF_LG2:
		if (x != x || x < 0)
			return NAN;
		return x == 0 ? -INFINITY : isinf(x) ? x : lg2(x);
	case UB_AF_SIN:
	case UB_AF_COS: {
		if (!isfinite(x))
			return NAN;
		float t = turns(x);
		return sincos_turns(t, fn == UB_AF_COS);
	}
	default: return tanh_d(x);
	}
}

uint32_t ub_approx_predict_at(enum ub_approx_fn fn, double x)
{
	if (fn == UB_AF_SIN || fn == UB_AF_COS)
		return bits((float)(isfinite(x) ? sincos_turns(x, fn == UB_AF_COS) : NAN));
	if (fn == UB_AF_EX2)
		return bits((float)ex2(x));
	return bits((float)eval(fn, (float)x));
}

/* v rounded once, to nearest even, to the format's precision (11 bits f16,
 * 8 bits bf16) and quanta (2^-24 and 2^-133 at the bottom); the result is a
 * float exactly, or past the largest finite value, which is infinity. */
static uint32_t to16(double v, int fmt)
{
	if (v != v)
		return 0x7fff;
	int prec = fmt == 17 ? 8 : 11, qmin = fmt == 17 ? -133 : -24, e;
	double a = fabs(v);
	uint32_t s = signbit(v) ? 0x8000u : 0;
	if (a != 0 && !isinf(a)) {
		frexp(a, &e); /* a = m 2^e, m in [0.5, 1) */
		int q = e - prec > qmin ? e - prec : qmin;
		a = ldexp(nearbyint(ldexp(a, -q)), q);
	}
	if (fmt == 17) {
		float f = a >= 0x1p128 ? INFINITY : (float)a; /* exact */
		return s | bits(f) >> 16;
	}
	if (a >= 65536.0)
		return s | 0x7c00;
	if (a < 0x1p-14) /* subnormal or zero: a multiple of 2^-24 */
		return s | (uint32_t)(a * 0x1p24);
	int ea;
	double m = frexp(a, &ea); /* 11 bits exactly */
	return s | (((uint32_t)(ea + 14) << 10) + (uint32_t)(m * 2048.0) - 0x400);
}

uint32_t ub_approx_predict(enum ub_approx_insn insn, uint32_t xb)
{
	const struct ub_approx_info *ai = &ub_approx[insn];
	if (ai->fmt != 32) { /* an f16 or bf16 value is a float exactly */
		float x = (float)ub_bits_to_double(ai->fmt == 17 ? UB_BF16 : UB_F16, xb & 0xffff);
		uint32_t r = to16(eval(ai->fn, ai->ftz ? flush(x) : x), ai->fmt);
		/* a flushed bf16 result: its exponent field is zero */
		return ai->ftz && (r & 0x7f80u) == 0 ? r & 0x8000u : r;
	}
	float x = f32(xb);
	if (ai->ftz)
		x = flush(x);
	float r = (float)eval(ai->fn, x);
	return bits(ai->ftz ? flush(r) : r);
}

/* mufu_model.h — table models of the GPU's special function unit (MUFU):
 * what rcp, rsqrt, sqrt, ex2, lg2, sin, cos and tanh .approx return, built
 * from outputs captured on a real GPU (scripts/mufu-probe.cu,
 * docs/approx-capture.md).
 *
 * Each model is a structure (which input bits the output depends on, and
 * how the rest follows by exact scaling) plus tables of outputs captured
 * over the inputs that structure needs; the probe checks a model against
 * the hardware on every one of the 2^32 inputs.  The same functions run
 * in the sim (C, with tables loaded from the capture) and on the GPU
 * inside the probe (CUDA C++, UB_MUFU_HD defined as __host__ __device__),
 * so what was checked on the GPU is what the sim computes.
 *
 * Only integer operations and IEEE double arithmetic whose results are
 * exact (products of two floats, sums of an integer and a float, scalings
 * by powers of two) or rounded once by a conversion to float: the same
 * bits on every machine, built with -ffp-contract=off (nvcc: -fmad=false).
 *
 * The .ftz forms are the bare MUFU instruction; the plain forms are the
 * scalings ptxas wraps around it (reference/mufu.md in the shared notes),
 * written here as the same IEEE operations. */
#ifndef UB_MUFU_MODEL_H
#define UB_MUFU_MODEL_H

#ifndef UB_MUFU_HD
#define UB_MUFU_HD
#endif
#define UB_MUFU static UB_MUFU_HD inline

typedef unsigned int ub_mufu_u32;
typedef unsigned long long ub_mufu_u64;

/* A table and its entry i: an array by default; the sim's compact tables
 * define both before including this file (mufu.c). */
#ifndef UB_MUFU_TAB
#define UB_MUFU_TAB const ub_mufu_u32 *
#define UB_MUFU_AT(T, i) ((T)[i])
#endif

#define UB_MUFU_NAN 0x7fffffffu   /* the GPU's canonical NaN */
#define UB_MUFU_INF 0x7f800000u
#define UB_MUFU_EMPTY 0xffffffffu /* a table entry no input reaches */

UB_MUFU float ub_mufu_f32(ub_mufu_u32 u)
{
	union { ub_mufu_u32 u; float f; } c;
	c.u = u;
	return c.f;
}

UB_MUFU ub_mufu_u32 ub_mufu_bits(float f)
{
	union { ub_mufu_u32 u; float f; } c;
	c.f = f;
	return f != f ? UB_MUFU_NAN : c.u;
}

/* A double rounded to nearest float (a conversion: one IEEE rounding). */
UB_MUFU ub_mufu_u32 ub_mufu_rn(double d)
{
	return ub_mufu_bits((float)d);
}

/* r (a positive normal float's bits, or +0 or +inf) times 2^d: the
 * exponent field moved, a result below 2^-126 flushed to +0 (the .ftz core
 * returns no subnormal), one past the largest finite +inf. */
UB_MUFU ub_mufu_u32 ub_mufu_scale(ub_mufu_u32 r, int d)
{
	int e = (int)(r >> 23);
	if (e == 0 || e == 255)
		return r;
	e += d;
	if (e <= 0)
		return 0;
	if (e >= 255)
		return UB_MUFU_INF;
	return (ub_mufu_u32)e << 23 | (r & 0x7fffffu);
}

/* x (finite) times 2^F as a fixed-point integer, rounded by q: 0 floor
 * (two's complement, toward -inf), 1 toward zero, 2 to nearest even.  The
 * low 64 bits of the two's complement integer (exact while |x| 2^F <
 * 2^63). */
UB_MUFU ub_mufu_u64 ub_mufu_fixed(ub_mufu_u32 x, int F, int q)
{
	ub_mufu_u32 a = x & 0x7fffffffu;
	int neg = (int)(x >> 31), e = (int)(a >> 23);
	ub_mufu_u64 m = a & 0x7fffffu, mag, rem = 0, half = 0;
	if (e)
		m |= 0x800000u;
	int sh = (e ? e : 1) - 150 + F; /* |x| 2^F = m 2^sh */
	if (sh >= 64) {
		mag = 0;
	} else if (sh >= 0) {
		mag = m << sh;
	} else if (sh > -40) {
		mag = m >> -sh;
		rem = m & ((1ull << -sh) - 1);
		half = 1ull << (-sh - 1);
	} else {
		mag = 0;
		rem = m;
		half = ~0ull; /* below a half */
	}
	if (q == 0 && neg && rem)
		mag++;
	else if (q == 2 && (rem > half || (rem == half && rem && (mag & 1))))
		mag++;
	return neg ? 0 - mag : mag;
}

/* --- rcp: 1/x ---------------------------------------------------------
 * MUFU.RCP(+-2^e 1.m) = +-2^-e T[m], T the outputs over [1, 2); zeros and
 * subnormals (flushed) give +-inf, infinities +-0, a result below 2^-126
 * +-0. */
UB_MUFU ub_mufu_u32 ub_mufu_rcp(UB_MUFU_TAB T, ub_mufu_u32 x)
{
	ub_mufu_u32 s = x & 0x80000000u, a = x & 0x7fffffffu;
	if (a > UB_MUFU_INF)
		return UB_MUFU_NAN;
	if (a == UB_MUFU_INF)
		return s;
	if (a < 0x00800000u)
		return s | UB_MUFU_INF;
	return s | ub_mufu_scale(UB_MUFU_AT(T, a & 0x7fffffu), 127 - (int)(a >> 23));
}

/* rcp.approx.f32 (no .ftz): ptxas scales x by s = 2^24 where |x| < 2^-126
 * and by 1/4 where |x| > 2^126, then r = RN(MUFU.RCP(RN(x s)) s). */
UB_MUFU ub_mufu_u32 ub_mufu_rcp_full(UB_MUFU_TAB T, ub_mufu_u32 x)
{
	ub_mufu_u32 a = x & 0x7fffffffu;
	if (a > UB_MUFU_INF)
		return UB_MUFU_NAN;
	double s = a < 0x00800000u ? 0x1p24 : a > 0x7e800000u ? 0.25 : 1.0;
	ub_mufu_u32 y = ub_mufu_rn((double)ub_mufu_f32(x) * s);
	return ub_mufu_rn((double)ub_mufu_f32(ub_mufu_rcp(T, y)) * s);
}

/* --- div.approx and div.full: products with MUFU.RCP --------------------
 * FMUL: the product of two floats is exact in double, then rounded to
 * nearest once; with .FTZ the inputs are flushed, and so is a product
 * whose value rounded to 24 bits with an unbounded exponent is below
 * 2^-126 (as mul.ftz.f32 on sm_90: tininess after rounding, decided at
 * 24 bits, not on the subnormal grid; ptx_cases.h). */
UB_MUFU ub_mufu_u32 ub_mufu_mul(ub_mufu_u32 a, ub_mufu_u32 b, int ftz)
{
	if (ftz) {
		if ((a & 0x7fffffffu) < 0x00800000u)
			a &= 0x80000000u;
		if ((b & 0x7fffffffu) < 0x00800000u)
			b &= 0x80000000u;
	}
	double p = (double)ub_mufu_f32(a) * (double)ub_mufu_f32(b);
	ub_mufu_u32 r = ub_mufu_rn(p);
	if (ftz && (r & 0x7fffffffu) < 0x00800000u)
		return r & 0x80000000u;
	if (ftz && (r & 0x7fffffffu) == 0x00800000u) {
		float t = (float)(p * 0x1p128); /* in [2, 4]: RN to 24 bits */
		if (t < 4.0f && t > -4.0f)
			return r & 0x80000000u;
	}
	return r;
}

/* What ptxas 13.0 emits for sm_90 (the SASS of each form):
 * div.approx.ftz.f32: FMUL.FTZ(a, MUFU.RCP(b));
 * div.approx.f32: a subnormal or zero b and a scaled by 2^24 first (FMUL),
 *   then FMUL(MUFU.RCP(b'), a');
 * div.full.ftz.f32: where |b| > 2^126 (b flushed), b and a scaled by 1/4
 *   (FMUL.FTZ), then FMUL.FTZ(MUFU.RCP(b'), a');
 * div.full.f32: b and a scaled by 1/4 where |b| > 2^126, by 2^24 where b
 *   is subnormal or zero, then FMUL(MUFU.RCP(b'), a').
 * full: 0 div.approx, 1 div.full. */
UB_MUFU ub_mufu_u32 ub_mufu_div(UB_MUFU_TAB T, int full, int ftz, ub_mufu_u32 a, ub_mufu_u32 b)
{
	ub_mufu_u32 m = b & 0x7fffffffu;
	if (ftz) {
		if (full && m < 0x00800000u)
			m = 0; /* the compare reads b flushed */
		if (full && m > 0x7e800000u && m <= UB_MUFU_INF) {
			a = ub_mufu_mul(a, 0x3e800000u, 1);
			b = ub_mufu_mul(b, 0x3e800000u, 1);
		}
		return ub_mufu_mul(ub_mufu_rcp(T, b), a, 1);
	}
	if (full && m > 0x7e800000u && m <= UB_MUFU_INF) {
		a = ub_mufu_mul(a, 0x3e800000u, 0);
		b = ub_mufu_mul(b, 0x3e800000u, 0);
	} else if (m < 0x00800000u) {
		a = ub_mufu_mul(a, 0x4b800000u, 0);
		b = ub_mufu_mul(b, 0x4b800000u, 0);
	}
	return ub_mufu_mul(ub_mufu_rcp(T, b), a, 0);
}

/* --- rsqrt and sqrt ---------------------------------------------------
 * x = 2^e 1.m with e = 2k + p (p = 0 or 1): MUFU.RSQ(x) = 2^-k R_p[m],
 * MUFU.SQRT(x) = 2^k S_p[m], R_0/S_0 the outputs over [1, 2) and R_1/S_1
 * over [2, 4).  Flushed zeros: rsqrt +-inf, sqrt +-0; other negatives
 * NaN; +inf: rsqrt +0, sqrt +inf. */
UB_MUFU ub_mufu_u32 ub_mufu_root(UB_MUFU_TAB T0, UB_MUFU_TAB T1,
				 int inverse, ub_mufu_u32 x)
{
	ub_mufu_u32 s = x & 0x80000000u, a = x & 0x7fffffffu;
	if (a > UB_MUFU_INF)
		return UB_MUFU_NAN;
	if (a < 0x00800000u)
		return s | (inverse ? UB_MUFU_INF : 0);
	if (s)
		return UB_MUFU_NAN;
	if (a == UB_MUFU_INF)
		return inverse ? 0 : UB_MUFU_INF;
	int e = (int)(a >> 23) - 127, k = e >> 1; /* floor(e/2): e = 2k + p */
	return ub_mufu_scale(UB_MUFU_AT((e & 1) ? T1 : T0, a & 0x7fffffu), inverse ? -k : k);
}

/* rsqrt.approx.f32 and sqrt.approx.f32 (no .ftz): a subnormal x is scaled
 * by 2^24 first and the result by 2^12 (rsqrt) or 2^-12 (sqrt) after. */
UB_MUFU ub_mufu_u32 ub_mufu_root_full(UB_MUFU_TAB T0, UB_MUFU_TAB T1,
				      int inverse, ub_mufu_u32 x)
{
	ub_mufu_u32 a = x & 0x7fffffffu;
	if (a == 0 || a >= 0x00800000u)
		return ub_mufu_root(T0, T1, inverse, x);
	ub_mufu_u32 y = ub_mufu_rn((double)ub_mufu_f32(x) * 0x1p24);
	double r = ub_mufu_f32(ub_mufu_root(T0, T1, inverse, y));
	return ub_mufu_rn(r * (inverse ? 0x1p12 : 0x1p-12));
}

/* --- ex2: 2^x ---------------------------------------------------------
 * |x| 2^F rounded to an integer M (by the variant v: 0 toward -inf on the
 * signed value, so |x| rounded down for x >= 0 and up for x < 0; 1 toward
 * zero; 2 to nearest even), M = 2^F i + f: MUFU.EX2(x) = 2^i T[0][f] for
 * x >= 0 and 2^-i T[1][f] for x < 0, T[s] one table of 2^F outputs for
 * each sign (T[0][f] the output at f/2^F, T[1][f] at -f/2^F).  Subnormal x
 * is flushed to a zero first; NaN gives NaN, x >= 1024 +inf, x <= -1024
 * +0. */
UB_MUFU ub_mufu_u32 ub_mufu_ex2(UB_MUFU_TAB T, int F, int v, ub_mufu_u32 x)
{
	ub_mufu_u32 a = x & 0x7fffffffu;
	if (a > UB_MUFU_INF)
		return UB_MUFU_NAN;
	if (a >= 0x44800000u) /* |x| >= 1024, inf included */
		return x >> 31 ? 0 : UB_MUFU_INF;
	if (a < 0x00800000u)
		a = 0;
	int neg = (int)(x >> 31) && a;
	ub_mufu_u64 q = ub_mufu_fixed(a | (ub_mufu_u32)neg << 31, F, v);
	ub_mufu_u64 mag = neg ? 0 - q : q;
	int i = (int)(mag >> F);
	return ub_mufu_scale(UB_MUFU_AT(T, (ub_mufu_u64)neg << F | (mag & ((1ull << F) - 1))),
			     neg ? -i : i);
}

/* ex2.approx.f32 (no .ftz): for x >= -126 the bare MUFU.EX2 (a subnormal
 * x is flushed by it); otherwise r = MUFU.EX2(x/2) and the result is
 * RN(r r), which may be subnormal. */
UB_MUFU ub_mufu_u32 ub_mufu_ex2_full(UB_MUFU_TAB T, int F, int v, ub_mufu_u32 x)
{
	float xf = ub_mufu_f32(x);
	if (xf >= -126.0f)
		return ub_mufu_ex2(T, F, v, x);
	ub_mufu_u32 h = ub_mufu_rn((double)xf * 0.5);
	double r = ub_mufu_f32(ub_mufu_ex2(T, F, v, h));
	return ub_mufu_rn(r * r);
}

/* --- lg2: log2 x ------------------------------------------------------
 * x = 2^e 1.m: the unit computes e + L(m) in fixed point and truncates it
 * toward zero to float, a negative sum after a ones' complement (so a
 * magnitude that lands exactly on a float is one unit below it).  With T0
 * and Tm1 the outputs over [1, 2) and [1/2, 1) (e = 0 and -1, which hold
 * L's finest bits): e = 0 gives T0[m], e = -1 Tm1[m], e > 0 RZ(e + T0[m]),
 * e < -1 -(the largest float below -e - T0[m]).  Flushed zeros give -inf,
 * negatives NaN, +inf +inf. */
UB_MUFU ub_mufu_u32 ub_mufu_rz(double d) /* d >= 0, below 2^128 */
{
	union { double d; ub_mufu_u64 u; } p;
	p.d = d;
	if (d >= 0x1p-126)
		p.u &= ~((1ull << 29) - 1);
	return ub_mufu_bits((float)p.d);
}

UB_MUFU ub_mufu_u32 ub_mufu_lg2(UB_MUFU_TAB T0, UB_MUFU_TAB Tm1, ub_mufu_u32 x)
{
	ub_mufu_u32 a = x & 0x7fffffffu, m = x & 0x7fffffu;
	if (a > UB_MUFU_INF)
		return UB_MUFU_NAN;
	if (a < 0x00800000u)
		return 0x80000000u | UB_MUFU_INF;
	if (x >> 31)
		return UB_MUFU_NAN;
	if (a == UB_MUFU_INF)
		return UB_MUFU_INF;
	int e = (int)(a >> 23) - 127;
	if (e == 0)
		return UB_MUFU_AT(T0, m);
	if (e == -1)
		return UB_MUFU_AT(Tm1, m);
	double l = (double)ub_mufu_f32(UB_MUFU_AT(T0, m)); /* exact sums below */
	if (e > 0)
		return ub_mufu_rz((double)e + l);
	double d = (double)-e - l;
	ub_mufu_u32 r = ub_mufu_rz(d);
	if ((double)ub_mufu_f32(r) == d)
		r--; /* the float below: d is positive, r above +0 */
	return 0x80000000u | r;
}

/* lg2.approx.f32 (no .ftz): a subnormal x is scaled by 2^24 first, and 24
 * subtracted from the result (RN). */
UB_MUFU ub_mufu_u32 ub_mufu_lg2_full(UB_MUFU_TAB T0, UB_MUFU_TAB Tm1,
				     ub_mufu_u32 x)
{
	ub_mufu_u32 a = x & 0x7fffffffu;
	if (a == 0 || a >= 0x00800000u)
		return ub_mufu_lg2(T0, Tm1, x);
	ub_mufu_u32 y = ub_mufu_rn((double)ub_mufu_f32(x) * 0x1p24);
	return ub_mufu_rn((double)ub_mufu_f32(ub_mufu_lg2(T0, Tm1, y)) - 24.0);
}

/* --- sin and cos ------------------------------------------------------
 * ptxas reduces x to turns first: t = RZ(x * 0x3e22f983) (1/2pi rounded),
 * flushed with .ftz.  The product of two floats is exact in double, so t
 * is that double truncated to float: its significand cut to 24 bits, or
 * to the subnormal grid below 2^-126. */
UB_MUFU ub_mufu_u32 ub_mufu_turns(ub_mufu_u32 x, int ftz)
{
	ub_mufu_u32 a = x & 0x7fffffffu;
	if (a >= UB_MUFU_INF)
		return a > UB_MUFU_INF ? UB_MUFU_NAN : x; /* inf: handled by the caller */
	if (ftz && a < 0x00800000u)
		return x & 0x80000000u;
	union { double d; ub_mufu_u64 u; } p;
	p.d = (double)ub_mufu_f32(x) * (double)ub_mufu_f32(0x3e22f983u);
	ub_mufu_u32 s = x & 0x80000000u;
	if (p.d >= 0x1p-126 || p.d <= -0x1p-126) {
		p.u &= ~((1ull << 29) - 1); /* 53 -> 24 significant bits */
		return ub_mufu_bits((float)p.d);
	}
	if (ftz)
		return s;
	double g = p.d * 0x1p149; /* exact; truncated to an integer */
	long long i = (long long)g;
	return s | (ub_mufu_u32)(i < 0 ? -i : i); /* the subnormal's bits */
}

/* MUFU.SIN / MUFU.COS of t: the fraction of t in W bits, rounded by q
 * (ub_mufu_fixed), indexes T; with sym, the fraction is of |t| and sin's
 * result takes t's sign (cos is even).  inf and NaN give NaN. */
UB_MUFU ub_mufu_u32 ub_mufu_sincos(UB_MUFU_TAB T, int W, int q, int sym,
				   int cosine, ub_mufu_u32 t)
{
	ub_mufu_u32 a = t & 0x7fffffffu;
	if (a >= UB_MUFU_INF)
		return UB_MUFU_NAN;
	ub_mufu_u64 v = ub_mufu_fixed(sym ? a : t, W, q);
	ub_mufu_u32 r = UB_MUFU_AT(T, v & ((1ull << W) - 1));
	return sym && !cosine ? r ^ (t & 0x80000000u) : r;
}

/* sin.approx.f32 / cos.approx.f32, .ftz or not: the core on t. */
UB_MUFU ub_mufu_u32 ub_mufu_sincos_x(UB_MUFU_TAB T, int W, int q, int sym,
				     int cosine, int ftz, ub_mufu_u32 x)
{
	if ((x & 0x7fffffffu) >= UB_MUFU_INF)
		return UB_MUFU_NAN;
	return ub_mufu_sincos(T, W, q, sym, cosine, ub_mufu_turns(x, ftz));
}

/* --- tanh -------------------------------------------------------------
 * MUFU.TANH(x) depends on |x| with its low k bits cleared, and is odd:
 * T[|x| >> k] with x's sign.  NaN gives NaN. */
UB_MUFU ub_mufu_u32 ub_mufu_tanh(UB_MUFU_TAB T, int k, ub_mufu_u32 x)
{
	ub_mufu_u32 a = x & 0x7fffffffu;
	if (a > UB_MUFU_INF)
		return UB_MUFU_NAN;
	return UB_MUFU_AT(T, a >> k) ^ (x & 0x80000000u);
}

#endif

/* ptx_cvt.c — cvt between integers of every width and f16, bf16, f32,
 * f64 (PTX ISA [data] cvt), done with integer arithmetic.
 *
 * Method: the source is decoded exactly into sign * mag * 2^exp (a float's
 * significand, or an integer's magnitude), then rounded ONCE to the
 * destination with the requested mode by ptx_round, so no conversion ever
 * rounds twice (f64 -> f16 or s64 -> bf16 included) and the host's
 * rounding mode plays no part.  Float -> integer rounds to an integral
 * value (.rni = nearest even, .rzi, .rmi, .rpi), saturates to the
 * destination range (PTX: float-to-integer conversions always clamp).
 * .ftz flushes f32 subnormal inputs and results; .sat clamps a float
 * result to [0, 1] (NaN -> +0).  NaN, as sm_90 converts it (cvt_nan,
 * measured: kernels/ptx-insns.txt, docs/gpu-results.md): to an integer 0,
 * or the most negative one (bit n-1) for a 64-bit destination or an f64
 * source; between floats, a conversion from or to f64 keeps the sign and
 * the payload's top bits and makes it quiet, bf16 -> f32 keeps every bit,
 * .ftz f32 -> f64 gives the canonical f32 NaN widened, the others the
 * canonical NaN of the format (f32 0x7fffffff, f16 and bf16 0x7fff). */
#include "ptx_cvt.h"
#include "ub_bits.h"

static const struct ptx_fmt F16 = { 11, -14, 15, 16 }, BF16 = { 8, -126, 127, 16 },
	F32 = { 24, -126, 127, 32 }, F64 = { 53, -1022, 1023, 64 };

const struct ptx_fmt *ptx_fmt_of(int ty)
{
	switch (ty) {
	case PTX_T_F16: case PTX_T_F16X2: return &F16;
	case PTX_T_BF16: case PTX_T_BF16X2: return &BF16;
	case PTX_T_F32: return &F32;
	default: return &F64;
	}
}

struct ptx_val ptx_decode(const struct ptx_fmt *f, uint64_t b)
{
	int fb = f->p - 1, eb = f->bits - 1 - fb;
	uint64_t m = b & ptx_mask((unsigned)fb), emax_field = ptx_mask((unsigned)eb);
	uint64_t e = (b >> fb) & emax_field;
	struct ptx_val v = { 1, (int)((b >> (f->bits - 1)) & 1), 0, m };
	if (e == emax_field)
		v.cls = m ? 3 : 2;
	else if (e == 0)
		v.cls = m ? 1 : 0, v.exp = f->emin - fb;
	else
		v.mag = m | 1ull << fb, v.exp = (int)e - (1 - f->emin) - fb;
	return v;
}

/* Rounds v to format f with mode rnd (PTX_RND_RN..RP), once. */
uint64_t ptx_round(const struct ptx_fmt *f, struct ptx_val v, int rnd)
{
	uint64_t sign = (uint64_t)v.sign << (f->bits - 1);
	uint64_t inf = (uint64_t)(f->emax - f->emin + 2) << (f->p - 1);
	if (v.cls == 3)
		return ptx_mask((unsigned)f->bits - 1);   /* canonical NaN */
	if (v.cls == 2)
		return sign | inf;
	if (v.cls == 0 || v.mag == 0)
		return sign;
	int e = 63 - __builtin_clzll(v.mag) + v.exp;      /* 2^e <= |v| < 2^(e+1) */
	if (e < f->emin)
		e = f->emin;
	int shift = e - f->p + 1 - v.exp;                  /* bits of mag to drop */
	uint64_t n, half = 0, rest = 0;
	if (shift <= 0) {
		n = v.mag << -shift;
	} else if (shift <= 64) {
		n = shift == 64 ? 0 : v.mag >> shift;
		half = (v.mag >> (shift - 1)) & 1;
		rest = v.mag & (ptx_mask((unsigned)shift) >> 1);
	} else {
		n = 0, rest = 1;
	}
	int inexact = half || rest, up;
	switch (rnd) {
	case PTX_RND_RZ: up = 0; break;
	case PTX_RND_RM: up = v.sign && inexact; break;
	case PTX_RND_RP: up = !v.sign && inexact; break;
	default: up = half && (rest || (n & 1)); break;
	}
	/* Subnormals have e = emin and n < 2^(p-1); a carry out of the
	 * significand moves into the exponent field by itself. */
	uint64_t enc = ((uint64_t)(e - f->emin) << (f->p - 1)) + n + (uint64_t)up;
	if (enc >= inf) {
		int to_inf = rnd == PTX_RND_RN || (rnd == PTX_RND_RM && v.sign) ||
			     (rnd == PTX_RND_RP && !v.sign);
		enc = to_inf ? inf : inf - 1;
	}
	return sign | enc;
}

/* The exact value of a decoded float (any source format fits a double):
 * mag * 2^exp is a double, so the product rounds nothing (ldexp's value,
 * without its call). */
double ptx_val_double(struct ptx_val v)
{
	if (v.cls == 3)
		return NAN;
	if (v.cls == 2)
		return v.sign ? -INFINITY : INFINITY;
	double d = (double)v.mag * ub_pow2(v.exp);
	return v.sign ? -d : d;
}

static struct ptx_val int_val(uint64_t a, unsigned bits, int is_signed)
{
	struct ptx_val v = { 1, 0, 0, a & ptx_mask(bits) };
	if (is_signed && ptx_sext(a, bits) < 0)
		v.sign = 1, v.mag = 0 - (uint64_t)ptx_sext(a, bits);
	v.cls = v.mag != 0;
	return v;
}

/* Integer <- integer with .sat: clamp to the destination range. */
static uint64_t cvt_sat_int(const struct ptx_insn *in, uint64_t a)
{
	struct ptx_val v = int_val(a, in->sbits, (in->flags & PTX_F_SIGNED) != 0);
	unsigned db = in->bits;
	int ds = (in->flags & PTX_F_DSIGNED) != 0;
	uint64_t max = ds ? ptx_mask(db - 1) : ptx_mask(db);
	if (v.sign)
		return ds ? (v.mag > max + 1 ? ~max : 0 - v.mag) & ptx_mask(db) : 0;
	return v.mag > max ? max : v.mag;
}

/* The result of converting the NaN a (source type sty) to float type
 * dty, or 0 when the canonical NaN applies (see the top). */
static uint64_t cvt_nan(const struct ptx_insn *in, int sty, int dty, uint64_t a)
{
	const struct ptx_fmt *sf = ptx_fmt_of(sty), *df = ptx_fmt_of(dty);
	int sfb = sf->p - 1, dfb = df->p - 1;
	if (sty == PTX_T_BF16 && dty == PTX_T_F32)
		return (a & 0xffff) << 16;
	if (sty == PTX_T_F32 && dty == PTX_T_F64 && (in->flags & PTX_F_FTZ))
		return 0x7fffffffe0000000ull;
	if (sty != PTX_T_F64 && dty != PTX_T_F64)
		return 0;
	uint64_t sign = (a >> (sf->bits - 1)) & 1, m = a & ptx_mask((unsigned)sfb);
	m = sfb > dfb ? m >> (sfb - dfb) : m << (dfb - sfb);
	uint64_t top = ptx_mask((unsigned)(df->bits - 1)) & ~ptx_mask((unsigned)dfb - 1);
	return sign << (df->bits - 1) | top | m;   /* exponent all ones, quiet */
}

/* Float -> integer: integral rounding, clamp; NaN: see the top. */
static uint64_t cvt_float_int(const struct ptx_insn *in, double d)
{
	unsigned db = in->bits;
	int ds = (in->flags & PTX_F_DSIGNED) != 0;
	if (d != d)
		return db == 64 || in->aux == PTX_T_F64 ? 1ull << (db - 1) : 0;
	switch (in->rnd) {
	case PTX_RND_RZI: d = trunc(d); break;
	case PTX_RND_RMI: d = floor(d); break;
	case PTX_RND_RPI: d = ceil(d); break;
	default: d = nearbyint(d); break;   /* ties to even: mode is RN */
	}
	double lim = ldexp(1.0, (int)db - ds);            /* 2^(n-1) or 2^n */
	if (d >= lim)
		return ds ? ptx_mask(db - 1) : ptx_mask(db);
	if (ds && d < -lim)
		return (~ptx_mask(db - 1)) & ptx_mask(db);
	if (!ds && d < 0)
		return 0;
	return (d < 0 ? 0 - (uint64_t)-d : (uint64_t)d) & ptx_mask(db);
}

/* Float -> same float type with .rni/.rzi/.rmi/.rpi: an integral value. */
static struct ptx_val round_integral(struct ptx_val v, int rnd)
{
	if (v.cls != 1)
		return v;
	double d = ptx_val_double(v), r;
	switch (rnd) {
	case PTX_RND_RZI: r = trunc(d); break;
	case PTX_RND_RMI: r = floor(d); break;
	case PTX_RND_RPI: r = ceil(d); break;
	default: r = nearbyint(d); break;
	}
	/* r is integral and no wider than d: exact in the source format. */
	return ptx_decode(&F64, ptx_bits64(r));
}

static int is_ftz_f32(const struct ptx_insn *in, int ty)
{
	return (in->flags & PTX_F_FTZ) && ty == PTX_T_F32;
}

/* .sat on a float result: [0, 1], NaN and -0 -> +0 (see ptx_num.h). */
static struct ptx_val sat_val(struct ptx_val v)
{
	double d = ptx_val_double(v);
	if (!(d > 0.0))
		return (struct ptx_val){ 0, 0, 0, 0 };
	if (d >= 1.0)
		return (struct ptx_val){ 1, 0, 0, 1 };
	return v;
}

uint64_t ptx_cvt(const struct ptx_insn *in, uint64_t a)
{
	uint64_t r;
	if (ptx_cvt_f32_f32(in, a, &r))
		return r;
	if (in->op == PTX_CVT_FI && in->dtype == PTX_T_F32 && in->sbits <= 64) {
		/* an integer below 2^24 in magnitude is a float exactly, in
		 * every rounding mode */
		struct ptx_val v = int_val(a, in->sbits, (in->flags & PTX_F_SIGNED) != 0);
		if (v.mag < (1u << 24)) {
			float f = (float)v.mag;
			uint32_t u;
			memcpy(&u, &f, sizeof u);
			return u | (uint64_t)(v.sign && v.mag) << 31;
		}
	}
	return ptx_cvt_exact(in, a);
}

uint64_t ptx_cvt_exact(const struct ptx_insn *in, uint64_t a)
{
	int sty = in->aux, dty = in->dtype;
	struct ptx_val v;
	if (in->op == PTX_CVT_II)
		return cvt_sat_int(in, a);
	if (in->op == PTX_CVT_FI) {
		v = int_val(a, in->sbits, (in->flags & PTX_F_SIGNED) != 0);
	} else {
		v = ptx_decode(ptx_fmt_of(sty), a);
		if (is_ftz_f32(in, sty) && v.cls == 1 && v.mag < (1ull << 23))
			v.cls = 0, v.mag = 0;               /* subnormal input */
		if (in->op == PTX_CVT_IF)
			return cvt_float_int(in, ptx_val_double(v));
		uint64_t nan;
		if (v.cls == 3 && !(in->flags & PTX_F_SAT) && (nan = cvt_nan(in, sty, dty, a)))
			return nan;
	}
	const struct ptx_fmt *f = ptx_fmt_of(dty);
	int rnd = in->rnd;
	if (rnd >= PTX_RND_RNI)
		v = round_integral(v, rnd), rnd = PTX_RND_RN;
	if (in->flags & PTX_F_SAT)
		v = sat_val(v);
	uint64_t r = ptx_round(f, v, rnd ? rnd : PTX_RND_RN);
	if (is_ftz_f32(in, dty) && (r & 0x7f800000u) == 0)
		r &= 0x80000000u;                           /* subnormal result */
	return r;
}

uint64_t ptx_cvt_x2(const struct ptx_insn *in, uint64_t a, uint64_t b)
{
	const struct ptx_fmt *f = ptx_fmt_of(in->dtype);
	uint64_t hi = ptx_round(f, ptx_decode(&F32, a & 0xffffffffu), in->rnd);
	uint64_t lo = ptx_round(f, ptx_decode(&F32, b & 0xffffffffu), in->rnd);
	return hi << 16 | lo;
}

/* ref_round.c — a real number rounded once to f32, f16, bf16 or f64:
 * round to nearest, ties to even, with gradual underflow and overflow to
 * infinity (IEEE 754), as an encoding; from an MPFR number (the Ziv loop's
 * enclosures) or an exact rational (the symbolic evaluation, ref_exact.c).
 *
 * Why one rounding: MPFR first rounds to the format's precision p in an
 * exponent range wide enough for any value met (no underflow there), with
 * ternary value t, the sign of that result minus the exact value; then,
 * in the format's exponent range, mpfr_check_range turns a result beyond
 * the largest finite number into infinity and mpfr_subnormalize rounds
 * one below the normals to the subnormal grid, using t so that a value
 * that was already rounded once is not rounded twice (MPFR's manual,
 * mpfr_subnormalize).  The composition is the correctly rounded result;
 * tests/check_exact.c checks it against a rounding by integer arithmetic
 * at random rationals and at every kind of boundary. */
#include "ref_internal.h"

#include <math.h>

uint64_t ub_ref_encode(enum ub_dtype dt, double d)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	int mb = f->prec - 1, bias = f->emax, e;
	uint64_t sign = (uint64_t)(signbit(d) != 0) << (f->bits - 1);
	uint64_t inf = (uint64_t)(2 * bias + 1) << mb;
	double a = fabs(d);
	if (isnan(d)) /* the canonical quiet NaN: every bit but the sign */
		return ((uint64_t)1 << (f->bits - 1)) - 1;
	if (isinf(d))
		return sign | inf;
	if (a == 0)
		return sign;
	frexp(a, &e);
	e -= 1; /* a = 1.m * 2^e */
	if (e < f->emin) /* subnormal: a / 2^(emin - mb) is an integer */
		return sign | (uint64_t)ldexp(a, mb - f->emin);
	return sign | (uint64_t)(e + bias) << mb |
	       ((uint64_t)ldexp(a, mb - e) - ((uint64_t)1 << mb));
}

uint64_t ub_ref_round(enum ub_dtype dt, mpfr_ptr y, int t)
{
	return ub_ref_round_dir(dt, y, t, MPFR_RNDN);
}

mpfr_rnd_t ub_ref_mode(int rnd)
{
	static const mpfr_rnd_t m[4] = {MPFR_RNDN, MPFR_RNDU, MPFR_RNDD, MPFR_RNDZ};
	return m[rnd];
}

/* The same argument for a directed rounding m: y was rounded in direction
 * m (ternary t), mpfr_check_range gives an infinity or the largest finite
 * number as m says (IEEE 754's overflow in that direction), and
 * mpfr_subnormalize rounds in direction m once more, which for a directed
 * rounding gives the direct one: the subnormal grid is part of the wider
 * one, and rounding down twice to nested grids is rounding down once. */
uint64_t ub_ref_round_dir(enum ub_dtype dt, mpfr_ptr y, int t, mpfr_rnd_t m)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	/* MPFR writes 0.1b * 2^e: the format's smallest subnormal 2^(emin-p+1)
	 * has e = emin - p + 2, its largest finite number e = emax + 1. */
	mpfr_set_emin(f->emin - f->prec + 2);
	mpfr_set_emax(f->emax + 1);
	t = mpfr_check_range(y, t, m);
	mpfr_subnormalize(y, t, m);
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	return ub_ref_encode(dt, mpfr_get_d(y, MPFR_RNDN)); /* exact: y fits a double */
}

/* Runs with MPFR's widest exponent range, the caller's restored after. */
struct range {
	mpfr_exp_t emin, emax;
};

static struct range widen(void)
{
	struct range r = {mpfr_get_emin(), mpfr_get_emax()};
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	return r;
}

static void restore(struct range r)
{
	mpfr_set_emin(r.emin);
	mpfr_set_emax(r.emax);
}

uint64_t ub_ref_round_q(enum ub_dtype dt, mpq_srcptr q, int negzero)
{
	return ub_ref_round_q_dir(dt, q, negzero, MPFR_RNDN);
}

uint64_t ub_ref_round_q_dir(enum ub_dtype dt, mpq_srcptr q, int negzero,
			    mpfr_rnd_t m)
{
	mpfr_t y;
	struct range r = widen();
	mpfr_init2(y, ub_dtypes[dt].prec);
	int t = mpfr_set_q(y, q, m);
	if (mpfr_zero_p(y) && negzero)
		mpfr_neg(y, y, MPFR_RNDN);
	uint64_t bits = ub_ref_round_dir(dt, y, t, m);
	mpfr_clear(y);
	restore(r);
	return bits;
}

void ub_ref_exact_q(mpq_srcptr q, int negzero, struct ub_exact *x)
{
	mpfr_t m;
	struct range r = widen();
	mpfr_init2(m, 128);
	mpfr_set_q(m, q, MPFR_RNDN);
	x->hi = mpfr_get_d(m, MPFR_RNDN);
	x->lo = 0;
	if (x->hi == 0 && negzero)
		x->hi = -0.0;
	if (isfinite(x->hi) && x->hi != 0) {
		mpfr_sub_d(m, m, x->hi, MPFR_RNDN);
		x->lo = mpfr_get_d(m, MPFR_RNDN);
		/* q within 2^-128 of hi: lo keeps at least the side (metrics.h
		 * tells a power of two from a value just above it by lo) */
		mpfr_set_d(m, x->hi, MPFR_RNDN);
		int s = mpfr_cmp_q(m, q);
		if (x->lo == 0 && s != 0)
			x->lo = s < 0 ? 0x1p-1074 : -0x1p-1074;
	}
	mpfr_clear(m);
	restore(r);
}

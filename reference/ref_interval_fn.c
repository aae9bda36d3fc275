/* ref_interval_fn.c — enclosures for the C99 functions that are not
 * monotone pieces of one formula (ref_interval.c calls these for intervals
 * that are not points; points take one correctly rounded MPFR call there):
 *
 *   fmod(a, b) = a - trunc(a/b) b and remainder(a, b) = a - rne(a/b) b:
 *     once the quotient a/b over the box rounds to one integer k at all
 *     its corners (a/b is monotone in each argument where b keeps its
 *     sign), the function is the bilinear a - k b over the box, whose
 *     extremes are at the corners; else (a jump inside) refine.  k = 0
 *     gives a itself.
 *   fdim(a, b) = max(a - b, +0): continuous, from the enclosure of a - b.
 *   copysign(a, b): |a| with b's sign, once that sign is certain (a zero
 *     point has its own); a NaN b counts as positive, as the canonical NaN
 *     of every format is.
 *   tgamma, lgamma: their derivatives are Gamma(x) psi(x) and psi(x);
 *     psi increases between consecutive poles (psi' > 0), so when psi has
 *     one strict sign at both ends of an interval that holds no pole
 *     (no integer <= 0) and no infinite end, it has that sign throughout
 *     and the function is monotone there: the ends map to the ends.
 *     Gamma's sign is constant between poles: + for x > 0, (-1)^(n+1) on
 *     (-n-1, -n).  Otherwise refine.
 * Every answer is an enclosure or UB_IV_REFINE, never a guess. */
#include "ref_internal.h"

#include <math.h>

/* -1, +1 when every value of a is < 0, > 0; 0 when a may hold 0. */
static int strict_sign(const struct ub_ival *a)
{
	return mpfr_sgn(a->lo) > 0 ? 1 : mpfr_sgn(a->hi) < 0 ? -1 : 0;
}

static int bounded(const struct ub_ival *a)
{
	return mpfr_number_p(a->lo) && mpfr_number_p(a->hi);
}

/* The integer k that a/b rounds to (trunc or roundeven) at every corner
 * of the box, into t; 0 when the corners disagree or b may be 0. */
static int quotient(const struct ub_ival *a, const struct ub_ival *b,
		    int even, mpfr_ptr t, mpfr_ptr u)
{
	if (!strict_sign(b) || !bounded(a) || !bounded(b))
		return 0;
	for (int c = 0; c < 4; c++) {
		mpfr_srcptr x = c & 1 ? a->hi : a->lo, y = c & 2 ? b->hi : b->lo;
		for (int r = 0; r < 2; r++) { /* both roundings of the quotient */
			mpfr_div(u, x, y, r ? MPFR_RNDU : MPFR_RNDD);
			if (even)
				mpfr_rint_roundeven(u, u, MPFR_RNDN);
			else
				mpfr_rint_trunc(u, u, MPFR_RNDN);
			if (c == 0 && r == 0)
				mpfr_set(t, u, MPFR_RNDN);
			else if (!mpfr_equal_p(t, u))
				return 0;
		}
	}
	return 1;
}

/* r = a - k b over the box (k in k), corners with outward rounding. */
static void minus_kb(struct ub_ival *r, const struct ub_ival *a,
		     const struct ub_ival *b, mpfr_srcptr k, mpfr_ptr u)
{
	mpfr_set_inf(r->lo, 1);
	mpfr_set_inf(r->hi, -1);
	for (int c = 0; c < 4; c++) {
		mpfr_srcptr x = c & 1 ? a->hi : a->lo, y = c & 2 ? b->hi : b->lo;
		/* x - k y rounded down then up: fms is one rounding each */
		mpfr_fms(u, k, y, x, MPFR_RNDU); /* k y - x, up */
		mpfr_neg(u, u, MPFR_RNDN);
		mpfr_min(r->lo, r->lo, u, MPFR_RNDN);
		mpfr_fms(u, k, y, x, MPFR_RNDD);
		mpfr_neg(u, u, MPFR_RNDN);
		mpfr_max(r->hi, r->hi, u, MPFR_RNDN);
	}
}

int ub_iv_fmod(struct ub_ival *r, const struct ub_ival *a,
	       const struct ub_ival *b, int even, mpfr_ptr t)
{
	mpfr_t k, u;
	int st = UB_IV_REFINE;
	mpfr_inits2(mpfr_get_prec(r->lo), k, u, (mpfr_ptr)0);
	if (quotient(a, b, even, k, u)) {
		if (mpfr_zero_p(k)) {
			mpfr_set(r->lo, a->lo, MPFR_RNDN);
			mpfr_set(r->hi, a->hi, MPFR_RNDN);
		} else {
			minus_kb(r, a, b, k, u);
		}
		st = 0;
	}
	(void)t;
	mpfr_clears(k, u, (mpfr_ptr)0);
	return st;
}

int ub_iv_fdim(struct ub_ival *r, const struct ub_ival *a,
	       const struct ub_ival *b)
{
	mpfr_sub(r->lo, a->lo, b->hi, MPFR_RNDD);
	mpfr_sub(r->hi, a->hi, b->lo, MPFR_RNDU);
	if (mpfr_nan_p(r->lo) || mpfr_nan_p(r->hi))
		return UB_IV_REFINE; /* inf - inf between bounds */
	if (mpfr_sgn(r->lo) <= 0)
		mpfr_set_zero(r->lo, 1);
	if (mpfr_sgn(r->hi) <= 0)
		mpfr_set_zero(r->hi, 1);
	return 0;
}

int ub_iv_copysign(struct ub_ival *r, const struct ub_ival *a,
		   const struct ub_ival *b)
{
	int neg;
	if (mpfr_nan_p(b->lo))
		neg = 0;
	else if (strict_sign(b))
		neg = strict_sign(b) < 0;
	else if (ub_iv_point(b))
		neg = mpfr_signbit(b->lo) != 0; /* a signed zero */
	else
		return UB_IV_REFINE;
	if (mpfr_nan_p(a->lo)) {
		mpfr_set_nan(r->lo);
		mpfr_set_nan(r->hi);
		return 0;
	}
	/* |a| = [max(0, lo, -hi) or 0 when a holds 0, max(-lo, hi)] */
	if (mpfr_sgn(a->lo) >= 0 && !mpfr_signbit(a->lo)) {
		mpfr_set(r->lo, a->lo, MPFR_RNDN);
		mpfr_set(r->hi, a->hi, MPFR_RNDN);
	} else if (mpfr_sgn(a->hi) <= 0 && mpfr_signbit(a->hi)) {
		mpfr_neg(r->lo, a->hi, MPFR_RNDN);
		mpfr_neg(r->hi, a->lo, MPFR_RNDN);
	} else {
		mpfr_set_zero(r->lo, 1);
		mpfr_neg(r->hi, a->lo, MPFR_RNDN);
		mpfr_max(r->hi, r->hi, a->hi, MPFR_RNDN);
	}
	if (neg) {
		mpfr_swap(r->lo, r->hi);
		mpfr_neg(r->lo, r->lo, MPFR_RNDN);
		mpfr_neg(r->hi, r->hi, MPFR_RNDN);
	}
	return 0;
}

/* The strict sign of psi at x (0: not certain at this precision). */
static int psi_sign(mpfr_srcptr x, mpfr_ptr t)
{
	mpfr_digamma(t, x, MPFR_RNDD);
	if (mpfr_sgn(t) > 0)
		return 1;
	mpfr_digamma(t, x, MPFR_RNDU);
	return mpfr_sgn(t) < 0 ? -1 : 0;
}

static int lgamma1(mpfr_ptr y, mpfr_srcptr x, mpfr_rnd_t rnd)
{
	int sign;
	return mpfr_lgamma(y, &sign, x, rnd);
}

int ub_iv_gamma(struct ub_ival *r, const struct ub_ival *a, int log,
		mpfr_ptr t)
{
	if (!bounded(a))
		return UB_IV_REFINE;
	int gsign = 1;
	if (mpfr_sgn(a->hi) <= 0) { /* negative: no integer inside, the sign */
		mpfr_floor(t, a->hi);
		if (mpfr_cmp(t, a->lo) >= 0 || mpfr_equal_p(t, a->hi))
			return UB_IV_REFINE;
		/* a in (-n-1, -n) with t = -n-1: Gamma's sign is (-1)^(n+1) */
		mpfr_div_2ui(t, t, 1, MPFR_RNDN);
		gsign = mpfr_integer_p(t) ? 1 : -1;
	} else if (mpfr_sgn(a->lo) <= 0) {
		return UB_IV_REFINE; /* holds 0, a pole */
	}
	int s = psi_sign(a->lo, t);
	if (!s || psi_sign(a->hi, t) != s)
		return UB_IV_REFINE;
	int inc = log ? s > 0 : s * gsign > 0;
	if (log) {
		lgamma1(r->lo, inc ? a->lo : a->hi, MPFR_RNDD);
		lgamma1(r->hi, inc ? a->hi : a->lo, MPFR_RNDU);
	} else {
		mpfr_gamma(r->lo, inc ? a->lo : a->hi, MPFR_RNDD);
		mpfr_gamma(r->hi, inc ? a->hi : a->lo, MPFR_RNDU);
	}
	return 0;
}

int ub_iv_lgamma_point(mpfr_ptr y, mpfr_srcptr x)
{
	return lgamma1(y, x, MPFR_RNDN);
}

/* ref_exact_ieee.c — the C99 functions, predicates and roundings of the
 * exact evaluation (ref_exact.c) that depend on how numbers compare, not
 * on a function's value at a point:
 *   fmod(a, b) = a - trunc(a/b) b, remainder(a, b) = a - rne(a/b) b of
 *     rationals, b not 0: rational, a zero result with a's sign (C11
 *     F.10.7.1, F.10.7.2); a zero a gives a;
 *   fdim(a, b): a - b when a > b, else +0 (the sign of a - b decides);
 *   copysign(a, b): |a| with b's IEEE sign (known for a rational or a
 *     signed atom);
 *   tgamma at a positive integer n: (n-1)!, small n only; lgamma at 1
 *     and 2: +0; elsewhere (not at a pole) an atom: tgamma is never 0, and
 *     lgamma's zeros at rationals are 1 and 2 only (its others are
 *     irrational, near -2.4570 and below);
 *   isfinite, isinf, isnan, isnormal, signbit of an exact value (never NaN
 *     or infinite here: those give up earlier);
 *   rounding to a format (cast, an operation in a format's context): a
 *     rational rounded once (ref_round.c), read back exactly.
 * Anything the rules cannot settle gives up (XP_GIVEUP). */
#include "ref_internal.h"
#include "ref_poly.h"

#include <math.h>

/* The IEEE sign of p: -1 or 1 (a zero by its sign), 2 unknown. */
static int ieee_sign(const struct xctx *x, const struct xpoly *p)
{
	return p->n ? xp_sign(x, p) : p->negzero ? -1 : 1;
}

int xi_fmod(struct xctx *x, int even, struct xpoly *r, const struct xpoly *a,
	    const struct xpoly *b)
{
	mpq_srcptr p = xp_rational(a), q = xp_rational(b);
	if (!q || (a->n && !p))
		return XP_GIVEUP; /* b 0 (NaN) or not rational, a not rational */
	if (!a->n)
		return xp_copy(r, a);
	mpq_t k, t;
	mpq_inits(k, t, (mpq_ptr)0);
	mpq_div(t, p, q);
	mpz_ptr z = mpq_numref(k);
	if (even) { /* nearest, ties to even: floor(t + 1/2), back one on odd ties */
		mpq_set_ui(k, 1, 2);
		mpq_add(t, t, k);
		mpz_fdiv_q(z, mpq_numref(t), mpq_denref(t));
		if (mpz_cmp_ui(mpq_denref(t), 1) == 0 && mpz_odd_p(z))
			mpz_sub_ui(z, z, 1);
	} else {
		mpz_tdiv_q(z, mpq_numref(t), mpq_denref(t));
	}
	mpz_set_ui(mpq_denref(k), 1);
	mpq_mul(t, k, q);
	mpq_sub(t, p, t);
	int st = xp_set_q(r, t, mpq_sgn(p) < 0);
	mpq_clears(k, t, (mpq_ptr)0);
	(void)x;
	return st;
}

int xi_fdim(struct xctx *x, struct xpoly *r, const struct xpoly *a,
	    const struct xpoly *b)
{
	int st = xp_add(x, r, a, b, 1), s = st ? 2 : xp_sign(x, r);
	if (s == 2)
		return XP_GIVEUP;
	if (s <= 0) {
		mpq_t z;
		mpq_init(z);
		st = xp_set_q(r, z, 0); /* +0 */
		mpq_clear(z);
	}
	return st;
}

int xi_copysign(struct xctx *x, struct xpoly *r, const struct xpoly *a,
		const struct xpoly *b)
{
	int sa = ieee_sign(x, a), sb = ieee_sign(x, b);
	if (sa == 2 || sb == 2)
		return XP_GIVEUP;
	mpq_t c;
	mpq_init(c);
	mpq_set_si(c, sa * sb, 1);
	int st = xp_scale(r, a, c);
	r->negzero = !a->n && sb < 0;
	mpq_clear(c);
	return st;
}

/* Gamma and log|Gamma| (log). */
int xi_gamma(struct xctx *x, int log, struct xpoly *r, const struct xpoly *a)
{
	mpq_srcptr q = xp_rational(a);
	if (!q)
		return XP_GIVEUP;
	int integer = mpz_cmp_ui(mpq_denref(q), 1) == 0;
	if (integer && mpq_sgn(q) <= 0)
		return XP_GIVEUP; /* a pole (0 is one too: q is NULL then) */
	mpq_t c;
	mpq_init(c);
	mpq_set_ui(c, 1, 1);
	int st;
	if (integer && mpz_cmp_ui(mpq_numref(q), 1000) <= 0 &&
	    (!log || mpz_cmp_ui(mpq_numref(q), 2) <= 0)) {
		unsigned long n = mpz_get_ui(mpq_numref(q));
		mpz_fac_ui(mpq_numref(c), n - 1);
		if (log) /* log 0! = log 1! = 0 */
			mpq_set_ui(c, 0, 1);
		st = xp_set_q(r, c, 0);
	} else {
		int sign = 0;
		if (!log) { /* + for q > 0; (-1)^(n+1) on (-n-1, -n) */
			mpz_t f;
			mpz_init(f);
			mpz_fdiv_q(f, mpq_numref(q), mpq_denref(q)); /* -n-1 */
			sign = mpq_sgn(q) > 0 || mpz_even_p(f) ? 1 : -1;
			mpz_clear(f);
		}
		int id = xa_intern(x, log ? UB_LGAMMA : UB_TGAMMA, 0, 1, a, sign, 1);
		st = id < 0 ? XP_GIVEUP : xp_set_atom(r, c, id);
	}
	mpq_clear(c);
	return st;
}

int xi_pred(const struct xctx *x, enum ub_expr_op op, int fmt,
	    const struct xpoly *a, int *truth)
{
	int s = ieee_sign(x, a);
	switch (op) {
	case UB_ISNAN:
	case UB_ISINF:
		*truth = 0;
		return 0;
	case UB_ISFINITE:
		*truth = 1;
		return 0;
	case UB_SIGNBIT:
		if (s == 2)
			return XP_GIVEUP;
		*truth = s < 0;
		return 0;
	default: { /* isnormal: |a| >= 2^emin */
		mpq_srcptr q = xp_rational(a);
		if (!a->n)
			return *truth = 0, 0;
		if (!q)
			return XP_GIVEUP;
		mpq_t m;
		mpq_init(m);
		mpq_abs(m, q);
		mpz_mul_2exp(mpq_numref(m), mpq_numref(m),
			     (mp_bitcnt_t)-ub_dtypes[fmt].emin); /* emin < 0 */
		*truth = mpz_cmp(mpq_numref(m), mpq_denref(m)) >= 0;
		mpq_clear(m);
		return 0;
	}
	}
}

int xi_round(struct xctx *x, int fmt, int rnd, struct xpoly *r, const struct xpoly *a)
{
	static const enum ub_expr_op to_int[4] = {UB_NEARBYINT, UB_CEIL, UB_FLOOR,
						  UB_TRUNC};
	mpq_srcptr q = xp_rational(a);
	mpq_t z;
	if (a->n && !q)
		return XP_GIVEUP;
	if (fmt == UB_PREC_INTEGER) { /* r may be a: round a copy */
		struct xpoly t;
		xp_init(&t);
		int st = xp_copy(&t, a);
		if (!st)
			st = xf_apply(x, to_int[rnd], r, &t, NULL);
		xp_clear(&t);
		return st;
	}
	mpq_init(z);
	uint64_t bits = ub_ref_round_q_dir((enum ub_dtype)fmt, q ? q : z, a->negzero,
					   ub_ref_mode(rnd));
	double d = ub_bits_to_double((enum ub_dtype)fmt, bits);
	int st = isfinite(d) ? 0 : XP_GIVEUP; /* overflow: an infinity */
	if (!st) {
		mpq_set_d(z, d); /* exact */
		st = xp_set_q(r, z, signbit(d) != 0);
	}
	mpq_clear(z);
	return st;
}

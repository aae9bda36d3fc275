/* ref_wide.c — enclosures beyond MPFR's exponents, and values near 1 kept
 * as their distance from 1: the arithmetic of the reference's second
 * evaluation (ref_wide_eval.c, docs/reference.md), asked when the first
 * one (ref_mpfr.c) leaves MPFR's exponent range or loses a sum's small
 * operand to a cancellation no affordable precision recovers.
 *
 * A scaled value (struct ub_sv) is an enclosure v (ref_interval.c's
 * struct ub_ival) times 2^s, s an integer of any size (mpz): v is kept
 * with its largest end's exponent 0, so 0.5^(1e300) is v = [0.5, 0.5+]
 * and s = -1e300.  Soundness is v's: each operation below is one of
 * ref_interval.c's on the v parts, with the scales added (products,
 * quotients), aligned first (sums, comparisons, min, max: the operand of
 * the smaller scale shifted down, outward, so that an operand 2^(2^61)
 * times smaller becomes [0, 2^-(2^62)], a sound if lossy enclosure), or
 * through logarithms computed at the precision the scale needs (pow, exp:
 * 2^(y log2 x) with the exponent's integer part as the new scale; log:
 * log2(v) + s).  Where no rule here applies, the value is converted to a
 * plain enclosure outward (a value beyond MPFR's range becomes a bound:
 * [largest, inf] or [0, smallest], which ref_interval.c reads as a finite
 * value it cannot place) and ref_interval.c computes the operation.
 *
 * A wide value (struct ub_wv) may also know its complement: the value is
 * 1 - c with c a scaled value, when it was computed as 1 + w (c = -w),
 * 1/(1 - c) (then c' = -c/(1 - c)), (1 - c)^y (c' = -expm1(y log1p(-c))),
 * a product of two such (c1 + c2 - c1 c2), or (1 - c) + w (c - w).  Then
 * 1 - v is c exactly, log v is log1p(-c), and v^y is exp(y log1p(-c)): so
 * 1 - 1/(1 + e^-s) is e^-s/(1 + e^-s) at s = 1e300, which no precision
 * gets from v itself.  Each rule is an identity of real numbers over
 * enclosures; none guesses. */
#include "ref_internal.h"

#include <limits.h>
#include <stdlib.h>

#define SHIFT_MAX (1L << 60)  /* shifts beyond this are as good as infinite */
#define SCALE_BITS 4096       /* scales past 2^4096: the value is beyond */

void ub_sv_init(struct ub_sv *x, mpfr_prec_t p)
{
	mpfr_inits2(p, x->v.lo, x->v.hi, (mpfr_ptr)0);
	mpz_init(x->s);
}

void ub_sv_clear(struct ub_sv *x)
{
	mpfr_clears(x->v.lo, x->v.hi, (mpfr_ptr)0);
	mpz_clear(x->s);
}

void ub_sv_set_prec(struct ub_sv *x, mpfr_prec_t p)
{
	mpfr_set_prec(x->v.lo, p);
	mpfr_set_prec(x->v.hi, p);
}

static long clamp(mpz_srcptr z)
{
	if (mpz_cmp_si(z, SHIFT_MAX) > 0)
		return SHIFT_MAX;
	if (mpz_cmp_si(z, -SHIFT_MAX) < 0)
		return -SHIFT_MAX;
	return mpz_get_si(z);
}

/* y = x 2^k rounded in direction rnd, k of any size: exact while the
 * result's exponent is in MPFR's range, else MPFR's own overflow or
 * underflow in that direction (x scaled to exponent 0, then shifted past
 * the range's end), as a true k would give. */
static void end_2z(mpfr_ptr y, mpfr_srcptr x, mpz_srcptr k, mpfr_rnd_t rnd)
{
	mpfr_set(y, x, rnd);
	if (!mpfr_regular_p(y) || !mpz_sgn(k))
		return;
	mpz_t e;
	mpz_init_set_si(e, mpfr_get_exp(y));
	mpz_add(e, e, k);
	if (mpz_cmp_si(e, mpfr_get_emax()) <= 0 && mpz_cmp_si(e, mpfr_get_emin()) >= 0) {
		mpfr_set_exp(y, mpz_get_si(e));
	} else {
		mpfr_set_exp(y, 0);
		mpfr_mul_2si(y, y, mpz_sgn(e) > 0 ? mpfr_get_emax() + 2 : mpfr_get_emin() - 2, rnd);
	}
	mpz_clear(e);
}

/* r = a 2^k, outward (a point stays a point unless MPFR's range is left). */
static void shift_z(struct ub_ival *r, const struct ub_ival *a, mpz_srcptr k)
{
	end_2z(r->lo, a->lo, k, MPFR_RNDD);
	end_2z(r->hi, a->hi, k, MPFR_RNDU);
}

static void shift(struct ub_ival *r, const struct ub_ival *a, long k)
{
	mpz_t z;
	mpz_init_set_si(z, k);
	shift_z(r, a, z);
	mpz_clear(z);
}

/* The exponent of a's largest regular end, or LONG_MIN. */
static long top_exp(const struct ub_ival *a)
{
	long e = LONG_MIN;
	if (mpfr_regular_p(a->lo))
		e = mpfr_get_exp(a->lo);
	if (mpfr_regular_p(a->hi) && mpfr_get_exp(a->hi) > e)
		e = mpfr_get_exp(a->hi);
	return e;
}

/* x with its largest end's exponent 0 (a zero, infinite or NaN value:
 * scale 0); a scale past SCALE_BITS bits makes x a bound beyond. */
static void normalize(struct ub_sv *x)
{
	long e = top_exp(&x->v);
	if (e == LONG_MIN) {
		mpz_set_ui(x->s, 0);
		return;
	}
	if (e) {
		shift(&x->v, &x->v, -e);
		if (e > 0)
			mpz_add_ui(x->s, x->s, (unsigned long)e);
		else
			mpz_sub_ui(x->s, x->s, (unsigned long)-e);
	}
	if (mpz_sizeinbase(x->s, 2) > SCALE_BITS) { /* beyond: a plain bound */
		shift_z(&x->v, &x->v, x->s);
		mpz_set_ui(x->s, 0);
	}
}

void ub_sv_from(struct ub_sv *x, const struct ub_ival *a)
{
	mpfr_set(x->v.lo, a->lo, MPFR_RNDD);
	mpfr_set(x->v.hi, a->hi, MPFR_RNDU);
	mpz_set_ui(x->s, 0);
	normalize(x);
}

void ub_sv_plain(struct ub_ival *r, const struct ub_sv *x)
{
	shift_z(r, &x->v, x->s);
}

int ub_sv_beyond(const struct ub_sv *x)
{
	long e = top_exp(&x->v);
	return e != LONG_MIN && (mpz_cmp_si(x->s, mpfr_get_emax_max() / 2) > 0 ||
				 mpz_cmp_si(x->s, mpfr_get_emin_min() / 2) < 0);
}

static void copy(struct ub_sv *r, const struct ub_sv *a)
{
	if (r == a)
		return;
	mpfr_set(r->v.lo, a->v.lo, MPFR_RNDD);
	mpfr_set(r->v.hi, a->v.hi, MPFR_RNDU);
	mpz_set(r->s, a->s);
}

/* ---- scaled arithmetic ------------------------------------------------- */

/* op of two scaled values after aligning them on the larger scale (sums,
 * comparisons, min, max); t, u scratch at r's precision. */
static int aligned(enum ub_expr_op op, struct ub_sv *r, const struct ub_sv *a,
		   const struct ub_sv *b, struct ub_ival *t, mpfr_ptr u)
{
	const struct ub_sv *hi = mpz_cmp(a->s, b->s) >= 0 ? a : b, *lo = hi == a ? b : a;
	mpz_t d;
	mpz_init(d);
	mpz_sub(d, lo->s, hi->s); /* <= 0 */
	shift_z(t, &lo->v, d);
	mpz_clear(d);
	const struct ub_ival *args[2] = {hi == a ? &a->v : t, hi == a ? t : &b->v};
	struct ub_ival res;
	mpfr_inits2(mpfr_get_prec(r->v.lo), res.lo, res.hi, (mpfr_ptr)0);
	int st = ub_iv_apply(op, &res, args, u);
	if (!st) {
		mpfr_set(r->v.lo, res.lo, MPFR_RNDD);
		mpfr_set(r->v.hi, res.hi, MPFR_RNDU);
		if (UB_EXPR_IS_BOOL(op)) {
			mpz_set_ui(r->s, 0); /* a truth value: the plain 0 or 1 */
		} else {
			mpz_set(r->s, hi->s);
			normalize(r);
		}
	}
	mpfr_clears(res.lo, res.hi, (mpfr_ptr)0);
	return st;
}

/* a times b (div: over b): the v parts' product, the scales' sum. */
static int product(struct ub_sv *r, const struct ub_sv *a, const struct ub_sv *b,
		   int div, mpfr_ptr u)
{
	const struct ub_ival *args[2] = {&a->v, &b->v};
	struct ub_ival res;
	mpfr_inits2(mpfr_get_prec(r->v.lo), res.lo, res.hi, (mpfr_ptr)0);
	int st = ub_iv_apply(div ? UB_DIV : UB_MUL, &res, args, u);
	if (!st) {
		if (div)
			mpz_sub(r->s, a->s, b->s);
		else
			mpz_add(r->s, a->s, b->s);
		mpfr_set(r->v.lo, res.lo, MPFR_RNDD);
		mpfr_set(r->v.hi, res.hi, MPFR_RNDU);
		normalize(r);
	}
	mpfr_clears(res.lo, res.hi, (mpfr_ptr)0);
	return st;
}

/* r = a op b for + - * / (a sum through aligned). */
int ub_sv_arith(enum ub_expr_op op, struct ub_sv *r, const struct ub_sv *a,
		const struct ub_sv *b, struct ub_ival *t, mpfr_ptr u)
{
	if (op == UB_MUL || op == UB_DIV)
		return product(r, a, b, op == UB_DIV, u);
	return aligned(op, r, a, b, t, u);
}

/* ---- logarithms and powers --------------------------------------------- */

/* L = log2 of positive a, at L's precision (which must hold a's scale and
 * the bits wanted): [log2(v.lo) + s, log2(v.hi) + s], outward. */
static void log2_of(struct ub_ival *L, const struct ub_sv *a)
{
	mpfr_t sz;
	mpfr_init2(sz, (mpfr_prec_t)mpz_sizeinbase(a->s, 2) + 2);
	mpfr_set_z(sz, a->s, MPFR_RNDN); /* exact */
	mpfr_log2(L->lo, a->v.lo, MPFR_RNDD);
	mpfr_add(L->lo, L->lo, sz, MPFR_RNDD);
	mpfr_log2(L->hi, a->v.hi, MPFR_RNDU);
	mpfr_add(L->hi, L->hi, sz, MPFR_RNDU);
	mpfr_clear(sz);
}

/* r = 2^Z for a plain enclosure Z of any precision: the integer part of
 * Z's upper end as r's scale, the rest in v; 0, or UB_IV_REFINE when Z
 * has an infinite end or a scale past SCALE_BITS. */
static int exp2_of(struct ub_sv *r, const struct ub_ival *Z)
{
	if (!mpfr_number_p(Z->lo) || !mpfr_number_p(Z->hi) ||
	    (mpfr_regular_p(Z->hi) && mpfr_get_exp(Z->hi) > SCALE_BITS - 2))
		return UB_IV_REFINE;
	mpfr_t f;
	mpfr_init2(f, mpfr_get_prec(Z->lo) > mpfr_get_prec(Z->hi) ? mpfr_get_prec(Z->lo)
								    : mpfr_get_prec(Z->hi));
	mpfr_floor(f, Z->hi);
	mpfr_get_z(r->s, f, MPFR_RNDN); /* exact: an integer */
	mpfr_sub(f, Z->lo, f, MPFR_RNDD);     /* <= 1, maybe far below 0 */
	mpfr_exp2(r->v.lo, f, MPFR_RNDD);     /* far below: underflows to +0 */
	mpfr_floor(f, Z->hi);
	mpfr_sub(f, Z->hi, f, MPFR_RNDU);     /* in [0, 1] */
	mpfr_exp2(r->v.hi, f, MPFR_RNDU);
	mpfr_clear(f);
	normalize(r);
	return 0;
}

/* The precision that keeps p bits of 2^(y log2 a) (y's scale ys, 0 for
 * exp): log2 a is about a's scale, |y log2 a| about 2^ys times that, and
 * its integer part must come out exact with p bits after it. */
static mpfr_prec_t log_prec(const struct ub_sv *a, long ys, mpfr_prec_t p)
{
	return p + (mpfr_prec_t)mpz_sizeinbase(a->s, 2) + (ys > 0 ? ys : 0) + 16;
}

/* y as a plain enclosure at precision P, when its scale allows (else 0). */
static int plain_at(struct ub_ival *r, const struct ub_sv *y, mpfr_prec_t P)
{
	if (mpz_sizeinbase(y->s, 2) > 60)
		return 0;
	mpfr_set_prec(r->lo, P);
	mpfr_set_prec(r->hi, P);
	ub_sv_plain(r, y); /* exact: P is wider than y's v */
	return mpfr_number_p(r->lo) && mpfr_number_p(r->hi);
}

/* r = 2^(Z) where Z = y * L, both plain enclosures at precision P. */
static int exp2_product(struct ub_sv *r, const struct ub_ival *y, const struct ub_ival *L,
			mpfr_prec_t P)
{
	struct ub_ival Z;
	mpfr_t u;
	mpfr_inits2(P, Z.lo, Z.hi, u, (mpfr_ptr)0);
	const struct ub_ival *args[2] = {y, L};
	int st = ub_iv_apply(UB_MUL, &Z, args, u);
	if (!st)
		st = exp2_of(r, &Z);
	mpfr_clears(Z.lo, Z.hi, u, (mpfr_ptr)0);
	return st;
}

/* pow(a, y) for a > 0: 2^(y log2 a); for a small integer point y, the v
 * part's power and the scale times y (any sign of a). */
int ub_sv_pow(struct ub_sv *r, const struct ub_sv *a, const struct ub_sv *y,
	      mpfr_ptr u)
{
	mpfr_prec_t p = mpfr_get_prec(r->v.lo);
	struct ub_ival yp, L;
	mpfr_inits2(p, yp.lo, yp.hi, L.lo, L.hi, (mpfr_ptr)0);
	int st = UB_IV_REFINE;
	if (plain_at(&yp, y, p + 64) && ub_iv_point(&yp) && mpfr_integer_p(yp.lo) &&
	    mpfr_cmpabs_ui(yp.lo, 1UL << 20) <= 0) {
		const struct ub_ival *args[2] = {&a->v, &yp};
		struct ub_ival res;
		mpfr_inits2(p, res.lo, res.hi, (mpfr_ptr)0);
		if (!(st = ub_iv_apply(UB_POW, &res, args, u))) {
			mpz_mul_si(r->s, a->s, mpfr_get_si(yp.lo, MPFR_RNDN));
			mpfr_set(r->v.lo, res.lo, MPFR_RNDD);
			mpfr_set(r->v.hi, res.hi, MPFR_RNDU);
			normalize(r);
		}
		mpfr_clears(res.lo, res.hi, (mpfr_ptr)0);
	} else if (mpfr_sgn(a->v.lo) > 0 && mpfr_number_p(a->v.hi)) {
		mpfr_prec_t P = log_prec(a, mpz_sizeinbase(y->s, 2) > 20 ? SCALE_BITS : clamp(y->s), p);
		mpfr_set_prec(L.lo, P);
		mpfr_set_prec(L.hi, P);
		log2_of(&L, a);
		if (plain_at(&yp, y, P))
			st = exp2_product(r, &yp, &L, P);
	}
	mpfr_clears(yp.lo, yp.hi, L.lo, L.hi, (mpfr_ptr)0);
	return st;
}

/* exp(x) (base 2: exp2, e - 1: expm1) of a value whose exponent leaves
 * MPFR's range or nearly: 2^(x log2 e); expm1 of a huge x is exp(x)
 * widened by an ulp below, of a tiny x it is x (1 +- 2^-p). */
int ub_sv_exp(enum ub_expr_op op, struct ub_sv *r, const struct ub_sv *x, mpfr_ptr u)
{
	mpfr_prec_t p = mpfr_get_prec(r->v.lo);
	if (op == UB_EXPM1 && mpz_cmp_si(x->s, -(long)p - 8) < 0)
		return ub_sv_near(r, x, u); /* expm1(x) = x (1 + O(x)) */
	if (mpz_sizeinbase(x->s, 2) > 20)
		return UB_IV_REFINE;  /* beyond 2^(2^20): past SCALE_BITS */
	mpfr_prec_t P = p + (mpz_sgn(x->s) > 0 ? clamp(x->s) : 0) + 80;
	struct ub_ival xp, k;
	mpfr_inits2(P, xp.lo, xp.hi, k.lo, k.hi, (mpfr_ptr)0);
	int st = UB_IV_REFINE;
	if (plain_at(&xp, x, P)) {
		if (op == UB_EXP2) {
			st = exp2_of(r, &xp);
		} else { /* log2 e = 1 / ln 2, outward */
			mpfr_const_log2(k.lo, MPFR_RNDU);
			mpfr_ui_div(k.lo, 1, k.lo, MPFR_RNDD);
			mpfr_const_log2(k.hi, MPFR_RNDD);
			mpfr_ui_div(k.hi, 1, k.hi, MPFR_RNDU);
			st = exp2_product(r, &xp, &k, P);
		}
		if (!st && op == UB_EXPM1) { /* e^x - 1 for a large x: v.lo less
						the 1, that is 2^-s in v's terms */
			if (mpfr_cmp_ui(xp.lo, 64) < 0) {
				st = UB_IV_REFINE; /* not large: ref_interval.c's */
			} else {
				mpfr_set_ui_2exp(k.lo, 1, -clamp(r->s), MPFR_RNDU);
				mpfr_sub(r->v.lo, r->v.lo, k.lo, MPFR_RNDD);
			}
		}
	}
	mpfr_clears(xp.lo, xp.hi, k.lo, k.hi, (mpfr_ptr)0);
	return st;
}

/* log (log2, log10) of a positive scaled value: log2(v) + s times the
 * base's factor, a plain value. */
int ub_sv_log(enum ub_expr_op op, struct ub_sv *r, const struct ub_sv *x, mpfr_ptr u)
{
	mpfr_prec_t p = mpfr_get_prec(r->v.lo), P = log_prec(x, 0, p);
	if (op == UB_LOG1P && mpz_cmp_si(x->s, -(long)p - 8) < 0)
		return ub_sv_near(r, x, u); /* log1p(x) = x (1 + O(x)) */
	if (!(mpfr_sgn(x->v.lo) > 0) || !mpfr_number_p(x->v.hi))
		return UB_IV_REFINE;
	struct ub_ival L, k, res;
	mpfr_inits2(P, L.lo, L.hi, k.lo, k.hi, res.lo, res.hi, (mpfr_ptr)0);
	log2_of(&L, x);
	int st = 0;
	if (op == UB_LOG || op == UB_LOG1P) { /* ln 2 */
		mpfr_const_log2(k.lo, MPFR_RNDD);
		mpfr_const_log2(k.hi, MPFR_RNDU);
	} else if (op == UB_LOG10) { /* log10 2 = 1 / log2 10 */
		mpfr_set_ui(k.lo, 10, MPFR_RNDN);
		mpfr_log2(k.lo, k.lo, MPFR_RNDU);
		mpfr_ui_div(k.lo, 1, k.lo, MPFR_RNDD);
		mpfr_set_ui(k.hi, 10, MPFR_RNDN);
		mpfr_log2(k.hi, k.hi, MPFR_RNDD);
		mpfr_ui_div(k.hi, 1, k.hi, MPFR_RNDU);
	} else {
		mpfr_set_ui(k.lo, 1, MPFR_RNDN);
		mpfr_set_ui(k.hi, 1, MPFR_RNDN);
	}
	const struct ub_ival *args[2] = {&L, &k};
	struct ub_ival t;
	mpfr_init2(t.lo, P);
	mpfr_init2(t.hi, P);
	st = ub_iv_apply(UB_MUL, &res, args, t.lo);
	if (!st && op == UB_LOG1P) { /* log(x) < log1p(x) <= log(x) + 1/x,
					and 1/x <= 2^(1-s): a large x only */
		if (mpz_cmp_ui(x->s, 64) < 0) {
			st = UB_IV_REFINE;
		} else {
			mpfr_set_ui_2exp(k.lo, 1, 1 - clamp(x->s), MPFR_RNDU);
			mpfr_add(res.hi, res.hi, k.lo, MPFR_RNDU);
		}
	}
	if (!st)
		ub_sv_from(r, &res);
	mpfr_clears(L.lo, L.hi, k.lo, k.hi, res.lo, res.hi, t.lo, t.hi, (mpfr_ptr)0);
	return st;
}

/* x (1 + d), |d| <= 2^-(p-1): expm1 and log1p of an x below 2^-(p+8) in
 * magnitude, both within x (1 +- |x|). */
int ub_sv_near(struct ub_sv *r, const struct ub_sv *x, mpfr_ptr u)
{
	mpfr_prec_t p = mpfr_get_prec(r->v.lo);
	struct ub_ival f, res;
	mpfr_inits2(p, f.lo, f.hi, res.lo, res.hi, (mpfr_ptr)0);
	mpfr_set_ui_2exp(f.lo, 1, 0, MPFR_RNDN);
	mpfr_set(f.hi, f.lo, MPFR_RNDN);
	mpfr_nextbelow(f.lo); /* 1 - 2^-p: |x| < 2^-p-8 is far smaller */
	mpfr_nextabove(f.hi);
	const struct ub_ival *args[2] = {&x->v, &f};
	int st = ub_iv_apply(UB_MUL, &res, args, u);
	if (!st) {
		mpfr_set(r->v.lo, res.lo, MPFR_RNDD);
		mpfr_set(r->v.hi, res.hi, MPFR_RNDU);
		mpz_set(r->s, x->s);
		normalize(r);
	}
	mpfr_clears(f.lo, f.hi, res.lo, res.hi, (mpfr_ptr)0);
	return st;
}

/* sqrt and cbrt: the scale divided (an odd remainder into v, exactly). */
int ub_sv_root(enum ub_expr_op op, struct ub_sv *r, const struct ub_sv *x, mpfr_ptr u)
{
	unsigned long n = op == UB_SQRT ? 2 : 3;
	mpz_t q;
	mpz_init(q);
	unsigned long rem = mpz_fdiv_q_ui(q, x->s, n);
	struct ub_ival a, res;
	mpfr_prec_t p = mpfr_get_prec(r->v.lo);
	mpfr_inits2(p + 4, a.lo, a.hi, res.lo, res.hi, (mpfr_ptr)0);
	shift(&a, &x->v, (long)rem); /* exact: 2 more bits at most */
	const struct ub_ival *args[1] = {&a};
	int st = ub_iv_apply(op, &res, args, u);
	if (!st) {
		mpfr_set(r->v.lo, res.lo, MPFR_RNDD);
		mpfr_set(r->v.hi, res.hi, MPFR_RNDU);
		mpz_set(r->s, q);
		normalize(r);
	}
	mpfr_clears(a.lo, a.hi, res.lo, res.hi, (mpfr_ptr)0);
	mpz_clear(q);
	return st;
}

void ub_sv_copy(struct ub_sv *r, const struct ub_sv *a)
{
	copy(r, a);
}

void ub_sv_neg(struct ub_sv *r, const struct ub_sv *a)
{
	mpfr_neg(r->v.lo, a->v.hi, MPFR_RNDD);
	mpfr_neg(r->v.hi, a->v.lo, MPFR_RNDU);
	mpz_set(r->s, a->s);
}

int ub_sv_is_one(const struct ub_sv *a)
{
	return ub_iv_point(&a->v) && mpfr_cmp_ui_2exp(a->v.lo, 1, -1) == 0 &&
	       mpz_cmp_ui(a->s, 1) == 0;
}

/* ref_interval.c — one operator over enclosures of its arguments.
 *
 * Points (exact arguments) take one MPFR call in round-to-nearest: MPFR's
 * result is correctly rounded and its ternary value says on which side the
 * exact value lies, so [RN, next] or [previous, RN] encloses it, and a zero
 * ternary means exact, with MPFR's IEEE 754 rules for signed zeros,
 * infinities and NaN (0*inf, inf-inf, sqrt(-1), ...).  Other intervals map
 * their endpoints with MPFR_RNDD for the lower bound and MPFR_RNDU for the
 * upper one: increasing functions map lo->lo, decreasing ones swap; * and /
 * take the extreme endpoint products; sin, cos and tan are monotone on an
 * interval narrower than 3 (< pi) whose endpoints give the derivative
 * (cos, -sin) the same strict sign; pow(a, b) with a > 0 is exp(b log a),
 * whose extremes over a box lie at its corners.  Whenever an interval may
 * contain a pole, an extremum, a domain boundary, a 0 divisor or a 0 whose
 * sign decides the result, the answer is UB_IV_REFINE, never a guess. */
#include "ref_internal.h"

#include <math.h>

enum shape { INC, DEC, ABS, EVEN, SIN, COS, TAN };

/* Unary operators: MPFR function, shape, domain [dlo, dhi] (outside: NaN)
 * and where the function has a pole: 1 at dlo, 2 at dhi, 3 at both.
 * EVEN (cosh) decreases to its minimum 1 at 0, then increases.  The
 * rint_* functions (floor ...) are non-decreasing steps; MPFR rounds
 * their integral result outward like any other value.  tgamma is here for
 * its points only (its intervals: ref_interval_fn.c). */
#define REF_UNARY(X)                                   \
	X(UB_NEG, mpfr_neg, DEC, -INFINITY, INFINITY, 0) \
	X(UB_SQRT, mpfr_sqrt, INC, 0, INFINITY, 0)       \
	X(UB_RSQRT, mpfr_rec_sqrt, DEC, 0, INFINITY, 1)  \
	X(UB_FABS, mpfr_abs, ABS, -INFINITY, INFINITY, 0) \
	X(UB_EXP, mpfr_exp, INC, -INFINITY, INFINITY, 0) \
	X(UB_EXPM1, mpfr_expm1, INC, -INFINITY, INFINITY, 0) \
	X(UB_LOG, mpfr_log, INC, 0, INFINITY, 1)         \
	X(UB_LOG1P, mpfr_log1p, INC, -1, INFINITY, 1)    \
	X(UB_SIN, mpfr_sin, SIN, -INFINITY, INFINITY, 0) \
	X(UB_COS, mpfr_cos, COS, -INFINITY, INFINITY, 0) \
	X(UB_TAN, mpfr_tan, TAN, -INFINITY, INFINITY, 0) \
	X(UB_ASIN, mpfr_asin, INC, -1, 1, 0)             \
	X(UB_ACOS, mpfr_acos, DEC, -1, 1, 0)             \
	X(UB_ATAN, mpfr_atan, INC, -INFINITY, INFINITY, 0) \
	X(UB_TANH, mpfr_tanh, INC, -INFINITY, INFINITY, 0) \
	X(UB_ERF, mpfr_erf, INC, -INFINITY, INFINITY, 0) \
	X(UB_EXP2, mpfr_exp2, INC, -INFINITY, INFINITY, 0) \
	X(UB_LOG2, mpfr_log2, INC, 0, INFINITY, 1)       \
	X(UB_LOG10, mpfr_log10, INC, 0, INFINITY, 1)     \
	X(UB_CBRT, mpfr_cbrt, INC, -INFINITY, INFINITY, 0) \
	X(UB_SINH, mpfr_sinh, INC, -INFINITY, INFINITY, 0) \
	X(UB_COSH, mpfr_cosh, EVEN, -INFINITY, INFINITY, 0) \
	X(UB_ASINH, mpfr_asinh, INC, -INFINITY, INFINITY, 0) \
	X(UB_ACOSH, mpfr_acosh, INC, 1, INFINITY, 0)     \
	X(UB_ATANH, mpfr_atanh, INC, -1, 1, 3)           \
	X(UB_ERFC, mpfr_erfc, DEC, -INFINITY, INFINITY, 0) \
	X(UB_FLOOR, mpfr_rint_floor, INC, -INFINITY, INFINITY, 0) \
	X(UB_CEIL, mpfr_rint_ceil, INC, -INFINITY, INFINITY, 0) \
	X(UB_TRUNC, mpfr_rint_trunc, INC, -INFINITY, INFINITY, 0) \
	X(UB_ROUND, mpfr_rint_round, INC, -INFINITY, INFINITY, 0) \
	X(UB_NEARBYINT, mpfr_rint_roundeven, INC, -INFINITY, INFINITY, 0) \
	X(UB_TGAMMA, mpfr_gamma, INC, -INFINITY, INFINITY, 0)

typedef int (*fn1)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
typedef int (*fn2)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

static const struct unary {
	fn1 f;
	enum shape shape;
	double dlo, dhi;
	int pole;
} unary[UB_NOPS] = {
#define X(op, f, shape, dlo, dhi, pole) [op] = {f, shape, dlo, dhi, pole},
	REF_UNARY(X)
#undef X
};

int ub_iv_point(const struct ub_ival *a)
{
	return mpfr_equal_p(a->lo, a->hi) ? mpfr_signbit(a->lo) == mpfr_signbit(a->hi)
					  : mpfr_nan_p(a->lo) != 0;
}

void ub_iv_from_ternary(struct ub_ival *a, int t)
{
	mpfr_set(a->hi, a->lo, MPFR_RNDN);
	if (t > 0)
		mpfr_nextbelow(a->lo);
	else if (t < 0)
		mpfr_nextabove(a->hi);
}

static void set_nan(struct ub_ival *r)
{
	mpfr_set_nan(r->lo);
	mpfr_set_nan(r->hi);
}

/* r = the point sign * inf (sign > 0) or sign * 0 (zero set). */
static void set_special(struct ub_ival *r, int neg, int zero)
{
	if (zero)
		mpfr_set_zero(r->lo, neg ? -1 : 1);
	else
		mpfr_set_inf(r->lo, neg ? -1 : 1);
	mpfr_set(r->hi, r->lo, MPFR_RNDN);
}

static int is_pinf(const struct ub_ival *a)
{
	return mpfr_inf_p(a->lo) && ub_iv_point(a);
}

/* -1, +1 when every value of a is < 0, > 0; 0 when a may hold 0. */
static int strict_sign(const struct ub_ival *a)
{
	return mpfr_sgn(a->lo) > 0 ? 1 : mpfr_sgn(a->hi) < 0 ? -1 : 0;
}

/* Exact arguments: one correctly rounded MPFR call. */
static void point(enum ub_expr_op op, struct ub_ival *r,
		  const struct ub_ival *const *a)
{
	mpfr_ptr y = r->lo;
	mpfr_srcptr x = a[0]->lo, b = ub_expr_ops[op].arity > 1 ? a[1]->lo : NULL;
	static const fn2 binary[UB_NOPS] = {
		[UB_ADD] = mpfr_add, [UB_SUB] = mpfr_sub, [UB_MUL] = mpfr_mul,
		[UB_DIV] = mpfr_div, [UB_POW] = mpfr_pow, [UB_FMIN] = mpfr_min,
		[UB_FMAX] = mpfr_max, [UB_HYPOT] = mpfr_hypot,
		[UB_ATAN2] = mpfr_atan2, [UB_FMOD] = mpfr_fmod,
		[UB_REMAINDER] = mpfr_remainder, [UB_FDIM] = mpfr_dim};
	int t;
	if (op == UB_FMA)
		t = mpfr_fma(y, x, b, a[2]->lo, MPFR_RNDN);
	else if (op == UB_COPYSIGN) /* exact; a NaN sign counts as + */
		t = mpfr_nan_p(x) ? (mpfr_set_nan(y), 0) : mpfr_nan_p(b) ? mpfr_abs(y, x, MPFR_RNDN)
									: mpfr_copysign(y, x, b, MPFR_RNDN);
	else if (op == UB_LGAMMA)
		t = ub_iv_lgamma_point(y, x);
	else if (binary[op])
		t = binary[op](y, x, b, MPFR_RNDN);
	else if (op == UB_RSQRT && mpfr_zero_p(x) && mpfr_signbit(x))
		t = (mpfr_set_inf(y, -1), 0); /* IEEE rSqrt(-0) = -inf; MPFR: +inf */
	else
		t = unary[op].f(y, x, MPFR_RNDN);
	ub_iv_from_ternary(r, t);
}

static void mono(fn1 f, struct ub_ival *r, const struct ub_ival *a, int inc)
{
	f(r->lo, inc ? a->lo : a->hi, MPFR_RNDD);
	f(r->hi, inc ? a->hi : a->lo, MPFR_RNDU);
}

/* Sign of the derivative of sin/cos/tan over a (0: unknown or changing). */
static int slope(enum shape s, const struct ub_ival *a, mpfr_ptr t)
{
	fn1 d = s == COS ? mpfr_sin : mpfr_cos;
	int sg[2];
	for (int i = 0; i < 2; i++) {
		mpfr_srcptr x = i ? a->hi : a->lo;
		sg[i] = (d(t, x, MPFR_RNDD), mpfr_sgn(t) > 0) ? 1
			: (d(t, x, MPFR_RNDU), mpfr_sgn(t) < 0) ? -1 : 0;
	}
	if (sg[0] != sg[1])
		return 0;
	return s == COS ? -sg[0] : sg[0];
}

static int trig(const struct unary *u, struct ub_ival *r,
		const struct ub_ival *a, mpfr_ptr t)
{
	if (!mpfr_number_p(a->lo) || !mpfr_number_p(a->hi))
		return UB_IV_REFINE;
	mpfr_sub(t, a->hi, a->lo, MPFR_RNDU);
	int d = mpfr_cmp_ui(t, 3) < 0 ? slope(u->shape, a, t) : 0;
	if (d == 0)
		return UB_IV_REFINE;
	mono(u->f, r, a, u->shape == TAN || d > 0); /* tan: no pole between */
	return 0;
}

static int unary_np(const struct unary *u, struct ub_ival *r,
		    const struct ub_ival *a, mpfr_ptr t)
{
	if (mpfr_cmp_d(a->hi, u->dlo) < 0 || mpfr_cmp_d(a->lo, u->dhi) > 0)
		return set_nan(r), 0;
	if (mpfr_cmp_d(a->lo, u->dlo) < 0 || mpfr_cmp_d(a->hi, u->dhi) > 0 ||
	    (u->pole & 1 && mpfr_cmp_d(a->lo, u->dlo) == 0) ||
	    (u->pole & 2 && mpfr_cmp_d(a->hi, u->dhi) == 0))
		return UB_IV_REFINE;
	switch (u->shape) {
	case INC:
	case DEC:
		mono(u->f, r, a, u->shape == INC);
		return 0;
	case ABS:
		if (mpfr_sgn(a->lo) >= 0 || mpfr_sgn(a->hi) <= 0) {
			mono(u->f, r, a, mpfr_sgn(a->lo) >= 0);
		} else {
			mpfr_set_zero(r->lo, 1);
			mpfr_neg(t, a->lo, MPFR_RNDN);
			mpfr_max(r->hi, t, a->hi, MPFR_RNDN);
		}
		return 0;
	case EVEN:
		if (mpfr_sgn(a->lo) >= 0 || mpfr_sgn(a->hi) <= 0) {
			mono(u->f, r, a, mpfr_sgn(a->lo) >= 0);
		} else { /* around 0: [f(0), max(f(lo), f(hi))] */
			mpfr_set_zero(t, 1);
			u->f(r->lo, t, MPFR_RNDD);
			u->f(t, a->lo, MPFR_RNDU);
			u->f(r->hi, a->hi, MPFR_RNDU);
			mpfr_max(r->hi, r->hi, t, MPFR_RNDN);
		}
		return 0;
	default:
		return trig(u, r, a, t);
	}
}

/* Endpoint product/quotient in which an infinity is a bound (the exact
 * factor is finite): 0 * bound-inf and bound-inf / inf are 0. */
static void cmul(mpfr_ptr y, mpfr_srcptr u, mpfr_srcptr v, mpfr_rnd_t rnd)
{
	if ((mpfr_zero_p(u) && mpfr_inf_p(v)) || (mpfr_inf_p(u) && mpfr_zero_p(v)))
		mpfr_set_zero(y, mpfr_signbit(u) != mpfr_signbit(v) ? -1 : 1);
	else
		mpfr_mul(y, u, v, rnd);
}

static void cdiv(mpfr_ptr y, mpfr_srcptr u, mpfr_srcptr v, mpfr_rnd_t rnd)
{
	if (mpfr_inf_p(u) && mpfr_inf_p(v))
		mpfr_set_zero(y, mpfr_signbit(u) != mpfr_signbit(v) ? -1 : 1);
	else
		mpfr_div(y, u, v, rnd);
}

typedef void (*corner_fn)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

/* r = [min, max] of f over the endpoint pairs of a and b. */
static void corners(corner_fn f, struct ub_ival *r, const struct ub_ival *a,
		    const struct ub_ival *b, mpfr_ptr t)
{
	mpfr_set_inf(r->lo, 1);
	mpfr_set_inf(r->hi, -1);
	for (int i = 0; i < 4; i++) {
		mpfr_srcptr u = i & 1 ? a->hi : a->lo, v = i & 2 ? b->hi : b->lo;
		f(t, u, v, MPFR_RNDD);
		mpfr_min(r->lo, r->lo, t, MPFR_RNDN);
		f(t, u, v, MPFR_RNDU);
		mpfr_max(r->hi, r->hi, t, MPFR_RNDN);
	}
}

/* a + b or a - b; r may be a (fma). */
static void add_np(struct ub_ival *r, const struct ub_ival *a,
		   const struct ub_ival *b, int sub)
{
	if (is_pinf(a)) { /* inf + finite */
		mpfr_set(r->lo, a->lo, MPFR_RNDN);
		mpfr_set(r->hi, a->lo, MPFR_RNDN);
	} else if (is_pinf(b)) {
		set_special(r, (mpfr_signbit(b->lo) != 0) != sub, 0);
	} else if (sub) {
		mpfr_sub(r->lo, a->lo, b->hi, MPFR_RNDD);
		mpfr_sub(r->hi, a->hi, b->lo, MPFR_RNDU);
	} else {
		mpfr_add(r->lo, a->lo, b->lo, MPFR_RNDD);
		mpfr_add(r->hi, a->hi, b->hi, MPFR_RNDU);
	}
}

static int mul_np(struct ub_ival *r, const struct ub_ival *a,
		  const struct ub_ival *b, mpfr_ptr t)
{
	if (is_pinf(b)) {
		const struct ub_ival *s = a;
		a = b;
		b = s;
	}
	if (is_pinf(a)) { /* inf * finite: the finite factor's sign decides */
		int s = strict_sign(b);
		if (!s)
			return UB_IV_REFINE;
		set_special(r, (s < 0) != (mpfr_signbit(a->lo) != 0), 0);
		return 0;
	}
	if (ub_iv_point(a)) {
		const struct ub_ival *s = a;
		a = b;
		b = s;
	}
	if (ub_iv_point(b)) { /* a * s: monotone in a */
		int inc = mpfr_sgn(b->lo) >= 0;
		cmul(r->lo, inc ? a->lo : a->hi, b->lo, MPFR_RNDD);
		cmul(r->hi, inc ? a->hi : a->lo, b->lo, MPFR_RNDU);
	} else {
		corners(cmul, r, a, b, t);
	}
	return 0;
}

static int div_np(struct ub_ival *r, const struct ub_ival *a,
		  const struct ub_ival *b, mpfr_ptr t)
{
	int sb = strict_sign(b), pb = ub_iv_point(b);
	if (!sb && !(pb && mpfr_zero_p(b->lo)))
		return UB_IV_REFINE; /* the divisor may be 0 */
	if (!sb || is_pinf(a)) { /* x / +-0 (x not 0) and inf / finite */
		int sa = strict_sign(a);
		if (!sa)
			return UB_IV_REFINE;
		set_special(r, (sa < 0) != (mpfr_signbit(b->lo) != 0), 0);
	} else if (pb) { /* a / s: monotone in a */
		int inc = sb > 0;
		cdiv(r->lo, inc ? a->lo : a->hi, b->lo, MPFR_RNDD);
		cdiv(r->hi, inc ? a->hi : a->lo, b->lo, MPFR_RNDU);
	} else if (ub_iv_point(a)) { /* s / b: decreasing when s > 0 */
		int inc = mpfr_sgn(a->lo) < 0;
		mpfr_div(r->lo, a->lo, inc ? b->lo : b->hi, MPFR_RNDD);
		mpfr_div(r->hi, a->lo, inc ? b->hi : b->lo, MPFR_RNDU);
	} else {
		if ((mpfr_inf_p(a->lo) || mpfr_inf_p(a->hi)) &&
		    (mpfr_inf_p(b->lo) || mpfr_inf_p(b->hi)))
			return UB_IV_REFINE; /* bound / bound */
		corners(cdiv, r, a, b, t);
	}
	return 0;
}

/* pow(a, +-inf) for a non-point a: |a| > 1 or |a| < 1 must be certain. */
static int pow_inf(struct ub_ival *r, const struct ub_ival *a, int neg_exp)
{
	int big = mpfr_cmp_si(a->lo, 1) > 0 || mpfr_cmp_si(a->hi, -1) < 0;
	int small = mpfr_cmp_si(a->lo, -1) > 0 && mpfr_cmp_si(a->hi, 1) < 0;
	if (!big && !small)
		return UB_IV_REFINE;
	set_special(r, 0, big == neg_exp);
	return 0;
}

/* Whether the non-point b holds no integer (then a < 0 gives NaN). */
static int no_integer(const struct ub_ival *b, mpfr_ptr t)
{
	if (!mpfr_number_p(b->lo) || !mpfr_number_p(b->hi) || mpfr_integer_p(b->lo))
		return 0;
	mpfr_floor(t, b->lo);
	mpfr_add_ui(t, t, 1, MPFR_RNDD);
	return mpfr_cmp(b->hi, t) < 0;
}

/* Whether the non-point b holds no odd integer: no integer, or the only
 * one in it is even (pow(-0, y) is then +0 or +inf, as pow(+0, y)). */
static int no_odd_integer(const struct ub_ival *b, mpfr_ptr t)
{
	if (no_integer(b, t))
		return 1;
	if (!mpfr_number_p(b->lo) || !mpfr_number_p(b->hi))
		return 0;
	mpfr_ceil(t, b->lo);            /* the least integer in b */
	if (!mpfr_fits_slong_p(t, MPFR_RNDN) || (mpfr_get_si(t, MPFR_RNDN) & 1))
		return 0;
	mpfr_add_ui(t, t, 1, MPFR_RNDD); /* the next one is odd: outside b? */
	return mpfr_cmp(b->hi, t) < 0;
}

static void pow_corner(mpfr_ptr y, mpfr_srcptr u, mpfr_srcptr v, mpfr_rnd_t rnd)
{
	mpfr_pow(y, u, v, rnd);
}

/* Whether b is the point of an integer n from 1 to LONG_MAX. */
static int pos_int_point(const struct ub_ival *b)
{
	return ub_iv_point(b) && mpfr_integer_p(b->lo) && mpfr_sgn(b->lo) > 0 &&
	       mpfr_fits_slong_p(b->lo, MPFR_RNDN);
}

/* x^n over an a that holds 0 (Newton's steps near a zero: v^3 once v's
 * sign is open), n a positive integer: increasing for an odd n; for an
 * even n from +0 (x^n >= 0, and x = 0 in a) to the larger end's power. */
static void pow_around_zero(struct ub_ival *r, const struct ub_ival *a,
			    const struct ub_ival *b)
{
	if (mpfr_get_si(b->lo, MPFR_RNDN) & 1) {
		mpfr_pow(r->lo, a->lo, b->lo, MPFR_RNDD);
		mpfr_pow(r->hi, a->hi, b->lo, MPFR_RNDU);
		return;
	}
	mpfr_srcptr m = mpfr_cmpabs(a->lo, a->hi) > 0 ? a->lo : a->hi;
	mpfr_pow(r->hi, m, b->lo, MPFR_RNDU);
	mpfr_set_zero(r->lo, 1);
}

static int pow_np(struct ub_ival *r, const struct ub_ival *a,
		  const struct ub_ival *b, mpfr_ptr t)
{
	int nan_a = mpfr_nan_p(a->lo) != 0, nan_b = mpfr_nan_p(b->lo) != 0;
	if (nan_a || nan_b) { /* pow(NaN, 0) = pow(1, NaN) = 1, else NaN */
		const struct ub_ival *o = nan_a ? b : a;
		long special = nan_a ? 0 : 1;
		if (mpfr_cmp_si(o->lo, special) <= 0 && mpfr_cmp_si(o->hi, special) >= 0)
			return UB_IV_REFINE;
		return set_nan(r), 0;
	}
	if (is_pinf(a)) { /* pow(+inf, b) = +inf or +0 by b's sign */
		int s = strict_sign(b);
		if (!s || mpfr_signbit(a->lo))
			return UB_IV_REFINE;
		return set_special(r, 0, s < 0), 0;
	}
	if (is_pinf(b))
		return pow_inf(r, a, mpfr_signbit(b->lo) != 0);
	if (mpfr_sgn(a->lo) > 0) {
		corners(pow_corner, r, a, b, t); /* exp(b log a): bilinear inside */
	} else if (mpfr_sgn(a->hi) < 0 && ub_iv_point(b) && mpfr_integer_p(b->lo)) {
		corners(pow_corner, r, a, b, t); /* x^n is monotone for x < 0 */
	} else if (mpfr_sgn(a->hi) < 0 && ub_iv_point(a) && no_integer(b, t)) {
		set_nan(r);
	} else if (pos_int_point(b) && mpfr_number_p(a->lo) && mpfr_number_p(a->hi)) {
		pow_around_zero(r, a, b);
	} else if (ub_iv_point(a) && mpfr_zero_p(a->lo) && strict_sign(b) &&
		   (!mpfr_signbit(a->lo) || no_odd_integer(b, t))) {
		set_special(r, 0, strict_sign(b) > 0); /* pow(+0, y), pow(-0, y) */
	} else {
		return UB_IV_REFINE;
	}
	return 0;
}

/* fmin/fmax are monotone in both arguments; a NaN argument yields the
 * other one (C fmin, PTX min). */
static void minmax_np(enum ub_expr_op op, struct ub_ival *r,
		      const struct ub_ival *a, const struct ub_ival *b)
{
	fn2 f = op == UB_FMIN ? mpfr_min : mpfr_max;
	if (mpfr_nan_p(a->lo) || mpfr_nan_p(b->lo)) {
		const struct ub_ival *o = mpfr_nan_p(a->lo) ? b : a;
		mpfr_set(r->lo, o->lo, MPFR_RNDN);
		mpfr_set(r->hi, o->hi, MPFR_RNDN);
		return;
	}
	f(r->lo, a->lo, b->lo, MPFR_RNDN);
	f(r->hi, a->hi, b->hi, MPFR_RNDN);
}

/* hypot increases with |a| and |b|: from the magnitudes' enclosures. */
static int hypot_np(struct ub_ival *r, const struct ub_ival *a,
		    const struct ub_ival *b, mpfr_ptr t)
{
	struct ub_ival m[2];
	const struct ub_ival *in[2] = {a, b};
	int st = 0;
	if (is_pinf(a) || is_pinf(b)) /* hypot(+-inf, y) = +inf, y NaN too */
		return set_special(r, 0, 0), 0;
	for (int i = 0; i < 2; i++)
		mpfr_inits2(mpfr_get_prec(r->lo), m[i].lo, m[i].hi, (mpfr_ptr)0);
	for (int i = 0; i < 2 && !st; i++) {
		const struct ub_ival *x[1] = {in[i]};
		st = ub_iv_apply(UB_FABS, &m[i], x, t);
	}
	if (!st) {
		mpfr_hypot(r->lo, m[0].lo, m[1].lo, MPFR_RNDD);
		mpfr_hypot(r->hi, m[0].hi, m[1].hi, MPFR_RNDU);
	}
	for (int i = 0; i < 2; i++)
		mpfr_clears(m[i].lo, m[i].hi, (mpfr_ptr)0);
	return st;
}

/* atan2(y, x) over a box: d/dy has the sign of x, d/dx the sign of -y, so
 * when x > 0, or when neither x nor y may be 0, it is monotone in each
 * argument and its extremes lie at the corners; otherwise the box may
 * touch the origin or the branch cut on x < 0: refine. */
static void atan2_corner(mpfr_ptr v, mpfr_srcptr y, mpfr_srcptr x, mpfr_rnd_t rnd)
{
	mpfr_atan2(v, y, x, rnd);
}

static int atan2_np(struct ub_ival *r, const struct ub_ival *y,
		    const struct ub_ival *x, mpfr_ptr t)
{
	if (strict_sign(x) > 0 || (strict_sign(x) && strict_sign(y))) {
		corners(atan2_corner, r, y, x, t);
		return 0;
	}
	return UB_IV_REFINE;
}

/* fma as a * b then + c: both steps are enclosures, so is the sum. */
static int fma_np(struct ub_ival *r, const struct ub_ival *const *a, mpfr_ptr t)
{
	const struct ub_ival *ab[2] = {a[0], a[1]};
	int st = ub_iv_apply(UB_MUL, r, ab, t);
	if (st)
		return st;
	if (mpfr_nan_p(r->lo) || mpfr_nan_p(a[2]->lo)) {
		set_nan(r);
	} else if (ub_iv_point(r) && ub_iv_point(a[2])) {
		ub_iv_from_ternary(r, mpfr_add(r->lo, r->lo, a[2]->lo, MPFR_RNDN));
	} else {
		add_np(r, r, a[2], 0);
	}
	return 0;
}

static int apply_np(enum ub_expr_op op, struct ub_ival *r,
		    const struct ub_ival *const *a, mpfr_ptr t)
{
	switch (op) {
	case UB_ADD:
	case UB_SUB:
		add_np(r, a[0], a[1], op == UB_SUB);
		return 0;
	case UB_MUL:
		return mul_np(r, a[0], a[1], t);
	case UB_DIV:
		return div_np(r, a[0], a[1], t);
	case UB_FMA:
		return fma_np(r, a, t);
	case UB_POW:
		return pow_np(r, a[0], a[1], t);
	case UB_FMIN:
	case UB_FMAX:
		minmax_np(op, r, a[0], a[1]);
		return 0;
	case UB_HYPOT:
		return hypot_np(r, a[0], a[1], t);
	case UB_ATAN2:
		return atan2_np(r, a[0], a[1], t);
	case UB_FMOD:
	case UB_REMAINDER:
		return ub_iv_fmod(r, a[0], a[1], op == UB_REMAINDER, t);
	case UB_FDIM:
		return ub_iv_fdim(r, a[0], a[1]);
	case UB_COPYSIGN:
		return ub_iv_copysign(r, a[0], a[1]);
	case UB_TGAMMA:
	case UB_LGAMMA:
		return ub_iv_gamma(r, a[0], op == UB_LGAMMA, t);
	default:
		return unary_np(&unary[op], r, a[0], t);
	}
}

int ub_iv_apply(enum ub_expr_op op, struct ub_ival *r,
		const struct ub_ival *const *a, mpfr_ptr t)
{
	int n = ub_expr_ops[op].arity, points = 1, nan = 0;
	if (ub_iv_is_logic(op))
		return ub_iv_logic(op, r, a);
	for (int i = 0; i < n; i++) {
		points = points && ub_iv_point(a[i]);
		nan = nan || mpfr_nan_p(a[i]->lo);
	}
	if (points) {
		point(op, r, a);
		return 0;
	}
	if (nan && op != UB_POW && op != UB_FMIN && op != UB_FMAX && op != UB_COPYSIGN) {
		set_nan(r);
		return 0;
	}
	int st = apply_np(op, r, a, t);
	/* A NaN bound would be a case the rules above missed: not sound to
	 * use, so refine (an intended NaN is a point, set by set_nan). */
	if (!st && mpfr_nan_p(r->lo) != mpfr_nan_p(r->hi))
		st = UB_IV_REFINE;
	return st;
}

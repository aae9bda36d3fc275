/* ref_logic.c — FPCore's conditions over enclosures: < > <= >= == != on
 * the values the intervals hold, and/or/not on truth values.
 *
 * A truth value is an interval too: the point 1 (true), the point 0
 * (false), or [0, 1] (not decided at this precision).  A comparison is
 * true when every pair of values from the two enclosures satisfies it and
 * false when none does; for exact arguments (inputs, exact results) both
 * are points and the answer is always decided.  NaN compares false except
 * with != (IEEE 754); -0 and +0 are equal.  and/or are min/max and not is
 * 1 - x, which are exact on {0, 1} and monotone, so an undecided operand
 * leaves the result undecided only when it matters: (or TRUE c) is true
 * whatever c is.
 *
 * The predicates ask about the value itself, in real numbers where the
 * context is real (isinf of an exact 1e400 is false: only an infinite
 * value is infinite; isnormal: not 0, finite and at least the format's
 * smallest normal): in a format's context their argument is already
 * rounded to it.  Rounding an enclosure to a format (cast, and every
 * operation in a format's context) is monotone, so its ends' roundings
 * enclose the rounded value. */
#include "ref_internal.h"

#include <math.h>

int ub_iv_is_logic(enum ub_expr_op op)
{
	return (op >= UB_LT && op <= UB_NE) || op == UB_AND || op == UB_OR ||
	       op == UB_NOT;
}

static void truth(struct ub_ival *r, int lo, int hi)
{
	mpfr_set_ui(r->lo, (unsigned long)lo, MPFR_RNDN);
	mpfr_set_ui(r->hi, (unsigned long)hi, MPFR_RNDN);
}

/* a < b (strict) or a <= b over all values: 1 certainly, 0 certainly
 * not, -1 undecided. */
static int less(const struct ub_ival *a, const struct ub_ival *b, int strict)
{
	int all = strict ? mpfr_less_p(a->hi, b->lo) : mpfr_lessequal_p(a->hi, b->lo);
	int none = strict ? mpfr_greaterequal_p(a->lo, b->hi)
			  : mpfr_greater_p(a->lo, b->hi);
	return all ? 1 : none ? 0 : -1;
}

static int equal(const struct ub_ival *a, const struct ub_ival *b)
{
	if (mpfr_less_p(a->hi, b->lo) || mpfr_greater_p(a->lo, b->hi))
		return 0;
	return mpfr_equal_p(a->lo, a->hi) && mpfr_equal_p(b->lo, b->hi) &&
	       mpfr_equal_p(a->lo, b->lo) ? 1 : -1;
}

static int compare(enum ub_expr_op op, const struct ub_ival *a,
		   const struct ub_ival *b)
{
	if (mpfr_nan_p(a->lo) || mpfr_nan_p(b->lo))
		return op == UB_NE;
	switch (op) {
	case UB_LT: return less(a, b, 1);
	case UB_LE: return less(a, b, 0);
	case UB_GT: return less(b, a, 1);
	case UB_GE: return less(b, a, 0);
	case UB_EQ: return equal(a, b);
	default: {
		int e = equal(a, b);
		return e < 0 ? e : !e;
	}
	}
}

int ub_iv_logic(enum ub_expr_op op, struct ub_ival *r,
		const struct ub_ival *const *a)
{
	int lo[2], hi[2];
	if (op != UB_AND && op != UB_OR && op != UB_NOT) {
		int v = compare(op, a[0], a[1]);
		truth(r, v < 0 ? 0 : v, v < 0 ? 1 : v);
		return 0;
	}
	for (int i = 0; i < (op == UB_NOT ? 1 : 2); i++) {
		lo[i] = mpfr_cmp_ui(a[i]->lo, 1) >= 0;
		hi[i] = mpfr_cmp_ui(a[i]->hi, 1) >= 0;
	}
	if (op == UB_NOT)
		truth(r, !hi[0], !lo[0]);
	else if (op == UB_AND)
		truth(r, lo[0] && lo[1], hi[0] && hi[1]);
	else
		truth(r, lo[0] || lo[1], hi[0] || hi[1]);
	return 0;
}

/* |x| >= 2^emin of fmt (an infinite end is big): MPFR writes x as
 * 0.1b... * 2^e, so |x| >= 2^emin exactly when e > emin. */
static int big(mpfr_srcptr x, int fmt)
{
	return !mpfr_zero_p(x) && (mpfr_inf_p(x) || mpfr_get_exp(x) > ub_dtypes[fmt].emin);
}

/* 1, 0, or -1 (undecided) for one predicate over a. */
static int predicate(enum ub_expr_op op, int fmt, const struct ub_ival *a)
{
	int point = ub_iv_point(a);
	if (mpfr_nan_p(a->lo))
		return op == UB_ISNAN; /* signbit: the canonical NaN is positive */
	switch (op) {
	case UB_ISNAN:
		return 0;
	case UB_ISINF: /* a non-point's infinite end is a bound: finite */
	case UB_ISFINITE:
		return (point && mpfr_inf_p(a->lo)) == (op == UB_ISINF);
	case UB_SIGNBIT:
		if (point && mpfr_zero_p(a->lo))
			return mpfr_signbit(a->lo) != 0;
		return mpfr_sgn(a->hi) < 0 ? 1 : mpfr_sgn(a->lo) > 0 ? 0 : -1;
	default: /* isnormal: finite, |a| >= 2^emin of fmt */
		if (point && mpfr_inf_p(a->lo))
			return 0;
		if (mpfr_sgn(a->lo) > 0 || mpfr_sgn(a->hi) < 0) { /* one sign */
			mpfr_srcptr in = mpfr_sgn(a->lo) > 0 ? a->lo : a->hi;
			mpfr_srcptr out = mpfr_sgn(a->lo) > 0 ? a->hi : a->lo;
			return big(in, fmt) ? 1 : !big(out, fmt) ? 0 : -1;
		}
		return !big(a->lo, fmt) && !big(a->hi, fmt) ? 0 : -1;
	}
}

int ub_iv_pred(enum ub_expr_op op, int fmt, struct ub_ival *r,
	       const struct ub_ival *a)
{
	int v = predicate(op, fmt, a);
	truth(r, v < 0 ? 0 : v, v < 0 ? 1 : v);
	return 0;
}

/* An integer context: each end rounded to an integer in the context's
 * direction (monotone), the integer itself rounded outward to r's
 * precision. */
static int round_int(int rnd, struct ub_ival *r, const struct ub_ival *a)
{
	typedef int (*rint_fn)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
	static const rint_fn f[4] = {mpfr_rint_roundeven, mpfr_rint_ceil,
				     mpfr_rint_floor, mpfr_rint_trunc};
	f[rnd](r->lo, a->lo, MPFR_RNDD);
	f[rnd](r->hi, a->hi, MPFR_RNDU);
	return 0;
}

int ub_iv_round(int fmt, int rnd, struct ub_ival *r, const struct ub_ival *a)
{
	if (mpfr_nan_p(a->lo)) {
		mpfr_set_nan(r->lo);
		mpfr_set_nan(r->hi);
		return 0;
	}
	if (fmt == UB_PREC_INTEGER)
		return round_int(rnd, r, a);
	mpfr_t y;
	mpfr_rnd_t m = ub_ref_mode(rnd);
	mpfr_init2(y, ub_dtypes[fmt].prec);
	uint64_t lo = ub_ref_round_dir((enum ub_dtype)fmt, y, mpfr_set(y, a->lo, m), m);
	uint64_t hi = ub_ref_round_dir((enum ub_dtype)fmt, y, mpfr_set(y, a->hi, m), m);
	mpfr_clear(y);
	double dl = ub_bits_to_double((enum ub_dtype)fmt, lo);
	double dh = ub_bits_to_double((enum ub_dtype)fmt, hi);
	if (lo != hi && (isinf(dl) || isinf(dh)))
		return UB_IV_REFINE;
	mpfr_set_d(r->lo, dl, MPFR_RNDN); /* exact: r is wider than any format */
	mpfr_set_d(r->hi, dh, MPFR_RNDN);
	return 0;
}

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
 * whatever c is. */
#include "ref_internal.h"

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

/* catalog_pre.c — :pre, FPCore's precondition: any condition over the
 * op's inputs, read in the real context (FPCore 2.0: no rounding unless
 * an annotation asks), split into its conjuncts ((and ...) nested, chains
 * such as (<= lo x hi) included, which catalog_expr.c reads as and).
 *
 * A conjunct that compares one input with a constant ((<= 0 x), (< x
 * 1e18), (== x 2), (>= x (- INFINITY)), a literal or a named constant, ±)
 * narrows that input's domain (struct ub_domain), which drives sampling;
 * every other conjunct ((>= (* b b) (* 4 a c)), (!= x 0), (or ...)) is
 * tested on each sampled candidate (run/inputs.c).  A bound whose constant
 * is exactly a double is all of its conjunct: the domain holds exactly
 * the values that satisfy it (a strict bound becomes the next double, as
 * every format's values are doubles), so it is never tested.  Any other
 * constant (0.1, 1/3, PI) gives the domain the nearest doubles outward,
 * a superset, and its conjunct is tested too.  A compared input is never
 * NaN (a comparison with NaN is false), so its domain excludes NaN. */
#include "catalog_internal.h"

#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

/* The constant c as [lo, hi], the nearest doubles below and above it (equal
 * when c is a double); 0 if c is not a constant this reads. */
static int constant(const struct ub_expr *c, double *lo, double *hi)
{
	if (c->kind == UB_E_OP && c->op == UB_NEG && constant(c->args[0], hi, lo)) {
		*lo = -*lo;
		*hi = -*hi;
		return 1;
	}
	if (c->kind != UB_E_NUM || c->prec >= 0 || !strcmp(c->num, "TRUE") ||
	    !strcmp(c->num, "FALSE") || !strcmp(c->num, "NAN"))
		return 0;
	double v;
	if (ub_expr_const(c->num, &v)) { /* PI ... INFINITY: within 1/2 ulp */
		*lo = isinf(v) ? v : nextafter(v, -INFINITY);
		*hi = isinf(v) ? v : nextafter(v, INFINITY);
		return 1;
	}
	mpfr_t x;
	mpfr_init2(x, 53);
	int ok = 1;
	for (int r = 0; r < 2 && ok; r++) {
		mpfr_rnd_t rnd = r ? MPFR_RNDU : MPFR_RNDD;
		const char *slash = strchr(c->num, '/');
		if (slash) {
			mpq_t q;
			mpq_init(q);
			ok = mpq_set_str(q, c->num + (c->num[0] == '+'), 10) == 0;
			mpq_canonicalize(q);
			mpfr_set_q(x, q, rnd);
			mpq_clear(q);
		} else {
			char *end;
			mpfr_strtofr(x, c->num, &end, 0, rnd);
			ok = *end == '\0';
		}
		*(r ? hi : lo) = mpfr_get_d(x, MPFR_RNDN); /* exact: 53 bits */
	}
	mpfr_clear(x);
	return ok;
}

/* Conjunct e as a bound: its input and domain update, or -1. */
static int bound(const struct ub_expr *e, struct ub_domain *d, int *exact,
		 int ninputs)
{
	if (e->kind != UB_E_OP || ub_expr_ops[e->op].cls != UB_C_CMP ||
	    e->op == UB_NE)
		return -1;
	const struct ub_expr *a = e->args[0], *b = e->args[1];
	int flip = b->kind == UB_E_VAR;
	const struct ub_expr *v = flip ? b : a, *k = flip ? a : b;
	double lo, hi;
	if (v->kind != UB_E_VAR || v->var >= ninputs || !constant(k, &lo, &hi))
		return -1;
	enum ub_expr_op op = e->op; /* as v OP k */
	if (flip)
		op = op == UB_LT ? UB_GT : op == UB_GT ? UB_LT : op == UB_LE ? UB_GE
		     : op == UB_GE ? UB_LE : op;
	*exact = lo == hi;
	*d = (struct ub_domain){-INFINITY, INFINITY, 1, 0};
	if (op == UB_GT || op == UB_GE || op == UB_EQ) /* v >= lo, v > hi */
		d->lo = op == UB_GT && *exact ? nextafter(hi, INFINITY) : lo;
	if (op == UB_LT || op == UB_LE || op == UB_EQ)
		d->hi = op == UB_LT && *exact ? nextafter(lo, -INFINITY) : hi;
	return v->var;
}

static int add(const struct ub_cat_ctx *c, struct ub_op *op, struct ub_expr *e,
	       int input, int exact, int *cap)
{
	if (op->npre == *cap) {
		int nc = *cap ? 2 * *cap : 4;
		struct ub_pre_clause *p = realloc(op->pre, (size_t)nc * sizeof *p);
		if (!p)
			return ub_cat_oom(c);
		op->pre = p;
		*cap = nc;
	}
	op->pre[op->npre++] = (struct ub_pre_clause){ub_expr_ref(e), input, exact};
	return 0;
}

/* The conjuncts of e, in order, with the domains they give. */
static int split(const struct ub_cat_ctx *c, struct ub_expr *e,
		 struct ub_op *op, int *cap)
{
	if (e->kind == UB_E_OP && e->op == UB_AND) {
		int st = split(c, e->args[0], op, cap);
		return st ? st : split(c, e->args[1], op, cap);
	}
	if (e->kind == UB_E_NUM && !strcmp(e->num, "TRUE"))
		return 0;
	struct ub_domain d;
	int exact = 0, k = bound(e, &d, &exact, op->ninputs);
	if (k >= 0) {
		op->dom[k].lo = fmax(op->dom[k].lo, d.lo);
		op->dom[k].hi = fmin(op->dom[k].hi, d.hi);
		op->dom[k].no_nan = 1;
	}
	return add(c, op, e, k, k >= 0 && exact, cap);
}

int ub_cat_pre(const struct ub_cat_ctx *c, const struct ub_sx *x,
	       const struct ub_scope *sc, struct ub_op *op)
{
	int cap = 0, st = ub_cat_expr(c, x, sc, &op->pre_expr);
	if (!st && ub_expr_type_of(op->pre_expr) != UB_T_BOOL)
		st = ub_sx_fail(c->err, c->file, x->line, x->col, ":pre must be a "
				"condition (a comparison, and, or, not, ...), found a "
				"number");
	if (!st)
		st = split(c, op->pre_expr, op, &cap); /* and-nesting: depth-bounded */
	for (int i = 0; i < op->ninputs && !st; i++)
		if (!(op->dom[i].lo <= op->dom[i].hi))
			st = ub_sx_fail(c->err, c->file, x->line, x->col,
					":pre: empty domain for '%s'", op->inputs[i]);
	return st;
}

/* catalog_pre.c — :pre, FPCore's precondition: any condition over the
 * op's inputs, read in the real context (FPCore 2.0: no rounding unless
 * an annotation asks), split into its conjuncts ((and ...) nested, chains
 * such as (<= lo x hi) included, which catalog_expr.c reads as and).
 *
 * A conjunct that compares one input with a constant ((<= 0 x), (< x
 * 1e18), (== x 2), (>= x (- INFINITY)), a literal or a named constant, ±,
 * or any expression without inputs, (< x (* 2 PI)), its value from the
 * reference) narrows that input's domain (struct ub_domain), which drives
 * sampling; so does a bound of its magnitude from above ((< (fabs x) 1):
 * [-1, 1]) and a choice of points ((or (== x 0) (== x 10)): their span,
 * run/inputs_pre.c then drawing the points themselves);
 * every other conjunct ((>= (* b b) (* 4 a c)), (!= x 0), (or ...)) is
 * tested on each sampled candidate (run/inputs.c).  A bound whose constant
 * is exactly a double is all of its conjunct: the domain holds exactly
 * the values that satisfy it (a strict bound becomes the next double, as
 * every format's values are doubles), so it is never tested.  Any other
 * constant (0.1, 1/3, PI) gives the domain the nearest doubles outward,
 * a superset, and its conjunct is tested too.  A compared input is never
 * NaN (a comparison with NaN is false), so its domain excludes NaN. */
#include "catalog_internal.h"
#include "dag.h"
#include "reference.h"

#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

/* Whether e names no input nor loop variable: a constant expression. */
static int closed(const struct ub_expr *e)
{
	const struct ub_dag *d;
	struct ub_error err;
	if (ub_expr_type_of(e) != UB_T_REAL || ub_expr_dag(e, &d, &err))
		return 0;
	for (int i = 0; i < d->n; i++)
		if (d->node[i]->kind == UB_E_VAR || d->node[i]->kind == UB_E_LVAR)
			return 0;
	return 1;
}

/* A constant expression ((* 2 PI), (/ 1 3), (exp 1)) as [lo, hi]: its
 * correctly rounded double r from the reference, widened to the doubles
 * either side (the exact value lies within half an ulp of r); 0 when the
 * reference gives no finite value.  Its conjunct stays tested. */
static int constant_expr(const struct ub_expr *c, double *lo, double *hi)
{
	uint64_t bits;
	struct ub_error err;
	if (!closed(c) || ub_ref_eval(c, UB_F64, NULL, 0, &bits, NULL, &err) != 0)
		return 0;
	double r = ub_bits_to_double(UB_F64, bits);
	if (isnan(r))
		return 0;
	*lo = isinf(r) && r > 0 ? DBL_MAX : nextafter(r, -INFINITY);
	*hi = isinf(r) && r < 0 ? -DBL_MAX : nextafter(r, INFINITY);
	return 1;
}

/* The constant c as [lo, hi], the nearest doubles below and above it (equal
 * when c is a double); 0 if c is not a constant this reads. */
static int constant(const struct ub_expr *c, double *lo, double *hi)
{
	if (c->kind == UB_E_OP && c->op == UB_NEG && constant(c->args[0], hi, lo)) {
		*lo = -*lo;
		*hi = -*hi;
		return 1;
	}
	if (c->kind != UB_E_NUM)
		return c->kind == UB_E_OP && constant_expr(c, lo, hi);
	if (c->prec >= 0 || !strcmp(c->num, "TRUE") ||
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

static int constant(const struct ub_expr *c, double *lo, double *hi);

/* (- x c), (- c x), (+ x c) or (+ c x), c a constant: [clo, chi] the
 * center x is near (c, or -c for a sum), 1; else 0. */
static int near(const struct ub_expr *e, double *clo, double *chi)
{
	if (e->kind != UB_E_OP || (e->op != UB_SUB && e->op != UB_ADD))
		return 0;
	int first = e->args[0]->kind == UB_E_VAR;
	const struct ub_expr *k = e->args[first ? 1 : 0];
	if (e->args[!first]->kind != UB_E_VAR || !constant(k, clo, chi))
		return 0;
	if (e->op == UB_ADD) { /* |x + c| = |x - (-c)| */
		double t = *clo;
		*clo = -*chi;
		*chi = -t;
	}
	return 1;
}

/* An input, the magnitude of one ((fabs x)), or the distance of one from
 * a constant ((fabs (- x c))): its index (*abs set for fabs), or -1. */
static int input_of(const struct ub_expr *v, int ninputs, int *abs)
{
	double lo, hi;
	*abs = v->kind == UB_E_OP && v->op == UB_FABS;
	if (*abs)
		v = v->args[0];
	if (*abs && near(v, &lo, &hi))
		v = v->args[0]->kind == UB_E_VAR ? v->args[0] : v->args[1];
	return v->kind == UB_E_VAR && v->var < ninputs ? v->var : -1;
}

/* Conjunct e as a bound: its input and domain update, or -1.  A bound of
 * (fabs x) from above is the domain [-c, c] of x; one from below is no
 * interval (x <= -c or x >= c: run/inputs_pre.c draws outside the hole),
 * so it only excludes NaN here. */
static int bound(const struct ub_expr *e, struct ub_domain *d, int *exact,
		 int ninputs)
{
	if (e->kind != UB_E_OP || ub_expr_ops[e->op].cls != UB_C_CMP ||
	    e->op == UB_NE)
		return -1;
	const struct ub_expr *a = e->args[0], *b = e->args[1];
	int abs, flip = input_of(b, ninputs, &abs) >= 0;
	const struct ub_expr *v = flip ? b : a, *k = flip ? a : b;
	double lo, hi;
	int var = input_of(v, ninputs, &abs);
	if (var < 0 || !constant(k, &lo, &hi))
		return -1;
	enum ub_expr_op op = e->op; /* as v OP k */
	if (flip)
		op = op == UB_LT ? UB_GT : op == UB_GT ? UB_LT : op == UB_LE ? UB_GE
		     : op == UB_GE ? UB_LE : op;
	*exact = lo == hi;
	*d = (struct ub_domain){-INFINITY, INFINITY, 1, 0};
	double clo, chi;
	if (abs && near(v->args[0], &clo, &chi)) { /* |x - c| OP k: around c */
		*exact = 0;
		if ((op == UB_LT || op == UB_LE || op == UB_EQ) && hi >= 0) {
			d->lo = clo - hi;   /* rounded outward below: fesetround-free */
			d->hi = chi + hi;
			d->lo = nextafter(d->lo, -INFINITY);
			d->hi = nextafter(d->hi, INFINITY);
		}
		return var;
	}
	if (abs) { /* |v| OP k: only an upper bound is a domain, [-hi, hi] */
		*exact = *exact && (op == UB_LT || op == UB_LE) && hi >= 0;
		if ((op == UB_LT || op == UB_LE || op == UB_EQ) && hi >= 0) {
			d->hi = op == UB_LT && *exact ? nextafter(lo, -INFINITY) : hi;
			d->lo = -d->hi;
		}
		return var;
	}
	if (op == UB_GT || op == UB_GE || op == UB_EQ) /* v >= lo, v > hi */
		d->lo = op == UB_GT && *exact ? nextafter(hi, INFINITY) : lo;
	if (op == UB_LT || op == UB_LE || op == UB_EQ)
		d->hi = op == UB_LT && *exact ? nextafter(lo, -INFINITY) : hi;
	return var;
}

/* A choice of points of one input, (or (== x 0) (== x 10) ...), nested
 * ors of equalities with constants (either side): the input, with [lo, hi]
 * widened to hold every point; -1 when e is no such choice. */
static int choice(const struct ub_expr *e, int ninputs, double *lo, double *hi)
{
	if (e->kind == UB_E_OP && e->op == UB_OR) {
		double l1, h1, l2, h2;
		int a = choice(e->args[0], ninputs, &l1, &h1);
		int b = choice(e->args[1], ninputs, &l2, &h2);
		if (a < 0 || a != b)
			return -1;
		*lo = fmin(l1, l2);
		*hi = fmax(h1, h2);
		return a;
	}
	struct ub_domain d;
	int exact, k = e->kind == UB_E_OP && e->op == UB_EQ ? bound(e, &d, &exact, ninputs)
							   : -1;
	if (k < 0 || e->args[0]->kind == UB_E_OP || e->args[1]->kind == UB_E_OP)
		return -1;   /* (== (fabs x) c): two points; not read here */
	*lo = d.lo;
	*hi = d.hi;
	return k;
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
	struct ub_domain d = {-INFINITY, INFINITY, 1, 0};
	int exact = 0, k = bound(e, &d, &exact, op->ninputs);
	if (k < 0 && (k = choice(e, op->ninputs, &d.lo, &d.hi)) >= 0)
		exact = 0; /* the points' span; the clause picks them (tested) */
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

/* ref_exact.c — the reference's exact evaluation (ub_ref_exact): the
 * value of an expression as an exact rational when the rules of
 * ref_poly.h find one, for the elements that Ziv's loop cannot decide
 * because their value is a rounding boundary (a midpoint between two
 * neighbours of the format, or a zero whose sign matters) reached through
 * an inexact step: g / x^2 computed as g * (1/x)^2, rsqrt(x)^3 at a square
 * x, sin(x + e) - sin(x) at e = 0.
 *
 * Each node's value is a polynomial over atoms with rational coefficients
 * (ref_poly.h), or a truth value.  Inputs and literals are exact rationals;
 * + - * fma and division by a nonzero rational are polynomial arithmetic;
 * sqrt, rsqrt and cbrt of rationals are rational at squares and cubes and
 * atoms elsewhere (sqrt(N)^2 reduces to N); every function of expr.h at
 * the rational points where its value is rational (exp 0 = 1, log 1 = 0,
 * log2 8 = 3, cos 0 = 1, acos 1 = 0, ...) gives that value, and elsewhere
 * an atom; comparisons, fmin/fmax, fabs and if need the sign of a
 * difference, which the rules know for rationals and for single terms of
 * atoms whose sign is known; fmod, remainder, fdim, copysign, the gamma
 * functions, the predicates and roundings to a format (cast, operations in
 * a format's context) follow ref_exact_ieee.c; loops run as dag.h's walk
 * says, each condition decided exactly.  Signed zeros follow IEEE 754 for exact
 * operations (x - x = +0, -0 * 3 = -0, (-0) + (-0) = -0): a zero result
 * of nonzero operands is +0 only when an operand is known not to be 0,
 * and everything the rules cannot settle (an atom's unknown sign, a
 * possible 0 divisor, NaN, an infinity, a size limit) gives up.  The
 * argument is in docs/reference.md. */
#include "dag.h"
#include "ref_internal.h"
#include "ref_poly.h"

#include <stdlib.h>
#include <string.h>

struct xval {
	int is_bool, truth;
	int poison;       /* beyond the rules (a size limit, an atom's sign):
			     unknown, and so is every value computed from it;
			     a condition or root that is poisoned gives up */
	struct xpoly p;
};

struct xeval {
	const struct ub_dag *d;
	enum ub_dtype dt;
	const uint64_t *in;
	int nin;
	struct xval *v;
	struct xctx x;
	mpq_t q, r;       /* scratch */
	double deadline;  /* ub_ref_clock() past which a loop gives up */
};

/* ---- literals ----------------------------------------------------------- */

/* FPCore's named constants as c * atom: the atom a function of a rational
 * where there is one (E is exp 1, LN2 is log 2, SQRT2 is sqrt 2), so that
 * the constant and the function meet as one atom. */
static const struct {
	const char *name;
	int key;           /* an operator, XA_SQRT, or XA_CONST (by name) */
	long arg;          /* the function's argument */
	long num, den;     /* c */
} consts[] = {
	{"PI", XA_CONST, 0, 1, 1}, {"PI_2", XA_CONST, 0, 1, 2},
	{"PI_4", XA_CONST, 0, 1, 4}, {"E", UB_EXP, 1, 1, 1},
	{"LN2", UB_LOG, 2, 1, 1}, {"LN10", UB_LOG, 10, 1, 1},
	{"SQRT2", XA_SQRT, 2, 1, 1}, {"SQRT1_2", XA_SQRT, 2, 1, 2},
	{"LOG2E", XA_CONST, 1, 1, 1}, {"LOG10E", XA_CONST, 2, 1, 1},
	{"M_1_PI", XA_CONST, 3, 1, 1}, {"M_2_PI", XA_CONST, 3, 2, 1},
	{"M_2_SQRTPI", XA_CONST, 4, 1, 1},
};

/* p = c * key(arg): every constant is positive. */
static int atom_of(struct xeval *x, struct xpoly *p, int key, long arg,
		   long num, long den)
{
	struct xpoly a;
	xp_init(&a);
	mpq_set_si(x->q, arg, 1);
	int st = key == XA_CONST ? 0 : xp_set_q(&a, x->q, 0);
	int id = st ? XP_GIVEUP : xa_intern(&x->x, key, key == XA_CONST ? (int)arg : 0,
					     key == XA_CONST ? 0 : 1, &a, 1, 1);
	xp_clear(&a);
	if (id < 0)
		return XP_GIVEUP;
	mpq_set_si(x->q, num, (unsigned long)den);
	return xp_set_atom(p, x->q, id);
}

/* The digits of s (hex or decimal, one '.' allowed) as an integer in z,
 * with the count of digits after the '.' in *frac; returns the end, or
 * NULL for more digits than the rules take. */
static const char *mantissa(const char *s, int hex, mpz_ptr z, long *frac)
{
	char buf[512];
	size_t n = 0;
	int dot = 0;
	*frac = 0;
	for (; *s && (hex ? strchr("0123456789abcdefABCDEF.", *s)
			  : strchr("0123456789.", *s)); s++) {
		if (*s == '.') {
			dot = 1;
			continue;
		}
		if (n + 1 == sizeof buf)
			return NULL;
		buf[n++] = *s;
		*frac += dot;
	}
	buf[n] = '\0';
	if (!n || mpz_set_str(z, buf, hex ? 16 : 10))
		mpz_set_ui(z, 0);
	return s;
}

/* A number literal as the sexp reader accepts it (decimal, hex, n/d) into
 * q exactly; -1 for one too long or with a huge exponent. */
static int literal(mpq_ptr q, const char *s, int *negzero)
{
	int neg = *s == '-', hex;
	long frac, e = 0;
	s += *s == '-' || *s == '+';
	*negzero = neg;
	if (strchr(s, '/')) {
		if (strlen(s) > 400 || mpq_set_str(q, s, 10))
			return -1;
		mpq_canonicalize(q);
	} else {
		hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
		s = mantissa(s + 2 * hex, hex, mpq_numref(q), &frac);
		if (!s)
			return -1;
		if (*s)
			e = strtol(s + 1, NULL, 10);
		if (e > 100000 || e < -100000)
			return -1;
		mpz_set_ui(mpq_denref(q), 1);
		e -= hex ? 4 * frac : frac;
		mpz_t p;
		mpz_init(p);
		mpz_ui_pow_ui(p, hex ? 2 : 10, (unsigned long)(e < 0 ? -e : e));
		if (e < 0)
			mpz_set(mpq_denref(q), p);
		else
			mpz_mul(mpq_numref(q), mpq_numref(q), p);
		mpz_clear(p);
		mpq_canonicalize(q);
	}
	if (neg)
		mpq_neg(q, q);
	return 0;
}

static int number(struct xeval *x, struct xval *v, const char *s)
{
	int negzero;
	if (!strcmp(s, "TRUE") || !strcmp(s, "FALSE")) {
		v->is_bool = 1;
		v->truth = s[0] == 'T';
		return 0;
	}
	for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
		if (!strcmp(s, consts[i].name))
			return atom_of(x, &v->p, consts[i].key, consts[i].arg,
				       consts[i].num, consts[i].den);
	if (!strcmp(s, "INFINITY") || !strcmp(s, "NAN") || literal(x->q, s, &negzero))
		return XP_GIVEUP;
	return xp_set_q(&v->p, x->q, negzero);
}

/* ---- arithmetic with IEEE 754's signed zeros -------------------------- */

/* The sign of a value as IEEE sees it: -1 or 1 (a zero by its sign), 2
 * unknown. */
static int ieee_sign(const struct xctx *c, const struct xpoly *p)
{
	return p->n ? xp_sign(c, p) : p->negzero ? -1 : 1;
}

static int add(struct xeval *x, struct xpoly *r, const struct xpoly *a,
	       const struct xpoly *b, int sub)
{
	int st = xp_add(&x->x, r, a, b, sub);
	if (st || r->n)
		return st;
	if (!a->n && !b->n) { /* (-0) + (-0) = -0, any other sum of zeros +0 */
		r->negzero = a->negzero && (b->negzero != sub);
		return 0;
	}
	/* a = -b (or b): +0 when they are nonzero; a zero the rules cannot
	 * see might have either sign */
	return xp_nonzero(&x->x, a) ? 0 : XP_GIVEUP;
}

static int mul(struct xeval *x, struct xpoly *r, const struct xpoly *a,
	       const struct xpoly *b)
{
	int st = xp_mul(&x->x, r, a, b);
	if (st || r->n)
		return st;
	int sa = ieee_sign(&x->x, a), sb = ieee_sign(&x->x, b);
	if ((a->n && b->n) || sa == 2 || sb == 2)
		return XP_GIVEUP; /* 0 from nonzero factors, or a sign unknown */
	r->negzero = (sa < 0) != (sb < 0);
	return 0;
}

/* a / b for a nonzero rational b (else 0, inf or NaN might follow). */
static int divide(struct xeval *x, struct xpoly *r, const struct xpoly *a,
		  const struct xpoly *b)
{
	mpq_srcptr q = xp_rational(b);
	if (!q)
		return XP_GIVEUP;
	mpq_inv(x->q, q);
	int st = xp_scale(r, a, x->q);
	r->negzero = !a->n && (a->negzero != (mpq_sgn(q) < 0));
	return st;
}

static int negate(struct xeval *x, struct xpoly *r, const struct xpoly *a)
{
	mpq_set_si(x->q, -1, 1);
	int st = xp_scale(r, a, x->q);
	r->negzero = !a->n && !a->negzero;
	return st;
}

/* The sign of a - b (2: unknown). */
static int compare(struct xeval *x, const struct xpoly *a, const struct xpoly *b)
{
	struct xpoly d;
	xp_init(&d);
	int s = xp_add(&x->x, &d, a, b, 1) ? 2 : xp_sign(&x->x, &d);
	xp_clear(&d);
	return s;
}

static int condition(struct xeval *x, enum ub_expr_op op, struct xval *r,
		     const struct xval *a, const struct xval *b)
{
	r->is_bool = 1;
	if (op == UB_NOT || op == UB_AND || op == UB_OR) {
		r->truth = op == UB_NOT ? !a->truth : op == UB_AND ? a->truth && b->truth
								  : a->truth || b->truth;
		return 0;
	}
	int s = compare(x, &a->p, &b->p);
	if (s == 2)
		return XP_GIVEUP;
	switch (op) {
	case UB_LT: r->truth = s < 0; break;
	case UB_GT: r->truth = s > 0; break;
	case UB_LE: r->truth = s <= 0; break;
	case UB_GE: r->truth = s >= 0; break;
	case UB_EQ: r->truth = s == 0; break;
	default: r->truth = s != 0; break;
	}
	return 0;
}

/* fmin, fmax: the smaller, larger; of two zeros min takes -0 and max +0
 * (MPFR's mpfr_min and mpfr_max, as the interval evaluation does). */
static int minmax(struct xeval *x, enum ub_expr_op op, struct xpoly *r,
		  const struct xpoly *a, const struct xpoly *b)
{
	int s = compare(x, a, b);
	if (s == 2)
		return XP_GIVEUP;
	int st = xp_copy(r, (s < 0) == (op == UB_FMIN) ? a : b);
	if (!st && !a->n && !b->n)
		r->negzero = op == UB_FMIN ? a->negzero || b->negzero
					   : a->negzero && b->negzero;
	return st;
}

static int fabs_of(struct xeval *x, struct xpoly *r, const struct xpoly *a)
{
	int s = a->n ? xp_sign(&x->x, a) : 1;
	if (s == 2)
		return XP_GIVEUP;
	mpq_set_si(x->q, s, 1);
	return xp_scale(r, a, x->q); /* a zero gives +0 */
}

/* ---- the operators ------------------------------------------------------ */

static int arith(struct xeval *x, enum ub_expr_op op, struct xpoly *r,
		 const struct xpoly *const *a)
{
	struct xpoly t;
	int st;
	switch (op) {
	case UB_ADD:
	case UB_SUB:
		return add(x, r, a[0], a[1], op == UB_SUB);
	case UB_MUL:
		return mul(x, r, a[0], a[1]);
	case UB_DIV:
		return divide(x, r, a[0], a[1]);
	case UB_NEG:
		return negate(x, r, a[0]);
	case UB_FABS:
		return fabs_of(x, r, a[0]);
	case UB_FMIN:
	case UB_FMAX:
		return minmax(x, op, r, a[0], a[1]);
	case UB_FMOD:
	case UB_REMAINDER:
		return xi_fmod(&x->x, op == UB_REMAINDER, r, a[0], a[1]);
	case UB_FDIM:
		return xi_fdim(&x->x, r, a[0], a[1]);
	case UB_COPYSIGN:
		return xi_copysign(&x->x, r, a[0], a[1]);
	case UB_TGAMMA:
	case UB_LGAMMA:
		return xi_gamma(&x->x, op == UB_LGAMMA, r, a[0]);
	case UB_FMA: /* one rounding of the exact a*b + c: zeros as for mul, add */
		xp_init(&t);
		st = mul(x, &t, a[0], a[1]);
		if (!st)
			st = add(x, r, &t, a[2], 0);
		xp_clear(&t);
		return st;
	default:
		return xf_apply(&x->x, op, r, a[0], ub_expr_ops[op].arity > 1 ? a[1] : NULL);
	}
}

/* A long loop: the thread's time budget (ref_budget.c) stops it. */
static int tick(void *ctx)
{
	struct xeval *x = ctx;
	return x->deadline > 0 && ub_ref_clock() > x->deadline ? XP_GIVEUP : 0;
}

static int test(void *ctx, int k, int *truth)
{
	struct xeval *x = ctx;
	*truth = x->v[k].truth;
	return x->v[k].poison ? XP_GIVEUP : 0;
}

static int copy_val(struct xval *v, const struct xval *from)
{
	v->is_bool = from->is_bool;
	v->truth = from->truth;
	v->poison = from->poison;
	return from->poison ? 0 : xp_copy(&v->p, &from->p);
}

static int assign(void *ctx, int v, int from)
{
	struct xeval *x = ctx;
	return v == from ? 0 : copy_val(&x->v[v], &x->v[from]);
}

/* An operation of expr.h (not if, cast or a loop), then its rounding in a
 * format's context. */
static int operation(struct xeval *x, int i, const struct ub_expr *e)
{
	struct xval *v = &x->v[i];
	const struct xval *a[3];
	const struct xpoly *p[3];
	if (e->nargs > 3)
		return XP_GIVEUP;
	for (int k = 0; k < e->nargs; k++) {
		a[k] = &x->v[ub_dag_arg(x->d, i, k)];
		p[k] = &a[k]->p;
	}
	if (ub_expr_ops[e->op].cls == UB_C_PRED) {
		v->is_bool = 1;
		return xi_pred(&x->x, e->op, e->prec >= 0 ? e->prec : (int)x->dt,
			       p[0], &v->truth);
	}
	if (UB_EXPR_IS_BOOL(e->op))
		return condition(x, e->op, v, a[0], e->nargs > 1 ? a[1] : NULL);
	int st = arith(x, e->op, &v->p, p);
	if (st || !ub_prec_rounds(e->prec))
		return st;
	if (e->rnd == UB_RND_DOWN && !v->p.n && (e->op == UB_ADD || e->op == UB_SUB)) {
		/* IEEE 754: an exact zero sum is -0 toward -inf, but +0 + +0 */
		v->p.negzero = !(!p[0]->n && !p[0]->negzero && !p[1]->n &&
				 p[1]->negzero == (e->op == UB_SUB));
	} else if (e->rnd == UB_RND_DOWN && !v->p.n && e->op == UB_FMA) {
		return XP_GIVEUP; /* the product's zero: not worth the rule */
	}
	return xi_round(&x->x, e->prec, e->rnd, &v->p, &v->p);
}

static int apply_one(struct xeval *x, int i, int from);

/* Node i's exact value, or its poison: a value the rules cannot give
 * (a size limit, an unknown sign) poisons the node and every node
 * computed from it, and the evaluation goes on, so that a loop whose
 * condition needs only some of its variables (e decreasing by a literal)
 * is decided though another (y, a polynomial of growing degree) grows
 * past every limit. */
static int apply(void *ctx, int i, int from)
{
	struct xeval *x = ctx;
	const struct ub_expr *e = x->d->node[i];
	struct xval *v = &x->v[i];
	if (e->kind == UB_E_OP && from < 0)
		for (int k = 0; k < e->nargs; k++)
			if (x->v[ub_dag_arg(x->d, i, k)].poison) {
				v->poison = 1;
				v->is_bool = UB_EXPR_IS_BOOL(e->op);
				return 0;
			}
	v->poison = 0;
	int st = apply_one(x, i, from);
	if (st == XP_GIVEUP) {
		v->poison = 1;
		v->is_bool = e->kind == UB_E_OP && UB_EXPR_IS_BOOL(e->op);
		return 0;
	}
	return st;
}

static int apply_one(struct xeval *x, int i, int from)
{
	const struct ub_expr *e = x->d->node[i];
	struct xval *v = &x->v[i];
	int st;
	if (e->kind == UB_E_NUM) {
		st = number(x, v, e->num);
		return st || !ub_prec_rounds(e->prec) || v->is_bool ? st
		       : xi_round(&x->x, e->prec, e->rnd, &v->p, &v->p);
	}
	if (e->kind == UB_E_LVAR)
		return XP_GIVEUP; /* assigned by its loop, never applied */
	if (e->kind == UB_E_VAR) {
		double d = e->var < x->nin ? ub_bits_to_double(x->dt, x->in[e->var]) : 0;
		if (e->var >= x->nin || d != d || d - d != 0)
			return XP_GIVEUP; /* NaN or an infinity */
		mpq_set_d(x->q, d); /* exact: every dtype's values are doubles */
		return xp_set_q(&v->p, x->q, d == 0 && 1 / d < 0);
	}
	if (from >= 0)
		return copy_val(v, &x->v[ub_dag_arg(x->d, i, from)]);
	if (e->op == UB_CAST) {
		st = copy_val(v, &x->v[ub_dag_arg(x->d, i, 0)]);
		return st || !ub_prec_rounds(e->prec) ? st
		       : xi_round(&x->x, e->prec, e->rnd, &v->p, &v->p);
	}
	return operation(x, i, e);
}

/* Walks d at the inputs; the root's value in *root (x's, freed by done). */
static struct xeval *walk(const struct ub_dag *d, enum ub_dtype dt,
			  const uint64_t *in, int nin, int *st)
{
	static const struct ub_walk_fns fns = {test, apply, assign, tick};
	struct xeval *x = calloc(1, sizeof *x);
	struct ub_walk w;
	memset(&w, 0, sizeof w);
	if (!x || !(x->v = calloc((size_t)d->n, sizeof *x->v))) {
		free(x);
		*st = XP_GIVEUP;
		return NULL;
	}
	x->d = d;
	x->dt = dt;
	x->in = in;
	x->nin = nin;
	x->deadline = ub_ref_budget() > 0 ? ub_ref_clock() + ub_ref_budget() : 0;
	mpq_inits(x->q, x->r, (mpq_ptr)0);
	*st = ub_dag_walk(d, &w, &fns, x);
	ub_walk_free(&w);
	return x;
}

static void done(struct xeval *x)
{
	for (int i = 0; i < x->d->n; i++)
		xp_clear(&x->v[i].p);
	xp_ctx_clear(&x->x);
	mpq_clears(x->q, x->r, (mpq_ptr)0);
	free(x->v);
	free(x);
}

int ub_ref_exact(const struct ub_dag *d, enum ub_dtype dt, const uint64_t *in,
		 int nin, uint64_t *cr, struct ub_exact *exact)
{
	int st;
	struct xeval *x = walk(d, dt, in, nin, &st);
	if (!x)
		return XP_GIVEUP;
	const struct xval *root = &x->v[d->n - 1];
	if (!st && (root->poison || root->is_bool || !xp_is_rational(&root->p)))
		st = XP_GIVEUP;
	if (!st) {
		mpq_srcptr q = xp_rational(&root->p);
		mpq_set_ui(x->q, 0, 1);
		*cr = ub_ref_round_q(dt, q ? q : x->q, root->p.negzero);
		if (exact)
			ub_ref_exact_q(q ? q : x->q, root->p.negzero, exact);
	}
	done(x);
	return st ? XP_GIVEUP : 0;
}

int ub_ref_exact_truth(const struct ub_dag *d, enum ub_dtype dt,
		       const uint64_t *in, int nin, int *truth)
{
	int st;
	struct xeval *x = walk(d, dt, in, nin, &st);
	if (!x)
		return XP_GIVEUP;
	const struct xval *root = &x->v[d->n - 1];
	if (!st && (root->poison || !root->is_bool))
		st = XP_GIVEUP;
	if (!st)
		*truth = root->truth;
	done(x);
	return st ? XP_GIVEUP : 0;
}

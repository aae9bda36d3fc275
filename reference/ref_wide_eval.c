/* ref_wide_eval.c — the reference's second evaluation (docs/reference.md):
 * the expression walked over wide values (ref_wide.c: enclosures scaled
 * by any power of two, and values near 1 kept as their distance from 1),
 * at precisions 127, 255, 511, ... until the rounding is decided or the
 * element's time is up.  ref_mpfr.c asks for it when its own enclosures
 * left MPFR's exponent range (a product of powers of 1e-300, exp of
 * 1e300) or a sum absorbed more bits than the budget can buy back
 * (1 - 1/(1 + e^-s)).  The argument is ref_mpfr.c's: every node's wide
 * value encloses its exact value, rounding is monotone, and the root's
 * two ends rounding alike decide; a value beyond MPFR's exponents is
 * beyond every format's, so its plain enclosure (a bound at MPFR's ends)
 * rounds to the same infinity or zero.  Conditions are decided on points,
 * loops run as dag.h's walk says. */
#include "dag.h"
#include "ref_internal.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIDE_START 127
#define WIDE_MAX 65535
#define WIDE_TIME (-12) /* the walk stopped: the budget is spent */

struct wcache {
	mpfr_prec_t prec;
	int n;
	struct ub_wv *slot;
	const struct ub_wv **val;
	struct ub_walk walk;
	struct ub_wv one;        /* the point 1 */
	struct ub_ival t, p0, p1, pr; /* scratch: plain enclosures */
	mpfr_t u;
	struct ub_sv s0, s1;     /* scratch: scaled values */
	int nin_cap;
	struct ub_wv *in;
	double deadline;
	int range_left;          /* a plain fallback met a bound beyond */
};

static _Thread_local struct wcache *wtls;

static void wv_init(struct ub_wv *w, mpfr_prec_t p)
{
	ub_sv_init(&w->x, p);
	ub_sv_init(&w->c, p);
	w->has_c = 0;
}

static void wv_clear(struct ub_wv *w)
{
	ub_sv_clear(&w->x);
	ub_sv_clear(&w->c);
}

static void wv_prec(struct ub_wv *w, mpfr_prec_t p)
{
	ub_sv_set_prec(&w->x, p);
	ub_sv_set_prec(&w->c, p);
}

void ub_ref_wide_release(void)
{
	struct wcache *c = wtls;
	if (!c)
		return;
	for (int i = 0; i < c->n; i++)
		wv_clear(&c->slot[i]);
	for (int i = 0; i < c->nin_cap; i++)
		wv_clear(&c->in[i]);
	wv_clear(&c->one);
	mpfr_clears(c->t.lo, c->t.hi, c->p0.lo, c->p0.hi, c->p1.lo, c->p1.hi, c->pr.lo,
		    c->pr.hi, c->u, (mpfr_ptr)0);
	ub_sv_clear(&c->s0);
	ub_sv_clear(&c->s1);
	free(c->slot);
	free(c->val);
	free(c->in);
	ub_walk_free(&c->walk);
	free(c);
	wtls = NULL;
}

static struct wcache *wcache_get(int n, int nin)
{
	struct wcache *c = wtls;
	if (!c) {
		if (!(c = wtls = calloc(1, sizeof *c)))
			return NULL;
		c->prec = WIDE_START;
		wv_init(&c->one, WIDE_START);
		mpfr_inits2(WIDE_START, c->t.lo, c->t.hi, c->p0.lo, c->p0.hi, c->p1.lo,
			    c->p1.hi, c->pr.lo, c->pr.hi, c->u, (mpfr_ptr)0);
		ub_sv_init(&c->s0, WIDE_START);
		ub_sv_init(&c->s1, WIDE_START);
	}
	if (n > c->n) {
		struct ub_wv *s = realloc(c->slot, (size_t)n * sizeof *s);
		const struct ub_wv **v = s ? realloc(c->val, (size_t)n * sizeof *v) : NULL;
		if (s)
			c->slot = s;
		if (!v)
			return NULL;
		c->val = v;
		for (int i = c->n; i < n; i++)
			wv_init(&c->slot[i], c->prec);
		c->n = n;
	}
	if (nin > c->nin_cap) {
		struct ub_wv *in = realloc(c->in, (size_t)nin * sizeof *in);
		if (!in)
			return NULL;
		c->in = in;
		for (int i = c->nin_cap; i < nin; i++)
			wv_init(&c->in[i], 64);
		c->nin_cap = nin;
	}
	return c;
}

static void set_prec(struct wcache *c, mpfr_prec_t p)
{
	for (int i = 0; i < c->n; i++)
		wv_prec(&c->slot[i], p);
	wv_prec(&c->one, p);
	mpfr_set_prec(c->t.lo, p), mpfr_set_prec(c->t.hi, p);
	mpfr_set_prec(c->p0.lo, p), mpfr_set_prec(c->p0.hi, p);
	mpfr_set_prec(c->p1.lo, p), mpfr_set_prec(c->p1.hi, p);
	mpfr_set_prec(c->pr.lo, p), mpfr_set_prec(c->pr.hi, p);
	mpfr_set_prec(c->u, p);
	ub_sv_set_prec(&c->s0, p);
	ub_sv_set_prec(&c->s1, p);
	mpfr_set_ui(c->t.lo, 1, MPFR_RNDN);
	mpfr_set_ui(c->t.hi, 1, MPFR_RNDN);
	ub_sv_from(&c->one.x, &c->t);
	c->one.has_c = 0;
	c->prec = p;
}

struct wwalk {
	struct wcache *c;
	const struct ub_dag *d;
	enum ub_dtype dt;
	int nin;
};

/* ---- operations --------------------------------------------------------- */

/* op computed on plain enclosures (the args converted outward), r from
 * the result: every operation without a rule of its own. */
static int plain_op(struct wcache *c, enum ub_expr_op op, int fmt, struct ub_sv *r,
		    const struct ub_sv *const *a, int n)
{
	struct ub_ival pa[3];
	const struct ub_ival *pp[3];
	for (int k = 0; k < n; k++) {
		mpfr_inits2(c->prec, pa[k].lo, pa[k].hi, (mpfr_ptr)0);
		ub_sv_plain(&pa[k], a[k]);
		c->range_left |= ub_sv_beyond(a[k]);
		pp[k] = &pa[k];
	}
	int st = ub_expr_ops[op].cls == UB_C_PRED ? ub_iv_pred(op, fmt, &c->pr, pp[0])
		 : ub_iv_apply(op, &c->pr, pp, c->u);
	for (int k = 0; k < n; k++)
		mpfr_clears(pa[k].lo, pa[k].hi, (mpfr_ptr)0);
	if (st)
		return st;
	if (UB_EXPR_IS_BOOL(op)) { /* a truth value stays plain */
		mpfr_set(r->v.lo, c->pr.lo, MPFR_RNDN);
		mpfr_set(r->v.hi, c->pr.hi, MPFR_RNDN);
		mpz_set_ui(r->s, 0);
	} else {
		ub_sv_from(r, &c->pr);
	}
	return 0;
}

/* Whether x is below 1/2 in magnitude (its scale below 0): a value 1 - x
 * is near 1, and worth keeping as its distance. */
static int small(const struct ub_sv *x)
{
	return mpz_sgn(x->s) < 0 && mpfr_number_p(x->v.lo) && mpfr_number_p(x->v.hi);
}

/* r's value from its complement: 1 - c; the complement kept only while
 * it is small (a value far from 1 gains nothing by it). */
static int from_c(struct wcache *c, struct ub_wv *r)
{
	r->has_c = small(&r->c);
	return ub_sv_arith(UB_SUB, &r->x, &c->one.x, &r->c, &c->t, c->u);
}

/* log1p(-c) of a complement into r (scaled, or plain). */
static int log1p_neg(struct wcache *c, struct ub_sv *r, const struct ub_sv *cc)
{
	ub_sv_neg(&c->s1, cc);
	if (ub_sv_log(UB_LOG1P, r, &c->s1, c->u) == 0)
		return 0;
	const struct ub_sv *args[1] = {&c->s1};
	return plain_op(c, UB_LOG1P, 0, r, args, 1);
}

/* (1 - cc)^y for a tiny cc (below 2^-16): Z = y log1p(-cc) at the
 * precision that keeps p bits of e^Z (Z is about y cc: p plus its
 * scale's bits), then r = e^Z with its complement -expm1(Z) (for |Z| <
 * 1/2; a larger Z gives a value far from 1, e^Z alone). */
static int pow_near_one(struct wcache *c, struct ub_wv *r, const struct ub_sv *cc,
			const struct ub_sv *y)
{
	long cs = mpz_cmp_si(cc->s, -(1L << 40)) < 0 ? -(1L << 40) : mpz_get_si(cc->s);
	long zs = mpz_get_si(y->s) + cs; /* y's scale is at most 4096 here */
	mpfr_prec_t P = c->prec + (zs > 0 ? zs : 0) + 32;
	struct ub_sv l, z, m, n;
	struct ub_ival t;
	mpfr_t u;
	ub_sv_init(&l, P), ub_sv_init(&z, P), ub_sv_init(&m, P), ub_sv_init(&n, P);
	mpfr_inits2(P, t.lo, t.hi, u, (mpfr_ptr)0);
	ub_sv_neg(&n, cc);                        /* exact: P >= cc's precision */
	int st = ub_sv_log(UB_LOG1P, &l, &n, u);  /* tiny: -cc (1 +- 2^-P) */
	if (st) { /* not tiny enough for that: MPFR's log1p, at P */
		struct ub_ival pn, pl;
		mpfr_inits2(P, pn.lo, pn.hi, pl.lo, pl.hi, (mpfr_ptr)0);
		ub_sv_plain(&pn, &n);
		const struct ub_ival *args[1] = {&pn};
		if (!(st = ub_iv_apply(UB_LOG1P, &pl, args, u)))
			ub_sv_from(&l, &pl);
		mpfr_clears(pn.lo, pn.hi, pl.lo, pl.hi, (mpfr_ptr)0);
	}
	if (!st)
		st = ub_sv_arith(UB_MUL, &z, &l, y, &t, u);
	if (!st && !small(&z)) { /* |Z| >= 1/2: e^Z itself, far from 1 */
		r->has_c = 0;
		if ((st = ub_sv_exp(UB_EXP, &m, &z, u)) != 0) {
			struct ub_ival pz, pm;
			mpfr_inits2(P, pz.lo, pz.hi, pm.lo, pm.hi, (mpfr_ptr)0);
			ub_sv_plain(&pz, &z);
			const struct ub_ival *args[1] = {&pz};
			if (!(st = ub_iv_apply(UB_EXP, &pm, args, u)))
				ub_sv_from(&m, &pm);
			mpfr_clears(pz.lo, pz.hi, pm.lo, pm.hi, (mpfr_ptr)0);
		}
		if (!st)
			ub_sv_copy(&r->x, &m);
		ub_sv_clear(&l), ub_sv_clear(&z), ub_sv_clear(&m), ub_sv_clear(&n);
		mpfr_clears(t.lo, t.hi, u, (mpfr_ptr)0);
		return st;
	}
	if (!st && (st = ub_sv_exp(UB_EXPM1, &m, &z, u)) != 0) { /* e^Z - 1 */
		struct ub_ival pz, pm;
		mpfr_inits2(P, pz.lo, pz.hi, pm.lo, pm.hi, (mpfr_ptr)0);
		ub_sv_plain(&pz, &z);
		const struct ub_ival *args[1] = {&pz};
		if (!(st = ub_iv_apply(UB_EXPM1, &pm, args, u)))
			ub_sv_from(&m, &pm);
		mpfr_clears(pz.lo, pz.hi, pm.lo, pm.hi, (mpfr_ptr)0);
	}
	if (!st) {
		ub_sv_neg(&n, &m);
		ub_sv_copy(&r->c, &n);   /* rounded outward to p */
		st = from_c(c, r);
	}
	ub_sv_clear(&l), ub_sv_clear(&z), ub_sv_clear(&m), ub_sv_clear(&n);
	mpfr_clears(t.lo, t.hi, u, (mpfr_ptr)0);
	return st;
}

/* The rules of values near 1 (ref_wide.c's file comment): 1 when one
 * applied (r set), 0 when none does, or a status. */
static int near_one(struct wcache *c, enum ub_expr_op op, struct ub_wv *r,
		    const struct ub_wv *const *a)
{
	int one0 = ub_sv_is_one(&a[0]->x), one1 = op != UB_NEG && ub_expr_ops[op].arity > 1 &&
						  ub_sv_is_one(&a[1]->x);
	int st;
	switch (op) {
	case UB_ADD:
		if ((one0 && small(&a[1]->x)) || (one1 && small(&a[0]->x))) { /* 1 + w: c = -w */
			ub_sv_neg(&r->c, &a[one0 ? 1 : 0]->x);
			return (st = from_c(c, r)) ? st : 1;
		}
		if (a[0]->has_c || a[1]->has_c) { /* (1 - c) + w: c - w */
			const struct ub_wv *v = a[0]->has_c ? a[0] : a[1], *w = v == a[0] ? a[1] : a[0];
			st = ub_sv_arith(UB_SUB, &r->c, &v->c, &w->x, &c->t, c->u);
			return st ? st : (st = from_c(c, r)) ? st : 1;
		}
		return 0;
	case UB_SUB:
		if (one0 && a[1]->has_c) /* 1 - (1 - c) = c */
			return ub_sv_copy(&r->x, &a[1]->c), 1;
		if (one1 && a[0]->has_c) /* (1 - c) - 1 = -c */
			return ub_sv_neg(&r->x, &a[0]->c), 1;
		if (one0 && small(&a[1]->x)) { /* 1 - w: c = w */
			ub_sv_copy(&r->c, &a[1]->x);
			return (st = from_c(c, r)) ? st : 1;
		}
		if (a[0]->has_c) { /* (1 - c) - w: c + w */
			st = ub_sv_arith(UB_ADD, &r->c, &a[0]->c, &a[1]->x, &c->t, c->u);
			return st ? st : (st = from_c(c, r)) ? st : 1;
		}
		return 0;
	case UB_DIV: /* 1 / (1 - c) = 1 - c', c' = -c / (1 - c) */
		if (!one0 || !a[1]->has_c || !(mpfr_sgn(a[1]->x.v.lo) > 0))
			return 0;
		if ((st = ub_sv_arith(UB_DIV, &c->s0, &a[1]->c, &a[1]->x, &c->t, c->u)) != 0)
			return st;
		ub_sv_neg(&r->c, &c->s0);
		return (st = from_c(c, r)) ? st : 1;
	case UB_MUL: /* (1 - c1)(1 - c2) = 1 - (c1 + c2 - c1 c2) */
		if (!a[0]->has_c || !a[1]->has_c)
			return 0;
		if ((st = ub_sv_arith(UB_MUL, &c->s0, &a[0]->c, &a[1]->c, &c->t, c->u)) ||
		    (st = ub_sv_arith(UB_ADD, &c->s1, &a[0]->c, &a[1]->c, &c->t, c->u)) ||
		    (st = ub_sv_arith(UB_SUB, &r->c, &c->s1, &c->s0, &c->t, c->u)))
			return st;
		return (st = from_c(c, r)) ? st : 1;
	case UB_POW: /* (1 - c)^y = e^Z, Z = y log1p(-c): c' = -expm1(Z) */
		if (!a[0]->has_c || !(mpfr_sgn(a[0]->x.v.lo) > 0) ||
		    mpz_cmp_si(a[0]->c.s, -16) >= 0 || mpz_cmp_si(a[1]->x.s, 4096) > 0)
			return 0; /* c not tiny: v^y itself is as good (ub_sv_pow) */
		return (st = pow_near_one(c, r, &a[0]->c, &a[1]->x)) ? st : 1;
	case UB_LOG:
	case UB_LOG2:
	case UB_LOG10:
		if (!a[0]->has_c || op != UB_LOG)
			return 0;
		return (st = log1p_neg(c, &r->x, &a[0]->c)) ? st : 1;
	default:
		return 0;
	}
}

/* Whether x's magnitude is at least 2^k (its scale and v's top end). */
static int at_least(const struct ub_sv *x, long k)
{
	return mpz_cmp_si(x->s, k) > 0;
}

static int wide_op(struct wcache *c, enum ub_expr_op op, int fmt, struct ub_wv *r,
		   const struct ub_wv *const *a, int n)
{
	r->has_c = 0;
	const struct ub_sv *x[3];
	for (int k = 0; k < n; k++)
		x[k] = &a[k]->x;
	if (ub_expr_ops[op].cls == UB_C_PRED || op == UB_AND || op == UB_OR || op == UB_NOT)
		return plain_op(c, op, fmt, &r->x, x, n);
	if (ub_iv_is_logic(op)) /* a comparison: aligned, a plain truth value */
		return ub_sv_arith(op, &r->x, &a[0]->x, &a[1]->x, &c->t, c->u);
	int st = near_one(c, op, r, a);
	if (st)
		return st < 0 ? st : 0;
	r->has_c = 0;
	switch (op) {
	case UB_ADD:
	case UB_SUB:
	case UB_MUL:
	case UB_DIV:
	case UB_FMIN:
	case UB_FMAX:
		return ub_sv_arith(op, &r->x, &a[0]->x, &a[1]->x, &c->t, c->u);
	case UB_NEG:
		return ub_sv_neg(&r->x, &a[0]->x), 0;
	case UB_FMA:
		if ((st = ub_sv_arith(UB_MUL, &c->s0, &a[0]->x, &a[1]->x, &c->t, c->u)) != 0)
			return st;
		return ub_sv_arith(UB_ADD, &r->x, &c->s0, &a[2]->x, &c->t, c->u);
	case UB_SQRT:
	case UB_CBRT:
		if (mpfr_sgn(a[0]->x.v.lo) > 0 && ub_sv_root(op, &r->x, &a[0]->x, c->u) == 0)
			return 0;
		break;
	case UB_POW:
		if (ub_sv_pow(&r->x, &a[0]->x, &a[1]->x, c->u) == 0)
			return 0;
		break;
	case UB_EXP:
	case UB_EXP2:
	case UB_EXPM1:
		if ((at_least(&a[0]->x, 10) || (op == UB_EXPM1 && !at_least(&a[0]->x, -(long)c->prec - 8))) &&
		    ub_sv_exp(op, &r->x, &a[0]->x, c->u) == 0)
			return 0;
		break;
	case UB_LOG:
	case UB_LOG2:
	case UB_LOG10:
	case UB_LOG1P:
		if ((ub_sv_beyond(&a[0]->x) || (op == UB_LOG1P && (at_least(&a[0]->x, 64) ||
		     !at_least(&a[0]->x, -(long)c->prec - 8)))) &&
		    ub_sv_log(op, &r->x, &a[0]->x, c->u) == 0)
			return 0;
		break;
	default:
		break;
	}
	return plain_op(c, op, fmt, &r->x, x, n);
}

/* A context's rounding (expr.h's prec): on the plain enclosure. */
static int round_ctx(struct wcache *c, const struct ub_expr *e, struct ub_wv *r)
{
	ub_sv_plain(&c->pr, &r->x);
	int st = ub_iv_round(e->prec, e->rnd, &c->pr, &c->pr);
	if (!st)
		ub_sv_from(&r->x, &c->pr);
	r->has_c = 0;
	return st;
}

/* ---- the walk ----------------------------------------------------------- */

static int test(void *ctx, int k, int *truth)
{
	struct wwalk *w = ctx;
	const struct ub_ival *v = &w->c->val[k]->x.v;
	if (!ub_iv_point(v))
		return UB_IV_REFINE;
	*truth = !mpfr_zero_p(v->lo);
	return 0;
}

static void wv_copy(struct ub_wv *r, const struct ub_wv *a)
{
	ub_sv_copy(&r->x, &a->x);
	r->has_c = a->has_c;
	if (a->has_c)
		ub_sv_copy(&r->c, &a->c);
}

static int assign(void *ctx, int v, int from)
{
	struct wwalk *w = ctx;
	struct wcache *c = w->c;
	wv_copy(&c->slot[v], c->val[from]);
	c->val[v] = &c->slot[v];
	return 0;
}

static int tick(void *ctx)
{
	struct wwalk *w = ctx;
	return w->c->deadline > 0 && ub_ref_clock() > w->c->deadline ? WIDE_TIME : 0;
}

static int apply(void *ctx, int i, int from)
{
	struct wwalk *w = ctx;
	struct wcache *c = w->c;
	const struct ub_expr *e = w->d->node[i];
	struct ub_wv *r = &c->slot[i];
	switch (e->kind) {
	case UB_E_VAR:
		if (e->var < 0 || e->var >= w->nin)
			return UB_USAGE;
		c->val[i] = &c->in[e->var];
		return 0;
	case UB_E_NUM:
		ub_iv_number(&c->pr, e->num);
		if (!strcmp(e->num, "TRUE") || !strcmp(e->num, "FALSE")) {
			mpfr_set(r->x.v.lo, c->pr.lo, MPFR_RNDN);
			mpfr_set(r->x.v.hi, c->pr.hi, MPFR_RNDN);
			mpz_set_ui(r->x.s, 0);
		} else {
			ub_sv_from(&r->x, &c->pr);
		}
		r->has_c = 0;
		c->val[i] = r;
		return ub_prec_rounds(e->prec) ? round_ctx(c, e, r) : 0;
	case UB_E_LVAR:
		return UB_USAGE;
	case UB_E_OP:
		break;
	}
	if (from >= 0) {
		c->val[i] = c->val[ub_dag_arg(w->d, i, from)];
		return 0;
	}
	const struct ub_wv *a[3];
	if (e->nargs > 3)
		return UB_USAGE;
	for (int k = 0; k < e->nargs; k++)
		a[k] = c->val[ub_dag_arg(w->d, i, k)];
	c->val[i] = r;
	if (e->op == UB_CAST) {
		wv_copy(r, a[0]);
		return ub_prec_rounds(e->prec) ? round_ctx(c, e, r) : 0;
	}
	int st = wide_op(c, e->op, e->prec >= 0 ? e->prec : (int)w->dt, r, a, e->nargs);
	if (!st && ub_prec_rounds(e->prec) && !UB_EXPR_IS_BOOL(e->op))
		st = round_ctx(c, e, r);
	return st;
}

/* ---- the loop ----------------------------------------------------------- */

static int attempt(struct wcache *c, const struct ub_dag *d, enum ub_dtype dt,
		   int nin, uint64_t *cr, struct ub_exact *x, int *why)
{
	static const struct ub_walk_fns fns = {test, apply, assign, tick};
	struct wwalk w = {c, d, dt, nin};
	c->range_left = 0;
	mpfr_clear_overflow();
	mpfr_clear_underflow();
	int st = ub_dag_walk(d, &c->walk, &fns, &w);
	/* a plain operation past MPFR's exponents (exp of a value whose
	 * result no scale holds): a bound there, never narrowing */
	c->range_left |= mpfr_overflow_p() || mpfr_underflow_p();
	if (st == WIDE_TIME) {
		*why = UB_UND_TIME;
		return UB_IV_REFINE;
	}
	if (st == UB_WALK_LOOP_LIMIT) {
		*why = UB_UND_LOOP;
		return UB_IV_REFINE;
	}
	*why = c->range_left ? UB_UND_RANGE : UB_UND_PRECISION;
	if (st)
		return st;
	ub_sv_plain(&c->pr, &c->val[d->n - 1]->x);
	struct ub_ival *r = &c->pr;
	if (mpfr_nan_p(r->lo)) {
		*cr = ub_ref_encode(dt, NAN);
		if (x)
			*x = (struct ub_exact){NAN, 0};
		return 0;
	}
	mpfr_t y;
	mpfr_init2(y, ub_dtypes[dt].prec);
	uint64_t lo = ub_ref_round(dt, y, mpfr_set(y, r->lo, MPFR_RNDN));
	uint64_t hi = ub_ref_round(dt, y, mpfr_set(y, r->hi, MPFR_RNDN));
	mpfr_clear(y);
	if (lo != hi)
		return UB_IV_REFINE;
	*cr = lo;
	if (x) { /* the middle of the plain enclosure (beyond MPFR's range:
		    infinite or zero, as the format's value is) */
		mpfr_t m;
		mpfr_init2(m, c->prec + 2);
		if (mpfr_inf_p(r->lo) || mpfr_inf_p(r->hi)) {
			x->hi = mpfr_get_d(mpfr_inf_p(r->hi) ? r->hi : r->lo, MPFR_RNDN);
			x->lo = 0;
		} else {
			mpfr_add(m, r->lo, r->hi, MPFR_RNDN);
			mpfr_div_2ui(m, m, 1, MPFR_RNDN);
			x->hi = mpfr_get_d(m, MPFR_RNDN);
			mpfr_sub_d(m, m, x->hi, MPFR_RNDN);
			x->lo = isfinite(x->hi) ? mpfr_get_d(m, MPFR_RNDN) : 0;
		}
		mpfr_clear(m);
	}
	return 0;
}

int ub_ref_wide(const struct ub_dag *d, enum ub_dtype dt, const uint64_t *in,
		int nin, double deadline, uint64_t *cr, struct ub_exact *exact,
		int *why)
{
	struct wcache *c = wcache_get(d->n, nin);
	if (!c)
		return UB_RUNTIME;
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_set_emin(mpfr_get_emin_min());   /* the widest, as ref_mpfr.c's */
	mpfr_set_emax(mpfr_get_emax_max());
	c->deadline = deadline;
	*why = UB_UND_PRECISION;
	int st = UB_IV_REFINE;
	for (mpfr_prec_t p = WIDE_START; st == UB_IV_REFINE && p <= WIDE_MAX; p = 2 * p + 1) {
		if (deadline > 0 && ub_ref_clock() > deadline) {
			*why = UB_UND_TIME;
			break;
		}
		set_prec(c, p);
		for (int k = 0; k < nin; k++) {
			mpfr_set_prec(c->in[k].x.v.lo, 64);
			mpfr_set_prec(c->in[k].x.v.hi, 64);
			mpfr_set_d(c->pr.lo, ub_bits_to_double(dt, in[k]), MPFR_RNDN);
			mpfr_set(c->pr.hi, c->pr.lo, MPFR_RNDN);
			ub_sv_from(&c->in[k].x, &c->pr); /* exact: 53 bits at most */
			c->in[k].has_c = 0;
		}
		st = attempt(c, d, dt, nin, cr, exact, why);
		if (*why == UB_UND_TIME || *why == UB_UND_LOOP)
			break;
	}
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	return st;
}

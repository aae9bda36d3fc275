/* ref_mpfr.c — the MPFR reference: an expression's exact value and that
 * value correctly rounded to f32, f16, bf16 or f64 (round to nearest, ties
 * to even, subnormals, overflow to inf, IEEE signed zeros), by Ziv's
 * strategy over interval arithmetic.
 *
 * Why the result is correctly rounded.
 * 1. Enclosure.  At working precision p every node of the tree yields an
 *    interval [lo, hi] that contains the node's exact value (inputs and
 *    exact constants are points; ref_interval.c keeps the invariant op by op:
 *    MPFR rounds each endpoint outward, monotone maps move endpoints in
 *    order, and a case it cannot bound soundly asks for more precision).
 *    By induction the root's interval holds the exact value v.
 * 2. Decision.  RN, rounding to the target format (MPFR at the format's
 *    precision, then mpfr_check_range and mpfr_subnormalize in the format's
 *    exponent range, which handle overflow, underflow and subnormals
 *    without double rounding), is monotone: lo <= v <= hi implies
 *    RN(lo) <= RN(v) <= RN(hi).  So when RN(lo) and RN(hi) have the same
 *    encoding, RN(v) has it too; signed zeros are compared as encodings, so
 *    an interval around 0 is decided only once its sign is known.
 * 3. Termination.  Otherwise p doubles: 127, 255, ... 8191 bits (2^k - 1:
 *    MPFR's fast paths for one or two limbs fit 127).  Endpoint errors
 *    shrink like 2^-p, so a v that is not a rounding boundary (a midpoint
 *    between two neighbours, or 0) is decided at some p.  A boundary v is
 *    decided only when the interval collapses to the point v, when every
 *    operation becomes exact: for + - * / fma of floats at a p of a few
 *    thousand bits (f64 exponents span under 2200 bits, so x*x+1 is exact
 *    at 4096), never through an inexact step (1/14, rsqrt 9, sin 1).  So
 *    once the rounding is still open at EXACT_FROM bits, the exact
 *    evaluation (ref_exact.c) is asked: a rational value it finds is the
 *    exact value, rounded once.  An element neither decides by PREC_MAX is
 *    UB_REF_UNDECIDED, marked and counted by the caller, never a guess.
 * The exact value reported is the double-double nearest to the midpoint of
 * the last interval (one holding a power of two: pow2_side); when it is
 * asked for, p also grows until that interval is narrower than 2^-110 relative (ill-conditioned cases such as
 * sin of a large argument decide the rounding long before), so
 * |hi + lo - v| <= 2^-106 |v| or so.  hi is RN(v) unless v lies within
 * 2^-111 |v| of a midpoint between doubles; lo is RN(v - hi) only as far as
 * the width allows (v = 1 + 2^-122 gives lo to a few bits).
 *
 * Evaluation walks the expression's distinct nodes (dag.h) on demand: a
 * shared node (a let binding) is computed once per step, an if evaluates
 * only the branch its condition picks, and a loop runs as the walk says,
 * every condition (of an if or a loop) decided on a point enclosure or
 * else refined: the loop takes exactly the exact computation's path.  A
 * node in a format's rounding context (FPCore's (! :precision P ...),
 * and cast there) has its enclosure rounded to P end by end, which is
 * monotone, so it encloses the rounded value; everywhere else the value
 * is real, as FPCore's :spec is.
 *
 * Speed: MPFR variables live in a per-thread cache, one per node of the
 * largest expression seen, kept across calls, so the common call allocates nothing;
 * exact arguments (inputs, and most intermediate results of float
 * arithmetic at 127 bits) cost one MPFR call per node: about 0.5 us per
 * evaluation of g/(x*x+1) for random f32 bits on a 2020s x86 core. */
#include "reference.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dag.h"
#include "ref_internal.h"
#include "ub_bits.h"

#define PREC_START 127
#define PREC_MAX UB_REF_PREC_MAX
#define PRED_MAX 8191  /* a condition of :pre: candidates are many, each cheap */
#define EXACT_FROM 255 /* the exact evaluation is asked from here */
#define EXACT_BITS 110 /* relative width wanted for the exact value */
#define EXACT_BITS_CAP 8191 /* the most bits spent narrowing a decided
			       element's exact value */
#define POW2_MAX 1023  /* the most bits spent on the side of a power of two */
#define REF_TIME (-11) /* the element's budget is spent (a status) */
#define REF_COSTLY (-12) /* the precision it needs would not fit the budget */
#define REF_GAP (-13)  /* a cancellation wants far more bits: ask the wide
			  evaluation before buying them */

struct cache {
	mpfr_prec_t prec;          /* of slot[] and t */
	int nslot;
	struct ub_ival *slot;      /* node i's result (dag.h) */
	const struct ub_ival **val; /* node i's enclosure: its slot, an input's,
				      or an if's chosen branch's */
	const struct ub_ival *root; /* the last attempt's result, if any */
	uint64_t cand[2];          /* its ends rounded to the format */
	struct ub_walk walk;
	int nin_cap;
	struct ub_ival *in;        /* the inputs, at 64 bits (exact) */
	mpfr_t t, mid, y[UB_NDTYPES];
	/* the attempt's account (next_prec, classify): */
	double deadline;           /* ub_ref_clock() past which to stop */
	long gap;                  /* the widest exponent gap of a sum's
				      operands (bits a sum may absorb) */
	int cond_open;             /* a condition stayed undecided */
	int range;                 /* MPFR's exponent range was left */
	int gap_lost;              /* a sum absorbed more bits than were
				      tried (or than the budget allows) */
	int why;                   /* enum ub_undecided, once undecided */
};

static _Thread_local struct cache *tls;

static struct cache *cache_get(void)
{
	if (tls)
		return tls;
	struct cache *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->prec = PREC_START;
	mpfr_inits2(PREC_START, c->t, c->mid, (mpfr_ptr)0);
	for (int d = 0; d < UB_NDTYPES; d++)
		mpfr_init2(c->y[d], ub_dtypes[d].prec);
	return tls = c;
}

void ub_ref_release(void)
{
	struct cache *c = tls;
	ub_ref_fast_release();
	ub_ref_wide_release();
	if (!c)
		return;
	for (int i = 0; i < c->nslot; i++)
		mpfr_clears(c->slot[i].lo, c->slot[i].hi, (mpfr_ptr)0);
	for (int i = 0; i < c->nin_cap; i++)
		mpfr_clears(c->in[i].lo, c->in[i].hi, (mpfr_ptr)0);
	free(c->in);
	mpfr_clears(c->t, c->mid, (mpfr_ptr)0);
	for (int d = 0; d < UB_NDTYPES; d++)
		mpfr_clear(c->y[d]);
	free(c->slot);
	free(c->val);
	ub_walk_free(&c->walk);
	free(c);
	tls = NULL;
	mpfr_free_cache();
}

/* Room for n nodes' results. */
static int grow(struct cache *c, int n)
{
	if (n <= c->nslot)
		return 0;
	struct ub_ival *s = realloc(c->slot, (size_t)n * sizeof *s);
	if (!s)
		return UB_RUNTIME;
	c->slot = s;
	const struct ub_ival **v = realloc(c->val, (size_t)n * sizeof *v);
	if (!v)
		return UB_RUNTIME;
	c->val = v;
	for (int i = c->nslot; i < n; i++)
		mpfr_inits2(c->prec, s[i].lo, s[i].hi, (mpfr_ptr)0);
	c->nslot = n;
	return 0;
}

/* Room for n inputs, each exact at 64 bits (any dtype's values). */
static int grow_inputs(struct cache *c, int n)
{
	if (n <= c->nin_cap)
		return 0;
	struct ub_ival *in = realloc(c->in, (size_t)n * sizeof *in);
	if (!in)
		return UB_RUNTIME;
	c->in = in;
	for (int i = c->nin_cap; i < n; i++)
		mpfr_inits2(64, in[i].lo, in[i].hi, (mpfr_ptr)0);
	c->nin_cap = n;
	return 0;
}

static void set_prec(struct cache *c, mpfr_prec_t p)
{
	if (c->prec == p)
		return;
	for (int i = 0; i < c->nslot; i++) {
		mpfr_set_prec(c->slot[i].lo, p);
		mpfr_set_prec(c->slot[i].hi, p);
	}
	mpfr_set_prec(c->t, p);
	c->prec = p;
}

struct walk {
	struct cache *c;
	const struct ub_dag *d;
	enum ub_dtype dt;          /* the run's: isnormal's format in real
				      contexts */
	int nin;
};

/* Whether condition node k holds (for an if or a loop); a condition the
 * enclosures cannot decide yet (not a point) asks for more precision,
 * never for a guess. */
static int test(void *ctx, int k, int *truth)
{
	struct walk *w = ctx;
	const struct ub_ival *cond = w->c->val[k];
	if (!ub_iv_point(cond))
		return w->c->cond_open = 1, UB_IV_REFINE;
	*truth = !mpfr_zero_p(cond->lo);
	return 0;
}

/* A loop variable takes a value: copied, since the node it comes from
 * is computed again in the next iteration. */
static int assign(void *ctx, int v, int from)
{
	struct walk *w = ctx;
	struct cache *c = w->c;
	const struct ub_ival *src = c->val[from];
	mpfr_set(c->slot[v].lo, src->lo, MPFR_RNDN); /* exact: same precision or less */
	mpfr_set(c->slot[v].hi, src->hi, MPFR_RNDN);
	c->val[v] = &c->slot[v];
	return 0;
}

/* IEEE 754 (6.3): a sum that is exactly 0 is +0 in every rounding
 * direction but toward -inf, where it is -0 (unless both operands are
 * +0).  MPFR computed the point with nearest rounding: r, a point zero of
 * add, sub or fma (its c) in a toNegative context, takes the sign -0 but
 * for (+0) + (+0), (+0) - (-0) and an exact product +0 plus +0. */
static void zero_sum_down(enum ub_expr_op op, struct ub_ival *r,
			  const struct ub_ival *const *a)
{
	if ((op != UB_ADD && op != UB_SUB && op != UB_FMA) || !ub_iv_point(r) ||
	    !mpfr_zero_p(r->lo))
		return;
	int pos0;   /* both operands of the sum are +0 */
	if (op == UB_FMA)
		pos0 = mpfr_zero_p(a[2]->lo) && !mpfr_signbit(a[2]->lo) &&
		       (mpfr_zero_p(a[0]->lo) || mpfr_zero_p(a[1]->lo)) &&
		       (mpfr_signbit(a[0]->lo) != 0) == (mpfr_signbit(a[1]->lo) != 0);
	else
		pos0 = mpfr_zero_p(a[0]->lo) && !mpfr_signbit(a[0]->lo) &&
		       mpfr_zero_p(a[1]->lo) &&
		       (mpfr_signbit(a[1]->lo) != 0) == (op == UB_SUB);
	if (!pos0) {
		mpfr_set_zero(r->lo, -1);
		mpfr_set_zero(r->hi, -1);
	}
}

/* The exponent of a's largest magnitude, or LONG_MIN when a holds no
 * regular number. */
static long mag_exp(const struct ub_ival *a)
{
	long e = LONG_MIN;
	if (mpfr_regular_p(a->lo))
		e = mpfr_get_exp(a->lo);
	if (mpfr_regular_p(a->hi) && mpfr_get_exp(a->hi) > e)
		e = mpfr_get_exp(a->hi);
	return e;
}

/* A sum of a and b (or a sum's result and its addend): how far apart
 * their exponents are, the bits of the smaller that a sum at the working
 * precision absorbs and a cancellation later may need (Rival's
 * amplification of a sum, in its simplest form). */
static void note_gap(struct cache *c, const struct ub_ival *a, const struct ub_ival *b)
{
	long ea = mag_exp(a), eb = mag_exp(b);
	if (ea != LONG_MIN && eb != LONG_MIN) {
		long g = ea > eb ? ea - eb : eb - ea;
		if (g > c->gap)
			c->gap = g;
	}
}

/* An operation of expr.h (not if, cast or a loop) into slot i, then
 * rounded to its context's format when it has one. */
static int operation(struct walk *w, int i, const struct ub_expr *e)
{
	struct cache *c = w->c;
	const struct ub_ival *a1[4], **a = e->nargs <= 4 ? a1 : NULL;
	if (!a)
		return UB_USAGE; /* no operation of expr.h takes more than 3 */
	for (int k = 0; k < e->nargs; k++)
		a[k] = c->val[ub_dag_arg(w->d, i, k)];
	c->val[i] = &c->slot[i];
	int st;
	if (ub_expr_ops[e->op].cls == UB_C_PRED)
		return ub_iv_pred(e->op, e->prec >= 0 ? e->prec : (int)w->dt, /* integer: dt */
				  &c->slot[i], a[0]);
	if ((st = ub_iv_apply(e->op, &c->slot[i], a, c->t)) != 0)
		return st;
	if (e->op == UB_ADD || e->op == UB_SUB || e->op == UB_FMA)
		note_gap(c, a[e->op == UB_FMA ? 2 : 0], e->op == UB_FMA ? &c->slot[i] : a[1]);
	if (ub_prec_rounds(e->prec) && !UB_EXPR_IS_BOOL(e->op)) {
		if (e->rnd == UB_RND_DOWN)
			zero_sum_down(e->op, &c->slot[i], a);
		return ub_iv_round(e->prec, e->rnd, &c->slot[i], &c->slot[i]);
	}
	return 0;
}

/* Node i's enclosure from its arguments': 0, UB_IV_REFINE, or UB_USAGE
 * for a variable without an input.  An if or a loop takes the value of
 * its argument `from` (the branch taken, the body); a cast rounds where
 * its context is a format and is its argument elsewhere (real). */
static int apply(void *ctx, int i, int from)
{
	struct walk *w = ctx;
	struct cache *c = w->c;
	const struct ub_expr *e = w->d->node[i];
	switch (e->kind) {
	case UB_E_VAR:
		if (e->var < 0 || e->var >= w->nin)
			return UB_USAGE;
		c->val[i] = &c->in[e->var];
		return 0;
	case UB_E_NUM:
		ub_iv_number(&c->slot[i], e->num);
		c->val[i] = &c->slot[i];
		return ub_prec_rounds(e->prec) ? ub_iv_round(e->prec, e->rnd, &c->slot[i],
							     &c->slot[i]) : 0;
	case UB_E_LVAR:
		return UB_USAGE; /* a loop assigns it; never applied */
	case UB_E_OP:
		break;
	}
	if (from >= 0) {
		c->val[i] = c->val[ub_dag_arg(w->d, i, from)];
		return 0;
	}
	if (e->op == UB_CAST) {
		const struct ub_ival *a = c->val[ub_dag_arg(w->d, i, 0)];
		if (!ub_prec_rounds(e->prec))
			return c->val[i] = a, 0;
		c->val[i] = &c->slot[i];
		return ub_iv_round(e->prec, e->rnd, &c->slot[i], a);
	}
	return operation(w, i, e);
}

/* The root's enclosure at the cache's precision into *out. */
static int tick(void *ctx);

static int eval(struct cache *c, const struct ub_dag *d, enum ub_dtype dt,
		int nin, const struct ub_ival **out)
{
	static const struct ub_walk_fns fns = {test, apply, assign, tick};
	struct walk w = {c, d, dt, nin};
	int st = ub_dag_walk(d, &c->walk, &fns, &w);
	if (!st)
		*out = c->val[d->n - 1];
	return st;
}

static uint64_t round_to(struct cache *c, enum ub_dtype dt, mpfr_srcptr v)
{
	return ub_ref_round(dt, c->y[dt], mpfr_set(c->y[dt], v, MPFR_RNDN));
}

/* hi + lo nearest to the midpoint of r. */
static void exact_value(struct cache *c, const struct ub_ival *r,
			struct ub_exact *x)
{
	x->lo = 0;
	if (mpfr_nan_p(r->lo) || mpfr_inf_p(r->lo) || mpfr_inf_p(r->hi)) {
		x->hi = mpfr_nan_p(r->lo) ? NAN : mpfr_get_d(mpfr_inf_p(r->lo) ? r->lo : r->hi,
							      MPFR_RNDN);
		return;
	}
	if (mpfr_get_prec(c->mid) != c->prec + 2)
		mpfr_set_prec(c->mid, c->prec + 2);
	mpfr_add(c->mid, r->lo, r->hi, MPFR_RNDN);
	mpfr_div_2ui(c->mid, c->mid, 1, MPFR_RNDN); /* a zero point keeps its sign */
	x->hi = mpfr_get_d(c->mid, MPFR_RNDN);
	if (isinf(x->hi))
		return;
	mpfr_sub_d(c->mid, c->mid, x->hi, MPFR_RNDN);
	x->lo = mpfr_get_d(c->mid, MPFR_RNDN);
}

/* Whether r pins the exact value down to EXACT_BITS relative (or cannot do
 * better: a point, a zero or infinite bound from MPFR's exponent range). */
static int narrow(struct cache *c, const struct ub_ival *r)
{
	if (ub_iv_point(r) || !mpfr_regular_p(r->lo) || !mpfr_regular_p(r->hi))
		return 1;
	mpfr_sub(c->t, r->hi, r->lo, MPFR_RNDU);
	mpfr_mul_2si(c->t, c->t, EXACT_BITS, MPFR_RNDU);
	return mpfr_cmpabs(c->t, r->lo) <= 0 && mpfr_cmpabs(c->t, r->hi) <= 0;
}

/* k when r, not a point, holds the power of two P = 2^k in magnitude, else
 * LONG_MIN (at_pow2: whether it holds one).  The ulp
 * of the exact value (metrics.h) is the smaller spacing at a power of two
 * and the larger just above it, so the fractional error of a result other
 * than the power depends on which side the value is, which r's midpoint
 * does not say.  A zero or infinite bound: not asked (far from every
 * format's powers). */
static long pow2_held(const struct ub_ival *r)
{
	if (ub_iv_point(r) || !mpfr_regular_p(r->lo) || !mpfr_regular_p(r->hi) ||
	    mpfr_sgn(r->lo) != mpfr_sgn(r->hi))
		return LONG_MIN;
	int lo_small = mpfr_cmpabs(r->lo, r->hi) <= 0;
	mpfr_srcptr a = lo_small ? r->lo : r->hi, b = lo_small ? r->hi : r->lo;
	long e = mpfr_get_exp(a);   /* |a| in [2^(e-1), 2^e) */
	if (mpfr_cmp_ui_2exp(a, 1, e - 1) == 0 || mpfr_cmp_si_2exp(a, -1, e - 1) == 0)
		return e - 1;       /* |a| is the power */
	return e != mpfr_get_exp(b) ? e : LONG_MIN;
}

static int at_pow2(const struct ub_ival *r)
{
	return pow2_held(r) != LONG_MIN;
}

/* x from an r that is apart from every power of two (not at_pow2): its
 * midpoint's double-double may still round to the power P (hi = P, lo 0)
 * where r lies just above P, which would give the smaller spacing; lo is
 * then the least double of hi's sign, so that the side is kept (and the
 * value moves by 2^-1074). */
static void keep_side(struct cache *c, const struct ub_ival *r, struct ub_exact *x)
{
	int e;
	if (!isfinite(x->hi) || x->hi == 0 || frexp(x->hi, &e) != 0.5 * (x->hi > 0 ? 1 : -1) ||
	    (x->lo != 0 && (x->lo > 0) == (x->hi > 0)))
		return;
	mpfr_set_d(c->t, x->hi, MPFR_RNDN);   /* a power of two: exact */
	if (mpfr_cmpabs(r->lo, c->t) > 0 && mpfr_cmpabs(r->hi, c->t) > 0)
		x->lo = copysign(0x1p-1074, x->hi);
}

/* Whether this element's time budget is spent. */
static int spent(const struct cache *c)
{
	return c->deadline > 0 && ub_ref_clock() > c->deadline;
}

/* The walk's check inside long loops: the budget. */
static int tick(void *ctx)
{
	struct walk *w = ctx;
	return spent(w->c) ? REF_TIME : 0;
}

/* One Ziv step at the cache's precision: 0 with *cr and *x set when
 * decided; UB_IV_REFINE when not, with *rounded set when the rounding is
 * decided (and *x too: only the exact value wants a narrower interval);
 * or an error status.  c->cand holds RN(lo) and RN(hi) of the root; the
 * step's account (gap, cond_open, range) is its own. */
static int attempt(struct cache *c, const struct ub_dag *d, enum ub_dtype dt,
		   int nin, uint64_t *cr, struct ub_exact *x, int *rounded)
{
	const struct ub_ival *r;
	c->gap = 0;
	c->cond_open = 0;
	mpfr_clear_overflow();
	mpfr_clear_underflow();
	int st = eval(c, d, dt, nin, &r);
	c->range |= mpfr_overflow_p() || mpfr_underflow_p();
	*rounded = 0;
	c->root = st ? NULL : r;
	if (st)
		return st;
	if (mpfr_nan_p(r->lo)) {
		*cr = ub_ref_encode(dt, NAN);
	} else {
		*cr = c->cand[0] = round_to(c, dt, r->lo);
		if ((c->cand[1] = round_to(c, dt, r->hi)) != *cr)
			return UB_IV_REFINE;
	}
	*rounded = 1;
	if (!x)
		return 0;
	exact_value(c, r, x);
	return narrow(c, r) ? 0 : UB_IV_REFINE;
}

/* Whether the last root holds a rounding boundary within a narrow
 * enclosure: its ends agree to more than half the working precision, so
 * the exact value likely is the boundary itself (an exact zero or tie the
 * rules could not prove) rather than one more bits would separate. */
static int on_boundary(struct cache *c)
{
	const struct ub_ival *r = c->root;
	if (!r || !mpfr_number_p(r->lo) || !mpfr_number_p(r->hi))
		return 0;
	if (mpfr_zero_p(r->lo) || mpfr_zero_p(r->hi) || mpfr_sgn(r->lo) != mpfr_sgn(r->hi))
		return mpfr_get_exp(r->hi) < -(long)c->prec / 2 ||
		       mpfr_zero_p(r->hi) || mpfr_zero_p(r->lo);
	mpfr_sub(c->t, r->hi, r->lo, MPFR_RNDU);
	return mpfr_get_exp(c->t) < mpfr_get_exp(r->hi) - (long)c->prec / 2;
}

/* Whether the last root rounds to a zero of either sign at both ends
 * (the candidates are +0 and -0): only the sign is open. */
static int zero_sign(const struct cache *c, enum ub_dtype dt)
{
	uint64_t sign = UINT64_C(1) << (ub_dtypes[dt].bits - 1);
	return c->root && (c->cand[0] & ~sign) == 0 && (c->cand[1] & ~sign) == 0 &&
	       c->cand[0] != c->cand[1];
}

/* The class of an element no precision decided (ub.h's UB_UND_*). */
static int classify(struct cache *c, enum ub_dtype dt)
{
	if (zero_sign(c, dt))
		return UB_UND_SIGN;
	if (c->range)
		return UB_UND_RANGE;
	if (c->cond_open || on_boundary(c))
		return UB_UND_BOUNDARY;
	return UB_UND_PRECISION;
}

/* An element no precision decided: no value (the canonical NaN), the
 * exact value marked with its class (ub.h), err saying why and between
 * what. */
static int undecided(struct cache *c, enum ub_dtype dt, int why, uint64_t *cr,
		     struct ub_exact *x, struct ub_error *err)
{
	int hex = ub_dtypes[dt].bits / 4;
	*cr = ub_ref_encode(dt, NAN);
	if (x) {
		if (c->root && why != UB_UND_LOOP)
			exact_value(c, c->root, x);
		else
			x->hi = NAN;
		ub_exact_mark(x, (enum ub_undecided)why);
	}
	if (why == UB_UND_LOOP)
		return ub_fail(err, UB_REF_UNDECIDED, "reference (loop): a loop did not "
			       "end within %d iterations", UB_LOOP_MAX);
	if (why == UB_UND_TIME)
		return ub_fail(err, UB_REF_UNDECIDED, "reference (time): the element's "
			       "budget of %g s ran out at %ld bits (--ref-budget)",
			       ub_ref_budget(), (long)c->prec);
	if (!c->root)
		return ub_fail(err, UB_REF_UNDECIDED, "reference (%s): cannot decide the "
			       "%s rounding within %ld bits", ub_undecided_names[why],
			       ub_dtypes[dt].name, (long)c->prec);
	return ub_fail(err, UB_REF_UNDECIDED, "reference (%s): cannot decide the %s "
		       "rounding within %ld bits: the exact value is too close to the "
		       "rounding boundary between 0x%0*llx and 0x%0*llx",
		       ub_undecided_names[why], ub_dtypes[dt].name, (long)c->prec, hex,
		       (unsigned long long)c->cand[0], hex, (unsigned long long)c->cand[1]);
}

/* The exact value of a decided element whose enclosure holds a power of
 * two P (at_pow2), p the precision that decided it: the exact evaluation
 * when it finds the value (P itself, reached through an inexact step, as
 * g * (1/x)^2 at g = x^2 P); else more precision until the enclosure is on
 * one side of P, up to POW2_MAX bits; else P itself.  P gives the smaller
 * spacing, the right one when the value is P or below it and twice the
 * right one just above it: a fractional error there is never understated
 * (1 - e^-x at a large x, never separated from 1, is below it). */
static int pow2_side(struct cache *c, const struct ub_dag *d, enum ub_dtype dt,
		     const uint64_t *in, int nin, uint64_t *cr, struct ub_exact *exact,
		     mpfr_prec_t p)
{
	long e = pow2_held(c->root);   /* P = 2^e */
	if (e <= ub_dt_emin(dt) || e > ub_dt_emax(dt))
		return 0;   /* one spacing on both sides (subnormals), or beyond */
	double pw = copysign(ldexp(1, (int)e), mpfr_sgn(c->root->lo));
	uint64_t keep = *cr, xcr;
	struct ub_exact xx;
	if (ub_ref_exact(d, dt, in, nin, &xcr, &xx) == 0 && xcr == keep) {
		*exact = xx;
		return 0;
	}
	for (p = 2 * p + 1; p <= POW2_MAX; p = 2 * p + 1) {
		int rounded = 0;
		set_prec(c, p);
		int st = attempt(c, d, dt, nin, cr, &xx, &rounded);
		*cr = keep;   /* decided before; a wider step cannot change it */
		if (st && st != UB_IV_REFINE)
			return st;
		if (rounded && !at_pow2(c->root)) {
			keep_side(c, c->root, &xx);
			*exact = xx;
			return 0;
		}
	}
	*exact = (struct ub_exact){ pw, 0 };
	return 0;
}

/* The precision after an attempt at p that did not decide: twice p, or
 * (Rival's idea, in its simplest form) enough for the widest gap a sum
 * absorbed plus the format, when that is more: a cancellation after
 * 1 + e^-s needs about 1.44 s bits, which doubling would reach only after
 * many attempts.  A value that only wants its exact value narrower
 * doubles.  0 when the next attempt, at the cost the last one measured
 * (growing a little faster than the precision), would not fit in the
 * budget left. */
static mpfr_prec_t next_prec(struct cache *c, mpfr_prec_t p, enum ub_dtype dt,
			     int rounded, double took)
{
	double np = 2.0 * (double)p + 1;
	if (!rounded && c->gap > (long)p - 32 &&
	    (double)c->gap + ub_dtypes[dt].prec + 64 > np)
		np = (double)c->gap + ub_dtypes[dt].prec + 64;
	if (np > PREC_MAX)
		np = p < PREC_MAX ? PREC_MAX : np;
	if (c->deadline > 0 && np > 2047 &&
	    took * pow(np / (double)p, 1.6) > c->deadline - ub_ref_clock())
		return 0;
	c->gap_lost = c->gap_lost || (!rounded && np < (double)c->gap);
	return (mpfr_prec_t)np;
}

/* Ziv's loop from PREC_START, the precision growing as next_prec says
 * until the rounding is decided, the budget is spent (REF_TIME) or
 * PREC_MAX is passed (UB_IV_REFINE); once the rounding is still open at
 * EXACT_FROM bits, the exact evaluation is asked (ref_exact.c): a value
 * on a rounding boundary reached through inexact steps never decides by
 * precision alone.  The caller sets the inputs and the exponent range. */
static int ziv(struct cache *c, const struct ub_dag *d, enum ub_dtype dt,
	       const uint64_t *in, int nin, uint64_t *cr, struct ub_exact *exact,
	       mpfr_prec_t *from, int wide_tried)
{
	int st = UB_IV_REFINE, rounded = 0, asked = *from > EXACT_FROM, by_exact = 0;
	mpfr_prec_t p = *from;
	if (p == PREC_START) {
		c->root = NULL;
		c->range = 0;
		c->gap_lost = 0;
	}
	for (;;) {
		double t0 = ub_ref_clock();
		set_prec(c, p);
		st = attempt(c, d, dt, nin, cr, exact, &rounded);
		if (st != UB_IV_REFINE)
			break;   /* decided, or a status: the loop limit, the budget */
		if (!rounded && !asked && (p >= EXACT_FROM || c->cond_open)) {
			/* a condition open at once (an equality reached through
			 * inexact steps) asks the exact evaluation at once too */
			asked = 1;
			if (ub_ref_exact(d, dt, in, nin, cr, exact) == 0) {
				st = 0, by_exact = 1;
				break;
			}
		}
		if (rounded && p >= EXACT_BITS_CAP) {
			st = 0; /* the exact value as narrow as EXACT_BITS_CAP allows */
			break;
		}
		if (spent(c))
			return REF_TIME;
		if (c->range && !rounded && p >= EXACT_FROM)
			break;   /* MPFR's range was left: more bits do not help
				    (Rival's immovable ends); the wide evaluation */
		mpfr_prec_t np = next_prec(c, p, dt, rounded, ub_ref_clock() - t0);
		if (!np)
			return REF_COSTLY;
		if (np > PREC_MAX || np <= p)
			break;
		if (np > 2047 && np > 2 * p + 1 && !wide_tried) {
			*from = np; /* a cancellation to buy back: the wide evaluation
				       may see it at once, so it goes first */
			return REF_GAP;
		}
		p = np;
	}
	if (st == 0 && exact && !by_exact && c->root && at_pow2(c->root))
		return pow2_side(c, d, dt, in, nin, cr, exact, p);
	return st;
}

/* The thread's cache ready for e at nin inputs (*d its dag), MPFR's
 * exponent range widest (the caller's into *saved): 0 or an error. */
static int begin(const struct ub_expr *e, enum ub_dtype dt, const uint64_t *in,
		 int nin, struct cache **cp, const struct ub_dag **d,
		 mpfr_exp_t saved[2], struct ub_error *err)
{
	struct cache *c = *cp = cache_get();
	struct ub_error derr;
	if (nin < 0)
		return ub_fail(err, UB_USAGE, "reference: %d inputs", nin);
	int ds = ub_expr_dag(e, d, &derr);
	if (ds)
		return ub_fail(err, ds, "reference: %s", derr.msg);
	if (!c || grow(c, (*d)->n) || grow_inputs(c, nin))
		return ub_fail(err, UB_RUNTIME, "reference: out of memory");
	for (int k = 0; k < nin; k++) {
		mpfr_set_d(c->in[k].lo, ub_bits_to_double(dt, in[k]), MPFR_RNDN);
		mpfr_set(c->in[k].hi, c->in[k].lo, MPFR_RNDN); /* exact: 64 bits */
	}
	saved[0] = mpfr_get_emin();
	saved[1] = mpfr_get_emax();
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	double b = ub_ref_budget();
	c->deadline = b > 0 ? ub_ref_clock() + b : 0;
	return 0;
}

/* The caller's exponent range back; status st as the callers report it. */
static int end(const mpfr_exp_t saved[2], int st, int nin, struct ub_error *err)
{
	mpfr_set_emin(saved[0]);
	mpfr_set_emax(saved[1]);
	if (st == UB_USAGE)
		return ub_fail(err, UB_USAGE, "reference: the expression uses a "
			       "variable beyond its %d inputs", nin);
	if (st == UB_RUNTIME)
		return ub_fail(err, UB_RUNTIME, "reference: out of memory");
	return st;
}

int ub_ref_eval(const struct ub_expr *e, enum ub_dtype dt,
		const uint64_t *in, int nin, uint64_t *cr,
		struct ub_exact *exact, struct ub_error *err)
{
	struct cache *c;
	const struct ub_dag *d;
	mpfr_exp_t saved[2];
	int st = begin(e, dt, in, nin, &c, &d, saved, err);
	if (st)
		return st;
	mpfr_prec_t from = PREC_START;
	int wide = 0, why = UB_UND_PRECISION;
	for (;;) {
		st = ziv(c, d, dt, in, nin, cr, exact, &from, wide);
		why = st == UB_WALK_LOOP_LIMIT ? UB_UND_LOOP : classify(c, dt);
		if ((st == REF_TIME || st == REF_COSTLY) && why == UB_UND_PRECISION)
			why = UB_UND_TIME; /* a boundary, a sign, a range: more
					      time would not have decided it */
		/* beyond MPFR's exponents, or a sum's operand lost: the wide
		 * evaluation (ref_wide_eval.c), once, with the time left */
		int ask = st == REF_GAP || ((st == UB_IV_REFINE || st == REF_COSTLY ||
					     (st == REF_TIME && c->range)) &&
					    (c->range || c->gap_lost || st == REF_COSTLY));
		if (!ask || wide || spent(c))
			break;
		wide = 1;
		int wwhy, ws = ub_ref_wide(d, dt, in, nin, c->deadline, cr, exact, &wwhy);
		if (ws != UB_IV_REFINE) {
			st = ws;
			break;
		}
		if (wwhy == UB_UND_TIME || wwhy == UB_UND_LOOP) {
			st = REF_TIME;
			why = why == UB_UND_SIGN || why == UB_UND_BOUNDARY ? why : wwhy;
			break;
		}
		if (st != REF_GAP) {
			if (why != UB_UND_BOUNDARY && why != UB_UND_SIGN)
				why = wwhy;
			break;
		}   /* else: on with the precision the cancellation wants */
	}
	if (st == UB_IV_REFINE || st == REF_TIME || st == REF_COSTLY || st == REF_GAP ||
	    st == UB_WALK_LOOP_LIMIT)
		st = undecided(c, dt, why, cr, exact, err);
	return end(saved, st, nin, err);
}

int ub_ref_pred(const struct ub_expr *e, enum ub_dtype dt, const uint64_t *in,
		int nin, int *truth, struct ub_error *err)
{
	struct cache *c;
	const struct ub_dag *d;
	const struct ub_ival *r;
	mpfr_exp_t saved[2];
	int st = begin(e, dt, in, nin, &c, &d, saved, err), asked = 0;
	if (st)
		return st;
	st = UB_IV_REFINE;
	for (mpfr_prec_t p = PREC_START; st == UB_IV_REFINE && p <= PRED_MAX;
	     p = 2 * p + 1) {
		set_prec(c, p);
		st = eval(c, d, dt, nin, &r);
		if (!st && ub_iv_point(r))
			*truth = !mpfr_zero_p(r->lo);
		else if (!st)
			st = UB_IV_REFINE;
		if (st == UB_IV_REFINE && !asked && p >= EXACT_FROM) {
			asked = 1;
			if (ub_ref_exact_truth(d, dt, in, nin, truth) == 0)
				st = 0;
		}
		if (st == UB_IV_REFINE && spent(c))
			st = REF_TIME;
	}
	if (st == UB_IV_REFINE || st == UB_WALK_LOOP_LIMIT || st == REF_TIME)
		st = ub_fail(err, UB_REF_UNDECIDED, "reference: cannot decide the "
			     "condition within %d bits", PRED_MAX);
	return end(saved, st, nin, err);
}

int ub_ref_eval_array_auto(const struct ub_expr *e, enum ub_dtype dt,
			   const struct ub_array *inputs, int nin, int fast,
			   struct ub_array *cr, struct ub_exact *exact,
			   struct ub_error *err)
{
	size_t n = nin > 0 ? inputs[0].n : 0;
	uint64_t in[UB_MAX_INPUTS];
	if (nin > UB_MAX_INPUTS)
		return ub_fail(err, UB_USAGE, "reference: %d inputs (at most %d)",
			       nin, UB_MAX_INPUTS);
	for (int k = 0; k < nin; k++)
		if (inputs[k].dt != dt || inputs[k].n != n)
			return ub_fail(err, UB_USAGE, "reference: input %d is %zu "
				       "%s values, expected %zu %s", k, inputs[k].n,
				       ub_dtypes[inputs[k].dt].name, n,
				       ub_dtypes[dt].name);
	if (ub_array_alloc(cr, dt, n))
		return ub_fail(err, UB_RUNTIME, "reference: out of memory");
	for (size_t i = 0; i < n; i++) {
		uint64_t y;
		for (int k = 0; k < nin; k++)
			in[k] = ub_array_get(&inputs[k], i);
		int st = ub_ref_eval_auto(e, dt, in, nin, fast, &y,
					  exact ? &exact[i] : NULL, err);
		if (st == UB_REF_UNDECIDED && exact) {
			st = 0; /* marked in exact[i], counted by the metrics */
		} else if (st == UB_REF_UNDECIDED) {
			size_t l = strlen(err ? err->msg : "");
			if (err)
				snprintf(err->msg + l, sizeof err->msg - l,
					 " (element %zu)", i);
			st = UB_RUNTIME;
		}
		if (st) {
			ub_array_free(cr);
			return st;
		}
		ub_array_set(cr, i, y);
	}
	return 0;
}

int ub_ref_eval_array(const struct ub_expr *e, enum ub_dtype dt,
		      const struct ub_array *inputs, int nin,
		      struct ub_array *cr, struct ub_exact *exact,
		      struct ub_error *err)
{
	return ub_ref_eval_array_auto(e, dt, inputs, nin, 0, cr, exact, err);
}

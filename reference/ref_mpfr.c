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
 * the last interval; when it is asked for, p also grows until that
 * interval is narrower than 2^-110 relative (ill-conditioned cases such as
 * sin of a large argument decide the rounding long before), so
 * |hi + lo - v| <= 2^-106 |v| or so.  hi is RN(v) unless v lies within
 * 2^-111 |v| of a midpoint between doubles; lo is RN(v - hi) only as far as
 * the width allows (v = 1 + 2^-122 gives lo to a few bits).
 *
 * Evaluation walks the expression's distinct nodes (dag.h) on demand: a
 * shared node (a let binding) is computed once per step, and an if
 * evaluates only the branch its condition picks.
 *
 * Speed: MPFR variables live in a per-thread cache, one per node of the
 * largest expression seen, kept across calls, so the common call allocates nothing;
 * exact arguments (inputs, and most intermediate results of float
 * arithmetic at 127 bits) cost one MPFR call per node: about 0.5 us per
 * evaluation of g/(x*x+1) for random f32 bits on a 2020s x86 core. */
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dag.h"
#include "ref_internal.h"

#define PREC_START 127
#define PREC_MAX UB_REF_PREC_MAX
#define EXACT_FROM 255 /* the exact evaluation is asked from here */
#define EXACT_BITS 110 /* relative width wanted for the exact value */

struct cache {
	mpfr_prec_t prec;          /* of slot[] and t */
	int nslot;
	struct ub_ival *slot;      /* node i's result (dag.h) */
	const struct ub_ival **val; /* node i's enclosure: its slot, an input's,
				      or an if's chosen branch's */
	const struct ub_ival *root; /* the last attempt's result, if any */
	uint64_t cand[2];          /* its ends rounded to the format */
	struct ub_walk walk;
	struct ub_ival in[UB_MAX_INPUTS];
	mpfr_t t, mid, y[UB_NDTYPES];
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
	for (int i = 0; i < UB_MAX_INPUTS; i++) /* any dtype's values: exact */
		mpfr_inits2(64, c->in[i].lo, c->in[i].hi, (mpfr_ptr)0);
	mpfr_inits2(PREC_START, c->t, c->mid, (mpfr_ptr)0);
	for (int d = 0; d < UB_NDTYPES; d++)
		mpfr_init2(c->y[d], ub_dtypes[d].prec);
	return tls = c;
}

void ub_ref_release(void)
{
	struct cache *c = tls;
	ub_ref_fast_release();
	if (!c)
		return;
	for (int i = 0; i < c->nslot; i++)
		mpfr_clears(c->slot[i].lo, c->slot[i].hi, (mpfr_ptr)0);
	for (int i = 0; i < UB_MAX_INPUTS; i++)
		mpfr_clears(c->in[i].lo, c->in[i].hi, (mpfr_ptr)0);
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

/* FPCore's other named constants as c(base) with base one of pi, e,
 * log 2, log 10, sqrt 2, sqrt pi: each endpoint computed with outward
 * rounding, so [lo, hi] encloses the constant. */
enum cbase { C_PI, C_E, C_LN2, C_LN10, C_SQRT2, C_SQRTPI };
enum cform { C_ID, C_HALF, C_QUARTER, C_INV, C_TWO_INV };
#define REF_CONSTS(X)                                                     \
	X("PI", C_PI, C_ID) X("E", C_E, C_ID) X("LN2", C_LN2, C_ID)       \
	X("LN10", C_LN10, C_ID) X("LOG2E", C_LN2, C_INV)                  \
	X("LOG10E", C_LN10, C_INV) X("PI_2", C_PI, C_HALF)                \
	X("PI_4", C_PI, C_QUARTER) X("M_1_PI", C_PI, C_INV)               \
	X("M_2_PI", C_PI, C_TWO_INV) X("M_2_SQRTPI", C_SQRTPI, C_TWO_INV) \
	X("SQRT2", C_SQRT2, C_ID) X("SQRT1_2", C_SQRT2, C_HALF)

static void base(mpfr_ptr y, enum cbase b, mpfr_rnd_t rnd)
{
	switch (b) {
	case C_PI: mpfr_const_pi(y, rnd); break;
	case C_E: mpfr_set_ui(y, 1, rnd); mpfr_exp(y, y, rnd); break;
	case C_LN2: mpfr_const_log2(y, rnd); break;
	case C_LN10: mpfr_log_ui(y, 10, rnd); break;
	case C_SQRT2: mpfr_sqrt_ui(y, 2, rnd); break;
	case C_SQRTPI: mpfr_const_pi(y, rnd); mpfr_sqrt(y, y, rnd); break;
	}
}

/* Whether s is one of REF_CONSTS; r encloses it. */
static int named(struct ub_ival *r, const char *s)
{
	static const struct { const char *name; enum cbase b; enum cform f; } k[] = {
#define X(name, b, f) {name, b, f},
		REF_CONSTS(X)
#undef X
	};
	for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
		if (strcmp(s, k[i].name) != 0)
			continue;
		int inv = k[i].f == C_INV || k[i].f == C_TWO_INV;
		base(r->lo, k[i].b, inv ? MPFR_RNDU : MPFR_RNDD);
		base(r->hi, k[i].b, inv ? MPFR_RNDD : MPFR_RNDU);
		if (inv) { /* 1/x, 2/x: decreasing, so the swapped ends */
			unsigned long num = k[i].f == C_TWO_INV ? 2 : 1;
			mpfr_ui_div(r->lo, num, r->lo, MPFR_RNDD);
			mpfr_ui_div(r->hi, num, r->hi, MPFR_RNDU);
		}
		if (k[i].f == C_HALF || k[i].f == C_QUARTER) { /* exact */
			unsigned long e = k[i].f == C_HALF ? 1 : 2;
			mpfr_div_2ui(r->lo, r->lo, e, MPFR_RNDD);
			mpfr_div_2ui(r->hi, r->hi, e, MPFR_RNDU);
		}
		return 1;
	}
	return 0;
}

/* A literal: integer, decimal, hex, rational, a named constant, INFINITY,
 * NAN, or the truth values TRUE (1) and FALSE (0). */
static void number(struct ub_ival *r, const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*end && end - s < 18 && v != 0) { /* "-0" goes to mpfr_strtofr */
		mpfr_set_si(r->lo, v, MPFR_RNDN); /* exact at p >= 64 */
		ub_iv_from_ternary(r, 0);
	} else if (named(r, s)) {
		return;
	} else if (!strcmp(s, "TRUE") || !strcmp(s, "FALSE")) {
		mpfr_set_ui(r->lo, s[0] == 'T', MPFR_RNDN);
		ub_iv_from_ternary(r, 0);
	} else if (!strcmp(s, "INFINITY") || !strcmp(s, "NAN")) {
		if (s[0] == 'N')
			mpfr_set_nan(r->lo);
		else
			mpfr_set_inf(r->lo, 1);
		ub_iv_from_ternary(r, 0);
	} else if (strchr(s, '/')) {
		mpq_t q;
		mpq_init(q);
		mpq_set_str(q, s + (s[0] == '+'), 10);
		mpq_canonicalize(q);
		ub_iv_from_ternary(r, mpfr_set_q(r->lo, q, MPFR_RNDN));
		mpq_clear(q);
	} else {
		ub_iv_from_ternary(r, mpfr_strtofr(r->lo, s, &end, 0, MPFR_RNDN));
	}
}

struct walk {
	struct cache *c;
	const struct ub_dag *d;
	int nin;
};

/* (if cond a b): only the branch the condition picks is evaluated (dag.h's
 * walk); a condition the enclosures cannot decide yet (not a point) asks
 * for more precision, never for a guess. */
static int choose(void *ctx, int i, int *branch)
{
	struct walk *w = ctx;
	const struct ub_ival *cond = w->c->val[ub_dag_arg(w->d, i, 0)];
	if (!ub_iv_point(cond))
		return UB_IV_REFINE;
	*branch = mpfr_zero_p(cond->lo) ? 2 : 1;
	return 0;
}

/* Node i's enclosure from its arguments': 0, UB_IV_REFINE, or UB_USAGE
 * for a variable without an input. */
static int apply(void *ctx, int i, int branch)
{
	struct walk *w = ctx;
	struct cache *c = w->c;
	const struct ub_expr *e = w->d->node[i];
	const struct ub_ival *a[3];
	switch (e->kind) {
	case UB_E_VAR:
		if (e->var < 0 || e->var >= w->nin)
			return UB_USAGE;
		c->val[i] = &c->in[e->var];
		return 0;
	case UB_E_NUM:
		number(&c->slot[i], e->num);
		c->val[i] = &c->slot[i];
		return 0;
	default:
		if (e->op == UB_IF) {
			c->val[i] = c->val[ub_dag_arg(w->d, i, branch)];
			return 0;
		}
		for (int k = 0; k < e->nargs; k++)
			a[k] = c->val[ub_dag_arg(w->d, i, k)];
		c->val[i] = &c->slot[i];
		return ub_iv_apply(e->op, &c->slot[i], a, c->t);
	}
}

/* The root's enclosure at the cache's precision into *out. */
static int eval(struct cache *c, const struct ub_dag *d, int nin,
		const struct ub_ival **out)
{
	static const struct ub_walk_fns fns = {choose, apply};
	struct walk w = {c, d, nin};
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

/* One Ziv step at the cache's precision: 0 with *cr and *x set when
 * decided; UB_IV_REFINE when not, with *rounded set when the rounding is
 * decided (and *x too: only the exact value wants a narrower interval);
 * or an error status.  c->cand holds RN(lo) and RN(hi) of the root. */
static int attempt(struct cache *c, const struct ub_dag *d, enum ub_dtype dt,
		   int nin, uint64_t *cr, struct ub_exact *x, int *rounded)
{
	const struct ub_ival *r;
	int st = eval(c, d, nin, &r);
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

/* An element no precision up to the cap decided: no value (the canonical
 * NaN), the exact value marked (ub.h), err saying between what. */
static int undecided(struct cache *c, enum ub_dtype dt, uint64_t *cr,
		     struct ub_exact *x, struct ub_error *err)
{
	int hex = ub_dtypes[dt].bits / 4;
	*cr = ub_ref_encode(dt, NAN);
	if (x) {
		if (c->root)
			exact_value(c, c->root, x);
		else
			x->hi = NAN;
		x->lo = NAN;
	}
	if (!c->root)
		return ub_fail(err, UB_REF_UNDECIDED, "reference: cannot decide the %s "
			       "rounding within %d bits", ub_dtypes[dt].name, PREC_MAX);
	return ub_fail(err, UB_REF_UNDECIDED, "reference: cannot decide the %s "
		       "rounding within %d bits: the exact value is too close to the "
		       "rounding boundary between 0x%0*llx and 0x%0*llx",
		       ub_dtypes[dt].name, PREC_MAX, hex, (unsigned long long)c->cand[0],
		       hex, (unsigned long long)c->cand[1]);
}

/* Ziv's loop from PREC_START to PREC_MAX; once the rounding is still open
 * at EXACT_FROM bits, the exact evaluation is asked (ref_exact.c): a value
 * on a rounding boundary reached through inexact steps never decides by
 * precision alone.  The caller sets the inputs and the exponent range. */
static int ziv(struct cache *c, const struct ub_dag *d, enum ub_dtype dt,
	       const uint64_t *in, int nin, uint64_t *cr, struct ub_exact *exact)
{
	int st = UB_IV_REFINE, rounded = 0, asked = 0;
	c->root = NULL;
	for (mpfr_prec_t p = PREC_START; st == UB_IV_REFINE && p <= PREC_MAX;
	     p = 2 * p + 1) {
		set_prec(c, p);
		st = attempt(c, d, dt, nin, cr, exact, &rounded);
		if (st == UB_IV_REFINE && !rounded && !asked && p >= EXACT_FROM) {
			asked = 1;
			if (ub_ref_exact(d, dt, in, nin, cr, exact) == 0)
				st = 0;
		}
	}
	/* at the cap with the rounding decided: the exact value is as narrow
	 * as PREC_MAX allows (attempt set it) */
	return st == UB_IV_REFINE && rounded ? 0 : st;
}

int ub_ref_eval(const struct ub_expr *e, enum ub_dtype dt,
		const uint64_t *in, int nin, uint64_t *cr,
		struct ub_exact *exact, struct ub_error *err)
{
	struct cache *c = cache_get();
	struct ub_error derr;
	if (nin < 0 || nin > UB_MAX_INPUTS)
		return ub_fail(err, UB_USAGE, "reference: %d inputs (at most %d)",
			       nin, UB_MAX_INPUTS);
	const struct ub_dag *d;
	int ds = ub_expr_dag(e, &d, &derr);
	if (ds)
		return ub_fail(err, ds, "reference: %s", derr.msg);
	if (!c || grow(c, d->n))
		return ub_fail(err, UB_RUNTIME, "reference: out of memory");
	for (int k = 0; k < nin; k++) {
		mpfr_set_d(c->in[k].lo, ub_bits_to_double(dt, in[k]), MPFR_RNDN);
		mpfr_set(c->in[k].hi, c->in[k].lo, MPFR_RNDN); /* exact: 64 bits */
	}
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	int st = ziv(c, d, dt, in, nin, cr, exact);
	if (st == UB_IV_REFINE)
		st = undecided(c, dt, cr, exact, err);
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	if (st == UB_USAGE)
		return ub_fail(err, UB_USAGE, "reference: the expression uses a "
			       "variable beyond its %d inputs", nin);
	if (st == UB_RUNTIME)
		return ub_fail(err, UB_RUNTIME, "reference: out of memory");
	return st;
}

int ub_ref_eval_array_auto(const struct ub_expr *e, enum ub_dtype dt,
			   const struct ub_array *inputs, int nin, int fast,
			   struct ub_array *cr, struct ub_exact *exact,
			   struct ub_error *err)
{
	size_t n = nin > 0 ? inputs[0].n : 0;
	uint64_t in[UB_MAX_INPUTS];
	for (int k = 0; k < nin && k < UB_MAX_INPUTS; k++)
		if (inputs[k].dt != dt || inputs[k].n != n)
			return ub_fail(err, UB_USAGE, "reference: input %d is %zu "
				       "%s values, expected %zu %s", k, inputs[k].n,
				       ub_dtypes[inputs[k].dt].name, n,
				       ub_dtypes[dt].name);
	if (ub_array_alloc(cr, dt, n))
		return ub_fail(err, UB_RUNTIME, "reference: out of memory");
	for (size_t i = 0; i < n; i++) {
		uint64_t y;
		for (int k = 0; k < nin && k < UB_MAX_INPUTS; k++)
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

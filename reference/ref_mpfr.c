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
 *    shrink like 2^-p, so a v
 *    that is not a rounding boundary (a midpoint between two neighbours,
 *    or 0) is decided at some p.  A boundary v is decided only when the
 *    interval collapses to the point v: this happens when every operation
 *    becomes exact, which for + - * / fma of floats is always the case at a
 *    p of a few thousand bits (f64 exponents span under 2200 bits, so
 *    x*x+1 is exact at 4096), and for transcendental functions only at
 *    their exact cases (exp(0), log(1), ...), where MPFR is exact.  Should a
 *    boundary be reached otherwise (exp(x) - exp(x)), the result is
 *    UB_RUNTIME with a message, never a guess.
 * The exact value reported is the double-double nearest to the midpoint of
 * the last interval; when it is asked for, p also grows until that
 * interval is narrower than 2^-110 relative (ill-conditioned cases such as
 * sin of a large argument decide the rounding long before), so
 * |hi + lo - v| <= 2^-106 |v| or so.  hi is RN(v) unless v lies within
 * 2^-111 |v| of a midpoint between doubles; lo is RN(v - hi) only as far as
 * the width allows (v = 1 + 2^-122 gives lo to a few bits).
 *
 * Speed: MPFR variables live in a per-thread cache, sized to the deepest
 * tree seen and kept across calls, so the common call allocates nothing;
 * exact arguments (inputs, and most intermediate results of float
 * arithmetic at 127 bits) cost one MPFR call per node: about 0.5 us per
 * evaluation of g/(x*x+1) for random f32 bits on a 2020s x86 core. */
#include "reference.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_internal.h"

#define PREC_START 127
#define PREC_MAX 8191
#define EXACT_BITS 110 /* relative width wanted for the exact value */

struct cache {
	mpfr_prec_t prec;          /* of slot[] and t */
	int nslot;
	struct ub_ival *slot;      /* node results, a stack by tree position */
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
	free(c);
	tls = NULL;
	mpfr_free_cache();
}

/* Slots the evaluation of e needs: child i of a node in slot s uses s+1+i. */
static int need(const struct ub_expr *e)
{
	int n = 1;
	for (int i = 0; e->kind == UB_E_OP && i < e->nargs; i++) {
		int k = 1 + i + need(e->args[i]);
		n = k > n ? k : n;
	}
	return n;
}

static int grow(struct cache *c, int n)
{
	if (n <= c->nslot)
		return 0;
	struct ub_ival *s = realloc(c->slot, (size_t)n * sizeof *s);
	if (!s)
		return UB_RUNTIME;
	for (int i = c->nslot; i < n; i++)
		mpfr_inits2(c->prec, s[i].lo, s[i].hi, (mpfr_ptr)0);
	c->slot = s;
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

/* A literal: integer, decimal, hex, rational, or PI E INFINITY NAN. */
static void number(struct ub_ival *r, const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (!*end && end - s < 18 && v != 0) { /* "-0" goes to mpfr_strtofr */
		mpfr_set_si(r->lo, v, MPFR_RNDN); /* exact at p >= 64 */
		ub_iv_from_ternary(r, 0);
	} else if (!strcmp(s, "PI")) {
		ub_iv_from_ternary(r, mpfr_const_pi(r->lo, MPFR_RNDN));
	} else if (!strcmp(s, "E")) {
		mpfr_set_ui(r->lo, 1, MPFR_RNDN);
		ub_iv_from_ternary(r, mpfr_exp(r->lo, r->lo, MPFR_RNDN));
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

static int eval(struct cache *c, const struct ub_expr *e, int nin, int s,
		const struct ub_ival **out);

/* (if (CMP a b) x y): a and b in the slots need() gives the condition's
 * children (s+2, s+3); then only the chosen branch, whose interval is the
 * result.  An undecided condition asks for more precision. */
static int eval_if(struct cache *c, const struct ub_expr *e, int nin, int s,
		   const struct ub_ival **out)
{
	const struct ub_expr *cond = e->args[0];
	const struct ub_ival *ab[2];
	for (int i = 0; i < 2; i++) {
		int st = eval(c, cond->args[i], nin, s + 2 + i, &ab[i]);
		if (st)
			return st;
	}
	int t = ub_iv_compare(cond->op, ab[0], ab[1]);
	if (t == UB_IV_REFINE)
		return t;
	const struct ub_ival *r;
	int st = eval(c, e->args[t ? 1 : 2], nin, s + (t ? 2 : 3), &r);
	if (st)
		return st;
	/* into slot s, which the parent's later children leave alone (the
	 * slots past it are theirs); exact: an input has <= 64 bits */
	mpfr_set(c->slot[s].lo, r->lo, MPFR_RNDN);
	mpfr_set(c->slot[s].hi, r->hi, MPFR_RNDN);
	*out = &c->slot[s];
	return 0;
}

/* Evaluates e into slot s (or points *out at an input): 0, UB_IV_REFINE,
 * or UB_USAGE for a variable without an input. */
static int eval(struct cache *c, const struct ub_expr *e, int nin, int s,
		const struct ub_ival **out)
{
	if (e->kind == UB_E_VAR) {
		if (e->var < 0 || e->var >= nin)
			return UB_USAGE;
		*out = &c->in[e->var];
		return 0;
	}
	*out = &c->slot[s];
	if (e->kind == UB_E_NUM) {
		number(&c->slot[s], e->num);
		return 0;
	}
	const struct ub_ival *a[3];
	if (e->op == UB_IF) /* only the branch the condition picks */
		return eval_if(c, e, nin, s, out);
	for (int i = 0; i < e->nargs; i++) {
		int st = eval(c, e->args[i], nin, s + 1 + i, &a[i]);
		if (st)
			return st;
	}
	return ub_iv_apply(e->op, &c->slot[s], a, c->t);
}

/* RN(v) in format dt, as its encoding. */
static uint64_t encode(enum ub_dtype dt, double d)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	int mb = f->prec - 1, bias = f->emax, e;
	uint64_t sign = (uint64_t)(signbit(d) != 0) << (f->bits - 1);
	uint64_t inf = (uint64_t)(2 * bias + 1) << mb;
	double a = fabs(d);
	if (isnan(d)) /* the canonical quiet NaN: every bit but the sign */
		return ((uint64_t)1 << (f->bits - 1)) - 1;
	if (isinf(d))
		return sign | inf;
	if (a == 0)
		return sign;
	frexp(a, &e);
	e -= 1; /* a = 1.m * 2^e */
	if (e < f->emin) /* subnormal: a / 2^(emin - mb) is an integer */
		return sign | (uint64_t)ldexp(a, mb - f->emin);
	return sign | (uint64_t)(e + bias) << mb |
	       ((uint64_t)ldexp(a, mb - e) - ((uint64_t)1 << mb));
}

static uint64_t round_to(struct cache *c, enum ub_dtype dt, mpfr_srcptr v)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	mpfr_ptr y = c->y[dt];
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	int t = mpfr_set(y, v, MPFR_RNDN);
	/* MPFR writes 0.1b * 2^e: the format's smallest subnormal 2^(emin-p+1)
	 * has e = emin - p + 2, its largest finite number e = emax + 1. */
	mpfr_set_emin(f->emin - f->prec + 2);
	mpfr_set_emax(f->emax + 1);
	t = mpfr_check_range(y, t, MPFR_RNDN);
	mpfr_subnormalize(y, t, MPFR_RNDN);
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	return encode(dt, mpfr_get_d(y, MPFR_RNDN)); /* exact: y fits a double */
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
 * decided, UB_IV_REFINE when not (or when the exact value wants a
 * narrower interval), or an error status. */
static int attempt(struct cache *c, const struct ub_expr *e, enum ub_dtype dt,
		   int nin, uint64_t *cr, struct ub_exact *x)
{
	const struct ub_ival *r;
	int st = eval(c, e, nin, 0, &r);
	if (st)
		return st;
	if (mpfr_nan_p(r->lo)) {
		*cr = encode(dt, NAN);
	} else {
		*cr = round_to(c, dt, r->lo);
		if (round_to(c, dt, r->hi) != *cr)
			return UB_IV_REFINE;
	}
	if (!x)
		return 0;
	exact_value(c, r, x);
	return narrow(c, r) || c->prec >= PREC_MAX ? 0 : UB_IV_REFINE;
}

static int undecided(const struct ub_expr *e, enum ub_dtype dt,
		     const uint64_t *in, int nin, struct ub_error *err)
{
	char text[300], at[300] = "";
	size_t used = 0;
	ub_expr_print(e, NULL, text, sizeof text);
	for (int k = 0; k < nin && used < sizeof at; k++)
		used += (size_t)snprintf(at + used, sizeof at - used, " v%d=%a (0x%llx)",
					 k, ub_bits_to_double(dt, in[k]),
					 (unsigned long long)in[k]);
	return ub_fail(err, UB_RUNTIME, "reference: cannot decide the %s rounding "
		       "of %s at%s within %d bits", ub_dtypes[dt].name, text, at,
		       PREC_MAX);
}

int ub_ref_eval(const struct ub_expr *e, enum ub_dtype dt,
		const uint64_t *in, int nin, uint64_t *cr,
		struct ub_exact *exact, struct ub_error *err)
{
	struct cache *c = cache_get();
	if (nin < 0 || nin > UB_MAX_INPUTS)
		return ub_fail(err, UB_USAGE, "reference: %d inputs (at most %d)",
			       nin, UB_MAX_INPUTS);
	if (!c || grow(c, need(e)))
		return ub_fail(err, UB_RUNTIME, "reference: out of memory");
	for (int k = 0; k < nin; k++) {
		mpfr_set_d(c->in[k].lo, ub_bits_to_double(dt, in[k]), MPFR_RNDN);
		mpfr_set(c->in[k].hi, c->in[k].lo, MPFR_RNDN); /* exact: 64 bits */
	}
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	int st = UB_IV_REFINE;
	for (mpfr_prec_t p = PREC_START;
	     st == UB_IV_REFINE && p <= PREC_MAX; p = 2 * p + 1) {
		set_prec(c, p);
		st = attempt(c, e, dt, nin, cr, exact);
	}
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	if (st == UB_USAGE)
		return ub_fail(err, UB_USAGE, "reference: the expression uses a "
			       "variable beyond its %d inputs", nin);
	return st ? undecided(e, dt, in, nin, err) : 0;
}

int ub_ref_eval_array(const struct ub_expr *e, enum ub_dtype dt,
		      const struct ub_array *inputs, int nin,
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
		int st = ub_ref_eval(e, dt, in, nin, &y, exact ? &exact[i] : NULL, err);
		if (st) {
			ub_array_free(cr);
			return st;
		}
		ub_array_set(cr, i, y);
	}
	return 0;
}

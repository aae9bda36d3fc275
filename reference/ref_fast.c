/* ref_fast.c — the fast path of the reference (reference.h,
 * ub_ref_eval_fast): the correctly rounded f32 result of an expression
 * decided in double arithmetic with a rigorous running error bound, without
 * MPFR, whenever that is provably safe; otherwise the caller falls back to
 * MPFR.  The argument is written out in docs/reference.md.
 *
 * Each node yields a double v and a bound e with |v - X| <= e, X the exact
 * value of the node at the inputs; the distinct nodes are computed once
 * each, arguments first (dag.h), so a shared let binding costs one node.  Inputs are exact (e = 0); a literal is
 * strtod's correctly rounded double (e = 0 for integers below 2^53, else
 * u|v|, u = 2^-53).  Each operation adds its own rounding error, at most
 * u|v| / (1 - u) for a result v of a round-to-nearest operation on
 * normal doubles, to the propagated error of its operands (formulas at
 * each case).  Bounds are computed in double too; every bound is
 * multiplied by SAFE = 1 + 2^-40, far more than the few relative 2^-53
 * roundings of its own computation.  Supported: + - * / neg fabs fma sqrt
 * rsqrt, variables and literals; anything else, a non-finite or zero
 * operand or result, an intermediate outside [2^-960, 2^960], a divisor or
 * square-root argument whose interval holds 0, or a final bound above
 * 2^-45 |v| gives up.
 *
 * Decision: [lo, hi] = [v - e, v + e] widened outward by one double; if
 * both ends round (double to float, one IEEE rounding, nearest-even) to the
 * same f32 encoding, so does every value in between, X included, since
 * rounding is monotonic.  The exact value reported is v (lo 0): its
 * relative error is at most 2^-45, so the fractional ULP error of a result
 * moves by at most 2^24 * 2^-45 = 2^-21 ulp against MPFR's.  Only f32 takes
 * this path (f16/bf16 would need a one-rounding conversion from double;
 * f64 a double-double). */
#include "dag.h"
#include "ref_internal.h"
#include "reference.h"
#include "ub_bits.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define U 0x1p-53          /* unit roundoff of double */
#define SAFE (1 + 0x1p-40) /* covers the rounding of the bounds */
/* the rounding error of a result v: at most u|v| / (1 - u); the factor
 * u / (1 - u) is one constant (its own rounding is one of those SAFE
 * covers), so that a bound costs a multiplication, not a division */
#define RND(v) (fabs(v) * (U / (1 - U)))
/* 1 / SAFE rounded down (1 - 2^-40 < 1 / (1 + 2^-40)): a denominator
 * multiplied by it only gets smaller, the bound larger */
#define INV_SAFE (1 - 0x1p-40)

struct val {
	double v, e;
};

static int in_range(double v)
{
	double a = fabs(v);
	return a >= 0x1p-960 && a <= 0x1p960; /* finite, not 0 */
}

static int literal(const struct ub_expr *x, struct val *r)
{
	r->v = x->num_d;   /* strtod's, parsed once (expr.h) */
	if (!isfinite(r->v))
		return 0;
	r->e = x->num_int && fabs(r->v) < 0x1p53 ? 0 : RND(r->v);
	return r->v == 0 ? r->e == 0 : in_range(r->v);
}

/* nextafter(x, dir) for a finite x other than 0 and dir = +-inf, by the
 * encoding: one step away from 0 adds 1 to the magnitude bits, one step
 * toward it subtracts 1 (libm's nextafter is a call per element). */
static double step(double x, double dir)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	u = (x < dir) == (x > 0) ? u + 1 : u - 1;
	memcpy(&x, &u, sizeof x);
	return x;
}

static int binary(enum ub_expr_op op, const struct val *pa,
		  const struct val *pb, struct val *r)
{
	struct val a = *pa, b = *pb;
	double aa = fabs(a.v), ab = fabs(b.v);
	switch (op) {
	case UB_ADD: /* |(A+B) - (a+b)| <= ea + eb */
	case UB_SUB:
		r->v = op == UB_ADD ? a.v + b.v : a.v - b.v;
		r->e = (a.e + b.e + RND(r->v)) * SAFE;
		return 1;
	case UB_MUL: /* |AB - ab| <= |a| eb + |b| ea + ea eb */
		r->v = a.v * b.v;
		r->e = (aa * b.e + ab * a.e + a.e * b.e + RND(r->v)) * SAFE;
		return 1;
	case UB_DIV: /* |A/B - a/b| <= (ea |b| + |a| eb) / (|b| (|b| - eb)) */
		if (!(ab > b.e * SAFE))
			return 0;
		r->v = a.v / b.v;
		r->e = ((a.e * ab + aa * b.e) / (ab * ((ab - b.e) * INV_SAFE)) +
			RND(r->v)) * SAFE * SAFE;
		return 1;
	default:
		return 0;
	}
}

static int unary(enum ub_expr_op op, const struct val *pa, struct val *r)
{
	struct val a = *pa;
	switch (op) {
	case UB_NEG:
		r->v = -a.v;
		r->e = a.e;
		return 1;
	case UB_FABS:
		r->v = fabs(a.v);
		r->e = a.e;
		return 1;
	case UB_SQRT: /* |sqrt A - sqrt a| = |A - a| / (sqrt A + sqrt a) <= ea / sqrt a */
	case UB_RSQRT:
		if (!(a.v > a.e * SAFE))
			return 0;
		r->v = sqrt(a.v);
		/* sqrt(a) >= v / (1 + U) > v (1 - U); an exact a (ea = 0)
		 * propagates 0 */
		r->e = ((a.e != 0 ? a.e / (r->v * (1 - U)) : 0) + RND(r->v)) *
		       SAFE * SAFE;
		if (op == UB_RSQRT) { /* 1 / s, as UB_DIV with a = 1 exact */
			double s = r->v, es = r->e;
			if (!(s > es * SAFE))
				return 0;
			r->v = 1 / s;
			r->e = (es / (s * ((s - es) * INV_SAFE)) + RND(r->v)) * SAFE * SAFE;
		}
		return 1;
	default:
		return 0;
	}
}

static int fused(const struct val *a, const struct val *b, const struct val *c,
		 struct val *r)
{
	r->v = fma(a->v, b->v, c->v); /* one rounding */
	r->e = (fabs(a->v) * b->e + fabs(b->v) * a->e + a->e * b->e + c->e +
		RND(r->v)) * SAFE;
	return 1;
}

/* Node i of d from its arguments' values (computed before it: dag.h). */
static int node(const struct ub_dag *d, int i, const double *in, int nin,
		struct val *val)
{
	const struct ub_expr *x = d->node[i];
	struct val *r = &val[i];
	int ok;
	if (x->kind == UB_E_VAR) {
		if (x->var < 0 || x->var >= nin)
			return 0;
		r->v = in[x->var];
		r->e = 0;
		return r->v == 0 || in_range(r->v);
	}
	/* a rounding context (expr.h's prec) is an extra rounding this path
	 * does not model; a loop variable needs the walk of dag.h */
	if (x->kind == UB_E_LVAR || x->prec >= 0)
		return 0;
	if (x->kind == UB_E_NUM)
		return literal(x, r);
	const struct val *a = &val[ub_dag_arg(d, i, 0)];
	if (x->nargs == 1)
		ok = unary(x->op, a, r);
	else if (x->nargs == 2)
		ok = binary(x->op, a, &val[ub_dag_arg(d, i, 1)], r);
	else
		ok = x->op == UB_FMA && fused(a, &val[ub_dag_arg(d, i, 1)],
					      &val[ub_dag_arg(d, i, 2)], r);
	/* a zero result has no relative bound; the rounding error terms
	 * assume normal doubles */
	return ok && in_range(r->v) && isfinite(r->e);
}

/* The calling thread's values, one per node (dag.h), grown as needed and
 * freed by ub_ref_release. */
static _Thread_local struct val *vals;
static _Thread_local int nvals;

void ub_ref_fast_release(void)
{
	free(vals);
	vals = NULL;
	nvals = 0;
}

/* The root's value and bound: every node in order, each once. */
static int eval(const struct ub_expr *e, const double *in, int nin,
		struct val *r)
{
	const struct ub_dag *d;
	if (ub_expr_dag(e, &d, NULL))
		return 0;
	if (d->n > nvals) {
		struct val *v = realloc(vals, (size_t)d->n * sizeof *v);
		if (!v)
			return 0;
		vals = v;
		nvals = d->n;
	}
	for (int i = 0; i < d->n; i++)
		if (!node(d, i, in, nin, vals))
			return 0;
	*r = vals[d->n - 1];
	return 1;
}

int ub_ref_eval_fast(const struct ub_expr *e, enum ub_dtype dt,
		     const uint64_t *in, int nin, uint64_t *cr,
		     struct ub_exact *exact)
{
	double x[UB_MAX_INPUTS];
	struct val r;
	if (dt != UB_F32 || nin > UB_MAX_INPUTS)
		return 0;
	for (int k = 0; k < nin; k++) {
		x[k] = ub_bits_to_double_i(UB_F32, in[k]);
		if (!isfinite(x[k]))
			return 0;
	}
	if (!eval(e, x, nin, &r) || !(r.e <= fabs(r.v) * 0x1p-45))
		return 0;
	/* r.e <= 2^-45 |r.v| and 2^-960 <= |r.v| <= 2^960: neither end is 0
	 * or beyond the doubles */
	double lo = step(r.v - r.e, -INFINITY);
	double hi = step(r.v + r.e, INFINITY);
	float flo = (float)lo, fhi = (float)hi; /* round to nearest (the host's mode) */
	uint32_t blo, bhi;
	memcpy(&blo, &flo, sizeof blo);
	memcpy(&bhi, &fhi, sizeof bhi);
	if (blo != bhi || (lo < 0) != (hi < 0))
		return 0;
	*cr = blo;
	if (exact)
		*exact = (struct ub_exact){r.v, 0};
	return 1;
}

int ub_ref_eval_auto(const struct ub_expr *e, enum ub_dtype dt,
		     const uint64_t *in, int nin, int fast, uint64_t *cr,
		     struct ub_exact *exact, struct ub_error *err)
{
	if (fast && ub_ref_eval_fast(e, dt, in, nin, cr, exact))
		return 0;
	return ub_ref_eval(e, dt, in, nin, cr, exact, err);
}

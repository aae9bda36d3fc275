/* ref_fast.h — the fast reference's enclosures (ref_fast.c evaluates,
 * ref_fast_fn.c has the functions): a double v and a bound e with
 * |v - X| <= e for the exact value X of a node, and X's sign when it is
 * known.  The argument for every rule is docs/reference.md's.
 *
 * Error model: a round-to-nearest double operation on exact operands
 * errs by at most u|s| for a normal result s, by at most 2^-1075 below
 * the normals (u = 2^-53), so by at most rnd(v) = u|v|/(1 - u) + 2^-1074
 * for the computed v; infinities and NaN are no results.  The bounds are
 * computed in double too: each is a sum of non-negative products, times
 * SAFE = 1 + 2^-40 (far more than the few relative 2^-53 roundings of its
 * own computation), plus SLOP = 2^-1060 (more than the few absolute
 * 2^-1075 losses of its own underflows); a quotient in a bound has a
 * numerator that already holds SLOP and a denominator made smaller. */
#ifndef UB_REF_FAST_H
#define UB_REF_FAST_H

#include <math.h>

#define FAST_U 0x1p-53
#define FAST_SAFE (1 + 0x1p-40)
#define FAST_INV_SAFE (1 - 0x1p-40)   /* < 1 / FAST_SAFE */
#define FAST_SLOP 0x1p-1060

/* An enclosure: ok 0 when there is none (the node failed: a NaN or an
 * infinity on the way, a divisor whose bound holds 0, an argument outside
 * a function's domain); sg the sign of X when known (+1 X > 0, -1 X < 0),
 * else 0.  A condition (comparison, and, or, not) is v 1 or 0 exactly,
 * ok 0 when the bounds of its arguments cannot decide it. */
struct fval {
	double v, e;
	signed char ok, sg;
};

static inline double fast_rnd(double v)
{
	return fabs(v) * (FAST_U / (1 - FAST_U)) + 0x1p-1074;
}

/* r's sign from its bound when the bound excludes 0 (and r is valid). */
static inline void fast_sign(struct fval *r)
{
	if (!(isfinite(r->v) && isfinite(r->e)))
		r->ok = 0;
	else if (!r->sg && fabs(r->v) > r->e * FAST_SAFE)
		r->sg = r->v > 0 ? 1 : -1;
}

static inline void fast_add(const struct fval *a, const struct fval *b,
			    struct fval *r)
{   /* |(A + B) - (a + b)| <= ea + eb */
	r->v = a->v + b->v;
	r->e = (a->e + b->e + fast_rnd(r->v)) * FAST_SAFE + FAST_SLOP;
	r->ok = a->ok && b->ok;
	r->sg = a->sg == b->sg ? a->sg : 0;
	fast_sign(r);
}

static inline void fast_neg(const struct fval *a, struct fval *r)
{
	*r = *a;
	r->v = -a->v;
	r->sg = (signed char)-a->sg;
}

static inline void fast_mul(const struct fval *a, const struct fval *b,
			    struct fval *r)
{   /* |AB - ab| <= |a| eb + |b| ea + ea eb */
	r->v = a->v * b->v;
	r->e = (fabs(a->v) * b->e + fabs(b->v) * a->e + a->e * b->e +
		fast_rnd(r->v)) * FAST_SAFE + FAST_SLOP;
	r->ok = a->ok && b->ok;
	r->sg = (signed char)(a->sg * b->sg);
	fast_sign(r);
}

static inline void fast_div(const struct fval *a, const struct fval *b,
			    struct fval *r)
{   /* |A/B - a/b| <= (ea |b| + |a| eb) / (|b| (|b| - eb)), |b| > eb */
	double ab = fabs(b->v);
	if (!(a->ok && b->ok && ab > b->e * FAST_SAFE)) {
		*r = (struct fval){ 0, 0, 0, 0 };
		return;
	}
	r->ok = 1;
	r->v = a->v / b->v;
	double num = (a->e * ab + fabs(a->v) * b->e) * FAST_SAFE + FAST_SLOP;
	r->e = (num / (ab * ((ab - b->e) * FAST_INV_SAFE)) + fast_rnd(r->v)) *
	       FAST_SAFE * FAST_SAFE + FAST_SLOP;
	r->sg = (signed char)(a->sg * b->sg);
	fast_sign(r);
}

/* fma(a, b, c), one rounding. */
static inline void fast_fma(const struct fval *a, const struct fval *b,
			    const struct fval *c, struct fval *r)
{
	r->v = fma(a->v, b->v, c->v);
	r->e = (fabs(a->v) * b->e + fabs(b->v) * a->e + a->e * b->e + c->e +
		fast_rnd(r->v)) * FAST_SAFE + FAST_SLOP;
	r->ok = a->ok && b->ok && c->ok;
	int ps = a->sg * b->sg;
	r->sg = (signed char)(ps == c->sg ? ps : 0);
	fast_sign(r);
}

/* sqrt(a) (rsqrt: 1 / sqrt(a)); a's bound must exclude 0 and below. */
void fast_sqrt(const struct fval *a, struct fval *r, int rsqrt);

/* The function op (enum ub_expr_op) of a: 1 when the fast reference has
 * an enclosure for it (ref_fast_fn.c; LLVM libc built in and usable),
 * else 0. */
int fast_fn_known(int op);
void fast_fn(int op, const struct fval *a, struct fval *r);

/* Float versions of the functions, correctly rounded (LLVM libc): of op
 * at x into *y; 0 when there is none. */
int fast_fn_float(int op, float x, float *y);

#endif

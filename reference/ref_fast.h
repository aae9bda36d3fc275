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
/* u / (1 - u) = 2^-53 (1 + 2^-53 + 2^-106 + ...) rounded to nearest once,
 * 2^-53 (1 + 2^-52): a constant, since under -frounding-math the compiler
 * does not fold an inexact division and would divide at run time. */
#define FAST_RND_K 0x1.0000000000001p-53

/* An enclosure: ok 0 when there is none (the node failed: a NaN or an
 * infinity on the way, a divisor whose bound holds 0, an argument outside
 * a function's domain); sg the sign of X when known (+1 X > 0, -1 X < 0),
 * else 0.  A condition (comparison, and, or, not) is v 1 or 0 exactly,
 * ok 0 when the bounds of its arguments cannot decide it. */
struct fval {
	double v, e;
	signed char ok, sg;
};

/* The rules' bounds, written once for doubles (the functions below, the
 * per-element form) and for lanes of them (ref_fast_col.c: ABS is then
 * the lanes' fabs); GNU C statement expressions, each operand evaluated
 * once. */
#define FAST_RND(ABS, v) ((ABS(v)) * FAST_RND_K + 0x1p-1074)
/* |(A + B) - (a + b)| <= ea + eb */
#define FAST_ADD_E(ABS, ea, eb, v) (((ea) + (eb) + FAST_RND(ABS, v)) * FAST_SAFE + FAST_SLOP)
/* |AB - ab| <= |a| eb + |b| ea + ea eb */
#define FAST_MUL_E(ABS, a, ea, b, eb, v)                                     \
	({ __typeof__(ea) ea_ = (ea), eb_ = (eb);                            \
	   (ABS(a) * eb_ + ABS(b) * ea_ + ea_ * eb_ + FAST_RND(ABS, v)) *    \
		   FAST_SAFE + FAST_SLOP; })
/* Whether the division rule applies: |b| > eb. */
#define FAST_DIV_OK(ABS, b, eb) (ABS(b) > (eb) * FAST_SAFE)
/* |A/B - a/b| <= (ea |b| + |a| eb) / (|b| (|b| - eb)), |b| > eb */
#define FAST_DIV_E(ABS, a, ea, b, eb, v)                                     \
	({ __typeof__(ea) ab_ = ABS(b), eb_ = (eb);                          \
	   __typeof__(ea) num_ = ((ea) * ab_ + ABS(a) * eb_) * FAST_SAFE + FAST_SLOP; \
	   (num_ / (ab_ * ((ab_ - eb_) * FAST_INV_SAFE)) + FAST_RND(ABS, v)) * \
		   FAST_SAFE * FAST_SAFE + FAST_SLOP; })

static inline double fast_rnd(double v)
{
	return FAST_RND(fabs, v);
}

/* The bounds of the rules, for operands (a, ea), (b, eb), (c, ec) and the
 * computed v. */
static inline double fast_add_e(double ea, double eb, double v)
{
	return FAST_ADD_E(fabs, ea, eb, v);
}

static inline double fast_mul_e(double a, double ea, double b, double eb,
				double v)
{
	return FAST_MUL_E(fabs, a, ea, b, eb, v);
}

static inline int fast_div_ok(double b, double eb)
{
	return FAST_DIV_OK(fabs, b, eb);
}

static inline double fast_div_e(double a, double ea, double b, double eb,
				double v)
{
	return FAST_DIV_E(fabs, a, ea, b, eb, v);
}

static inline double fast_fma_e(double a, double ea, double b, double eb,
				double ec, double v)
{
	return (fabs(a) * eb + fabs(b) * ea + ea * eb + ec + fast_rnd(v)) *
	       FAST_SAFE + FAST_SLOP;
}

/* Whether a result (v, e) is one: both finite. */
static inline int fast_finite(double v, double e)
{
	return isfinite(v) & isfinite(e);
}

/* The sign of X: sg when known, else v's when the bound excludes 0. */
static inline signed char fast_sg(double v, double e, int sg)
{
	return (signed char)(sg ? sg : fabs(v) > e * FAST_SAFE ? (v > 0 ? 1 : -1) : 0);
}

/* r's sign from its bound when the bound excludes 0 (and r is valid). */
static inline void fast_sign(struct fval *r)
{
	if (!fast_finite(r->v, r->e))
		r->ok = 0;
	else
		r->sg = fast_sg(r->v, r->e, r->sg);
}

static inline void fast_add(const struct fval *a, const struct fval *b,
			    struct fval *r)
{
	r->v = a->v + b->v;
	r->e = fast_add_e(a->e, b->e, r->v);
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
{
	r->v = a->v * b->v;
	r->e = fast_mul_e(a->v, a->e, b->v, b->e, r->v);
	r->ok = a->ok && b->ok;
	r->sg = (signed char)(a->sg * b->sg);
	fast_sign(r);
}

static inline void fast_div(const struct fval *a, const struct fval *b,
			    struct fval *r)
{
	if (!(a->ok && b->ok && fast_div_ok(b->v, b->e))) {
		*r = (struct fval){ 0, 0, 0, 0 };
		return;
	}
	r->ok = 1;
	r->v = a->v / b->v;
	r->e = fast_div_e(a->v, a->e, b->v, b->e, r->v);
	r->sg = (signed char)(a->sg * b->sg);
	fast_sign(r);
}

/* fma(a, b, c), one rounding. */
static inline void fast_fma(const struct fval *a, const struct fval *b,
			    const struct fval *c, struct fval *r)
{
	r->v = fma(a->v, b->v, c->v);
	r->e = fast_fma_e(a->v, a->e, b->v, b->e, c->e, r->v);
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

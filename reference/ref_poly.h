/* ref_poly.h — exact values for the reference's symbolic evaluation
 * (ref_exact.c; the argument is in docs/reference.md): polynomials with
 * rational coefficients over "atoms", the values that are not known to be
 * rational (sin 3, sqrt 2, PI), each one real number named by the
 * function and the exact arguments that give it.  Two equal atoms are one
 * atom, so sin(x) - sin(x) is the zero polynomial, and any polynomial
 * without atoms is an exact rational.  Every rule here is an identity of
 * real numbers; none guesses. */
#ifndef UB_REF_POLY_H
#define UB_REF_POLY_H

#include <gmp.h>

#include "expr.h"

#define XP_MAXDEG 8       /* atoms in one monomial (with repeats) */
#define XP_MAXTERMS 64    /* terms in one polynomial */
#define XP_MAXATOMS 64    /* distinct atoms in one evaluation */
#define XP_MAXBITS 20000  /* bits of any numerator or denominator */

/* Why an evaluation stops: the value is beyond these rules (an atom's
 * sign, a limit above, a NaN or an infinity): not an error, the caller
 * goes on without an exact value. */
#define XP_GIVEUP (-1)

struct xterm {
	mpq_t c;                  /* not 0 */
	int deg;
	int atom[XP_MAXDEG];      /* ascending, repeats for powers */
};

/* A real number: sum of c * atoms over the terms, in one canonical order
 * (by degree, then atoms), so that equal polynomials are equal term by
 * term.  No term: the value 0, whose IEEE sign is negzero. */
struct xpoly {
	int n, cap;
	struct xterm *t;
	int negzero;
};

/* An atom: key (an operator of expr.h, or XA_CONST with a constant's
 * index) of nargs exact arguments.  sign is -1 or 1 when known and 0 when
 * not; nonzero says the value is known not to be 0 (sin 3 is nonzero with
 * a sign the rules do not need).  An XA_SQRT atom is the square root of
 * its argument, a positive integer that is not a square, so that its
 * square reduces to that integer. */
enum { XA_SQRT = -2, XA_CONST = -3 };
struct xatom {
	int key, konst, nargs;
	struct xpoly arg[2];
	int sign, nonzero;
};

struct xctx {
	int natoms;
	struct xatom atom[XP_MAXATOMS];
};

void xp_init(struct xpoly *p);
void xp_clear(struct xpoly *p);
void xp_ctx_clear(struct xctx *x);

/* p = q (negzero: the sign of a zero q). */
int xp_set_q(struct xpoly *p, mpq_srcptr q, int negzero);
/* p = c * atom a. */
int xp_set_atom(struct xpoly *p, mpq_srcptr c, int a);
/* p = a (r may not be a). */
int xp_copy(struct xpoly *r, const struct xpoly *a);

/* The value of p when it is rational (no atom), else NULL; a zero p
 * gives NULL too (test p->n == 0). */
mpq_srcptr xp_rational(const struct xpoly *p);
int xp_is_rational(const struct xpoly *p);

/* r = a + b, a - b (sub), a * b, a * q; r must not be a or b.  The sign
 * of a zero result is the caller's (ref_exact.c's IEEE rules): negzero
 * is left 0. */
int xp_add(struct xctx *x, struct xpoly *r, const struct xpoly *a,
	   const struct xpoly *b, int sub);
int xp_mul(struct xctx *x, struct xpoly *r, const struct xpoly *a,
	   const struct xpoly *b);
int xp_scale(struct xpoly *r, const struct xpoly *a, mpq_srcptr q);

int xp_equal(const struct xpoly *a, const struct xpoly *b);
/* -1, 0, 1: the sign of p's value when the rules know it, else 2. */
int xp_sign(const struct xctx *x, const struct xpoly *p);
/* Whether p's value is known not to be 0. */
int xp_nonzero(const struct xctx *x, const struct xpoly *p);

/* The atom key(args...) as an index into x->atom (an existing equal one,
 * or a new one with the given sign and nonzero), or XP_GIVEUP when the
 * table is full. */
int xa_intern(struct xctx *x, int key, int konst, int nargs,
	      const struct xpoly *args, int sign, int nonzero);

/* r = op(a) or op(a, b) for the functions of expr.h (ref_exact_fn.c):
 * sqrt rsqrt cbrt pow hypot atan2, floor ceil trunc round nearbyint, and
 * the transcendental functions; XP_GIVEUP for anything else. */
int xf_apply(struct xctx *x, enum ub_expr_op op, struct xpoly *r,
	     const struct xpoly *a, const struct xpoly *b);

/* ref_exact_ieee.c: fmod (even 0) and remainder (even 1), fdim,
 * copysign, tgamma (log 0) and lgamma (log 1), as ref_exact.c's rules
 * allow; r must not be a or b.  xi_pred: a predicate of expr.h (fmt: the
 * format isnormal asks about) into *truth.  xi_round: a rounded to format
 * fmt, or to an integer (UB_PREC_INTEGER), in direction rnd (enum ub_rnd;
 * r may be a).  Each returns 0 or XP_GIVEUP. */
int xi_fmod(struct xctx *x, int even, struct xpoly *r, const struct xpoly *a,
	    const struct xpoly *b);
int xi_fdim(struct xctx *x, struct xpoly *r, const struct xpoly *a,
	    const struct xpoly *b);
int xi_copysign(struct xctx *x, struct xpoly *r, const struct xpoly *a,
		const struct xpoly *b);
int xi_gamma(struct xctx *x, int log, struct xpoly *r, const struct xpoly *a);
int xi_pred(const struct xctx *x, enum ub_expr_op op, int fmt,
	    const struct xpoly *a, int *truth);
int xi_round(struct xctx *x, int fmt, int rnd, struct xpoly *r,
	     const struct xpoly *a);

#endif

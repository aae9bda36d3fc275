/* ref_exact_fn.c — the functions of expr.h in the exact evaluation
 * (ref_exact.c, xf_apply): the value at the rational points where it is
 * rational, an atom elsewhere, and what is known of that atom's sign.
 *
 * Rational values: sqrt, rsqrt at squares (num and den both squares: in
 * lowest terms a square rational is one), cbrt at cubes, hypot where
 * a^2 + b^2 is a square, pow(a, n) for an integer n, floor, ceil, trunc,
 * round and nearbyint, exp2 at integers, log2 at powers of 2, log10 at
 * powers of 10, and the values at 0 and 1 (exp 0 = 1, log 1 = 0, acos 1 =
 * 0, sin 0 = 0, ...), with their zero signs (sin(-0) = -0) as MPFR gives
 * them.  Where an argument is outside the domain, or the value would be
 * infinite, the evaluation gives up.
 *
 * Atoms are nonzero whenever the rules below say so, which is what the
 * zero signs of ref_exact.c need: sin, cos, tan at a rational q != 0 are
 * not 0 (their zeros and poles are at irrational multiples of pi/2), an
 * increasing function is 0 only where the table says, exp, cosh, erfc are
 * positive.  Of a non-rational argument only the functions defined and
 * finite on every real number are taken (exp, sin, atan, ...; not tan,
 * log, sqrt), since its value might be anything. */
#include "ref_poly.h"

#include <stdlib.h>

/* How a function's atom at a rational q != special point is signed. */
enum sgn { POS, ODD, LOGS, NZ };
/* X(op, rational domain: lo, lo_open, hi, hi_open (as q compared with
 *   -1, 0, 1; 9 none), atom sign at a rational, whether it takes any real,
 *   its value at 0 (0: +-0 with the argument's sign, 1: 1, 9: none)) */
#define XF_FUNCS(X)                                             \
	X(UB_EXP, 9, 0, 9, 0, POS, 1, 1)                         \
	X(UB_EXP2, 9, 0, 9, 0, POS, 1, 1)                        \
	X(UB_EXPM1, 9, 0, 9, 0, ODD, 1, 0)                       \
	X(UB_SIN, 9, 0, 9, 0, NZ, 1, 0)                          \
	X(UB_COS, 9, 0, 9, 0, NZ, 1, 1)                          \
	X(UB_TAN, 9, 0, 9, 0, NZ, 0, 0)                          \
	X(UB_ATAN, 9, 0, 9, 0, ODD, 1, 0)                        \
	X(UB_TANH, 9, 0, 9, 0, ODD, 1, 0)                        \
	X(UB_ERF, 9, 0, 9, 0, ODD, 1, 0)                         \
	X(UB_ERFC, 9, 0, 9, 0, POS, 1, 1)                        \
	X(UB_SINH, 9, 0, 9, 0, ODD, 1, 0)                        \
	X(UB_COSH, 9, 0, 9, 0, POS, 1, 1)                        \
	X(UB_ASINH, 9, 0, 9, 0, ODD, 1, 0)                       \
	X(UB_ASIN, -1, 0, 1, 0, ODD, 0, 0)                       \
	X(UB_ACOS, -1, 0, 1, 0, POS, 0, 9)                       \
	X(UB_ATANH, -1, 1, 1, 1, ODD, 0, 0)                      \
	X(UB_ACOSH, 1, 0, 9, 0, POS, 0, 9)                       \
	X(UB_LOG, 0, 1, 9, 0, LOGS, 0, 9)                        \
	X(UB_LOG2, 0, 1, 9, 0, LOGS, 0, 9)                       \
	X(UB_LOG10, 0, 1, 9, 0, LOGS, 0, 9)                      \
	X(UB_LOG1P, -1, 1, 9, 0, ODD, 0, 0)

static const struct fn {
	int known;
	int lo, lo_open, hi, hi_open;
	enum sgn sign;
	int total, at0;
} fns[UB_NOPS] = {
#define X(op, lo, lo_open, hi, hi_open, sign, total, at0) \
	[op] = {1, lo, lo_open, hi, hi_open, sign, total, at0},
	XF_FUNCS(X)
#undef X
};

/* ---- exact values ------------------------------------------------------- */

static int set_si(struct xpoly *r, long v, int negzero)
{
	mpq_t q;
	mpq_init(q);
	mpq_set_si(q, v, 1);
	int st = xp_set_q(r, q, negzero);
	mpq_clear(q);
	return st;
}

/* r = c * key(args), an atom of the given sign (0: unknown) and nonzero. */
static int atom(struct xctx *x, struct xpoly *r, mpq_srcptr c, int key,
		int konst, int nargs, const struct xpoly *args, int sign, int nonzero)
{
	int id = xa_intern(x, key, konst, nargs, args, sign, nonzero);
	return id < 0 ? XP_GIVEUP : xp_set_atom(r, c, id);
}

/* r = (num/den) * PI (the constant PI is XA_CONST number 0, ref_exact.c). */
static int pi_times(struct xctx *x, struct xpoly *r, long num, unsigned long den)
{
	mpq_t c;
	mpq_init(c);
	mpq_set_si(c, num, den);
	int st = atom(x, r, c, XA_CONST, 0, 0, NULL, 1, 1);
	mpq_clear(c);
	return st;
}

/* sqrt(q) (or 1/sqrt(q): inverse) of a rational q >= 0: a rational when
 * num and den are squares, else sqrt(num den) / den (1/sqrt: / num). */
static int root(struct xctx *x, struct xpoly *r, mpq_srcptr q, int negzero,
		int inverse)
{
	if (mpq_sgn(q) < 0 || (inverse && mpq_sgn(q) == 0))
		return XP_GIVEUP;
	if (mpq_sgn(q) == 0)
		return xp_set_q(r, q, negzero); /* sqrt(-0) = -0 */
	mpq_t c;
	struct xpoly n;
	int st;
	mpq_init(c);
	xp_init(&n);
	if (mpz_perfect_square_p(mpq_numref(q)) && mpz_perfect_square_p(mpq_denref(q))) {
		mpz_sqrt(mpq_numref(c), mpq_numref(q));
		mpz_sqrt(mpq_denref(c), mpq_denref(q));
		if (inverse)
			mpq_inv(c, c);
		st = xp_set_q(r, c, 0);
	} else {
		mpz_mul(mpq_numref(c), mpq_numref(q), mpq_denref(q));
		st = xp_set_q(&n, c, 0);
		mpz_set_ui(mpq_numref(c), 1);
		mpz_set(mpq_denref(c), inverse ? mpq_numref(q) : mpq_denref(q));
		if (!st)
			st = atom(x, r, c, XA_SQRT, 0, 1, &n, 1, 1);
	}
	mpq_clear(c);
	xp_clear(&n);
	return st;
}

static int cbrt_q(struct xctx *x, struct xpoly *r, const struct xpoly *a)
{
	mpq_srcptr q = xp_rational(a);
	if (!a->n)
		return xp_copy(r, a); /* cbrt(-0) = -0 */
	int s = xp_sign(x, a);
	mpq_t c;
	mpq_init(c);
	int st;
	if (q && mpz_root(mpq_numref(c), mpq_numref(q), 3) &&
	    mpz_root(mpq_denref(c), mpq_denref(q), 3)) {
		st = xp_set_q(r, c, 0); /* mpz_root of a negative: the negative root */
	} else {
		mpq_set_ui(c, 1, 1);
		st = atom(x, r, c, UB_CBRT, 0, 1, a, s == 2 ? 0 : s, s != 2);
	}
	mpq_clear(c);
	return st;
}

/* a^n for an integer n; pow(x, 0) = 1.  The result's size is checked
 * before GMP computes it: |n| times the bits of a's numerator and
 * denominator must stay within XP_MAXBITS (a product that could wrap
 * around, n = 2^60 at 64 bits, is compared as a quotient), or GMP would
 * abort the process on an mpz beyond its range. */
static int power(struct xctx *x, struct xpoly *r, const struct xpoly *a, long n)
{
	mpq_srcptr q = xp_rational(a);
	if (n == 0)
		return set_si(r, 1, 0);
	if (!a->n) /* pow(+-0, n > 0): -0 for odd n of -0, else +0 */
		return n < 0 ? XP_GIVEUP : set_si(r, 0, a->negzero && (n & 1));
	if (q && mpz_cmpabs_ui(mpq_numref(q), 1) == 0 && mpz_cmp_ui(mpq_denref(q), 1) == 0)
		return set_si(r, mpq_sgn(q) < 0 && (n & 1) ? -1 : 1, 0); /* (+-1)^n */
	if (n < -XP_MAXBITS || n > XP_MAXBITS)
		return XP_GIVEUP; /* any other a: beyond XP_MAXBITS bits */
	if (q) {
		size_t bits = mpz_sizeinbase(mpq_numref(q), 2) + mpz_sizeinbase(mpq_denref(q), 2);
		if ((size_t)labs(n) > XP_MAXBITS / bits)
			return XP_GIVEUP;
		mpq_t c;
		mpq_init(c);
		mpz_pow_ui(mpq_numref(c), mpq_numref(q), (unsigned long)labs(n));
		mpz_pow_ui(mpq_denref(c), mpq_denref(q), (unsigned long)labs(n));
		if (n < 0)
			mpq_inv(c, c);
		int st = xp_set_q(r, c, 0);
		mpq_clear(c);
		return st;
	}
	if (n < 0 || n > XP_MAXDEG)
		return XP_GIVEUP;
	struct xpoly acc, t;
	xp_init(&acc);
	xp_init(&t);
	int st = xp_copy(&acc, a);
	for (long k = 1; k < n && !st; k++) {
		st = xp_mul(x, &t, &acc, a);
		if (!st)
			st = xp_copy(&acc, &t);
	}
	if (!st)
		st = xp_copy(r, &acc);
	xp_clear(&acc);
	xp_clear(&t);
	return st || !r->n ? XP_GIVEUP : 0; /* a zero of nonzero factors: unsigned */
}

static int pow_of(struct xctx *x, struct xpoly *r, const struct xpoly *a,
		  const struct xpoly *b)
{
	mpq_srcptr e = xp_rational(b), q = xp_rational(a);
	if (!b->n)
		return set_si(r, 1, 0);
	if (q && mpq_cmp_ui(q, 1, 1) == 0)
		return set_si(r, 1, 0); /* pow(1, y) = 1 for every y, even NaN */
	if (!e)
		return XP_GIVEUP;
	if (mpz_cmp_ui(mpq_denref(e), 1) == 0) /* an integer: odd ones keep signs */
		return mpz_fits_slong_p(mpq_numref(e)) ?
		       power(x, r, a, mpz_get_si(mpq_numref(e))) : XP_GIVEUP;
	if (!a->n && mpq_sgn(e) > 0) /* pow(+-0, y > 0, y not an odd integer) */
		return set_si(r, 0, 0);
	if (!q || mpq_sgn(q) < 0)
		return XP_GIVEUP; /* pow of a negative, non-integer exponent: NaN */
	mpq_t c;
	mpq_init(c);
	mpq_set_ui(c, 1, 1);
	struct xpoly args[2] = {*a, *b};
	int st = atom(x, r, c, UB_POW, 0, 2, args, 1, 1);
	mpq_clear(c);
	return st;
}

static int hypot_of(struct xctx *x, struct xpoly *r, const struct xpoly *a,
		    const struct xpoly *b)
{
	mpq_srcptr p = xp_rational(a), q = xp_rational(b);
	if ((a->n && !p) || (b->n && !q))
		return XP_GIVEUP;
	mpq_t s, t;
	mpq_inits(s, t, (mpq_ptr)0);
	if (p)
		mpq_mul(s, p, p);
	if (q) {
		mpq_mul(t, q, q);
		mpq_add(s, s, t);
	}
	int st = root(x, r, s, 0, 0); /* hypot(+-0, +-0) = +0 */
	mpq_clears(s, t, (mpq_ptr)0);
	return st;
}

/* floor, ceil, trunc, round (half away from 0), nearbyint (half to even)
 * of a rational; a zero result has the argument's sign (ceil(-0.5) = -0). */
static int integral(enum ub_expr_op op, struct xpoly *r, const struct xpoly *a)
{
	mpq_srcptr q = xp_rational(a);
	if (!a->n)
		return xp_copy(r, a);
	if (!q)
		return XP_GIVEUP;
	mpq_t c, h;
	mpq_inits(c, h, (mpq_ptr)0);
	mpz_ptr z = mpq_numref(c);
	mpz_srcptr n = mpq_numref(q), d = mpq_denref(q);
	if (op == UB_FLOOR)
		mpz_fdiv_q(z, n, d);
	else if (op == UB_CEIL)
		mpz_cdiv_q(z, n, d);
	else if (op == UB_TRUNC)
		mpz_tdiv_q(z, n, d);
	else { /* floor(q + 1/2), then the ties */
		mpq_set_ui(h, 1, 2);
		mpq_add(h, h, q);
		mpz_fdiv_q(z, mpq_numref(h), mpq_denref(h));
		int tie = mpz_cmp_ui(mpq_denref(h), 1) == 0;
		if (tie && ((op == UB_ROUND && mpq_sgn(q) < 0) ||
			    (op == UB_NEARBYINT && mpz_odd_p(z))))
			mpz_sub_ui(z, z, 1);
	}
	int st = xp_set_q(r, c, mpq_sgn(q) < 0);
	mpq_clears(c, h, (mpq_ptr)0);
	return st;
}

/* ---- transcendental functions ----------------------------------------- */

/* Whether q lies in op's domain (outside: NaN, or an infinity at a pole). */
static int in_domain(const struct fn *f, mpq_srcptr q)
{
	if (f->lo != 9) {
		int c = mpq_cmp_si(q, f->lo, 1);
		if (c < 0 || (c == 0 && f->lo_open))
			return 0;
	}
	if (f->hi != 9) {
		int c = mpq_cmp_si(q, f->hi, 1);
		if (c > 0 || (c == 0 && f->hi_open))
			return 0;
	}
	return 1;
}

/* c = 1; returns c. */
static mpq_ptr one_q(mpq_ptr c)
{
	mpq_set_ui(c, 1, 1);
	return c;
}

/* k when q = base^k for an integer k (|k| small), else 0 with *is = 0. */
static long log_exact(mpq_srcptr q, unsigned long base, int *is)
{
	mpz_t p;
	mpz_init_set_ui(p, 1);
	int inv = mpz_cmp_ui(mpq_numref(q), 1) == 0;
	mpz_srcptr z = inv ? mpq_denref(q) : mpq_numref(q);
	long k = 0;
	*is = inv || mpz_cmp_ui(mpq_denref(q), 1) == 0;
	while (*is && mpz_cmp(p, z) < 0 && k < XP_MAXBITS) {
		mpz_mul_ui(p, p, base);
		k++;
	}
	*is = *is && mpz_cmp(p, z) == 0;
	mpz_clear(p);
	return inv ? -k : k;
}

/* The rational values of op at a rational q (1: r set; 0: none here). */
static int special(struct xctx *x, enum ub_expr_op op, struct xpoly *r,
		   const struct xpoly *a, int *st)
{
	mpq_srcptr q = xp_rational(a);
	const struct fn *f = &fns[op];
	int is = 0;
	long k;
	if (!a->n && f->at0 != 9) { /* f(0) */
		*st = f->at0 ? set_si(r, 1, 0) : xp_copy(r, a);
		return 1;
	}
	if (!a->n && op == UB_ACOS)
		return *st = pi_times(x, r, 1, 2), 1;
	if (!q)
		return 0;
	if (op == UB_EXP2 && mpz_cmp_ui(mpq_denref(q), 1) == 0 &&
	    mpz_cmpabs_ui(mpq_numref(q), XP_MAXBITS) <= 0) { /* 2^n */
		mpq_t c;
		mpq_init(c);
		long n = mpz_get_si(mpq_numref(q));
		mpz_mul_2exp(mpq_numref(c), mpq_numref(one_q(c)), (mp_bitcnt_t)labs(n));
		if (n < 0)
			mpq_inv(c, c);
		*st = xp_set_q(r, c, 0);
		mpq_clear(c);
		return 1;
	}
	if (op == UB_LOG || op == UB_LOG2 || op == UB_LOG10 || op == UB_ACOSH ||
	    op == UB_ACOS) { /* 0 at 1 */
		if (mpq_cmp_si(q, 1, 1) == 0)
			return *st = set_si(r, 0, 0), 1;
	}
	if ((op == UB_LOG2 || op == UB_LOG10) && mpq_sgn(q) > 0 &&
	    (k = log_exact(q, op == UB_LOG2 ? 2 : 10, &is), is))
		return *st = set_si(r, k, 0), 1;
	if (op == UB_ACOS && mpq_cmp_si(q, -1, 1) == 0)
		return *st = pi_times(x, r, 1, 1), 1;
	if (op == UB_ASIN && mpz_cmpabs_ui(mpq_numref(q), 1) == 0 &&
	    mpz_cmp_ui(mpq_denref(q), 1) == 0)
		return *st = pi_times(x, r, mpq_sgn(q), 2), 1;
	return 0;
}

static int function(struct xctx *x, enum ub_expr_op op, struct xpoly *r,
		    const struct xpoly *a)
{
	const struct fn *f = &fns[op];
	mpq_srcptr q = xp_rational(a);
	int st = 0, rational = xp_is_rational(a);
	mpq_t zero, one;
	if (!f->known || (!rational && !f->total))
		return XP_GIVEUP;
	mpq_init(zero);
	if (rational && !in_domain(f, q ? q : zero)) {
		mpq_clear(zero);
		return XP_GIVEUP;
	}
	mpq_clear(zero);
	if (special(x, op, r, a, &st))
		return st;
	if (rational && !q)
		return XP_GIVEUP; /* f(0) is in the table for every f defined at 0 */
	int s = rational ? mpq_sgn(q) : xp_sign(x, a), sign = 0, nonzero = rational;
	if (f->sign == POS)
		sign = 1;
	else if (f->sign == ODD && s != 2)
		sign = s;
	else if (f->sign == LOGS)
		sign = mpq_cmp_si(q, 1, 1) > 0 ? 1 : -1;
	mpq_init(one);
	mpq_set_ui(one, 1, 1);
	st = atom(x, r, one, op, 0, 1, a, sign, nonzero || sign != 0);
	mpq_clear(one);
	return st;
}

static int atan2_of(struct xctx *x, struct xpoly *r, const struct xpoly *y,
		    const struct xpoly *a)
{
	mpq_srcptr p = xp_rational(y), q = xp_rational(a);
	if ((y->n && !p) || (a->n && !q))
		return XP_GIVEUP;
	int sy = y->n ? mpq_sgn(p) : y->negzero ? -1 : 1;
	if (!y->n) { /* atan2(+-0, x): +-0 for x > 0 or +0, +-pi for x < 0 or -0 */
		if ((a->n && mpq_sgn(q) > 0) || (!a->n && !a->negzero))
			return xp_copy(r, y);
		return pi_times(x, r, sy, 1);
	}
	if (!a->n)
		return pi_times(x, r, sy, 2); /* +-pi/2 */
	mpq_t c;
	mpq_init(c);
	mpq_set_ui(c, 1, 1);
	struct xpoly args[2] = {*y, *a};
	int st = atom(x, r, c, UB_ATAN2, 0, 2, args, sy, 1);
	mpq_clear(c);
	return st;
}

int xf_apply(struct xctx *x, enum ub_expr_op op, struct xpoly *r,
	     const struct xpoly *a, const struct xpoly *b)
{
	mpq_srcptr q = xp_rational(a);
	switch (op) {
	case UB_SQRT:
	case UB_RSQRT:
		if (a->n && !q)
			return XP_GIVEUP;
		if (!a->n) { /* sqrt(+-0) = +-0, rsqrt: an infinity */
			mpq_t z;
			mpq_init(z);
			int st = root(x, r, z, a->negzero, op == UB_RSQRT);
			mpq_clear(z);
			return st;
		}
		return root(x, r, q, 0, op == UB_RSQRT);
	case UB_CBRT:
		return cbrt_q(x, r, a);
	case UB_POW:
		return pow_of(x, r, a, b);
	case UB_HYPOT:
		return hypot_of(x, r, a, b);
	case UB_ATAN2:
		return atan2_of(x, r, a, b);
	case UB_FLOOR:
	case UB_CEIL:
	case UB_TRUNC:
	case UB_ROUND:
	case UB_NEARBYINT:
		return integral(op, r, a);
	default:
		return function(x, op, r, a);
	}
}

/* ref_internal.h — what the reference's files share: interval arithmetic
 * for the MPFR reference (see the argument at the top of ref_mpfr.c). */
#ifndef UB_REF_INTERNAL_H
#define UB_REF_INTERNAL_H

#include <gmp.h>
#include <mpfr.h>

#include "expr.h"
#include "reference.h"

/* A closed interval [lo, hi] holding the exact value of a subexpression.
 * A point (lo and hi equal, zeros of the same sign) is that exact value,
 * infinities and signed zeros included; NaN is the point lo = hi = NaN.
 * In any other interval an infinite endpoint is only a bound: the exact
 * value is finite (MPFR overflowed beyond 2^(2^62)). */
struct ub_ival {
	mpfr_t lo, hi;
};

/* ub_iv_apply's answer besides 0: the interval would not be sound or not
 * useful at this precision (it may contain a pole, an extremum, a zero
 * whose sign matters); the caller retries at a higher precision. */
#define UB_IV_REFINE (-1)

int ub_iv_point(const struct ub_ival *a);

/* Sets a to the number x was rounded to with ternary value t (the sign of
 * x - exact): a point when t = 0, else [x, next] or [previous, x]. */
void ub_iv_from_ternary(struct ub_ival *a, int t);

/* r = the literal s (expr.h's number text, or a named constant) as an
 * enclosure at r's precision (ref_const.c). */
void ub_iv_number(struct ub_ival *r, const char *s);

/* r = op(a[0], ...) as an enclosure at r's precision (any op but UB_IF,
 * whose branches ref_mpfr.c evaluates one at a time); r must not be one of
 * the arguments.  t is scratch at r's precision.  Returns 0 or
 * UB_IV_REFINE. */
int ub_iv_apply(enum ub_expr_op op, struct ub_ival *r,
		const struct ub_ival *const *a, mpfr_ptr t);

/* The non-monotone C99 functions over intervals that are not points
 * (ref_interval_fn.c): fmod (even 0) and remainder (even 1), fdim,
 * copysign, tgamma (log 0) and lgamma (log 1); 0 or UB_IV_REFINE.  t is
 * scratch at r's precision.  ub_iv_lgamma_point: log|Gamma(x)| rounded to
 * nearest into y, its ternary value. */
int ub_iv_fmod(struct ub_ival *r, const struct ub_ival *a,
	       const struct ub_ival *b, int even, mpfr_ptr t);
int ub_iv_fdim(struct ub_ival *r, const struct ub_ival *a,
	       const struct ub_ival *b);
int ub_iv_copysign(struct ub_ival *r, const struct ub_ival *a,
		   const struct ub_ival *b);
int ub_iv_gamma(struct ub_ival *r, const struct ub_ival *a, int log,
		mpfr_ptr t);
int ub_iv_lgamma_point(mpfr_ptr y, mpfr_srcptr x);

/* Conditions (ref_logic.c): comparisons, and, or, not.  A condition is
 * the point 1 (true), the point 0 (false), or [0, 1] when the enclosures
 * of its arguments cannot decide it yet (an if then asks for more
 * precision).  Whether op is one of them: */
int ub_iv_is_logic(enum ub_expr_op op);
/* r = op(a...) for such an op; always 0. */
int ub_iv_logic(enum ub_expr_op op, struct ub_ival *r,
		const struct ub_ival *const *a);
/* r = the predicate op (isfinite isinf isnan isnormal signbit) of a; fmt
 * is the format whose normal range isnormal asks about; always 0. */
int ub_iv_pred(enum ub_expr_op op, int fmt, struct ub_ival *r,
	       const struct ub_ival *a);
/* r = a rounded to format fmt (its range) in direction rnd (enum ub_rnd)
 * end by end: a point when both ends round alike; UB_IV_REFINE when an
 * end rounds to an infinity that the other does not reach (an infinite
 * end of a non-point interval must stay a bound on a finite value).  fmt
 * UB_PREC_INTEGER rounds to integers.  r may be a. */
int ub_iv_round(int fmt, int rnd, struct ub_ival *r, const struct ub_ival *a);

/* Rounding once to a format (ref_round.c): d's encoding in dt (d exact in
 * dt; NaN gives the canonical quiet NaN); y, at dt's precision, holding
 * RN(v) with ternary t from a rounding in MPFR's widest exponent range,
 * rounded on to dt's range (y is clobbered); the rational q (negzero: the
 * sign of a zero q) rounded to dt; q as a double-double exact value. */
uint64_t ub_ref_encode(enum ub_dtype dt, double d);
uint64_t ub_ref_round(enum ub_dtype dt, mpfr_ptr y, int t);
uint64_t ub_ref_round_q(enum ub_dtype dt, mpq_srcptr q, int negzero);
/* The same in a direction m (MPFR_RNDN, RNDU, RNDD, RNDZ): y rounded in
 * direction m to dt's precision with ternary t; ub_ref_mode maps enum
 * ub_rnd to it. */
mpfr_rnd_t ub_ref_mode(int rnd);
uint64_t ub_ref_round_dir(enum ub_dtype dt, mpfr_ptr y, int t, mpfr_rnd_t m);
uint64_t ub_ref_round_q_dir(enum ub_dtype dt, mpq_srcptr q, int negzero,
			    mpfr_rnd_t m);
void ub_ref_exact_q(mpq_srcptr q, int negzero, struct ub_exact *x);

/* The exact evaluation (ref_exact.c): when the rules of ref_poly.h find
 * the root of d rational at the inputs, 0 with *cr its rounding to dt and
 * *exact (NULL allowed) its value; otherwise -1 (nothing is set). */
struct ub_dag;
int ub_ref_exact(const struct ub_dag *d, enum ub_dtype dt, const uint64_t *in,
		 int nin, uint64_t *cr, struct ub_exact *exact);

/* The same for a condition: 0 with *truth when the rules decide it. */
int ub_ref_exact_truth(const struct ub_dag *d, enum ub_dtype dt,
		       const uint64_t *in, int nin, int *truth);

/* Scaled enclosures (ref_wide.c): the value is v times 2^s, s an integer
 * of any size; and the wide values of the second evaluation, which may
 * know their distance c from 1 (the value is also 1 - c). */
struct ub_sv {
	struct ub_ival v;
	mpz_t s;
};
struct ub_wv {
	struct ub_sv x;
	int has_c;
	struct ub_sv c;
};
void ub_sv_init(struct ub_sv *x, mpfr_prec_t p);
void ub_sv_clear(struct ub_sv *x);
void ub_sv_set_prec(struct ub_sv *x, mpfr_prec_t p);
/* x = the plain enclosure a; r = x as a plain enclosure, outward (a
 * value beyond MPFR's exponents becomes a bound there). */
void ub_sv_from(struct ub_sv *x, const struct ub_ival *a);
void ub_sv_plain(struct ub_ival *r, const struct ub_sv *x);
/* Whether x's exponent is far beyond MPFR's range. */
int ub_sv_beyond(const struct ub_sv *x);
void ub_sv_copy(struct ub_sv *r, const struct ub_sv *a);
void ub_sv_neg(struct ub_sv *r, const struct ub_sv *a);
int ub_sv_is_one(const struct ub_sv *a);
/* The operations on scaled values: 0 or UB_IV_REFINE (none applies: the
 * caller computes on plain enclosures).  t and u are scratch at r's
 * precision; r may not be an argument. */
int ub_sv_arith(enum ub_expr_op op, struct ub_sv *r, const struct ub_sv *a,
		const struct ub_sv *b, struct ub_ival *t, mpfr_ptr u);
int ub_sv_pow(struct ub_sv *r, const struct ub_sv *a, const struct ub_sv *y,
	      mpfr_ptr u);
int ub_sv_exp(enum ub_expr_op op, struct ub_sv *r, const struct ub_sv *x, mpfr_ptr u);
int ub_sv_log(enum ub_expr_op op, struct ub_sv *r, const struct ub_sv *x, mpfr_ptr u);
int ub_sv_near(struct ub_sv *r, const struct ub_sv *x, mpfr_ptr u);
int ub_sv_root(enum ub_expr_op op, struct ub_sv *r, const struct ub_sv *x, mpfr_ptr u);

/* The second evaluation (ref_wide_eval.c): d's root at the inputs over
 * wide values, at growing precision until the rounding is decided or the
 * deadline (ub_ref_clock) passes: 0 with *cr and *exact (NULL allowed),
 * UB_IV_REFINE (undecided; *why its class), or an error status. */
int ub_ref_wide(const struct ub_dag *d, enum ub_dtype dt, const uint64_t *in,
		int nin, double deadline, uint64_t *cr, struct ub_exact *exact,
		int *why);
void ub_ref_wide_release(void);

/* An exact value v (any precision) as hi + lo (ref_shaped.c), and the
 * encoding of dt nearest to it: the shaped and matrix ops' references. */
void ub_ref_set_exact(struct ub_exact *x, mpfr_srcptr v);
uint64_t ub_ref_round_to(enum ub_dtype dt, mpfr_srcptr a);

/* Frees the calling thread's buffers of the fast path (ref_fast.c). */
void ub_ref_fast_release(void);

#endif

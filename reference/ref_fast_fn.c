/* ref_fast_fn.c — enclosures of the functions for the fast reference
 * (ref_fast.h), from LLVM libc's double functions (ref_llvm.h), and the
 * float ones for the single-function case.
 *
 * f(A) for an argument A enclosed by (a, ea): the computed v = f(a) errs
 * by at most K ulps of v (the function's own error: K = 1 for LLVM's
 * correctly rounded functions, twice their 0.5; ref_llvm.h), and f(A)
 * differs from f(a) by at most ea M, M a bound of |f'| over [a - ea,
 * a + ea] (mean value theorem):
 *   exp, expm1  exp(hi);        exp2  ln 2 exp2(hi)
 *   log  1/lo (lo > 0);         log1p  1/(1 + lo) (lo > -1)
 *   log2  1/(lo ln 2);          log10  1/(lo ln 10)
 *   sin, cos, atan  1;          asin, acos  1/sqrt(1 - m^2), m = max|t| < 1
 *   cbrt  1/(3 cbrt(n)^2), n = min|t| > 0
 *   erf, erfc  2/sqrt(pi) exp(-n^2), n = min|t|
 * with lo, hi the ends widened outward by 2^-50 relative and 2^-1070
 * absolute (more than the rounding of a +- ea), and M itself times
 * 1 + 2^-30 plus 2^-1070 (the few ulps of its own computation, its
 * underflow).  One ulp of v is at most 2^-52 |v| + 2^-1074.
 * tanh, sinh and cosh are compositions of these and of + - * / by their
 * identities (tanh t = E / (E + 2), E = expm1(2t); sinh t = (E + E/(E + 1))
 * / 2, E = expm1(t); cosh t = (e^t + 1/e^t) / 2; t = |x|, the sign of x
 * put back for the odd ones), so the rules of ref_fast.h bound them.
 * erf and erfc come from the C library (LLVM has no double erf): glibc
 * documents at most 1 and 5 ulps on x86_64 (libm-test-ulps); the bound
 * taken is 16 ulps, and tests/check_ref_fast.c checks it against MPFR.
 * Without LLVM libc (not built in, or a CPU without FMA and AVX2) no
 * function is known: the expression goes to MPFR. */
#include "config.h"
#include "expr.h"
#include "ref_fast.h"
#include "ref_llvm.h"

#include <float.h>

#define LIB_ULPS 16   /* erf, erfc of the C library */

/* f's own error, k ulps of v. */
static inline double own(double v, double k)
{
	return k * (fabs(v) * 0x1p-52 + 0x1p-1074);
}

static inline double widen_lo(double x)
{
	return x - fabs(x) * 0x1p-50 - 0x1p-1070;
}

static inline double widen_hi(double x)
{
	return x + fabs(x) * 0x1p-50 + 0x1p-1070;
}

/* r = v with its own error k ulps and the propagation ea M. */
static void result(const struct fval *a, double v, double k, double m,
		   struct fval *r)
{
	double prop = a->e == 0 ? 0 : a->e * (m * (1 + 0x1p-30) + 0x1p-1070);
	r->v = v;
	r->e = (own(v, k) + prop) * FAST_SAFE + FAST_SLOP;
	r->ok = a->ok && !isnan(prop);
	fast_sign(r);
}

void fast_sqrt(const struct fval *a, struct fval *r, int rsqrt)
{   /* |sqrt A - sqrt a| <= ea / sqrt a, sqrt a >= v (1 - u) */
	if (!(a->ok && a->v > a->e * FAST_SAFE)) {
		*r = (struct fval){ 0, 0, 0, 0 };
		return;
	}
	r->ok = 1;
	r->v = sqrt(a->v);
	r->e = ((a->e != 0 ? a->e / (r->v * (1 - FAST_U)) : 0) + fast_rnd(r->v)) *
	       FAST_SAFE * FAST_SAFE + FAST_SLOP;
	r->sg = 1;
	if (rsqrt) {   /* 1 / s, the division rule with 1 exact */
		struct fval one = { 1, 0, 1, 1 }, s = *r;
		fast_div(&one, &s, r);
	}
}

#ifdef UB_HAVE_LLVM_LIBC
/* min |t| and max |t| over a's widened interval. */
static void mags(const struct fval *a, double *mn, double *mx)
{
	double lo = widen_lo(a->v - a->e), hi = widen_hi(a->v + a->e);
	*mx = fmax(fabs(lo), fabs(hi));
	*mn = lo > 0 ? lo : hi < 0 ? -hi : 0;
}

/* The odd functions by t = |a| (a's sign known, else no enclosure). */
static void odd(int op, const struct fval *a, struct fval *r)
{
	struct fval t = *a, two = { 2, 0, 1, 1 }, one = { 1, 0, 1, 1 }, e, d, q, s, u;
	if (!a->sg) {
		*r = (struct fval){ 0, 0, 0, 0 };
		return;
	}
	t.v = fabs(a->v);
	t.sg = 1;
	if (op == UB_TANH && t.v - t.e >= 22) {
		/* |1 - tanh t| = 2 / (e^2t + 1) < 2e^-44 < 2^-62, and
		 * |tanh'| = sech^2 <= 4 e^-2t < 2^-62 there */
		q = (struct fval){ 1, (0x1p-62 + t.e * 0x1p-62) * FAST_SAFE + FAST_SLOP,
				   t.ok, 1 };
	} else if (op == UB_TANH) {
		/* 2t and its bound 2 t.e are exact (doubling; t < 23 here):
		 * an exact t gives an exact u, whose expm1 then propagates
		 * nothing (fast_fn) */
		u = (struct fval){ 2 * t.v, 2 * t.e, t.ok, t.sg };
		fast_fn(UB_EXPM1, &u, &e);
		fast_add(&e, &two, &d);
		fast_div(&e, &d, &q);
	} else {   /* sinh */
		fast_fn(UB_EXPM1, &t, &e);
		fast_add(&e, &one, &d);
		fast_div(&e, &d, &u);
		fast_add(&e, &u, &s);
		struct fval half = { 0.5, 0, 1, 1 };
		fast_mul(&s, &half, &q);
	}
	if (a->sg < 0)
		fast_neg(&q, r);
	else
		*r = q;
	r->ok = r->ok && q.ok;
}

static void cosh_(const struct fval *a, struct fval *r)
{
	struct fval t = *a, one = { 1, 0, 1, 1 }, half = { 0.5, 0, 1, 1 }, x, y, s;
	t.v = fabs(a->v);
	t.sg = 0;
	fast_fn(UB_EXP, &t, &x);
	fast_div(&one, &x, &y);
	fast_add(&x, &y, &s);
	fast_mul(&s, &half, r);
	r->sg = 1;
}

void fast_fn(int op, const struct fval *a, struct fval *r)
{
	double mn, mx, lo = widen_lo(a->v - a->e), hi = widen_hi(a->v + a->e);
	/* an exact argument (an input) propagates nothing: result() does not
	 * use the derivative's bound, which then costs no call */
	int exact = a->e == 0;
	r->sg = 0;
	switch (op) {
	case UB_EXP:
		result(a, ub_llvm_exp(a->v), 1, exact ? 0 : ub_llvm_exp(hi), r);
		r->sg = 1;
		return;
	case UB_EXPM1:
		result(a, ub_llvm_expm1(a->v), 1, exact ? 0 : ub_llvm_exp(hi), r);
		r->sg = r->sg ? r->sg : a->sg;
		return;
	case UB_EXP2:
		result(a, ub_llvm_exp2(a->v), 1, exact ? 0 : 0.69315 * ub_llvm_exp2(hi), r);
		r->sg = 1;
		return;
	case UB_LOG: case UB_LOG2: case UB_LOG10:
		if (!(lo > 0))
			break;
		result(a, op == UB_LOG ? ub_llvm_log(a->v) : op == UB_LOG2 ?
		       ub_llvm_log2(a->v) : ub_llvm_log10(a->v), 1,
		       (op == UB_LOG ? 1 : op == UB_LOG2 ? 1.4427 : 0.43430) / lo, r);
		return;
	case UB_LOG1P:
		if (!(lo > -1))
			break;
		result(a, ub_llvm_log1p(a->v), 1, 1 / (1 + lo), r);
		if (!r->sg)
			r->sg = a->sg;
		return;
	case UB_SIN: case UB_COS:
		result(a, op == UB_SIN ? ub_llvm_sin(a->v) : ub_llvm_cos(a->v), 1, 1, r);
		return;
	case UB_ATAN:
		result(a, ub_llvm_atan(a->v), 2, 1, r);
		if (!r->sg)
			r->sg = a->sg;
		return;
	case UB_ASIN: case UB_ACOS:
		mags(a, &mn, &mx);
		if (!(mx < 1))
			break;
		result(a, op == UB_ASIN ? ub_llvm_asin(a->v) : ub_llvm_acos(a->v), 1,
		       1 / sqrt((1 - mx) * (1 + mx)), r);
		if (op == UB_ASIN && !r->sg)
			r->sg = a->sg;
		return;
	case UB_CBRT:
		mags(a, &mn, &mx);
		if (!(mn > 0))
			break;
		double c = exact ? 1 : ub_llvm_cbrt(mn);
		result(a, ub_llvm_cbrt(a->v), 1, 1 / (3 * c * c), r);
		r->sg = a->sg;
		return;
	case UB_ERF: case UB_ERFC:
		mags(a, &mn, &mx);
		result(a, op == UB_ERF ? erf(a->v) : erfc(a->v), LIB_ULPS,
		       exact ? 0 : 1.1283792 * ub_llvm_exp(-(mn * mn)), r);
		if (op == UB_ERFC)
			r->sg = 1;
		else if (!r->sg)
			r->sg = a->sg;
		return;
	case UB_TANH: case UB_SINH:
		odd(op, a, r);
		return;
	case UB_COSH:
		cosh_(a, r);
		return;
	default:
		break;
	}
	*r = (struct fval){ 0, 0, 0, 0 };
}

int fast_fn_known(int op)
{
	switch (op) {
	case UB_EXP: case UB_EXPM1: case UB_EXP2: case UB_LOG: case UB_LOG2:
	case UB_LOG10: case UB_LOG1P: case UB_SIN: case UB_COS: case UB_ATAN:
	case UB_ASIN: case UB_ACOS: case UB_CBRT: case UB_ERF: case UB_ERFC:
	case UB_TANH: case UB_SINH: case UB_COSH:
		return ub_llvm_usable();
	default:
		return 0;
	}
}

int fast_fn_float(int op, float x, float *y)
{
	if (!ub_llvm_usable())
		return 0;
	switch (op) {
	case UB_EXP: *y = ub_llvm_expf(x); return 1;
	case UB_EXPM1: *y = ub_llvm_expm1f(x); return 1;
	case UB_EXP2: *y = ub_llvm_exp2f(x); return 1;
	case UB_LOG: *y = ub_llvm_logf(x); return 1;
	case UB_LOG1P: *y = ub_llvm_log1pf(x); return 1;
	case UB_LOG2: *y = ub_llvm_log2f(x); return 1;
	case UB_LOG10: *y = ub_llvm_log10f(x); return 1;
	case UB_SIN: *y = ub_llvm_sinf(x); return 1;
	case UB_COS: *y = ub_llvm_cosf(x); return 1;
	case UB_ASIN: *y = ub_llvm_asinf(x); return 1;
	case UB_ACOS: *y = ub_llvm_acosf(x); return 1;
	case UB_ATAN: *y = ub_llvm_atanf(x); return 1;
	case UB_CBRT: *y = ub_llvm_cbrtf(x); return 1;
	case UB_TANH: *y = ub_llvm_tanhf(x); return 1;
	case UB_SINH: *y = ub_llvm_sinhf(x); return 1;
	case UB_COSH: *y = ub_llvm_coshf(x); return 1;
	case UB_ERF: *y = ub_llvm_erff(x); return 1;
	default: return 0;
	}
}
#else
void fast_fn(int op, const struct fval *a, struct fval *r)
{
	(void)op, (void)a;
	*r = (struct fval){ 0, 0, 0, 0 };
}

int fast_fn_known(int op)
{
	(void)op;
	return 0;
}

int fast_fn_float(int op, float x, float *y)
{
	(void)op, (void)x, (void)y;
	return 0;
}
#endif

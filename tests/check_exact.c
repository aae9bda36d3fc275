/* check_exact.c — the reference on rounding boundaries (docs/reference.md):
 * the rounding of an exact rational to each format, the exact evaluation
 * that decides ties reached through inexact steps and exact zeros, and the
 * elements nothing decides (undecided: counted, never guessed).
 *
 * Independent sources: a rounding written here with integer arithmetic
 * only (GMP's mpz: scale by a power of two, compare the remainder with one
 * half, ties to even), and hand derivations of each tie, written at the
 * case. */
#include "suites.h"

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "dag.h"
#include "metrics.h"
#include "ref_internal.h"
#include "reference.h"

/* ---- rounding a rational, by integer arithmetic ----------------------- */

/* floor(log2 a) for a rational a > 0. */
static long ilog2_q(mpq_srcptr a)
{
	long e = (long)mpz_sizeinbase(mpq_numref(a), 2) -
		 (long)mpz_sizeinbase(mpq_denref(a), 2);
	mpz_t l, r; /* a >= 2^e  <=>  num * 2^-e >= den (e < 0: num >= den 2^e) */
	mpz_inits(l, r, (mpz_ptr)0);
	mpz_set(l, mpq_numref(a));
	mpz_set(r, mpq_denref(a));
	if (e >= 0)
		mpz_mul_2exp(r, r, (mp_bitcnt_t)e);
	else
		mpz_mul_2exp(l, l, (mp_bitcnt_t)-e);
	if (mpz_cmp(l, r) < 0)
		e--;
	mpz_clears(l, r, (mpz_ptr)0);
	return e;
}

/* q rounded to nearest even in dt, as an encoding. */
static uint64_t int_round(enum ub_dtype dt, mpq_srcptr q, int negzero)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	int p = f->prec;
	uint64_t sign = (uint64_t)(mpq_sgn(q) < 0 || (!mpq_sgn(q) && negzero)) << (f->bits - 1);
	uint64_t inf = (uint64_t)(2 * f->emax + 1) << (p - 1);
	if (!mpq_sgn(q))
		return sign;
	mpq_t a, m;
	mpz_t n, r2;
	mpq_inits(a, m, (mpq_ptr)0);
	mpz_inits(n, r2, (mpz_ptr)0);
	mpq_abs(a, q);
	long e = ilog2_q(a), k = (e > f->emin ? e : f->emin) - (p - 1);
	mpq_set(m, a); /* m = a / 2^k */
	if (k >= 0)
		mpq_div_2exp(m, m, (mp_bitcnt_t)k);
	else
		mpq_mul_2exp(m, m, (mp_bitcnt_t)-k);
	mpz_fdiv_qr(n, r2, mpq_numref(m), mpq_denref(m)); /* m = n + r2/den */
	mpz_mul_2exp(r2, r2, 1);                          /* compare r with 1/2 */
	int c = mpz_cmp(r2, mpq_denref(m));
	if (c > 0 || (c == 0 && mpz_odd_p(n)))
		mpz_add_ui(n, n, 1);
	if (mpz_sizeinbase(n, 2) > (size_t)p) { /* n = 2^p: the next binade */
		mpz_fdiv_q_2exp(n, n, 1);
		k++;
	}
	uint64_t bits, mant = mpz_get_ui(n);
	long E = k + p - 1;
	if (mant < (UINT64_C(1) << (p - 1))) /* subnormal (k = emin - p + 1) */
		bits = sign | mant;
	else if (E > f->emax)
		bits = sign | inf;
	else
		bits = sign | (uint64_t)(E + f->emax) << (p - 1) |
		       (mant - (UINT64_C(1) << (p - 1)));
	mpq_clears(a, m, (mpq_ptr)0);
	mpz_clears(n, r2, (mpz_ptr)0);
	return bits;
}

/* Rationals of every kind near the boundaries of dt: midpoints between
 * neighbours (normal, subnormal, at the top, half the smallest subnormal),
 * those moved by tiny non-dyadic amounts, and random quotients. */
static void sample(enum ub_dtype dt, gmp_randstate_t rs, int kind, mpq_ptr q)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	int p = f->prec;
	long lo = f->emin - p - 2, hi = f->emax + 2;
	long e = lo + (long)gmp_urandomm_ui(rs, (unsigned long)(hi - lo + 1));
	mpz_urandomb(mpq_numref(q), rs, (mp_bitcnt_t)p + 1); /* p+1 bits: odd = midpoint */
	mpz_setbit(mpq_numref(q), 0);
	mpz_set_ui(mpq_denref(q), 1);
	if (kind == 1) /* the largest finite number plus half its spacing */
		mpz_set_ui(mpq_numref(q), (UINT64_C(1) << (p + 1)) - 1), e = f->emax - p;
	if (kind == 2) /* half, three quarters of the smallest subnormal */
		mpz_set_ui(mpq_numref(q), 2 + gmp_urandomm_ui(rs, 2)), e = f->emin - p - 1;
	if (e >= 0)
		mpq_mul_2exp(q, q, (mp_bitcnt_t)e);
	else
		mpq_div_2exp(q, q, (mp_bitcnt_t)-e);
	if (kind == 3 || kind == 4) { /* moved by 1/3^30 of the spacing */
		mpq_t d;
		mpq_init(d);
		mpz_ui_pow_ui(mpq_denref(d), 3, 30);
		mpz_set_ui(mpq_numref(d), 1);
		if (e >= 0)
			mpq_mul_2exp(d, d, (mp_bitcnt_t)e);
		else
			mpq_div_2exp(d, d, (mp_bitcnt_t)-e);
		if (kind == 3)
			mpq_add(q, q, d);
		else
			mpq_sub(q, q, d);
		mpq_clear(d);
	}
	if (kind == 5) { /* a random quotient */
		mpz_urandomb(mpq_numref(q), rs, 80);
		mpz_urandomb(mpq_denref(q), rs, 1 + gmp_urandomm_ui(rs, 80));
		mpz_setbit(mpq_denref(q), 0);
		mpq_canonicalize(q);
	}
	if (gmp_urandomm_ui(rs, 2))
		mpq_neg(q, q);
}

START_TEST(test_round_q)
{
	enum ub_dtype dt = (enum ub_dtype)_i;
	gmp_randstate_t rs;
	mpq_t q;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 17 + (unsigned long)_i);
	mpq_init(q);
	for (int i = 0; i < 30000; i++) {
		sample(dt, rs, i % 6, q);
		int nz = i % 7 == 0;
		uint64_t got = ub_ref_round_q(dt, q, nz), want = int_round(dt, q, nz);
		UB_ASSERT(got == want, "%s: %s rounds to 0x%llx, expected 0x%llx",
			  ub_dtypes[dt].name, mpq_get_str(NULL, 10, q),
			  (unsigned long long)got, (unsigned long long)want);
	}
	mpq_set_ui(q, 0, 1);
	ck_assert_uint_eq(ub_ref_round_q(dt, q, 1), UINT64_C(1) << (ub_dtypes[dt].bits - 1));
	mpq_clear(q);
	gmp_randclear(rs);
}
END_TEST

/* ---- ties reached through inexact steps -------------------------------- */

static struct ub_catalog shipped;

static void load(void)
{
	struct ub_error err;
	ck_assert_int_eq(ub_catalog_load(SRCDIR "/suites/ops.fpcore", &shipped, &err), 0);
}

static void unload(void)
{
	ub_catalog_free(&shipped);
}

/* reciprocal_bwd is -g * (1/x)^2 and rsqrt_bwd -0.5 g rsqrt(x)^3: 1/x and
 * rsqrt(x) are inexact at these x, the results exact midpoints. */
static const struct {
	const char *op;
	enum ub_dtype dt;
	uint64_t x, g, want;
	double exact;
} ties[] = {
	/* x = 14, g = 1862 2^-149: -g/x^2 = -9.5 2^-149, between the
	 * subnormals 9 and 10 (units of 2^-149): to even, -10 2^-149 */
	{"reciprocal_bwd", UB_F32, 0x41600000, 0x00000746, 0x8000000a, -9.5 * 0x1p-149},
	/* x = 12, g = -(1 + 803/1024) 2^-11 = -1827 2^-21 = -9 203 2^-21:
	 * -g/x^2 = 203 2^-25 = 101.5 units of f16's 2^-24: to even, 102 */
	{"reciprocal_bwd", UB_F16, 0x4a00, 0x9323, 0x0066, 203 * 0x1p-25},
	/* x = -3 2^45, g = -(1 + 122/128) 2^-37 = -189 2^-44: -g/x^2 =
	 * 189 2^-44 / (9 2^90) = 21 2^-134 = 10.5 units of bf16's 2^-133 */
	{"reciprocal_bwd", UB_BF16, 0xd6c0, 0xad3d, 0x000a, 21 * 0x1p-134},
	/* x = 3072 = 3 2^10, g = 27 2^-114: -g/x^2 = -3 2^-134 = -1.5 units */
	{"reciprocal_bwd", UB_BF16, 0x4540, 0x08d8, 0x8002, -3 * 0x1p-134},
	/* x = 9, g = 81 2^-149: rsqrt 9 = 1/3, -0.5 81 2^-149 / 27 =
	 * -1.5 2^-149: to even, -2 2^-149 */
	{"rsqrt_bwd", UB_F32, 0x41100000, 0x00000051, 0x80000002, -1.5 * 0x1p-149},
};

START_TEST(test_ties)
{
	const struct ub_op *op = ub_catalog_find(&shipped, ties[_i].op);
	struct ub_error err = {""};
	uint64_t in[2] = {ties[_i].x, ties[_i].g}, cr;
	struct ub_exact x;
	ck_assert_ptr_nonnull(op);
	int st = ub_ref_eval(op->math, ties[_i].dt, in, 2, &cr, &x, &err);
	ck_assert_msg(st == 0, "%s", err.msg);
	ck_assert_uint_eq(cr, ties[_i].want);
	ck_assert(x.hi == ties[_i].exact && x.lo == 0);
	ck_assert_int_eq(ub_ref_eval(op->math, ties[_i].dt, in, 2, &cr, NULL, &err), 0);
	ck_assert_uint_eq(cr, ties[_i].want);
}
END_TEST

/* ---- exact zeros and exact comparisons --------------------------------- */

static const struct {
	const char *body;
	uint32_t x, y, want;  /* f32 */
} zeros[] = {
	/* the same atom sin 1 twice: x - x of a nonzero value is +0 */
	{"(- (sin (+ x y)) (sin x))", 0x3f800000, 0x00000000, 0x00000000},
	{"(- (sin (+ x y)) (sin x))", 0xbf800000, 0x80000000, 0x00000000},
	{"(- (exp x) (exp x))", 0x40000000, 0, 0x00000000},
	/* +0 * -1 = -0; -(+0) = -0 */
	{"(* (- (sin x) (sin x)) -1)", 0x40400000, 0, 0x80000000},
	{"(- (- (sin x) (sin x)))", 0x40400000, 0, 0x80000000},
	/* sqrt 2 sqrt 2 = 2 */
	{"(- (* (sqrt x) (sqrt x)) x)", 0x40000000, 0, 0x00000000},
	{"(* (rsqrt x) (sqrt x))", 0x40400000, 0, 0x3f800000},
	/* the literal 0.1 is exactly 1/10 */
	{"(- (* x 0.1) (/ x 10))", 0x40400000, 0, 0x00000000},
	/* comparisons of equal atoms, and a tie: 1/3 + 1/6 = 1/2 */
	{"(if (< (sin x) (sin x)) 1 2)", 0x40000000, 0, 0x40000000},
	{"(if (== (+ (/ 1 x) (/ 1 y)) 0.5) 1 2)", 0x40400000, 0x40c00000, 0x3f800000},
	{"(fmax (cos x) (cos x))", 0, 0, 0x3f800000},
	/* exact values of functions at arguments that are exact, though
	 * reached through x/3 (inexact): log2 8 = 3, acos 1 = 0 (at the
	 * domain's end), exp2 -3 = 1/8 */
	{"(- (log2 (* (/ (* x 4) 3) 3)) 3)", 0x40000000, 0, 0x00000000},
	{"(acos (* (/ x 3) 3))", 0x3f800000, 0, 0x00000000},
	{"(- (exp2 (* (/ x 3) 3)) (/ 1 8))", 0xc0400000, 0, 0x00000000},
	/* pow(1, y) = 1 for every y, pow(-0, y) = +0 for y > 0 not an odd
	 * integer (IEEE 754), the exponent 1/3 inexact: exactly 1 - 0 */
	{"(- (pow (+ x 1) 1/3) (pow x 1/3))", 0x80000000, 0, 0x3f800000},
	{"(pow (- x) 1/3)", 0x00000000, 0, 0x00000000},
	/* the same with an exponent the exact rules do not know (sin 1 is an
	 * atom): the enclosure of sin 1 holds no integer, so pow(-0, y) = +0 */
	{"(pow x (sin y))", 0x80000000, 0x3f800000, 0x00000000},
};

/* ---- sizes: an exact power too large for GMP gives up ------------------- */

/* x^y for y = 2^60 (f32 0x5d800000): its numerator would have 2^60 times
 * the bits of x's, past what an mpz holds, and GMP aborts the process
 * ("gmp: overflow in mpz type") where the size is not checked first.  The
 * exact evaluation must give up instead, the element decided or counted. */
START_TEST(test_huge_power)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	uint64_t in[2] = {0x37f14c4b, 0x5d800000}, cr;
	ck_assert_int_eq(ub_catalog_parse("(FPCore p (x y) (/ 1 (pow x y)))\n"
					  "(FPCore q (x n) (- (pow (+ x 1) (/ 1 n)) (pow x (/ 1 n))))",
					  "p.fpcore", &cat, &err), 0);
	const struct ub_dag *d;
	ck_assert_int_eq(ub_expr_dag(cat.ops[0].math, &d, &err), 0);
	ck_assert_int_eq(ub_ref_exact(d, UB_F32, in, 2, &cr, NULL), -1);
	int st = ub_ref_eval(cat.ops[0].math, UB_F32, in, 2, &cr, NULL, &err);
	ck_assert(st == 0 || st == UB_REF_UNDECIDED);
	in[0] = 0x7effffff;   /* about 1.7e38; n = 2^-60 */
	in[1] = 0x21800000;
	ck_assert_int_eq(ub_expr_dag(cat.ops[1].math, &d, &err), 0);
	ck_assert_int_eq(ub_ref_exact(d, UB_F32, in, 2, &cr, NULL), -1);
	st = ub_ref_eval(cat.ops[1].math, UB_F32, in, 2, &cr, NULL, &err);
	ck_assert(st == 0 || st == UB_REF_UNDECIDED);
	ub_catalog_free(&cat);
}
END_TEST

START_TEST(test_zeros)
{
	char text[256];
	struct ub_catalog cat;
	struct ub_error err = {""};
	uint64_t in[2] = {zeros[_i].x, zeros[_i].y}, cr;
	snprintf(text, sizeof text, "(FPCore z (x y) %s)", zeros[_i].body);
	ck_assert_int_eq(ub_catalog_parse(text, "z.fpcore", &cat, &err), 0);
	int st = ub_ref_eval(cat.ops[0].math, UB_F32, in, 2, &cr, NULL, &err);
	ck_assert_msg(st == 0 && cr == zeros[_i].want, "%s: status %d, 0x%08llx: %s",
		      zeros[_i].body, st, (unsigned long long)cr, err.msg);
	ub_catalog_free(&cat);
}
END_TEST

/* ---- the exact evaluation against the interval evaluation -------------- */

/* Wherever both decide, the exact evaluation (its own rules) and Ziv's
 * loop over intervals (ref_interval.c) must agree bit for bit: the values
 * are at exact points of every function, on signed zeros, at integers and
 * halves, and at random floats. */
static const char *const vs_ziv[] = {
	"(+ (* x y) (- x))", "(/ (fma x y -1) 3)", "(- (/ x 3) (/ y 7))",
	"(sin (- x x))", "(sin (* x -0))", "(cos (* x 0))", "(tan (- x x))",
	"(log (/ x x))", "(log2 (* x x))", "(log10 (* 100 (fabs x)))",
	"(log1p (- x x))", "(acos (/ x x))", "(- (acos (- x x)) PI_2)",
	"(- (* 2 (asin (/ x (fabs x)))) (* PI (/ x (fabs x))))",
	"(acosh (/ x x))", "(atanh (- y y))", "(exp (- x x))", "(expm1 (* x -0))",
	"(exp2 (floor x))", "(exp2 (- (floor x)))", "(erf (- x x))", "(erfc (* 0 x))",
	"(sinh (* x 0))", "(cosh (- x x))", "(asinh (* -0 x))", "(tanh (- x x))",
	"(atan (- x x))", "(sqrt (* x x))", "(rsqrt (* x x))", "(sqrt (/ x 4))",
	"(cbrt (* x (* x x)))", "(cbrt (/ x 27))", "(pow x 3)", "(pow x -2)",
	"(pow x 0)", "(pow (fabs x) 0.5)", "(pow (- x x) 3)", "(hypot x y)",
	"(hypot (* 3 x) (* 4 x))", "(atan2 y x)", "(atan2 (- x x) y)",
	"(atan2 (* y -0) (- x))", "(fmin x y)", "(fmax (- x x) (* y -0))",
	"(fmin (* x -0) (- y y))", "(fabs (- x y))", "(floor (/ x 3))",
	"(ceil (/ x 3))", "(trunc (/ x 3))", "(round (* x 0.5))",
	"(nearbyint (* x 0.5))", "(round (/ x 3))", "(nearbyint (- 0 (* x 0.5)))",
	"(if (< (/ x 3) (/ y 3)) (sin x) (cos y))", "(if (== x y) 1 (/ x 5))",
	"(* PI (- x x))", "(- E (exp 1))", "(- (* SQRT2 SQRT2) 2)",
	"(- (* 2 SQRT1_2) SQRT2)", "(- (* 2 PI_2) PI)", "(- LN2 (log 2))",
	"(+ (* x 0.1) -0.3)", "(* 0x1.8p-3 (- x y))", "(- (* x 1/3) (/ x 3))",
	"(- (sin (+ x (- y y))) (sin x))", "(* (- (sin x) (sin x)) y)",
};

static const uint32_t vs_ziv_values[] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000,
	0x40400000, 0x3f000000, 0xbf000000, 0x40c00000, 0x41100000, 0x41d80000,
	0x3fc00000, 0xc0200000, 0x00000001, 0x80000003, 0x7f7fffff, 0x3eaaaaab,
	0x4b000001, 0xcb7fffff, 0x00800000, 0x42c80000, 0x447a0000, 0xc1200000,
};

START_TEST(test_vs_ziv)
{
	char text[256];
	struct ub_catalog cat;
	struct ub_error err = {""};
	const struct ub_dag *d;
	size_t nv = sizeof vs_ziv_values / sizeof vs_ziv_values[0], agreed = 0;
	uint64_t seed = 0x9e3779b97f4a7c15;
	snprintf(text, sizeof text, "(FPCore e (x y) %s)", vs_ziv[_i]);
	ck_assert_msg(ub_catalog_parse(text, "e.fpcore", &cat, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ub_expr_dag(cat.ops[0].math, &d, &err), 0);
	for (size_t i = 0; i < nv * nv + 400; i++) {
		uint64_t in[2], a, b;
		struct ub_exact ea, eb;
		if (i < nv * nv) {
			in[0] = vs_ziv_values[i % nv];
			in[1] = vs_ziv_values[i / nv];
		} else { /* random finite floats */
			for (int k = 0; k < 2; k++) {
				seed = seed * 6364136223846793005u + 1442695040888963407u;
				in[k] = (seed >> 32) & 0xff7fffff;
			}
		}
		if (ub_ref_exact(d, UB_F32, in, 2, &a, &ea) != 0)
			continue;
		int st = ub_ref_eval(cat.ops[0].math, UB_F32, in, 2, &b, &eb, &err);
		if (st == UB_REF_UNDECIDED)
			continue;
		UB_ASSERT(st == 0 && a == b && (ea.hi == eb.hi ||
			  fabs(ea.hi - eb.hi) <= 0x1p-100 * fabs(eb.hi)),
			  "%s at x=0x%08llx y=0x%08llx: exact 0x%08llx (%a), "
			  "intervals 0x%08llx (%a), status %d", vs_ziv[_i],
			  (unsigned long long)in[0], (unsigned long long)in[1],
			  (unsigned long long)a, ea.hi, (unsigned long long)b, eb.hi, st);
		agreed++;
	}
	ck_assert_msg(agreed >= 20, "%s: the exact evaluation decided %zu points only",
		      vs_ziv[_i], agreed);
	ub_catalog_free(&cat);
}
END_TEST

/* ---- undecided: marked, counted, the run goes on ----------------------- */

/* log x + log 3 - log 3x is 0, but the rules keep log x, log 3 and log 3x
 * as three atoms and no precision settles the sign of a zero. */
START_TEST(test_undecided)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	struct ub_array in, cr, y;
	struct ub_exact ex[4];
	struct ub_stats st;
	uint32_t xs[4] = {0x40000000, 0xbf800000, 0x40400000, 0x7fc00000};
	ck_assert_int_eq(ub_catalog_parse("(FPCore l (x) (- (+ (log x) (log 3)) "
					  "(log (* 3 x))))", "l.fpcore", &cat, &err), 0);
	ck_assert_int_eq(ub_array_alloc(&in, UB_F32, 4), 0);
	for (int i = 0; i < 4; i++)
		ub_array_set(&in, (size_t)i, xs[i]);
	ck_assert_int_eq(ub_ref_eval_array(cat.ops[0].math, UB_F32, &in, 1, &cr, ex, &err), 0);
	/* x = 2, 3: undecided; x = -1 and NaN: NaN (log of a negative) */
	ck_assert(ub_exact_undecided(&ex[0]) && ub_exact_undecided(&ex[2]));
	ck_assert(!ub_exact_undecided(&ex[1]) && !ub_exact_undecided(&ex[3]));
	ck_assert_uint_eq(ub_array_get(&cr, 0), 0x7fffffff);
	ck_assert_uint_eq(ub_array_get(&cr, 1), 0x7fffffff);
	/* results 0, 0, NaN, NaN: metrics over the two decided elements only */
	ck_assert_int_eq(ub_array_alloc(&y, UB_F32, 4), 0);
	ub_array_set(&y, 2, 0x7fc00000);
	ub_array_set(&y, 3, 0x7fc00000);
	ub_stats_compute(&y, &cr, ex, NULL, &st);
	ck_assert_uint_eq(st.undecided, 2);
	ck_assert_uint_eq(st.first_undecided, 0);
	ck_assert_uint_eq(st.ncomparable, 1);   /* NaN = NaN; 0 vs NaN: apart */
	ck_assert_uint_eq(st.nan_mismatch, 1);
	ck_assert_uint_eq(st.cr_mismatch, 1);
	/* merged from parts (run indices: st as if at 20, then at 10, in
	 * either order): the first undecided index is the run's */
	struct ub_stats a, b, c;
	memset(&a, 0, sizeof a);
	b = c = st;
	b.first_undecided += 20;
	c.first_undecided += 10;
	ub_stats_merge(&a, &b);
	ub_stats_merge(&a, &c);
	ck_assert_uint_eq(a.undecided, 4);
	ck_assert_uint_eq(a.first_undecided, 10);
	/* without room to mark it, an undecided element is an error */
	ub_array_free(&cr);
	ck_assert_int_eq(ub_ref_eval_array(cat.ops[0].math, UB_F32, &in, 1, &cr, NULL, &err),
			 UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "(element 0)"), "%s", err.msg);
	ub_array_free(&in);
	ub_array_free(&y);
	ub_catalog_free(&cat);
}
END_TEST

/* ---- the side of a power of two ------------------------------------------ */

/* The ulp of the exact value is the smaller spacing at a power of two P and
 * the larger just above it (metrics.h), so the exact value must say the
 * side: lo 0 at P, of hi's sign above it, of the other sign below.  f32
 * inputs; side: -1 below P (in magnitude), 0 at P, +1 above; fast: what
 * the fast path gives where it differs from MPFR's (the stated limit of
 * docs/reference.md), else the same. */
static const struct {
	const char *body;
	uint32_t x, y;
	double hi;
	int side, fast_side;
} pow2[] = {
	/* (1 - 2^-60) / (1 + 2^-60) = 1 - 2^-59 + 2^-119 - ...: below 1, nearest
	 * double 1 (the spacing below 1 is 2^-53), lo about -2^-59 */
	{"(/ (- x y) (+ x y))", 0x3f800000, 0x21800000, 1.0, -1, -1},
	/* its reciprocal 1 + 2^-59 + ...: above */
	{"(/ (+ x y) (- x y))", 0x3f800000, 0x21800000, 1.0, 1, 1},
	/* y = 2^-140 (0x200, subnormal): 1 + 2^-139 + ..., within 2^-128 of 1,
	 * nearer than a 128-bit rounding of the rational tells: still above */
	{"(/ (+ x y) (- x y))", 0x3f800000, 0x00000200, 1.0, 1, 1},
	/* x^8 at x = 2^8: 2^64, every product exact, though the fast path's
	 * bounds are not 0: at P itself */
	{"(* (* (* x x) (* x x)) (* (* x x) (* x x)))", 0x43800000, 0, 0x1p64, 0, 0},
	/* sigmoid of x = 1e30: 1 - e^-1e30, below 1 by far less than 1023 bits
	 * tell: P itself, the right spacing for a value below P */
	{"(/ 1 (+ 1 (exp (- x))))", 0x7149f2ca, 0, 1.0, 0, 0},
	/* exp 2^-140 = 1 + 2^-140 + ...: MPFR separates it from 1 at 255 bits
	 * (above); the fast path's enclosure is 2^-52 wide and an exp has no
	 * exact evaluation: it takes P (twice the definition's error for a
	 * result other than 1, never less) */
	{"(exp x)", 0x00000200, 0, 1.0, 1, 0},
};

static int side_of(const struct ub_exact *x)
{
	return x->lo == 0 ? 0 : (x->lo > 0) == (x->hi > 0) ? 1 : -1;
}

START_TEST(test_pow2_side)
{
	char text[256];
	struct ub_catalog cat;
	struct ub_error err = {""};
	uint64_t in[2] = {pow2[_i].x, pow2[_i].y}, cr, fcr;
	struct ub_exact x, fx;
	snprintf(text, sizeof text, "(FPCore p (x y) %s)", pow2[_i].body);
	ck_assert_int_eq(ub_catalog_parse(text, "p.fpcore", &cat, &err), 0);
	ck_assert_int_eq(ub_ref_eval(cat.ops[0].math, UB_F32, in, 2, &cr, &x, &err), 0);
	ck_assert_msg(x.hi == pow2[_i].hi && side_of(&x) == pow2[_i].side,
		      "%s: MPFR hi %a lo %a", pow2[_i].body, x.hi, x.lo);
	if (ub_ref_eval_fast(cat.ops[0].math, UB_F32, in, 2, &fcr, &fx)) {
		ck_assert_uint_eq(fcr, cr);
		ck_assert_msg(fx.hi == pow2[_i].hi && side_of(&fx) == pow2[_i].fast_side,
			      "%s: fast hi %a lo %a", pow2[_i].body, fx.hi, fx.lo);
	}
	ub_catalog_free(&cat);
}
END_TEST

Suite *ub_exact_suite(void)
{
	Suite *s = suite_create("exact");
	TCase *tc = tcase_create("round");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_round_q, 0, UB_NDTYPES);
	suite_add_tcase(s, tc);
	tc = tcase_create("decide");
	tcase_add_unchecked_fixture(tc, load, unload);
	tcase_add_loop_test(tc, test_ties, 0, sizeof ties / sizeof ties[0]);
	tcase_add_loop_test(tc, test_zeros, 0, sizeof zeros / sizeof zeros[0]);
	tcase_add_test(tc, test_undecided);
	tcase_add_test(tc, test_huge_power);
	tcase_add_loop_test(tc, test_vs_ziv, 0, sizeof vs_ziv / sizeof vs_ziv[0]);
	tcase_add_loop_test(tc, test_pow2_side, 0, sizeof pow2 / sizeof pow2[0]);
	suite_add_tcase(s, tc);
	return s;
}

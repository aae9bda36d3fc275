/* check_fpcore.c — FPCore op definitions beyond arithmetic: conditions
 * (if, comparisons, and/or/not), the standard functions and named
 * constants, malformed input with FILE:LINE:COL, catalogs merged with
 * --fpcore, and ops defined only in FPCore (tests/data/user/
 * softplus_bwd.fpcore) whose reference and kernels are checked against
 * independent computations:
 * - MPFR used by hand, without intervals: the formula evaluated at 300
 *   bits in MPFR's widest exponent range, rounded once by mpfr_get_flt /
 *   mpfr_get_d (correct for these inputs: none is within 2^-290 of a
 *   rounding boundary);
 * - host float arithmetic built with -ffp-contract=off for ops made only
 *   of IEEE-exact operations;
 * - the comparison rules of IEEE 754 (NaN unordered, -0 == +0). */
#include "suites.h"
#include "check_bits.h"

#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_internal.h"
#include "reference.h"
#include "codegen.h"
#include "run.h"

static const char *printed(const struct ub_expr *e)
{
	static char buf[512];
	ub_expr_print(e, NULL, buf, sizeof buf);
	return buf;
}

/* --- reading ----------------------------------------------------------- */

static const struct {
	const char *body, *want;
} bodies[] = {
	{"(if (< x 0) (- x) x)", "(if (< v0 0) (- v0) v0)"},
	/* chains: neighbours for < <= > >= ==, every pair for != */
	{"(if (< x y z) 1 0)", "(if (and (< v0 v1) (< v1 v2)) 1 0)"},
	{"(if (== x y z) 1 0)", "(if (and (== v0 v1) (== v1 v2)) 1 0)"},
	{"(if (!= x y z) 1 0)", "(if (and (and (!= v0 v1) (!= v0 v2)) (!= v1 v2)) 1 0)"},
	{"(if (and (>= x 0) (<= x 1) (not (== y z))) x y)",
	 "(if (and (and (>= v0 0) (<= v0 1)) (not (== v1 v2))) v0 v1)"},
	{"(if (or (> x 1) TRUE FALSE) 1 2)", "(if (or (or (> v0 1) TRUE) FALSE) 1 2)"},
	{"(if (and (< x 1)) x y)", "(if (< v0 1) v0 v1)"},
	{"(let ([c (> x 0)]) (if c x (if (not c) y z)))",
	 "(if (> v0 0) v0 (if (not (> v0 0)) v1 v2))"},
	{"(* LOG2E (+ PI_2 (- M_2_SQRTPI SQRT1_2)))",
	 "(* LOG2E (+ PI_2 (- M_2_SQRTPI SQRT1_2)))"},
	{"(hypot (exp2 x) (atan2 y (cbrt z)))", "(hypot (exp2 v0) (atan2 v1 (cbrt v2)))"},
	{"(+ (floor x) (ceil y) (trunc z) (round x) (nearbyint y))",
	 "(+ (+ (+ (+ (floor v0) (ceil v1)) (trunc v2)) (round v0)) (nearbyint v1))"},
	{"(sinh (cosh (asinh (acosh (atanh (erfc (log2 (log10 x))))))))",
	 "(sinh (cosh (asinh (acosh (atanh (erfc (log2 (log10 v0))))))))"},
};

START_TEST(test_bodies)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	char text[512];
	snprintf(text, sizeof text, "(FPCore f (x y z)\n  %s)", bodies[_i].body);
	int st = ub_catalog_parse(text, "u.fpcore", &cat, &err);
	ck_assert_msg(st == 0, "%s: %s", bodies[_i].body, err.msg);
	ck_assert_str_eq(printed(cat.ops[0].math), bodies[_i].want);
	ub_catalog_free(&cat);
}
END_TEST

static const struct {
	const char *text, *msg;
} malformed[] = {
	{"(FPCore f (x) (if x 1 2))", "u.fpcore:1:19: 'if' needs a condition here "
	 "(a comparison, and, or, not, TRUE, FALSE), found a number"},
	{"(FPCore f (x) (if (<= x 1) 1 TRUE))", "u.fpcore:1:30: 'if' needs a number "
	 "here, found a condition"},
	{"(FPCore f (x) (+ (< x 1) 2))", "u.fpcore:1:18: '+' needs a number here, "
	 "found a condition"},
	{"(FPCore f (x) (if (and x) 1 2))", "u.fpcore:1:24: 'and' needs a condition here"},
	{"(FPCore f (x)\n  (< x 1))", "u.fpcore:2:3: the body must be a number, "
	 "found a condition (use (if COND a b))"},
	{"(FPCore f (x) :torch (> x 0) x)", "u.fpcore:1:22: a :torch step must be a "
	 "number, found a condition"},
	{"(FPCore f (x) (if (< x) 1 2))", "u.fpcore:1:19: '<' takes at least 2 "
	 "arguments, got 1"},
	{"(FPCore f (x) (if (not x x) 1 2))", "u.fpcore:1:19: 'not' takes 1 argument, got 2"},
	{"(FPCore f (x) (if (< x 1) 2))", "u.fpcore:1:15: 'if' takes 3 arguments, got 2"},
	{"(FPCore f (x)\n  (fmod x))", "u.fpcore:2:3: 'fmod' takes 2 arguments, got 1"},
	{"(FPCore f (x) (if (< x 1) 1 2)", "u.fpcore:1:1: unclosed '('"},
	{"(FPCore f (x)\n\t(if (< x 1) 1 (foo x)))", "u.fpcore:2:17: unknown operator 'foo'"},
	{"(FPCore f (x) (if (< x 1) 1 2) 3)", "u.fpcore:1:32: unexpected element after the body"},
	{"(FPCore f (x) (if (< x LN3) 1 2))", "u.fpcore:1:24: unknown variable 'LN3'"},
};

START_TEST(test_malformed)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	int st = ub_catalog_parse(malformed[_i].text, "u.fpcore", &cat, &err);
	if (st == 0) { /* the file read: the core is a broken entry */
		ck_assert_msg(cat.nbroken == 1, "%d broken for %s", cat.nbroken,
			      malformed[_i].text);
		snprintf(err.msg, sizeof err.msg, "%s", cat.broken[0].msg);
		ub_catalog_free(&cat);
	}
	ck_assert_msg(strncmp(err.msg, malformed[_i].msg, strlen(malformed[_i].msg)) == 0,
		      "got \"%s\"\nwant \"%s\"", err.msg, malformed[_i].msg);
}
END_TEST

/* --fpcore: user ops join the catalog; a taken name names both places. */
START_TEST(test_merge)
{
	struct ub_catalog a, b, c;
	struct ub_error err = {""};
	ck_assert_int_eq(ub_catalog_parse("(FPCore p (x) x)\n(FPCore q (x) (- x))",
					  "a.fpcore", &a, &err), 0);
	ck_assert_int_eq(ub_catalog_parse("\n(FPCore r (y) y)", "b.fpcore", &b, &err), 0);
	ck_assert_int_eq(ub_catalog_parse("(FPCore s (y) y)\n\n(FPCore q (y) y)",
					  "c.fpcore", &c, &err), 0);
	ck_assert_int_eq(ub_catalog_merge(&a, &b, &err), 0);
	ck_assert_int_eq(a.nops, 3);
	ck_assert_int_eq(b.nops, 0);
	ck_assert_str_eq(ub_catalog_find(&a, "r")->file, "b.fpcore");
	ck_assert_int_eq(ub_catalog_find(&a, "r")->line, 2);
	ck_assert_int_eq(ub_catalog_merge(&a, &c, &err), UB_USAGE);
	ck_assert_str_eq(err.msg, "c.fpcore:3: op 'q' is already defined at "
			 "a.fpcore:2 (op names must be unique)");
	ck_assert_int_eq(a.nops, 3); /* unchanged */
	ub_catalog_free(&a);
	ub_catalog_free(&b);
	ub_catalog_free(&c);
}
END_TEST

/* --- the reference --------------------------------------------------- */

/* Truth values over enclosures (ref_logic.c), by the rules in its
 * header: decided when every or no pair of values satisfies the
 * comparison, [0, 1] otherwise. */
START_TEST(test_logic_intervals)
{
	struct ub_ival a, b, r;
	const struct ub_ival *ab[2] = {&a, &b};
	mpfr_inits2(127, a.lo, a.hi, b.lo, b.hi, r.lo, r.hi, (mpfr_ptr)0);
#define IV(v, l, h) (mpfr_set_d((v).lo, l, MPFR_RNDN), mpfr_set_d((v).hi, h, MPFR_RNDN))
#define TRUTH(op, want_lo, want_hi)                                       \
	do {                                                              \
		ck_assert_int_eq(ub_iv_logic(op, &r, ab), 0);             \
		ck_assert_msg(mpfr_cmp_si(r.lo, want_lo) == 0 &&          \
			      mpfr_cmp_si(r.hi, want_hi) == 0,            \
			      "line %d %s: [%g, %g], want [%d, %d]", __LINE__, \
			      ub_expr_ops[op].name, mpfr_get_d(r.lo, MPFR_RNDN), \
			      mpfr_get_d(r.hi, MPFR_RNDN), want_lo, want_hi); \
	} while (0)
	IV(a, 1, 2), IV(b, 3, 4);
	TRUTH(UB_LT, 1, 1); TRUTH(UB_GE, 0, 0); TRUTH(UB_EQ, 0, 0); TRUTH(UB_NE, 1, 1);
	IV(a, 1, 3), IV(b, 3, 4); /* touch at 3 */
	TRUTH(UB_LT, 0, 1); TRUTH(UB_LE, 1, 1); TRUTH(UB_GT, 0, 0); TRUTH(UB_EQ, 0, 1);
	IV(a, -0.0, -0.0), IV(b, 0.0, 0.0); /* -0 == +0 */
	TRUTH(UB_EQ, 1, 1); TRUTH(UB_LT, 0, 0); TRUTH(UB_NE, 0, 0);
	IV(a, NAN, NAN), IV(b, 1, 1); /* NaN: unordered */
	TRUTH(UB_LT, 0, 0); TRUTH(UB_GE, 0, 0); TRUTH(UB_EQ, 0, 0); TRUTH(UB_NE, 1, 1);
	IV(a, 1, 1), IV(b, 0, 1); /* TRUE and unknown */
	TRUTH(UB_OR, 1, 1); TRUTH(UB_AND, 0, 1); TRUTH(UB_NOT, 0, 0);
	IV(a, 0, 0);              /* FALSE and unknown */
	TRUTH(UB_OR, 0, 1); TRUTH(UB_AND, 0, 0); TRUTH(UB_NOT, 1, 1);
	IV(a, 0, 1);
	TRUTH(UB_NOT, 0, 1);
#undef TRUTH
#undef IV
	mpfr_clears(a.lo, a.hi, b.lo, b.hi, r.lo, r.hi, (mpfr_ptr)0);
}
END_TEST

static struct ub_catalog user;

static void load_user(void)
{
	struct ub_error err;
	int s = ub_catalog_load(SRCDIR "/tests/data/user/softplus_bwd.fpcore", &user, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
}

static void free_user(void)
{
	ub_catalog_free(&user);
	ub_ref_release();
}

static uint32_t bits32(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

/* PyTorch's softplus backward by hand with MPFR: x > 20 ? g :
 * g*e^x/(e^x + 1), at 300 bits, rounded once to float (f64: double). */
static uint64_t softplus_by_hand(double x, double g, int f64)
{
	mpfr_t z, t, v;
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	mpfr_inits2(300, z, t, v, (mpfr_ptr)0);
	if (x > 20) { /* C's > is IEEE's: false for NaN */
		mpfr_set_d(v, g, MPFR_RNDN);
	} else {
		mpfr_set_d(z, x, MPFR_RNDN);
		mpfr_exp(z, z, MPFR_RNDN);
		mpfr_mul_d(t, z, g, MPFR_RNDN);
		mpfr_add_ui(z, z, 1, MPFR_RNDN);
		mpfr_div(v, t, z, MPFR_RNDN);
	}
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	/* mpfr_get_flt/d round once, subnormals included */
	float rf = mpfr_get_flt(v, MPFR_RNDN);
	double rd = mpfr_get_d(v, MPFR_RNDN);
	uint64_t u;
	mpfr_clears(z, t, v, (mpfr_ptr)0);
	if (!f64)
		return isnan(rf) ? 0x7fffffffu : bits32(rf);
	memcpy(&u, &rd, sizeof u);
	return isnan(rd) ? 0x7fffffffffffffffULL : u;
}

START_TEST(test_softplus_reference)
{
	const struct ub_op *op = ub_catalog_find(&user, "user_softplus_bwd");
	/* both sides of the threshold (20 = 0x41a00000 and its neighbours;
	 * in f32 g*e^20/(e^20+1) rounds to g, in f64 it does not), overflow
	 * of e^x in float, underflow to subnormals, specials */
	static const uint32_t xs[] = {
		0x41a00000, 0x41a00001, 0x419fffff, 0x00000000, 0x80000000,
		0x3f800000, 0xbf800000, 0x42b00000, 0x42c80000, 0xc2c80000,
		0xc2b00000, 0xc2ce8ed0, 0x7f800000, 0xff800000, 0x7fc00000,
		0x00000001, 0x4e6e6b28, 0xce6e6b28};
	static const uint32_t gs[] = {
		0x3f800000, 0xbf800000, 0x00000001, 0x7f7fffff, 0x80000000,
		0x7f800000, 0x7fc00000, 0x4b3c614e, 0x2f0f0f0f};
	struct ub_error err = {""};
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	for (int k = 0; k < 4000; k++) {
		int f64 = k & 1;
		float x, g;
		if (k < 324) {
			x = f32(xs[k / 18]);
			g = f32(gs[k / 2 % 9]);
		} else { /* random floats with |x| < 128 and any g */
			seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
			x = ldexpf((float)(int32_t)(seed >> 32) / 0x1p31f, (int)(seed >> 8 & 7));
			g = f32((uint32_t)seed);
		}
		double xd = x, gd = g;
		uint64_t in[2] = {bits32(x), bits32(g)}, cr;
		if (f64) {
			memcpy(&in[0], &xd, sizeof xd);
			memcpy(&in[1], &gd, sizeof gd);
		}
		int st = ub_ref_eval(op->math, f64 ? UB_F64 : UB_F32, in, 2, &cr, NULL, &err);
		ck_assert_msg(st == 0, "%s", err.msg);
		uint64_t want = softplus_by_hand(xd, gd, f64);
		ck_assert_msg(cr == want, "%s x=%a g=%a: reference 0x%llx, MPFR by hand "
			      "0x%llx", f64 ? "f64" : "f32", xd, gd,
			      (unsigned long long)cr, (unsigned long long)want);
	}
}
END_TEST

/* An if whose condition no precision decides (log x + log 3 - log 3x is
 * never an exact 0 in interval arithmetic, nor for the exact evaluation,
 * which does not know log(3x) = log 3 + log x) is undecided, never a
 * guess; exp(x) - exp(x) is the zero polynomial of the exact evaluation
 * (one atom exp x), so (== ... 0) holds; one that is merely close is
 * decided: x = 0x3f317218 is the float nearest log 2,
 * e^x = 2 - 2^-25.6 or so, so (< (exp x) 2) holds (MPFR: exp at 300 bits). */
START_TEST(test_if_precision)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	uint64_t in[1] = {0x3f317218}, cr;
	mpfr_t e;
	mpfr_init2(e, 300);
	mpfr_set_flt(e, f32(0x3f317218), MPFR_RNDN);
	mpfr_exp(e, e, MPFR_RNDN);
	int below = mpfr_cmp_ui(e, 2) < 0;
	mpfr_clear(e);
	ck_assert_int_eq(ub_catalog_parse("(FPCore a (x) (if (< (exp x) 2) 1 3))\n"
					  "(FPCore b (x) (if (== (- (+ (log x) (log 3)) "
					  "(log (* 3 x))) 0) 1 3))\n"
					  "(FPCore c (x) (if (== (- (exp x) (exp x)) 0) 1 3))",
					  "u.fpcore", &cat, &err), 0);
	ck_assert_int_eq(ub_ref_eval(cat.ops[0].math, UB_F32, in, 1, &cr, NULL, &err), 0);
	ck_assert_uint_eq(cr, below ? 0x3f800000 : 0x40400000);
	ck_assert_int_eq(ub_ref_eval(cat.ops[1].math, UB_F32, in, 1, &cr, NULL, &err),
			 UB_REF_UNDECIDED);
	ck_assert_msg(strstr(err.msg, "cannot decide"), "%s", err.msg);
	ck_assert_int_eq(ub_ref_eval(cat.ops[2].math, UB_F32, in, 1, &cr, NULL, &err), 0);
	ck_assert_uint_eq(cr, 0x3f800000);
	ub_catalog_free(&cat);
}
END_TEST

/* Named constant s by hand with MPFR at v's precision. */
static void by_hand(const char *s, mpfr_ptr v)
{
	mpfr_t pi;
	mpfr_init2(pi, mpfr_get_prec(v));
	mpfr_const_pi(pi, MPFR_RNDN);
	if (!strcmp(s, "PI"))
		mpfr_set(v, pi, MPFR_RNDN);
	else if (!strcmp(s, "E"))
		mpfr_set_ui(v, 1, MPFR_RNDN), mpfr_exp(v, v, MPFR_RNDN);
	else if (!strcmp(s, "LN2") || !strcmp(s, "LOG2E"))
		mpfr_const_log2(v, MPFR_RNDN);
	else if (!strcmp(s, "LN10") || !strcmp(s, "LOG10E"))
		mpfr_log_ui(v, 10, MPFR_RNDN);
	else if (!strcmp(s, "PI_2") || !strcmp(s, "PI_4"))
		mpfr_div_ui(v, pi, s[3] == '2' ? 2 : 4, MPFR_RNDN);
	else if (!strcmp(s, "M_1_PI") || !strcmp(s, "M_2_PI"))
		mpfr_ui_div(v, s[2] == '1' ? 1 : 2, pi, MPFR_RNDN);
	else if (!strcmp(s, "M_2_SQRTPI"))
		mpfr_sqrt(v, pi, MPFR_RNDN), mpfr_ui_div(v, 2, v, MPFR_RNDN);
	else if (!strcmp(s, "SQRT2"))
		mpfr_sqrt_ui(v, 2, MPFR_RNDN);
	else if (!strcmp(s, "SQRT1_2"))
		mpfr_sqrt_ui(v, 2, MPFR_RNDN), mpfr_div_2ui(v, v, 1, MPFR_RNDN);
	if (!strncmp(s, "LOG", 3)) /* LOG2E = 1/ln 2, LOG10E = 1/ln 10 */
		mpfr_ui_div(v, 1, v, MPFR_RNDN);
	mpfr_clear(pi);
}

/* Every named constant, correctly rounded to f32 and f64, against MPFR by
 * hand at 300 bits; C's M_ constant (what generated kernels convert to
 * float, as PyTorch converts host doubles) is the f64 one. */
START_TEST(test_constants)
{
	static const char *const names[] = {"PI", "E", "LN2", "LN10", "LOG2E",
		"LOG10E", "PI_2", "PI_4", "M_1_PI", "M_2_PI", "M_2_SQRTPI", "SQRT2",
		"SQRT1_2"};
	mpfr_t v;
	mpfr_init2(v, 300);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
		const char *s = names[i];
		struct ub_expr *e = ub_expr_new_num(s);
		struct ub_error err = {""};
		uint64_t cr, d64;
		by_hand(s, v);
		double d = mpfr_get_d(v, MPFR_RNDN), c;
		memcpy(&d64, &d, sizeof d64);
		ck_assert_int_eq(ub_ref_eval(e, UB_F32, NULL, 0, &cr, NULL, &err), 0);
		ck_assert_msg(cr == bits32(mpfr_get_flt(v, MPFR_RNDN)), "%s f32", s);
		ck_assert_int_eq(ub_ref_eval(e, UB_F64, NULL, 0, &cr, NULL, &err), 0);
		ck_assert_msg(cr == d64, "%s f64: 0x%016llx, by hand %a", s,
			      (unsigned long long)cr, d);
		ck_assert_msg(ub_expr_const(s, &c) && c == d, "%s: C's constant", s);
		ub_expr_free(e);
	}
	mpfr_clear(v);
}
END_TEST

/* --- kernels generated from FPCore ops with conditions ---------------- */

/* PyTorch's smooth L1 backward, x < -1 ? -g : x > 1 ? g : x*g, on the
 * host: each branch is one IEEE operation (or an exact negation), so it is
 * also the correctly rounded result. */
static float smooth_l1(float x, float g)
{
	volatile float p = x * g;
	return x < -1 ? -g : x > 1 ? g : p;
}

START_TEST(test_smooth_l1_generated)
{
	const struct ub_op *op = ub_catalog_find(&user, "user_smooth_l1_bwd");
	struct ub_config cfg = {
		.op = op, .ndtypes = 1, .dtypes = {UB_F32}, .nmodes = 3,
		.modes = {UB_MODE_FMA, UB_MODE_NOFMA, UB_MODE_RN}, .n = 20000,
		.seed = 5, .arch = "compute_90", .backend = "sim",
	};
	struct ub_result res;
	struct ub_error err = {""};
	char *src = NULL;
	ck_assert_int_eq(ub_codegen_kernel(op, UB_F32, &src, &err), 0);
	/* -1.0f = 0xbf800000, 1.0f = 0x3f800000 */
	ck_assert_msg(strstr(src, "((a0 < __int_as_float(0xbf800000)) ? (-a1) : ((a0 > "
			      "__int_as_float(0x3f800000)) ? a1 : UB_MUL(a0, a1)))"), "%s", src);
	free(src);
	int s = ub_run(&cfg, &res, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	const struct ub_data *d = &res.data[0];
	const struct ub_array *outs[5] = {&d->out[0], &d->out[1], &d->out[2], &d->torch, &d->cr};
	for (size_t i = 0; i < d->in[0].n; i++) {
		float x = f32((uint32_t)ub_array_get(&d->in[0], i));
		float g = f32((uint32_t)ub_array_get(&d->in[1], i));
		float w = smooth_l1(x, g);
		for (int k = 0; k < 5; k++) { /* a NaN g passes through as it is */
			uint32_t got = (uint32_t)ub_array_get(outs[k], i);
			UB_ASSERT(isnan(w) ? isnan(f32(got)) : got == bits32(w),
				  "output %d: x=%a (0x%08x) g=%a (0x%08x): 0x%08x, host 0x%08x",
				  k, x, bits32(x), g, bits32(g), got, bits32(w));
		}
	}
	ub_result_free(&res);
}
END_TEST

Suite *ub_fpcore_suite(void)
{
	Suite *s = suite_create("fpcore");
	TCase *tc = tcase_create("read");
	tcase_add_loop_test(tc, test_bodies, 0, sizeof bodies / sizeof bodies[0]);
	tcase_add_loop_test(tc, test_malformed, 0, sizeof malformed / sizeof malformed[0]);
	tcase_add_test(tc, test_merge);
	suite_add_tcase(s, tc);
	tc = tcase_create("evaluate");
	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, load_user, free_user);
	tcase_add_test(tc, test_logic_intervals);
	tcase_add_test(tc, test_softplus_reference);
	tcase_add_test(tc, test_if_precision);
	tcase_add_test(tc, test_constants);
	tcase_add_test(tc, test_smooth_l1_generated);
	suite_add_tcase(s, tc);
	return s;
}

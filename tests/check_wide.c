/* check_wide.c — the reference beyond MPFR's exponents and through
 * cancellations (ref_wide.c, ref_wide_eval.c), and the classes of the
 * elements it leaves undecided (ub.h, docs/reference.md).
 *
 * Expected values are derived by hand in the comments (IEEE 754's
 * rounding of a value known in closed form); the wide evaluation is also
 * checked against the plain one (ref_mpfr.c) wherever both decide. */
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "dag.h"
#include "ref_internal.h"
#include "reference.h"

static const struct {
	const char *body;
	enum ub_dtype dt;
	uint64_t x, y;
	uint64_t want;
} beyond[] = {
	/* x = 2.877e-5, y = 2^60: x^y = 2^(2^60 log2 x) = 2^(-1.7e19), past
	 * MPFR's exponents; 1/x^y is past f32's largest: +inf */
	{"(/ 1 (pow x y))", UB_F32, 0x37f14c4b, 0x5d800000, 0x7f800000},
	/* x = 1.7e38, n = 2^-60: (x+1)^N - x^N = x^N ((1 + 1/x)^N - 1) > 0,
	 * about x^N N/x = 2^(127 2^60) 6.8e-21: +inf */
	{"(- (pow (+ x 1) (/ 1 y)) (pow x (/ 1 y)))", UB_F32, 0x7effffff, 0x21800000,
	 0x7f800000},
	/* e^x / (e^x - 1) = 1 + 1/(e^x - 1) at x = DBL_MAX: 1 */
	{"(/ (exp x) (- (exp x) 1))", UB_F64, 0x7fefffffffffffff, 0, 0x3ff0000000000000},
	/* 0.5^y / 0.5^(y+1) = 2 exactly, y = 1e300 (both scaled exactly) */
	{"(/ (pow x y) (pow x (+ y 1)))", UB_F64, 0x3fe0000000000000, 0x7e37e43c8800759c,
	 0x4000000000000000},
	/* 1 - 1/(1 + e^-x) = e^-x / (1 + e^-x) at x = 1e300: positive, far
	 * below the subnormals: +0; at x = -1e300: 1 - e^-1e300: 1 */
	{"(- 1 (/ 1 (+ 1 (exp (- x)))))", UB_F64, 0x7e37e43c8800759c, 0, 0},
	{"(- 1 (/ 1 (+ 1 (exp (- x)))))", UB_F64, 0xfe37e43c8800759c, 0, 0x3ff0000000000000},
	/* (e^-800 / (1 + e^-800))^1e-300 = e^(-1e-300 (800 + log1p e^-800)):
	 * 1 - 8e-298 (the base is 2^-1154, gone from 1 - 1/(1 + e^-800) at any
	 * plain precision below 1154 bits): 1 */
	{"(pow (- 1 (/ 1 (+ 1 (exp (- x))))) y)", UB_F64, 0x4089000000000000,
	 0x01a56e1fc2f8f359, 0x3ff0000000000000},
	/* (1/(1 + e^-x))^y at x = 800, y = 1e300: (1 + e^-800)^-1e300 =
	 * e^(-1e300 e^-800 (1 - ...)) = e^(-3.6e-48): 1 */
	{"(pow (/ 1 (+ 1 (exp (- x)))) y)", UB_F64, 0x4089000000000000, 0x7e37e43c8800759c,
	 0x3ff0000000000000},
	/* 1 + z^3 and 1 + z^2, z = log 2 + log 3 - log 6 = 0 exactly (not
	 * proved: z's enclosure holds 0 at every precision): a power of an
	 * enclosure around zero is tiny, the sum rounds to 1 */
	{"(+ 1 (pow (- (+ (log x) (log 3)) (log (* 3 x))) 3))", UB_F32, 0x40000000, 0,
	 0x3f800000},
	{"(+ 1 (pow (- (+ (log x) (log 3)) (log (* 3 x))) 2))", UB_F32, 0x40000000, 0,
	 0x3f800000},
};

static const struct ub_expr *read_body(struct ub_catalog *cat, const char *body)
{
	char text[512];
	struct ub_error err;
	snprintf(text, sizeof text, "(FPCore w (x y) %s)", body);
	ck_assert_int_eq(ub_catalog_parse(text, "w.fpcore", cat, &err), 0);
	ck_assert_int_eq(cat->nops, 1);
	return cat->ops[0].math;
}

START_TEST(test_beyond)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	uint64_t in[2] = {beyond[_i].x, beyond[_i].y}, cr;
	struct ub_exact x;
	const struct ub_expr *e = read_body(&cat, beyond[_i].body);
	int st = ub_ref_eval(e, beyond[_i].dt, in, 2, &cr, &x, &err);
	ck_assert_msg(st == 0 && cr == beyond[_i].want, "%s: status %d, 0x%llx: %s",
		      beyond[_i].body, st, (unsigned long long)cr, err.msg);
	ub_catalog_free(&cat);
}
END_TEST

/* The wide evaluation against the plain one: ordinary values, specials,
 * zeros, where both decide the same bits. */
static const char *const same[] = {
	"(+ (* x y) (- x))", "(/ (fma x y -1) 3)", "(- (/ x 3) (/ y 7))",
	"(sqrt (fabs x))", "(cbrt x)", "(pow (fabs x) y)", "(pow x 3)", "(exp x)",
	"(exp2 y)", "(expm1 (/ x 7))", "(log (fabs x))", "(log1p (fabs y))",
	"(log10 (+ (fabs x) 1))", "(- 1 (/ 1 (+ 1 (exp (- x)))))",
	"(pow (/ 1 (+ 1 (exp (- x)))) y)", "(sin x)", "(atan2 y x)",
	"(if (< x y) (- x y) (sqrt y))", "(fmin (* x x) (exp y))",
	"(/ (exp x) (- (exp x) 1))", "(* (- 1 (/ 1 (+ 1 x))) (+ 1 y))",
};

static const uint64_t same_values[] = {
	0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0400000,
	0x3f000000, 0x41d80000, 0x00000001, 0x7f7fffff, 0xff7fffff, 0x3eaaaaab,
	0x4b000001, 0x42c80000, 0xc2c80000, 0x33800000, 0x7f800000, 0x7fc00000,
};

START_TEST(test_vs_plain)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	const struct ub_dag *d;
	const struct ub_expr *e = read_body(&cat, same[_i]);
	size_t nv = sizeof same_values / sizeof same_values[0], agreed = 0;
	ck_assert_int_eq(ub_expr_dag(e, &d, &err), 0);
	for (size_t a = 0; a < nv; a++)
		for (size_t b = 0; b < nv; b++) {
			uint64_t in[2] = {same_values[a], same_values[b]}, pcr, wcr;
			int why;
			if (ub_ref_eval(e, UB_F32, in, 2, &pcr, NULL, &err) != 0 ||
			    ub_ref_wide(d, UB_F32, in, 2, 0, &wcr, NULL, &why) != 0)
				continue;
			ck_assert_msg(pcr == wcr, "%s at x=0x%08llx y=0x%08llx: plain "
				      "0x%08llx, wide 0x%08llx", same[_i],
				      (unsigned long long)in[0], (unsigned long long)in[1],
				      (unsigned long long)pcr, (unsigned long long)wcr);
			agreed++;
		}
	ck_assert_msg(agreed > nv * nv / 2, "%s: %zu of %zu agreed", same[_i], agreed, nv * nv);
	ub_catalog_free(&cat);
	ub_ref_release();
}
END_TEST

/* Undecided elements by class: a tie of f32 (1 + 2^-24) plus an exact
 * zero of transcendental terms, log 2 + log 3 - log 6 (boundary); a loop
 * past a small budget (time); Newton's iteration for a zero of sin from a
 * tiny start, whose value rounds to 0 while its sign needs millions of
 * bits (zero sign); that exact zero alone (zero sign: it rounds to 0, its
 * sign unproved); sin of a value past every exponent (range). */
static const struct {
	const char *body;
	uint64_t x;
	double budget;
	enum ub_undecided why;
} classes[] = {
	{"(+ 1.000000059604644775390625 (- (+ (log x) (log 3)) (log (* 3 x))))",
	 0x40000000, 0.25, UB_UND_BOUNDARY},
	{"(while (< i (* x 1e30)) ([i 0 (+ i 1)]) i)", 0x3f800000, 0.02, UB_UND_TIME},
	{"(while (< i 10) ([v x (- v (/ (- v (/ (* v (* v v)) 6)) (- 1 (/ (* v v) 2))))] "
	 "[i 0 (+ i 1)]) v)", 0x00000400, 0.05, UB_UND_SIGN},
	{"(- (+ (log x) (log 3)) (log (* 3 x)))", 0x40000000, 0.25, UB_UND_SIGN},
	{"(while (< i 10) ([v x (- v (/ (- v (/ (pow v 3) 6)) (- 1 (/ (* v v) 2))))] "
	 "[i 0 (+ i 1)]) v)", 0x00000400, 0.05, UB_UND_SIGN},
	{"(sin (exp (exp x)))", 0x42c80000, 0.25, UB_UND_RANGE},
};

START_TEST(test_classes)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	uint64_t in[2] = {classes[_i].x, 0}, cr;
	struct ub_exact x;
	const struct ub_expr *e = read_body(&cat, classes[_i].body);
	double saved = ub_ref_budget();
	ub_ref_set_budget(classes[_i].budget);
	int st = ub_ref_eval(e, UB_F32, in, 2, &cr, &x, &err);
	ub_ref_set_budget(saved);
	ck_assert_msg(st == UB_REF_UNDECIDED, "%s: status %d (0x%llx)", classes[_i].body,
		      st, (unsigned long long)cr);
	ck_assert(ub_exact_undecided(&x));
	ck_assert_msg(ub_exact_why(&x) == classes[_i].why, "%s: class %s, expected %s: %s",
		      classes[_i].body, ub_undecided_names[ub_exact_why(&x)],
		      ub_undecided_names[classes[_i].why], err.msg);
	ck_assert_msg(strstr(err.msg, ub_undecided_names[classes[_i].why]), "%s", err.msg);
	ub_catalog_free(&cat);
}
END_TEST

Suite *ub_wide_suite(void)
{
	Suite *s = suite_create("wide");
	TCase *tc = tcase_create("wide");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_beyond, 0, sizeof beyond / sizeof beyond[0]);
	tcase_add_loop_test(tc, test_vs_plain, 0, sizeof same / sizeof same[0]);
	tcase_add_loop_test(tc, test_classes, 0, sizeof classes / sizeof classes[0]);
	suite_add_tcase(s, tc);
	return s;
}

/* check_ref_fast.c — the fast path of the reference (reference/ref_fast.c)
 * against the MPFR reference, the independent source: on the special
 * values and seeded samples of every binade (inputs.h) for every op of the
 * shipped catalog and a set of test expressions, whenever the fast path
 * decides, its correctly rounded result equals MPFR's bit for bit and its
 * exact value is within 2^-45 relative of MPFR's (docs/reference.md: the
 * fractional ULP error then moves by at most 2^-21 ulp).  It must decide
 * most points of the expressions it supports, and none of one it does not
 * (exp). */
#include "suites.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "reference.h"
#include "catalog.h"
#include "inputs.h"

#define NPTS 6000

/* Compares fast and MPFR on NPTS points; returns how many fast decided. */
static size_t compare(const struct ub_expr *e, int nin, const char *what)
{
	struct ub_array in[UB_MAX_INPUTS];
	struct ub_error err = {""};
	size_t decided = 0;
	ck_assert_int_eq(ub_inputs_generate(UB_F32, nin, NULL, NPTS, 7, in, &err), 0);
	for (size_t i = 0; i < NPTS; i++) {
		uint64_t x[UB_MAX_INPUTS], fcr, mcr;
		struct ub_exact fx, mx;
		for (int k = 0; k < nin; k++)
			x[k] = ub_array_get(&in[k], i);
		if (!ub_ref_eval_fast(e, UB_F32, x, nin, &fcr, &fx))
			continue;
		decided++;
		ck_assert_int_eq(ub_ref_eval(e, UB_F32, x, nin, &mcr, &mx, &err), 0);
		ck_assert_msg(fcr == mcr, "%s at x=0x%08llx y=0x%08llx z=0x%08llx: "
			      "fast 0x%08llx, MPFR 0x%08llx", what,
			      (unsigned long long)x[0], (unsigned long long)(nin > 1 ? x[1] : 0),
			      (unsigned long long)(nin > 2 ? x[2] : 0),
			      (unsigned long long)fcr, (unsigned long long)mcr);
		double d = fabs((fx.hi - mx.hi) - mx.lo);
		if (fx.hi != fx.hi && mx.hi != mx.hi)   /* NaN in, NaN out */
			d = 0;
		ck_assert_msg(d <= 0x1p-45 * fabs(mx.hi) || d <= 0x1p-171, "%s at 0x%08llx: exact "
			      "%a, MPFR %a%+a", what, (unsigned long long)x[0],
			      fx.hi, mx.hi, mx.lo);
	}
	for (int k = 0; k < nin; k++)
		ub_array_free(&in[k]);
	return decided;
}

START_TEST(test_catalog)
{
	struct ub_catalog cat = {0};
	struct ub_error err = {""};
	ck_assert_int_eq(ub_catalog_load(SRCDIR "/suites/ops.fpcore", &cat, &err), 0);
	for (int i = 0; i < cat.nops; i++)
		compare(cat.ops[i].math, cat.ops[i].ninputs, cat.ops[i].name);
	ub_catalog_free(&cat);
}
END_TEST

static const struct {
	const char *body;
	int nin, some; /* some: the fast path decides over a third of the
			  points (sqrt of a negative half is NaN: MPFR) */
} exprs[] = {
	{"(/ a (+ (* b b) 1))", 2, 1},     /* atan_bwd's shape */
	{"(sqrt a)", 1, 1},
	{"(rsqrt a)", 1, 1},
	{"(/ 1 (sqrt a))", 1, 1},
	{"(fma a b c)", 3, 1},
	{"(- (* a b) (* b c))", 3, 1},
	{"(+ a 0.1)", 1, 1},               /* an inexact literal */
	{"(* (- a) 1e-3)", 1, 1},
	{"(fabs (- a b))", 2, 1},
	{"(/ (- a b) (+ a b))", 2, 1},     /* cancellation: falls back */
	{"(tan a)", 1, 0},                 /* unsupported: never decides */
};

START_TEST(test_exprs)
{
	struct ub_catalog cat = {0};
	struct ub_error err = {""};
	char text[300];
	snprintf(text, sizeof text, "(FPCore t (a b c) %s)", exprs[_i].body);
	ck_assert_msg(ub_catalog_parse(text, "t", &cat, &err) == 0, "%s", err.msg);
	size_t n = compare(cat.ops[0].math, exprs[_i].nin, exprs[_i].body);
	if (exprs[_i].some)
		ck_assert_msg(n > NPTS / 3, "%s: decided %zu of %d", exprs[_i].body,
			      n, NPTS);
	else
		ck_assert_msg(n == 0, "%s: decided %zu", exprs[_i].body, n);
	ub_catalog_free(&cat);
}
END_TEST

Suite *ub_ref_fast_suite(void)
{
	Suite *s = suite_create("ref_fast");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_catalog);
	tcase_add_loop_test(tc, test_exprs, 0, (int)(sizeof exprs / sizeof exprs[0]));
	suite_add_tcase(s, tc);
	return s;
}

/* check_ew.c — the elementwise family's pieces: the shipped catalog (every
 * op, domains, plan rounding), FPCore if and erfc in the MPFR reference,
 * the code generator's every-op and native16 forms and its constant
 * rounding, and the checks that come before a run (native16,
 * --exhaustive).  Expected values are derived by hand in the comments. */
#include "suites.h"
#include "inputs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "applicable.h"
#include "codegen.h"

static struct ub_catalog cat;

static void load(void)
{
	struct ub_error err;
	int s = ub_catalog_load(SRCDIR "/suites/ops.fpcore", &cat, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
}

static void unload(void)
{
	ub_catalog_free(&cat);
}

static const char *const family[] = {
	"atan", "tanh", "sigmoid", "exp", "expm1", "log", "log1p", "sin", "cos",
	"sqrt", "rsqrt", "reciprocal", "asin", "acos", "erf", "gelu", "gelu_tanh",
	"silu", "softplus", "elu", "mish",
};

/* Every op NAME (x) and NAME_bwd (x g), each with a torch plan; a
 * generated kernel (no :kernel) but atan_bwd's serves every dtype. */
START_TEST(test_family)
{
	char name[64];
	for (size_t i = 0; i < sizeof family / sizeof *family; i++)
		for (int bwd = 0; bwd < 2; bwd++) {
			snprintf(name, sizeof name, "%s%s", family[i], bwd ? "_bwd" : "");
			const struct ub_op *op = ub_catalog_find(&cat, name);
			ck_assert_msg(op != NULL, "%s missing", name);
			ck_assert_int_eq(op->ninputs, 1 + bwd);
			ck_assert_str_eq(op->inputs[0], "x");
			if (bwd)
				ck_assert_str_eq(op->inputs[1], "g");
			ck_assert_msg(op->nsteps > 0, "%s has no torch plan", name);
			if (strcmp(name, "atan_bwd"))
				ck_assert_uint_eq(op->kernel_dtypes, (1u << UB_NDTYPES) - 1);
		}
	ck_assert_int_eq(cat.nops, 42);
}
END_TEST

/* Domains: asin/acos [-1, 1], log/sqrt/rsqrt [0, inf], log1p [-1, inf];
 * backward ops whose math has exp in it sample x in [-1e4, 1e4]. */
START_TEST(test_domains)
{
	static const struct { const char *op; double lo, hi; } d[] = {
		{"asin", -1, 1}, {"acos_bwd", -1, 1}, {"log", 0, INFINITY},
		{"sqrt_bwd", 0, INFINITY}, {"rsqrt", 0, INFINITY},
		{"log1p", -1, INFINITY}, {"tanh_bwd", -1e4, 1e4},
		{"atan", -INFINITY, INFINITY}, {"exp", -INFINITY, INFINITY},
	};
	for (size_t i = 0; i < sizeof d / sizeof *d; i++) {
		const struct ub_op *op = ub_catalog_find(&cat, d[i].op);
		ck_assert_msg(op->dom[0].lo == d[i].lo && op->dom[0].hi == d[i].hi,
			      "%s: [%g, %g]", d[i].op, op->dom[0].lo, op->dom[0].hi);
	}
}
END_TEST

/* tanh and sigmoid backward round every operator of their backward
 * kernel, not the forward step; the other plans round once per step. */
START_TEST(test_plan_rounding)
{
	for (int i = 0; i < cat.nops; i++) {
		const struct ub_op *op = &cat.ops[i];
		int fused16 = !strcmp(op->name, "tanh_bwd") || !strcmp(op->name, "sigmoid_bwd");
		for (int k = 0; k < op->nsteps; k++)
			ck_assert_msg(op->torch[k].every_op == (fused16 && k == op->nsteps - 1),
				      "%s step %s", op->name, op->torch[k].name);
	}
	const struct ub_op *t = ub_catalog_find(&cat, "tanh_bwd");
	ck_assert_ptr_nonnull(t->kernel_expr);
	ck_assert_str_eq(t->torch[0].name, "y");
}
END_TEST

/* One reference evaluation of the FPCore text body at x (f32 bits). */
static uint32_t ref32(const char *body, uint32_t x)
{
	char text[256];
	struct ub_catalog c;
	struct ub_error err;
	uint64_t in = x, cr;
	snprintf(text, sizeof text, "(FPCore f (x) %s)", body);
	ck_assert_msg(ub_catalog_parse(text, "t", &c, &err) == 0, "%s", err.msg);
	int s = ub_ref_eval(c.ops[0].math, UB_F32, &in, 1, &cr, NULL, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	ub_catalog_free(&c);
	return (uint32_t)cr;
}

/* if takes only the chosen branch; comparisons are IEEE's. */
START_TEST(test_reference_if)
{
	const char *elu = "(if (> x 0) x (expm1 x))";
	ck_assert_uint_eq(ref32(elu, 0x3f800000), 0x3f800000);  /* 1 > 0: x */
	ck_assert_uint_eq(ref32(elu, 0x80000000), 0x80000000);  /* expm1(-0) = -0 */
	ck_assert_uint_eq(ref32(elu, 0x7fc00000), 0x7fffffff);  /* NaN > 0 false */
	/* expm1(-inf) = -1 */
	ck_assert_uint_eq(ref32(elu, 0xff800000), 0xbf800000);
	/* the untaken branch may be NaN or undecidable: log(-1) not looked at */
	ck_assert_uint_eq(ref32("(if (< x 0) 7 (log x))", 0xbf800000), 0x40e00000);
	/* (sqrt 2)^2 is not 2: x*x of the float nearest sqrt(2) is exact and
	 * differs from 2, so == is decided false; != true */
	ck_assert_uint_eq(ref32("(if (== (* x x) 2) 1 0)", 0x3fb504f3), 0);
	ck_assert_uint_eq(ref32("(if (!= (* x x) 2) 1 0)", 0x3fb504f3), 0x3f800000);
	/* a condition on an inexact value: exp(0.6931472) > 2 (ln 2 =
	 * 0.69314718..., the float 0x3f317218 is above it), decided by
	 * narrowing the interval */
	ck_assert_uint_eq(ref32("(if (>= (exp x) 2) 1 0)", 0x3f317218), 0x3f800000);
	ck_assert_uint_eq(ref32("(if (>= (exp x) 2) 1 0)", 0x3f317217), 0);
	/* -0 == +0 */
	ck_assert_uint_eq(ref32("(if (== x 0) 1 0)", 0x80000000), 0x3f800000);
}
END_TEST

/* erfc: exact cases, and the same real number as 1 - erf(x). */
START_TEST(test_reference_erfc)
{
	ck_assert_uint_eq(ref32("(erfc x)", 0), 0x3f800000);            /* 1 */
	ck_assert_uint_eq(ref32("(erfc x)", 0xff800000), 0x40000000);   /* 2 */
	ck_assert_uint_eq(ref32("(erfc x)", 0x7f800000), 0);            /* +0 */
	for (uint32_t x = 0x3e000000; x < 0x40400000; x += 0x00123457)
		ck_assert_uint_eq(ref32("(erfc x)", x), ref32("(- 1 (erf x))", x));
}
END_TEST

/* Constants round once from double: 0.1 is 0x2e66 in f16 (0.0999755859375)
 * and 0x3dcd in bf16 (0x3dcccccd's upper half, rounded up); 65520, the
 * midpoint of 65504 and 65536, goes to even: 65536, beyond f16's range:
 * inf; 2^-25 is half the smallest f16 subnormal: even, 0; 3*2^-26 rounds
 * up to it; bf16 1 + 2^-8 is a tie: 1; 1 + 3*2^-9 rounds to 1 + 2^-7. */
START_TEST(test_codegen_round)
{
	ck_assert_uint_eq(ub_codegen_round(UB_F16, 0.1), 0x2e66);
	ck_assert_uint_eq(ub_codegen_round(UB_BF16, 0.1), 0x3dcd);
	ck_assert_uint_eq(ub_codegen_round(UB_F16, 65520), 0x7c00);
	ck_assert_uint_eq(ub_codegen_round(UB_F16, 65519), 0x7bff);
	ck_assert_uint_eq(ub_codegen_round(UB_F16, -0x1p-25), 0x8000);
	ck_assert_uint_eq(ub_codegen_round(UB_F16, 3 * 0x1p-26), 0x0001);
	ck_assert_uint_eq(ub_codegen_round(UB_BF16, 1 + 0x1p-8), 0x3f80);
	ck_assert_uint_eq(ub_codegen_round(UB_BF16, 1 + 3 * 0x1p-9), 0x3f81);
	ck_assert_uint_eq(ub_codegen_round(UB_F32, 1.0 / 3), 0x3eaaaaab);
	ck_assert_uint_eq(ub_codegen_round(UB_F16, NAN), 0x7fff);
}
END_TEST

static char *step_src(const char *op, int k, enum ub_dtype dt)
{
	char *src = NULL;
	struct ub_error err;
	const struct ub_op *o = ub_catalog_find(&cat, op);
	ck_assert_int_eq(ub_codegen_step(o, k, dt, &src, &err), 0);
	return src;
}

static char *kernel_src(const char *op, enum ub_dtype dt)
{
	char *src = NULL;
	struct ub_error err;
	ck_assert_int_eq(ub_codegen_kernel(ub_catalog_find(&cat, op), dt, &src, &err), 0);
	return src;
}

#define HAS(src, s) ck_assert_msg(strstr(src, s) != NULL, "no \"%s\" in\n%s", s, src)
#define HASNT(src, s) ck_assert_msg(strstr(src, s) == NULL, "\"%s\" in\n%s", s, src)

START_TEST(test_codegen_forms)
{
	/* tanh backward in f16: h(g * h(1 - h(y * y))) */
	char *s = step_src("tanh_bwd", 1, UB_F16);
	HAS(s, "out[i] = __float2half_rn(ub_r16((a1 * ub_r16((__int_as_float(0x3f800000)"
	       " - ub_r16((a2 * a2)))))));");
	free(s);
	/* the same step in f32 is plain float arithmetic (NVVM may fuse) */
	s = step_src("tanh_bwd", 1, UB_F32);
	HAS(s, "out[i] = (a1 * (__int_as_float(0x3f800000) - (a2 * a2)));");
	HASNT(s, "ub_r16");
	free(s);
	/* the forward step of sigmoid backward rounds once */
	s = step_src("sigmoid_bwd", 0, UB_BF16);
	HASNT(s, "ub_r16(");
	free(s);
	/* the kernel under test: float with UB_ macros, and under UB_NATIVE16
	 * the 16-bit type with its own functions and constants */
	s = kernel_src("exp_bwd", UB_F16);
	HAS(s, "#ifdef UB_NATIVE16\n        __half a0 = v0[i];");
	HAS(s, "out[i] = UB_MUL(a1, hexp(a0));");
	HAS(s, "out[i] = __float2half_rn(UB_MUL(a1, expf(a0)));");
	free(s);
	s = kernel_src("elu", UB_BF16);   /* if, and a function with no native form */
	HAS(s, "(a0 > __ushort_as_bfloat16((unsigned short)0x0000)) ? a0 : "
	       "__float2bfloat16_rn(expm1f(__bfloat162float(a0)))");
	HAS(s, "((a0 > __int_as_float(0x00000000)) ? a0 : expm1f(a0))");
	free(s);
	s = kernel_src("sin", UB_F64);     /* double functions drop the f */
	HAS(s, "out[i] = sin(a0);");
	HASNT(s, "UB_NATIVE16");
	free(s);
	/* :kernel-expr replaces the math */
	s = kernel_src("softplus", UB_F32);
	HAS(s, "((a0 > __int_as_float(0x41a00000)) ? a0 : log1pf(expf(a0)))");
	free(s);
}
END_TEST

START_TEST(test_applicable)
{
	struct ub_config cfg = {
		.op = ub_catalog_find(&cat, "sqrt"), .ndtypes = 1, .dtypes = {UB_F32},
		.nmodes = 2, .modes = {UB_MODE_FMA, UB_MODE_NATIVE16},
	};
	struct ub_error err;
	ck_assert_int_eq(ub_check_applicable(&cfg, 1, &err), UB_USAGE);
	ck_assert_int_eq(ub_check_applicable(&cfg, 0, &err), 0);  /* default list */
	cfg.dtypes[1] = UB_BF16, cfg.ndtypes = 2;
	ck_assert_int_eq(ub_check_applicable(&cfg, 1, &err), 0);
	for (int m = 0; m < UB_NMODES; m++)
		ck_assert_int_eq(ub_mode_applies(m, UB_F32), m != UB_MODE_NATIVE16);
	struct ub_array a;
	struct ub_range all = {0}; /* no --range: every encoding */
	ck_assert_int_eq(ub_inputs_exhaustive(UB_BF16, 1, &all, &a, &err), 0);
	ck_assert_uint_eq(a.n, 65536);
	for (size_t i = 0; i < a.n; i += 4099)
		ck_assert_uint_eq(ub_array_get(&a, i), i);
	ck_assert_uint_eq(ub_array_get(&a, 65535), 0xffff);
	ub_array_free(&a);
}
END_TEST

Suite *ub_ew_suite(void)
{
	Suite *s = suite_create("ew");
	TCase *tc = tcase_create("ew");
	tcase_add_unchecked_fixture(tc, load, unload);
	tcase_add_test(tc, test_family);
	tcase_add_test(tc, test_domains);
	tcase_add_test(tc, test_plan_rounding);
	tcase_add_test(tc, test_reference_if);
	tcase_add_test(tc, test_reference_erfc);
	tcase_add_test(tc, test_codegen_round);
	tcase_add_test(tc, test_codegen_forms);
	tcase_add_test(tc, test_applicable);
	suite_add_tcase(s, tc);
	return s;
}

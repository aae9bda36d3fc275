/* check_ew_rows.c — the rows checked against the host model of
 * check_ew_host.c: every exact (op, dtype, mode) row of the catalog and
 * its torch plan, synthetic kernels of IEEE arithmetic that show every
 * fusion rule, and the oracle functions against MPFR. */
#include "check_ew_host.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"
#include "inputs.h"

#define SEED 11

/* The exact rows: (op, dtype, modes; "torch" for the torch plan). */
static const struct row {
	const char *op;
	enum ub_dtype dt;
	const char *modes;
} rows[] = {
	{"cos", UB_BF16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,native16,torch"},
	{"cos", UB_F16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,native16,torch"},
	{"cos", UB_F32, "fma,nofma,rn,ftz,approxdiv,approxsqrt,torch"},
	{"cos", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"cos_bwd", UB_BF16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,native16,torch"},
	{"cos_bwd", UB_F16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,native16,torch"},
	{"cos_bwd", UB_F32, "fma,nofma,rn,ftz,approxdiv,approxsqrt,torch"},
	{"cos_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"elu", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"elu_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"erf_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"exp", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"exp_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"expm1", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"expm1_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"log", UB_BF16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,torch"},
	{"log", UB_F16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,torch"},
	{"log", UB_F32, "fma,nofma,rn,ftz,approxdiv,approxsqrt,torch"},
	{"log1p", UB_BF16, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,native16,torch"},
	{"log1p", UB_F16, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,native16,torch"},
	{"log1p", UB_F32, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"log1p_bwd", UB_BF16, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"log1p_bwd", UB_F16, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"log1p_bwd", UB_F32, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"log1p_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"log_bwd", UB_BF16, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"log_bwd", UB_F16, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"log_bwd", UB_F32, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"log_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"reciprocal", UB_BF16, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"reciprocal", UB_F16, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"reciprocal", UB_F32, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"reciprocal", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"reciprocal_bwd", UB_BF16, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"reciprocal_bwd", UB_F16, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"reciprocal_bwd", UB_F32, "fma,nofma,rn,ftz,approxsqrt,torch"},
	{"reciprocal_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"sigmoid", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"sigmoid_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"silu", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"silu_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"sin", UB_BF16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,native16,torch"},
	{"sin", UB_F16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,native16,torch"},
	{"sin", UB_F32, "fma,nofma,rn,ftz,approxdiv,approxsqrt,torch"},
	{"sin", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"sin_bwd", UB_BF16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,native16,torch"},
	{"sin_bwd", UB_F16, "fma,nofma,rn,ftz,approxdiv,approxsqrt,native16,torch"},
	{"sin_bwd", UB_F32, "fma,nofma,rn,ftz,approxdiv,approxsqrt,torch"},
	{"sin_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"softplus_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"sqrt", UB_BF16, "fma,nofma,rn,ftz,approxdiv,torch"},
	{"sqrt", UB_F16, "fma,nofma,rn,ftz,approxdiv,torch"},
	{"sqrt", UB_F32, "fma,nofma,rn,ftz,approxdiv,torch"},
	{"sqrt", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
	{"sqrt_bwd", UB_BF16, "fma,nofma,rn,ftz,torch"},
	{"sqrt_bwd", UB_F16, "fma,nofma,rn,ftz,torch"},
	{"sqrt_bwd", UB_F32, "fma,nofma,rn,ftz,torch"},
	{"sqrt_bwd", UB_F64, "fma,nofma,rn,fastmath,ftz,approxdiv,approxsqrt,torch"},
};

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
	ew_oracles_free();
}

START_TEST(exact_row)
{
	const struct row *w = &rows[_i];
	const struct ub_op *op = ub_catalog_find(&cat, w->op);
	ck_assert_ptr_nonnull(op);
	ew_check_op(op, w->dt, w->modes, 0);
	ew_check_op(op, w->dt, w->modes, 1);
}
END_TEST

/* Kernels of IEEE arithmetic only, where every fusion rule shows: a
 * product into an add's first or second operand, into a subtraction from
 * either side, two products into one add (NVVM fuses the first; ptxas's
 * choice is unknown, so native16 is left out), a negated product, and
 * torch steps rounding every operator. */
static const struct synth {
	const char *text, *modes;
} synth[] = {
	{"(FPCore s (x y z) :torch (let* ([p (* x y)]) (+ p z)) (+ (* x y) z))",
	 "fma,nofma,rn,ftz,native16,torch"},
	{"(FPCore s (x y z) (+ z (* x y)))", "fma,nofma,rn,ftz,native16"},
	{"(FPCore s (x y z) (- z (* x y)))", "fma,nofma,rn,ftz,native16"},
	{"(FPCore s (x y z) (- (* x y) z))", "fma,nofma,rn,ftz,native16"},
	{"(FPCore s (x y z) (+ (* x y) (* z x)))", "fma,nofma,rn,ftz"},
	{"(FPCore s (x y z) (+ (- (* x y)) z))", "fma,nofma,rn,ftz,native16"},
	{"(FPCore s (x y) :torch (let* ([t (sqrt (fabs x))]) (* y (- 1 (* t t))))"
	 " :torch-rounding ([out every-op]) (* y (- 1 (* x x))))",
	 "fma,nofma,rn,ftz,native16,torch"},
};

START_TEST(synthetic)
{
	struct ub_catalog c;
	struct ub_error err;
	int dts[] = {UB_F32, UB_F16, UB_BF16, UB_F64};
	ck_assert_int_eq(ub_catalog_parse(synth[_i].text, "t.fpcore", &c, &err), 0);
	for (int t = 0; t < 4; t++) {
		char modes[64];
		snprintf(modes, sizeof modes, "%s", synth[_i].modes);
		char *nat = strstr(modes, ",native16");
		if (nat && (dts[t] == UB_F32 || dts[t] == UB_F64))
			memmove(nat, nat + 9, strlen(nat + 9) + 1);
		ew_check_op(&c.ops[0], dts[t], modes, 0);
		ew_check_op(&c.ops[0], dts[t], modes, 1);
	}
	ub_catalog_free(&c);
}
END_TEST

/* The oracles' functions themselves, independently: within CUDA's
 * documented maximum error of the correctly rounded value (MPFR) on the
 * special values and a sample (f32 and f64 math library; the native
 * 16-bit intrinsics have no documented bound and are not checked here). */
static const struct bound {
	int fop;
	enum ub_dtype dt;
	int ulps;   /* CUDA C Programming Guide, math appendix */
} bounds[] = {
	{UB_SIN, UB_F32, 2}, {UB_COS, UB_F32, 2}, {UB_LOG, UB_F32, 1},
	{UB_LOG1P, UB_F32, 1}, {UB_SIN, UB_F64, 2}, {UB_COS, UB_F64, 2},
	{UB_EXP, UB_F64, 1}, {UB_EXPM1, UB_F64, 1}, {UB_TANH, UB_F64, 2},
};

static int64_t ord(enum ub_dtype dt, uint64_t b)
{
	int bits = ub_dtypes[dt].bits;
	uint64_t sign = 1ull << (bits - 1);
	return (b & sign) ? -(int64_t)(b & (sign - 1)) : (int64_t)b;
}

START_TEST(oracle_bounds)
{
	const struct bound *bd = &bounds[_i];
	struct ub_array in[1], cr;
	struct ub_error err;
	enum ub_dtype dt = bd->dt;
	ck_assert_int_eq(ub_inputs_generate(dt, 1, NULL, 3000, SEED, in, &err), 0);
	size_t n = in[0].n;
	double *arg = ew_alloc(n), *res = ew_alloc(n);
	for (size_t i = 0; i < n; i++)
		arg[i] = ew_bits_value(dt, ub_array_get(&in[0], i));
	ew_oracle_run(bd->fop, dt, UB_MODE_FMA, arg, res, n, 0);
	struct ub_expr *x = ub_expr_new_var(0), *e = ub_expr_new_op(bd->fop, 1, &x);
	ck_assert_int_eq(ub_ref_eval_array(e, dt, in, 1, &cr, NULL, &err), 0);
	for (size_t i = 0; i < n; i++) {
		uint64_t c = ub_array_get(&cr, i), g = ew_value_bits(dt, res[i]);
		if (ub_bits_isnan(dt, c) || ub_bits_isnan(dt, g)) {
			ck_assert_msg(ub_bits_isnan(dt, c) == ub_bits_isnan(dt, g),
				      "%s(%a): NaN disagreement", ub_expr_ops[bd->fop].name, arg[i]);
			continue;
		}
		int64_t dist = ord(dt, c) - ord(dt, g);
		ck_assert_msg(llabs(dist) <= bd->ulps, "%s %s(%a): %a is %lld ulps from "
			      "the correctly rounded %a", ub_dtypes[dt].name,
			      ub_expr_ops[bd->fop].name, arg[i], res[i], (long long)dist,
			      ew_bits_value(dt, c));
	}
	ub_expr_free(e);
	ub_array_free(&in[0]);
	ub_array_free(&cr);
	free(arg);
	free(res);
}
END_TEST

Suite *ub_ew_host_suite(void)
{
	Suite *s = suite_create("ew_host");
	TCase *tc = tcase_create("exact_rows");
	tcase_set_timeout(tc, 600);
	tcase_add_unchecked_fixture(tc, load, unload);
	tcase_add_loop_test(tc, exact_row, 0, (int)(sizeof rows / sizeof *rows));
	tcase_add_loop_test(tc, synthetic, 0, (int)(sizeof synth / sizeof *synth));
	tcase_add_loop_test(tc, oracle_bounds, 0, (int)(sizeof bounds / sizeof *bounds));
	suite_add_tcase(s, tc);
	return s;
}

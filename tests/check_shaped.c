/* check_shaped.c — the shaped ops' exact reference (reference/ref_shaped.c,
 * ref_shaped_bwd.c)
 * on rows whose answers are known independently: hand derivations for the
 * sums (ties, cancellation, overflow, subnormals, specials), and for the
 * rest mpmath at 400 bits rounded to binary32 with exact fractions
 * (Python: fractions.Fraction, round half to even by hand; the values are
 * far from any midpoint at that precision), as each case says. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shaped.h"
#include "ub_bits.h"

/* The reference of one row of op in dt: inputs x (cols), w, b (cols or
 * NULL); cr of each output into out[o][0..] (a row's elements). */
static void ref_row(const char *name, enum ub_dtype dt, const uint64_t *x,
		    const uint64_t *w, const uint64_t *b, size_t cols,
		    uint64_t out[][8], size_t *undecided)
{
	const struct ub_shaped_op *op = ub_shaped_find(name);
	ck_assert_ptr_nonnull(op);
	struct ub_array in[3] = {{0}}, cr[3] = {{0}};
	struct ub_exact *ex[3] = {0};
	const uint64_t *src[3] = {x, w, b};
	struct ub_error err;
	for (int k = 0; k < op->nin; k++) {
		ck_assert_int_eq(ub_array_alloc(&in[k], dt, cols), 0);
		for (size_t i = 0; i < cols; i++)
			ub_array_set(&in[k], i, src[k][i]);
	}
	for (int o = 0; o < op->nout; o++) {
		size_t n = ub_extent_count(op->out[o].ext, 1, cols);
		ck_assert_int_eq(ub_array_alloc(&cr[o], dt, n), 0);
		ex[o] = calloc(n, sizeof *ex[o]);
	}
	*undecided = 0;
	ck_assert_int_eq(ub_shaped_ref_row(op, dt, in, 1, cols, 0, cr, ex, undecided, &err), 0);
	for (int o = 0; o < op->nout; o++) {
		for (size_t i = 0; i < cr[o].n && i < 8; i++)
			out[o][i] = ub_array_get(&cr[o], i);
		ub_array_free(&cr[o]);
		free(ex[o]);
	}
	for (int k = 0; k < op->nin; k++)
		ub_array_free(&in[k]);
}

#define F32(v) ((uint64_t)ub_f32_bits(v))
static uint32_t ub_f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static uint64_t sum1(enum ub_dtype dt, const uint64_t *x, size_t n)
{
	uint64_t out[3][8];
	size_t und;
	ref_row("sum", dt, x, NULL, NULL, n, out, &und);
	ck_assert_uint_eq(und, 0);
	return out[0][0];
}

START_TEST(test_shaped_sum)
{
	/* 2^24 + 1 + 1 = 2^24 + 2, representable (a float loop gives 2^24) */
	uint64_t a[] = {F32(0x1p24f), F32(1.f), F32(1.f)};
	ck_assert_uint_eq(sum1(UB_F32, a, 3), 0x4b800001);
	/* 1 + 2^-24: the midpoint of 1 and 1 + 2^-23, to even: 1 */
	uint64_t b[] = {F32(1.f), F32(0x1p-24f)};
	ck_assert_uint_eq(sum1(UB_F32, b, 2), 0x3f800000);
	/* + 2^-60 puts it above the midpoint: 1 + 2^-23 (a sum in double
	 * would lose the 2^-60 and tie) */
	uint64_t c[] = {F32(1.f), F32(0x1p-24f), F32(0x1p-60f)};
	ck_assert_uint_eq(sum1(UB_F32, c, 3), 0x3f800001);
	/* cancellation: 2^100 + 1 - 2^100 = 1 */
	uint64_t d[] = {F32(0x1p100f), F32(1.f), F32(-0x1p100f)};
	ck_assert_uint_eq(sum1(UB_F32, d, 3), 0x3f800000);
	/* 1.5 2^127 twice: 3 2^127 > FLT_MAX + ulp/2: +inf */
	uint64_t e[] = {F32(0x1.8p127f), F32(0x1.8p127f)};
	ck_assert_uint_eq(sum1(UB_F32, e, 2), 0x7f800000);
	/* the smallest subnormal twice: 2^-148 */
	uint64_t f[] = {1, 1};
	ck_assert_uint_eq(sum1(UB_F32, f, 2), 2);
	/* specials: +inf + finite = +inf; +inf + -inf = NaN; -0 + -0 = -0 */
	uint64_t g[] = {0x7f800000, F32(-3.f)}, h[] = {0x7f800000, 0xff800000};
	uint64_t z[] = {0x80000000, 0x80000000};
	ck_assert_uint_eq(sum1(UB_F32, g, 2), 0x7f800000);
	ck_assert(ub_bits_isnan(UB_F32, sum1(UB_F32, h, 2)));
	ck_assert_uint_eq(sum1(UB_F32, z, 2), 0x80000000);
	/* f16: 65504 + 16 = 65520, halfway to 2^16: to even, past the
	 * largest finite: +inf (0x7c00) */
	uint64_t k[] = {0x7bff, 0x4c00};
	ck_assert_uint_eq(sum1(UB_F16, k, 2), 0x7c00);
}
END_TEST

START_TEST(test_shaped_softmax)
{
	uint64_t out[3][8];
	size_t und;
	/* four equal logits: 1/4 exactly */
	uint64_t a[] = {F32(3.f), F32(3.f), F32(3.f), F32(3.f)};
	ref_row("softmax", UB_F32, a, NULL, NULL, 4, out, &und);
	ck_assert_uint_eq(out[0][0], 0x3e800000);
	ck_assert_uint_eq(out[0][3], 0x3e800000);
	/* [0, 1]: 1/(1+e), e/(1+e) (mpmath) */
	uint64_t b[] = {F32(0.f), F32(1.f)};
	ref_row("softmax", UB_F32, b, NULL, NULL, 2, out, &und);
	ck_assert_uint_eq(out[0][0], 0x3e89b2b1);
	ck_assert_uint_eq(out[0][1], 0x3f3b26a8);
	/* log_softmax of the same: -log(1+e), 1 - log(1+e) (mpmath) */
	ref_row("log_softmax", UB_F32, b, NULL, NULL, 2, out, &und);
	ck_assert_uint_eq(out[0][0], 0xbfa818f5);
	ck_assert_uint_eq(out[0][1], 0xbea063d6);
	/* two equal logits: -log 2, float's ln 2 is 0x3f317218 */
	uint64_t c[] = {F32(5.f), F32(5.f)};
	ref_row("log_softmax", UB_F32, c, NULL, NULL, 2, out, &und);
	ck_assert_uint_eq(out[0][1], 0xbf317218);
	/* -inf is a logit of probability 0 exactly; the only finite one is 1
	 * (log 0) */
	uint64_t d[] = {F32(7.f), 0xff800000};
	ref_row("softmax", UB_F32, d, NULL, NULL, 2, out, &und);
	ck_assert_uint_eq(out[0][0], 0x3f800000);
	ck_assert_uint_eq(out[0][1], 0);
	ref_row("log_softmax", UB_F32, d, NULL, NULL, 2, out, &und);
	ck_assert_uint_eq(out[0][0], 0);
	ck_assert_uint_eq(out[0][1], 0xff800000);
	/* no finite logit, or +inf among them: NaN (0/0, inf - inf) */
	uint64_t e[] = {0xff800000, 0xff800000}, f[] = {0, 0x7f800000};
	ref_row("softmax", UB_F32, e, NULL, NULL, 2, out, &und);
	ck_assert(ub_bits_isnan(UB_F32, out[0][0]));
	ref_row("softmax", UB_F32, f, NULL, NULL, 2, out, &und);
	ck_assert(ub_bits_isnan(UB_F32, out[0][0]) && ub_bits_isnan(UB_F32, out[0][1]));
	ck_assert_uint_eq(und, 0);
}
END_TEST

START_TEST(test_shaped_norms)
{
	uint64_t out[3][8];
	size_t und;
	/* rms_norm of [3, 4] with weight [1, -2]: mean(x^2) = 12.5, rstd =
	 * 1/sqrt(12.5 + eps), eps = float(1e-5); 3 rstd and -8 rstd (mpmath) */
	uint64_t x[] = {F32(3.f), F32(4.f)}, w[] = {F32(1.f), F32(-2.f)};
	ref_row("rms_norm", UB_F32, x, w, NULL, 2, out, &und);
	ck_assert_uint_eq(out[0][0], 0x3f59391e);
	ck_assert_uint_eq(out[0][1], 0xc010d0bf);
	/* layer_norm of [1, 2, 4], weight 1, bias 0: mean 7/3 (0x40155555 by
	 * hand: 10.0101..b rounds down), var 14/9, rstd 1/sqrt(14/9 + eps),
	 * out (x - 7/3) rstd (mpmath) */
	uint64_t y[] = {F32(1.f), F32(2.f), F32(4.f)}, one[] = {F32(1.f), F32(1.f), F32(1.f)};
	uint64_t zero[] = {0, 0, 0};
	ref_row("layer_norm", UB_F32, y, one, zero, 3, out, &und);
	ck_assert_uint_eq(out[1][0], 0x40155555);
	ck_assert_uint_eq(out[2][0], 0x3f4d4188);
	ck_assert_uint_eq(out[0][0], 0xbf88d65a);
	ck_assert_uint_eq(out[0][1], 0xbe88d65a);
	ck_assert_uint_eq(out[0][2], 0x3fab0bf1);
	/* a constant row: x - mean = 0 exactly, out = bias exactly, rstd =
	 * 1/sqrt(eps) (mpmath) */
	uint64_t c[] = {F32(5.f), F32(5.f)}, w2[] = {F32(2.f), F32(2.f)},
		 b2[] = {F32(0.5f), F32(-1.f)};
	ref_row("layer_norm", UB_F32, c, w2, b2, 2, out, &und);
	ck_assert_uint_eq(out[0][0], F32(0.5f));
	ck_assert_uint_eq(out[0][1], F32(-1.f));
	ck_assert_uint_eq(out[1][0], F32(5.f));
	ck_assert_uint_eq(out[2][0], 0x439e1d28);
	/* [1, 3]: mean 2, var 1, rstd 1/sqrt(1 + eps) (mpmath) */
	uint64_t d[] = {F32(1.f), F32(3.f)};
	ref_row("layer_norm", UB_F32, d, one, zero, 2, out, &und);
	ck_assert_uint_eq(out[1][0], F32(2.f));
	ck_assert_uint_eq(out[2][0], 0x3f7fffac);
	ck_assert_uint_eq(out[0][0], 0xbf7fffac);
	ck_assert_uint_eq(out[0][1], 0x3f7fffac);
	ck_assert_uint_eq(und, 0);
	/* a NaN in the row: NaN everywhere */
	uint64_t e[] = {F32(1.f), 0x7fc00000};
	ref_row("layer_norm", UB_F32, e, one, zero, 2, out, &und);
	ck_assert(ub_bits_isnan(UB_F32, out[0][0]) && ub_bits_isnan(UB_F32, out[1][0]));
}
END_TEST

/* The reference of a backward op in f32 on a rows x cols run: src[k] the
 * values of input k (of its extent); every output into out[o]. */
static void bwd_ref(const char *name, size_t rows, size_t cols, const float *const *src,
		    uint64_t out[][8])
{
	const struct ub_shaped_op *op = ub_shaped_find(name);
	ck_assert_ptr_nonnull(op);
	struct ub_array in[UB_SHAPED_MAX_IN] = {{0}}, cr[3] = {{0}};
	struct ub_exact *ex[3] = {0};
	struct ub_error err;
	for (int k = 0; k < op->nin; k++) {
		size_t n = ub_extent_count(op->in[k].ext, rows, cols);
		ck_assert_int_eq(ub_array_alloc(&in[k], ub_shaped_in_dtype(op, k, UB_F32), n), 0);
		for (size_t i = 0; i < n; i++)
			ub_array_set(&in[k], i, F32(src[k][i]));
	}
	for (int o = 0; o < op->nout; o++) {
		size_t n = ub_extent_count(op->out[o].ext, rows, cols);
		ck_assert_int_eq(ub_array_alloc(&cr[o], UB_F32, n), 0);
		ex[o] = calloc(n, sizeof *ex[o]);
	}
	size_t und = 0;
	for (size_t r = 0; r < rows; r++)
		ck_assert_int_eq(ub_shaped_ref_row(op, UB_F32, in, rows, cols, r, cr, ex, &und,
						   &err), 0);
	ck_assert_int_eq(ub_shaped_ref_cols(op, UB_F32, in, rows, cols, cr, ex, &err), 0);
	ck_assert_uint_eq(und, 0);
	for (int o = 0; o < op->nout; o++) {
		for (size_t i = 0; i < cr[o].n && i < 8; i++)
			out[o][i] = ub_array_get(&cr[o], i);
		ub_array_free(&cr[o]);
		free(ex[o]);
	}
	for (int k = 0; k < op->nin; k++)
		ub_array_free(&in[k]);
}

START_TEST(test_shaped_bwd)
{
	uint64_t out[3][8];
	/* layer_norm_bwd, 3 rows of one column, mean 0, rstd 1, x 1, weight 1:
	 * dweight = dbias = sum dout = 2^24 + 1 + 1 = 2^24 + 2 exactly
	 * (a float sum from row 0 gives 2^24); dx of a one-column row is
	 * rstd/1 * (g - g - xhat*g*xhat) = -g = -dout */
	const float dy[] = {0x1p24f, 1, 1}, x1[] = {1, 1, 1}, one[] = {1, 1, 1},
		    zero[] = {0, 0, 0};
	const float *const c1[] = {dy, x1, one, zero, one};
	bwd_ref("layer_norm_bwd", 3, 1, c1, out);
	ck_assert_uint_eq(out[1][0], 0x4b800001);
	ck_assert_uint_eq(out[2][0], 0x4b800001);
	ck_assert_uint_eq(out[0][0], F32(-0x1p24f));
	ck_assert_uint_eq(out[0][1], F32(-1.f));
	/* one row of 3: x = (1, 0, -1), mean 0, rstd 1, weight 1, dout =
	 * (1, 0, 0): g = (1, 0, 0), sum g = 1, sum g*xhat = 1, dx_j = 1/3 (3
	 * g_j - 1 - xhat_j) = (1/3, -1/3, 0); 1/3 rounds to 0x3eaaaaab;
	 * dweight = dout*xhat = (1, 0, 0), dbias = dout */
	const float d3[] = {1, 0, 0}, x3[] = {1, 0, -1};
	const float *const r3[] = {d3, x3, one, zero, one};
	bwd_ref("layer_norm_bwd", 1, 3, r3, out);
	ck_assert_uint_eq(out[0][0], 0x3eaaaaab);
	ck_assert_uint_eq(out[0][1], 0xbeaaaaab);
	ck_assert_uint_eq(out[0][2], 0);
	ck_assert_uint_eq(out[1][0], F32(1.f));
	ck_assert_uint_eq(out[1][1], 0);
	ck_assert_uint_eq(out[2][0], F32(1.f));
	/* rms_norm_bwd, one row x = (1, 1), rstd 1, weight 1, dout = (1, 0):
	 * sum g*x = 1, dx_j = g_j - x_j/2 = (1/2, -1/2); dweight = dout*x*rstd
	 * = (1, 0).  rstd = 3 (dout (1, 0)): dx_j = 3 g_j - x_j 27/2 = (-10.5,
	 * -13.5) */
	const float d2[] = {1, 0}, three[] = {3};
	const float *const r2[] = {d2, one, one, one};
	bwd_ref("rms_norm_bwd", 1, 2, r2, out);
	ck_assert_uint_eq(out[0][0], F32(0.5f));
	ck_assert_uint_eq(out[0][1], F32(-0.5f));
	ck_assert_uint_eq(out[1][0], F32(1.f));
	ck_assert_uint_eq(out[1][1], 0);
	const float *const r2b[] = {d2, one, one, three};
	bwd_ref("rms_norm_bwd", 1, 2, r2b, out);
	ck_assert_uint_eq(out[0][0], F32(-10.5f));
	ck_assert_uint_eq(out[0][1], F32(-13.5f));
	/* an infinite dout: the row's dx and the column's sums are NaN */
	const float dinf[] = {INFINITY, 0};
	const float *const r2c[] = {dinf, one, one, one};
	bwd_ref("rms_norm_bwd", 1, 2, r2c, out);
	ck_assert(isnan(ub_bits_to_double(UB_F32, out[0][1])));
	ck_assert(isnan(ub_bits_to_double(UB_F32, out[1][0])));
}
END_TEST

/* cross_entropy of one row: logits (0, 0), class 0: log 2, whose nearest
 * binary32 is 0x3f317218 (the float ln 2 of every libm's tables); class 1
 * of (-inf, 3): the only finite logit, loss 0 exactly; class 0 of
 * (-inf, 3): +inf exactly. */
START_TEST(test_shaped_xent)
{
	uint64_t out[3][8];
	size_t und;
	uint64_t z[] = {F32(0.f), F32(0.f)}, t0[] = {0, 0}, t1[] = {1, 1};
	ref_row("cross_entropy", UB_F32, z, t0, NULL, 2, out, &und);
	ck_assert_uint_eq(und, 0);
	ck_assert_uint_eq(out[0][0], 0x3f317218);
	uint64_t m[] = {F32(-INFINITY), F32(3.f)};
	ref_row("cross_entropy", UB_F32, m, t1, NULL, 2, out, &und);
	ck_assert_uint_eq(out[0][0], 0);
	ref_row("cross_entropy", UB_F32, m, t0, NULL, 2, out, &und);
	ck_assert_uint_eq(out[0][0], 0x7f800000);
}
END_TEST

/* The default statistics: the forward's mean and rstd rounded to f32.
 * Row (1, 2, 3, 4): mean 5/2 exactly; biased variance 5/4, rstd =
 * 1/sqrt(5/4 + eps), rms: mean of squares 15/2, rstd = 1/sqrt(15/2 +
 * eps), eps = 0x1.4f8b58p-17.  Expected: Python, the exact rational's
 * integer square root (math.isqrt) at 200 bits, and of the binary32
 * neighbours the nearest to it by Fraction distance (0x3f64f8f2: 9.3e-9
 * away, the others 5e-8 and more; 0x3ebaf4b2: 1.2e-9, the others 2.8e-8
 * and more). */
START_TEST(test_shaped_stats)
{
	struct ub_array x = {0}, m = {0}, r = {0};
	struct ub_error err;
	ck_assert_int_eq(ub_array_alloc(&x, UB_F32, 4), 0);
	for (int i = 0; i < 4; i++)
		ub_array_set(&x, (size_t)i, F32((float)(i + 1)));
	ck_assert_int_eq(ub_shaped_ref_stats(0, &x, 1, 4, &m, &r, &err), 0);
	ck_assert_uint_eq(ub_array_get(&m, 0), F32(2.5f));
	ck_assert_uint_eq(ub_array_get(&r, 0), 0x3f64f8f2);
	ub_array_free(&r);
	ck_assert_int_eq(ub_shaped_ref_stats(1, &x, 1, 4, NULL, &r, &err), 0);
	ck_assert_uint_eq(ub_array_get(&r, 0), 0x3ebaf4b2);
	ub_array_free(&x);
	ub_array_free(&m);
	ub_array_free(&r);
}
END_TEST

START_TEST(test_shaped_shape)
{
	size_t r, c;
	struct ub_error err;
	ck_assert_int_eq(ub_shape_parse("3,17", &r, &c, &err), 0);
	ck_assert(r == 3 && c == 17);
	static const char *const bad[] = {"", "3", "3,", ",4", "0,4", "4,0", "-1,4",
					  "4x4", "3,4,5", "65536,65536", " 3,4"};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
		ck_assert_msg(ub_shape_parse(bad[k], &r, &c, &err) == UB_USAGE,
			      "'%s' accepted", bad[k]);
}
END_TEST

Suite *ub_shaped_suite(void)
{
	Suite *s = suite_create("shaped");
	TCase *tc = tcase_create("shaped");
	tcase_add_test(tc, test_shaped_sum);
	tcase_add_test(tc, test_shaped_softmax);
	tcase_add_test(tc, test_shaped_norms);
	tcase_add_test(tc, test_shaped_shape);
	tcase_add_test(tc, test_shaped_bwd);
	tcase_add_test(tc, test_shaped_stats);
	tcase_add_test(tc, test_shaped_xent);
	suite_add_tcase(s, tc);
	return s;
}

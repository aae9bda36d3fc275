/* check_torchplan.c — the torch plans of src/torchplan on tiny rows whose
 * results are derived by hand in the comments, the n/a answers, the
 * device table and the caller's elementary functions.  The random rows
 * against a second implementation and against PyTorch are in
 * tests/torchplan.test. */
#include "suites.h"

#include "torch_reduce.h"

#include <string.h>

static struct tp_device dev;
static struct tp_why why;

static void setup(void)
{
	tp_device_default(&dev);
	memset(&why, 0, sizeof why);
}

/* softmax([0, 0]) = [1/2, 1/2]: max 0, expf(0) = 1 exactly, sum 2, 1/2
 * exact; log_softmax: 0 - 0 - logf(2), logf(2) the float nearest
 * ln 2 = 0.6931471805599453: 0x3f317218 (0.693147182464599609375). */
START_TEST(test_softmax_pair)
{
	uint64_t x[2] = { 0, 0 }, out[2];
	struct tp_tensor t = { UB_F32, 1, 2, x };
	ck_assert_int_eq(tp_softmax(&dev, NULL, &t, 0, out, &why), TP_ORDER);
	ck_assert_uint_eq(out[0], 0x3f000000);
	ck_assert_uint_eq(out[1], 0x3f000000);
	ck_assert_int_eq(tp_softmax(&dev, NULL, &t, 1, out, &why), TP_ORDER);
	ck_assert_uint_eq(out[0], 0xbf317218);
	ck_assert_uint_eq(out[1], 0xbf317218);
}
END_TEST

/* One element x = 3 in bf16 (0x4040): softmax 1 (expf(0) / 1),
 * log_softmax (3 - 3) - logf(1) = +0. */
START_TEST(test_softmax_one)
{
	uint64_t x[1] = { 0x4040 }, out[1];
	struct tp_tensor t = { UB_BF16, 1, 1, x };
	tp_softmax(&dev, NULL, &t, 0, out, &why);
	ck_assert_uint_eq(out[0], 0x3f80);
	tp_softmax(&dev, NULL, &t, 1, out, &why);
	ck_assert_uint_eq(out[0], 0x0000);
}
END_TEST

static uint32_t exp_one(uint32_t x, void *ctx)
{
	(void)x;
	++*(int *)ctx;
	return 0x3f800000; /* "expf" = 1 everywhere */
}

/* The caller's expf is the one used, and makes the result exact: with
 * expf = 1, softmax([0, -100]) is [1/2, 1/2] (the stand-in would give
 * e^-100 / (1 + e^-100) for the second). */
START_TEST(test_softmax_math)
{
	int calls = 0;
	struct tp_math m = { exp_one, NULL, NULL, &calls, 1 };
	uint64_t x[2] = { 0, 0xc2c80000 /* -100 */ }, out[2];
	struct tp_tensor t = { UB_F32, 1, 2, x };
	ck_assert_int_eq(tp_softmax(&dev, &m, &t, 0, out, &why), TP_EXACT);
	ck_assert_uint_eq(out[1], 0x3f000000);
	ck_assert_int_ge(calls, 2);
}
END_TEST

/* layer_norm([1, 3], eps 0), 2 columns: RowwiseMomentsCUDAKernel (2 is
 * not a multiple of 4): threads 0 and 1 hold (mean 1, m2 0, n 1) and
 * (3, 0, 1); combine: d = 2, n = 2, r = 1/2, mean = 1 + 2 * 1/2 = 2,
 * m2 = 0 + 1 * 4 * 1/2 = 2; var = 2 / 2 = 1, rstd = 1; out = (x - 2) * 1:
 * -1 and 1.  With weight [2, 2] and bias [0.5, 0.5]: -1.5 and 2.5. */
START_TEST(test_layer_norm_pair)
{
	uint64_t x[2] = { 0x3f800000, 0x40400000 }, out[2], mean, rstd;
	uint64_t w[2] = { 0x40000000, 0x40000000 }, b[2] = { 0x3f000000, 0x3f000000 };
	struct tp_tensor t = { UB_F32, 1, 2, x };
	enum ub_dtype sdt = UB_F64;
	tp_layer_norm_fwd(&dev, NULL, &t, NULL, NULL, 0.0, out, &mean, &rstd, &sdt, &why);
	ck_assert_int_eq(sdt, UB_F32);
	ck_assert_uint_eq(mean, 0x40000000);
	ck_assert_uint_eq(rstd, 0x3f800000);
	ck_assert_uint_eq(out[0], 0xbf800000);
	ck_assert_uint_eq(out[1], 0x3f800000);
	tp_layer_norm_fwd(&dev, NULL, &t, w, b, 0.0, out, NULL, NULL, NULL, &why);
	ck_assert_uint_eq(out[0], 0xbfc00000);
	ck_assert_uint_eq(out[1], 0x40200000);
}
END_TEST

/* layer_norm of f16 [2, 2, 2, 2] (vectorized kernel): thread 0 folds the
 * four 2s online: mean stays 2 (d = 0), s2 stays 0; var 0, rstd =
 * 1/sqrt(0 + eps) with eps = 0.25: 2; out = 2 * 0 = 0 (f16 0x0000);
 * mean 2 and rstd 2 in float32. */
START_TEST(test_layer_norm_flat)
{
	uint64_t x[4] = { 0x4000, 0x4000, 0x4000, 0x4000 }, out[4], mean, rstd;
	struct tp_tensor t = { UB_F16, 1, 4, x };
	tp_layer_norm_fwd(&dev, NULL, &t, NULL, NULL, 0.25, out, &mean, &rstd, NULL, &why);
	ck_assert_uint_eq(mean, 0x40000000);
	ck_assert_uint_eq(rstd, 0x40000000);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(out[i], 0);
}
END_TEST

/* sum([2^24, 1, 1]) in f32, one row: dim0 = 3 is not vectorized,
 * block_width = last_pow2(3) = 2 lanes, step 2.  Lane 0 adds elements 0
 * and 2 into accumulators 0 and 1 (0 + 2^24, 0 + 1) and combines them:
 * 2^24 + 1 rounds to even, 2^24; lane 1 holds 1; the shfl_down step adds
 * lane 1: 2^24 + 1 = 2^24 again.  PyTorch's order gives 16777216 where
 * the exact sum 16777218 is a float: the test shows the order, not only
 * the arithmetic.  sum([1, 2, 3]) = 6 exactly. */
START_TEST(test_sum_order)
{
	uint64_t x[3] = { 0x4b800000, 0x3f800000, 0x3f800000 }, out[1];
	struct tp_tensor t = { UB_F32, 1, 3, x };
	ck_assert_int_eq(tp_sum_lastdim(&dev, &t, out, &why), TP_EXACT);
	ck_assert_uint_eq(out[0], 0x4b800000);
	uint64_t y[3] = { 0x3f800000, 0x40000000, 0x40400000 };
	t.bits = y;
	tp_sum_lastdim(&dev, &t, out, &why);
	ck_assert_uint_eq(out[0], 0x40c00000);
}
END_TEST

/* cross_entropy of logits [[0, 0], [0, 0]] with targets [1, -100]:
 * 'none' gives ln 2 (0x3f317218) and 0 for the ignored row; 'mean' ln 2
 * over one counted row. */
START_TEST(test_cross_entropy)
{
	uint64_t x[4] = { 0, 0, 0, 0 }, out[2];
	int64_t tg[2] = { 1, -100 };
	struct tp_tensor t = { UB_F32, 2, 2, x };
	tp_cross_entropy(&dev, NULL, &t, tg, 0, out, &why);
	ck_assert_uint_eq(out[0], 0x3f317218);
	ck_assert_uint_eq(out[1], 0);
	tp_cross_entropy(&dev, NULL, &t, tg, 1, out, &why);
	ck_assert_uint_eq(out[0], 0x3f317218);
	tg[0] = 2;
	ck_assert_int_eq(tp_cross_entropy(&dev, NULL, &t, tg, 1, out, &why), TP_NA);
	ck_assert_ptr_nonnull(strstr(why.msg, "target 2"));
}
END_TEST

/* What is not modelled says n/a and why, and writes nothing. */
START_TEST(test_na)
{
	uint64_t x[2] = { 0, 0 }, out[2] = { 7, 7 };
	struct tp_tensor t = { UB_F64, 1, 2, x };
	ck_assert_int_eq(tp_softmax(&dev, NULL, &t, 0, out, &why), TP_NA);
	ck_assert_ptr_nonnull(strstr(why.msg, "f64"));
	ck_assert_uint_eq(out[0], 7);
	t.dt = UB_F32;
	dev.warp_size = 64;
	ck_assert_int_eq(tp_softmax(&dev, NULL, &t, 0, out, &why), TP_NA);
	ck_assert_ptr_nonnull(strstr(why.msg, "warp size 64"));
	tp_device_default(&dev);
	t.cols = 1;
	ck_assert_int_eq(tp_sum_lastdim(&dev, &t, out, &why), TP_NA);
	ck_assert_int_eq(tp_rms_norm_fwd(&dev, NULL, &t, NULL, -1, out, &why), TP_NA);
	ck_assert_ptr_nonnull(strstr(why.msg, "rms_norm"));
	ck_assert_int_eq(tp_layer_norm_bwd(&dev, &t, &t, x, x, NULL, out, NULL, NULL, &why),
			 TP_NA);
	ck_assert_uint_eq(out[0], 7);
	ck_assert_str_eq(tp_status_name(TP_NA), "n/a");
}
END_TEST

START_TEST(test_devices)
{
	struct tp_device d;
	struct ub_error err;
	ck_assert_int_eq(tp_device_find("h200", &d, &err), 0);
	ck_assert_int_eq(d.sm_count, 132);
	ck_assert_int_eq(d.warp_size, 32);
	ck_assert_int_eq(d.max_threads_per_block, 1024);
	ck_assert_int_eq(tp_device_find("a100", &d, &err), UB_USAGE);
	ck_assert_ptr_nonnull(strstr(err.msg, "h100, h200"));
}
END_TEST

Suite *ub_torchplan_suite(void)
{
	Suite *s = suite_create("torchplan");
	TCase *tc = tcase_create("torchplan");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_softmax_pair);
	tcase_add_test(tc, test_softmax_one);
	tcase_add_test(tc, test_softmax_math);
	tcase_add_test(tc, test_layer_norm_pair);
	tcase_add_test(tc, test_layer_norm_flat);
	tcase_add_test(tc, test_sum_order);
	tcase_add_test(tc, test_cross_entropy);
	tcase_add_test(tc, test_na);
	tcase_add_test(tc, test_devices);
	suite_add_tcase(s, tc);
	return s;
}

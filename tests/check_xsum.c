/* check_xsum.c — the exact sum (src/run/xsum.c) against MPFR and against
 * itself in other orders.
 *
 * Expected values: MPFR with 2400 bits, which holds any sum of up to 2^64
 * finite doubles exactly (each is an integer multiple of 2^-1074 below
 * 2^1024, so a sum stays below 2^2162 in units of 2^-1074), rounded once
 * to 53 bits by mpfr_set / mpfr_div_ui; the subnormal cases are derived by
 * hand in their comments. */
#include "suites.h"

#include "xsum.h"

#include <float.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static uint64_t next(void) /* xorshift64 */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A random finite double >= 0 over every binade, subnormals included. */
static double term(void)
{
	uint64_t u = next() & ((UINT64_C(1) << 63) - 1);
	if ((u >> 52) == 0x7ff)
		u &= ~(UINT64_C(1) << 62); /* not inf/NaN */
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

/* sum of t[0..n-1] / div, rounded once (MPFR). */
static double mpfr_mean(const double *t, size_t n, unsigned long div)
{
	mpfr_t s, q;
	mpfr_init2(s, 2400);
	mpfr_init2(q, 53);
	mpfr_set_zero(s, 1);
	for (size_t i = 0; i < n; i++)
		UB_ASSERT(mpfr_add_d(s, s, t[i], MPFR_RNDN) == 0, "term %zu: the sum rounded", i);
	mpfr_div_ui(q, s, div, MPFR_RNDN);
	double d = mpfr_get_d(q, MPFR_RNDN);
	mpfr_clears(s, q, (mpfr_ptr)0);
	return d;
}

/* Terms of several kinds (_i): every binade; small errors around 0.5 ulp
 * (the usual case); many equal terms whose sum carries across digits. */
static double kind_term(int kind)
{
	switch (kind) {
	case 0:
		return term();
	case 1:
		return ldexp((double)(next() >> 11), -53 - (int)(next() % 8));
	default:
		return 0x1.fffffffffffffp-1;
	}
}

START_TEST(test_xsum_mpfr)
{
	enum { N = 20000 };
	static double t[N];
	struct ub_xsum x, a, b;
	rng = 0x5eed00a1 + (uint64_t)_i;
	memset(&x, 0, sizeof x);
	for (int i = 0; i < N; i++) {
		t[i] = kind_term(_i);
		ub_xsum_add(&x, t[i]);
	}
	ub_xsum_norm(&x);
	static const unsigned long divs[] = {1, 3, 7, 10, 20000, 4294967291ul};
	for (size_t k = 0; k < sizeof divs / sizeof divs[0]; k++) {
		double got = ub_xsum_div(&x, divs[k]), want = mpfr_mean(t, N, divs[k]);
		if (fabs(want) < DBL_MIN)
			continue; /* mpfr_get_d would round a second time */
		ck_assert_msg(got == want, "kind %d: sum / %lu = %a, MPFR %a", _i,
			      divs[k], got, want);
	}
	/* any order, in two parts merged either way round: the same sum */
	for (int i = N - 1; i > 0; i--) {
		int j = (int)(next() % (uint64_t)(i + 1));
		double tmp = t[i];
		t[i] = t[j];
		t[j] = tmp;
	}
	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	for (int i = 0; i < N; i++)
		ub_xsum_add(i % 3 ? &a : &b, t[i]);
	ub_xsum_norm(&a);
	ub_xsum_norm(&b);
	struct ub_xsum ab = a, ba = b;
	ub_xsum_merge(&ab, &b);
	ub_xsum_merge(&ba, &a);
	ck_assert(ub_xsum_equal(&ab, &x) && ub_xsum_equal(&ba, &x));
	/* the text reads back as the same sum */
	char buf[UB_XSUM_TEXT];
	struct ub_xsum back;
	ub_xsum_format(&x, buf, sizeof buf);
	ck_assert_int_eq(ub_xsum_parse(buf, &back), 0);
	ck_assert_msg(ub_xsum_equal(&back, &x), "%s read back differs", buf);
}
END_TEST

/* Subnormal quotients, by hand: 3 * 2^-1074 / 2 = 1.5 * 2^-1074, a tie
 * between 1 and 2 units: to even, 2 units; / 4 = 0.75 units: 1 unit;
 * / 8 = 0.375 units: 0; 2^-1074 / 2: a tie between 0 and 1 unit: 0. */
START_TEST(test_xsum_subnormal)
{
	struct ub_xsum x;
	double u = 0x1p-1074;
	memset(&x, 0, sizeof x);
	for (int i = 0; i < 3; i++)
		ub_xsum_add(&x, u);
	ub_xsum_norm(&x);
	ck_assert(ub_xsum_div(&x, 1) == 3 * u);
	ck_assert(ub_xsum_div(&x, 2) == 2 * u);
	ck_assert(ub_xsum_div(&x, 4) == u);
	ck_assert(ub_xsum_div(&x, 8) == 0);
	memset(&x, 0, sizeof x);
	ub_xsum_add(&x, u);
	ub_xsum_norm(&x);
	ck_assert(ub_xsum_div(&x, 2) == 0);
	/* the largest double twice: 2^1025 - 2^972 rounds to +inf; / 2 is
	 * the largest double again, exactly */
	memset(&x, 0, sizeof x);
	ub_xsum_add(&x, DBL_MAX);
	ub_xsum_add(&x, DBL_MAX);
	ub_xsum_norm(&x);
	ck_assert(isinf(ub_xsum_div(&x, 1)));
	ck_assert(ub_xsum_div(&x, 2) == DBL_MAX);
}
END_TEST

/* inf, NaN and negative terms set the flags; -0 and +0 add nothing; the
 * carries wait for ub_xsum_norm no longer than UB_XSUM_PENDING_MAX adds. */
START_TEST(test_xsum_special)
{
	struct ub_xsum x, y;
	char buf[UB_XSUM_TEXT];
	memset(&x, 0, sizeof x);
	ub_xsum_add(&x, -0.0);
	ub_xsum_add(&x, 0.0);
	ub_xsum_norm(&x);
	ub_xsum_format(&x, buf, sizeof buf);
	ck_assert_str_eq(buf, "0");
	ck_assert(ub_xsum_div(&x, 5) == 0);
	ub_xsum_add(&x, 1.5);
	ub_xsum_add(&x, INFINITY);
	ub_xsum_norm(&x);
	ck_assert(isinf(ub_xsum_div(&x, 2)));
	ub_xsum_format(&x, buf, sizeof buf);
	/* 1.5 = 3 * 2^-1: digits 0x3 at 2^-1, word-aligned: 2^-1 is bit
	 * 1073 = 32 * 33 + 17 of the integer, so the lowest digit is 33,
	 * exponent 32 * 33 - 1074 = -18, and 3 * 2^17 = 0x60000 */
	ck_assert_str_eq(buf, "0x60000p-18 inf");
	ck_assert_int_eq(ub_xsum_parse(buf, &y), 0);
	ck_assert(ub_xsum_equal(&x, &y));
	ub_xsum_add(&x, -1.0);
	ck_assert(isnan(ub_xsum_div(&x, 1)));
	ub_xsum_add(&y, NAN);
	ck_assert(isnan(ub_xsum_div(&y, 1)));
	static const char *const bad[] = {"", "0x", "0x0p-1074", "0x1p-1073", "0x1",
					  "0xgp-1074", "1p-1074", "0x1p-1074 zz",
					  "0x1p-1074 nan inf", "0x1p1200"};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
		ck_assert_msg(ub_xsum_parse(bad[k], &y) == -1, "'%s' accepted", bad[k]);
	/* the carries: 2^31 - 2 adds pending, then 3 adds of 2^-1042 (digit
	 * 1 of word 1 each) cross the limit, normalize, and the sum is 3
	 * units of 2^-1042 */
	memset(&x, 0, sizeof x);
	x.pending = UB_XSUM_PENDING_MAX - 2;
	for (int i = 0; i < 3; i++)
		ub_xsum_add(&x, 0x1p-1042);
	ck_assert_uint_eq(x.pending, 1);
	ub_xsum_norm(&x);
	ck_assert(ub_xsum_div(&x, 3) == 0x1p-1042);
}
END_TEST

/* The accumulator by exponent (struct ub_xsum_acc), flushed, holds the
 * same sum as ub_xsum_add of the same terms (checked against MPFR above):
 * every kind of term, flushed more than once into the same sum; the
 * special terms set the same flags; many of the largest double fill a
 * bucket past 64 bits (2^20 * (2^53 - 1) significands), and its sum,
 * 2^20 * DBL_MAX, is 2^20 times the sum of one. */
START_TEST(test_xsum_acc)
{
	enum { N = 20000 };
	struct ub_xsum want, got, one;
	struct ub_xsum_acc *a = calloc(1, sizeof *a);
	ck_assert_ptr_nonnull(a);
	rng = 0xacc0 + (uint64_t)_i;
	memset(&want, 0, sizeof want);
	memset(&got, 0, sizeof got);
	for (int i = 0; i < N; i++) {
		double t = kind_term(_i);
		ub_xsum_add(&want, t);
		ub_xsum_acc_add(a, t);
		if (i == N / 2)
			ub_xsum_acc_flush(&got, a);
	}
	ub_xsum_norm(&want);
	ub_xsum_acc_flush(&got, a);
	ck_assert(ub_xsum_equal(&got, &want));
	static const double special[] = {-0.0, 0.0, INFINITY, -1.0, NAN};
	for (size_t k = 0; k < sizeof special / sizeof special[0]; k++) {
		ub_xsum_add(&want, special[k]);
		ub_xsum_acc_add(a, special[k]);
		ub_xsum_norm(&want);
		ub_xsum_acc_flush(&got, a);
		ck_assert_msg(ub_xsum_equal(&got, &want), "after %a", special[k]);
	}
	memset(&got, 0, sizeof got);
	memset(&one, 0, sizeof one);
	for (int i = 0; i < 1 << 20; i++)
		ub_xsum_acc_add(a, DBL_MAX);
	ub_xsum_acc_flush(&got, a);
	ub_xsum_add(&one, DBL_MAX);
	ub_xsum_norm(&one);
	ck_assert(ub_xsum_div(&got, 1 << 20) == DBL_MAX);
	ck_assert(isinf(ub_xsum_div(&got, (1 << 20) - 1)));
	for (int b = 0; b < 20; b++)
		ub_xsum_merge(&one, &one); /* doubles */
	ck_assert(ub_xsum_equal(&got, &one));
	free(a);
}
END_TEST

Suite *ub_xsum_suite(void)
{
	Suite *s = suite_create("xsum");
	TCase *tc = tcase_create("xsum");
	tcase_add_loop_test(tc, test_xsum_mpfr, 0, 3);
	tcase_add_test(tc, test_xsum_subnormal);
	tcase_add_test(tc, test_xsum_special);
	tcase_add_loop_test(tc, test_xsum_acc, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

/* check_metrics.c — unit tests of the metrics module (src/run/metrics.c).
 *
 * Every expected value is derived by hand from the format parameters
 * (p = precision with the hidden bit, emin, emax) and the IEEE 754
 * encodings; each table row says how.  Spacings: f32 p=24 emin=-126
 * emax=127, f16 p=11 emin=-14 emax=15, bf16 p=8 emin=-126 emax=127,
 * f64 p=53 emin=-1022 emax=1023. */
#include "suites.h"

#include "metrics.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- ulp */

static const struct {
	enum ub_dtype dt;
	double v, ulp;
} ulp_cases[] = {
	/* f32: subnormal spacing 2^(emin-p+1) = 2^(-126-24+1) = 2^-149 */
	{UB_F32, 0.0, 0x1p-149},
	{UB_F32, -0.0, 0x1p-149},
	{UB_F32, 0x1p-149, 0x1p-149},        /* smallest subnormal */
	{UB_F32, 0x1.fffffcp-127, 0x1p-149}, /* largest subnormal */
	{UB_F32, 1e-300, 0x1p-149},          /* far below the format */
	{UB_F32, 0x1p-126, 0x1p-149},  /* 2^emin: below it are subnormals,
					  same spacing */
	{UB_F32, 0x1p-125, 0x1p-149},  /* 2^(e-p) = 2^(-125-24) */
	{UB_F32, 1.0, 0x1p-24},        /* power of two: spacing below */
	{UB_F32, -1.0, 0x1p-24},
	{UB_F32, 0x1.000002p0, 0x1p-23}, /* 1+2^-23: 2^(0-24+1) */
	{UB_F32, 1.5, 0x1p-23},
	{UB_F32, 0x1.fffffep127, 0x1p104}, /* FLT_MAX: 2^(127-23) */
	{UB_F32, 0x1p127, 0x1p103},        /* 2^emax: spacing below */
	{UB_F32, 0x1p128, 0x1p104},        /* beyond: kept 2^(emax-p+1) */
	{UB_F32, 0x1p200, 0x1p104},
	{UB_F32, INFINITY, 0x1p104},
	/* f16: 2^(-14-11+1) = 2^-24 */
	{UB_F16, 0.0, 0x1p-24},
	{UB_F16, 0x1p-14, 0x1p-24},
	{UB_F16, 1.0, 0x1p-11},
	{UB_F16, 1.5, 0x1p-10},
	{UB_F16, 65504.0, 0x1p5}, /* 0x1.ffcp15: 2^(15-10) */
	{UB_F16, 65536.0, 0x1p5},
	/* bf16: 2^(-126-8+1) = 2^-133 */
	{UB_BF16, 0.0, 0x1p-133},
	{UB_BF16, 1.0, 0x1p-8},
	{UB_BF16, 1.5, 0x1p-7},
	{UB_BF16, 0x1.fep127, 0x1p120}, /* 2^(127-7) */
	/* f64: 2^(-1022-53+1) = 2^-1074 */
	{UB_F64, 0.0, 0x1p-1074},
	{UB_F64, 0x1p-1074, 0x1p-1074},
	{UB_F64, 1.0, 0x1p-53},
	{UB_F64, 1.5, 0x1p-52},
	{UB_F64, DBL_MAX, 0x1p971}, /* 2^(1023-52) */
	{UB_F64, INFINITY, 0x1p971},
};

START_TEST(test_ulp)
{
	double got = ub_ulp(ulp_cases[_i].dt, ulp_cases[_i].v);
	ck_assert_msg(got == ulp_cases[_i].ulp,
		      "%s ulp(%a) = %a, expected %a",
		      ub_dtypes[ulp_cases[_i].dt].name, ulp_cases[_i].v, got,
		      ulp_cases[_i].ulp);
}
END_TEST

START_TEST(test_ulp_nan)
{
	ck_assert(isnan(ub_ulp(UB_F32, NAN)));
}
END_TEST

/* ---------------------------------------------------------- ulp_error */

static const struct {
	enum ub_dtype dt;
	uint64_t y, cr;
	double hi, lo;
	int ret;  /* 1: NaN/inf disagreement */
	double err;
} err_cases[] = {
	/* y=1.0 vs 1+2^-25: |diff| 2^-25, ulp(v) = 2^-23 -> 0.25 */
	{UB_F32, 0x3f800000, 0x3f800000, 0x1p0 + 0x1p-25, 0, 0, 0.25},
	/* y=1.0 vs 1-2^-26: ulp(v) = 2^-24 -> 0.25 */
	{UB_F32, 0x3f800000, 0x3f800000, 0x1p0 - 0x1p-26, 0, 0, 0.25},
	/* y=1+2^-23 vs exactly 1: ulp(1) = 2^-24 (below) -> 2 */
	{UB_F32, 0x3f800001, 0x3f800000, 1.0, 0, 0, 2.0},
	/* v = 1 + 2^-60 (hi 1, lo above): not a power of two, ulp 2^-23;
	 * y=1+2^-23: (2^-23 - 2^-60) / 2^-23 = 1 - 2^-37 */
	{UB_F32, 0x3f800001, 0x3f800001, 1.0, 0x1p-60, 0, 1 - 0x1p-37},
	/* smallest subnormal vs exact 0: ulp(0) = 2^-149 -> 1 */
	{UB_F32, 0x00000001, 0x00000000, 0.0, 0, 0, 1.0},
	/* same inf, any NaN vs any NaN: agreement, 0 */
	{UB_F32, 0x7f800000, 0x7f800000, INFINITY, 0, 0, 0},
	{UB_F32, 0xff800000, 0xff800000, -INFINITY, 0, 0, 0},
	{UB_F32, 0x7fc00000, 0x7fffffff, NAN, 0, 0, 0},
	{UB_F32, 0xffc00000, 0x7fc00000, NAN, 0, 0, 0},
	/* disagreements, counted apart */
	{UB_F32, 0x7fc00000, 0x3fc00000, 1.5, 0, 1, 0},   /* NaN vs 1.5 */
	{UB_F32, 0x3f800000, 0x7fc00000, NAN, 0, 1, 0},   /* 1 vs NaN */
	{UB_F32, 0x7f800000, 0xff800000, -INFINITY, 0, 1, 0}, /* +inf/-inf */
	{UB_F32, 0x7f800000, 0x7f7fffff, 0x1.fffffep127, 0, 1, 0},
	{UB_F32, 0x7f800000, 0x7fc00000, NAN, 0, 1, 0},
	/* finite y = FLT_MAX against an overflowed exact 2^128 (cr = inf):
	 * (2^128 - (2^128 - 2^104)) / 2^104 = 1 */
	{UB_F32, 0x7f7fffff, 0x7f800000, 0x1p128, 0, 0, 1.0},
	/* f16 y=1 vs 1+2^-12: ulp 2^-10 -> 0.25 */
	{UB_F16, 0x3c00, 0x3c00, 0x1p0 + 0x1p-12, 0, 0, 0.25},
	{UB_F16, 0x7e00, 0x7c00, INFINITY, 0, 1, 0},
	/* bf16 y=1 vs 1+2^-9: ulp 2^-7 -> 0.25 */
	{UB_BF16, 0x3f80, 0x3f80, 0x1p0 + 0x1p-9, 0, 0, 0.25},
	/* f64 y=1 vs 1 + 2^-55 (hi 1, lo 2^-55): ulp above 2^-52 -> 1/8 */
	{UB_F64, 0x3ff0000000000000, 0x3ff0000000000000, 1.0, 0x1p-55, 0,
	 0.125},
	/* f64 y=1 vs 1 - 2^-55: ulp below 2^-53 -> 1/4 */
	{UB_F64, 0x3ff0000000000000, 0x3ff0000000000000, 1.0, -0x1p-55, 0,
	 0.25},
	/* f64 y=DBL_MAX vs v=-DBL_MAX: 2*(2-2^-52)*2^1023 / 2^971
	 * = 2^54 - 2 (the difference itself overflows a double) */
	{UB_F64, 0x7fefffffffffffff, 0xffefffffffffffff, -DBL_MAX, 0, 0,
	 0x1p54 - 2},
};

START_TEST(test_ulp_error)
{
	const struct ub_exact v = {err_cases[_i].hi, err_cases[_i].lo};
	double e = -1;
	int ret = ub_ulp_error(err_cases[_i].dt, err_cases[_i].y,
			       err_cases[_i].cr, &v, &e);
	ck_assert_msg(ret == err_cases[_i].ret, "row %d: y=0x%08llx "
		      "cr=0x%08llx v=%a%+a: returned %d, expected %d", _i,
		      (unsigned long long)err_cases[_i].y,
		      (unsigned long long)err_cases[_i].cr, v.hi, v.lo, ret,
		      err_cases[_i].ret);
	if (ret == 0)
		ck_assert_msg(e == err_cases[_i].err, "row %d: y=0x%08llx "
			      "v=%a%+a: error %a, expected %a", _i,
			      (unsigned long long)err_cases[_i].y, v.hi, v.lo,
			      e, err_cases[_i].err);
	else
		ck_assert_msg(e == -1, "row %d: err written on disagreement",
			      _i);
}
END_TEST

/* ------------------------------------------------------ same, distance */

static const struct {
	enum ub_dtype dt;
	uint64_t a, b;
	int same;
	uint64_t dist;
} dist_cases[] = {
	{UB_F32, 0x00000000, 0x80000000, 0, 1},      /* +0, -0 */
	{UB_F32, 0x3f800000, 0x3f800001, 0, 1},      /* 1, nextafter */
	{UB_F32, 0x3f800000, 0x3f7fffff, 0, 1},      /* 1, below */
	{UB_F32, 0x80000001, 0x00000001, 0, 3},      /* -minsub .. +minsub:
							-minsub,-0,+0,+minsub */
	{UB_F32, 0x3f800000, 0x3f800000, 1, 0},
	{UB_F32, 0x7fc00000, 0x7fffffff, 1, 0},      /* NaN, NaN */
	{UB_F32, 0x7fc00000, 0x3f800000, 0, UINT64_MAX}, /* NaN, 1 */
	{UB_F32, 0x3f800000, 0xffc00000, 0, UINT64_MAX},
	/* -inf .. +inf: 0x7f800000 steps each side of zero, +1 for -0/+0 */
	{UB_F32, 0xff800000, 0x7f800000, 0, 0xff000001},
	{UB_F32, 0xbf800000, 0x3f800000, 0, 0x7f000001}, /* -1 .. 1 */
	{UB_F16, 0x0000, 0x8000, 0, 1},
	{UB_F16, 0x8001, 0x0001, 0, 3},
	{UB_F16, 0xfc00, 0x7c00, 0, 0xf801},
	{UB_F16, 0x7e00, 0x7c01, 1, 0},              /* two NaNs */
	{UB_BF16, 0x3f80, 0x3f81, 0, 1},
	{UB_BF16, 0xff80, 0x7f80, 0, 0xff01},
	{UB_F64, 0x0000000000000000, 0x8000000000000000, 0, 1},
	{UB_F64, 0x8000000000000001, 0x0000000000000001, 0, 3},
	{UB_F64, 0xfff0000000000000, 0x7ff0000000000000, 0,
	 0xffe0000000000001},
	{UB_F64, 0x7ff8000000000000, 0x3ff0000000000000, 0, UINT64_MAX},
};

START_TEST(test_distance)
{
	enum ub_dtype dt = dist_cases[_i].dt;
	uint64_t a = dist_cases[_i].a, b = dist_cases[_i].b;
	ck_assert_msg(ub_same(dt, a, b) == dist_cases[_i].same,
		      "%s same(0x%llx, 0x%llx)", ub_dtypes[dt].name,
		      (unsigned long long)a, (unsigned long long)b);
	ck_assert_msg(ub_same(dt, b, a) == dist_cases[_i].same,
		      "%s same(0x%llx, 0x%llx)", ub_dtypes[dt].name,
		      (unsigned long long)b, (unsigned long long)a);
	uint64_t d = ub_distance(dt, a, b), e = ub_distance(dt, b, a);
	ck_assert_msg(d == dist_cases[_i].dist && e == d,
		      "%s distance(0x%llx, 0x%llx) = 0x%llx / 0x%llx, "
		      "expected 0x%llx", ub_dtypes[dt].name,
		      (unsigned long long)a, (unsigned long long)b,
		      (unsigned long long)d, (unsigned long long)e,
		      (unsigned long long)dist_cases[_i].dist);
}
END_TEST

/* ub_ordered maps -0 to -1 and +0 to 0, and inverts. */
START_TEST(test_ordered)
{
	static const struct {
		enum ub_dtype dt;
		uint64_t bits;
		int64_t ord;
	} c[] = {
		{UB_F32, 0x00000000, 0},
		{UB_F32, 0x80000000, -1},
		{UB_F32, 0x80000001, -2},
		{UB_F32, 0x3f800000, 0x3f800000},
		{UB_F32, 0xbf800000, -0x3f800000 - 1},
		{UB_F16, 0xfc00, -0x7c00 - 1},
		{UB_F64, 0xfff0000000000000, -0x7ff0000000000000 - 1},
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
		int64_t o = ub_ordered(c[i].dt, c[i].bits);
		ck_assert_msg(o == c[i].ord, "ordered(0x%llx) = %lld",
			      (unsigned long long)c[i].bits, (long long)o);
		ck_assert_msg(ub_from_ordered(c[i].dt, o) == c[i].bits,
			      "from_ordered(%lld)", (long long)o);
	}
}
END_TEST

/* ---------------------------------------------------------------- stats */

/* f32 results, hand made; per row the error and the counters it feeds. */
static const struct {
	uint32_t y, cr, torch;
	double hi, lo;
} stat_rows[] = {
	/* 0: err 2^-25/2^-23 = 0.25; torch same */
	{0x3f800000, 0x3f800000, 0x3f800000, 0x1p0 + 0x1p-25, 0},
	/* 1: 1+2^-23 vs exact 1: err 2 (ulp below 1); cr mismatch; torch
	 *    0x3f800002: mismatch, distance 1 */
	{0x3f800001, 0x3f800000, 0x3f800002, 1.0, 0},
	/* 2: NaN vs 1.5: nan_mismatch, cr mismatch; torch NaN: same */
	{0x7fc00000, 0x3fc00000, 0x7fffffff, 1.5, 0},
	/* 3: inf vs inf: err 0; torch FLT_MAX: mismatch, distance 1 */
	{0x7f800000, 0x7f800000, 0x7f7fffff, INFINITY, 0},
	/* 4: 2 vs 2+2^-23: ulp 2^-22, err 0.5; torch 1.875 = 0x3ff00000:
	 *    distance 0x40000000 - 0x3ff00000 = 0x100000 */
	{0x40000000, 0x40000000, 0x3ff00000, 0x1p1 + 0x1p-23, 0},
	/* 5: 1 vs 1+2^-26: err 0.125; torch NaN: mismatch, no distance */
	{0x3f800000, 0x3f800000, 0x7fc00000, 0x1p0 + 0x1p-26, 0},
	/* 6: err 2 again (a later tie: worst stays 1); torch same */
	{0x3f800001, 0x3f800001, 0x3f800001, 1.0, 0},
};
#define NROWS (sizeof stat_rows / sizeof stat_rows[0])

static void fill(struct ub_array *y, struct ub_array *cr, struct ub_array *t,
		 struct ub_exact *ex)
{
	ck_assert_int_eq(ub_array_alloc(y, UB_F32, NROWS), 0);
	ck_assert_int_eq(ub_array_alloc(cr, UB_F32, NROWS), 0);
	ck_assert_int_eq(ub_array_alloc(t, UB_F32, NROWS), 0);
	for (size_t i = 0; i < NROWS; i++) {
		ub_array_set(y, i, stat_rows[i].y);
		ub_array_set(cr, i, stat_rows[i].cr);
		ub_array_set(t, i, stat_rows[i].torch);
		ex[i].hi = stat_rows[i].hi;
		ex[i].lo = stat_rows[i].lo;
	}
}

START_TEST(test_stats)
{
	struct ub_array y, cr, t;
	struct ub_exact ex[NROWS];
	struct ub_stats st;
	fill(&y, &cr, &t, ex);
	memset(&st, 0x55, sizeof st); /* must be reset */
	ub_stats_compute(&y, &cr, ex, &t, &st);
	ck_assert_uint_eq(st.n, 7);
	ck_assert_uint_eq(st.ncomparable, 6);
	ck_assert_msg(st.max_ulp == 2.0, "max_ulp %a", st.max_ulp);
	ck_assert_uint_eq(st.worst, 1);
	/* 0.25 + 2 + 0 + 0.5 + 0.125 + 2 = 4.875; / 6 = 0.8125 */
	ck_assert_msg(ub_xsum_div(&st.sum_ulp, 1) == 4.875, "sum %a",
		      ub_xsum_div(&st.sum_ulp, 1));
	ck_assert_msg(ub_stats_mean(&st) == 0.8125, "mean %a",
		      ub_stats_mean(&st));
	ck_assert_uint_eq(st.cr_mismatch, 2);    /* rows 1, 2 */
	ck_assert_uint_eq(st.nan_mismatch, 1);   /* row 2 */
	ck_assert_uint_eq(st.torch_mismatch, 4); /* rows 1, 3, 4, 5 */
	ck_assert_uint_eq(st.torch_max_dist, 0x100000);
	/* [0]: row 3; (0,0.5]: rows 0, 4, 5; (1,2]: rows 1, 6 */
	static const size_t hist[UB_HIST_BINS] = {1, 3, 0, 2, 0, 0, 0, 0};
	for (int b = 0; b < UB_HIST_BINS; b++)
		ck_assert_msg(st.hist[b] == hist[b], "hist %s: %zu, expected "
			      "%zu", ub_hist_labels[b], st.hist[b], hist[b]);

	ub_stats_compute(&y, &cr, ex, NULL, &st);
	ck_assert_uint_eq(st.torch_mismatch, 0);
	ck_assert_uint_eq(st.torch_max_dist, 0);
	ck_assert_uint_eq(st.cr_mismatch, 2);
	ub_array_free(&y);
	ub_array_free(&cr);
	ub_array_free(&t);
}
END_TEST

/* Bin edges: y = 1.0 against v = 1 + k*2^-23 (ulp 2^-23 above 1) has
 * error exactly k; k = 2^-40 goes through lo (hi 1, lo 2^-63). */
static const struct {
	double hi, lo;
	int bin;
} bin_cases[] = {
	{1.0, 0x1p-63, 1},                /* 2^-40 */
	{0x1p0 + 0x1p-24, 0, 1},          /* 0.5 */
	{0x1p0 + 0x1.8p-24, 0, 2},        /* 0.75 */
	{0x1p0 + 0x1p-23, 0, 2},          /* 1 */
	{0x1p0 + 0x1p-22, 0, 3},          /* 2 */
	{0x1p0 + 0x1p-21, 0, 4},          /* 4 */
	{0x1p0 + 0x1.2p-21, 0, 5},        /* 4.5 */
	{0x1p0 + 0x1p-19, 0, 5},          /* 16 */
	{0x1p0 + 0x1p-15, 0, 6},          /* 256 */
	{0x1p0 + 0x101p-23, 0, 7},        /* 257 */
};

START_TEST(test_hist_bins)
{
	struct ub_array y, cr;
	struct ub_stats st;
	struct ub_exact ex = {bin_cases[_i].hi, bin_cases[_i].lo};
	ck_assert_int_eq(ub_array_alloc(&y, UB_F32, 1), 0);
	ck_assert_int_eq(ub_array_alloc(&cr, UB_F32, 1), 0);
	ub_array_set(&y, 0, 0x3f800000);
	ub_array_set(&cr, 0, 0x3f800000);
	ub_stats_compute(&y, &cr, &ex, NULL, &st);
	for (int b = 0; b < UB_HIST_BINS; b++)
		ck_assert_msg(st.hist[b] == (b == bin_cases[_i].bin),
			      "v=%a%+a err %a: bin %s holds %zu", ex.hi, ex.lo,
			      st.max_ulp, ub_hist_labels[b], st.hist[b]);
	ub_array_free(&y);
	ub_array_free(&cr);
}
END_TEST

START_TEST(test_empty_stats)
{
	struct ub_array y, cr;
	struct ub_stats st;
	ck_assert_int_eq(ub_array_alloc(&y, UB_F16, 0), 0);
	ck_assert_int_eq(ub_array_alloc(&cr, UB_F16, 0), 0);
	ub_stats_compute(&y, &cr, NULL, NULL, &st);
	ck_assert_uint_eq(st.n, 0);
	ck_assert_uint_eq(st.ncomparable, 0);
	ck_assert_msg(ub_stats_mean(&st) == 0, "mean of nothing");
	ub_array_free(&y);
	ub_array_free(&cr);
}
END_TEST

/* Statistics of two parts merged: y = 1.0 everywhere against exact
 * values 1 (error 0) except error 2 (v = 1 + 2^-22, ulp 2^-23) at
 * element 10 and element CHUNK + 5, and error 3 at CHUNK + 7 when
 * `bigger` (_i): worst is the first index of the max (10, or CHUNK + 7),
 * whichever part holds it; the two parts [0, CHUNK) and [CHUNK, n),
 * measured apart with their run offsets, merge into the same figures in
 * either order (a tie between parts goes to the lower run index). */
START_TEST(test_stats_chunks)
{
	const size_t n = UB_STATS_CHUNK + 100, k1 = 10, k2 = UB_STATS_CHUNK + 5;
	struct ub_array y, cr, y1, cr1, y2, cr2;
	struct ub_exact *ex = calloc(n, sizeof *ex);
	struct ub_stats st, a, b, m;
	ck_assert_ptr_nonnull(ex);
	ck_assert_int_eq(ub_array_alloc(&y, UB_F32, n), 0);
	ck_assert_int_eq(ub_array_alloc(&cr, UB_F32, n), 0);
	for (size_t i = 0; i < n; i++) {
		ub_array_set(&y, i, 0x3f800000);
		ub_array_set(&cr, i, 0x3f800000);
		ex[i].hi = 1.0;
	}
	ex[k1].hi = ex[k2].hi = 0x1p0 + 0x1p-22;
	if (_i)
		ex[UB_STATS_CHUNK + 7].hi = 0x1p0 + 0x1.8p-22;
	ub_stats_compute(&y, &cr, ex, NULL, &st);
	ck_assert_msg(st.max_ulp == (_i ? 3.0 : 2.0), "max %a", st.max_ulp);
	ck_assert_uint_eq(st.worst, _i ? UB_STATS_CHUNK + 7 : k1);
	ck_assert_uint_eq(st.ncomparable, n);
	ck_assert_msg(ub_xsum_div(&st.sum_ulp, 1) == (_i ? 7.0 : 4.0), "sum %a",
		      ub_xsum_div(&st.sum_ulp, 1));
	/* by hand: [0, CHUNK) and [CHUNK, n) */
	y1 = y, cr1 = cr, y2 = y, cr2 = cr;
	y1.n = cr1.n = UB_STATS_CHUNK;
	y2.n = cr2.n = n - UB_STATS_CHUNK;
	y2.data = (char *)y.data + 4 * UB_STATS_CHUNK;
	cr2.data = (char *)cr.data + 4 * UB_STATS_CHUNK;
	struct ub_measure m1 = {.y = &y1, .cr = &cr1, .exact = ex};
	struct ub_measure m2 = {.y = &y2, .cr = &cr2, .exact = ex + UB_STATS_CHUNK,
				.first = UB_STATS_CHUNK};
	ub_stats_measure(&m1, &a);
	ub_stats_measure(&m2, &b);
	memset(&m, 0, sizeof m);
	ck_assert_int_eq(ub_stats_merge(&m, &a), 1);
	ck_assert_int_eq(ub_stats_merge(&m, &b), _i);
	ck_assert_msg(ub_stats_equal(&m, &st), "merged differs");
	memset(&m, 0, sizeof m); /* the other order */
	ck_assert_int_eq(ub_stats_merge(&m, &b), 1);
	ck_assert_int_eq(ub_stats_merge(&m, &a), !_i);
	ck_assert_msg(ub_stats_equal(&m, &st), "merged in the other order differs");
	ub_array_free(&y);
	ub_array_free(&cr);
	free(ex);
}
END_TEST

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))

Suite *ub_metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	TCase *tc = tcase_create("ulp");
	tcase_add_loop_test(tc, test_ulp, 0, N(ulp_cases));
	tcase_add_test(tc, test_ulp_nan);
	tcase_add_loop_test(tc, test_ulp_error, 0, N(err_cases));
	suite_add_tcase(s, tc);
	tc = tcase_create("distance");
	tcase_add_loop_test(tc, test_distance, 0, N(dist_cases));
	tcase_add_test(tc, test_ordered);
	suite_add_tcase(s, tc);
	tc = tcase_create("stats");
	tcase_add_test(tc, test_stats);
	tcase_add_loop_test(tc, test_hist_bins, 0, N(bin_cases));
	tcase_add_test(tc, test_empty_stats);
	tcase_add_loop_test(tc, test_stats_chunks, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

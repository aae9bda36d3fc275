/* check_metrics_pass.c — the statistics of a row (ub_stats_compute,
 * metrics_pass.c) against the element-by-element definitions.
 *
 * The pass takes the elements where a row holds the correctly rounded
 * result from totals prepared once (error, bin, share of the sum, the
 * largest errors) and measures only the others.  Here every figure is
 * worked out again the plain way: each element through ub_ulp_error (the
 * definition, metrics.c), counted, binned by the documented bounds
 * (metrics.h: 0, 0.5, 1, 2, 4, 16, 256), summed in an exact accumulator,
 * the worst the largest error at the lowest index; torch figures by
 * ub_distance.  The data are built to reach every branch: rows that
 * match almost everywhere, rows that match almost nowhere, a row that
 * differs exactly where the correctly rounded result has its largest
 * errors (so none of the prepared largest is matched and the worst of
 * the matching ones must be searched for), ties of the largest error,
 * NaN and inf results and references, undecided elements, an exact value
 * beyond the format, and elements across more than one chunk. */
#include "suites.h"

#include "metrics.h"
#include "metrics_list.h"
#include "xsum.h"

#include <float.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 88172645463325252u;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* The plain figures of y against (cr, ex), and torch when not NULL. */
static void plain(const struct ub_array *y, const struct ub_array *cr,
		  const struct ub_exact *ex, const struct ub_array *torch,
		  struct ub_stats *st)
{
	static const double upper[UB_HIST_BINS - 1] = {0, 0.5, 1, 2, 4, 16, 256};
	enum ub_dtype dt = y->dt;
	memset(st, 0, sizeof *st);
	st->n = y->n;
	for (size_t i = 0; i < y->n; i++) {
		uint64_t a = ub_array_get(y, i), c = ub_array_get(cr, i);
		if (torch) {
			uint64_t t = ub_array_get(torch, i);
			uint64_t d = ub_distance(dt, a, t); /* 0: same, both NaN */
			if (d != 0) {
				st->torch_mismatch++;
				if (d != UINT64_MAX && d > st->torch_max_dist)
					st->torch_max_dist = d;
			}
		}
		double e;
		int r = ub_ulp_error(dt, a, c, &ex[i], &e);
		if (r == 2) {
			if (!st->undecided++)
				st->first_undecided = i;
			continue;
		}
		if (ub_distance(dt, a, c) != 0)
			st->cr_mismatch++;
		if (r == 1) {
			st->nan_mismatch++;
			continue;
		}
		if (!st->ncomparable || e > st->max_ulp) {
			st->max_ulp = e;
			st->worst = i;
		}
		st->ncomparable++;
		/* a number against a number: both finite (the definition of
		   nfinite, by the encodings' exponent fields) */
		st->nfinite += ub_bits_isfinite_i(dt, a) && ub_bits_isfinite_i(dt, c);
		ub_xsum_add(&st->sum_ulp, e);
		int b = 0;
		while (b < UB_HIST_BINS - 1 && e > upper[b])
			b++;
		st->hist[b]++;
	}
	ub_xsum_norm(&st->sum_ulp);
}

/* The encodings of 1, +inf and a quiet NaN in dt (IEEE formats: the
 * exponent field all ones, the first bit of the significand for NaN). */
static uint64_t one_of(enum ub_dtype dt)
{
	return dt == UB_F16 ? 0x3c00 : dt == UB_BF16 ? 0x3f80
	     : dt == UB_F32 ? 0x3f800000 : UINT64_C(0x3ff0000000000000);
}

static uint64_t inf_of(enum ub_dtype dt)
{
	return dt == UB_F16 ? 0x7c00 : dt == UB_BF16 ? 0x7f80
	     : dt == UB_F32 ? 0x7f800000 : UINT64_C(0x7ff0000000000000);
}

static uint64_t nan_of(enum ub_dtype dt)
{
	uint64_t inf = inf_of(dt);
	return inf | (inf & -inf) >> 1; /* the bit below the exponent's lowest */
}

/* Element i's exact value: the result c plus off, exactly (a double
 * holds the sum for the narrower dtypes; for f64 off is the low part). */
static void set_exact(enum ub_dtype dt, struct ub_exact *v, uint64_t c, double off)
{
	v->hi = ub_bits_to_double(dt, c);
	v->lo = 0;
	if (dt == UB_F64)
		v->lo = off;
	else
		v->hi += off; /* exact: few bits */
}

/* n elements of dt: cr random in (1, 2), the exact value within half an
 * ulp of it; powers of two and subnormals now and then; special elements
 * on top. */
static void build(enum ub_dtype dt, size_t n, struct ub_array *cr,
		  struct ub_exact *ex)
{
	int p = ub_dtypes[dt].prec;
	uint64_t one = one_of(dt);
	ck_assert_int_eq(ub_array_alloc(cr, dt, n), 0);
	for (size_t i = 0; i < n; i++) {
		/* above 1: no power of two, where the error of the correctly
		 * rounded result could reach 1 ulp (the spacing below it) */
		uint64_t c = one + 1 + (next() % ((UINT64_C(1) << (p - 1)) - 1));
		ub_array_set(cr, i, c);
		double ulp = ldexp(1, 1 - p);
		/* an offset in (-ulp/2, ulp/2) on a grid of ulp/2^20; now and
		 * then exactly 0 or one of a few values (ties of the error) */
		double off = ((double)(next() % (1 << 20)) - (1 << 19)) * ldexp(ulp, -20);
		if (next() % 8 == 0)
			off = (next() % 2) ? 0 : ldexp(ulp, -2) * (double)(next() % 2 ? 1 : -1);
		set_exact(dt, &ex[i], c, off);
	}
	/* now and then a power of two 2^k as the result, the exact value
	 * just below it (the spacing below applies), at it or just above
	 * (errors below 0.29 ulp: at_largest counts on it),
	 * and a subnormal result: the ulp scale's edge cases */
	int emax = ub_dtypes[dt].emax;
	for (size_t i = 16; i + 4 < n; i += 37) {
		int k = (int)(i / 37 % 9) - 4;
		uint64_t c = (uint64_t)(k + emax) << (p - 1);
		double below = ldexp(1, k - p), above = ldexp(1, k + 1 - p);
		double offs[] = { -below / 4, -below * 0.28, 0, above / 4, -below / 1024 };
		double off = offs[i / 37 % 5];
		if (i / 37 % 7 == 3) {   /* a subnormal: 1 to 3 times the least */
			c = 1 + i / 37 % 3;
			off = ldexp(1, ub_dtypes[dt].emin - p + 1) * (i / 37 % 2 ? 0.25 : -0.25);
		}
		ub_array_set(cr, i, c);
		set_exact(dt, &ex[i], c, off);
	}
	/* specials at fixed places */
	uint64_t inf = inf_of(dt), nan = nan_of(dt);
	ub_array_set(cr, 3, inf);        /* an infinite result, exact v beyond */
	ex[3].hi = INFINITY;
	ub_array_set(cr, 4, nan);        /* NaN */
	ex[4].hi = NAN;
	ex[5].lo = NAN;                  /* undecided */
	ex[n - 2].lo = NAN;
	set_exact(dt, &ex[7], ub_array_get(cr, 7), ldexp(1, 1 - p) / 2);
	set_exact(dt, &ex[9], ub_array_get(cr, 9), ldexp(1, 1 - p) / 2); /* the same error */
	/* an exact value half an ulp above the largest finite number, its
	 * correctly rounded result inf: a result of the largest finite
	 * number has error 0.5 (derive puts it there), measured apart from
	 * the prepared ones (the reference is not finite) */
	ub_array_set(cr, 2, inf);
	/* half an ulp of the largest finite number: 2^(emax - p) */
	ex[2].hi = ub_bits_to_double(dt, inf - 1);
	if (dt == UB_F64) /* beyond the doubles: in lo */
		ex[2].lo = ldexp(1, emax - p);
	else
		ex[2].hi += ldexp(1, emax - p);
}

/* y from cr: element i differs (by 1 to 3 ulps, or NaN, or inf; only
 * NaN when nonnum) when differ(i) says so; element 2 is the largest
 * finite number (see build). */
static void derive(const struct ub_array *cr, struct ub_array *y,
		   int (*differ)(size_t, const struct ub_exact *, size_t),
		   const struct ub_exact *ex, int nonnum)
{
	enum ub_dtype dt = cr->dt;
	ck_assert_int_eq(ub_array_alloc(y, dt, cr->n), 0);
	for (size_t i = 0; i < cr->n; i++) {
		uint64_t c = ub_array_get(cr, i);
		if (i == 2)
			c--; /* inf - 1: the largest finite */
		else if (differ(i, ex, cr->n)) {
			uint64_t r = nonnum ? 0 : next() % 16;
			c = r == 0 ? nan_of(dt) : r == 1 ? inf_of(dt) : c + 1 + r % 3;
		}
		ub_array_set(y, i, c);
	}
}

static int rarely(size_t i, const struct ub_exact *ex, size_t n)
{
	(void)i, (void)ex, (void)n;
	return next() % 50 == 0;
}

static int mostly(size_t i, const struct ub_exact *ex, size_t n)
{
	(void)i, (void)ex, (void)n;
	return next() % 50 != 0;
}

/* where the exact value is more than 0.3 ulp from the result (the
 * largest errors of the correctly rounded result, f32 in [1, 2): a fifth
 * of the elements, far more than the preparation keeps as its largest) */
static int at_largest(size_t i, const struct ub_exact *ex, size_t n)
{
	(void)n;
	double hi = ex[i].hi;
	if (!isfinite(hi) || ex[i].lo != 0)
		return 0;
	double f = hi - floor(hi * 0x1p23) * 0x1p-23; /* within the ulp */
	return f > 0.3 * 0x1p-23 && f < 0.7 * 0x1p-23;
}

static void same_stats(const struct ub_stats *a, const struct ub_stats *b, const char *what)
{
	ck_assert_msg(a->n == b->n && a->ncomparable == b->ncomparable,
		      "%s: n %zu/%zu comparable %zu/%zu", what, a->n, b->n,
		      a->ncomparable, b->ncomparable);
	ck_assert_msg(a->nfinite == b->nfinite, "%s: finite %zu/%zu", what,
		      a->nfinite, b->nfinite);
	ck_assert_msg(a->cr_mismatch == b->cr_mismatch && a->nan_mismatch == b->nan_mismatch,
		      "%s: mismatches %zu/%zu nan %zu/%zu", what, a->cr_mismatch,
		      b->cr_mismatch, a->nan_mismatch, b->nan_mismatch);
	ck_assert_msg(a->undecided == b->undecided && (!a->undecided ||
		      a->first_undecided == b->first_undecided), "%s: undecided", what);
	ck_assert_msg(a->torch_mismatch == b->torch_mismatch &&
		      a->torch_max_dist == b->torch_max_dist, "%s: torch", what);
	ck_assert_msg(!memcmp(a->hist, b->hist, sizeof a->hist), "%s: histogram", what);
	ck_assert_msg(ub_xsum_equal(&a->sum_ulp, &b->sum_ulp), "%s: sum", what);
	ck_assert_msg(a->max_ulp == b->max_ulp && a->worst == b->worst,
		      "%s: worst %a at %zu, plain %a at %zu", what, a->max_ulp,
		      a->worst, b->max_ulp, b->worst);
}

/* The ways a row differs: how often, where, and whether only by NaN
 * (then the worst element is a matching one, or element 2: each tie of
 * error 0.5 goes to the lowest index). */
static const struct {
	int (*differ)(size_t, const struct ub_exact *, size_t);
	int nonnum;
	const char *what;
} ways[] = {
	{rarely, 0, "differing rarely"},
	{mostly, 0, "differing mostly"},
	{rarely, 1, "NaN rarely"},
	{mostly, 1, "NaN mostly"},
	{at_largest, 1, "NaN at the largest errors of the correctly rounded result"},
};

START_TEST(test_pass_plain)
{
	static const enum ub_dtype dts[] = {UB_F32, UB_F16, UB_BF16, UB_F64};
	/* f32 over more than one chunk; the others in one */
	size_t n = _i ? 5000 : UB_STATS_CHUNK + 3000;
	enum ub_dtype dt = dts[_i];
	struct ub_exact *ex = calloc(n, sizeof *ex);
	struct ub_array cr, y, torch;
	ck_assert_ptr_nonnull(ex);
	build(dt, n, &cr, ex);
	for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
		if (dt != UB_F32 && ways[w].differ == at_largest)
			continue; /* at_largest reads f32 ulps */
		derive(&cr, &y, ways[w].differ, ex, ways[w].nonnum);
		derive(&cr, &torch, rarely, ex, 0);
		struct ub_stats got, want;
		ck_assert_int_eq(ub_stats_compute(&y, &cr, ex, &torch, &got), 0);
		plain(&y, &cr, ex, &torch, &want);
		same_stats(&got, &want, ways[w].what);
		ck_assert_int_eq(ub_stats_compute(&y, &cr, ex, NULL, &got), 0);
		plain(&y, &cr, ex, NULL, &want);
		same_stats(&got, &want, ways[w].what);
		/* the row as its own torch plan (the torch row): no torch
		 * mismatch, compared or not */
		ck_assert_int_eq(ub_stats_compute(&y, &cr, ex, &y, &got), 0);
		plain(&y, &cr, ex, &y, &want);
		same_stats(&got, &want, ways[w].what);
		ck_assert_uint_eq(got.torch_mismatch, 0);
		if (ways[w].nonnum) /* by construction: 0.5 at element 2 */
			ck_assert_msg(got.max_ulp == 0.5 && got.worst == 2, "%s: %a at %zu",
				      ways[w].what, got.max_ulp, got.worst);
		ub_array_set(&y, 2, ub_array_get(&cr, 2)); /* no longer the worst */
		ck_assert_int_eq(ub_stats_compute(&y, &cr, ex, NULL, &got), 0);
		plain(&y, &cr, ex, NULL, &want);
		same_stats(&got, &want, ways[w].what);
		if (ways[w].differ == at_largest) /* by construction */
			ck_assert_msg(got.max_ulp > 0.29 && got.max_ulp <= 0.3, "%a",
				      got.max_ulp);
		ub_array_free(&y);
		ub_array_free(&torch);
	}
	struct ub_stats got, want; /* the correctly rounded result itself */
	ck_assert_int_eq(ub_stats_compute(&cr, &cr, ex, NULL, &got), 0);
	plain(&cr, &cr, ex, NULL, &want);
	same_stats(&got, &want, "the correctly rounded result");
	ck_assert_uint_eq(got.cr_mismatch, 0);
	ub_array_free(&cr);
	free(ex);
}
END_TEST

/* list_differing (4 or 8 elements at a time where SSE2 is there) gives
 * list_plain's list, the definition: every dtype width, blocks of every
 * length up to 40 and the whole UB_LIST_BLOCK, starting anywhere, with
 * and without a torch plan, differences dense and sparse. */
START_TEST(test_list)
{
	static const enum ub_dtype dts[] = {UB_F32, UB_F16, UB_BF16, UB_F64};
	enum ub_dtype dt = dts[_i];
	enum { N = UB_LIST_BLOCK + 64 };
	struct ub_array y, c, t;
	static unsigned char flag[N];
	static uint16_t got[UB_LIST_BLOCK], want[UB_LIST_BLOCK];
	ck_assert_int_eq(ub_array_alloc(&y, dt, N), 0);
	ck_assert_int_eq(ub_array_alloc(&c, dt, N), 0);
	ck_assert_int_eq(ub_array_alloc(&t, dt, N), 0);
	for (int dense = 0; dense < 2; dense++) {
		uint64_t odds = dense ? 3 : 40; /* 1 in odds differs */
		for (size_t i = 0; i < N; i++) {
			uint64_t v = next() & ub_dt_mask(dt);
			ub_array_set(&y, i, v);
			/* a difference in any bit, the top one included */
			ub_array_set(&c, i, next() % odds ? v : v ^ (UINT64_C(1) << (next() % ub_dtypes[dt].bits)));
			ub_array_set(&t, i, next() % odds ? v : v ^ 1);
			flag[i] = (unsigned char)(next() % odds ? PF_FAST | PF_CRFIN | PF_EXFIN
								: PF_CRFIN | (next() % 2 ? PF_UNDEC : 0));
		}
		for (size_t b = 0; b < 8; b++)
			for (size_t len = 0; len <= 41; len = len < 40 ? len + 1 : UB_LIST_BLOCK)
				for (int wt = 0; wt < 2; wt++) {
					const void *tp = wt ? t.data : NULL;
					size_t ng = list_differing(dt, y.data, c.data, tp, flag + b,
								   b, b + len, got);
					size_t nw = list_plain(dt, y.data, c.data, tp, flag + b, b,
							       b, b + len, want);
					ck_assert_msg(ng == nw && !memcmp(got, want, nw * sizeof *got),
						      "%s from %zu, %zu elements, torch %d: %zu listed, "
						      "plain %zu", ub_dtypes[dt].name, b, len, wt, ng, nw);
				}
	}
	ub_array_free(&y);
	ub_array_free(&c);
	ub_array_free(&t);
}
END_TEST

/* hist_bin against the documented bounds (metrics.h: 0, 0.5, 1, 2, 4,
 * 16, 256; each inclusive, NaN in the last bin), counted one by one: at
 * every power of two of the doubles and its neighbours, zeros, negative
 * values, inf and NaN of either sign. */
START_TEST(test_hist_bin)
{
	static const double upper[UB_HIST_BINS - 1] = {0, 0.5, 1, 2, 4, 16, 256};
	double v[4 * 2100 + 8];
	size_t n = 0;
	for (int k = -1074; k <= 1023; k++) {
		double p = ldexp(1, k);
		v[n++] = p;
		v[n++] = nextafter(p, 0);
		v[n++] = nextafter(p, INFINITY);
		v[n++] = -p;
	}
	v[n++] = 0.0;
	v[n++] = -0.0;
	v[n++] = INFINITY;
	v[n++] = -INFINITY;
	v[n++] = NAN;
	v[n++] = -NAN;
	v[n++] = DBL_MAX;
	v[n++] = 3 * 0.5;
	for (size_t i = 0; i < n; i++) {
		double e = v[i];
		int b = 0;
		while (b < UB_HIST_BINS - 1 && !(e <= upper[b]))
			b++; /* a NaN exceeds every bound */
		ck_assert_msg(hist_bin(e) == b, "%a: bin %d, by the bounds %d", e,
			      hist_bin(e), b);
	}
}
END_TEST

/* a - b by ub_xsum_sub is the sum of the terms of a that b lacks. */
START_TEST(test_xsum_sub)
{
	struct ub_xsum all, some, rest;
	memset(&all, 0, sizeof all);
	memset(&some, 0, sizeof some);
	memset(&rest, 0, sizeof rest);
	for (int i = 0; i < 20000; i++) {
		uint64_t u = next();
		/* terms below 2^914, down to subnormals */
		double e = ldexp((double)(u >> 11), (int)(next() % 2040) - 1126);
		ub_xsum_add(&all, e);
		ub_xsum_add(u & 1 ? &some : &rest, e);
	}
	ub_xsum_norm(&all);
	ub_xsum_norm(&some);
	ub_xsum_norm(&rest);
	ub_xsum_sub(&all, &some);
	ck_assert(ub_xsum_equal(&all, &rest));
	ub_xsum_sub(&all, &rest);
	struct ub_xsum zero;
	memset(&zero, 0, sizeof zero);
	ck_assert(ub_xsum_equal(&all, &zero));
}
END_TEST

Suite *ub_metrics_pass_suite(void)
{
	Suite *s = suite_create("metrics_pass");
	TCase *tc = tcase_create("pass");
	tcase_add_loop_test(tc, test_pass_plain, 0, 4);
	tcase_add_loop_test(tc, test_list, 0, 4);
	tcase_add_test(tc, test_hist_bin);
	tcase_add_test(tc, test_xsum_sub);
	suite_add_tcase(s, tc);
	return s;
}

/* check_figures.c — the HTML page's figures (src/run/figures.c) against
 * definitions checked here by other means:
 *
 *  - fine bins: edges written out by hand (0.5, 0.5625, 1, 2^-24), and for
 *    every bin that its upper edge falls in it and the next double above
 *    in the next one;
 *  - quantiles against the nearest rank of the sorted errors: never
 *    below it, at most 1/8 above it, never above max;
 *  - binade columns of f32, f64 and f16 encodings worked out by hand from
 *    the formats' fields, and positions that never decrease with the
 *    value over every f16 encoding (ordered by value here);
 *  - the kept elements against brute force over the whole array (the K
 *    smallest keys; the K largest errors of each band, lower index first),
 *    and the same figures whether the elements arrive in one call or in
 *    chunks merged forwards, backwards or interleaved. */
#include "suites.h"

#include "figures.h"
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = UINT64_C(0x5eed0019);

static uint64_t next(void) /* xorshift64 */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

START_TEST(test_fine_edges)
{
	/* hand: (2^-1 (1 + 7/8), 2^0] holds 1; (2^-2 (1 + 7/8), 2^-1] holds
	 * 0.5; just above 0.5 is (0.5, 0.5625] */
	ck_assert_double_eq(ub_fine_upper(ub_fine_bin(0)), 0);
	ck_assert_double_eq(ub_fine_upper(ub_fine_bin(0.5)), 0.5);
	ck_assert_double_eq(ub_fine_upper(ub_fine_bin(nextafter(0.5, 1))), 0.5625);
	ck_assert_double_eq(ub_fine_upper(ub_fine_bin(1)), 1);
	ck_assert_double_eq(ub_fine_upper(ub_fine_bin(1.1)), 1.125);
	ck_assert_double_eq(ub_fine_upper(ub_fine_bin(0x1p-30)), 0x1p-24);
	ck_assert_double_eq(ub_fine_upper(ub_fine_bin(0x1p-24)), 0x1p-24);
	ck_assert_int_eq(ub_fine_bin(1e300), UB_FINE_BINS - 1);
	ck_assert_int_eq(ub_fine_bin(INFINITY), UB_FINE_BINS - 1);
	for (int b = 1; b < UB_FINE_BINS - 1; b++) {
		double u = ub_fine_upper(b);
		ck_assert_int_eq(ub_fine_bin(u), b);
		ck_assert_int_eq(ub_fine_bin(nextafter(u, INFINITY)), b + 1);
		ck_assert(u > ub_fine_upper(b - 1));
	}
}
END_TEST

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

START_TEST(test_quantiles)
{
	enum { N = 20001 };
	static double e[N];
	struct ub_figs *f = ub_figs_new(UB_F32, 1, 0);
	ck_assert_ptr_nonnull(f);
	double max = 0;
	for (int i = 0; i < N; i++) { /* zeros, tiny, the rounding range, huge */
		uint64_t r = next();
		e[i] = r % 11 == 0 ? 0 : ldexp((double)(r >> 11) * 0x1p-53,
					       (int)(r % 40) - (r % 3 == 0 ? 30 : 4));
		f->fine[ub_fine_bin(e[i])]++;
		max = fmax(max, e[i]);
	}
	qsort(e, N, sizeof e[0], cmp_double);
	static const double qs[] = { 0.001, 0.09, 0.1, 0.5, 0.9, 0.99, 0.999, 1 };
	for (size_t k = 0; k < sizeof qs / sizeof qs[0]; k++) {
		size_t rank = (size_t)ceil(qs[k] * N); /* nearest rank, 1-based */
		double want = e[rank - 1], got = ub_figs_quantile(f, qs[k], max);
		ck_assert_msg(got >= want && got <= max, "q=%g: %g below %g", qs[k], got, want);
		if (want > 0x1p-24)
			ck_assert_msg(got <= want * 1.125, "q=%g: %g above 1.125 x %g", qs[k],
				      got, want);
		if (want == 0)
			ck_assert_double_eq(got, 0);
	}
	ub_figs_reset(f);
	ck_assert_double_eq(ub_figs_quantile(f, 0.5, 0), -1);
	free(f);
}
END_TEST

START_TEST(test_columns)
{
	/* f32: 254 normal binades per sign, one column each */
	ck_assert_int_eq(ub_fig_ncols(UB_F32), 2 * 254 + 6);
	ck_assert_int_eq(ub_fig_col(UB_F32, 0xff800000), 0);   /* -inf */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0xff7fffff), 1);   /* -max */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x80800000), 254); /* -2^-126 */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x80000001), 255); /* -subnormal */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x80000000), 256); /* -0 */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x00000000), 256); /* +0 */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x007fffff), 257); /* subnormal */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x00800000), 258); /* 2^-126 */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x3f800000), 258 + 126); /* 1 */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x7f7fffff), 511); /* max */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x7f800000), 512); /* inf */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0x7fc00000), 513); /* NaN */
	ck_assert_int_eq(ub_fig_col(UB_F32, 0xffc00000), 513);
	struct ub_fig_coldesc d;
	ub_fig_coldesc(UB_F32, 258 + 126, &d);
	ck_assert(d.kind == UB_FK_NORMAL && !d.neg && d.elo == 0 && d.ehi == 1);
	ub_fig_coldesc(UB_F32, 254 - 126, &d); /* -[1, 2) */
	ck_assert(d.kind == UB_FK_NORMAL && d.neg && d.elo == 0 && d.ehi == 1);
	/* f64: 2046 binades, 8 per column: 256 columns per sign; 1.0 has
	 * exponent field 1023, binade 1022 from the bottom, column 127:
	 * [2^(-1022 + 127*8), 2^(-1022 + 128*8)) = [2^-6, 2^2) */
	ck_assert_int_eq(ub_fig_ncols(UB_F64), 2 * 256 + 6);
	ck_assert_int_eq(ub_fig_col(UB_F64, UINT64_C(0x3ff0000000000000)), 256 + 4 + 127);
	ub_fig_coldesc(UB_F64, 256 + 4 + 127, &d);
	ck_assert(d.kind == UB_FK_NORMAL && d.elo == -6 && d.ehi == 2);
	ub_fig_coldesc(UB_F64, 256 + 4 + 255, &d); /* the top column stops at 2^1024 */
	ck_assert_int_eq(d.ehi, 1024);
	/* f16: 30 binades; 1.0 = 0x3c00, exponent field 15, column 30+4+14 */
	ck_assert_int_eq(ub_fig_ncols(UB_F16), 66);
	ck_assert_int_eq(ub_fig_col(UB_F16, 0x3c00), 48);
	ck_assert_int_eq(ub_fig_col(UB_F16, 0xfc00), 0);
	ck_assert_int_eq(ub_fig_col(UB_F16, 0x7e00), 65);
}
END_TEST

/* f16 encodings in order of value: -inf, the negatives from the largest
 * magnitude down, -0, +0, ..., +inf. */
static uint64_t f16_at(int k)
{
	return k < 0x7c01 ? (uint64_t)(0xfc00 - k) : (uint64_t)(k - 0x7c01);
}

START_TEST(test_positions)
{
	double last = -1;
	for (int k = 0; k < 2 * 0x7c01; k++) {
		uint64_t x = f16_at(k);
		double p = ub_fig_pos(UB_F16, x);
		UB_ASSERT(p >= last, "0x%04x: position %g below %g", (unsigned)x, p, last);
		UB_ASSERT((int)floor(p) == ub_fig_col(UB_F16, x), "0x%04x: position %g, column %d",
			  (unsigned)x, p, ub_fig_col(UB_F16, x));
		last = p;
	}
	ck_assert_double_eq(ub_fig_pos(UB_F16, 0x7e00), 65.5);
	ck_assert_double_eq(ub_fig_pos_value(UB_F16, 1e9), 64.5); /* beyond: inf */
}
END_TEST

/* ---- kept elements ---- */

enum { N = 3 * 7001 };

struct data {
	struct ub_array in[2], y, cr, torch;
	struct ub_exact ex[N];
	double err[N];
	int nan[N];
};

/* f32 results 0..40 ulps from the correctly rounded value, some NaN or
 * inf, torch equal or a few units off. */
static void make(struct data *d)
{
	for (int k = 0; k < 2; k++)
		ck_assert_int_eq(ub_array_alloc(&d->in[k], UB_F32, N), 0);
	ck_assert_int_eq(ub_array_alloc(&d->y, UB_F32, N), 0);
	ck_assert_int_eq(ub_array_alloc(&d->cr, UB_F32, N), 0);
	ck_assert_int_eq(ub_array_alloc(&d->torch, UB_F32, N), 0);
	for (size_t i = 0; i < N; i++) {
		uint64_t r = next(), c = 0x3f800000 + (r >> 40) % 0x800000;
		ub_array_set(&d->in[0], i, (uint32_t)(r >> 3));
		ub_array_set(&d->in[1], i, (uint32_t)next());
		ub_array_set(&d->cr, i, c);
		uint64_t y = r % 97 == 0 ? 0x7fc00000 : c + (r >> 20) % (r % 5 ? 2 : 41);
		ub_array_set(&d->y, i, y);
		ub_array_set(&d->torch, i, r % 3 ? y : y + 1 + (r >> 30) % 4);
		d->ex[i] = (struct ub_exact){ ub_bits_to_double(UB_F32, c) +
			(double)((int64_t)(r << 50) >> 50) * 0x1p-40, 0 };
		d->nan[i] = ub_ulp_error(UB_F32, y, c, &d->ex[i], &d->err[i]) != 0;
	}
}

static void unmake(struct data *d)
{
	for (int k = 0; k < 2; k++)
		ub_array_free(&d->in[k]);
	ub_array_free(&d->y);
	ub_array_free(&d->cr);
	ub_array_free(&d->torch);
}

/* Elements lo..hi-1 of d as a part of the run. */
static struct ub_figs *part(const struct data *d, size_t lo, size_t hi)
{
	struct ub_figs *f = ub_figs_new(UB_F32, 2, 1);
	size_t b = 4;
	struct ub_array in[2], y = d->y, cr = d->cr, t = d->torch;
	for (int k = 0; k < 2; k++) {
		in[k] = d->in[k];
		in[k].data = (char *)in[k].data + lo * b;
		in[k].n = hi - lo;
	}
	y.data = (char *)y.data + lo * b;
	cr.data = (char *)cr.data + lo * b;
	t.data = (char *)t.data + lo * b;
	y.n = cr.n = t.n = hi - lo;
	ub_figs_add(f, in, &y, &cr, d->ex + lo, &t, lo);
	return f;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* The indices of a set, sorted. */
static void indices(const struct ub_fig_elem *e, size_t n, uint64_t *out)
{
	for (size_t i = 0; i < n; i++)
		out[i] = e[i].idx;
	qsort(out, n, sizeof *out, cmp_u64);
}

static void same_set(const struct ub_fig_elem *a, size_t na, const struct ub_fig_elem *b,
		     size_t nb, const char *what)
{
	static uint64_t ia[N], ib[N];
	ck_assert_msg(na == nb, "%s: %zu against %zu elements", what, na, nb);
	indices(a, na, ia);
	indices(b, nb, ib);
	ck_assert_msg(!memcmp(ia, ib, na * sizeof *ia), "%s: different elements", what);
}

static void same_figs(const struct ub_figs *a, const struct ub_figs *b)
{
	ck_assert(!memcmp(a->fine, b->fine, sizeof a->fine));
	ck_assert(!memcmp(a->cell, b->cell, 2 * sizeof a->cell[0]));
	same_set(a->sample, a->nsample, b->sample, b->nsample, "sample");
	same_set(a->torch, a->ntorch, b->torch, b->ntorch, "torch");
	same_set(a->nan, a->nnan, b->nan, b->nnan, "nan");
	for (int k = 0; k < UB_FIG_BANDS; k++)
		same_set(a->top[k], a->ntop[k], b->top[k], b->ntop[k], "top");
}

/* Brute force: the K smallest keys among elements with keep(i). */
static void check_bottom(const struct data *d, const struct ub_fig_elem *e, size_t n,
			 size_t cap, int which)
{
	static uint64_t keys[N], got[N];
	size_t m = 0;
	for (size_t i = 0; i < N; i++) {
		int dif = !ub_same(UB_F32, ub_array_get(&d->y, i), ub_array_get(&d->torch, i));
		if (which == 0 || (which == 1 && dif) || (which == 2 && d->nan[i]))
			keys[m++] = ub_fig_key(i);
	}
	qsort(keys, m, sizeof *keys, cmp_u64);
	ck_assert_uint_eq(n, m < cap ? m : cap);
	for (size_t i = 0; i < n; i++)
		got[i] = e[i].key;
	qsort(got, n, sizeof *got, cmp_u64);
	ck_assert(!memcmp(got, keys, n * sizeof *got));
}

START_TEST(test_kept)
{
	static struct data d;
	make(&d);
	struct ub_figs *whole = part(&d, 0, N);
	check_bottom(&d, whole->sample, whole->nsample, UB_FIG_SAMPLE, 0);
	check_bottom(&d, whole->torch, whole->ntorch, UB_FIG_TORCH, 1);
	check_bottom(&d, whole->nan, whole->nnan, UB_FIG_NANS, 2);
	for (int b = 0; b < UB_FIG_BANDS; b++) { /* the K worst of the band */
		size_t have = 0, more = 0;
		double least = INFINITY;
		uint64_t last = 0;
		for (size_t j = 0; j < whole->ntop[b]; j++)
			if (whole->top[b][j].err < least ||
			    (whole->top[b][j].err == least && whole->top[b][j].idx > last)) {
				least = whole->top[b][j].err;
				last = whole->top[b][j].idx;
			}
		for (size_t i = 0; i < N; i++) {
			if (d.nan[i] || ub_fig_band(d.err[i]) != b)
				continue;
			have++;
			more += d.err[i] > least || (d.err[i] == least && i < last);
		}
		ck_assert_uint_eq(whole->ntop[b], have < UB_FIG_TOP ? have : UB_FIG_TOP);
		ck_assert_uint_eq(more, whole->ntop[b] ? whole->ntop[b] - 1 : 0);
	}
	/* seven parts merged forwards, backwards, and odd ones first */
	size_t cut = N / 7;
	struct ub_figs *parts[7], *fw = ub_figs_new(UB_F32, 2, 1),
		       *bw = ub_figs_new(UB_F32, 2, 1), *odd = ub_figs_new(UB_F32, 2, 1);
	for (int p = 0; p < 7; p++)
		parts[p] = part(&d, p * cut, p == 6 ? N : (p + 1) * cut);
	for (int p = 0; p < 7; p++) {
		ub_figs_merge(fw, parts[p]);
		ub_figs_merge(bw, parts[6 - p]);
		ub_figs_merge(odd, parts[(2 * p + 1) % 7]);
	}
	same_figs(whole, fw);
	same_figs(whole, bw);
	same_figs(whole, odd);
	for (int p = 0; p < 7; p++)
		free(parts[p]);
	free(whole);
	free(fw);
	free(bw);
	free(odd);
	unmake(&d);
}
END_TEST

Suite *ub_figures_suite(void)
{
	Suite *s = suite_create("figures");
	TCase *tc = tcase_create("figures");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fine_edges);
	tcase_add_test(tc, test_quantiles);
	tcase_add_test(tc, test_columns);
	tcase_add_test(tc, test_positions);
	tcase_add_test(tc, test_kept);
	suite_add_tcase(s, tc);
	return s;
}

/* check_stats.c — the statistics loop of src/run/metrics.c (one loop per dtype,
 * the ulp read off the exponent bits) against a slow reference written
 * here from the definitions of docs/metrics.md, element by element and
 * over whole arrays, bit for bit: max_ulp, worst, the mean (the exact
 * sum of the errors, here in MPFR at a precision that holds any sum of
 * doubles exactly, divided by their count with one rounding), counts,
 * histogram, torch_max_dist.
 *
 * The reference shares no code with metrics.c: it decodes encodings with
 * the host's float/double (f16 from its fields), classifies with isnan /
 * isfinite, takes e = ilogb(|v|), tests a power of two with ldexp and
 * steps above one with nextafter (the way metrics.c did before it read the
 * bits), and bins through a linear search over the bounds listed in
 * docs/metrics.md.  The fractional error itself is the TwoSum formula of
 * the definition; on f32 it is also checked against MPFR (exact |y - v|
 * and ulp(v) from MPFR's exponent), to a relative 2^-50.
 *
 * Inputs: the special encodings of each format (zeros, subnormals, the
 * smallest normal, powers of two where the spacing changes, the largest
 * finite, infinities, NaNs of both signs and several payloads) against
 * exact values around them, then seeded random encodings with random
 * exact values (near the correctly rounded value, at powers of two with a
 * tail above or below, anywhere, NaN or inf). */
#include "suites.h"
#include "check_bits.h"

#include "metrics.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#define SEED UINT64_C(0x5eed0006)

/* Format parameters from IEEE 754 (binary32, binary16, binary64) and
 * bfloat16 (binary32's exponent, 8 bits of precision), written out here
 * rather than read from ub_dtypes. */
static const struct fmt {
	enum ub_dtype dt;
	int bits, p, emin, emax;
} fmts[] = {
	{UB_F32, 32, 24, -126, 127},
	{UB_F16, 16, 11, -14, 15},
	{UB_BF16, 16, 8, -126, 127},
	{UB_F64, 64, 53, -1022, 1023},
};

static uint64_t rng;

static uint64_t next(void) /* xorshift64 */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* ------------------------------------------------------- the reference */

static double decode(const struct fmt *f, uint64_t b)
{
	double d;
	switch (f->dt) {
	case UB_F32: return f32((uint32_t)b);
	case UB_BF16: return f32((uint32_t)(b & 0xffff) << 16);
	case UB_F64: memcpy(&d, &b, sizeof d); return d;
	default: break;
	}
	int e = (int)(b >> 10 & 0x1f), m = (int)(b & 0x3ff); /* f16 */
	d = e == 31 ? (m ? NAN : INFINITY)
	    : e == 0 ? ldexp(m, -24) : ldexp(m + 1024, e - 25);
	return b & 0x8000 ? -d : d;
}

static double ref_ulp(const struct fmt *f, double v)
{
	double a = fabs(v);
	int e = isinf(a) ? f->emax + 1 : a == 0 ? f->emin - 1 : ilogb(a);
	if (e > f->emax)
		return ldexp(1, f->emax - f->p + 1);
	if (e < f->emin)
		return ldexp(1, f->emin - f->p + 1);
	if (e > f->emin && a == ldexp(1, e))
		return ldexp(1, e - f->p);
	return ldexp(1, e - f->p + 1);
}

static double ref_ulp_exact(const struct fmt *f, double hi, double lo)
{
	double a = fabs(hi);
	int above = lo != 0 && (lo > 0) == (hi > 0);
	if (above && a != 0 && a == ldexp(1, ilogb(a)))
		return ref_ulp(f, nextafter(a, INFINITY));
	return ref_ulp(f, hi);
}

static double ref_frac(const struct fmt *f, double y, double hi, double lo)
{
	double u = ref_ulp_exact(f, hi, lo);
	if (fabs(y) > 0x1p1020 || fabs(hi) > 0x1p1020) {
		y *= 0.5;
		hi *= 0.5;
		lo *= 0.5;
		u *= 0.5;
	}
	double s = y - hi, bb = s - y;
	double t = (y - (s - bb)) + (-hi - bb);
	return fabs(s + (t - lo)) / u;
}

static int ref_same(const struct fmt *f, uint64_t a, uint64_t b)
{
	double x = decode(f, a), y = decode(f, b);
	if (isnan(x) || isnan(y))
		return isnan(x) && isnan(y);
	uint64_t mask = f->bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << f->bits) - 1;
	return (a & mask) == (b & mask);
}

/* 1 for a NaN/inf disagreement, else 0 and *err. */
static int ref_error(const struct fmt *f, uint64_t y, uint64_t cr,
		     const struct ub_exact *v, double *err)
{
	double yd = decode(f, y), cd = decode(f, cr);
	if (!isfinite(yd) || !isfinite(cd)) {
		if (ref_same(f, y, cr)) {
			*err = 0;
			return 0;
		}
		if (!isfinite(yd) || isnan(cd))
			return 1;
	}
	if (!isfinite(v->hi))
		return 1;
	*err = ref_frac(f, yd, v->hi, v->lo);
	return 0;
}

/* The ordered integer of docs/metrics.md: +0 -> 0, -0 -> -1, ... */
static int64_t ref_ordered(const struct fmt *f, uint64_t b)
{
	uint64_t sign = UINT64_C(1) << (f->bits - 1);
	uint64_t mag = b & (sign - 1);
	return b & sign ? -(int64_t)mag - 1 : (int64_t)mag;
}

static uint64_t ref_distance(const struct fmt *f, uint64_t a, uint64_t b)
{
	if (isnan(decode(f, a)) || isnan(decode(f, b)))
		return isnan(decode(f, a)) && isnan(decode(f, b)) ? 0 : UINT64_MAX;
	int64_t x = ref_ordered(f, a), y = ref_ordered(f, b);
	return x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
}

/* docs/metrics.md: [0], (0,0.5], (0.5,1], (1,2], (2,4], (4,16], (16,256],
 * >256 ulp */
static int ref_bin(double e)
{
	static const double upper[] = {0, 0.5, 1, 2, 4, 16, 256};
	int b = 0;
	while (b < 7 && !(e <= upper[b]))
		b++;
	return b;
}

/* sum / n rounded once to a double, by MPFR: 2400 bits hold any sum of
 * up to 2^64 finite doubles exactly (their integer multiples of 2^-1074
 * stay below 2^2162), and mpfr_div rounds the quotient once to 53 bits;
 * the result is normal, so mpfr_get_d takes it exactly. */
static double ref_mean(mpfr_t sum, size_t n)
{
	mpfr_t q;
	mpfr_init2(q, 53);
	mpfr_div_ui(q, sum, (unsigned long)n, MPFR_RNDN);
	double d = mpfr_get_d(q, MPFR_RNDN);
	ck_assert_msg(d == 0 || fabs(d) >= DBL_MIN, "subnormal mean %a", d);
	mpfr_clear(q);
	return d;
}

static void ref_stats(const struct fmt *f, const struct ub_array *y,
		      const struct ub_array *cr, const struct ub_exact *ex,
		      const struct ub_array *torch, struct ub_stats *st,
		      double *mean)
{
	mpfr_t sum;
	mpfr_init2(sum, 2400);
	mpfr_set_zero(sum, 1);
	memset(st, 0, sizeof *st);
	st->n = y->n;
	for (size_t i = 0; i < y->n; i++) {
		uint64_t yi = ub_array_get(y, i), ci = ub_array_get(cr, i);
		double e;
		st->cr_mismatch += !ref_same(f, yi, ci);
		if (ref_error(f, yi, ci, &ex[i], &e)) {
			st->nan_mismatch++;
		} else {
			if (st->ncomparable == 0 || e > st->max_ulp) {
				st->max_ulp = e;
				st->worst = i;
			}
			st->ncomparable++;
			UB_ASSERT(mpfr_add_d(sum, sum, e, MPFR_RNDN) == 0, /* exact */
				  "element %zu: the sum of errors rounded", i);
			st->hist[ref_bin(e)]++;
		}
		if (torch && !ref_same(f, yi, ub_array_get(torch, i))) {
			uint64_t d = ref_distance(f, yi, ub_array_get(torch, i));
			st->torch_mismatch++;
			if (d != UINT64_MAX && d > st->torch_max_dist)
				st->torch_max_dist = d;
		}
	}
	*mean = st->ncomparable ? ref_mean(sum, st->ncomparable) : 0;
	mpfr_clear(sum);
}

/* f32: |y - (hi + lo)| / ulp in MPFR, ulp(v) from v's exponent: e =
 * floor(log2|v|) clamped to [emin, emax], one step less at an exact
 * power of two above 2^emin. */
static double mpfr_error(double y, double hi, double lo)
{
	mpfr_t v, d;
	mpfr_inits2(2200, v, d, (mpfr_ptr)0);
	mpfr_set_d(v, hi, MPFR_RNDN);
	mpfr_add_d(v, v, lo, MPFR_RNDN); /* exact at 2200 bits */
	mpfr_set_d(d, y, MPFR_RNDN);
	mpfr_sub(d, d, v, MPFR_RNDN);    /* exact */
	mpfr_abs(d, d, MPFR_RNDN);
	long e = mpfr_zero_p(v) ? -127 : mpfr_get_exp(v) - 1;
	mpfr_abs(v, v, MPFR_RNDN);
	int pow2 = !mpfr_zero_p(v) && mpfr_cmp_ui_2exp(v, 1, e) == 0;
	long k = e > 127 ? 127 - 23 : e < -126 ? -126 - 23
		 : e - 23 - (pow2 && e > -126);
	mpfr_div_2si(d, d, k, MPFR_RNDN);
	double r = mpfr_get_d(d, MPFR_RNDN);
	mpfr_clears(v, d, (mpfr_ptr)0);
	return r;
}

/* ------------------------------------------------------------ the data */

/* Special encodings of f, written into out; returns how many. */
static int specials(const struct fmt *f, uint64_t *out)
{
	int m = f->p - 1, eb = f->bits - 1 - m;
	uint64_t sign = UINT64_C(1) << (f->bits - 1);
	uint64_t inf = ((UINT64_C(1) << eb) - 1) << m, one = (uint64_t)((1 << (eb - 1)) - 1) << m;
	uint64_t pos[] = {
		0, 1, 2, (UINT64_C(1) << m) - 1,        /* zero, subnormals */
		UINT64_C(1) << m, (UINT64_C(1) << m) + 1, /* smallest normal */
		(UINT64_C(2) << m), (UINT64_C(2) << m) - 1,
		one - 1, one, one + 1, one + (UINT64_C(1) << m), /* 1, 2 */
		inf - 1, inf - (UINT64_C(1) << m),      /* largest, 2^emax */
		inf, inf + 1, inf | (UINT64_C(1) << (m - 1)), /* inf, NaNs */
		inf | ((UINT64_C(1) << m) - 1), inf | 5,
	};
	int n = 0;
	for (size_t k = 0; k < sizeof pos / sizeof pos[0]; k++) {
		out[n++] = pos[k];
		out[n++] = pos[k] | sign;
	}
	return n;
}

/* Exact values around v: v itself, with a tail above or below, a quarter,
 * half and 3/2 of an ulp off, and the odd ones (0, -0, 2^128, tiny,
 * infinities, NaN); fills out, returns how many. */
static int exacts(const struct fmt *f, double v, struct ub_exact *out)
{
	int n = 0;
	double u = isfinite(v) ? ref_ulp(f, v) : 1;
	double tail = f->dt == UB_F64 ? ldexp(fabs(v), -60) : ldexp(fabs(v), -40);
	if (isfinite(v)) {
		out[n++] = (struct ub_exact){v, 0};
		out[n++] = (struct ub_exact){v, tail};
		out[n++] = (struct ub_exact){v, -tail};
		if (f->dt != UB_F64) {
			out[n++] = (struct ub_exact){v + 0.25 * u, 0};
			out[n++] = (struct ub_exact){v - 0.5 * u, 0};
			out[n++] = (struct ub_exact){v + 1.5 * u, 0};
		}
	}
	static const struct ub_exact odd[] = {
		{0, 0}, {-0.0, 0}, {0, 0x1p-1074}, {-0.0, -0x1p-1074},
		{0x1p128, 0}, {-0x1p128, 0}, {1e-300, 0}, {0x1p1021, -1},
		{INFINITY, 0}, {-INFINITY, 0}, {NAN, 0},
	};
	for (size_t k = 0; k < sizeof odd / sizeof odd[0]; k++)
		out[n++] = odd[k];
	return n;
}

/* Random exact value near value c (or anywhere, NaN, inf). */
static struct ub_exact random_exact(const struct fmt *f, double c)
{
	double sgn = next() & 1 ? 1 : -1, lo;
	int e;
	switch (next() % 6) {
	case 0: /* within a few ulps */
		if (!isfinite(c))
			break;
		return (struct ub_exact){c + ref_ulp(f, c) *
			(double)((int64_t)next() >> 40) * 0x1p-21, 0};
	case 1: /* a power of two with a tail above or below, or none */
		e = (int)(next() % (unsigned)(2 * f->emax + 2 * f->p)) - f->emax - f->p;
		lo = next() % 3 ? sgn * ldexp(1, e - 60) : 0;
		return (struct ub_exact){ldexp(sgn, e), lo};
	case 2: /* a double-double tail */
		if (!isfinite(c) || c == 0)
			break;
		return (struct ub_exact){c, sgn * ldexp(fabs(c), -55 - (int)(next() % 20))};
	case 3: { /* any double */
		uint64_t b = next();
		double d;
		memcpy(&d, &b, sizeof d);
		return (struct ub_exact){d, 0};
	}
	case 4:
		return (struct ub_exact){next() % 2 ? NAN : sgn * INFINITY, 0};
	default:
		break;
	}
	return (struct ub_exact){c, 0};
}

/* ------------------------------------------------------------- checks */

static void check_elem(const struct fmt *f, uint64_t y, uint64_t cr,
		       uint64_t t, const struct ub_exact *v)
{
	double got = -1, want = -1;
	int rg = ub_ulp_error(f->dt, y, cr, v, &got);
	int rw = ref_error(f, y, cr, v, &want);
	uint64_t gb, wb;
	memcpy(&gb, &got, sizeof gb);
	memcpy(&wb, &want, sizeof wb);
	UB_ASSERT(rg == rw && gb == wb, "%s y=0x%" PRIx64 " cr=0x%" PRIx64
		  " v=%a%+a: error %d %a (0x%016" PRIx64 "), reference %d "
		  "%a (0x%016" PRIx64 "); seed 0x%" PRIx64,
		  ub_dtypes[f->dt].name, y, cr, v->hi, v->lo, rg, got, gb,
		  rw, want, wb, SEED);
	UB_ASSERT(ub_same(f->dt, y, t) == ref_same(f, y, t) &&
		  ub_distance(f->dt, y, t) == ref_distance(f, y, t),
		  "%s same/distance(0x%" PRIx64 ", 0x%" PRIx64 ")",
		  ub_dtypes[f->dt].name, y, t);
	if (f->dt == UB_F32 && rw == 0 && isfinite(decode(f, y)) &&
	    isfinite(v->hi) && fabs(v->hi) < 0x1p1000) {
		double m = mpfr_error(decode(f, y), v->hi, v->lo);
		UB_ASSERT(fabs(want - m) <= m * 0x1p-50, "f32 y=0x%08" PRIx64
			  " v=%a%+a: error %a, MPFR %a", y, v->hi, v->lo,
			  want, m);
	}
}

static void check_stats(const struct fmt *f, const struct ub_array *y,
			const struct ub_array *cr, const struct ub_exact *ex,
			const struct ub_array *t)
{
	struct ub_stats got, want;
	double want_mean;
	for (int with_t = 0; with_t < 2; with_t++) {
		ub_stats_compute(y, cr, ex, with_t ? t : NULL, &got);
		ref_stats(f, y, cr, ex, with_t ? t : NULL, &want, &want_mean);
		const char *dt = ub_dtypes[f->dt].name;
		ck_assert_msg(memcmp(&got.max_ulp, &want.max_ulp, sizeof got.max_ulp) == 0 &&
			      got.worst == want.worst, "%s max_ulp %a at %zu, "
			      "reference %a at %zu", dt, got.max_ulp, got.worst,
			      want.max_ulp, want.worst);
		double mean = ub_stats_mean(&got);
		ck_assert_msg(memcmp(&mean, &want_mean, sizeof mean) == 0,
			      "%s mean %a, reference %a", dt, mean, want_mean);
		ck_assert_msg(got.n == want.n && got.ncomparable == want.ncomparable &&
			      got.cr_mismatch == want.cr_mismatch &&
			      got.nan_mismatch == want.nan_mismatch &&
			      got.torch_mismatch == want.torch_mismatch &&
			      got.torch_max_dist == want.torch_max_dist,
			      "%s counts: n %zu/%zu comparable %zu/%zu cr %zu/%zu "
			      "nan %zu/%zu torch %zu/%zu dist %" PRIu64 "/%" PRIu64,
			      dt, got.n, want.n, got.ncomparable, want.ncomparable,
			      got.cr_mismatch, want.cr_mismatch, got.nan_mismatch,
			      want.nan_mismatch, got.torch_mismatch,
			      want.torch_mismatch, got.torch_max_dist,
			      want.torch_max_dist);
		for (int b = 0; b < UB_HIST_BINS; b++)
			ck_assert_msg(got.hist[b] == want.hist[b], "%s hist[%s] "
				      "%zu, reference %zu", dt, ub_hist_labels[b],
				      got.hist[b], want.hist[b]);
	}
}

/* Special encodings against each other and exact values around them. */
START_TEST(test_specials)
{
	const struct fmt *f = &fmts[_i];
	uint64_t sp[64];
	struct ub_exact ex[32];
	int ns = specials(f, sp);
	size_t n = 0, cap = (size_t)ns * ns * 32;
	struct ub_array y, cr, t;
	struct ub_exact *all = calloc(cap, sizeof *all);
	ck_assert(all && !ub_array_alloc(&y, f->dt, cap) &&
		  !ub_array_alloc(&cr, f->dt, cap) &&
		  !ub_array_alloc(&t, f->dt, cap));
	for (int a = 0; a < ns; a++)
		for (int c = 0; c < ns; c++) {
			int ne = exacts(f, decode(f, sp[c]), ex);
			for (int k = 0; k < ne; k++, n++) {
				check_elem(f, sp[a], sp[c], sp[(a + k) % ns], &ex[k]);
				ub_array_set(&y, n, sp[a]);
				ub_array_set(&cr, n, sp[c]);
				ub_array_set(&t, n, sp[(a + k) % ns]);
				all[n] = ex[k];
			}
		}
	y.n = cr.n = t.n = n;
	check_stats(f, &y, &cr, all, &t);
	ub_array_free(&y);
	ub_array_free(&cr);
	ub_array_free(&t);
	free(all);
}
END_TEST

/* Errors on the histogram's bounds and just past them (f32, y = 1,
 * v = 1 + m 2^-23 in the binade of spacing 2^-23: error m exactly). */
START_TEST(test_bounds)
{
	static const double m[] = {0, 0x1p-29, 0.5, 0.5 + 0x1p-29, 1, 1 + 0x1p-28,
				   2, 2 + 0x1p-27, 4, 4 + 0x1p-26, 16, 16 + 0x1p-24,
				   256, 256 + 0x1p-20, 0x1p22};
	const size_t n = sizeof m / sizeof m[0];
	struct ub_array y, cr;
	struct ub_exact ex[sizeof m / sizeof m[0]];
	ck_assert(!ub_array_alloc(&y, UB_F32, n) && !ub_array_alloc(&cr, UB_F32, n));
	for (size_t i = 0; i < n; i++) {
		ub_array_set(&y, i, 0x3f800000);
		ub_array_set(&cr, i, 0x3f800000);
		ex[i] = (struct ub_exact){1 + m[i] * 0x1p-23, 0};
		check_elem(&fmts[0], 0x3f800000, 0x3f800000, 0x3f800000, &ex[i]);
	}
	struct ub_stats st;
	ub_stats_compute(&y, &cr, ex, NULL, &st);
	/* by hand: 0 | 2^-29, 0.5 | 0.5+, 1 | 1+, 2 | 2+, 4 | 4+, 16 |
	 * 16+, 256 | 256+, 2^22 */
	static const size_t hist[UB_HIST_BINS] = {1, 2, 2, 2, 2, 2, 2, 2};
	for (int b = 0; b < UB_HIST_BINS; b++)
		ck_assert_msg(st.hist[b] == hist[b], "hist[%s] = %zu, expected %zu",
			      ub_hist_labels[b], st.hist[b], hist[b]);
	check_stats(&fmts[0], &y, &cr, ex, &y);
	ub_array_free(&y);
	ub_array_free(&cr);
}
END_TEST

/* Seeded random encodings and exact values, over several chunks. */
START_TEST(test_random)
{
	const struct fmt *f = &fmts[_i];
	size_t n = f->dt == UB_F32 ? 300000 : 100000;
	uint64_t mask = f->bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << f->bits) - 1;
	struct ub_array y, cr, t;
	struct ub_exact *ex = calloc(n, sizeof *ex);
	ck_assert(ex && !ub_array_alloc(&y, f->dt, n) &&
		  !ub_array_alloc(&cr, f->dt, n) && !ub_array_alloc(&t, f->dt, n));
	rng = SEED + (uint64_t)_i;
	for (size_t i = 0; i < n; i++) {
		uint64_t c = next() & mask, yi = c, ti;
		if (next() % 4 == 0) /* around zero */
			c = (next() & 15) | (next() & 1 ? UINT64_C(1) << (f->bits - 1) : 0);
		switch (next() % 4) {
		case 0: yi = c; break;
		case 1: yi = (c + (next() % 5) - 2) & mask; break;
		case 2: yi = next() & mask; break;
		default: yi = c ^ 1; break;
		}
		ti = next() % 3 ? yi : (yi + next() % 3) & mask;
		ex[i] = random_exact(f, decode(f, c));
		check_elem(f, yi, c, ti, &ex[i]);
		ub_array_set(&y, i, yi);
		ub_array_set(&cr, i, c);
		ub_array_set(&t, i, ti);
	}
	check_stats(f, &y, &cr, ex, &t);
	/* and all comparable, so that the mean is one of small errors */
	for (size_t i = 0; i < n; i++) {
		double c = decode(f, ub_array_get(&cr, i));
		ex[i] = (struct ub_exact){isfinite(c) ? c : 1, 0};
		if (!isfinite(c) || !isfinite(decode(f, ub_array_get(&y, i))))
			ub_array_set(&y, i, ub_array_get(&cr, i));
		if (isfinite(c))
			ex[i].hi += ref_ulp(f, c) * (double)((int64_t)next() >> 44) * 0x1p-19;
	}
	check_stats(f, &y, &cr, ex, &t);
	ub_array_free(&y);
	ub_array_free(&cr);
	ub_array_free(&t);
	free(ex);
}
END_TEST

Suite *ub_stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("fast_vs_reference");
	tcase_set_timeout(tc, 120);
	int nf = (int)(sizeof fmts / sizeof fmts[0]);
	tcase_add_loop_test(tc, test_specials, 0, nf);
	tcase_add_test(tc, test_bounds);
	tcase_add_loop_test(tc, test_random, 0, nf);
	suite_add_tcase(s, tc);
	return s;
}

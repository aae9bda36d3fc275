/* check_inputs.c — unit tests of the inputs module (src/run/inputs.c).
 *
 * The special-value lists are written out by hand from the IEEE 754
 * encodings (sign | biased exponent | fraction; f32 bias 127, f16 bias 15,
 * bf16 bias 127, f64 bias 1023) in the order documented in inputs.c.
 * The sampling tests check properties (determinism, prefix stability,
 * every binade hit, domains respected) rather than values. */
#include "suites.h"

#include "inputs.h"
#include "metrics.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* a domain of values [a, b], the other fields zero */
#define DOM(a, b) {.lo = (a), .hi = (b)}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const struct ub_domain all = DOM(-INFINITY, INFINITY);

/* f32, -inf..inf: 57 values. */
static const uint32_t f32_specials[] = {
	0x00000000, 0x80000000, /* +-0 */
	0x00000001, 0x80000001, /* smallest subnormal 2^-149 */
	0x007fffff, 0x807fffff, /* largest subnormal */
	0x00800000, 0x80800000, /* smallest normal 2^-126 */
	0x7f7fffff, 0xff7fffff, /* FLT_MAX */
	0x7f800000, 0xff800000, 0x7fc00000, /* +inf, -inf, NaN */
	0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, /* 1, 2 */
	0x3f000000, 0xbf000000, /* 0.5 */
	0x3f800001, 0xbf800001, /* 1+2^-23 */
	0x3f7fffff, 0xbf7fffff, /* 1-2^-24 */
	0x3fffffff, 0xbfffffff, /* 2-2^-23 */
	0x40000001, 0xc0000001, /* 2+2^-22 */
	/* 2^10: biased exponent 137 = 0x89 -> 0x44800000 */
	0x44800000, 0xc4800000, 0x447fffff, 0xc47fffff, 0x44800001, 0xc4800001,
	/* 2^-10: 117 = 0x75 -> 0x3a800000 */
	0x3a800000, 0xba800000, 0x3a7fffff, 0xba7fffff, 0x3a800001, 0xba800001,
	/* 2^60: 187 = 0xbb -> 0x5d800000 */
	0x5d800000, 0xdd800000, 0x5d7fffff, 0xdd7fffff, 0x5d800001, 0xdd800001,
	/* 2^-60: 67 = 0x43 -> 0x21800000 */
	0x21800000, 0xa1800000, 0x217fffff, 0xa17fffff, 0x21800001, 0xa1800001,
	/* 2^127: 254 = 0xfe -> 0x7f000000 */
	0x7f000000, 0xff000000, 0x7effffff, 0xfeffffff, 0x7f000001, 0xff000001,
};

/* f32 in [-1, 1]: everything above 1 in magnitude dropped, +-inf and
 * NaN too (no value of [-1, 1]). */
static const uint32_t f32_specials_pm1[] = {
	0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff,
	0x807fffff, 0x00800000, 0x80800000,
	0x3f800000, 0xbf800000, 0x3f000000, 0xbf000000,
	0x3f7fffff, 0xbf7fffff,
	0x3a800000, 0xba800000, 0x3a7fffff, 0xba7fffff, 0x3a800001, 0xba800001,
	0x21800000, 0xa1800000, 0x217fffff, 0xa17fffff, 0x21800001, 0xa1800001,
};

/* f16, -inf..inf: 2^+-60 are not representable; 2^emax = 2^15. */
static const uint32_t f16_specials[] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x8400,
	0x7bff, 0xfbff, /* 65504 */
	0x7c00, 0xfc00, 0x7e00,
	0x3c00, 0xbc00, 0x4000, 0xc000, 0x3800, 0xb800,
	0x3c01, 0xbc01, 0x3bff, 0xbbff, 0x3fff, 0xbfff, 0x4001, 0xc001,
	/* 2^10: biased 25 -> 0x6400 */
	0x6400, 0xe400, 0x63ff, 0xe3ff, 0x6401, 0xe401,
	/* 2^-10: biased 5 -> 0x1400 */
	0x1400, 0x9400, 0x13ff, 0x93ff, 0x1401, 0x9401,
	/* 2^15: biased 30 -> 0x7800 */
	0x7800, 0xf800, 0x77ff, 0xf7ff, 0x7801, 0xf801,
};

/* bf16 and f64: the first 14 (up to 1.0). */
static const uint32_t bf16_specials_head[] = {
	0x0000, 0x8000, 0x0001, 0x8001, 0x007f, 0x807f, 0x0080, 0x8080,
	0x7f7f, 0xff7f, 0x7f80, 0xff80, 0x7fc0, 0x3f80,
};
static const uint64_t f64_specials_head[] = {
	0x0000000000000000, 0x8000000000000000, 0x0000000000000001,
	0x8000000000000001, 0x000fffffffffffff, 0x800fffffffffffff,
	0x0010000000000000, 0x8010000000000000, 0x7fefffffffffffff,
	0xffefffffffffffff, 0x7ff0000000000000, 0xfff0000000000000,
	0x7ff8000000000000, 0x3ff0000000000000,
};

static void check_list(enum ub_dtype dt, const struct ub_domain *dom,
		       const uint64_t *want, size_t nwant, int exact_len)
{
	uint64_t got[128];
	size_t n = ub_special_values(dt, dom, got, N(got));
	if (exact_len)
		ck_assert_msg(n == nwant, "%s: %zu specials, expected %zu",
			      ub_dtypes[dt].name, n, nwant);
	else
		ck_assert_msg(n >= nwant, "%s: %zu specials", ub_dtypes[dt].name,
			      n);
	for (size_t i = 0; i < nwant; i++)
		ck_assert_msg(got[i] == want[i], "%s special %zu: 0x%llx (%a),"
			      " expected 0x%llx", ub_dtypes[dt].name, i,
			      (unsigned long long)got[i],
			      ub_bits_to_double(dt, got[i]),
			      (unsigned long long)want[i]);
}

static void check_list32(enum ub_dtype dt, const struct ub_domain *dom,
			 const uint32_t *want, size_t nwant, int exact_len)
{
	uint64_t w[128];
	for (size_t i = 0; i < nwant; i++)
		w[i] = want[i];
	check_list(dt, dom, w, nwant, exact_len);
}

/* f32 in [0, inf]: the non-negative half of f32_specials (-0 as a value
 * is 0), +inf, but neither -inf nor NaN. */
static const uint32_t f32_specials_pos[] = {
	0x00000000, 0x80000000, 0x00000001, 0x007fffff, 0x00800000,
	0x7f7fffff, 0x7f800000, 0x3f800000, 0x40000000, 0x3f000000,
	0x3f800001, 0x3f7fffff, 0x3fffffff, 0x40000001,
	0x44800000, 0x447fffff, 0x44800001, 0x3a800000, 0x3a7fffff, 0x3a800001,
	0x5d800000, 0x5d7fffff, 0x5d800001, 0x21800000, 0x217fffff, 0x21800001,
	0x7f000000, 0x7effffff, 0x7f000001,
};
/* f32 in [1, 2]: 1, 2, 1+2^-23 (0x3f800001), 2-2^-23 (0x3fffffff). */
static const uint32_t f32_specials_12[] = {
	0x3f800000, 0x40000000, 0x3f800001, 0x3fffffff,
};

START_TEST(test_specials_f32)
{
	check_list32(UB_F32, &all, f32_specials, N(f32_specials), 1);
	check_list32(UB_F32, NULL, f32_specials, N(f32_specials), 1);
	const struct ub_domain pm1 = DOM(-1, 1);
	check_list32(UB_F32, &pm1, f32_specials_pm1, N(f32_specials_pm1), 1);
	const struct ub_domain pos = DOM(0, INFINITY), one2 = DOM(1, 2), five = DOM(5, 5);
	check_list32(UB_F32, &pos, f32_specials_pos, N(f32_specials_pos), 1);
	check_list32(UB_F32, &one2, f32_specials_12, N(f32_specials_12), 1);
	check_list32(UB_F32, &five, NULL, 0, 1); /* 5 is no candidate */
}
END_TEST

START_TEST(test_specials_other)
{
	check_list32(UB_F16, &all, f16_specials, N(f16_specials), 1);
	check_list32(UB_BF16, &all, bf16_specials_head,
		     N(bf16_specials_head), 0);
	check_list(UB_F64, &all, f64_specials_head, N(f64_specials_head), 0);
}
END_TEST

/* No duplicates, the domain respected (NaN only for -inf..inf),
 * truncation to max. */
START_TEST(test_specials_props)
{
	static const struct ub_domain doms[] = {
		DOM(-INFINITY, INFINITY), DOM(-1, 1), DOM(0, INFINITY), DOM(0.1, 0.2),
		DOM(-INFINITY, -1), DOM(5, 5)};
	for (int dt = 0; dt < UB_NDTYPES; dt++)
		for (size_t d = 0; d < N(doms); d++) {
			uint64_t s[128];
			size_t n = ub_special_values(dt, &doms[d], s, N(s));
			ck_assert(d > 0 || n >= 3);
			for (size_t i = 0; i < n; i++) {
				double v = ub_bits_to_double(dt, s[i]);
				ck_assert_msg((isnan(v) && d == 0) ||
					      (v >= doms[d].lo &&
					       v <= doms[d].hi),
					      "%s %a outside [%g, %g]",
					      ub_dtypes[dt].name, v, doms[d].lo,
					      doms[d].hi);
				for (size_t j = 0; j < i; j++)
					ck_assert_msg(s[i] != s[j], "dup 0x%llx",
						      (unsigned long long)s[i]);
			}
			uint64_t t[5];
			size_t m = n < 5 ? n : 5;
			ck_assert_uint_eq(ub_special_values(dt, &doms[d], t, 5),
					  m);
			ck_assert(memcmp(t, s, m * sizeof t[0]) == 0);
		}
}
END_TEST

/* ------------------------------------------------------------ sampling */

static void gen(enum ub_dtype dt, int nin, const struct ub_domain *dom,
		size_t n, uint64_t seed, struct ub_array *out)
{
	struct ub_error err = {""};
	int rc = ub_inputs_generate(dt, nin, dom, n, seed, out, &err);
	ck_assert_msg(rc == 0, "generate: %s", err.msg);
	for (int k = 0; k < nin; k++)
		ck_assert_uint_eq(out[k].n, n);
}

static void drop(struct ub_array *a, int nin)
{
	for (int k = 0; k < nin; k++)
		ub_array_free(&a[k]);
}

START_TEST(test_determinism)
{
	struct ub_array a[2], b[2], c[2];
	size_t n = 5000, es = 4, diff = 0;
	gen(UB_F32, 2, NULL, n, 1, a);
	gen(UB_F32, 2, NULL, n, 1, b);
	gen(UB_F32, 2, NULL, n, 2, c);
	for (int k = 0; k < 2; k++) {
		ck_assert(memcmp(a[k].data, b[k].data, n * es) == 0);
		for (size_t i = 0; i < n; i++)
			diff += ub_array_get(&a[k], i) != ub_array_get(&c[k], i);
	}
	/* the 57*57 special pairs agree; nearly all random ones differ */
	ck_assert_msg(diff > 2 * (n - 57 * 57) - 10, "only %zu differ", diff);
	drop(a, 2);
	drop(b, 2);
	drop(c, 2);
}
END_TEST

/* Generating more elements only appends: sample i depends on (seed,k,i). */
START_TEST(test_prefix)
{
	int nin = _i + 1;
	struct ub_array a[3], b[3];
	gen(UB_F32, nin, NULL, 1000, 7, a);
	gen(UB_F32, nin, NULL, 2000, 7, b);
	for (int k = 0; k < nin; k++)
		ck_assert_msg(memcmp(a[k].data, b[k].data, 1000 * 4) == 0,
			      "nin=%d input %d", nin, k);
	drop(a, nin);
	drop(b, nin);
}
END_TEST

/* Input 0's random stream is the same whatever the number of inputs. */
START_TEST(test_stream_per_input)
{
	struct ub_array a[1], b[2];
	size_t n = 4000, start = 57 * 57; /* after the pairs of specials */
	gen(UB_F32, 1, NULL, n, 3, a);
	gen(UB_F32, 2, NULL, n, 3, b);
	for (size_t i = start; i < n; i++)
		ck_assert_msg(ub_array_get(&a[0], i) == ub_array_get(&b[0], i),
			      "element %zu", i);
	drop(a, 1);
	drop(b, 2);
}
END_TEST

/* 1e6 f32 samples hit all 256 exponent fields (255 via inf/NaN) and
 * both signs of each. */
START_TEST(test_binades_f32)
{
	struct ub_array a;
	static size_t count[2][256];
	size_t n = 1000000;
	memset(count, 0, sizeof count);
	gen(UB_F32, 1, NULL, n, 12345, &a);
	for (size_t i = 0; i < n; i++) {
		uint64_t b = ub_array_get(&a, i);
		count[b >> 31][(b >> 23) & 0xff]++;
	}
	for (int s = 0; s < 2; s++)
		for (int e = 0; e < 256; e++)
			ck_assert_msg(count[s][e] > 0, "sign %d exponent field "
				      "%d never drawn", s, e);
	/* uniform over encodings: about n/512 per (sign, exponent) */
	ck_assert_msg(count[0][127] > 1500 && count[0][127] < 2500,
		      "binade [1,2): %zu", count[0][127]);
	ub_array_free(&a);
}
END_TEST

/* f16, bf16 and f64: every exponent field of each is hit. */
START_TEST(test_binades_other)
{
	static const struct {
		enum ub_dtype dt;
		int shift, nexp;
		size_t n;
	} c[] = {{UB_F16, 10, 32, 20000}, {UB_BF16, 7, 256, 100000},
		 {UB_F64, 52, 2048, 300000}};
	for (size_t t = 0; t < N(c); t++) {
		struct ub_array a;
		char *hit = calloc((size_t)c[t].nexp, 1);
		gen(c[t].dt, 1, NULL, c[t].n, 99, &a);
		for (size_t i = 0; i < c[t].n; i++)
			hit[(ub_array_get(&a, i) >> c[t].shift) &
			    (uint64_t)(c[t].nexp - 1)] = 1;
		for (int e = 0; e < c[t].nexp; e++)
			ck_assert_msg(hit[e], "%s exponent field %d missed",
				      ub_dtypes[c[t].dt].name, e);
		free(hit);
		ub_array_free(&a);
	}
}
END_TEST

/* Every element, the leading specials too, lies inside the domain (no
 * NaN: none of these is -inf..inf).  Domain ends that are not
 * representable round inward. */
static const struct {
	enum ub_dtype dt;
	struct ub_domain dom;
} dom_cases[] = {
	{UB_F32, DOM(-1, 1)},       {UB_F32, DOM(0, INFINITY)},
	{UB_F32, DOM(0.1, 0.2)},    {UB_BF16, DOM(0.1, 0.2)},
	{UB_F16, DOM(-1e6, -1e-6)}, {UB_F64, DOM(-1, 1)},
	{UB_F64, DOM(0x1p-1074, 0x1p-1070)}, {UB_F32, DOM(5, 5)},
	{UB_F32, DOM(1, 2)},        {UB_F16, DOM(-INFINITY, -1)},
};

START_TEST(test_domain)
{
	enum ub_dtype dt = dom_cases[_i].dt;
	const struct ub_domain *d = &dom_cases[_i].dom;
	uint64_t sp[128];
	size_t nsp = ub_special_values(dt, d, sp, N(sp)), n = 100000;
	struct ub_array a;
	gen(dt, 1, d, n, 5, &a);
	ck_assert(nsp <= n);
	for (size_t i = 0; i < n; i++) {
		double v = ub_bits_to_double(dt, ub_array_get(&a, i));
		UB_ASSERT(v >= d->lo && v <= d->hi, "%s element %zu: %a "
			  "(0x%llx) outside [%a, %a]", ub_dtypes[dt].name,
			  i, v, (unsigned long long)ub_array_get(&a, i),
			  d->lo, d->hi);
	}
	ub_array_free(&a);
}
END_TEST

/* A small domain: every encoding in it is drawn, nothing else.
 * f16 [1, 1+3*2^-10] holds 0x3c00..0x3c03; [0.99999, 1.0029] rounds
 * inward to 1 (0.99999 > 1-2^-11) and 1+2*2^-10 = 1.001953 (1.0029 <
 * 1+3*2^-10 = 1.0029297): 0x3c00..0x3c02. */
START_TEST(test_small_domain)
{
	static const struct {
		struct ub_domain dom;
		unsigned first, last;
	} c[] = {{DOM(1, 0x1.00cp0), 0x3c00, 0x3c03},
		 {DOM(0.99999, 1.0029), 0x3c00, 0x3c02}};
	for (size_t t = 0; t < N(c); t++) {
		struct ub_array a;
		size_t count[4] = {0}, n = 1000;
		gen(UB_F16, 1, &c[t].dom, n, 11, &a);
		for (size_t i = 2; i < n; i++) { /* after the specials 1, 1+ulp */
			unsigned b = (unsigned)ub_array_get(&a, i);
			ck_assert_msg(b >= c[t].first && b <= c[t].last,
				      "0x%04x outside", b);
			count[b - c[t].first]++;
		}
		for (unsigned b = 0; b <= c[t].last - c[t].first; b++)
			ck_assert_msg(count[b] > 150, "0x%04x drawn %zu times",
				      c[t].first + b, count[b]);
		ub_array_free(&a);
	}
}
END_TEST

/* Subnormals and tiny binades get their share inside [-1, 1]. */
START_TEST(test_tiny_share)
{
	struct ub_array a;
	const struct ub_domain pm1 = DOM(-1, 1);
	size_t n = 100000, sub = 0, tiny = 0;
	gen(UB_F32, 1, &pm1, n, 8, &a);
	for (size_t i = 100; i < n; i++) {
		uint64_t b = ub_array_get(&a, i);
		sub += ((b >> 23) & 0xff) == 0;
		tiny += fabs(ub_bits_to_double(UB_F32, b)) < 0x1p-100;
	}
	/* 1/127 of the encodings are subnormal, 27/127 below 2^-100 (fields 0..26) */
	ck_assert_msg(sub > 500 && sub < 1100, "%zu subnormals", sub);
	ck_assert_msg(tiny > 18000 && tiny < 23000, "%zu below 2^-100", tiny);
	ub_array_free(&a);
}
END_TEST

/* Layout of the special combinations. */
START_TEST(test_layout)
{
	uint64_t sp[128];
	size_t m = ub_special_values(UB_F32, NULL, sp, N(sp));
	struct ub_array a[3];
	ck_assert_uint_eq(m, N(f32_specials));
	gen(UB_F32, 2, NULL, m * m + 10, 1, a); /* cross product */
	for (size_t i = 0; i < m * m; i++) {
		ck_assert(ub_array_get(&a[0], i) == sp[i / m]);
		ck_assert(ub_array_get(&a[1], i) == sp[i % m]);
	}
	drop(a, 2);
	gen(UB_F32, 3, NULL, 3 * m, 1, a); /* one block per input */
	for (int k = 0; k < 3; k++) {
		size_t same = 0;
		for (size_t j = 0; j < m; j++) {
			ck_assert(ub_array_get(&a[k], k * m + j) == sp[j]);
			same += ub_array_get(&a[(k + 1) % 3], k * m + j) ==
				sp[j];
		}
		ck_assert_msg(same < 5, "block %d: others not random", k);
	}
	drop(a, 3);
	gen(UB_F32, 1, NULL, 10, 1, a); /* truncated to n */
	for (size_t i = 0; i < 10; i++)
		ck_assert(ub_array_get(&a[0], i) == f32_specials[i]);
	drop(a, 1);
}
END_TEST

START_TEST(test_errors)
{
	struct ub_array a[UB_MAX_INPUTS + 1];
	struct ub_error err;
	/* bf16 has nothing between 1 and 1+2^-7 = 0x1.02p0 */
	static const struct ub_domain empty = DOM(0x1.01p0, 0x1.018p0),
		nan = DOM(NAN, 1), rev = DOM(1, -1);
	ck_assert_int_eq(ub_inputs_generate(UB_F32, 0, NULL, 10, 1, a, &err),
			 UB_USAGE);
	ck_assert_int_eq(ub_inputs_generate(UB_F32, UB_MAX_INPUTS + 1, NULL,
					    10, 1, a, &err), UB_USAGE);
	ck_assert_int_eq(ub_inputs_generate(UB_BF16, 1, &empty, 10, 1, a,
					    &err), UB_USAGE);
	ck_assert_msg(strstr(err.msg, "holds no bf16 value"), "%s", err.msg);
	ck_assert_int_eq(ub_inputs_generate(UB_F32, 1, &nan, 10, 1, a, &err),
			 UB_USAGE);
	ck_assert_int_eq(ub_inputs_generate(UB_F32, 1, &rev, 10, 1, a, &err),
			 UB_USAGE);
	gen(UB_F32, 1, NULL, 0, 1, a); /* n = 0 is fine */
	drop(a, 1);
}
END_TEST

/* ub_ordered by its definition, on every f16 and bf16 encoding: the
 * encodings that are numbers, sorted by value with -0 just below +0, take
 * consecutive integers with +0 at 0 (so -0 at -1); ub_from_ordered takes
 * each back; and in f32 and f64 the ends and the zeros by hand. */
struct enc {
	double v;     /* the value */
	uint64_t b;   /* the encoding */
};

static int by_value(const void *a, const void *b)
{
	const struct enc *x = a, *y = b;
	if (x->v != y->v)
		return x->v < y->v ? -1 : 1;
	return (signbit(y->v) != 0) - (signbit(x->v) != 0);   /* -0 first */
}

START_TEST(test_ordered)
{
	struct enc *v = malloc(0x10000 * sizeof *v);
	ck_assert_ptr_nonnull(v);
	for (enum ub_dtype dt = UB_F16; dt <= UB_BF16; dt++) {
		size_t n = 0, zero = 0;
		for (uint64_t b = 0; b < 0x10000; b++) {
			double m = ub_bits_to_double(dt, b);
			if (!isnan(m))
				v[n++] = (struct enc){ m, b };
		}
		qsort(v, n, sizeof *v, by_value);
		while (!(v[zero].v == 0 && !signbit(v[zero].v)))
			zero++;
		for (size_t k = 0; k < n; k++) {
			uint64_t b = v[k].b;
			UB_ASSERT(ub_ordered(dt, b) == (int64_t)k - (int64_t)zero,
				  "%s 0x%04llx: %lld", ub_dtypes[dt].name,
				  (unsigned long long)b, (long long)ub_ordered(dt, b));
			UB_ASSERT(ub_from_ordered(dt, ub_ordered(dt, b)) == b,
				  "%s 0x%04llx: back from its index 0x%04llx", ub_dtypes[dt].name,
				  (unsigned long long)b,
				  (unsigned long long)ub_from_ordered(dt, ub_ordered(dt, b)));
		}
	}
	free(v);
	ck_assert(ub_ordered(UB_F32, 0x80000000u) == -1);
	ck_assert(ub_ordered(UB_F32, 0x80000001u) == -2);
	ck_assert(ub_ordered(UB_F32, 0xff800000u) == -(int64_t)0x7f800000 - 1);
	ck_assert(ub_ordered(UB_F32, 0x7f800000u) == 0x7f800000);
	ck_assert(ub_ordered(UB_F64, UINT64_C(0x8000000000000000)) == -1);
	ck_assert(ub_ordered(UB_F64, UINT64_C(0xfff0000000000000)) ==
		  -(int64_t)UINT64_C(0x7ff0000000000000) - 1);
}
END_TEST

/* ub_ordered_bound against a scan of every f16 and bf16 encoding (the
 * smallest value >= v, the largest <= v), and in f64 against encodings
 * written by hand. */
static int64_t scan_bound(enum ub_dtype dt, double v, int up)
{
	int64_t best = up ? INT64_MAX : INT64_MIN;
	for (uint64_t b = 0; b < 0x10000; b++) {
		double m = ub_bits_to_double(dt, b);
		int64_t o = ub_ordered(dt, b);
		if (isnan(m))
			continue;
		if (up ? m >= v && o < best : m <= v && o > best)
			best = o;
	}
	return best;
}

START_TEST(test_ordered_bound)
{
	static const double vs[] = {-INFINITY, -70000, -65504, -1.5, -0x1p-24,
				    -0x1p-30, 0x1p-30, 0x1p-25, 1, 1.0001, 65519,
				    3e38, 4e38, INFINITY};
	for (enum ub_dtype dt = UB_F16; dt <= UB_BF16; dt++)
		for (size_t i = 0; i < N(vs); i++)
			for (int up = 0; up < 2; up++)
				ck_assert_msg(ub_ordered_bound(dt, vs[i], up) ==
					      scan_bound(dt, vs[i], up), "%s %a up=%d",
					      ub_dtypes[dt].name, vs[i], up);
	/* f64: each double is itself; the ends of the line and the zeros */
	ck_assert(ub_ordered_bound(UB_F64, 0x1.0000000000002p0, 0) ==
		  ub_ordered(UB_F64, UINT64_C(0x3ff0000000000002)));
	ck_assert(ub_ordered_bound(UB_F64, INFINITY, 0) ==
		  ub_ordered(UB_F64, UINT64_C(0x7ff0000000000000)));
	ck_assert(ub_ordered_bound(UB_F64, -INFINITY, 1) ==
		  ub_ordered(UB_F64, UINT64_C(0xfff0000000000000)));
	ck_assert(ub_ordered_bound(UB_F64, -0x1p-1074, 0) ==
		  ub_ordered(UB_F64, UINT64_C(0x8000000000000001)));
	ck_assert(ub_ordered_bound(UB_F64, 0.0, 1) == -1); /* -0 */
	ck_assert(ub_ordered_bound(UB_F64, -0.0, 0) == 0); /* +0 */
}
END_TEST

Suite *ub_inputs_suite(void)
{
	Suite *s = suite_create("inputs");
	TCase *tc = tcase_create("specials");
	tcase_add_test(tc, test_specials_f32);
	tcase_add_test(tc, test_specials_other);
	tcase_add_test(tc, test_specials_props);
	tcase_add_test(tc, test_ordered_bound);
	suite_add_tcase(s, tc);
	tc = tcase_create("sampling");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_determinism);
	tcase_add_loop_test(tc, test_prefix, 0, 3);
	tcase_add_test(tc, test_stream_per_input);
	tcase_add_test(tc, test_binades_f32);
	tcase_add_test(tc, test_binades_other);
	tcase_add_loop_test(tc, test_domain, 0, (int)N(dom_cases));
	tcase_add_test(tc, test_small_domain);
	tcase_add_test(tc, test_tiny_share);
	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_ordered);
	suite_add_tcase(s, tc);
	return s;
}

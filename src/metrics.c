/* metrics.c — ULP error, bit agreement and their statistics (metrics.h).
 *
 * ulp(v) follows the definition in metrics.h: with e = floor(log2|v|)
 * (ilogb, exact on doubles) the spacing is 2^(max(e, emin) - p + 1),
 * 2^(e - p) at an exact power of two above the smallest normal, and
 * 2^(emax - p + 1) beyond the largest finite binade (and at +-inf).
 *
 * The error |y - v| / ulp(v) is computed from the double-double exact value
 * v = hi + lo: y - hi by TwoSum (s + t exactly), then s + (t - lo), so the
 * only rounding is one final relative 2^-53, far below what a ULP metric
 * shows.  Inputs near the top of the double range are halved first so the
 * difference cannot overflow.  When hi is a power of two and lo pushes v
 * above it in magnitude, v is not a power of two and the spacing above
 * is used.
 *
 * Distances use ordered integers (+0 -> 0, -0 -> -1, negatives below), so
 * +0 and -0 are 1 apart and neighbouring encodings differ by 1. */
#include "metrics.h"

#include <math.h>
#include <string.h>

/* The histogram of ULP errors, declared once: label, upper bound
 * (inclusive; bin 0 holds exact zeros only). */
#define UB_HIST(X)                 \
	X("0", 0.0)                    \
	X("(0,0.5]", 0.5)              \
	X("(0.5,1]", 1.0)              \
	X("(1,2]", 2.0)                \
	X("(2,4]", 4.0)                \
	X("(4,16]", 16.0)              \
	X("(16,256]", 256.0)           \
	X(">256", INFINITY)

const char *const ub_hist_labels[UB_HIST_BINS] = {
#define X(label, upper) label,
	UB_HIST(X)
#undef X
};
static const double hist_upper[] = {
#define X(label, upper) upper,
	UB_HIST(X)
#undef X
};
_Static_assert(sizeof hist_upper / sizeof hist_upper[0] == UB_HIST_BINS,
	       "UB_HIST and UB_HIST_BINS disagree");

static uint64_t mask_of(enum ub_dtype dt)
{
	int b = ub_dtypes[dt].bits;
	return b == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b) - 1;
}

static uint64_t sign_of(enum ub_dtype dt)
{
	return UINT64_C(1) << (ub_dtypes[dt].bits - 1);
}

/* 2^k, by its encoding where it is a normal double (ldexp is slow). */
static double pow2(int k)
{
	if (k < -1022 || k > 1023)
		return ldexp(1, k);
	uint64_t u = (uint64_t)(k + 1023) << 52;
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

double ub_ulp(enum ub_dtype dt, double v)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	double a = fabs(v);
	int e;
	if (isnan(v))
		return NAN;
	if (isinf(a))
		e = f->emax + 1;
	else if (a == 0)
		e = f->emin - 1;
	else
		e = ilogb(a);
	if (e > f->emax)
		return pow2(f->emax - f->prec + 1);
	if (e < f->emin)
		return pow2(f->emin - f->prec + 1);
	if (e > f->emin && a == pow2(e))
		return pow2(e - f->prec);
	return pow2(e - f->prec + 1);
}

/* ulp of the exact value hi + lo (see the file comment). */
static double ulp_exact(enum ub_dtype dt, const struct ub_exact *v)
{
	double a = fabs(v->hi);
	int above = v->lo != 0 && (v->lo > 0) == (v->hi > 0);
	if (above && a != 0 && a == pow2(ilogb(a)))
		return ub_ulp(dt, nextafter(a, INFINITY));
	return ub_ulp(dt, v->hi);
}

static double frac_error(enum ub_dtype dt, double y, const struct ub_exact *v)
{
	double hi = v->hi, lo = v->lo, scale = 1;
	if (fabs(y) > 0x1p1020 || fabs(hi) > 0x1p1020) { /* ~1e307 */
		y *= 0.5;
		hi *= 0.5;
		lo *= 0.5;
		scale = 0.5;
	}
	double s = y - hi, bb = s - y;
	double t = (y - (s - bb)) + (-hi - bb); /* TwoSum: s + t = y - hi */
	double d = s + (t - lo);
	return fabs(d) / (ulp_exact(dt, v) * scale);
}

int ub_ulp_error(enum ub_dtype dt, uint64_t y, uint64_t cr,
		 const struct ub_exact *v, double *err)
{
	double yd = ub_bits_to_double(dt, y), cd = ub_bits_to_double(dt, cr);
	if (!isfinite(yd) || !isfinite(cd)) {
		if (ub_same(dt, y, cr)) {
			*err = 0;
			return 0;
		}
		/* only a finite y against an overflowed finite v goes on */
		if (!isfinite(yd) || isnan(cd))
			return 1;
	}
	if (!isfinite(v->hi))
		return 1;
	*err = frac_error(dt, yd, v);
	return 0;
}

int ub_same(enum ub_dtype dt, uint64_t a, uint64_t b)
{
	int an = ub_bits_isnan(dt, a), bn = ub_bits_isnan(dt, b);
	if (an || bn)
		return an && bn;
	return ((a ^ b) & mask_of(dt)) == 0;
}

int64_t ub_ordered(enum ub_dtype dt, uint64_t bits)
{
	uint64_t s = sign_of(dt), mag = bits & mask_of(dt) & ~s;
	return bits & s ? -(int64_t)mag - 1 : (int64_t)mag;
}

uint64_t ub_from_ordered(enum ub_dtype dt, int64_t o)
{
	return o >= 0 ? (uint64_t)o : sign_of(dt) | (uint64_t)(-(o + 1));
}

uint64_t ub_distance(enum ub_dtype dt, uint64_t a, uint64_t b)
{
	int an = ub_bits_isnan(dt, a), bn = ub_bits_isnan(dt, b);
	if (an || bn)
		return an && bn ? 0 : UINT64_MAX;
	int64_t oa = ub_ordered(dt, a), ob = ub_ordered(dt, b);
	/* the true difference is below 2^64: modular arithmetic is exact */
	return oa >= ob ? (uint64_t)oa - (uint64_t)ob
			: (uint64_t)ob - (uint64_t)oa;
}

static void add_error(struct ub_stats *st, size_t i, double e)
{
	if (st->ncomparable == 0 || e > st->max_ulp) {
		st->max_ulp = e;
		st->worst = i;
	}
	st->ncomparable++;
	st->sum_ulp += e;
	int b = 0;
	while (b < UB_HIST_BINS - 1 && !(e <= hist_upper[b]))
		b++;
	st->hist[b]++;
}

static void add_torch(struct ub_stats *st, enum ub_dtype dt, uint64_t y,
		      uint64_t t)
{
	if (ub_same(dt, y, t))
		return;
	st->torch_mismatch++;
	uint64_t d = ub_distance(dt, y, t);
	if (d != UINT64_MAX && d > st->torch_max_dist)
		st->torch_max_dist = d;
}

/* One pass over elements [lo, hi) into st (reset first), indices local
 * to lo. */
static void stats_pass(const struct ub_array *y, const struct ub_array *cr,
		       const struct ub_exact *exact,
		       const struct ub_array *torch, size_t lo, size_t hi,
		       struct ub_stats *st)
{
	enum ub_dtype dt = y->dt;
	memset(st, 0, sizeof *st);
	st->n = hi - lo;
	for (size_t i = lo; i < hi; i++) {
		uint64_t yi = ub_array_get(y, i), ci = ub_array_get(cr, i);
		double e;
		if (!ub_same(dt, yi, ci))
			st->cr_mismatch++;
		if (ub_ulp_error(dt, yi, ci, &exact[i], &e))
			st->nan_mismatch++;
		else
			add_error(st, i - lo, e);
		if (torch)
			add_torch(st, dt, yi, ub_array_get(torch, i));
	}
}

void ub_stats_compute(const struct ub_array *y, const struct ub_array *cr,
		      const struct ub_exact *exact,
		      const struct ub_array *torch, struct ub_stats *st)
{
	struct ub_stats part;
	memset(st, 0, sizeof *st);
	size_t lo = 0;
	do {
		size_t hi = y->n - lo < UB_STATS_CHUNK ? y->n : lo + UB_STATS_CHUNK;
		stats_pass(y, cr, exact, torch, lo, hi, &part);
		ub_stats_merge(st, &part, lo);
		lo = hi;
	} while (lo < y->n);
}

int ub_stats_merge(struct ub_stats *st, const struct ub_stats *part,
		   size_t offset)
{
	int took = part->ncomparable && (st->ncomparable == 0 ||
					 part->max_ulp > st->max_ulp);
	if (took) {
		st->max_ulp = part->max_ulp;
		st->worst = offset + part->worst;
	}
	st->n += part->n;
	st->sum_ulp += part->sum_ulp;
	st->ncomparable += part->ncomparable;
	st->cr_mismatch += part->cr_mismatch;
	st->torch_mismatch += part->torch_mismatch;
	st->nan_mismatch += part->nan_mismatch;
	if (part->torch_max_dist > st->torch_max_dist)
		st->torch_max_dist = part->torch_max_dist;
	for (int b = 0; b < UB_HIST_BINS; b++)
		st->hist[b] += part->hist[b];
	return took;
}

double ub_stats_mean(const struct ub_stats *st)
{
	return st->ncomparable ? st->sum_ulp / (double)st->ncomparable : 0;
}

/* metrics.c — ULP error, bit agreement and their statistics (metrics.h).
 *
 * ulp(v) follows the definition in metrics.h: with e = floor(log2|v|)
 * (read off the exponent field of the double v) the spacing is 2^(max(e, emin) - p + 1),
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
 * +0 and -0 are 1 apart and neighbouring encodings differ by 1.
 *
 * The statistics loop is the hot part of a long run (metrics_pass.c):
 * each definition above is a static inline function on encodings
 * (metrics_def.h, ub_bits.h), and the loop is expanded once per dtype so
 * that it runs without a function call or a libm call per element.  The
 * public functions here are the same definitions. */
#include "metrics.h"
#include "metrics_def.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const ub_hist_labels[UB_HIST_BINS] = {
#define X(label, upper) label,
	UB_HIST(X)
#undef X
};

double ub_ulp(enum ub_dtype dt, double v)
{
	return isnan(v) ? NAN : ub_pow2(ulp_exact_exp(dt, v, 0));
}

int ub_ulp_error(enum ub_dtype dt, uint64_t y, uint64_t cr,
		 const struct ub_exact *v, double *err)
{
	if (ub_exact_undecided(v))
		return 2;
	return ulp_error(dt, y, cr, v, err);
}

static void merge_COUNT(size_t *a, const size_t *b, size_t n)
{
	for (size_t k = 0; k < n; k++)
		a[k] += b[k];
}

static void merge_MAXU(uint64_t *a, const uint64_t *b, size_t n)
{
	for (size_t k = 0; k < n; k++)
		a[k] = b[k] > a[k] ? b[k] : a[k];
}

static void merge_XSUM(struct ub_xsum *a, const struct ub_xsum *b, size_t n)
{
	for (size_t k = 0; k < n; k++)
		ub_xsum_merge(&a[k], &b[k]);
}

/* part's worst beats st's: a larger error, or the lower index of equal
 * ones (an order of the elements, so merges commute). */
static int worse(const struct ub_stats *part, const struct ub_stats *st)
{
	if (!part->ncomparable)
		return 0;
	if (!st->ncomparable || part->max_ulp > st->max_ulp)
		return 1;
	return part->max_ulp == st->max_ulp && part->worst < st->worst;
}

int ub_stats_merge(struct ub_stats *st, const struct ub_stats *part)
{
	int took = worse(part, st);
	if (took) {
		st->max_ulp = part->max_ulp;
		st->worst = part->worst;
		memcpy(st->worst_in, part->worst_in, sizeof st->worst_in);
	}
	if (part->undecided && (!st->undecided || part->first_undecided < st->first_undecided)) {
		st->first_undecided = part->first_undecided;
		memcpy(st->undecided_in, part->undecided_in, sizeof st->undecided_in);
	}
#define X(kind, name, dims)                                                    \
	merge_##kind((ub_stats_##kind *)&st->name,                             \
		     (const ub_stats_##kind *)&part->name,                     \
		     sizeof st->name / sizeof(ub_stats_##kind));
	UB_STATS_FIELDS(X)
#undef X
	return took;
}

static int equal_COUNT(const size_t *a, const size_t *b, size_t n)
{
	return !memcmp(a, b, n * sizeof *a);
}

static int equal_MAXU(const uint64_t *a, const uint64_t *b, size_t n)
{
	return !memcmp(a, b, n * sizeof *a);
}

static int equal_XSUM(const struct ub_xsum *a, const struct ub_xsum *b, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!ub_xsum_equal(&a[k], &b[k]))
			return 0;
	return 1;
}

int ub_stats_equal(const struct ub_stats *a, const struct ub_stats *b)
{
	int same = !memcmp(&a->max_ulp, &b->max_ulp, sizeof a->max_ulp) &&
		   a->worst == b->worst &&
		   !memcmp(a->worst_in, b->worst_in, sizeof a->worst_in) &&
		   a->first_undecided == b->first_undecided &&
		   !memcmp(a->undecided_in, b->undecided_in, sizeof a->undecided_in);
#define X(kind, name, dims)                                                    \
	same = same && equal_##kind((const ub_stats_##kind *)&a->name,         \
				    (const ub_stats_##kind *)&b->name,         \
				    sizeof a->name / sizeof(ub_stats_##kind));
	UB_STATS_FIELDS(X)
#undef X
	return same;
}

double ub_stats_mean(const struct ub_stats *st)
{
	return st->ncomparable ? ub_xsum_div(&st->sum_ulp, st->ncomparable) : 0;
}

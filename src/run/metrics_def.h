/* metrics_def.h — the definitions of metrics.h as static inline functions on
 * encodings, shared by metrics.c (the public functions) and metrics_pass.c
 * (the statistics loop, which needs them inlined and specialised to each
 * dtype).  See metrics.c for the definitions in words. */
#ifndef UB_METRICS_DEF_H
#define UB_METRICS_DEF_H

#include "metrics.h"
#include "ub_bits.h"

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

static const double hist_upper[] = {
#define X(label, upper) upper,
	UB_HIST(X)
#undef X
};
_Static_assert(sizeof hist_upper / sizeof hist_upper[0] == UB_HIST_BINS,
	       "UB_HIST and UB_HIST_BINS disagree");

/* The spacing of dt, 2^k, at a value of exponent e = floor(log2|v|) (any
 * e below emin for 0 and values below the normals, any e above emax for
 * inf); below: v is a power of two, whose spacing is the one below it
 * (above 2^emin only; at 2^emin the subnormals share it). */
UB_INLINE int spacing_exp(enum ub_dtype dt, int e, int below)
{
	int p = ub_dt_prec(dt), emin = ub_dt_emin(dt), emax = ub_dt_emax(dt);
	if (e > emax)
		return emax - p + 1;
	if (e < emin)
		return emin - p + 1;
	return e - p + 1 - (below && e > emin);
}

/* log2 of the ulp of the exact value hi + lo (see the file comment), hi
 * not NaN.  From the fields of hi: a normal double has e = exponent - 1023
 * and is a power of two when its mantissa is 0; 0 and subnormal doubles
 * get e = -1023, below the emin of every dtype; inf gets 1024, above every
 * emax. */
UB_INLINE int ulp_exact_exp(enum ub_dtype dt, double hi, double lo)
{
	uint64_t u;
	memcpy(&u, &hi, sizeof u);
	int e = (int)(u >> 52 & 0x7ff) - 1023;
	int pow2_mant = (u & ((UINT64_C(1) << 52) - 1)) == 0;
	int above = lo != 0 && (lo > 0) == (hi > 0);
	return spacing_exp(dt, e, pow2_mant && !above);
}

UB_INLINE double frac_error(enum ub_dtype dt, double y,
			    const struct ub_exact *v)
{
	double hi = v->hi, lo = v->lo;
	int k = ulp_exact_exp(dt, hi, lo); /* the divisor: 2^k, halved below */
	if (fabs(y) > 0x1p1020 || fabs(hi) > 0x1p1020) { /* ~1e307 */
		y *= 0.5;
		hi *= 0.5;
		lo *= 0.5;
		k--;
	}
	double s = y - hi, bb = s - y;
	double t = (y - (s - bb)) + (-hi - bb); /* TwoSum: s + t = y - hi */
	double d = s + (t - lo);
	/* d / 2^k and d * 2^-k round the same real number: where 2^-k is a
	 * normal double (every k of f32, f16, bf16), the product */
	return k > -1023 ? fabs(d) * ub_pow2(-k) : fabs(d) / ub_pow2(k);
}

/* The definition of ub_ulp_error, inline so that stats_pass specialises it
 * to each dtype (ub_bits.h has the others). */
UB_INLINE int ulp_error(enum ub_dtype dt, uint64_t y, uint64_t cr,
			 const struct ub_exact *v, double *err)
{
	int yfin = ub_bits_isfinite_i(dt, y);
	if (!yfin || !ub_bits_isfinite_i(dt, cr)) {
		if (ub_bits_same_i(dt, y, cr)) {
			*err = 0;
			return 0;
		}
		/* only a finite y against an overflowed finite v goes on */
		if (!yfin || ub_bits_isnan_i(dt, cr))
			return 1;
	}
	if (!isfinite(v->hi))
		return 1;
	*err = frac_error(dt, ub_bits_to_double_i(dt, y), v);
	return 0;
}

/* Past 0.5 every bound is a power of two: e in (2^(k-1), 2^k] exceeds
 * exactly the bounds up to 2^(k-1), and k - 1 is the exponent of the
 * double just below e (e's encoding minus one).  hist_past[k], k = 0 ..
 * 9: how many of the bounds 0, 0.5, 1, 2, 4, 16, 256 are at most
 * 2^(k-1); from k = 9 on (e > 256), and for inf and NaN (encodings whose
 * exponent field, less one, is 0x7fe or more), the last bin.
 * tests/check_metrics_pass.c checks hist_bin against the bounds. */
static const unsigned char hist_past[10] = {2, 3, 4, 5, 5, 6, 6, 6, 6, 7};

/* The bin of an error: the number of bounds that e exceeds (they
 * increase), a NaN past them all.  Most errors are at most half an ulp:
 * one branch, well predicted, spares them the rest.  Past it, k clamped
 * to 9 (hist_past[9] is the last bin) by a select, not a branch: the
 * elements that reach it are the mismatching ones, whose errors are
 * small and huge in no predictable order. */
UB_INLINE int hist_bin(double e)
{
	if (e <= hist_upper[1])
		return !(e <= hist_upper[0]);
	uint64_t u;
	memcpy(&u, &e, sizeof u);
	uint64_t k = ((u - 1) >> 52) - 1022; /* 1022: the exponent field of 0.5 */
	k = k < sizeof hist_past - 1 ? k : sizeof hist_past - 1;
	return hist_past[k];
}

/* Error e of element i into st, its share of the sum into sum (which
 * the caller flushes into st->sum_ulp). */
UB_INLINE void add_error(struct ub_stats *st, struct ub_xsum_acc *sum,
			 size_t i, double e)
{
	if (st->ncomparable == 0 || e > st->max_ulp) {
		st->max_ulp = e;
		st->worst = i;
	}
	st->ncomparable++;
	ub_xsum_acc_add(sum, e);
	st->hist[hist_bin(e)]++;
}

UB_INLINE void add_torch(struct ub_stats *st, enum ub_dtype dt,
			  uint64_t y, uint64_t t)
{
	if (ub_bits_same_i(dt, y, t))
		return;
	st->torch_mismatch++;
	uint64_t d = ub_bits_distance_i(dt, y, t);
	if (d != UINT64_MAX && d > st->torch_max_dist)
		st->torch_max_dist = d;
}

/* What every row of a chunk shares about element i, from the reference
 * alone (struct ub_stats_prep): flag bits, and for a finite exact value
 * the factor 2^-k that turns |y - v| into ulps of v (frac_error's
 * divisor, k = ulp_exact_exp). */
enum {
	PF_CRFIN = 1,     /* the correctly rounded result is finite */
	PF_CRNAN = 2,     /* it is NaN */
	PF_EXFIN = 4,     /* the exact value's hi is finite */
	PF_UNDEC = 8,     /* undecided (ub_exact_undecided) */
	PF_SLOW = 16,     /* frac_error's own way: hi near the top of the
			     doubles, or a divisor below the normals (f64) */
	PF_FAST = 32      /* CRFIN and EXFIN, neither UNDEC nor SLOW: a row
			     whose result is the correctly rounded one has
			     the error prepared in ecr (metrics_pass.c) */
};

/* frac_error's value for a finite y (as a double, yd) and a finite exact
 * v of |hi| at most 2^1020 whose divisor 2^k is a normal double: mul =
 * 2^-k. */
UB_INLINE double err_fast(double yd, const struct ub_exact *v, double mul)
{
	double hi = v->hi;
	double s = yd - hi, bb = s - yd;
	double t = (yd - (s - bb)) + (-hi - bb); /* TwoSum: s + t = y - hi */
	return fabs(s + (t - v->lo)) * mul;
}

/* ulp_error with what prep_of found: the same values, the per-element
 * work of the reference done once for every row. */
UB_INLINE int ulp_error_prep(enum ub_dtype dt, uint64_t y, uint64_t cr,
			     unsigned f, double mul, const struct ub_exact *v,
			     double *err)
{
	int yfin = ub_bits_isfinite_i(dt, y);
	if (!yfin || !(f & PF_CRFIN)) {
		if (ub_bits_same_i(dt, y, cr)) {
			*err = 0;
			return 0;
		}
		if (!yfin || (f & PF_CRNAN))
			return 1;
	}
	if (!(f & PF_EXFIN))
		return 1;
	if (f & PF_SLOW) {
		*err = frac_error(dt, ub_bits_to_double_i(dt, y), v);
		return 0;
	}
	*err = err_fast(ub_bits_to_double_i(dt, y), v, mul);
	return 0;
}

#endif

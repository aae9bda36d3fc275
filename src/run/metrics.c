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
 * The statistics loop is the hot part of a long run: each definition
 * above is a static inline function on encodings (ub_bits.h), and the
 * loop is expanded once per dtype so that it runs without a function call
 * or a libm call per element.  The public functions are the same
 * definitions. */
#include "metrics.h"
#include "ub_bits.h"

#include <math.h>
#include <stdlib.h>
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

double ub_ulp(enum ub_dtype dt, double v)
{
	return isnan(v) ? NAN : ub_pow2(ulp_exact_exp(dt, v, 0));
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

int ub_ulp_error(enum ub_dtype dt, uint64_t y, uint64_t cr,
		 const struct ub_exact *v, double *err)
{
	if (ub_exact_undecided(v))
		return 2;
	return ulp_error(dt, y, cr, v, err);
}

/* The bin of an error: the bounds increase, so the number of them that e
 * exceeds is the first bin whose bound holds e; a NaN exceeds them all
 * and goes to the last bin.  Most errors are at most half an ulp: one
 * branch, well predicted, spares them the other compares. */
UB_INLINE int hist_bin(double e)
{
	if (e <= hist_upper[1])
		return !(e <= hist_upper[0]);
	int b = 0
#define X(label, upper) + !(e <= (upper))
		UB_HIST(X)
#undef X
		;
	return b < UB_HIST_BINS - 1 ? b : UB_HIST_BINS - 1;
}

UB_INLINE void add_error(struct ub_stats *st, size_t i, double e)
{
	if (st->ncomparable == 0 || e > st->max_ulp) {
		st->max_ulp = e;
		st->worst = i;
	}
	st->ncomparable++;
	ub_xsum_add(&st->sum_ulp, e);
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
	PF_SLOW = 16      /* frac_error's own way: hi near the top of the
			     doubles, or a divisor below the normals (f64) */
};

UB_INLINE void prep_of(enum ub_dtype dt, const void *cr,
		       const struct ub_exact *exact, size_t lo, size_t hi,
		       struct ub_stats_prep *p)
{
	for (size_t i = lo; i < hi; i++) {
		uint64_t ci = ub_load(dt, cr, i);
		const struct ub_exact *v = &exact[i];
		unsigned f = (ub_bits_isfinite_i(dt, ci) ? PF_CRFIN : 0) |
			     (ub_bits_isnan_i(dt, ci) ? PF_CRNAN : 0) |
			     (isfinite(v->hi) ? PF_EXFIN : 0) |
			     (ub_exact_undecided(v) ? PF_UNDEC : 0);
		double mul = 0;
		if (f & PF_EXFIN) {
			int k = ulp_exact_exp(dt, v->hi, v->lo);
			if (fabs(v->hi) > 0x1p1020 || k <= -1023)
				f |= PF_SLOW;
			else
				mul = ub_pow2(-k);
		}
		p->flag[i - lo] = (unsigned char)f;
		p->mul[i - lo] = mul;
	}
}

void ub_stats_prepare(const struct ub_array *cr, const struct ub_exact *exact,
		      size_t lo, size_t hi, struct ub_stats_prep *p)
{
	switch (cr->dt) {
#define X(id, name, bits, prec, emin, emax, npy, ctype)                        \
	case id:                                                               \
		prep_of(id, cr->data, exact, lo, hi, p);                       \
		break;
	UB_DTYPES(X)
#undef X
	default:
		break;
	}
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
	double yd = ub_bits_to_double_i(dt, y), hi = v->hi;
	double s = yd - hi, bb = s - yd;
	double t = (yd - (s - bb)) + (-hi - bb); /* TwoSum: s + t = y - hi */
	*err = fabs(s + (t - v->lo)) * mul;
	return 0;
}

/* One pass over m's elements [lo, hi) into st (reset first), with p
 * prepared over [lo, hi) (p's index i - lo), run indices m->first + i;
 * always inlined so that each dtype gets its own loop with the format's
 * constants folded in.  The statistics live in a local while the loop
 * runs (st might alias the arrays). */
UB_INLINE void pass_of(enum ub_dtype dt, const struct ub_measure *m,
		       const struct ub_stats_prep *p, size_t lo, size_t hi,
		       struct ub_stats *st)
{
	const void *y = m->y->data, *cr = m->cr->data;
	const void *torch = m->torch ? m->torch->data : NULL;
	const struct ub_exact *exact = m->exact;
	struct ub_stats s;
	memset(&s, 0, sizeof s);
	s.n = hi - lo;
	for (size_t i = lo; i < hi; i++) {
		uint64_t yi = ub_load(dt, y, i), ci = ub_load(dt, cr, i);
		unsigned f = p->flag[i - lo];
		double e;
		if (yi == ci && (f & (PF_CRFIN | PF_EXFIN | PF_UNDEC | PF_SLOW)) ==
				(PF_CRFIN | PF_EXFIN)) {
			/* the common case, ulp_error_prep's last lines: the
			 * correctly rounded result itself, finite */
			double yd = ub_bits_to_double_i(dt, yi), hv = exact[i].hi;
			double s2 = yd - hv, bb = s2 - yd;
			double t = (yd - (s2 - bb)) + (-hv - bb);
			add_error(&s, m->first + i, fabs(s2 + (t - exact[i].lo)) * p->mul[i - lo]);
			if (torch)
				add_torch(&s, dt, yi, ub_load(dt, torch, i));
			continue;
		}
		if (f & PF_UNDEC) { /* no reference to compare */
			if (!s.undecided++)
				s.first_undecided = m->first + i;
			if (torch)
				add_torch(&s, dt, yi, ub_load(dt, torch, i));
			continue;
		}
		if (!ub_bits_same_i(dt, yi, ci))
			s.cr_mismatch++;
		if (ulp_error_prep(dt, yi, ci, f, p->mul[i - lo], &exact[i], &e))
			s.nan_mismatch++;
		else
			add_error(&s, m->first + i, e);
		if (torch)
			add_torch(&s, dt, yi, ub_load(dt, torch, i));
	}
	ub_xsum_norm(&s.sum_ulp);
	*st = s;
}

static void stats_pass(const struct ub_measure *m,
		       const struct ub_stats_prep *p, size_t lo, size_t hi,
		       struct ub_stats *st)
{
	switch (m->y->dt) {
#define X(id, name, bits, prec, emin, emax, npy, ctype)                        \
	case id:                                                               \
		pass_of(id, m, p, lo, hi, st);                                 \
		break;
	UB_DTYPES(X)
#undef X
	default:
		memset(st, 0, sizeof *st);
		break;
	}
}

/* The inputs of st's worst and first undecided elements, from m. */
static void find_inputs(const struct ub_measure *m, struct ub_stats *st)
{
	for (int k = 0; k < m->nin; k++) {
		if (st->ncomparable)
			st->worst_in[k] = ub_array_get(&m->in[k], st->worst - m->first);
		if (st->undecided)
			st->undecided_in[k] = ub_array_get(&m->in[k],
							   st->first_undecided - m->first);
	}
}

void ub_stats_measure_prep(const struct ub_measure *m,
			   const struct ub_stats_prep *p, struct ub_stats *st)
{
	stats_pass(m, p, 0, m->y->n, st);
	find_inputs(m, st);
}

int ub_stats_measure(const struct ub_measure *m, struct ub_stats *st)
{
	struct ub_stats part;
	struct ub_stats_prep p;
	size_t n = m->y->n;
	memset(st, 0, sizeof *st);
	if (n == 0)
		return 0;
	size_t cap = n < UB_STATS_CHUNK ? n : UB_STATS_CHUNK;
	p.flag = malloc(cap);
	p.mul = malloc(cap * sizeof *p.mul);
	if (!p.flag || !p.mul) {
		free(p.flag);
		free(p.mul);
		return UB_RUNTIME;
	}
	for (size_t lo = 0; lo < n; lo += cap) {
		size_t hi = n - lo < cap ? n : lo + cap;
		ub_stats_prepare(m->cr, m->exact, lo, hi, &p);
		stats_pass(m, &p, lo, hi, &part);
		ub_stats_merge(st, &part);
	}
	free(p.flag);
	free(p.mul);
	find_inputs(m, st);
	return 0;
}

int ub_stats_compute(const struct ub_array *y, const struct ub_array *cr,
		     const struct ub_exact *exact,
		     const struct ub_array *torch, struct ub_stats *st)
{
	struct ub_measure m = {.y = y, .cr = cr, .torch = torch, .exact = exact};
	return ub_stats_measure(&m, st);
}

/* The merge of each kind of figure (UB_STATS_FIELDS), over n values. */
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

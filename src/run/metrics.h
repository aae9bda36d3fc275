/* metrics.h — ULP error and bit agreement, per the definitions users rely
 * on (docs/metrics.md):
 *
 *  ulp(v): spacing of the format at the exact value v; the subnormal
 *    spacing at the bottom; at an exact power of two the smaller spacing
 *    below it; above the largest finite binade the spacing extends
 *    (2^(emax-p+1)).
 *  error(y, v) = |y - v| / ulp(v), for finite y.  When y or the correctly
 *    rounded result is NaN or inf: agreement (same inf, or both NaN) counts
 *    as error 0; anything else is a NaN/inf disagreement, counted apart and
 *    never folded into max_ulp.  (Finite y against an overflowed finite v
 *    keeps its fractional error.)
 *  distance(a, b): ub_distance (ub.h). */
#ifndef UB_METRICS_H
#define UB_METRICS_H

#include "ub.h"

double ub_ulp(enum ub_dtype dt, double v);

/* Returns 0 and sets *err for a comparable pair, 1 for a NaN/inf
 * disagreement, or 2 when v is undecided (ub_exact_undecided: nothing to
 * compare with); *err untouched but for 0. */
int ub_ulp_error(enum ub_dtype dt, uint64_t y, uint64_t cr,
		 const struct ub_exact *v, double *err);

#define UB_HIST_BINS 8 /* [0], (0,0.5], (0.5,1], (1,2], (2,4], (4,16],
			  (16,256], >256 ulp */
extern const char *const ub_hist_labels[UB_HIST_BINS];

struct ub_stats {
	size_t n;
	double max_ulp;
	size_t worst;           /* element index of max_ulp (first one) */
	double sum_ulp;         /* over comparable elements */
	size_t ncomparable;
	size_t cr_mismatch, torch_mismatch, nan_mismatch;
	uint64_t torch_max_dist;
	size_t hist[UB_HIST_BINS];
	size_t undecided;       /* elements the reference could not decide
				   (ub_exact_undecided): left out of every
				   figure against the reference (max_ulp,
				   mean, histogram, cr_mismatch,
				   nan_mismatch), counted here */
	size_t first_undecided; /* element index of the first of them */
};

/* Computes into st (reset first) the metrics of results y against the
 * reference (cr, exact) and, when torch is not NULL, against the torch
 * plan's results (over every element: undecided ones too).  worst is 0 when no element is comparable; torch
 * distances are taken over pairs where neither is NaN (NaN against a
 * number still counts in torch_mismatch). */
int ub_stats_compute(const struct ub_array *y, const struct ub_array *cr,
		     const struct ub_exact *exact,
		     const struct ub_array *torch, struct ub_stats *st);

/* ub_stats_compute is ub_stats_prepare then ub_stats_pass over each
 * chunk: what every row shares about an element of [lo, hi), from the
 * reference alone, is worked out once into p (room for hi - lo elements:
 * flag, mul), then each row's pass over [lo, hi) into st (reset first,
 * indices local to lo).  A streamed chunk prepares once for all its rows
 * (stream_chunk.c).  Returns 0, or UB_RUNTIME when out of memory. */
struct ub_stats_prep {
	unsigned char *flag;
	double *mul;
};
void ub_stats_prepare(const struct ub_array *cr, const struct ub_exact *exact,
		      size_t lo, size_t hi, struct ub_stats_prep *p);
void ub_stats_pass(const struct ub_array *y, const struct ub_array *cr,
		   const struct ub_exact *exact, const struct ub_stats_prep *p,
		   const struct ub_array *torch, size_t lo, size_t hi,
		   struct ub_stats *st);
double ub_stats_mean(const struct ub_stats *st);

/* Statistics are computed over chunks of UB_STATS_CHUNK elements merged
 * in order (ub_stats_merge), so that a run that streams its elements in
 * chunks of that size (stream.h), with any number of threads, gets bit
 * for bit the figures of one pass (sum_ulp is a sum of doubles: its
 * rounding depends on the order). */
#define UB_STATS_CHUNK 65536

/* Adds part, the statistics of elements offset.. (a chunk following the
 * ones already in st), to st.  worst stays the first index of the max;
 * returns 1 when it is now part's. */
int ub_stats_merge(struct ub_stats *st, const struct ub_stats *part,
		   size_t offset);

#endif

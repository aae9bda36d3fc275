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
#include "xsum.h"

double ub_ulp(enum ub_dtype dt, double v);

/* Returns 0 and sets *err for a comparable pair, 1 for a NaN/inf
 * disagreement, or 2 when v is undecided (ub_exact_undecided: nothing to
 * compare with); *err untouched but for 0. */
int ub_ulp_error(enum ub_dtype dt, uint64_t y, uint64_t cr,
		 const struct ub_exact *v, double *err);

#define UB_HIST_BINS 8 /* [0], (0,0.5], (0.5,1], (1,2], (2,4], (4,16],
			  (16,256], >256 ulp */
extern const char *const ub_hist_labels[UB_HIST_BINS];

/* The figures of struct ub_stats, declared once: X(KIND, name, dims),
 * dims empty for one value or [N] for an array of N.  What merges,
 * compares, writes and reads statistics (ub_stats_merge, ub_stats_equal,
 * the partial files of partial.h) goes through this list, so a new figure
 * is one line here plus the code that measures it.  Kinds, with the C
 * type of each value and what a merge of two parts does:
 *   COUNT  size_t        adds (counts of elements)
 *   MAXU   uint64_t      keeps the larger
 *   XSUM   struct ub_xsum  adds exactly (xsum.h)
 * The worst element (max_ulp, worst, worst_in: the largest error, the
 * lowest run index among equal ones, and its inputs) is one more group,
 * merged as a whole, and so is the first undecided element
 * (first_undecided, undecided_in: the lowest run index, when undecided is
 * not 0). */
#define UB_STATS_FIELDS(X)                                               \
	X(COUNT, n, )             /* elements */                         \
	X(COUNT, ncomparable, )   /* with an ULP error (not NaN/inf) */   \
	X(COUNT, nfinite, )       /* comparable, the result and the      \
				     correctly rounded one finite */      \
	X(COUNT, cr_mismatch, )                                          \
	X(COUNT, torch_mismatch, )                                       \
	X(COUNT, nan_mismatch, )                                         \
	X(MAXU, torch_max_dist, )                                        \
	X(COUNT, hist, [UB_HIST_BINS])                                   \
	X(XSUM, sum_ulp, )        /* of the comparable elements' errors */ \
	X(MAXU, checks, )         /* how the simulator checked the kernel:  \
				     UB_CHECKS_* (sim.h) */                \
	X(MAXU, hazards, )        /* racecheck: the most distinct hazards   \
				     one launch found (ub_checks) */       \
	X(MAXU, schedules, )      /* schedules the kernel ran under (1: its \
				     own only; 0: not run on the sim) */   \
	X(COUNT, sched_diff, )    /* elements whose bits differ between two \
				     of them (any NaN equal to any NaN) */ \
	X(MAXU, sched_dist, )     /* the largest distance between two, over \
				     pairs neither of which is NaN */      \
	X(COUNT, undecided, )     /* elements the reference could not decide \
				     (ub_exact_undecided): left out of every \
				     figure against the reference (max_ulp, \
				     mean, histogram, cr_mismatch, \
				     nan_mismatch), counted here */          \
	X(COUNT, undecided_why, [UB_UND_N]) /* the same by reason \
				     (ub_exact_why, ub.h's classes) */

typedef size_t ub_stats_COUNT;
typedef uint64_t ub_stats_MAXU;
typedef struct ub_xsum ub_stats_XSUM;

struct ub_stats {
#define X(kind, name, dims) ub_stats_##kind name dims;
	UB_STATS_FIELDS(X)
#undef X
	double max_ulp;
	size_t worst;           /* run index of max_ulp (the lowest one) */
	uint64_t worst_in[UB_MAX_INPUTS]; /* its inputs */
	size_t first_undecided; /* run index of the first undecided element */
	uint64_t undecided_in[UB_MAX_INPUTS]; /* its inputs */
};

/* What statistics are computed from: elements 0..n-1 of y (n = y->n)
 * against the reference (cr, exact) and, when torch is not NULL, the
 * torch plan's results; their inputs (nin of them, for worst_in and
 * undecided_in; nin 0: none); where they are in the run (first: the run
 * index of element 0). */
struct ub_measure {
	const struct ub_array *y, *cr, *torch;
	const struct ub_exact *exact;
	int nin;
	const struct ub_array *in;
	size_t first;
};

/* Computes into st (reset first) the statistics of m's elements.  worst
 * is 0 when no element is comparable; torch figures are over every
 * element (undecided ones too), their distances over pairs where neither
 * is NaN (NaN against a number still counts in torch_mismatch).  Returns
 * 0, or UB_RUNTIME when out of memory. */
int ub_stats_measure(const struct ub_measure *m, struct ub_stats *st);
/* The same for one whole array (first 0, no inputs). */
int ub_stats_compute(const struct ub_array *y, const struct ub_array *cr,
		      const struct ub_exact *exact,
		      const struct ub_array *torch, struct ub_stats *st);
/* ub_stats_measure is ub_stats_prepare then a pass over each chunk: what
 * every row shares about an element of [lo, hi), from the reference
 * alone, is worked out once into p, then each row's pass.  A streamed
 * chunk prepares once for all its rows (stream_chunk.c) and measures each
 * with ub_stats_measure_prep, p prepared over all of m's elements
 * [0, m->y->n).
 *
 * Most results of most rows are the correctly rounded result itself, and
 * its error is the same in every such row: the preparation computes it
 * once (ecr) and adds up what every row would show if it matched the
 * correctly rounded result everywhere (nfast, hist, sum, and the elements
 * of largest error, top).  A row's pass then only looks closer at the
 * elements where it differs, and takes their share out of those totals
 * (an exact subtraction: xsum.h), so every figure is the one the
 * element-by-element definition gives. */
#define UB_PREP_TOP 32
#define UB_PREP_ACCS 3
struct ub_stats_prep {
	unsigned char *flag; /* PF_* (metrics_def.h) */
	unsigned char *bin;  /* the histogram bin of ecr (PF_FAST) */
	double *mul;         /* 2^-k: |y - v| in ulps of v */
	double *ecr;         /* the correctly rounded result's error (PF_FAST) */
	size_t nfast;        /* elements with PF_FAST */
	size_t hist[UB_HIST_BINS]; /* of their ecr */
	struct ub_xsum sum;  /* of their ecr, normalized */
	size_t ntop;         /* top[0..ntop): the UB_PREP_TOP of them (or all) */
	size_t top[UB_PREP_TOP]; /* of largest ecr, lowest index first among
				    equals, largest first (index - lo) */
	/* the exact sums' accumulators, flushed between uses: [0] the
	 * preparation's, [1] and [2] a pass's (one pass at a time) */
	struct ub_xsum_acc *acc;
};
/* Room for cap elements; 0, or UB_RUNTIME (p freed) when out of memory. */
int ub_stats_prep_alloc(struct ub_stats_prep *p, size_t cap);
void ub_stats_prep_free(struct ub_stats_prep *p);
/* The same room as pieces of an arena (arena.h; freed with it, never by
 * ub_stats_prep_free), and the bytes that takes of the arena's cap. */
struct ub_arena;
int ub_stats_prep_in(struct ub_stats_prep *p, size_t cap, struct ub_arena *a);
size_t ub_stats_prep_bytes(size_t cap);
void ub_stats_prepare(const struct ub_array *cr, const struct ub_exact *exact,
		      size_t lo, size_t hi, struct ub_stats_prep *p);
void ub_stats_measure_prep(const struct ub_measure *m,
			   const struct ub_stats_prep *p, struct ub_stats *st);

/* The mean ULP error: the exact sum of the comparable elements' errors
 * divided by their number, rounded once to the nearest double (0 when
 * none is comparable).  No order of summation enters it. */
double ub_stats_mean(const struct ub_stats *st);

/* Whether st measured no number: no result was a finite value compared
 * with a finite correctly rounded one, yet some disagreed in NaN/inf (a
 * kernel that left NaN wherever the exact value is finite).  max_ulp and
 * mean_ulp, 0 then, measure nothing: reports leave them empty and say so
 * (status nan-results). */
static inline int ub_stats_no_number(const struct ub_stats *st)
{
	return !st->nfinite && st->nan_mismatch;
}

/* Runs stream their elements in chunks of UB_STATS_CHUNK (stream.h), the
 * unit that --shard K/N hands out (chunk c to shard c mod N). */
#define UB_STATS_CHUNK 65536

/* Adds part, the statistics of other elements of the same run, to st.
 * The result does not depend on the order of the merges: counts and sums
 * add exactly, and the worst element is the largest error, the lowest
 * run index among equals.  Returns 1 when the worst is now part's. */
int ub_stats_merge(struct ub_stats *st, const struct ub_stats *part);
/* Every figure the same (the bits of max_ulp too). */
int ub_stats_equal(const struct ub_stats *a, const struct ub_stats *b);

#endif

/* figures.h — what the HTML page draws of one row, kept in bounded memory
 * and mergeable in any order, so that a streamed run (in chunks, on any
 * number of threads) and the parts of a split run give the page of the
 * whole-array run.
 *
 * Every field is a count, a maximum, or a set chosen by a rule that does
 * not depend on the order elements arrive in:
 *
 *  fine[]   ULP errors of the comparable elements (as struct ub_stats
 *           counts them) in bins of an eighth of an octave, from which the
 *           median, p99 and p99.9 are read (ub_figs_quantile);
 *           elements the reference could not decide (ub_exact_undecided)
 *           are left out of every figure against the reference, as in
 *           ub_stats, and counted in the cells' n and torch figures only;
 *  cell[k][c]  per input k and binade column c of that input's value
 *           (ub_fig_col): elements, NaN/inf disagreements, disagreements
 *           with the torch plan, the largest ULP error and torch distance;
 *  sample[] the UB_FIG_SAMPLE decided elements whose key
 *           ub_fig_key(index) is smallest: a uniform sample, the same
 *           elements in every row of the run (keys depend on the index
 *           only);
 *  torch[]  the same rule among the elements whose bits differ from the
 *           torch plan's; nan[] among the NaN/inf disagreements;
 *  top[b]   the UB_FIG_TOP largest ULP errors in band b of ub_fig_band
 *           (the lower index first among equals): the worst overall and
 *           the worst short of it, so that a row whose worst is an
 *           overflow still shows its worst rounding.
 *
 * Indices are the element's place in the whole run (ub_figs_add's
 * offset), so parts merge without renumbering. */
#ifndef UB_FIGURES_H
#define UB_FIGURES_H

#include "ub.h"

#define UB_FIG_GROUPS 256 /* binade columns per sign, at most (f64: 8
			     binades each; the other dtypes one) */
#define UB_FIG_COLS (2 * UB_FIG_GROUPS + 6)
#define UB_FIG_SAMPLE 1000
#define UB_FIG_TORCH 1000
#define UB_FIG_NANS 100
#define UB_FIG_TOP 8
/* Bands of ULP error for top[]: [0, 0.5], (0.5, 1], (1, 2], (2, 4],
 * (4, 16], (16, 256], above 256. */
#define UB_FIG_BANDS 7
int ub_fig_band(double err);

/* Fine bins: 0 holds exact zeros, 1 errors in (0, 2^LO], then SUB bins
 * per octave (2^k (1 + j/SUB), 2^k (1 + (j+1)/SUB)] for k in LO..HI-1,
 * and the last everything above 2^HI. */
#define UB_FINE_LO (-24)
#define UB_FINE_HI 128
#define UB_FINE_SUB 8
#define UB_FINE_BINS (2 + (UB_FINE_HI - UB_FINE_LO) * UB_FINE_SUB + 1)

/* One element of a row, with what the page shows of it. */
struct ub_fig_elem {
	uint64_t idx;      /* its index in the run */
	uint64_t key;      /* ub_fig_key(idx) */
	double err;        /* ULP error; -1: a NaN/inf disagreement */
	uint64_t y, cr, torch; /* the row's result, the correctly rounded
				  one, the torch plan's (0 without a plan) */
	uint64_t dist;     /* ub_distance(y, torch): 0 same bits,
			      UINT64_MAX NaN against a number */
	double exact;      /* the exact value, rounded to double */
	uint64_t in[UB_MAX_INPUTS];
};

/* The elements of one row whose input k lies in one binade column. */
struct ub_fig_cell {
	uint64_t n;        /* elements */
	uint64_t nan;      /* NaN/inf disagreements among them */
	uint64_t torch;    /* bit differences from the torch plan */
	uint64_t max_dist; /* largest torch distance (NaN pairs left out) */
	double max_ulp;    /* largest ULP error (0 when none comparable) */
};

struct ub_figs {
	enum ub_dtype dt;
	int nin;
	int has_torch;     /* torch[] and the cells' torch counts mean
			      something */
	uint64_t fine[UB_FINE_BINS];
	size_t nsample, ntorch, nnan, ntop[UB_FIG_BANDS]; /* filled parts of: */
	struct ub_fig_elem sample[UB_FIG_SAMPLE];
	struct ub_fig_elem torch[UB_FIG_TORCH];
	struct ub_fig_elem nan[UB_FIG_NANS];
	struct ub_fig_elem top[UB_FIG_BANDS][UB_FIG_TOP];
	struct ub_fig_cell cell[UB_MAX_INPUTS][UB_FIG_COLS];
};

/* A new, empty struct (NULL when out of memory); free() it. */
struct ub_figs *ub_figs_new(enum ub_dtype dt, int nin, int has_torch);
void ub_figs_reset(struct ub_figs *f);

/* Adds elements 0..y->n-1 of the arrays, the elements offset.. of the run:
 * inputs in[0..f->nin-1], results y, the reference (cr, exact) and the
 * torch plan's results (NULL when f->has_torch is 0). */
void ub_figs_add(struct ub_figs *f, const struct ub_array *in,
		 const struct ub_array *y, const struct ub_array *cr,
		 const struct ub_exact *exact, const struct ub_array *torch,
		 size_t offset);

/* Adds src to dst (same dtype and inputs); the result does not depend on
 * the order parts are merged in. */
void ub_figs_merge(struct ub_figs *dst, const struct ub_figs *src);

/* A copy of f whose sets are in the order of their indices, to draw or
 * write out (the same whatever order the elements came in); its sets are
 * no longer heaps, so nothing may be added or merged into it.  NULL when
 * out of memory; free() it. */
struct ub_figs *ub_figs_sorted(const struct ub_figs *f);

/* The sampling key of element i: a bijection of the 64-bit integers that
 * scatters consecutive indices (SplitMix64's finaliser). */
static inline uint64_t ub_fig_key(uint64_t i)
{
	i += UINT64_C(0x9e3779b97f4a7c15);
	i = (i ^ (i >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	i = (i ^ (i >> 27)) * UINT64_C(0x94d049bb133111eb);
	return i ^ (i >> 31);
}

/* The q-quantile (0 < q <= 1) of the comparable elements' ULP errors, by
 * the nearest rank (the smallest error e with at least ceil(q N) elements
 * at or below it), read from fine[]: the upper edge of e's bin, never
 * above max (the row's exact max_ulp).  So it is exact at 0 and at bin
 * edges, and otherwise at most 1/8 above e (e > v / 1.125 for the value
 * v returned) when e > 2^LO.  -1 when no element is comparable. */
double ub_figs_quantile(const struct ub_figs *f, double q, double max);
/* Upper edge of fine bin b (INFINITY for the last). */
double ub_fine_upper(int b);
/* The fine bin of an error e >= 0. */
int ub_fine_bin(double e);

/* Binade columns of dtype dt's values, left to right: -inf, the negative
 * normal binades from the largest down (each column `per` binades), the
 * negative subnormals, zero (both signs), the positive subnormals, the
 * positive binades, +inf, NaN. */
enum ub_fig_kind { UB_FK_INF, UB_FK_NORMAL, UB_FK_SUB, UB_FK_ZERO, UB_FK_NAN };
struct ub_fig_coldesc {
	enum ub_fig_kind kind;
	int neg;
	int elo, ehi;  /* UB_FK_NORMAL: values in [2^elo, 2^ehi) in magnitude */
};
int ub_fig_ncols(enum ub_dtype dt);
int ub_fig_col(enum ub_dtype dt, uint64_t x);
void ub_fig_coldesc(enum ub_dtype dt, int col, struct ub_fig_coldesc *d);
/* Where the value x lies along the columns: col(x) + a fraction in [0, 1)
 * (log2 of the magnitude inside a normal column, linear in the
 * subnormals, increasing with the value; 0.5 for 0, inf and NaN). */
double ub_fig_pos(enum ub_dtype dt, uint64_t x);
/* The same for a value (values beyond the format's range: the inf
 * columns). */
double ub_fig_pos_value(enum ub_dtype dt, double v);

#endif

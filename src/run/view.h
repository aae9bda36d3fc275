/* view.h — the elements a report shows one by one (the HTML report's
 * plots and worst-inputs table), kept while a run measures, so that a
 * report needs no per-element arrays: a streamed run of 2^32 elements,
 * and the merge of its shards, draw the same page as a run that kept
 * every element.
 *
 * A view is a few bounded lists of elements, each with its order and its
 * length, declared once in UB_VIEW_LISTS.  Each list keeps the first
 * `max` elements of its order among those it is offered, so two views of
 * disjoint parts of a run merge into the view of the whole, whatever the
 * order of the parts:
 *   WORST  larger error first, the lower run index first among equals
 *   INDEX  lower run index first
 * What each list is offered (ub_stats_measure, metrics.c):
 *   top     every comparable element with an error > 0
 *   nan     every NaN/inf disagreement
 *   sample  the element at each of min(n, UB_VIEW_SAMPLES) evenly
 *           spaced run indices i_j = floor(j n / that number), n the
 *           elements of the run (ub_view_sample_*)
 * A new list is one line here and the lines that offer it elements. */
#ifndef UB_VIEW_H
#define UB_VIEW_H

#include "ub.h"

enum ub_view_order { UB_ORDER_WORST, UB_ORDER_INDEX };

/* X(name, order, max) */
#define UB_VIEW_LISTS(X)                         \
	X(top, UB_ORDER_WORST, 250)              \
	X(nan, UB_ORDER_INDEX, 100)              \
	X(sample, UB_ORDER_INDEX, UB_VIEW_SAMPLES)

#define UB_VIEW_SAMPLES 1500

enum ub_view_list {
#define X(name, order, max) UB_VIEW_##name,
	UB_VIEW_LISTS(X)
#undef X
	UB_VIEW_NLISTS
};

/* One element with what a report shows of it. */
struct ub_elem {
	uint64_t i;                 /* its run index */
	double err;                 /* ULP error; -1: NaN/inf disagreement */
	uint64_t in[UB_MAX_INPUTS]; /* the inputs' encodings */
	uint64_t y, cr, torch;      /* result, correctly rounded, torch plan's
				       (0 without a torch plan) */
	struct ub_exact exact;
};

struct ub_elist {
	size_t n, cap;
	struct ub_elem *e;
};

struct ub_view {
	struct ub_elist list[UB_VIEW_NLISTS];
	double floor;   /* top is full and this is its least error: an
			   element with a smaller one cannot enter */
	int failed;     /* a list could not grow (out of memory) */
	int heap;       /* top is a heap (offering), not yet sorted */
};

struct ub_view_info {
	const char *name;
	enum ub_view_order order;
	size_t max;
};
extern const struct ub_view_info ub_view_lists[UB_VIEW_NLISTS];

/* An empty view (all zero is one too). */
void ub_view_init(struct ub_view *v);
void ub_view_free(struct ub_view *v);
/* Offers e to list l; on no memory sets v->failed. */
void ub_view_offer(struct ub_view *v, enum ub_view_list l,
		   const struct ub_elem *e);
/* Puts every list in its order (after offering, before reading). */
void ub_view_finish(struct ub_view *v);
/* a = the view of a's and b's elements together, both finished; b holds
 * other elements than a.  UB_RUNTIME when out of memory, UB_USAGE when an
 * element index is in both (b is then not of other elements); a is then
 * no longer a view of anything. */
int ub_view_merge(struct ub_view *a, const struct ub_view *b,
		  struct ub_error *err);
/* The same elements in every list, bit for bit. */
int ub_view_equal(const struct ub_view *a, const struct ub_view *b);
/* Moves src into dst (src is left empty). */
void ub_view_move(struct ub_view *dst, struct ub_view *src);

/* How many samples a run of total elements has, and the run index of
 * sample j. */
size_t ub_view_nsamples(size_t total);
size_t ub_view_sample_index(size_t total, size_t j);
/* The samples j in [*jlo, *jhi) that fall in run indices
 * [first, first + len). */
void ub_view_sample_range(size_t total, size_t first, size_t len,
			  size_t *jlo, size_t *jhi);

#endif

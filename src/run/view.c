/* view.c — the elements a report shows one by one (view.h).
 *
 * While elements are offered, top is a heap whose root is the least bad
 * element kept (so a better one replaces it in log(max) steps) and the
 * INDEX lists are sorted arrays; ub_view_finish sorts top worst first.
 * Finished lists merge as sorted sequences, in place. */
#include "view.h"

#include <stdlib.h>
#include <string.h>

const struct ub_view_info ub_view_lists[UB_VIEW_NLISTS] = {
#define X(name, order, max) {#name, order, max},
	UB_VIEW_LISTS(X)
#undef X
};

void ub_view_init(struct ub_view *v)
{
	memset(v, 0, sizeof *v);
}

void ub_view_free(struct ub_view *v)
{
	for (int l = 0; l < UB_VIEW_NLISTS; l++)
		free(v->list[l].e);
	ub_view_init(v);
}

void ub_view_move(struct ub_view *dst, struct ub_view *src)
{
	*dst = *src;
	ub_view_init(src);
}

/* a goes before b in the order. */
static int before(enum ub_view_order o, const struct ub_elem *a,
		  const struct ub_elem *b)
{
	if (o == UB_ORDER_WORST && a->err != b->err)
		return a->err > b->err;
	return a->i < b->i;
}

static int grow(struct ub_view *v, enum ub_view_list l)
{
	struct ub_elist *e = &v->list[l];
	size_t max = ub_view_lists[l].max;
	if (e->n < e->cap)
		return 0;
	size_t cap = e->cap ? 2 * e->cap : l == UB_VIEW_sample ? 16 : max;
	cap = cap > max ? max : cap;
	struct ub_elem *p = realloc(e->e, cap * sizeof *p);
	if (!p) {
		v->failed = 1;
		return -1;
	}
	e->e = p;
	e->cap = cap;
	return 0;
}

/* The heap of top: a parent goes after its children in the order (is
 * less bad), so the root is the least bad element kept. */
static void sift_down(struct ub_elem *h, size_t n, size_t i)
{
	struct ub_elem x = h[i];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && before(UB_ORDER_WORST, &h[c], &h[c + 1]))
			c++;
		if (!before(UB_ORDER_WORST, &x, &h[c]))
			break;
		h[i] = h[c];
		i = c;
	}
	h[i] = x;
}

static void offer_top(struct ub_view *v, const struct ub_elem *x)
{
	struct ub_elist *t = &v->list[UB_VIEW_top];
	size_t max = ub_view_lists[UB_VIEW_top].max;
	if (!v->heap) { /* finished before: a heap again */
		for (size_t i = t->n / 2; i-- > 0;)
			sift_down(t->e, t->n, i);
		v->heap = 1;
	}
	if (t->n < max) {
		if (grow(v, UB_VIEW_top))
			return;
		size_t i = t->n++;
		/* up while the parent is worse: the root is the least bad */
		for (; i > 0 && before(UB_ORDER_WORST, &t->e[(i - 1) / 2], x);
		     i = (i - 1) / 2)
			t->e[i] = t->e[(i - 1) / 2];
		t->e[i] = *x;
	} else if (before(UB_ORDER_WORST, x, &t->e[0])) {
		t->e[0] = *x;
		sift_down(t->e, t->n, 0);
	}
	if (t->n == max)
		v->floor = t->e[0].err;
}

static void offer_index(struct ub_view *v, enum ub_view_list l,
			const struct ub_elem *x)
{
	struct ub_elist *e = &v->list[l];
	size_t max = ub_view_lists[l].max;
	if (e->n == max && x->i >= e->e[e->n - 1].i)
		return;
	if (e->n < max && grow(v, l))
		return;
	size_t lo = 0, hi = e->n; /* the first element after x */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (e->e[mid].i < x->i)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < e->n && e->e[lo].i == x->i)
		return; /* offered before */
	size_t keep = e->n < max ? e->n : max - 1; /* full: the last goes */
	memmove(&e->e[lo + 1], &e->e[lo], (keep - lo) * sizeof *e->e);
	e->e[lo] = *x;
	e->n = keep + 1;
}

void ub_view_offer(struct ub_view *v, enum ub_view_list l,
		   const struct ub_elem *e)
{
	if (ub_view_lists[l].order == UB_ORDER_WORST)
		offer_top(v, e);
	else
		offer_index(v, l, e);
}

static int cmp_worst(const void *a, const void *b)
{
	return before(UB_ORDER_WORST, a, b) ? -1 : before(UB_ORDER_WORST, b, a);
}

void ub_view_finish(struct ub_view *v)
{
	struct ub_elist *t = &v->list[UB_VIEW_top];
	if (t->n)
		qsort(t->e, t->n, sizeof *t->e, cmp_worst);
	v->heap = 0;
}

/* a = the first max of the sorted lists a and b of order o merged, in
 * place: from the back, so that a's elements before the first of b's
 * never move and an element that does not make the first max is never
 * written (merging 10,000 parts, most of a part's elements come after
 * what the merge holds). */
static int merge_list(enum ub_view_order o, size_t max, struct ub_elist *a,
		      const struct ub_elist *b, struct ub_error *err)
{
	size_t t = a->n + b->n, n = t < max ? t : max, i = a->n, j = b->n, k = t;
	if (n > a->cap) {
		struct ub_elem *p = realloc(a->e, n * sizeof *p);
		if (!p)
			return ub_fail(err, UB_RUNTIME, "out of memory");
		a->e = p;
		a->cap = n;
	}
	while (j > 0) {
		const struct ub_elem *x = i > 0 ? &a->e[i - 1] : NULL, *y = &b->e[j - 1];
		if (x && x->i == y->i)
			return ub_fail(err, UB_USAGE, "element %llu is in two parts",
				       (unsigned long long)x->i);
		k--;
		if (x && before(o, y, x)) { /* a's goes later */
			if (k < n)
				a->e[k] = *x;
			i--;
		} else {
			if (k < n)
				a->e[k] = *y;
			j--;
		}
	}
	a->n = n; /* a->e[0..i) never moved */
	return 0;
}

int ub_view_merge(struct ub_view *a, const struct ub_view *b,
		  struct ub_error *err)
{
	for (int l = 0; l < UB_VIEW_NLISTS; l++) {
		int s = merge_list(ub_view_lists[l].order, ub_view_lists[l].max,
				   &a->list[l], &b->list[l], err);
		if (s)
			return s;
	}
	return 0;
}

int ub_view_equal(const struct ub_view *a, const struct ub_view *b)
{
	for (int l = 0; l < UB_VIEW_NLISTS; l++)
		if (a->list[l].n != b->list[l].n ||
		    (a->list[l].n && memcmp(a->list[l].e, b->list[l].e,
					    a->list[l].n * sizeof *a->list[l].e)))
			return 0;
	return 1;
}

size_t ub_view_nsamples(size_t total)
{
	return total < UB_VIEW_SAMPLES ? total : UB_VIEW_SAMPLES;
}

size_t ub_view_sample_index(size_t total, size_t j)
{
	return (size_t)((unsigned __int128)j * total / ub_view_nsamples(total));
}

/* ceil(a * ns / total) */
static size_t first_sample_at(size_t total, size_t ns, size_t a)
{
	unsigned __int128 p = (unsigned __int128)a * ns;
	size_t j = (size_t)((p + total - 1) / total);
	return j < ns ? j : ns;
}

void ub_view_sample_range(size_t total, size_t first, size_t len,
			  size_t *jlo, size_t *jhi)
{
	size_t ns = ub_view_nsamples(total);
	*jlo = *jhi = 0;
	if (!ns)
		return;
	/* i_j >= first  <=>  j total >= first ns  <=>  j >= ceil(first ns /
	 * total); i_j < first + len likewise: j < ceil((first + len) ns / total) */
	*jlo = first_sample_at(total, ns, first);
	*jhi = first_sample_at(total, ns, first + len);
}

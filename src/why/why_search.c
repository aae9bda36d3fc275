/* why_search.c — which candidates explain a row's differences (why.h,
 * step 2): each alone, then the smallest set found by greedy forward
 * selection, completed by backward elimination from the whole set when
 * the greedy steps stall with differences left (two edits that only
 * matter together). */
#include "why_internal.h"

#include <stdlib.h>
#include <string.h>

enum { FOR_TORCH, FOR_CR };

struct search {
	struct ub_why_ctx *x;
	const struct ub_why_set *s;   /* where variants run */
	unsigned char on[UB_WHY_MAX_CANDS];
};

/* Differences left on the search's set with the candidates of `on`. */
static int left(struct search *q, const unsigned char *on, struct ub_why_count *c,
		struct ub_array *keep, struct ub_error *err)
{
	char *ptx = NULL;
	struct ub_array out = {0};
	int s = ub_why_variant(&q->x->t, q->x->cand, on, q->x->ncand, &ptx, err);
	if (!s)
		s = ub_why_exec(q->x, ptx, q->s, &out, err);
	if (!s)
		*c = ub_why_count(q->s, &out);
	if (!s && keep)
		*keep = out;
	else
		ub_array_free(&out);
	free(ptx);
	return s;
}

static size_t of(const struct ub_why_count *c, int what)
{
	return what == FOR_TORCH ? c->torch : c->cr;
}

/* Each candidate alone: what it fixes and breaks among s's elements. */
static int alone(struct search *q, struct ub_why_row *wr, struct ub_error *err)
{
	const struct ub_why_set *s = q->s;
	int st = 0;
	for (int k = 0; !st && k < q->x->ncand; k++) {
		unsigned char on[UB_WHY_MAX_CANDS] = {0};
		struct ub_array out;
		struct ub_why_count c;
		struct ub_why_item *it = &wr->item[k];
		on[k] = 1;
		st = left(q, on, &c, &out, err);
		for (size_t i = 0; !st && i < s->n; i++) {
			uint64_t y = ub_array_get(&s->y, i), v = ub_array_get(&out, i);
			int t0 = ub_why_torch_differs(s, i, y), t1 = ub_why_torch_differs(s, i, v);
			int c0 = ub_why_cr_differs(s, i, y), c1 = ub_why_cr_differs(s, i, v);
			it->torch_fixed += t0 && !t1;
			it->torch_broken += !t0 && t1;
			it->cr_fixed += c0 && !c1;
			it->cr_broken += !c0 && c1;
		}
		if (!st)
			ub_array_free(&out);
	}
	return st;
}

/* Greedy forward selection into on, among the candidates that fix
 * something alone (what fixes nothing alone is left to the backward
 * elimination); *best: what is left with it. */
static int greedy(struct search *q, const struct ub_why_row *wr, int what,
		  unsigned char *on, size_t *best, struct ub_error *err)
{
	int st = 0, n = q->x->ncand;
	for (;;) {
		int pick = -1;
		size_t pick_left = *best;
		for (int k = 0; !st && k < n && *best; k++) {
			struct ub_why_count c;
			if (on[k] || !(what == FOR_TORCH ? wr->item[k].torch_fixed
					: wr->item[k].cr_fixed))
				continue;
			on[k] = 1;
			st = left(q, on, &c, NULL, err);
			on[k] = 0;
			if (!st && of(&c, what) < pick_left) {
				pick = k;
				pick_left = of(&c, what);
			}
		}
		if (st || pick < 0)
			return st;
		on[pick] = 1;
		*best = pick_left;
	}
}

/* Backward elimination from the whole set: drops each candidate whose
 * removal leaves no more differences. */
static int backward(struct search *q, int what, unsigned char *on, size_t *best,
		    struct ub_error *err)
{
	int st = 0, n = q->x->ncand;
	for (int k = 0; !st && k < n; k++) {
		struct ub_why_count c;
		on[k] = 0;
		st = left(q, on, &c, NULL, err);
		if (!st && of(&c, what) > *best)
			on[k] = 1;
		else if (!st)
			*best = of(&c, what);
	}
	return st;
}

/* The chosen set for `what` into each item's in_torch/in_cr and *rest;
 * the search used into how. */
static int choose(struct search *q, struct ub_why_row *wr, int what, size_t start,
		  size_t all_left, size_t *rest, char *how, size_t hlen,
		  struct ub_error *err)
{
	unsigned char on[UB_WHY_MAX_CANDS] = {0};
	size_t best = start;
	int st = greedy(q, wr, what, on, &best, err);
	snprintf(how, hlen, "greedy forward selection");
	if (!st && best > all_left) {
		unsigned char whole[UB_WHY_MAX_CANDS] = {0};
		size_t b2 = all_left;
		memset(whole, 1, (size_t)q->x->ncand);
		st = backward(q, what, whole, &b2, err);
		if (!st && b2 < best) {
			memcpy(on, whole, sizeof on);
			best = b2;
			snprintf(how, hlen, "greedy forward selection, then backward "
				 "elimination from the whole set");
		}
	}
	for (int k = 0; !st && k < q->x->ncand; k++) {
		if (what == FOR_TORCH)
			wr->item[k].in_torch = on[k];
		else
			wr->item[k].in_cr = on[k];
	}
	*rest = best;
	return st;
}

int ub_why_attribute(struct ub_why_ctx *x, struct ub_why_row *wr,
		     struct ub_error *err)
{
	struct search q = { .x = x, .s = x->sub_ok ? &x->sub : &x->all };
	struct ub_why_count c0 = ub_why_count(q.s, &q.s->y), call = c0;
	unsigned char all[UB_WHY_MAX_CANDS] = {0};
	wr->torch_left = wr->torch_left_all = c0.torch;
	wr->cr_left = wr->cr_left_all = c0.cr;
	if (!x->ncand)
		return 0;
	memset(all, 1, (size_t)x->ncand);
	int st = alone(&q, wr, err);
	if (!st)
		st = left(&q, all, &call, NULL, err);
	wr->torch_left_all = call.torch;
	wr->cr_left_all = call.cr;
	if (!st && c0.torch)
		st = choose(&q, wr, FOR_TORCH, c0.torch, call.torch, &wr->torch_left,
			    wr->search_torch, sizeof wr->search_torch, err);
	if (!st && c0.cr)
		st = choose(&q, wr, FOR_CR, c0.cr, call.cr, &wr->cr_left,
			    wr->search_cr, sizeof wr->search_cr, err);
	return st;
}

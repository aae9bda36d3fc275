/* why_blame.c — accuracy blame (why.h, step 5): the elements of a row
 * farthest from the exact value, each traced with exact shadows
 * (why_shadow.h); the instruction of largest local error at the most of
 * them is the one blamed, shown at the element where it loses the most. */
#include "why_internal.h"
#include "why_shadow.h"
#include "metrics.h"

#include <math.h>
#include <string.h>

#define NWORST 8

/* The NWORST elements of largest ULP error (comparable ones), largest
 * first, into idx; how many. */
static int worst(const struct ub_why_set *s, size_t *idx, double *err)
{
	int n = 0;
	for (size_t i = 0; i < s->n; i++) {
		double e;
		if (ub_ulp_error(s->d.dt, ub_array_get(&s->y, i), ub_array_get(&s->d.cr, i),
				 &s->d.exact[i], &e) || e <= 0)
			continue;
		if (n == NWORST && e <= err[n - 1])
			continue;
		int k = n < NWORST ? n++ : NWORST - 1;
		for (; k > 0 && err[k - 1] < e; k--) {
			err[k] = err[k - 1];
			idx[k] = idx[k - 1];
		}
		err[k] = e;
		idx[k] = i;
	}
	return n;
}

int ub_why_blame(struct ub_why_ctx *x, struct ub_why_row *wr, struct ub_error *err)
{
	const struct ub_why_set *s = &x->all;
	size_t idx[NWORST];
	double e[NWORST];
	struct ub_shadow_worst w[NWORST];
	int n = worst(s, idx, e), st = 0, best = -1, bestn = 0;
	for (int k = 0; !st && k < n; k++) {
		struct ub_shadow *sh = ub_shadow_new();
		struct ptx_trace tr = { ub_shadow_event, sh };
		struct ub_error terr;
		uint64_t r;
		if (!sh)
			return ub_fail(err, UB_RUNTIME, "out of memory");
		if (ub_why_trace(x, x->lined, s, idx[k], &tr, &r, &terr)) {
			/* a kernel the trace cannot follow (block-level): no blame */
			snprintf(wr->blame.note, sizeof wr->blame.note, "%.150s",
				 strstr(terr.msg, "block-level") ? "a block-level kernel: "
				 "the trace follows one thread at a time" : terr.msg);
			ub_shadow_free(sh);
			return 0;
		}
		ub_shadow_worst(sh, &w[k]);
		ub_shadow_free(sh);
	}
	for (int k = 0; !st && k < n; k++) { /* the line blamed at the most */
		int c = 0;
		for (int j = 0; j < n; j++)
			c += w[j].found && w[k].found && w[j].line == w[k].line;
		if (w[k].found && (c > bestn || (c == bestn && w[k].local > w[best].local))) {
			best = k;
			bestn = c;
		}
	}
	if (st || best < 0)
		return st;
	struct ub_why_blame *b = &wr->blame;
	uint32_t line = w[best].line;
	*b = (struct ub_why_blame){ .done = 1, .local = w[best].local,
				   .result_err = w[best].result_err, .elems = (size_t)n,
				   .top = (size_t)bestn,
				   .plain = line <= x->t.nlines ? x->t.lines[line].plain : 0 };
	snprintf(b->mn, sizeof b->mn, "%s", w[best].mn);
	snprintf(b->note, sizeof b->note, "%s", w[best].note);
	for (int i = 0; i < s->d.nin; i++)
		b->in[i] = ub_array_get(&s->d.in[i], idx[best]);
	if (line <= x->t.nlines) {
		const struct ub_loc *loc = &x->t.lines[line].loc;
		ub_loc_format(&x->t, loc, 1, b->place, sizeof b->place);
		for (int k = 0; k < x->ncand; k++) /* its source line as shown */
			if (x->cand[k].loc.line == loc->line && wr->item[k].code[0])
				snprintf(b->code, sizeof b->code, "%s", wr->item[k].code);
		if (!b->code[0] && x->src &&
		    ub_why_is_kernel_file(x, ub_ptxtext_file(&x->t, loc->file)))
			ub_why_src_line(x->src, loc->line, b->code, sizeof b->code);
	}
	return 0;
}

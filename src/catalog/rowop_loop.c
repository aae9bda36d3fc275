/* rowop_loop.c — FPCore's for and for* unrolled for one row (rowop.h,
 * rowop_build.c): the accumulators' updates chained as the loop says,
 * or, for a lone accumulator that adds, or takes fmax or fmin, of terms
 * that do not read it, a balanced tree of its terms (the same real
 * number: +, max and min of reals, infinities and signed zeros included,
 * are associative and commutative). */
#include "rowop_internal.h"

#include <stdlib.h>
#include <string.h>

/* The indices of (for ([i n] ...) ...): names and counts, n[] of them,
 * and their product. */
static int loop_indices(struct ub_ro_row *rb, const struct ub_sx *ix, const char **nm,
			long long *n, long long *total)
{
	*total = 1;
	if (ix->kind != UB_SX_LIST || ix->n < 1 || ix->n > 3)
		return ub_ro_fail(rb, ix, "%s", "for: expected ([INDEX SIZE] ...), one to three");
	for (int d = 0; d < ix->n; d++) {
		const struct ub_sx *b = &ix->kids[d];
		if (b->kind != UB_SX_LIST || b->n != 2 || b->kids[0].kind != UB_SX_SYM)
			return ub_ro_fail(rb, b, "%s", "for: an index is [NAME SIZE]");
		int st = ub_ro_extent(rb, &b->kids[1], &n[d]);
		if (st)
			return st;
		nm[d] = b->kids[0].text;
		*total *= n[d];
		if (*total > 1 << 24)
			return ub_ro_fail(rb, ix, "%s", "for: more than 2^24 iterations");
	}
	return 0;
}

/* The index tuple number t of a loop over n[0..nd-1], row-major, as env
 * entries e[] above up. */
static const struct env *tuple(struct env *e, const char **nm, const long long *n,
			       int nd, long long t, const struct env *up)
{
	long long v[3];
	for (int d = nd - 1; d >= 0; d--) {
		v[d] = t % n[d];
		t /= n[d];
	}
	for (int d = 0; d < nd; d++) {
		e[d] = (struct env){nm[d], B_INDEX, v[d], NULL, NULL, NULL, up};
		up = &e[d];
	}
	return up;
}

/* A lone accumulator that adds, or takes fmax or fmin, of terms that do
 * not read it: *op that operator, *term the term's form; else 0. */
static int reduction(const struct ub_sx *acc, const struct ub_sx *body,
		     enum ub_expr_op *op, const struct ub_sx **term)
{
	if (acc->n != 1 || acc->kids[0].kind != UB_SX_LIST || acc->kids[0].n != 3 ||
	    acc->kids[0].kids[0].kind != UB_SX_SYM || !ub_sx_is(body, acc->kids[0].kids[0].text))
		return 0;
	const char *a = acc->kids[0].kids[0].text;
	const struct ub_sx *u = &acc->kids[0].kids[2];
	if (u->kind != UB_SX_LIST || u->n != 3)
		return 0;
	*op = ub_sx_is(&u->kids[0], "+") ? UB_ADD : ub_sx_is(&u->kids[0], "fmax") ? UB_FMAX
	      : ub_sx_is(&u->kids[0], "fmin") ? UB_FMIN : UB_NOPS;
	int at = ub_sx_is(&u->kids[1], a) ? 2 : ub_sx_is(&u->kids[2], a) ? 1 : 0;
	*term = at ? &u->kids[at] : NULL;
	return *op != UB_NOPS && at && !ub_ro_appears(*term, a);
}

/* t[0..n-1] (owned) combined by op as a balanced tree into *out. */
static int tree(struct ub_ro_row *rb, enum ub_expr_op op, struct ub_expr **t, long long n,
		struct ub_expr **out)
{
	while (n > 1) {
		long long m = 0;
		for (long long i = 0; i < n; i += 2) {
			struct ub_expr *pair[2] = {t[i], i + 1 < n ? t[i + 1] : NULL};
			t[m++] = pair[1] ? ub_expr_new_op(op, 2, pair) : pair[0];
		}
		for (long long i = 0; i < m; i++)
			if (!t[i]) {
				for (long long k = 0; k < m; k++)
					ub_expr_free(t[k]);
				return ub_ro_oom(rb);
			}
		n = m;
	}
	*out = t[0];
	return 0;
}

/* (for ...) or (for* ...), unrolled (see the top of this file). */
int ub_ro_loop(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
	       struct ub_expr **out)
{
	const struct ub_sx *acc = &x->kids[2], *term;
	const char *nm[3];
	long long n[3], total;
	enum ub_expr_op op;
	int seq = ub_sx_is(&x->kids[0], "for*"), nd = x->kids[1].n, st;
	if ((st = loop_indices(rb, &x->kids[1], nm, n, &total)))
		return st;
	if (acc->kind != UB_SX_LIST || acc->n < 1 || acc->n > 8)
		return ub_ro_fail(rb, acc, "%s", "for: expected ([ACC INIT UPDATE] ...), one to eight");
	for (int a = 0; a < acc->n; a++)
		if (acc->kids[a].kind != UB_SX_LIST || acc->kids[a].n != 3 ||
		    acc->kids[a].kids[0].kind != UB_SX_SYM)
			return ub_ro_fail(rb, &acc->kids[a], "%s", "for: an accumulator is [NAME INIT UPDATE]");
	if (reduction(acc, &x->kids[3], &op, &term)) {
		struct ub_expr **t = calloc((size_t)total + 1, sizeof *t);
		struct env ie[3];
		if (!t)
			return ub_ro_oom(rb);
		st = ub_ro_build(rb, &acc->kids[0].kids[1], env, &t[0]);
		for (long long i = 0; !st && i < total; i++)
			st = ub_ro_build(rb, term, tuple(ie, nm, n, nd, i, env), &t[i + 1]);
		if (!st)
			st = tree(rb, op, t, total + 1, out);
		else
			for (long long i = 0; i <= total; i++)
				ub_expr_free(t[i]);
		free(t);
		return st;
	}
	struct env ae[8], ie[3];
	const struct env *up = env;
	for (int a = 0; a < acc->n && !(st = 0); a++) {
		ae[a] = (struct env){acc->kids[a].kids[0].text, B_SCALAR, 0, NULL, NULL, NULL, up};
		st = ub_ro_build(rb, &acc->kids[a].kids[1], seq ? up : env, &ae[a].e);
		if (st || (st = ub_ro_keep(rb, ae[a].e)))
			return st;
		ub_expr_free(ae[a].e);
		up = &ae[a];
	}
	for (long long i = 0; i < total; i++) {
		struct env old[8];
		memcpy(old, ae, sizeof old);
		for (int a = 0; a < acc->n; a++) {  /* for: every update reads old */
			const struct env *in = tuple(ie, nm, n, nd, i, seq ? &ae[acc->n - 1] : &old[acc->n - 1]);
			struct ub_expr *v;
			if ((st = ub_ro_build(rb, &acc->kids[a].kids[2], in, &v)) || (st = ub_ro_keep(rb, v)))
				return st;
			ub_expr_free(v);
			ae[a].e = v;
		}
	}
	return ub_ro_build(rb, &x->kids[3], &ae[acc->n - 1], out);
}



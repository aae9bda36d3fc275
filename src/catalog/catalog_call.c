/* catalog_call.c — calls of one core by another (FPCore 2.0): in a file
 * that defines (FPCore f (x y) ... body), an expression (f a b) is f's
 * body with x bound to a and y to b, inlined where it is written.
 *
 *   - the arguments are read in the caller's scope, each once (a shared
 *     node, as a let binding); an argument annotated (! :precision P x)
 *     takes the caller's value rounded to P (a cast);
 *   - the body sees only f's arguments, and is read in the caller's
 *     rounding context (FPCore's `!` annotations inside it still apply):
 *     f's :precision is its own run's dtype, its :pre what its own run
 *     samples; neither applies to a call;
 *   - a core that calls itself, directly or through others, is refused
 *     with the cycle named ("f -> g -> f"): a call is written out, and a
 *     recursion would not end;
 *   - at most UB_CAT_MAX_CALLS calls are inlined into one core (nested
 *     calls can double the text at each level).
 * A builtin operator's name is never a call; an anonymous core is not
 * callable (it has no name to call). */
#include "catalog_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UB_CAT_MAX_CALLS 10000

/* The index of the core named `name` among c->forms, or -1. */
static int core_named(const struct ub_cat_ctx *c, const char *name)
{
	for (int k = 0; c->forms && k < c->forms->n; k++) {
		const struct ub_sx *f = &c->forms->kids[k];
		if (f->kind == UB_SX_LIST && f->n >= 3 && ub_sx_is(&f->kids[0], "FPCore") &&
		    ub_sx_is(&f->kids[1], name))
			return k;
	}
	return -1;
}

/* "recursive call: f -> g -> f": the chain from name's first call on. */
static int cycle(const struct ub_cat_ctx *c, const struct ub_sx *x, const char *name)
{
	const char *names[64];
	int n = 0, from = 0;
	for (const struct ub_cat_chain *ch = c->inl->chain; ch && n < 64; ch = ch->up)
		names[n++] = ch->name;   /* innermost first */
	for (int k = 0; k < n; k++)
		if (!strcmp(names[k], name))
			from = k;        /* the outermost call of name */
	char path[600] = "";
	size_t used = 0;
	for (int k = from; k >= 0 && used < sizeof path; k--)
		used += (size_t)snprintf(path + used, sizeof path - used, "%s -> ", names[k]);
	return ub_sx_fail(c->err, c->file, x->line, x->col, "recursive call: %s%s "
			  "(a call is inlined, and a recursion would not end)", path, name);
}

/* The argument of the callee's parameter a (a symbol, or (! :precision P
 * x)): its name and precision (-1: none). */
static int param(const struct ub_cat_ctx *c, const struct ub_sx *a,
		 const char **name, int *prec)
{
	*prec = -1;
	if (a->kind == UB_SX_SYM)
		return *name = a->text, 0;
	if (a->kind == UB_SX_LIST && a->n >= 2 && ub_sx_is(&a->kids[0], "!") &&
	    a->kids[a->n - 1].kind == UB_SX_SYM && a->n % 2 == 0) {
		*name = a->kids[a->n - 1].text;
		for (int i = 1; i + 1 < a->n; i += 2)
			if (a->kids[i].kind == UB_SX_KEY && !strcmp(a->kids[i].text, ":precision")) {
				int st = ub_cat_precision(c, &a->kids[i + 1], "argument", prec);
				if (st)
					return st;
			}
		if (*prec == UB_PREC_REAL)
			*prec = -1;
		return 0;
	}
	return ub_sx_fail(c->err, c->file, a->line, a->col, "a called core's argument "
			  "must be a symbol or (! :precision P symbol)");
}

/* The arguments of the call x read into scope entries b[0..n-1] (vals
 * owned), linked outward from NULL. */
static int bind(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_sx *params, const struct ub_scope *sc,
		struct ub_scope *b)
{
	int st = 0;
	for (int k = 0; k < params->n && !st; k++) {
		const char *name = "";
		int prec;
		struct ub_expr *v = NULL;
		if ((st = param(c, &params->kids[k], &name, &prec)) != 0)
			break;
		if ((st = ub_cat_real(c, &x->kids[1 + k], sc, "a call's argument", &v)) != 0)
			break;
		if (prec >= 0) { /* the value rounded to the argument's format */
			struct ub_expr *cast = ub_expr_new_op(UB_CAST, 1, &v);
			if (!cast)
				return ub_cat_oom(c);
			cast->prec = prec;
			v = cast;
		}
		b[k] = (struct ub_scope){name, -1, v, k ? &b[k - 1] : NULL};
	}
	return st;
}

int ub_cat_call(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out, int *st)
{
	const struct ub_sx *h = &x->kids[0];
	int k = h->kind == UB_SX_SYM ? core_named(c, h->text) : -1;
	if (k < 0 || !c->inl)
		return 0;
	const struct ub_sx *f = &c->forms->kids[k], *params = &f->kids[2];
	for (const struct ub_cat_chain *ch = c->inl->chain; ch; ch = ch->up)
		if (!strcmp(ch->name, h->text))
			return *st = cycle(c, x, h->text), 1;
	if (params->kind != UB_SX_LIST)
		return *st = ub_sx_fail(c->err, c->file, x->line, x->col, "'%s' is not a "
					"core that can be called", h->text), 1;
	if (x->n - 1 != params->n)
		return *st = ub_sx_fail(c->err, c->file, x->line, x->col, "'%s' takes %d "
					"argument%s, got %d", h->text, params->n,
					params->n == 1 ? "" : "s", x->n - 1), 1;
	if (++c->inl->ncalls > UB_CAT_MAX_CALLS)
		return *st = ub_sx_fail(c->err, c->file, x->line, x->col, "more than %d "
					"calls to inline", UB_CAT_MAX_CALLS), 1;
	const struct ub_sx *p[UB_NPROPS] = {0};
	int i = 3, nalt = 0;
	struct ub_scope *b = calloc((size_t)params->n + 1, sizeof *b);
	if (!b)
		return *st = ub_cat_oom(c), 1;
	*st = ub_cat_props(c, f, &i, p, &nalt);
	if (!*st)
		*st = bind(c, x, params, sc, b);
	if (!*st) {
		struct ub_cat_chain link = {h->text, c->inl->chain};
		const struct ub_cat_chain *saved = c->inl->chain;
		c->inl->chain = &link;
		c->inl->used[k] = 1;
		*st = ub_cat_real(c, &f->kids[i], params->n ? &b[params->n - 1] : NULL,
				  "a called core's body", out);
		c->inl->chain = saved;
	}
	for (int j = 0; j < params->n; j++)
		ub_expr_free(b[j].val);
	free(b);
	return 1;
}

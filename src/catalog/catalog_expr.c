/* catalog_expr.c — FPCore expressions into struct ub_expr: operators from
 * the ub_expr_ops table (+ * and or fold left over more arguments, a
 * comparison chain (< a b c) becomes (and (< a b) (< b c)), (!= a b c)
 * every pair, (- x) is negation, (and) is TRUE and (or) FALSE), the named
 * constants of UB_EXPR_CONSTS (kept as number nodes with that text), let
 * and let* by sharing (every use of a bound name is the binding's one
 * node: dag.h), the other forms in catalog_forms.c, no expression deeper
 * than UB_EXPR_MAX_DEPTH, and the torch plan (a top-level let*: one step
 * per binding, then "out").  Conditions and numbers are checked where
 * they meet: if wants a condition first and two branches of one type,
 * arithmetic wants numbers, an op's body and every plan step is a number.
 * Every operation and literal carries the rounding context it was read in
 * (expr.h's prec). */
#include "catalog_internal.h"
#include "dag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ub_cat_oom(const struct ub_cat_ctx *c)
{
	return ub_fail(c->err, UB_RUNTIME, "%s: out of memory", c->file);
}

const char *ub_cat_what(const struct ub_sx *x, char *buf, size_t len)
{
	static const char *const kinds[] = {
		[UB_SX_LIST] = "a list", [UB_SX_SYM] = "symbol",
		[UB_SX_NUM] = "number", [UB_SX_STR] = "a string",
		[UB_SX_KEY] = "keyword"};
	if (x->kind == UB_SX_LIST || x->kind == UB_SX_STR)
		snprintf(buf, len, "%s", kinds[x->kind]);
	else
		snprintf(buf, len, "%s '%s'", kinds[x->kind], x->text);
	return buf;
}

static int find_op(const char *name)
{
	for (int i = 0; i < UB_NOPS; i++)
		if (i != UB_NEG && strcmp(ub_expr_ops[i].name, name) == 0)
			return i;
	return -1;
}

static int unknown_op(const struct ub_cat_ctx *c, const struct ub_sx *head)
{
	char known[800];
	size_t used = 0;
	for (int i = 0; i < UB_NOPS && used < sizeof known; i++)
		if (i != UB_NEG)
			used += (size_t)snprintf(known + used, sizeof known - used,
						 "%s%s", used ? " " : "",
						 ub_expr_ops[i].name);
	return ub_sx_fail(c->err, c->file, head->line, head->col,
			  "unknown operator '%s' (known: %s let let* ! digits and "
			  "constants PI E ... TRUE FALSE)",
			  head->text, known);
}

/* e (just made) in the rounding context of c. */
static struct ub_expr *with_prec(struct ub_expr *e, const struct ub_cat_ctx *c)
{
	if (e && e->kind != UB_E_VAR && e->kind != UB_E_LVAR) {
		e->prec = c->prec;
		e->rnd = c->rnd;
	}
	return e;
}

static int symbol(const struct ub_cat_ctx *c, const struct ub_sx *x,
		  const struct ub_scope *sc, struct ub_expr **out)
{
	for (; sc; sc = sc->up)
		if (strcmp(sc->name, x->text) == 0)
			break;
	double v;
	if (sc && sc->val)
		*out = ub_expr_ref(sc->val);
	else if (sc)
		*out = ub_expr_new_var(sc->var);
	else if (ub_expr_const(x->text, &v) && (*out = ub_expr_new_num(x->text)))
		with_prec(*out, c);
	else if (ub_expr_const(x->text, &v))
		*out = NULL;
	else if (!strcmp(x->text, "inf") || !strcmp(x->text, "+inf") ||
		 !strcmp(x->text, "-inf")) { /* INFINITY, as a number */
		struct ub_expr *i = with_prec(ub_expr_new_num("INFINITY"), c);
		*out = x->text[0] == '-' ? with_prec(ub_expr_new_op(UB_NEG, 1, &i), c) : i;
	} else
		return ub_sx_fail(c->err, c->file, x->line, x->col,
				  "unknown variable '%s'", x->text);
	return *out ? 0 : ub_cat_oom(c);
}

/* A binding [name expr] of let, let* or a :torch plan. */
static int binding(const struct ub_cat_ctx *c, const struct ub_sx *b)
{
	if (b->kind == UB_SX_LIST && b->n == 2 && b->kids[0].kind == UB_SX_SYM)
		return 0;
	return ub_sx_fail(c->err, c->file, b->line, b->col,
			  "expected a binding [name expr]");
}

/* (let ([n e] ...) body) and let*: each use of a name is its binding's
 * node, shared. */
static int let(const struct ub_cat_ctx *c, const struct ub_sx *x,
	       const struct ub_scope *sc, int seq, struct ub_expr **out)
{
	const struct ub_sx *b = &x->kids[1];
	if (x->n != 3 || b->kind != UB_SX_LIST)
		return ub_sx_fail(c->err, c->file, x->line, x->col,
				  "'%s' takes a list of bindings and a body",
				  x->kids[0].text);
	struct ub_scope *nodes = calloc((size_t)b->n + 1, sizeof *nodes);
	if (!nodes)
		return ub_cat_oom(c);
	const struct ub_scope *inner = sc;
	int st = 0;
	for (int i = 0; i < b->n && !st; i++) {
		const struct ub_sx *bi = &b->kids[i];
		if ((st = binding(c, bi)) != 0)
			break;
		st = ub_cat_expr(c, &bi->kids[1], seq ? inner : sc, &nodes[i].val);
		nodes[i].name = bi->kids[0].text;
		nodes[i].up = inner;
		inner = &nodes[i];
	}
	if (!st)
		st = ub_cat_expr(c, &x->kids[2], inner, out);
	for (int i = 0; i < b->n; i++)
		ub_expr_free(nodes[i].val);
	free(nodes);
	return st;
}

static int comparison(int op)
{
	return op >= UB_LT && op <= UB_NE;
}

/* Fewest arguments of an operator that takes any number, else -1.  The
 * standard's + and * take two or more; Herbie's files also write (* x),
 * (+ x), (/ x) for 1/x, and (- a b c) and (/ a b c) folded from the left
 * (docs/fpcore.md: an extension, on for every file). */
static int variadic(int op)
{
	if (op == UB_AND || op == UB_OR)
		return 0;
	if (op == UB_ADD || op == UB_MUL || op == UB_DIV)
		return 1;
	return op == UB_SUB || comparison(op) ? 2 : -1;
}

/* The operator of (head args...), its arity checked; -1 after an error. */
static int operator(const struct ub_cat_ctx *c, const struct ub_sx *x)
{
	const struct ub_sx *head = &x->kids[0];
	int nargs = x->n - 1;
	int op = strcmp(head->text, "-") == 0 && nargs == 1 ? UB_NEG
							    : find_op(head->text);
	if (op < 0 || op == UB_WHILE || op == UB_WHILES || op == UB_CAST) {
		unknown_op(c, head);
		return -1;
	}
	int arity = ub_expr_ops[op].arity, least = variadic(op);
	if (least >= 0 ? nargs >= least : nargs == arity)
		return op;
	if (least >= 0)
		ub_sx_fail(c->err, c->file, x->line, x->col,
			   "'%s' takes at least %d argument%s, got %d", head->text,
			   least, least == 1 ? "" : "s", nargs);
	else
		ub_sx_fail(c->err, c->file, x->line, x->col,
			   "'%s' takes %d argument%s, got %d", head->text, arity,
			   arity == 1 ? "" : "s", nargs);
	return -1;
}

int ub_cat_typed(const struct ub_cat_ctx *c, const struct ub_sx *head,
		 const struct ub_sx *x, enum ub_expr_type want,
		 const struct ub_expr *e)
{
	if (ub_expr_type_of(e) == want)
		return 0;
	if (want == UB_T_BOOL)
		return ub_sx_fail(c->err, c->file, x->line, x->col,
				  "'%s' needs a condition here (a comparison, and, or, "
				  "not, TRUE, FALSE), found a number", head->text);
	return ub_sx_fail(c->err, c->file, x->line, x->col,
			  "'%s' needs a number here, found a condition", head->text);
}

/* The tree of op over a[0..n-1] (owned; freed): fixed arity as is,
 * variadic folded left, comparison chains into and; every node made here
 * in the rounding context of prec. */
static struct ub_expr *build(int op, struct ub_expr **a, int n,
			     const struct ub_cat_ctx *prec)
{
	struct ub_expr *acc = NULL;
	if (variadic(op) < 0)
		return with_prec(ub_expr_new_op((enum ub_expr_op)op, n, a), prec);
	if (n == 0) /* (and) holds, (or) does not */
		return ub_expr_new_num(op == UB_AND ? "TRUE" : "FALSE");
	if (op == UB_DIV && n == 1) { /* (/ x) is 1/x */
		struct ub_expr *pair[2] = {with_prec(ub_expr_new_num("1"), prec), a[0]};
		if (!pair[0]) {
			ub_expr_free(a[0]);
			return NULL;
		}
		return with_prec(ub_expr_new_op(UB_DIV, 2, pair), prec);
	}
	if (!comparison(op)) { /* one argument: itself */
		acc = a[0];
		for (int i = 1; i < n; i++) {
			struct ub_expr *pair[2] = {acc, a[i]};
			acc = with_prec(ub_expr_new_op((enum ub_expr_op)op, 2, pair), prec);
		}
		return acc;
	}
	int first = 1; /* != compares every pair, the others neighbours */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n && (op == UB_NE || j == i + 1); j++) {
			struct ub_expr *pair[2] = {ub_expr_ref(a[i]), ub_expr_ref(a[j])};
			struct ub_expr *cmp = with_prec(ub_expr_new_op((enum ub_expr_op)op,
								       2, pair), prec);
			struct ub_expr *both[2] = {acc, cmp};
			acc = first ? cmp : with_prec(ub_expr_new_op(UB_AND, 2, both), prec);
			first = 0;
		}
	for (int i = 0; i < n; i++)
		ub_expr_free(a[i]);
	return acc;
}

static int call(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out)
{
	int op = operator(c, x);
	if (op < 0)
		return UB_USAGE;
	int n = x->n - 1, st = 0;
	struct ub_expr **a = calloc((size_t)n + 1, sizeof *a);
	if (!a)
		return ub_cat_oom(c);
	for (int i = 0; i < n && !st; i++) {
		st = ub_cat_expr(c, &x->kids[1 + i], sc, &a[i]);
		if (!st && !(op == UB_IF && i == 2))
			st = ub_cat_typed(c, &x->kids[0], &x->kids[1 + i],
					  op == UB_IF && i == 1 ? ub_expr_type_of(a[1]) :
					  ub_expr_arg_type((enum ub_expr_op)op, n, i), a[i]);
		if (!st && op == UB_IF && i == 2) /* the branches agree */
			st = ub_cat_typed(c, &x->kids[0], &x->kids[3],
					  ub_expr_type_of(a[1]), a[2]);
	}
	if (st) {
		for (int i = 0; i < n; i++)
			ub_expr_free(a[i]);
		free(a);
		return st;
	}
	*out = build(op, a, n, c);
	free(a);
	if (!*out)
		return ub_cat_oom(c);
	return ub_cat_depth(c, x, out);
}

int ub_cat_depth(const struct ub_cat_ctx *c, const struct ub_sx *x,
		 struct ub_expr **out)
{
	if ((*out)->depth <= UB_EXPR_MAX_DEPTH)
		return 0;
	ub_expr_free(*out);
	*out = NULL;
	return ub_sx_fail(c->err, c->file, x->line, x->col,
			  "expression nested deeper than %d", UB_EXPR_MAX_DEPTH);
}

int ub_cat_expr(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out)
{
	char what[200];
	int st = 0;
	*out = NULL;
	switch (x->kind) {
	case UB_SX_NUM:
		*out = with_prec(ub_expr_new_num(x->text), c);
		return *out ? 0 : ub_cat_oom(c);
	case UB_SX_SYM:
		return symbol(c, x, sc, out);
	case UB_SX_LIST:
		if (x->n == 0)
			return ub_sx_fail(c->err, c->file, x->line, x->col,
					  "empty expression ()");
		if (x->kids[0].kind != UB_SX_SYM)
			return ub_sx_fail(c->err, c->file, x->line, x->col,
					  "expected an operator name, found %s",
					  ub_cat_what(&x->kids[0], what, sizeof what));
		if (ub_sx_is(&x->kids[0], "let") || ub_sx_is(&x->kids[0], "let*"))
			return let(c, x, sc, ub_sx_is(&x->kids[0], "let*"), out);
		if (ub_cat_form(c, x, sc, out, &st))
			return st;
		if (find_op(x->kids[0].text) < 0 && !ub_sx_is(&x->kids[0], "-") &&
		    ub_cat_call(c, x, sc, out, &st))
			return st;   /* a core of the file, called (not an operator) */
		return call(c, x, sc, out);
	default:
		return ub_sx_fail(c->err, c->file, x->line, x->col,
				  "expected an expression, found %s",
				  ub_cat_what(x, what, sizeof what));
	}
}

int ub_cat_real(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, const char *what, struct ub_expr **out)
{
	int st = ub_cat_expr(c, x, sc, out);
	if (st || ub_expr_type_of(*out) == UB_T_REAL)
		return st;
	ub_expr_free(*out);
	*out = NULL;
	return ub_sx_fail(c->err, c->file, x->line, x->col, "%s must be a number, "
			  "found a condition (use (if COND a b))", what);
}

/* One plan step: name and tree; the caller counts it in op->nsteps. */
static int step(const struct ub_cat_ctx *c, const char *name,
		const struct ub_sx *x, const struct ub_scope *sc,
		struct ub_plan_step *s)
{
	if (!(s->name = strdup(name)))
		return ub_cat_oom(c);
	return ub_cat_real(c, x, sc, "a :torch step", &s->e);
}

/* Whether the plan's step `name` is PyTorch's forward output that a saved
 * input of the op replaces in this reading (c->env->saved). */
static int saved_step(const struct ub_cat_ctx *c, const struct ub_op *op,
		      const char *name)
{
	for (int i = 0; c->env && c->env->saved && i < op->nsaved; i++)
		if (!strcmp(op->saved[i].name, name))
			return 1;
	return 0;
}

int ub_cat_plan(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *inputs, struct ub_op *op)
{
	int is_let = x->kind == UB_SX_LIST && x->n == 3 &&
		     (ub_sx_is(&x->kids[0], "let") || ub_sx_is(&x->kids[0], "let*")) &&
		     x->kids[1].kind == UB_SX_LIST;
	int nb = is_let ? x->kids[1].n : 0, seq = is_let && ub_sx_is(&x->kids[0], "let*");
	struct ub_scope *nodes = calloc((size_t)nb + 1, sizeof *nodes);
	op->torch = calloc((size_t)nb + 1, sizeof *op->torch);
	if (!nodes || !op->torch) {
		free(nodes);
		return ub_cat_oom(c);
	}
	const struct ub_scope *inner = inputs;
	int st = 0;
	for (int i = 0; i < nb && !st; i++) {
		const struct ub_sx *bi = &x->kids[1].kids[i];
		if ((st = binding(c, bi)) != 0)
			break;
		if (saved_step(c, op, bi->kids[0].text))
			continue;   /* the saved input (in scope) stands for it */
		int k = op->nsteps++;
		st = step(c, bi->kids[0].text, &bi->kids[1], seq ? inner : inputs,
			  &op->torch[k]);
		nodes[k] = (struct ub_scope){op->torch[k].name, op->ninputs + k,
					     NULL, inner};
		inner = &nodes[k];
	}
	if (!st) {
		int k = op->nsteps++;
		st = step(c, "out", is_let ? &x->kids[2] : x, inner, &op->torch[k]);
	}
	free(nodes);
	return st;
}

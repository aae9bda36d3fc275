/* catalog_expr.c — FPCore expressions into struct ub_expr: operators from
 * the ub_expr_ops table (+ and * fold left over more than two arguments,
 * (- x) is negation), the constants PI E INFINITY NAN (kept as number
 * nodes with that text), let and let* by substitution, and the torch
 * plan (a top-level let*: one step per binding, then "out"). */
#include "catalog_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const constants[] = {"PI", "E", "INFINITY", "NAN", NULL};

/* FPCore forms ulpbench does not model: an error, not "unknown". */
static const char *const unsupported[] = {
	"and", "or", "not", "!",
	"cast", "while", "while*", "for", "for*", "tensor", "tensor*",
	"array", "ref", "dim", "size", "digits", NULL};

static int listed(const char *const *list, const char *s)
{
	for (; *list; list++)
		if (strcmp(*list, s) == 0)
			return 1;
	return 0;
}

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
	char known[400];
	size_t used = 0;
	for (int i = 0; i < UB_NOPS && used < sizeof known; i++)
		if (i != UB_NEG)
			used += (size_t)snprintf(known + used, sizeof known - used,
						 "%s%s", used ? " " : "",
						 ub_expr_ops[i].name);
	return ub_sx_fail(c->err, c->file, head->line, head->col,
			  "unknown operator '%s' (known: %s let let*)",
			  head->text, known);
}

static int symbol(const struct ub_cat_ctx *c, const struct ub_sx *x,
		  const struct ub_scope *sc, struct ub_expr **out)
{
	for (; sc; sc = sc->up)
		if (strcmp(sc->name, x->text) == 0)
			break;
	if (sc && sc->val)
		*out = ub_expr_copy(sc->val);
	else if (sc)
		*out = ub_expr_new_var(sc->var);
	else if (listed(constants, x->text))
		*out = ub_expr_new_num(x->text);
	else
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

/* (let ([n e] ...) body) and let*: each binding's tree replaces its name. */
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

/* The operator of (head args...), its arity checked; -1 after an error. */
static int operator(const struct ub_cat_ctx *c, const struct ub_sx *x)
{
	const struct ub_sx *head = &x->kids[0];
	int nargs = x->n - 1;
	if (listed(unsupported, head->text)) {
		ub_sx_fail(c->err, c->file, head->line, head->col,
			   "unsupported operator '%s' (ulpbench reads arithmetic, "
			   "functions, if with one comparison, let and let*)",
			   head->text);
		return -1;
	}
	int op = strcmp(head->text, "-") == 0 && nargs == 1 ? UB_NEG
							    : find_op(head->text);
	if (op < 0) {
		unknown_op(c, head);
		return -1;
	}
	int arity = ub_expr_ops[op].arity;
	if (nargs == arity || ((op == UB_ADD || op == UB_MUL) && nargs > 2))
		return op;
	ub_sx_fail(c->err, c->file, x->line, x->col,
		   "'%s' takes %d argument%s, got %d", head->text, arity,
		   arity == 1 ? "" : "s", nargs);
	return -1;
}

/* A comparison is a truth value: only an if's condition may be one, and
 * an if's condition must be one. */
static int truth_ok(const struct ub_cat_ctx *c, const struct ub_sx *x, int op,
		    struct ub_expr *const *a, int n)
{
	for (int i = 0; i < n; i++) {
		int cmp = a[i] && a[i]->kind == UB_E_OP && UB_EXPR_IS_CMP(a[i]->op);
		const struct ub_sx *at = &x->kids[1 + i];
		if (op == UB_IF && i == 0 && !cmp)
			return ub_sx_fail(c->err, c->file, at->line, at->col,
					  "the condition of 'if' must be a comparison "
					  "(< <= > >= == !=)");
		if (cmp && !(op == UB_IF && i == 0))
			return ub_sx_fail(c->err, c->file, at->line, at->col,
					  "a comparison is only allowed as the "
					  "condition of 'if'");
	}
	return 0;
}

int ub_cat_value(const struct ub_cat_ctx *c, const struct ub_sx *x,
		 const struct ub_expr *e)
{
	if (e && e->kind == UB_E_OP && UB_EXPR_IS_CMP(e->op))
		return ub_sx_fail(c->err, c->file, x->line, x->col, "a comparison "
				  "is only allowed as the condition of 'if'");
	return 0;
}

static int call(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out)
{
	int op = operator(c, x);
	if (op < 0)
		return UB_USAGE;
	int arity = ub_expr_ops[op].arity, st = 0;
	struct ub_expr *a[3] = {NULL, NULL, NULL};
	for (int i = 0; i < arity && !st; i++)
		st = ub_cat_expr(c, &x->kids[1 + i], sc, &a[i]);
	if (!st)
		st = truth_ok(c, x, op, a, arity);
	if (st) {
		for (int i = 0; i < arity; i++)
			ub_expr_free(a[i]);
		return st;
	}
	struct ub_expr *acc = ub_expr_new_op(op, arity, a);
	for (int i = 1 + arity; i < x->n && acc; i++) { /* fold + and * left */
		struct ub_expr *pair[2] = {acc, NULL};
		if ((st = ub_cat_expr(c, &x->kids[i], sc, &pair[1])) != 0 ||
		    (st = ub_cat_value(c, &x->kids[i], pair[1])) != 0) {
			ub_expr_free(pair[1]);
			ub_expr_free(acc);
			return st;
		}
		acc = ub_expr_new_op(op, 2, pair);
	}
	*out = acc;
	return acc ? 0 : ub_cat_oom(c);
}

int ub_cat_expr(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out)
{
	char what[200];
	*out = NULL;
	switch (x->kind) {
	case UB_SX_NUM:
		*out = ub_expr_new_num(x->text);
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
		return call(c, x, sc, out);
	default:
		return ub_sx_fail(c->err, c->file, x->line, x->col,
				  "expected an expression, found %s",
				  ub_cat_what(x, what, sizeof what));
	}
}

/* One plan step: name and tree; the caller counts it in op->nsteps. */
static int step(const struct ub_cat_ctx *c, const char *name,
		const struct ub_sx *x, const struct ub_scope *sc,
		struct ub_plan_step *s)
{
	if (!(s->name = strdup(name)))
		return ub_cat_oom(c);
	int st = ub_cat_expr(c, x, sc, &s->e);
	return st ? st : ub_cat_value(c, x, s->e);
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
		op->nsteps++;
		st = step(c, bi->kids[0].text, &bi->kids[1], seq ? inner : inputs,
			  &op->torch[i]);
		nodes[i] = (struct ub_scope){op->torch[i].name, op->ninputs + i,
					     NULL, inner};
		inner = &nodes[i];
	}
	if (!st) {
		op->nsteps++;
		st = step(c, "out", is_let ? &x->kids[2] : x, inner, &op->torch[nb]);
	}
	free(nodes);
	return st;
}

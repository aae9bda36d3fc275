/* catalog_saved.c — an op's named constants and the inputs PyTorch saves
 * from the forward pass (catalog.h):
 *
 *   :params ([alpha 1.0] [beta 0.5])  names usable in the body, :torch,
 *       :kernel-expr, :saved and :saved-math, each a number node of its
 *       value (--param NAME=V, or as written);
 *   :saved ([y (tanh x)])  an input computed from the sampled ones, for
 *       kernels that take it, as PyTorch's tanh backward takes its
 *       forward output;
 *   :saved-math EXPR  the exact math over the inputs and the saved ones,
 *       the reference when a kernel takes a saved input;
 *   :input-docs ([x "the forward input"] ...)  what each input is, for
 *       --list-ops (a default is made for those left out).
 * ub_cat_props_early reads the first two before the body (their names are
 * in its scope), ub_cat_props_late the others once the op is built. */
#include "catalog_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail_at(const struct ub_cat_ctx *c, const struct ub_sx *x,
		   const char *msg, const char *arg)
{
	return ub_sx_fail(c->err, c->file, x->line, x->col, msg, arg);
}

/* A name not taken by an input, a param or a saved input before it. */
static int fresh(const struct ub_cat_ctx *c, const struct ub_sx *x,
		 const struct ub_op *op, const char *what)
{
	for (int i = 0; i < op->ninputs; i++)
		if (!strcmp(op->inputs[i], x->text))
			return ub_sx_fail(c->err, c->file, x->line, x->col,
					  "%s: '%s' is an input's name", what, x->text);
	for (int i = 0; i < op->nparams; i++)
		if (!strcmp(op->params[i].name, x->text))
			return ub_sx_fail(c->err, c->file, x->line, x->col,
					  "%s: '%s' appears twice", what, x->text);
	for (int i = 0; i < op->nsaved; i++)
		if (!strcmp(op->saved[i].name, x->text))
			return ub_sx_fail(c->err, c->file, x->line, x->col,
					  "%s: '%s' appears twice", what, x->text);
	if (!strcmp(x->text, "out") || !strcmp(x->text, "n"))
		return ub_sx_fail(c->err, c->file, x->line, x->col, "%s: '%s' names "
				  "a kernel's result or count", what, x->text);
	return 0;
}

/* A list of [NAME VALUE] pairs; *n of them. */
static int pairs(const struct ub_cat_ctx *c, const struct ub_sx *x,
		 const char *what, int max)
{
	if (x->kind != UB_SX_LIST)
		return fail_at(c, x, "%s: expected a list of [NAME VALUE]", what);
	if (x->n > max)
		return ub_sx_fail(c->err, c->file, x->line, x->col, "%s: more than %d",
				  what, max);
	for (int i = 0; i < x->n; i++) {
		const struct ub_sx *b = &x->kids[i];
		if (b->kind != UB_SX_LIST || b->n != 2 || b->kids[0].kind != UB_SX_SYM)
			return fail_at(c, b, "%s: expected [NAME VALUE]", what);
	}
	return 0;
}

/* :params ([alpha 1.0] ...): numbers; env->values[k] replaces the k-th
 * one's text. */
static int params(const struct ub_cat_ctx *c, const struct ub_sx *x,
		  struct ub_op *op, const struct ub_parse_env *env)
{
	int st = pairs(c, x, ":params", UB_MAX_PARAMS);
	for (int i = 0; i < x->n && !st; i++) {
		const struct ub_sx *name = &x->kids[i].kids[0], *v = &x->kids[i].kids[1];
		char *end;
		if ((st = fresh(c, name, op, ":params")) != 0)
			break;
		if (v->kind != UB_SX_NUM || strchr(v->text, '/'))
			return fail_at(c, v, ":params: '%s' takes a number (1.0, 0x1.8p-3)",
				       name->text);
		const char *text = env && env->values && env->values[i] ? env->values[i]
									: v->text;
		struct ub_param *p = &op->params[op->nparams];
		if (!(p->name = strdup(name->text)) || !(p->text = strdup(text)))
			return ub_cat_oom(c);
		op->nparams++;
		p->value = strtod(text, &end);
	}
	return st;
}

/* :saved ([y (tanh x)] ...), over the inputs and params in sc. */
static int saved(const struct ub_cat_ctx *c, const struct ub_sx *x,
		 struct ub_op *op, const struct ub_scope *sc)
{
	int st = pairs(c, x, ":saved", UB_MAX_INPUTS - op->ninputs);
	for (int i = 0; i < x->n && !st; i++) {
		const struct ub_sx *name = &x->kids[i].kids[0], *e = &x->kids[i].kids[1];
		if ((st = fresh(c, name, op, ":saved")) != 0)
			break;
		struct ub_saved *s = &op->saved[op->nsaved];
		if (!(s->name = strdup(name->text)))
			return ub_cat_oom(c);
		op->nsaved++;
		st = ub_cat_real(c, e, sc, ":saved", &s->e);
	}
	return st;
}

int ub_cat_props_early(const struct ub_cat_ctx *c, const struct ub_sx *par,
		       const struct ub_sx *sav, struct ub_op *op,
		       struct ub_scope *sc, const struct ub_scope **top)
{
	int st = 0, k = op->ninputs;
	if (par && (st = params(c, par, op, c->env)) != 0)
		return st;
	for (int i = 0; i < op->nparams; i++, k++) {
		struct ub_expr *num = ub_expr_new_num(op->params[i].text);
		if (!num)
			return ub_cat_oom(c);
		sc[k] = (struct ub_scope){op->params[i].name, -1, num, *top};
		*top = &sc[k];
	}
	if (sav)
		st = saved(c, sav, op, *top);
	return st;
}

/* The default description of input k. */
static char *default_doc(const struct ub_op *op, int k)
{
	const char *nm = op->name ? op->name : "";   /* NULL: anonymous, so far */
	size_t l = strlen(nm);
	int bwd = l > 4 && !strcmp(nm + l - 4, "_bwd");
	char buf[256];
	if (bwd && !strcmp(op->inputs[k], "x"))
		snprintf(buf, sizeof buf, "the forward input");
	else if (bwd && !strcmp(op->inputs[k], "g"))
		snprintf(buf, sizeof buf, "the incoming gradient (of the forward output)");
	else
		snprintf(buf, sizeof buf, "an input, sampled over its domain");
	return strdup(buf);
}

/* :input-docs ([x "..."] ...) and defaults for the others. */
static int docs(const struct ub_cat_ctx *c, const struct ub_sx *x, struct ub_op *op)
{
	int st = x ? pairs(c, x, ":input-docs", UB_MAX_INPUTS) : 0;
	for (int i = 0; x && i < x->n && !st; i++) {
		const struct ub_sx *name = &x->kids[i].kids[0], *d = &x->kids[i].kids[1];
		int k = -1;
		for (int j = 0; j < op->nsampled; j++)
			k = strcmp(op->inputs[j], name->text) ? k : j;
		if (k < 0)
			return fail_at(c, name, ":input-docs: '%s' is not an input", name->text);
		if (d->kind != UB_SX_STR)
			return fail_at(c, d, ":input-docs: expected a string for '%s'",
				       name->text);
		free(op->input_doc[k]);
		if (!(op->input_doc[k] = strdup(d->text)))
			return ub_cat_oom(c);
	}
	for (int k = 0; k < op->nsampled && !st; k++)
		if (!op->input_doc[k] && !(op->input_doc[k] = default_doc(op, k)))
			st = ub_cat_oom(c);
	for (int k = 0; k < op->nsaved && !st; k++) {
		char e[200], buf[400];
		ub_expr_print(op->saved[k].e, (const char *const *)op->inputs, e, sizeof e);
		snprintf(buf, sizeof buf, "%s rounded to the dtype (correctly, from "
			 "the exact value): the forward output PyTorch saves", e);
		if (!(op->saved[k].desc = strdup(buf)))
			st = ub_cat_oom(c);
	}
	return st;
}

int ub_cat_props_late(const struct ub_cat_ctx *c, const struct ub_sx *smath,
		      const struct ub_sx *idocs, struct ub_op *op,
		      struct ub_scope *sc, const struct ub_scope *top)
{
	int st = 0;
	if (smath && !op->nsaved)
		return fail_at(c, smath, "%s: without :saved", ":saved-math");
	if (op->nsaved && !smath)
		return ub_sx_fail(c->err, c->file, op->line, 1, "op '%s': :saved needs "
				  ":saved-math, the exact math over the saved inputs",
				  op->name);
	/* the saved inputs' scope: indices after the sampled inputs, as
	 * they are when a kernel takes them (c->env->saved: they are
	 * inputs already, in scope) */
	int base = UB_MAX_INPUTS + UB_MAX_PARAMS;
	for (int i = 0; !(c->env && c->env->saved) && i < op->nsaved; i++) {
		sc[base + i] = (struct ub_scope){op->saved[i].name, op->nsampled + i,
						 NULL, top};
		top = &sc[base + i];
	}
	if (smath)
		st = ub_cat_real(c, smath, top, ":saved-math", &op->saved_math);
	if (!st)
		st = docs(c, idocs, op);
	return st;
}

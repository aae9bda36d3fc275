/* catalog.c — the op catalog: FPCore forms into struct ub_op.
 *
 * A file holds any number of FPCore 2.0 forms, (FPCore NAME (ARGS...)
 * :key value ... BODY) or (FPCore (ARGS...) ...).  An anonymous core is
 * named by its :name string ("Rump's example"), and also answers to an
 * identifier derived from it (rumps_example) when no other op has that
 * name; every core answers to FILE#K, K counting the file's forms from 1.
 * An argument is a symbol or (! :precision P ... x); one with dimensions
 * (a tensor) is refused.  The properties are catalog_props.c's (:params,
 * :saved, :saved-math and :input-docs catalog_saved.c's).  A core
 * that does not read becomes a broken entry holding its message, and the
 * other cores still load; only text that is not s-expressions at all
 * fails the file.  Every message is "FILE:LINE:COL: message". */
#include "catalog_internal.h"
#include "rowop.h"
#include "paths.h"

#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail_at(const struct ub_cat_ctx *c, const struct ub_sx *x,
		   const char *msg, const char *arg)
{
	return ub_sx_fail(c->err, c->file, x->line, x->col, msg, arg);
}

/* One argument: a symbol, or (! :precision P ... x); dimensions refused. */
static int argument(const struct ub_cat_ctx *c, const struct ub_sx *a,
		    const char **name, int *prec)
{
	*prec = -1;
	*name = "";
	if (a->kind == UB_SX_SYM) {
		*name = a->text;
		return 0;
	}
	int i = 1, st = 0;
	if (a->kind == UB_SX_LIST && a->n >= 2 && ub_sx_is(&a->kids[0], "!")) {
		for (; i + 1 < a->n && a->kids[i].kind == UB_SX_KEY && !st; i += 2)
			if (!strcmp(a->kids[i].text, ":precision"))
				st = ub_cat_precision(c, &a->kids[i + 1], "argument", prec);
		if (st)
			return st;
		if (*prec == UB_PREC_REAL)
			*prec = -1;
	} else {
		i = 0;
	}
	if (a->kind != UB_SX_LIST || i >= a->n || a->kids[i].kind != UB_SX_SYM)
		return fail_at(c, a, "%s", "an argument must be a symbol or "
			       "(! :precision P symbol)");
	*name = a->kids[i].text;
	if (i + 1 < a->n)
		return fail_at(c, &a->kids[i + 1], "argument '%s' has dimensions: "
			       "tensor arguments are not supported", *name);
	return 0;
}

/* (x g ...): at most UB_MAX_INPUTS distinct names, in scope order. */
static int inputs(const struct ub_cat_ctx *c, const struct ub_sx *x,
		  struct ub_op *op, struct ub_scope *sc)
{
	for (int i = 0; i < x->n; i++) {
		const struct ub_sx *a = &x->kids[i];
		const char *name;
		int prec, st = argument(c, a, &name, &prec);
		if (st)
			return st;
		if (i == UB_MAX_INPUTS)
			return ub_sx_fail(c->err, c->file, a->line, a->col,
					  "more than %d arguments", UB_MAX_INPUTS);
		if (ub_cat_input(op, name) >= 0)
			return fail_at(c, a, "argument '%s' appears twice", name);
		if (!(op->inputs[i] = strdup(name)))
			return ub_cat_oom(c);
		op->arg_prec[i] = prec;
		op->dom[i] = (struct ub_domain){-INFINITY, INFINITY, 0, 0};
		op->ninputs++;
		op->nsampled++;
		sc[i] = (struct ub_scope){op->inputs[i], i, NULL, i ? &sc[i - 1] : NULL};
	}
	return 0;
}

/* A core without arguments is one element: the pipeline runs it with one
 * input, "_", that its body cannot name (it is in no scope) and that
 * takes the one value +0 (docs/fpcore.md). */
static int no_arguments(const struct ub_cat_ctx *c, struct ub_op *op)
{
	if (!(op->inputs[0] = strdup("_")))
		return ub_cat_oom(c);
	op->arg_prec[0] = -1;
	op->dom[0] = (struct ub_domain){0, 0, 1, 0};
	op->ninputs = op->nsampled = 1;
	op->noargs = 1;
	return 0;
}

/* Without :torch, the plan derived from what the kernel computes: one step
 * with every operation rounded (codegen.h). */
static int derive_plan(const struct ub_cat_ctx *c, struct ub_op *op)
{
	const struct ub_expr *e = op->kernel_expr ? op->kernel_expr : op->math;
	if (!(op->torch = calloc(1, sizeof *op->torch)) ||
	    !(op->torch[0].name = strdup("out")))
		return ub_cat_oom(c);
	op->torch[0].e = ub_expr_ref((struct ub_expr *)e);
	op->torch[0].per_op = 1;
	op->nsteps = 1;
	op->auto_plan = 1;
	return 0;
}

/* With env->saved: the saved inputs become inputs (after the sampled
 * ones), in the scope of what follows. */
static int saved_inputs(const struct ub_cat_ctx *c, struct ub_op *op,
			struct ub_scope *sc, const struct ub_scope **top)
{
	for (int i = 0; c->env && c->env->saved && i < op->nsaved; i++) {
		int k = op->ninputs++;
		if (!(op->inputs[k] = strdup(op->saved[i].name)))
			return ub_cat_oom(c);
		op->arg_prec[k] = -1;
		op->dom[k] = (struct ub_domain){-INFINITY, INFINITY, 0, 0};
		sc[UB_MAX_INPUTS + UB_MAX_PARAMS + i] = (struct ub_scope){op->inputs[k], k,
									   NULL, *top};
		*top = &sc[UB_MAX_INPUTS + UB_MAX_PARAMS + i];
	}
	return 0;
}

static void free_scope_vals(struct ub_scope *sc, int n)
{
	for (int i = 0; i < n; i++)
		if (sc[i].val && sc[i].var < 0)
			ub_expr_free(sc[i].val);
}

/* The body and the properties, once the inputs and :params/:saved are in
 * scope; with env->saved the math is :saved-math's. */
static int body_props(const struct ub_cat_ctx *c, const struct ub_sx *f, int i,
		      const struct ub_sx *p[UB_NPROPS], int nalt,
		      struct ub_scope *sc, struct ub_op *op)
{
	const struct ub_scope *top = op->ninputs && !op->noargs ? &sc[op->ninputs - 1] : NULL;
	struct ub_cat_ctx body = *c;   /* a core's :round: its operations' */
	int st = ub_cat_props_early(c, p[P_PARAMS], p[P_SAVED], op, sc, &top);
	if (!st)
		st = saved_inputs(c, op, sc, &top);
	if (!st && p[P_ROUND])
		st = ub_cat_round(c, p[P_ROUND], ":round", &body.rnd);
	if (!st)
		st = ub_cat_real(&body, &f->kids[i], top, "the body", &op->math);
	if (!st)
		st = ub_cat_apply(c, f, p, nalt, top, op);
	if (!st)
		st = ub_cat_props_late(c, p[P_SMATH], p[P_IDOCS], op, sc, top);
	if (!st && c->env && c->env->saved && op->saved_math) {
		struct ub_expr *m = op->math;   /* the reference for the run */
		op->math = ub_expr_ref(op->saved_math);
		ub_expr_free(m);
	}
	return st || p[P_TORCH] ? st : derive_plan(c, op);
}

/* The argument list, properties and body of form f (its K-th form), named
 * or not. */
static int parse_op(const struct ub_cat_ctx *c, const struct ub_sx *f,
		    struct ub_op *op)
{
	struct ub_scope sc[UB_CAT_MAX_SCOPE];
	const struct ub_sx *p[UB_NPROPS] = {0};
	int named = f->n >= 2 && f->kids[1].kind == UB_SX_SYM;
	int i = named ? 3 : 2, nalt = 0, st;
	memset(sc, 0, sizeof sc);
	if (named && !(op->name = strdup(f->kids[1].text)))
		return ub_cat_oom(c);
	if (f->n < i || f->kids[i - 1].kind != UB_SX_LIST)
		return fail_at(c, f->n < i ? f : &f->kids[i - 1], "%s",
			       "expected (FPCore (ARGS...) ... BODY) or (FPCore NAME "
			       "(ARGS...) ... BODY)");
	op->anonymous = !named;
	if ((st = inputs(c, &f->kids[i - 1], op, sc)) != 0)
		return st;
	if (!op->ninputs && (st = no_arguments(c, op)) != 0)
		return st;
	if ((st = ub_cat_props(c, f, &i, p, &nalt)) != 0)
		return st;
	if (p[P_NAME] && p[P_NAME]->kind == UB_SX_STR &&
	    !(op->desc = strdup(p[P_NAME]->text)))
		return ub_cat_oom(c);
	struct ub_cat_chain self = {named ? op->name : "", NULL};
	if (c->inl && named) /* a call of itself is a cycle from the start */
		c->inl->chain = &self;
	st = body_props(c, f, i, p, nalt, sc, op);
	if (c->inl)
		c->inl->chain = NULL;
	free_scope_vals(sc, UB_CAT_MAX_SCOPE);
	return st;
}

void ub_op_free(struct ub_op *op)
{
	free(op->name);
	free(op->desc);
	free(op->ident);
	free(op->alias);
	free(op->description);
	free(op->cite);
	free(op->example);
	for (int i = 0; i < op->nalt; i++)
		free(op->alt[i]);
	free(op->alt);
	for (int i = 0; i < op->ninputs; i++)
		free(op->inputs[i]);
	for (int i = 0; i < UB_MAX_INPUTS; i++)
		free(op->input_doc[i]);
	for (int i = 0; i < op->nparams; i++) {
		free(op->params[i].name);
		free(op->params[i].text);
	}
	for (int i = 0; i < op->nsaved; i++) {
		free(op->saved[i].name);
		free(op->saved[i].desc);
		ub_expr_free(op->saved[i].e);
	}
	ub_expr_free(op->saved_math);
	free(op->form);
	free(op->calls);
	for (int i = 0; i < op->npre; i++)
		ub_expr_free(op->pre[i].e);
	free(op->pre);
	ub_expr_free(op->pre_expr);
	ub_expr_free(op->math);
	ub_expr_free(op->kernel_expr);
	for (int i = 0; i < op->nsteps; i++) {
		free(op->torch[i].name);
		ub_expr_free(op->torch[i].e);
	}
	free(op->torch);
	free(op->kernel);
	free(op->entry);
	free(op->launch);
	for (int i = 0; i < op->nargs; i++)
		free(op->args[i]);
	free(op->args);
	free(op->file);
}

void ub_catalog_free(struct ub_catalog *cat)
{
	for (int i = 0; i < cat->nops; i++)
		ub_op_free(&cat->ops[i]);
	for (int i = 0; i < cat->nbroken; i++) {
		free(cat->broken[i].name);
		free(cat->broken[i].alias);
		free(cat->broken[i].file);
		free(cat->broken[i].msg);
	}
	free(cat->ops);
	free(cat->broken);
	ub_cat_rowops_free(cat);
	memset(cat, 0, sizeof *cat);
}

/* Whether name is alias (FILE#K), or its file's base name then #K. */
static int alias_is(const char *alias, const char *name)
{
	const char *slash = strrchr(alias, '/');
	return !strcmp(alias, name) || (slash && !strcmp(slash + 1, name));
}

const struct ub_op *ub_catalog_find(const struct ub_catalog *cat,
				    const char *name)
{
	for (int pass = 0; pass < 3; pass++) /* names first, then the others */
		for (int i = 0; i < cat->nops; i++) {
			const struct ub_op *op = &cat->ops[i];
			if (pass == 0 ? !strcmp(op->name, name)
			    : pass == 1 ? op->ident && !strcmp(op->ident, name)
			    : alias_is(op->alias, name))
				return op;
		}
	return NULL;
}

/* A catalog's text with where each of its lines starts (line l at
 * at[l - 1]), so that a form's place is found without counting lines
 * again from the start for each one. */
struct cat_text {
	const char *s;
	size_t len;
	size_t *at;
	int nlines;
};

static int cat_text_init(struct cat_text *t, const char *text)
{
	size_t n = 1, len = 0;
	for (; text[len]; len++)
		n += text[len] == '\n';
	t->s = text;
	t->len = len;
	t->nlines = 0;
	if (n > INT_MAX || !(t->at = malloc(n * sizeof *t->at)))
		return -1;
	t->at[t->nlines++] = 0;
	for (size_t i = 0; text[i]; i++)
		if (text[i] == '\n')
			t->at[t->nlines++] = i + 1;
	return 0;
}

/* The byte offset of line:col in t's text (1-based); a line past the
 * last is the end of the text. */
static size_t offset_of(const struct cat_text *t, int line, int col)
{
	size_t i = line <= t->nlines ? t->at[line - 1] : t->len;
	return i + (size_t)(col - 1);
}

/* The text of the forms of top marked in use (in file order), each where
 * it was: every other line and column blank, so that messages about it
 * keep their FILE:LINE:COL.  NULL when out of memory. */
static char *forms_text(const struct cat_text *t, const struct ub_sx *top,
			const unsigned char *use)
{
	size_t len = 1, at = 0;
	int line = 1, col = 1;
	for (int k = 0; k < top->n; k++)
		if (use[k])
			len += offset_of(t, top->kids[k].eline, top->kids[k].ecol) + 2;
	char *s = malloc(len);
	if (!s)
		return NULL;
	for (int k = 0; k < top->n; k++) {
		const struct ub_sx *f = &top->kids[k];
		if (!use[k])
			continue;
		for (; line < f->line; line++, col = 1)
			s[at++] = '\n';
		for (; col < f->col; col++)
			s[at++] = ' ';
		size_t a = offset_of(t, f->line, f->col), b = offset_of(t, f->eline, f->ecol);
		memcpy(s + at, t->s + a, b - a + 1);
		at += b - a + 1;
		line = f->eline;
		col = f->ecol + 1;
	}
	s[at] = '\0';
	return s;
}

/* The op's form as text (form k of top), its lines where they were (for
 * messages), kept for ub_op_reparse; with the cores it calls (used). */
static int keep_form(const struct ub_cat_ctx *c, const struct cat_text *t,
		     const struct ub_sx *top, int k, unsigned char *used,
		     struct ub_op *op)
{
	unsigned char self = 1;
	int calls = 0;
	for (int j = 0; j < top->n; j++)
		calls |= used[j];
	if (!(op->form = forms_text(t, &(struct ub_sx){.n = 1, .kids = &top->kids[k]}, &self)))
		return ub_cat_oom(c);
	if (calls && !(op->calls = forms_text(t, top, used)))
		return ub_cat_oom(c);
	return 0;
}

int ub_op_reparse(const struct ub_op *op, const struct ub_parse_env *env,
		  struct ub_op *out, struct ub_error *err)
{
	struct ub_cat_ctx c = {op->file, err, env, UB_PREC_INHERIT, UB_RND_NE, NULL, NULL};
	struct ub_sx top, called = {0};
	struct ub_cat_inline inl = {0, NULL, NULL};
	memset(out, 0, sizeof *out);
	int st = op->calls ? ub_sx_read(op->calls, op->file, &called, err) : 0;
	if (!st && op->calls && !(inl.used = calloc((size_t)called.n + 1, 1)))
		st = ub_cat_oom(&c);
	if (op->calls) { /* the cores it calls, read again as they were */
		c.forms = &called;
		c.inl = &inl;
	}
	if (!st)
		st = ub_sx_read(op->form, op->file, &top, err);
	else
		memset(&top, 0, sizeof top);
	if (!st && top.n != 1)
		st = ub_fail(err, UB_RUNTIME, "%s: op %s: form lost", op->file, op->name);
	out->line = op->line;
	if (!st && (!(out->file = strdup(op->file)) || !(out->alias = strdup(op->alias))))
		st = ub_cat_oom(&c);
	if (!st)
		st = parse_op(&c, &top.kids[0], out);
	if (!st && out->anonymous && (!(out->name = strdup(op->name)) ||
				      (op->ident && !(out->ident = strdup(op->ident)))))
		st = ub_cat_oom(&c);
	if (!st && !(out->form = strdup(op->form)))
		st = ub_cat_oom(&c);
	if (!st && op->calls && !(out->calls = strdup(op->calls)))
		st = ub_cat_oom(&c);
	ub_sx_free(&top);
	ub_sx_free(&called);
	free(inl.used);
	if (st)
		ub_op_free(out);
	return st;
}

const struct ub_broken *ub_catalog_find_broken(const struct ub_catalog *cat,
					       const char *name)
{
	for (int i = 0; i < cat->nbroken; i++) {
		const struct ub_broken *b = &cat->broken[i];
		if (!strcmp(b->name, name) || alias_is(b->alias, name))
			return b;
	}
	return NULL;
}

/* "Rump's example" -> rumps_example: letters and digits in lower case,
 * quotes dropped, every other run of characters one '_'; NULL if empty. */
static char *identifier(const char *s)
{
	char *id = malloc(strlen(s) + 2), *o = id;
	if (!id)
		return NULL;
	for (; *s; s++) {
		if (isalnum((unsigned char)*s))
			*o++ = (char)tolower((unsigned char)*s);
		else if (*s != '\'' && *s != '"' && o > id && o[-1] != '_')
			*o++ = '_';
	}
	while (o > id && o[-1] == '_')
		o--;
	*o = '\0';
	if (id[0] && isdigit((unsigned char)id[0])) { /* an identifier: no digit first */
		memmove(id + 1, id, strlen(id) + 1);
		id[0] = '_';
	}
	if (!id[0]) {
		free(id);
		return NULL;
	}
	return id;
}

/* Whether some op of cat but op answers to name. */
static int taken(const struct ub_catalog *cat, const struct ub_op *op,
		 const char *name)
{
	for (int i = 0; i < cat->nops; i++) {
		const struct ub_op *o = &cat->ops[i];
		if (o != op && ((o->name && !strcmp(o->name, name)) ||
				(o->ident && !strcmp(o->ident, name))))
			return 1;
	}
	return 0;
}

/* An anonymous core's names: its :name when free, else FILE#K; the
 * identifier derived from :name when free. */
static int name_anonymous(const struct ub_cat_ctx *c, struct ub_catalog *cat,
			  struct ub_op *op)
{
	const char *want = op->desc && !taken(cat, op, op->desc) ? op->desc : op->alias;
	if (!(op->name = strdup(want)))
		return ub_cat_oom(c);
	op->ident = op->desc ? identifier(op->desc) : NULL;
	if (op->ident && (taken(cat, op, op->ident) || !strcmp(op->ident, op->name))) {
		free(op->ident);
		op->ident = NULL;
	}
	return 0;
}

/* How a core that did not read is called: NAME, its :name, or FILE#K. */
static char *label(const struct ub_sx *f, const char *alias)
{
	if (f->kind == UB_SX_LIST && f->n >= 2 && f->kids[1].kind == UB_SX_SYM)
		return strdup(f->kids[1].text);
	for (int i = 1; f->kind == UB_SX_LIST && i + 1 < f->n; i++)
		if (f->kids[i].kind == UB_SX_KEY && !strcmp(f->kids[i].text, ":name") &&
		    f->kids[i + 1].kind == UB_SX_STR)
			return strdup(f->kids[i + 1].text);
	return strdup(alias);
}

static int add_broken(const struct ub_cat_ctx *c, struct ub_catalog *cat,
		      const struct ub_sx *f, const char *alias)
{
	struct ub_broken *b = &cat->broken[cat->nbroken++];
	b->name = label(f, alias);
	b->alias = strdup(alias);
	b->file = strdup(c->file);
	b->msg = strdup(c->err->msg);
	b->line = f->line;
	return b->name && b->alias && b->file && b->msg ? 0 : ub_cat_oom(c);
}

/* A row op's form (rowop.h) into cat->rowops, or a broken entry; op is
 * the slot form() took, given back. */
static int row_form(const struct ub_cat_ctx *c, const struct ub_sx *f, int k,
		    unsigned char *used, struct ub_catalog *cat,
		    const struct cat_text *text, struct ub_op *op, const char *alias)
{
	int st = keep_form(c, text, c->forms, k - 1, used, op);
	cat->nops--;   /* the slot is not an op */
	if (!st)
		st = ub_cat_rowop(cat, op->form, c->file, c->err);
	ub_op_free(op);
	return st == UB_USAGE ? add_broken(c, cat, f, alias) : st;
}

/* Form k (from 1) of the file: an op, or a broken entry. */
static int form(const struct ub_cat_ctx *c0, const struct ub_sx *f, int k,
		struct ub_catalog *cat, const struct cat_text *text)
{
	char alias[4200];
	struct ub_cat_ctx cc = *c0, *c = &cc;
	struct ub_cat_inline inl = {0, calloc((size_t)c0->forms->n + 1, 1), NULL};
	cc.inl = &inl;
	snprintf(alias, sizeof alias, "%s#%d", c->file, k);
	struct ub_op *op = &cat->ops[cat->nops++];
	memset(op, 0, sizeof *op);
	op->line = f->line;
	int st = inl.used && (op->file = strdup(c->file)) && (op->alias = strdup(alias))
		 ? 0 : ub_cat_oom(c);
	if (!st && ub_rowop_is(f)) {
		st = row_form(c, f, k, inl.used, cat, text, op, alias);
		free(inl.used);
		return st;
	}
	if (!st && (f->kind != UB_SX_LIST || f->n == 0 || !ub_sx_is(&f->kids[0], "FPCore")))
		st = fail_at(c, f, "%s", "expected (FPCore (ARGS...) ... BODY) or "
			     "(FPCore NAME (ARGS...) ... BODY)");
	if (!st)
		st = parse_op(c, f, op);
	if (!st)
		st = keep_form(c, text, c->forms, k - 1, inl.used, op);
	free(inl.used);
	if (!st && op->anonymous)
		st = name_anonymous(c, cat, op);
	const struct ub_op *first = st || op->anonymous ? NULL : ub_catalog_find(cat, op->name);
	if (first && first != op)
		st = ub_sx_fail(c->err, c->file, f->line, f->col,
				"duplicate op '%s' (first defined on line %d)",
				op->name, first->line);
	if (st) {
		ub_op_free(op);
		cat->nops--;
	}
	if (st == UB_USAGE) /* this core only: the others still load */
		st = add_broken(c, cat, f, alias);
	return st;
}

int ub_catalog_parse(const char *text, const char *file,
		     struct ub_catalog *cat, struct ub_error *err)
{
	struct ub_cat_ctx c = {file, err, NULL, UB_PREC_INHERIT, UB_RND_NE, NULL, NULL};
	struct ub_sx top;
	struct ub_error one = {""};
	struct cat_text t = {text, 0, NULL, 0};
	memset(cat, 0, sizeof *cat);
	int st = ub_sx_read(text, file, &top, err);
	if (st)
		return st;
	cat->ops = calloc((size_t)top.n + 1, sizeof *cat->ops);
	cat->broken = calloc((size_t)top.n + 1, sizeof *cat->broken);
	cat->rowops = calloc((size_t)top.n + 1, sizeof *cat->rowops);
	c.err = &one;
	c.forms = &top;
	if (!cat->ops || !cat->broken || !cat->rowops || cat_text_init(&t, text))
		st = ub_cat_oom(&c);
	for (int i = 0; i < top.n && !st; i++)
		st = form(&c, &top.kids[i], i + 1, cat, &t);
	free(t.at);
	ub_sx_free(&top);
	if (st) {
		*err = one;
		ub_catalog_free(cat);
	}
	return st;
}

int ub_catalog_load(const char *path, struct ub_catalog *cat,
		    struct ub_error *err)
{
	char *text = NULL;
	memset(cat, 0, sizeof *cat);
	int st = ub_read_file(path, &text, err); /* a file, text, not too large */
	if (!st)
		st = ub_catalog_parse(text, path, cat, err);
	free(text);
	return st;
}

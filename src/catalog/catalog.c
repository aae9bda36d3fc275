/* catalog.c — the op catalog: FPCore forms into struct ub_op.
 *
 * A file holds any number of (FPCore NAME (ARGS...) :key value ... BODY)
 * forms.  Known properties: :name (description), :pre (per-input domain,
 * below), :torch (the plan, catalog_expr.c), :kernel, :entry and :args
 * (the kernel binding; without :kernel the kernel under test is generated
 * from the body, or from :kernel-expr when given), :dtypes (what a
 * hand-written kernel is written for, default (f32)), :torch-rounding
 * (step or every-op), :params, :saved, :saved-math and :input-docs
 * (catalog_saved.c); any other property is skipped, as FPCore allows.
 * :pre is one clause or (and clause...), each clause a comparison chain
 * such as (<= lo x hi), (< lo x), (>= hi x lo) with exactly one input and
 * numeric bounds (numbers, inf, -inf, INFINITY, (- INFINITY)); a strict
 * bound becomes the next double beyond it.  Every error is
 * "FILE:LINE:COL: message" with status UB_USAGE. */
#include "catalog_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The properties ulpbench reads, declared once. */
#define UB_PROPS(X)                                                          \
	X(P_NAME, ":name") X(P_PRE, ":pre") X(P_TORCH, ":torch")             \
	X(P_KERNEL, ":kernel") X(P_ENTRY, ":entry") X(P_ARGS, ":args")      \
	X(P_DTYPES, ":dtypes") X(P_KEXPR, ":kernel-expr")                  \
	X(P_TROUND, ":torch-rounding") X(P_PARAMS, ":params")              \
	X(P_SAVED, ":saved") X(P_SMATH, ":saved-math")                     \
	X(P_IDOCS, ":input-docs")

enum prop {
#define X(id, key) id,
	UB_PROPS(X)
#undef X
	NPROPS
};
static const char *const prop_keys[NPROPS] = {
#define X(id, key) [id] = key,
	UB_PROPS(X)
#undef X
};

static int fail_at(const struct ub_cat_ctx *c, const struct ub_sx *x,
		   const char *msg, const char *arg)
{
	return ub_sx_fail(c->err, c->file, x->line, x->col, msg, arg);
}

static int dup_string(const struct ub_cat_ctx *c, const struct ub_sx *x,
		      const char *key, char **out)
{
	if (x->kind != UB_SX_STR)
		return fail_at(c, x, "%s: expected a string", key);
	*out = strdup(x->text);
	return *out ? 0 : ub_cat_oom(c);
}

static int input_index(const struct ub_op *op, const char *name)
{
	for (int i = 0; i < op->ninputs; i++)
		if (strcmp(op->inputs[i], name) == 0)
			return i;
	return -1;
}

/* The infinities :pre accepts as a symbol: +1, -1, or 0 if none. */
static int infinity(const char *s)
{
	int sign = *s == '-' ? -1 : 1;
	s += *s == '-' || *s == '+';
	return strcmp(s, "inf") == 0 || strcmp(s, "INFINITY") == 0 ? sign : 0;
}

/* A numeric bound of :pre: a number, an infinity, or (- bound). */
static int bound(const struct ub_cat_ctx *c, const struct ub_sx *x, double *v)
{
	if (x->kind == UB_SX_NUM) {
		const char *slash = strchr(x->text, '/');
		*v = strtod(x->text, NULL);
		if (slash)
			*v /= strtod(slash + 1, NULL);
		return 0;
	}
	if (x->kind == UB_SX_SYM && infinity(x->text)) {
		*v = infinity(x->text) * INFINITY;
		return 0;
	}
	if (x->kind == UB_SX_LIST && x->n == 2 && ub_sx_is(&x->kids[0], "-")) {
		int st = bound(c, &x->kids[1], v);
		*v = -*v;
		return st;
	}
	if (x->kind == UB_SX_SYM)
		return fail_at(c, x, ":pre: unknown variable '%s'", x->text);
	char what[200];
	return fail_at(c, x, ":pre: expected a numeric bound, found %s",
		       ub_cat_what(x, what, sizeof what));
}

static int not_intervals(const struct ub_cat_ctx *c, const struct ub_sx *x)
{
	char what[200];
	if (x->kind == UB_SX_LIST && x->n && x->kids[0].kind == UB_SX_SYM)
		snprintf(what, sizeof what, "(%s ...)", x->kids[0].text);
	else
		ub_cat_what(x, what, sizeof what);
	return fail_at(c, x, ":pre: cannot turn %s into intervals: use "
		       "(and (<= lo VAR hi) ...) with numeric bounds", what);
}

/* One comparison chain: terms in ascending order, exactly one of them an
 * input; every other term bounds it from its side. */
static int clause(const struct ub_cat_ctx *c, const struct ub_sx *x,
		  struct ub_op *op)
{
	int list = x->kind == UB_SX_LIST && x->n >= 3 && x->n <= 4 &&
		   x->kids[0].kind == UB_SX_SYM;
	const char *rel = list ? x->kids[0].text : "";
	int asc = !strcmp(rel, "<") || !strcmp(rel, "<=");
	if (!asc && strcmp(rel, ">") && strcmp(rel, ">="))
		return not_intervals(c, x);
	int m = x->n - 1, strict = rel[1] == '\0', var = -1, vpos = -1;
	const struct ub_sx *t[3];
	for (int k = 0; k < m; k++) {
		t[k] = &x->kids[asc ? 1 + k : m - k];
		int i = t[k]->kind == UB_SX_SYM ? input_index(op, t[k]->text) : -1;
		if (i >= 0 && var >= 0)
			return not_intervals(c, x);
		if (i >= 0) {
			var = i;
			vpos = k;
		}
	}
	double b[3];
	for (int k = 0; k < m; k++)
		if (k != vpos) {
			int st = bound(c, t[k], &b[k]);
			if (st)
				return st;
		}
	if (var < 0)
		return not_intervals(c, x);
	struct ub_domain *d = &op->dom[var];
	for (int k = 0; k < m; k++)
		if (k < vpos)
			d->lo = fmax(d->lo, strict ? nextafter(b[k], INFINITY) : b[k]);
		else if (k > vpos)
			d->hi = fmin(d->hi, strict ? nextafter(b[k], -INFINITY) : b[k]);
	return 0;
}

/* TRUE, a clause, or (and ...) of those. */
static int constraint(const struct ub_cat_ctx *c, const struct ub_sx *x,
		      struct ub_op *op)
{
	int st = 0;
	if (ub_sx_is(x, "TRUE"))
		return 0;
	if (x->kind != UB_SX_LIST || !x->n || !ub_sx_is(&x->kids[0], "and"))
		return clause(c, x, op);
	for (int i = 1; i < x->n && !st; i++)
		st = constraint(c, &x->kids[i], op);
	return st;
}

static int pre(const struct ub_cat_ctx *c, const struct ub_sx *x,
	       struct ub_op *op)
{
	int st = constraint(c, x, op);
	for (int i = 0; i < op->ninputs && !st; i++)
		if (!(op->dom[i].lo <= op->dom[i].hi))
			st = fail_at(c, x, ":pre: empty domain for '%s'", op->inputs[i]);
	return st;
}

/* :args (x g out n): input names, out and n, each at most once. */
static int args(const struct ub_cat_ctx *c, const struct ub_sx *x,
		struct ub_op *op)
{
	if (x->kind != UB_SX_LIST)
		return fail_at(c, x, "%s: expected a list such as (x out n)", ":args");
	if (!(op->args = calloc((size_t)x->n + 1, sizeof *op->args)))
		return ub_cat_oom(c);
	for (int i = 0; i < x->n; i++) {
		const struct ub_sx *a = &x->kids[i];
		int in = a->kind == UB_SX_SYM ? input_index(op, a->text) : -1;
		int special = ub_sx_is(a, "out") || ub_sx_is(a, "n");
		for (int k = 0; in < 0 && a->kind == UB_SX_SYM && k < op->nsaved; k++)
			if (!strcmp(op->saved[k].name, a->text))
				in = UB_MAX_INPUTS + k, op->use_saved = 1;
		if (in >= 0 && special)
			return fail_at(c, a, ":args: '%s' is both an input and a "
				       "kernel parameter name", a->text);
		if (in < 0 && !special)
			return fail_at(c, a, ":args: '%s' is not an input name (or a "
				       ":saved one), 'out' or 'n'",
				       a->kind == UB_SX_LIST ? "(...)" : a->text);
		for (int j = 0; j < i; j++)
			if (strcmp(op->args[j], a->text) == 0)
				return fail_at(c, a, ":args: '%s' appears twice", a->text);
		if (!(op->args[op->nargs++] = strdup(a->text)))
			return ub_cat_oom(c);
	}
	return 0;
}

/* :dtypes (f32 bf16): the dtypes the kernel under test is written for. */
static int dtypes(const struct ub_cat_ctx *c, const struct ub_sx *x,
		  struct ub_op *op)
{
	char valid[64];
	if (x->kind != UB_SX_LIST || x->n == 0)
		return fail_at(c, x, "%s: expected a list such as (f32 f16)", ":dtypes");
	op->kernel_dtypes = 0;
	for (int i = 0; i < x->n; i++) {
		const struct ub_sx *a = &x->kids[i];
		int dt = a->kind == UB_SX_SYM ? ub_dtype_find(a->text) : -1;
		if (dt < 0) {
			ub_dtype_names(valid, sizeof valid);
			return ub_sx_fail(c->err, c->file, a->line, a->col,
					  ":dtypes: unknown dtype '%s' (valid: %s)",
					  a->kind == UB_SX_SYM ? a->text : "(...)", valid);
		}
		op->kernel_dtypes |= 1u << dt;
	}
	return 0;
}

/* :torch-rounding ([NAME every-op] ...): how steps of the plan round
 * (step, the default: once; every-op: after every operator). */
static int torch_rounding(const struct ub_cat_ctx *c, const struct ub_sx *x,
			  struct ub_op *op)
{
	if (x->kind != UB_SX_LIST)
		return fail_at(c, x, "%s", ":torch-rounding: expected a list such "
			       "as ([out every-op])");
	for (int i = 0; i < x->n; i++) {
		const struct ub_sx *b = &x->kids[i];
		int k = -1;
		if (b->kind != UB_SX_LIST || b->n != 2 || b->kids[0].kind != UB_SX_SYM ||
		    !(ub_sx_is(&b->kids[1], "every-op") || ub_sx_is(&b->kids[1], "step")))
			return fail_at(c, b, "%s", ":torch-rounding: expected [STEP "
				       "every-op] or [STEP step]");
		for (int j = 0; j < op->nsteps && k < 0; j++)
			if (!strcmp(op->torch[j].name, b->kids[0].text))
				k = j;
		int gone = 0;   /* a step a saved input stands for */
		for (int j = 0; c->env && c->env->saved && j < op->nsaved; j++)
			gone |= !strcmp(op->saved[j].name, b->kids[0].text);
		if (k < 0 && gone)
			continue;
		if (k < 0)
			return fail_at(c, b, ":torch-rounding: '%s' is not a step of "
				       "the :torch plan", b->kids[0].text);
		op->torch[k].every_op = ub_sx_is(&b->kids[1], "every-op");
	}
	return 0;
}

/* (x g ...): at most UB_MAX_INPUTS distinct symbols, in scope order. */
static int inputs(const struct ub_cat_ctx *c, const struct ub_sx *x,
		  struct ub_op *op, struct ub_scope *sc)
{
	for (int i = 0; i < x->n; i++) {
		const struct ub_sx *a = &x->kids[i];
		if (a->kind != UB_SX_SYM)
			return fail_at(c, a, "%s", "an argument must be a symbol");
		if (i == UB_MAX_INPUTS)
			return ub_sx_fail(c->err, c->file, a->line, a->col,
					  "more than %d arguments", UB_MAX_INPUTS);
		if (input_index(op, a->text) >= 0)
			return fail_at(c, a, "argument '%s' appears twice", a->text);
		if (!(op->inputs[i] = strdup(a->text)))
			return ub_cat_oom(c);
		op->dom[i] = (struct ub_domain){-INFINITY, INFINITY};
		op->ninputs++;
		op->nsampled++;
		sc[i] = (struct ub_scope){op->inputs[i], i, NULL, i ? &sc[i - 1] : NULL};
	}
	return 0;
}

/* Splits :key value pairs off the front of f->kids[*i..]; leaves *i at the
 * body. */
static int props(const struct ub_cat_ctx *c, const struct ub_sx *f, int *i,
		 const struct ub_sx *p[NPROPS])
{
	for (; *i < f->n && f->kids[*i].kind == UB_SX_KEY; *i += 2) {
		const struct ub_sx *k = &f->kids[*i];
		if (*i + 1 >= f->n)
			return fail_at(c, k, "property %s has no value", k->text);
		for (int j = 0; j < NPROPS; j++) {
			if (strcmp(k->text, prop_keys[j]) != 0)
				continue;
			if (p[j])
				return fail_at(c, k, "property %s given twice", k->text);
			p[j] = &f->kids[*i + 1];
		}
	}
	if (*i >= f->n)
		return ub_sx_fail(c->err, c->file, f->eline, f->ecol,
				  "missing body: the FPCore form ends here");
	if (*i + 1 < f->n)
		return fail_at(c, &f->kids[*i + 1], "%s",
			       "unexpected element after the body");
	return 0;
}

/* The properties this module interprets, in dependency order. */
static int apply(const struct ub_cat_ctx *c, const struct ub_sx *p[NPROPS],
		 const struct ub_scope *sc, struct ub_op *op)
{
	int st = 0;
	if (p[P_NAME])
		st = dup_string(c, p[P_NAME], ":name", &op->desc);
	if (!st && p[P_PRE])
		st = pre(c, p[P_PRE], op);
	if (!st && p[P_TORCH])
		st = ub_cat_plan(c, p[P_TORCH], sc, op);
	if (!st && p[P_KERNEL])
		st = dup_string(c, p[P_KERNEL], ":kernel", &op->kernel);
	if (!st && p[P_ENTRY])
		st = dup_string(c, p[P_ENTRY], ":entry", &op->entry);
	if (!st && p[P_ARGS])
		st = args(c, p[P_ARGS], op);
	if (!st && p[P_TROUND])
		st = torch_rounding(c, p[P_TROUND], op);
	if (!st && p[P_KEXPR] && p[P_KERNEL])
		st = fail_at(c, p[P_KEXPR], "%s", ":kernel-expr is for generated "
			     "kernels: not with :kernel");
	if (!st && p[P_KEXPR])
		st = ub_cat_real(c, p[P_KEXPR], sc, ":kernel-expr", &op->kernel_expr);
	/* a hand-written kernel is f32 unless it says otherwise; one generated
	 * from the math serves every dtype */
	op->kernel_dtypes = op->kernel ? 1u << UB_F32 : (1u << UB_NDTYPES) - 1;
	if (!st && p[P_DTYPES])
		st = dtypes(c, p[P_DTYPES], op);
	return st;
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
		op->dom[k] = (struct ub_domain){-INFINITY, INFINITY};
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

static int parse_op(const struct ub_cat_ctx *c, const struct ub_sx *f,
		    struct ub_op *op)
{
	struct ub_scope sc[UB_CAT_MAX_SCOPE];
	const struct ub_sx *p[NPROPS] = {0};
	int i = 3, st;
	op->line = f->line;
	if (!(op->file = strdup(c->file)))
		return ub_cat_oom(c);
	if (f->n < 2 || f->kids[1].kind != UB_SX_SYM)
		return fail_at(c, f->n < 2 ? f : &f->kids[1], "%s",
			       "an op needs a name: (FPCore NAME (ARGS...) ... BODY)");
	if (!(op->name = strdup(f->kids[1].text)))
		return ub_cat_oom(c);
	if (f->n < 3 || f->kids[2].kind != UB_SX_LIST)
		return fail_at(c, f->n < 3 ? &f->kids[1] : &f->kids[2], "%s",
			       "expected the argument list (x y ...) after the name");
	memset(sc, 0, sizeof sc);
	if ((st = inputs(c, &f->kids[2], op, sc)) != 0)
		return st;
	if ((st = props(c, f, &i, p)) != 0)
		return st;
	const struct ub_scope *top = op->ninputs ? &sc[op->ninputs - 1] : NULL;
	st = ub_cat_props_early(c, p[P_PARAMS], p[P_SAVED], op, sc, &top);
	if (!st)
		st = saved_inputs(c, op, sc, &top);
	if (!st)
		st = ub_cat_real(c, &f->kids[i], top, "the body", &op->math);
	if (!st)
		st = apply(c, p, top, op);
	if (!st)
		st = ub_cat_props_late(c, p[P_SMATH], p[P_IDOCS], op, sc, top);
	if (!st && c->env && c->env->saved && op->saved_math) {
		struct ub_expr *m = op->math;   /* the reference for the run */
		op->math = ub_expr_ref(op->saved_math);
		ub_expr_free(m);
	}
	free_scope_vals(sc, UB_CAT_MAX_SCOPE);
	return st;
}

void ub_op_free(struct ub_op *op)
{
	free(op->name);
	free(op->desc);
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
	ub_expr_free(op->math);
	ub_expr_free(op->kernel_expr);
	for (int i = 0; i < op->nsteps; i++) {
		free(op->torch[i].name);
		ub_expr_free(op->torch[i].e);
	}
	free(op->torch);
	free(op->kernel);
	free(op->entry);
	for (int i = 0; i < op->nargs; i++)
		free(op->args[i]);
	free(op->args);
	free(op->file);
}

void ub_catalog_free(struct ub_catalog *cat)
{
	for (int i = 0; i < cat->nops; i++)
		ub_op_free(&cat->ops[i]);
	free(cat->ops);
	cat->ops = NULL;
	cat->nops = 0;
}

const struct ub_op *ub_catalog_find(const struct ub_catalog *cat,
				    const char *name)
{
	for (int i = 0; i < cat->nops; i++)
		if (strcmp(cat->ops[i].name, name) == 0)
			return &cat->ops[i];
	return NULL;
}

/* The byte offset of line:col in text (1-based). */
static size_t offset_of(const char *text, int line, int col)
{
	size_t i = 0;
	for (int l = 1; l < line && text[i]; i++)
		l += text[i] == '\n';
	return i + (size_t)(col - 1);
}

/* The op's form as text, its lines where they were (for messages), kept
 * for ub_op_reparse. */
static int keep_form(const struct ub_cat_ctx *c, const char *text,
		     const struct ub_sx *f, struct ub_op *op)
{
	size_t a = offset_of(text, f->line, f->col), b = offset_of(text, f->eline, f->ecol);
	size_t pad = (size_t)(f->line - 1) + (size_t)(f->col - 1);
	if (!(op->form = malloc(pad + (b - a) + 2)))
		return ub_cat_oom(c);
	memset(op->form, '\n', (size_t)(f->line - 1));
	memset(op->form + f->line - 1, ' ', (size_t)(f->col - 1));
	memcpy(op->form + pad, text + a, b - a + 1);
	op->form[pad + b - a + 1] = '\0';
	return 0;
}

int ub_op_reparse(const struct ub_op *op, const struct ub_parse_env *env,
		  struct ub_op *out, struct ub_error *err)
{
	struct ub_cat_ctx c = {op->file, err, env};
	struct ub_sx top;
	memset(out, 0, sizeof *out);
	int st = ub_sx_read(op->form, op->file, &top, err);
	if (!st && top.n != 1)
		st = ub_fail(err, UB_RUNTIME, "%s: op %s: form lost", op->file, op->name);
	if (!st)
		st = parse_op(&c, &top.kids[0], out);
	if (!st && !(out->form = strdup(op->form)))
		st = ub_cat_oom(&c);
	ub_sx_free(&top);
	if (st)
		ub_op_free(out);
	return st;
}

static int form(const struct ub_cat_ctx *c, const struct ub_sx *f,
		struct ub_catalog *cat, const char *text)
{
	if (f->kind != UB_SX_LIST || f->n == 0 || !ub_sx_is(&f->kids[0], "FPCore"))
		return fail_at(c, f, "%s", "expected (FPCore NAME (ARGS...) ... BODY)");
	struct ub_op *op = &cat->ops[cat->nops++];
	memset(op, 0, sizeof *op);
	int st = parse_op(c, f, op);
	if (!st)
		st = keep_form(c, text, f, op);
	const struct ub_op *first = st ? NULL : ub_catalog_find(cat, op->name);
	if (first && first != op)
		st = ub_sx_fail(c->err, c->file, f->line, f->col,
				"duplicate op '%s' (first defined on line %d)",
				op->name, first->line);
	return st;
}

int ub_catalog_parse(const char *text, const char *file,
		     struct ub_catalog *cat, struct ub_error *err)
{
	struct ub_cat_ctx c = {file, err, NULL};
	struct ub_sx top;
	memset(cat, 0, sizeof *cat);
	int st = ub_sx_read(text, file, &top, err);
	if (st)
		return st;
	cat->ops = calloc((size_t)top.n + 1, sizeof *cat->ops);
	if (!cat->ops)
		st = ub_cat_oom(&c);
	for (int i = 0; i < top.n && !st; i++)
		st = form(&c, &top.kids[i], cat, text);
	ub_sx_free(&top);
	if (st)
		ub_catalog_free(cat);
	return st;
}

int ub_catalog_load(const char *path, struct ub_catalog *cat,
		    struct ub_error *err)
{
	memset(cat, 0, sizeof *cat);
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	size_t len = 0;
	if (f) {
		FILE *m = open_memstream(&text, &len);
		char buf[4096];
		size_t k;
		while (m && (k = fread(buf, 1, sizeof buf, f)) > 0)
			fwrite(buf, 1, k, m);
		int bad = ferror(f) || !m;
		if (m)
			fclose(m);
		fclose(f);
		if (bad) {
			free(text);
			text = NULL;
		}
	}
	if (!text)
		return ub_fail(err, UB_USAGE, "%s: cannot read: %s", path,
			       strerror(errno));
	int st = ub_catalog_parse(text, path, cat, err);
	free(text);
	return st;
}

/* catalog_props.c — the properties of one FPCore form (catalog.c reads
 * the form, then hands its :key value pairs here):
 *   FPCore 2.0's :name (the description; an anonymous core's name),
 *   :description, :cite, :alt (any number), :example (kept as written and
 *   shown), :precision (the default dtype), :pre (catalog_pre.c), :spec
 *   (the reference's expression; the body is then the computation under
 *   test);
 *   ulpbench's own :torch (the plan, catalog_expr.c), :torch-rounding,
 *   :kernel, :entry, :args, :dtypes, :launch, :kernel-expr;
 * any other property is read past, as FPCore allows.  Errors are
 * "FILE:LINE:COL: message" (UB_USAGE). */
#include "catalog_internal.h"
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* x as written, for showing (a list, a symbol, a number). */
static int dup_text(const struct ub_cat_ctx *c, const struct ub_sx *x,
		    char **out)
{
	char buf[2048];
	*out = strdup(ub_sx_print(x, buf, sizeof buf));
	return *out ? 0 : ub_cat_oom(c);
}

int ub_cat_input(const struct ub_op *op, const char *name)
{
	for (int i = 0; i < op->ninputs; i++)
		if (strcmp(op->inputs[i], name) == 0)
			return i;
	return -1;
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
		int in = a->kind == UB_SX_SYM ? ub_cat_input(op, a->text) : -1;
		int special = ub_sx_is(a, "out") || ub_sx_is(a, "n");
		if (in >= 0 && special)
			return fail_at(c, a, ":args: '%s' is both an input and a "
				       "kernel parameter name", a->text);
		if (in < 0 && !special)
			return fail_at(c, a, ":args: '%s' is not an input name, "
				       "'out' or 'n'", a->kind == UB_SX_LIST ? "(...)" : a->text);
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
		if (k < 0)
			return fail_at(c, b, ":torch-rounding: '%s' is not a step of "
				       "the :torch plan", b->kids[0].text);
		op->torch[k].every_op = ub_sx_is(&b->kids[1], "every-op");
	}
	return 0;
}

int ub_cat_props(const struct ub_cat_ctx *c, const struct ub_sx *f, int *i,
		 const struct ub_sx *p[UB_NPROPS], int *nalt)
{
	static const char *const keys[UB_NPROPS] = {
#define X(id, key) [id] = key,
		UB_PROPS(X)
#undef X
	};
	for (; *i < f->n && f->kids[*i].kind == UB_SX_KEY; *i += 2) {
		const struct ub_sx *k = &f->kids[*i];
		if (*i + 1 >= f->n)
			return fail_at(c, k, "property %s has no value", k->text);
		for (int j = 0; j < UB_NPROPS; j++) {
			if (strcmp(k->text, keys[j]) != 0)
				continue;
			if (j == P_ALT) { /* any number of them */
				++*nalt;
				break;
			}
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

/* The metadata shown and kept as written: :description, :cite, :example,
 * every :alt (read from the form again, they may repeat). */
static int metadata(const struct ub_cat_ctx *c, const struct ub_sx *f,
		    const struct ub_sx *p[UB_NPROPS], int nalt, struct ub_op *op)
{
	int st = 0;
	if (p[P_DESCRIPTION])
		st = dup_string(c, p[P_DESCRIPTION], ":description", &op->description);
	if (!st && p[P_CITE])
		st = dup_text(c, p[P_CITE], &op->cite);
	if (!st && p[P_EXAMPLE])
		st = dup_text(c, p[P_EXAMPLE], &op->example);
	if (!st && nalt && !(op->alt = calloc((size_t)nalt, sizeof *op->alt)))
		st = ub_cat_oom(c);
	for (int i = 1; !st && i + 1 < f->n; i++)
		if (f->kids[i].kind == UB_SX_KEY && !strcmp(f->kids[i].text, ":alt"))
			st = dup_text(c, &f->kids[i + 1], &op->alt[op->nalt++]);
	return st;
}

/* :launch "per-thread=4": how the :kernel file is launched (--launch's
 * spelling, checked here so that a bad one is named where it is
 * written); a generated kernel is one thread per element. */
static int launch(const struct ub_cat_ctx *c, const struct ub_sx *x,
		  struct ub_op *op)
{
	struct ub_geom g = {0};
	struct ub_error e;
	if (x->kind != UB_SX_STR)
		return fail_at(c, x, "%s: expected a string such as \"per-thread=4\"",
			       ":launch");
	if (!op->kernel)
		return fail_at(c, x, "%s", ":launch is for a :kernel file: a kernel "
			       "generated from the math is one thread per element");
	if (ub_geom_parse(":launch", x->text, &g, &e))
		return fail_at(c, x, "%s", e.msg);
	return dup_string(c, x, ":launch", &op->launch);
}

/* The kernel binding and what it is written for. */
static int kernel_props(const struct ub_cat_ctx *c, const struct ub_sx *p[UB_NPROPS],
			const struct ub_scope *sc, struct ub_op *op)
{
	int st = 0;
	if (p[P_KERNEL])
		st = dup_string(c, p[P_KERNEL], ":kernel", &op->kernel);
	if (!st && p[P_ENTRY])
		st = dup_string(c, p[P_ENTRY], ":entry", &op->entry);
	if (!st && p[P_ARGS])
		st = args(c, p[P_ARGS], op);
	if (!st && p[P_KEXPR] && p[P_KERNEL])
		st = fail_at(c, p[P_KEXPR], "%s", ":kernel-expr is for generated "
			     "kernels: not with :kernel");
	if (!st && p[P_KEXPR] && p[P_SPEC])
		st = fail_at(c, p[P_KEXPR], "%s", ":kernel-expr and :spec both "
			     "say what the body is for: give one");
	if (!st && p[P_KEXPR])
		st = ub_cat_real(c, p[P_KEXPR], sc, ":kernel-expr", &op->kernel_expr);
	/* a hand-written kernel is f32 unless it says otherwise; one generated
	 * from the math serves every dtype */
	op->kernel_dtypes = op->kernel ? 1u << UB_F32 : (1u << UB_NDTYPES) - 1;
	if (!st && p[P_DTYPES])
		st = dtypes(c, p[P_DTYPES], op);
	if (!st && p[P_LAUNCH])
		st = launch(c, p[P_LAUNCH], op);
	return st;
}

int ub_cat_apply(const struct ub_cat_ctx *c, const struct ub_sx *f,
		 const struct ub_sx *p[UB_NPROPS], int nalt,
		 const struct ub_scope *sc, struct ub_op *op)
{
	struct ub_cat_ctx real = *c; /* :pre and :spec: real numbers (FPCore) */
	int st = 0;
	real.prec = UB_PREC_REAL;
	real.rnd = UB_RND_NE;
	op->precision = -1;
	if (p[P_NAME] && !op->desc)
		st = dup_string(c, p[P_NAME], ":name", &op->desc);
	if (!st)
		st = metadata(c, f, p, nalt, op);
	if (!st && p[P_PRECISION])
		st = ub_cat_precision(c, p[P_PRECISION], ":precision", &op->precision);
	if (op->precision == UB_PREC_REAL)
		op->precision = -1;
	if (!st && p[P_PRE])
		st = ub_cat_pre(&real, p[P_PRE], sc, op);
	if (!st && p[P_SPEC]) { /* the body becomes what the kernel computes */
		op->kernel_expr = op->math;
		op->has_spec = 1;
		st = ub_cat_real(&real, p[P_SPEC], sc, ":spec", &op->math);
	}
	if (!st && p[P_TORCH])
		st = ub_cat_plan(c, p[P_TORCH], sc, op);
	if (!st)
		st = kernel_props(c, p, sc, op);
	if (!st && p[P_TROUND])
		st = torch_rounding(c, p[P_TROUND], op);
	return st;
}

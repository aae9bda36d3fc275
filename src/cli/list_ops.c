/* list_ops.c — `ulpbench --list-ops`: one line per op (its name, the
 * other names it answers to, inputs, exact math, kernel formula, torch
 * plan), a line of FPCore properties under it when it has any (:pre,
 * :precision, :description, :cite, :alt, :example), then one indented
 * line per input saying what it is, so that a kernel's parameter is bound
 * to the input it means; then one line per core that did not load, with
 * its FILE:LINE:COL message.  With --op NAME, that op in full: inputs with
 * their domains, saved inputs, :params, the math, the kernel and its
 * dtypes, the torch plan step by step. */
#include "commands.h"
#include "catalog.h"
#include "setup.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_NAMES (UB_MAX_INPUTS * 2 + 64)

/* The names expressions of op print with: its sampled inputs (saved
 * inputs and torch steps follow where an expression can name them). */
static int names_of(const struct ub_op *op, const char **names)
{
	int nn = 0;
	for (int k = 0; k < op->nsampled; k++)
		names[nn++] = op->inputs[k];
	return nn;
}

static void print_name(FILE *f, const char *name, const char *ident,
		       const char *alias, int anonymous)
{
	int quote = strchr(name, ' ') || strchr(name, '"');
	fprintf(f, quote ? "\"%s\"" : "%-12s", name);
	if (anonymous && ident)
		fprintf(f, " [%s, %s]", ident, alias);
	else if (anonymous && strcmp(name, alias))
		fprintf(f, " [%s]", alias);
}

/* text, each line after its first indented under the op's properties
 * (a :description, or :alt and :cite as written, may run over several
 * lines). */
static void indented(FILE *f, const char *text)
{
	for (const char *p = text; *p; p++) {
		fputc(*p, f);
		if (*p == '\n')
			fputs("      ", f);
	}
}

static void metadata(FILE *f, const struct ub_op *op, const char *const *names)
{
	static char text[8192];
	if (!op->pre_expr && op->precision < 0 && !op->description && !op->cite &&
	    !op->nalt && !op->example)
		return;
	fprintf(f, "   ");
	if (op->pre_expr) {
		ub_expr_print(op->pre_expr, names, text, sizeof text);
		fprintf(f, " pre: %s", text);
	}
	if (op->precision >= 0)
		fprintf(f, " precision: %s", ub_prec_name(op->precision));
	if (op->description) {
		fprintf(f, " description: \"");
		indented(f, op->description);
		fprintf(f, "\"");
	}
	if (op->cite)
		fprintf(f, " cite: "), indented(f, op->cite);
	for (int i = 0; i < op->nalt; i++)
		fprintf(f, " alt: "), indented(f, op->alt[i]);
	if (op->example)
		fprintf(f, " example: "), indented(f, op->example);
	fprintf(f, "\n");
}

/* One indented line per input: what it is (:input-docs), saved ones
 * marked. */
static void print_inputs(FILE *f, const struct ub_op *op)
{
	for (int k = 0; k < op->nsampled && !op->noargs; k++)
		fprintf(f, "    %-10s %s\n", op->inputs[k],
			op->input_doc[k] ? op->input_doc[k] : "");
	for (int k = 0; k < op->nsaved; k++)
		fprintf(f, "    %-10s (saved) %s\n", op->saved[k].name, op->saved[k].desc);
}

static void one_op(FILE *f, const struct ub_op *op)
{
	const char *names[MAX_NAMES];
	static char text[8192];
	int nn = names_of(op, names);
	print_name(f, op->name, op->ident, op->alias, op->anonymous);
	fprintf(f, " (");
	for (int k = 0; k < op->nsampled && !op->noargs; k++)
		fprintf(f, "%s%s", k ? " " : "", op->inputs[k]);
	ub_expr_print(op->math, names, text, sizeof text);
	fprintf(f, ")  math%s: %s", op->has_spec ? " (:spec)" : "", text);
	if (op->kernel_expr) {
		ub_expr_print(op->kernel_expr, names, text, sizeof text);
		fprintf(f, "  kernel: %s", text);
	}
	fprintf(f, "  torch%s:", op->auto_plan ? " (derived, one kernel per operation)" : "");
	for (int k = 0; k < op->nsteps && nn < MAX_NAMES; k++) {
		ub_expr_print(op->torch[k].e, names, text, sizeof text);
		fprintf(f, " %s=R%s%s%s", op->torch[k].name,
			op->torch[k].every_op || op->torch[k].per_op ? "op" : "", text,
			k + 1 < op->nsteps ? ";" : "");
		names[nn++] = op->torch[k].name;
	}
	fprintf(f, "\n");
	metadata(f, op, names);
	print_inputs(f, op);
}

static void domain(const struct ub_domain *d, char *buf, size_t len)
{
	if (isinf(d->lo) && isinf(d->hi))
		snprintf(buf, len, "every value");
	else
		snprintf(buf, len, "[%.17g, %.17g]", d->lo, d->hi);
}

/* The kernel line of --op NAME: the file and the dtypes it is for. */
static void detail_kernel(FILE *f, const struct ub_op *op)
{
	char dts[64] = "";
	for (int t = 0; t < UB_NDTYPES; t++)
		if (op->kernel_dtypes >> t & 1)
			snprintf(dts + strlen(dts), sizeof dts - strlen(dts), "%s%s",
				 dts[0] ? ", " : "", ub_dtypes[t].name);
	if (op->kernel)
		fprintf(f, "  kernel: kernels/%s, entry %s%s%s, for %s (other dtypes: "
			"generated from the math)\n", op->kernel,
			op->entry ? op->entry : "?", op->launch ? ", launched " : "",
			op->launch ? op->launch : "", dts);
	else
		fprintf(f, "  kernel: generated from %s, for %s\n",
			op->kernel_expr ? ":kernel-expr" : "the math", dts);
}

/* --list-ops --op NAME */
static void detail(FILE *f, const struct ub_op *op)
{
	const char *names[MAX_NAMES];
	static char text[8192];
	char dom[128];
	int nn = names_of(op, names);
	fprintf(f, "%s: %s\n  inputs:\n", op->name, op->desc ? op->desc : "");
	for (int k = 0; k < op->nsampled; k++) {
		domain(&op->dom[k], dom, sizeof dom);
		fprintf(f, "    %-10s %s; sampled over %s\n", op->inputs[k],
			op->input_doc[k] ? op->input_doc[k] : "", dom);
	}
	for (int k = 0; k < op->nsaved; k++)
		fprintf(f, "    %-10s (saved) %s; a kernel parameter bound to it gets it\n",
			op->saved[k].name, op->saved[k].desc);
	for (int k = 0; k < op->nparams; k++)
		fprintf(f, "  param %-10s = %s (--param %s=V; a kernel's scalar takes it "
			"as %s=%s)\n", op->params[k].name, op->params[k].text,
			op->params[k].name, op->params[k].name, op->params[k].name);
	if (op->pre_expr) {
		ub_expr_print(op->pre_expr, names, text, sizeof text);
		fprintf(f, "  pre: %s\n", text);
	}
	if (op->precision >= 0)
		fprintf(f, "  precision: %s (the default --dtype)\n", ub_prec_name(op->precision));
	ub_expr_print(op->math, names, text, sizeof text);
	fprintf(f, "  math (the exact reference%s): %s\n", op->has_spec ? ", :spec" : "", text);
	for (int k = 0; k < op->nsaved; k++)
		names[nn + k] = op->saved[k].name;
	if (op->saved_math) {
		ub_expr_print(op->saved_math, names, text, sizeof text);
		fprintf(f, "  math when the kernel takes a saved input: %s\n", text);
	}
	detail_kernel(f, op);
	fprintf(f, "  torch plan (each step one kernel, rounded to the dtype%s):\n",
		op->auto_plan ? "; derived, one kernel per operation" : "");
	for (int k = 0; k < op->nsteps; k++) {
		ub_expr_print(op->torch[k].e, names, text, sizeof text);
		fprintf(f, "    %-10s = %s%s\n", op->torch[k].name, text,
			op->torch[k].every_op || op->torch[k].per_op ?
			"  (f16/bf16: every operator rounds)" : "");
		if (nn < MAX_NAMES)
			names[nn++] = op->torch[k].name;
	}
}

int ub_list_ops(FILE *f, const struct ub_catalog *cat, const char *opname,
		struct ub_error *err)
{
	if (opname) {
		const struct ub_op *op;
		int s = ub_find_op(cat, opname, &op, err);
		if (!s)
			detail(f, op);
		return s;
	}
	for (int i = 0; i < cat->nops; i++)
		one_op(f, &cat->ops[i]);
	for (int i = 0; i < cat->nbroken; i++) {
		const struct ub_broken *b = &cat->broken[i];
		print_name(f, b->name, NULL, b->alias, strcmp(b->name, b->alias) != 0);
		fprintf(f, "  not loaded: %s\n", b->msg);
	}
	return 0;
}

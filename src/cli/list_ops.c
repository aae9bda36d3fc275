/* list_ops.c — `ulpbench --list-ops`: one line per op (name, inputs,
 * math, torch plan), then one indented line per input saying what it is,
 * so that a kernel's parameter is bound to the input it means; with --op
 * NAME, that op in full: inputs with their domains, saved inputs,
 * :params, the math, the kernel and its dtypes, the torch plan step by
 * step. */
#include "commands.h"
#include "setup.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The names expressions of op print with: inputs, saved inputs, steps. */
static int names_of(const struct ub_op *op, const char **names, int max)
{
	int nn = 0;
	for (int k = 0; k < op->nsampled && nn < max; k++)
		names[nn++] = op->inputs[k];
	return nn;
}

static void print_inputs(const struct ub_op *op)
{
	for (int k = 0; k < op->nsampled; k++)
		printf("    %-10s %s\n", op->inputs[k], op->input_doc[k] ? op->input_doc[k] : "");
	for (int k = 0; k < op->nsaved; k++)
		printf("    %-10s (saved) %s\n", op->saved[k].name, op->saved[k].desc);
}

static void summary(const struct ub_op *op)
{
	const char *names[UB_MAX_INPUTS + 64];
	char math[4096], step[4096];
	int nn = names_of(op, names, UB_MAX_INPUTS);
	ub_expr_print(op->math, names, math, sizeof math);
	printf("%-12s (", op->name);
	for (int k = 0; k < op->nsampled; k++)
		printf("%s%s", k ? " " : "", op->inputs[k]);
	printf(")  math: %s", math);
	if (op->kernel_expr) {
		ub_expr_print(op->kernel_expr, names, math, sizeof math);
		printf("  kernel: %s", math);
	}
	printf("  torch:");
	for (int k = 0; k < op->nsteps && nn < UB_MAX_INPUTS + 64; k++) {
		ub_expr_print(op->torch[k].e, names, step, sizeof step);
		printf(" %s=R%s%s%s", op->torch[k].name,
		       op->torch[k].every_op ? "op" : "", step,
		       k + 1 < op->nsteps ? ";" : "");
		names[nn++] = op->torch[k].name;
	}
	printf("\n");
	print_inputs(op);
}

static void domain(const struct ub_domain *d, char *buf, size_t len)
{
	if (isinf(d->lo) && isinf(d->hi))
		snprintf(buf, len, "every value");
	else
		snprintf(buf, len, "[%.17g, %.17g]", d->lo, d->hi);
}

/* --list-ops --op NAME */
static void detail(const struct ub_op *op)
{
	const char *names[UB_MAX_INPUTS * 2 + 64];
	char text[4096], dom[128];
	int nn = names_of(op, names, UB_MAX_INPUTS);
	printf("%s: %s\n  inputs:\n", op->name, op->desc ? op->desc : "");
	for (int k = 0; k < op->nsampled; k++) {
		domain(&op->dom[k], dom, sizeof dom);
		printf("    %-10s %s; sampled over %s\n", op->inputs[k],
		       op->input_doc[k] ? op->input_doc[k] : "", dom);
	}
	for (int k = 0; k < op->nsaved; k++)
		printf("    %-10s (saved) %s; a kernel parameter bound to it gets it\n",
		       op->saved[k].name, op->saved[k].desc);
	for (int k = 0; k < op->nparams; k++)
		printf("  param %-10s = %s (--param %s=V; a kernel's scalar takes it "
		       "as %s=%s)\n", op->params[k].name, op->params[k].text,
		       op->params[k].name, op->params[k].name, op->params[k].name);
	ub_expr_print(op->math, names, text, sizeof text);
	printf("  math (the exact reference): %s\n", text);
	for (int k = 0; k < op->nsaved; k++)
		names[nn + k] = op->saved[k].name;
	if (op->saved_math) {
		ub_expr_print(op->saved_math, names, text, sizeof text);
		printf("  math when the kernel takes a saved input: %s\n", text);
	}
	char dts[64] = "";
	for (int t = 0; t < UB_NDTYPES; t++)
		if (op->kernel_dtypes >> t & 1)
			snprintf(dts + strlen(dts), sizeof dts - strlen(dts), "%s%s",
				 dts[0] ? ", " : "", ub_dtypes[t].name);
	if (op->kernel)
		printf("  kernel: kernels/%s, entry %s, for %s (other dtypes: generated "
		       "from the math)\n", op->kernel, op->entry ? op->entry : "?", dts);
	else
		printf("  kernel: generated from %s, for %s\n",
		       op->kernel_expr ? ":kernel-expr" : "the math", dts);
	printf("  torch plan (each step one kernel, rounded to the dtype):\n");
	for (int k = 0; k < op->nsteps; k++) {
		ub_expr_print(op->torch[k].e, names, text, sizeof text);
		printf("    %-10s = %s%s\n", op->torch[k].name, text,
		       op->torch[k].every_op ? "  (f16/bf16: every operator rounds)" : "");
		if (nn < UB_MAX_INPUTS + 64)
			names[nn++] = op->torch[k].name;
	}
}

int ub_list_ops(const struct ub_catalog *cat, const char *opname,
		struct ub_error *err)
{
	const struct ub_op *op;
	if (opname) {
		int s = ub_find_op(cat, opname, &op, err);
		if (!s)
			detail(op);
		return s;
	}
	for (int i = 0; i < cat->nops; i++)
		summary(&cat->ops[i]);
	return 0;
}

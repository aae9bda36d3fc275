/* list_ops.c — `ulpbench --list-ops`: one line per op (its name, the
 * other names it answers to, inputs, exact math, kernel formula, :pre,
 * torch plan), a line of FPCore properties under it when it has any
 * (:pre, :precision, :description, :cite, :alt, :example), then one line
 * per core that
 * did not load, with its FILE:LINE:COL message. */
#include "commands.h"
#include "catalog.h"

#include <stdio.h>
#include <string.h>

#define MAX_NAMES (UB_MAX_INPUTS + 64)

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
	if (op->description)
		fprintf(f, " description: \"%s\"", op->description);
	if (op->cite)
		fprintf(f, " cite: %s", op->cite);
	for (int i = 0; i < op->nalt; i++)
		fprintf(f, " alt: %s", op->alt[i]);
	if (op->example)
		fprintf(f, " example: %s", op->example);
	fprintf(f, "\n");
}

static void one_op(FILE *f, const struct ub_op *op)
{
	const char *names[MAX_NAMES];
	static char text[8192];
	int nn = 0;
	for (int k = 0; k < op->ninputs; k++)
		names[nn++] = op->inputs[k];
	print_name(f, op->name, op->ident, op->alias, op->anonymous);
	fprintf(f, " (");
	for (int k = 0; k < op->ninputs; k++)
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
}

void ub_list_ops(FILE *f, const struct ub_catalog *cat)
{
	for (int i = 0; i < cat->nops; i++)
		one_op(f, &cat->ops[i]);
	for (int i = 0; i < cat->nbroken; i++) {
		const struct ub_broken *b = &cat->broken[i];
		print_name(f, b->name, NULL, b->alias, strcmp(b->name, b->alias) != 0);
		fprintf(f, "  not loaded: %s\n", b->msg);
	}
}

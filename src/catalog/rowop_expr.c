/* rowop_expr.c — one operator application of a row op's math or torch
 * plan, (HEAD a b ...), over arguments already built (rowop.h): the
 * operators of expr.h by their FPCore names, (- x) as negation, + * and
 * or folded left over more arguments, each argument of the type its
 * operator takes (a number, or a condition for if's first, and, or,
 * not). */
#include "rowop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int find(const char *name, int n)
{
	if (!strcmp(name, "-") && n == 1)
		return UB_NEG;
	for (int i = 0; i < UB_NOPS; i++)
		if (i != UB_NEG && !strcmp(ub_expr_ops[i].name, name))
			return i == UB_WHILE || i == UB_WHILES || i == UB_CAST ? -1 : i;
	return -1;
}

static int folds(int op)
{
	return op == UB_ADD || op == UB_MUL || op == UB_AND || op == UB_OR;
}

int ub_rowop_apply(const char *file, const struct ub_sx *x, struct ub_expr **a, int n,
		   struct ub_expr **out, struct ub_error *err)
{
	const struct ub_sx *h = &x->kids[0];
	int op = h->kind == UB_SX_SYM ? find(h->text, n) : -1, st = 0;
	*out = NULL;
	if (op < 0)
		st = ub_sx_fail(err, file, h->line, h->col, "unknown operator '%s' (a "
				"row op takes expr.h's operators, let, let*, if, tensor, for, "
				"for*, ref, array; docs/rowops.md)", h->text ? h->text : "(...)");
	else if (folds(op) ? n < 2 : n != ub_expr_ops[op].arity)
		st = ub_sx_fail(err, file, x->line, x->col, "'%s' takes %s%d argument%s, "
				"got %d", h->text, folds(op) ? "at least " : "",
				folds(op) ? 2 : ub_expr_ops[op].arity,
				(folds(op) ? 2 : ub_expr_ops[op].arity) == 1 ? "" : "s", n);
	for (int i = 0; !st && i < n; i++) {
		enum ub_expr_type want = op == UB_IF && i > 0 ? ub_expr_type_of(a[1])
				       : ub_expr_arg_type((enum ub_expr_op)op, n, i);
		if (ub_expr_type_of(a[i]) != want)
			st = ub_sx_fail(err, file, x->kids[i + 1].line, x->kids[i + 1].col,
					"'%s' needs a %s here", h->text,
					want == UB_T_BOOL ? "condition" : "number");
	}
	if (st) {
		for (int i = 0; i < n; i++)
			ub_expr_free(a[i]);
		return st;
	}
	struct ub_expr *acc = a[0];
	if (!folds(op))
		acc = ub_expr_new_op((enum ub_expr_op)op, n, a);
	for (int i = 1; folds(op) && i < n; i++) {
		struct ub_expr *pair[2] = {acc, a[i]};
		if (acc)
			acc = ub_expr_new_op((enum ub_expr_op)op, 2, pair);
		else
			ub_expr_free(a[i]);
	}
	*out = acc;
	return acc ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
}

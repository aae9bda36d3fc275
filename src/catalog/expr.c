/* expr.c — the expression tree: operator table, constructors, copy, free
 * and printing back to FPCore text.  Trees are small (tens of nodes), so
 * plain recursion is fine; the reader bounds their depth. */
#include "expr.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct ub_expr_op_info ub_expr_ops[UB_NOPS] = {
#define X(id, name, arity, cfun) [id] = {name, arity, cfun},
	UB_EXPR_OPS(X)
#undef X
};

int ub_expr_const(const char *text, double *v)
{
	static const struct {
		const char *name;
		double value;
	} consts[] = {
#define X(name, value) {name, value},
		UB_EXPR_CONSTS(X)
#undef X
	};
	for (size_t i = 0; i < sizeof consts / sizeof consts[0]; i++)
		if (strcmp(consts[i].name, text) == 0) {
			*v = consts[i].value;
			return 1;
		}
	return 0;
}

static int is_comparison(enum ub_expr_op op)
{
	return op >= UB_LT && op <= UB_NE;
}

static int is_logic(enum ub_expr_op op)
{
	return op == UB_AND || op == UB_OR || op == UB_NOT;
}

enum ub_expr_type ub_expr_type_of(const struct ub_expr *e)
{
	if (e->kind == UB_E_NUM)
		return strcmp(e->num, "TRUE") && strcmp(e->num, "FALSE")
		       ? UB_T_REAL : UB_T_BOOL;
	if (e->kind == UB_E_OP && (is_comparison(e->op) || is_logic(e->op)))
		return UB_T_BOOL;
	return UB_T_REAL;
}

enum ub_expr_type ub_expr_arg_type(enum ub_expr_op op, int i)
{
	return is_logic(op) || (op == UB_IF && i == 0) ? UB_T_BOOL : UB_T_REAL;
}

static struct ub_expr *node(enum ub_expr_kind kind)
{
	struct ub_expr *e = calloc(1, sizeof *e);
	if (e)
		e->kind = kind;
	return e;
}

struct ub_expr *ub_expr_new_num(const char *text)
{
	struct ub_expr *e = node(UB_E_NUM);
	if (e && !(e->num = strdup(text))) {
		free(e);
		return NULL;
	}
	if (e) {
		char *end;
		const char *digits = text + (text[0] == '-');
		e->num_d = strtod(text, &end);
		if (*end || end == text)
			e->num_d = NAN;
		e->num_int = *digits && strspn(digits, "0123456789") == strlen(digits);
	}
	return e;
}

struct ub_expr *ub_expr_new_var(int var)
{
	struct ub_expr *e = node(UB_E_VAR);
	if (e)
		e->var = var;
	return e;
}

struct ub_expr *ub_expr_new_op(enum ub_expr_op op, int nargs,
			       struct ub_expr *const *args)
{
	struct ub_expr *e = node(UB_E_OP);
	int ok = e != NULL;
	for (int i = 0; i < nargs; i++)
		ok = ok && args[i];
	if (!ok) {
		for (int i = 0; i < nargs; i++)
			ub_expr_free(args[i]);
		free(e);
		return NULL;
	}
	e->op = op;
	e->nargs = nargs;
	for (int i = 0; i < nargs; i++)
		e->args[i] = args[i];
	return e;
}

struct ub_expr *ub_expr_copy(const struct ub_expr *e)
{
	switch (e->kind) {
	case UB_E_NUM:
		return ub_expr_new_num(e->num);
	case UB_E_VAR:
		return ub_expr_new_var(e->var);
	default: {
		struct ub_expr *a[3] = {NULL, NULL, NULL};
		for (int i = 0; i < e->nargs; i++)
			a[i] = ub_expr_copy(e->args[i]);
		return ub_expr_new_op(e->op, e->nargs, a);
	}
	}
}

void ub_expr_free(struct ub_expr *e)
{
	if (!e)
		return;
	for (int i = 0; e->kind == UB_E_OP && i < e->nargs; i++)
		ub_expr_free(e->args[i]);
	free(e->num);
	free(e);
}

/* An snprintf that appends and keeps counting past the end of buf. */
struct out {
	char *buf;
	size_t len, used;
};

__attribute__((format(printf, 2, 3)))
static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t room = o->used < o->len ? o->len - o->used : 0;
	int k = vsnprintf(room ? o->buf + o->used : NULL, room, fmt, ap);
	va_end(ap);
	if (k > 0)
		o->used += (size_t)k;
}

static void print(struct out *o, const struct ub_expr *e,
		  const char *const *names)
{
	switch (e->kind) {
	case UB_E_NUM:
		put(o, "%s", e->num);
		return;
	case UB_E_VAR:
		if (names)
			put(o, "%s", names[e->var]);
		else
			put(o, "v%d", e->var);
		return;
	default:
		put(o, "(%s", e->op == UB_NEG ? "-" : ub_expr_ops[e->op].name);
		for (int i = 0; i < e->nargs; i++) {
			put(o, " ");
			print(o, e->args[i], names);
		}
		put(o, ")");
	}
}

int ub_expr_print(const struct ub_expr *e, const char *const *names,
		  char *buf, size_t len)
{
	struct out o = {buf, len, 0};
	if (len)
		buf[0] = '\0';
	print(&o, e, names);
	return (int)o.used;
}

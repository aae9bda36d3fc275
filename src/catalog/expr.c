/* expr.c — expression nodes: operator table, constructors, references,
 * free and printing back to FPCore text.  Freeing walks a list, not the
 * call stack, so any depth is safe; printing recurses at most as deep as
 * its buffer is long. */
#include "expr.h"
#include "dag.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
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
	if (e) {
		e->kind = kind;
		e->refs = 1;
		e->depth = 1;
		atomic_init(&e->dag, NULL);
	}
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
	for (int i = 0; i < nargs; i++) {
		e->args[i] = args[i];
		if (args[i]->depth >= e->depth) /* saturates: INT_MAX is "deep" */
			e->depth = args[i]->depth < INT_MAX ? args[i]->depth + 1 : INT_MAX;
	}
	return e;
}

struct ub_expr *ub_expr_ref(struct ub_expr *e)
{
	e->refs++;
	return e;
}

/* The nodes whose last reference goes are chained through gc and freed
 * one at a time, each releasing its arguments onto the chain. */
void ub_expr_free(struct ub_expr *e)
{
	struct ub_expr *todo = NULL;
	if (e && --e->refs == 0) {
		e->gc = NULL;
		todo = e;
	}
	while (todo) {
		struct ub_expr *x = todo;
		todo = x->gc;
		for (int i = 0; x->kind == UB_E_OP && i < x->nargs; i++) {
			struct ub_expr *a = x->args[i];
			if (--a->refs == 0) {
				a->gc = todo;
				todo = a;
			}
		}
		ub_dag_free(atomic_load(&x->dag));
		free(x->num);
		free(x);
	}
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
	if (o->used >= o->len) /* full: the rest could be exponentially long */
		return;
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

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
#define X(id, name, arity, cfun, cls) [id] = {name, arity, cfun, cls},
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

enum ub_expr_type ub_expr_type_of(const struct ub_expr *e)
{
	switch (e->kind) {
	case UB_E_NUM:
		return strcmp(e->num, "TRUE") && strcmp(e->num, "FALSE")
		       ? UB_T_REAL : UB_T_BOOL;
	case UB_E_LVAR:
		return e->is_bool ? UB_T_BOOL : UB_T_REAL;
	case UB_E_VAR:
		return UB_T_REAL;
	case UB_E_OP:
		break;
	}
	if (UB_EXPR_IS_BOOL(e->op))
		return UB_T_BOOL;
	if (e->op == UB_IF)
		return ub_expr_type_of(e->args[1]);
	if (e->op == UB_WHILE || e->op == UB_WHILES)
		return ub_expr_type_of(e->args[UB_LOOP_BODY(ub_loop_nvars(e->op, e->nargs))]);
	return UB_T_REAL;
}

enum ub_expr_type ub_expr_arg_type(enum ub_expr_op op, int nargs, int i)
{
	if (op == UB_WHILE || op == UB_WHILES)
		return i == UB_LOOP_COND(ub_loop_nvars(op, nargs)) ? UB_T_BOOL : UB_T_REAL;
	return ub_expr_ops[op].cls == UB_C_LOGIC || (op == UB_IF && i == 0)
	       ? UB_T_BOOL : UB_T_REAL;
}

const char *const ub_rnd_names[4] = {"nearestEven", "toPositive", "toNegative",
				      "toZero"};

const char *ub_prec_name(int prec)
{
	static const char *const names[UB_NDTYPES] = {
		[UB_F32] = "binary32", [UB_F16] = "binary16",
		[UB_BF16] = "bfloat16", [UB_F64] = "binary64"};
	if (prec >= 0 && prec < UB_NDTYPES)
		return names[prec];
	return prec == UB_PREC_REAL ? "real" : prec == UB_PREC_INTEGER ? "integer"
	       : "inherited";
}

static struct ub_expr *node(enum ub_expr_kind kind, int nargs)
{
	struct ub_expr *e = calloc(1, sizeof *e + (size_t)nargs * sizeof e->args[0]);
	if (e) {
		e->kind = kind;
		e->refs = 1;
		e->depth = 1;
		e->prec = UB_PREC_INHERIT;
		atomic_init(&e->dag, NULL);
	}
	return e;
}

struct ub_expr *ub_expr_new_num(const char *text)
{
	struct ub_expr *e = node(UB_E_NUM, 0);
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
	struct ub_expr *e = node(UB_E_VAR, 0);
	if (e)
		e->var = var;
	return e;
}

struct ub_expr *ub_expr_new_lvar(const char *name, int is_bool)
{
	struct ub_expr *e = node(UB_E_LVAR, 0);
	if (e && !(e->num = strdup(name))) {
		free(e);
		return NULL;
	}
	if (e)
		e->is_bool = is_bool;
	return e;
}

struct ub_expr *ub_expr_new_op(enum ub_expr_op op, int nargs,
			       struct ub_expr *const *args)
{
	struct ub_expr *e = nargs >= 0 ? node(UB_E_OP, nargs) : NULL;
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
		  const char *const *names, int prec);

static void print_args(struct out *o, const struct ub_expr *e, int from,
		       int to, const char *const *names, int prec)
{
	for (int i = from; i < to; i++) {
		put(o, " ");
		print(o, e->args[i], names, prec);
	}
}

/* (while COND ([x INIT UPD] ...) BODY), the shadows left out. */
static void print_loop(struct out *o, const struct ub_expr *e,
		       const char *const *names, int prec)
{
	int n = ub_loop_nvars(e->op, e->nargs);
	put(o, "(%s ", ub_expr_ops[e->op].name);
	print(o, e->args[UB_LOOP_COND(n)], names, prec);
	put(o, " (");
	for (int k = 0; k < n; k++) {
		put(o, "%s[%s", k ? " " : "", e->args[UB_LOOP_VAR(n, k)]->num);
		print_args(o, e, UB_LOOP_INIT(n, k), UB_LOOP_INIT(n, k) + 1, names, prec);
		print_args(o, e, UB_LOOP_UPD(n, k), UB_LOOP_UPD(n, k) + 1, names, prec);
		put(o, "]");
	}
	put(o, ")");
	print_args(o, e, UB_LOOP_BODY(n), UB_LOOP_BODY(n) + 1, names, prec);
	put(o, ")");
}

/* A node's rounding context as one number: prec and rnd. */
static int context_of(const struct ub_expr *e)
{
	return e->prec * 8 + e->rnd;
}

/* prec: the rounding context the text is in (context_of); a node in
 * another one is written inside (! :precision P :round R ...). */
static void print(struct out *o, const struct ub_expr *e,
		  const char *const *names, int prec)
{
	if (o->used >= o->len) /* full: the rest could be exponentially long */
		return;
	if ((e->kind == UB_E_OP || e->kind == UB_E_NUM) && context_of(e) != prec &&
	    (e->prec != UB_PREC_INHERIT || e->rnd != UB_RND_NE)) {
		put(o, "(!");
		if (e->prec != UB_PREC_INHERIT)
			put(o, " :precision %s", ub_prec_name(e->prec));
		if (e->rnd != UB_RND_NE)
			put(o, " :round %s", ub_rnd_names[e->rnd]);
		put(o, " ");
		print(o, e, names, context_of(e));
		put(o, ")");
		return;
	}
	switch (e->kind) {
	case UB_E_NUM:
		put(o, "%s", e->num);
		return;
	case UB_E_LVAR:
		put(o, "%s", e->num);
		return;
	case UB_E_VAR:
		if (names)
			put(o, "%s", names[e->var]);
		else
			put(o, "v%d", e->var);
		return;
	default:
		if (e->op == UB_WHILE || e->op == UB_WHILES) {
			print_loop(o, e, names, prec);
			return;
		}
		put(o, "(%s", e->op == UB_NEG ? "-" : ub_expr_ops[e->op].name);
		print_args(o, e, 0, e->nargs, names, prec);
		put(o, ")");
	}
}

int ub_expr_print(const struct ub_expr *e, const char *const *names,
		  char *buf, size_t len)
{
	struct out o = {buf, len, 0};
	if (len)
		buf[0] = '\0';
	print(&o, e, names, e->kind == UB_E_OP || e->kind == UB_E_NUM ? context_of(e)
			    : UB_PREC_INHERIT * 8);
	return (int)o.used;
}

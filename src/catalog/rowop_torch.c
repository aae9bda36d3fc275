/* rowop_torch.c — a row op's :torch, PyTorch eager's computation over
 * whole tensors, into steps (rowop.h): each let or let* binding, and each
 * output of the body (array ...), is one kernel whose result is rounded to
 * the dtype.  Inside a binding the arithmetic is one elementwise kernel
 * (broadcast: a (rows) value along the columns, a (cols) one along the
 * rows), as PyTorch's fused TensorIterator kernels compute it in float;
 * a reduction or another PyTorch kernel inside it (sum, pick, onehot,
 * softmax, log_softmax) is a kernel of its own before it, its
 * operand too when that is not a name.  Numbers, :params and the sizes are
 * Python scalars, converted once to the kernel's float. */
#include "rowop.h"

#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SCOPE 128

struct tp {
	struct ub_rowop *op;
	struct ub_error *err;
	int nscope;
	const char *sname[MAX_SCOPE];
	int sval[MAX_SCOPE];               /* -1: a constant, sconst */
	struct ub_expr *sconst[MAX_SCOPE]; /* (held) */
	int allow_const;     /* the value being read may be a constant */
	struct ub_expr *pending; /* the constant it was */
};

static const char *const kernels[] = {"sum", "pick", "onehot", "softmax",
	"log_softmax", "layer_norm", "layer_norm_mean", "layer_norm_rstd", NULL};
static const enum ub_ro_step_kind kinds[] = {UB_RS_SUM, UB_RS_PICK, UB_RS_ONEHOT,
	UB_RS_SOFTMAX, UB_RS_LOG_SOFTMAX, UB_RS_LN, UB_RS_LN_MEAN, UB_RS_LN_RSTD};

static int fail(struct tp *t, const struct ub_sx *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(struct tp *t, const struct ub_sx *x, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ub_sx_fail(t->err, t->op->file, x->line, x->col, "%s", buf);
}

/* The kernel x names (sum ...), or -1. */
static int kernel_of(const struct ub_sx *x)
{
	for (int k = 0; x->kind == UB_SX_LIST && x->n >= 2 && kernels[k]; k++)
		if (ub_sx_is(&x->kids[0], kernels[k]))
			return k;
	return -1;
}

static int lookup(const struct tp *t, const char *name)
{
	for (int i = t->nscope - 1; i >= 0; i--)
		if (!strcmp(t->sname[i], name))
			return t->sval[i];
	return -1;
}

/* The constant a binding named name holds, or NULL. */
static struct ub_expr *constant(const struct tp *t, const char *name)
{
	for (int i = t->nscope - 1; i >= 0; i--)
		if (!strcmp(t->sname[i], name))
			return t->sconst[i];
	return NULL;
}

static enum ub_ro_ext ext_of(const struct tp *t, int v)
{
	const struct ub_rowop *op = t->op;
	return v < op->nin ? op->in[v].ext : op->steps[v - op->nin].ext;
}

static int is_int(const struct tp *t, int v)
{
	return v < t->op->nin && t->op->in[v].is_int;
}

/* The extent of a kernel reading a (so far: have) and b. */
static int join(int have, enum ub_ro_ext b)
{
	return have < 0 ? (int)b : have == (int)b ? have : UB_RO_FULL;
}

static struct ub_ro_step *new_step(struct tp *t, const struct ub_sx *x, const char *name,
				   int *v)
{
	struct ub_rowop *op = t->op;
	if (op->nsteps == UB_RO_MAX_STEPS) {
		fail(t, x, ":torch: more than %s kernels", "64");
		return NULL;
	}
	struct ub_ro_step *s = &op->steps[op->nsteps];
	memset(s, 0, sizeof *s);
	snprintf(s->name, sizeof s->name, "%s", name);
	*v = op->nin + op->nsteps++;
	return s;
}

static int value(struct tp *t, const struct ub_sx *x, const char *name, int *v);

/* (host E): E computed on the host in double, as Python computes an
 * optimizer's scalars (1 - beta1 ** step) before passing them to a kernel:
 * numbers, :params as written (Python floats), sizes, + - * / pow sqrt. */
static int host(struct tp *t, const struct ub_sx *x, double *v)
{
	const struct ub_rowop *op = t->op;
	char *end;
	if (x->kind == UB_SX_NUM && !strchr(x->text, '/'))
		return *v = strtod(x->text, &end), 0;
	if (x->kind == UB_SX_SYM) {
		int p = ub_rowop_param(op, x->text), d = ub_rowop_dim(op, x->text);
		if (p >= 0)
			return *v = strtod(op->param_text[p], &end), 0;
		if (d >= 0)
			return *v = (double)(d == 0 ? op->rows : d == 1 ? op->cols
					    : op->size_val[d - 2]), 0;
		return fail(t, x, ":torch: (host ...) reads numbers, :params and sizes, "
			    "not '%s'", x->text);
	}
	static const char *const ops[] = {"+", "-", "*", "/", "pow", "sqrt", NULL};
	int k = 0, n = x->kind == UB_SX_LIST ? x->n - 1 : 0, st = 0;
	while (n && ops[k] && !ub_sx_is(&x->kids[0], ops[k]))
		k++;
	int fits = k <= 1 ? n == 1 || n == 2 : k <= 4 ? n == 2 : k == 5 && n == 1;
	if (!n || !ops[k] || !fits)
		return fail(t, x, "%s", ":torch: (host ...) takes + - * / pow and sqrt");
	double a = 0, b = 0;
	st = host(t, &x->kids[1], &a);
	if (!st && n == 2)
		st = host(t, &x->kids[2], &b);
	*v = k == 0 ? (n == 1 ? a : a + b) : k == 1 ? (n == 1 ? -a : a - b) : k == 2 ? a * b
	     : k == 3 ? a / b : k == 4 ? pow(a, b) : sqrt(a);
	return st;
}

/* x inside an elementwise kernel s: a node over s's variables. */
static int elem(struct tp *t, const struct ub_sx *x, struct ub_ro_step *s, int *ext,
		struct ub_expr **out)
{
	const struct ub_rowop *op = t->op;
	*out = NULL;
	if (x->kind == UB_SX_NUM)
		return (*out = ub_expr_new_num(x->text)) ? 0 : ub_fail(t->err, UB_RUNTIME, "out of memory");
	if (x->kind == UB_SX_SYM && constant(t, x->text))
		return *out = ub_expr_ref(constant(t, x->text)), 0;
	if (x->kind == UB_SX_SYM) {
		int v = lookup(t, x->text), p = ub_rowop_param(op, x->text), d = ub_rowop_dim(op, x->text);
		double c;
		char num[32];
		if (v < 0 && (p >= 0 || d >= 0 || ub_expr_const(x->text, &c))) {
			snprintf(num, sizeof num, "%lld", d == 0 ? op->rows : d == 1 ? op->cols
				 : d >= 2 ? op->size_val[d - 2] : 0);
			*out = ub_expr_new_num(p >= 0 ? op->param_used[p] : d >= 0 ? num : x->text);
			return *out ? 0 : ub_fail(t->err, UB_RUNTIME, "out of memory");
		}
		if (v < 0)
			return fail(t, x, ":torch: unknown name '%s' (an input, a binding, a "
				    ":params name or a size)", x->text);
		if (is_int(t, v))
			return fail(t, x, ":torch: '%s' holds integers: use it in pick or "
				    "onehot", x->text);
		int k = 0;
		while (k < s->nvar && s->var[k] != v)
			k++;
		if (k == UB_RO_MAX_VARS)
			return fail(t, x, ":torch: one kernel reads more than %s tensors", "16");
		s->var[k] = v;
		s->nvar += k == s->nvar;
		*ext = join(*ext, ext_of(t, v));
		return (*out = ub_expr_new_var(k)) ? 0 : ub_fail(t->err, UB_RUNTIME, "out of memory");
	}
	if (x->kind != UB_SX_LIST || x->n < 2 || x->kids[0].kind != UB_SX_SYM)
		return fail(t, x, "%s", ":torch: expected a number, a name or (OP ARGS...)");
	if (ub_sx_is(&x->kids[0], "host") && x->n == 2) {
		double h;
		char num[40];
		int st = host(t, &x->kids[1], &h);
		snprintf(num, sizeof num, "%a", h);
		if (!st && !(*out = ub_expr_new_num(num)))
			st = ub_fail(t->err, UB_RUNTIME, "out of memory");
		return st;
	}
	if (kernel_of(x) >= 0) { /* a kernel of its own, before this one */
		int v, st = value(t, x, "", &v);
		if (st)
			return st;
		char nm[16];
		snprintf(nm, sizeof nm, "_%d", v);
		t->sname[t->nscope] = nm;
		t->sval[t->nscope++] = v;
		struct ub_sx ref = {.kind = UB_SX_SYM, .line = x->line, .col = x->col, .text = nm};
		st = elem(t, &ref, s, ext, out);
		t->nscope--;
		return st;
	}
	int n = x->n - 1, st = 0;
	struct ub_expr *a[64] = {0};
	if (n > 64)
		return fail(t, x, "%s", ":torch: more than 64 arguments");
	for (int i = 0; i < n && !st; i++)
		st = elem(t, &x->kids[i + 1], s, ext, &a[i]);
	if (st) {
		for (int i = 0; i < n; i++)
			ub_expr_free(a[i]);
		return st;
	}
	return ub_rowop_apply(op->file, x, a, n, out, t->err);
}

/* The value of kernel x (sum ...): its operand first. */
/* (layer_norm X W B EPS) and its mean and rstd: X (rows, cols), W and B
 * one a column, EPS a number or a :params name (PyTorch's double). */
static int layer_norm(struct tp *t, const struct ub_sx *x, const char *name, int *v)
{
	int k = kernel_of(x), a[3], st = 0;
	if (x->n != 5)
		return fail(t, x, ":torch: (%s X WEIGHT BIAS EPS)", kernels[k]);
	for (int i = 0; i < 3 && !st; i++)
		st = value(t, &x->kids[i + 1], "", &a[i]);
	if (st)
		return st;
	for (int i = 0; i < 3; i++)
		if (a[i] < 0 || is_int(t, a[i]) || ext_of(t, a[i]) != (i ? UB_RO_COLS : UB_RO_FULL))
			return fail(t, &x->kids[i + 1], ":torch: (%s X WEIGHT BIAS EPS): X is "
				    "(rows, cols), WEIGHT and BIAS one a column", kernels[k]);
	double eps;
	if ((st = host(t, &x->kids[4], &eps)))
		return st;
	struct ub_ro_step *s = new_step(t, x, name[0] ? name : kernels[k], v);
	if (!s)
		return UB_USAGE;
	s->kind = kinds[k];
	s->ext = s->kind == UB_RS_LN ? UB_RO_FULL : UB_RO_ROWS;
	s->nvar = 3;
	memcpy(s->var, a, sizeof a);
	s->eps = eps;
	return 0;
}

static int special(struct tp *t, const struct ub_sx *x, const char *name, int *v)
{
	int k = kernel_of(x), a = -1, b = -1, st = 0;
	enum ub_ro_step_kind kind = kinds[k];
	if (kind == UB_RS_LN || kind == UB_RS_LN_MEAN || kind == UB_RS_LN_RSTD)
		return layer_norm(t, x, name, v);
	int want = kind == UB_RS_PICK ? 3 : 2;
	if (x->n != want)
		return fail(t, x, ":torch: (%s) takes one tensor (pick: a tensor and a "
			    "class index)", kernels[k]);
	if (kind != UB_RS_ONEHOT)
		st = value(t, &x->kids[1], "", &a);
	if (!st && (kind == UB_RS_PICK || kind == UB_RS_ONEHOT)) {
		const struct ub_sx *c = &x->kids[want - 1];
		b = c->kind == UB_SX_SYM ? lookup(t, c->text) : -1;
		if (b < 0 || !is_int(t, b) || ext_of(t, b) != UB_RO_ROWS)
			return fail(t, c, ":torch: (%s ...) takes a class index, an integer "
				    "input of one value a row", kernels[k]);
	}
	if (!st && a >= 0 && (is_int(t, a) || ext_of(t, a) != UB_RO_FULL))
		return fail(t, x, ":torch: (%s ...) takes a (rows, cols) tensor", kernels[k]);
	struct ub_ro_step *s = st ? NULL : new_step(t, x, name[0] ? name : kernels[k], v);
	if (!s)
		return st ? st : UB_USAGE;
	s->kind = kind;
	s->ext = kind == UB_RS_ONEHOT || kind == UB_RS_SOFTMAX || kind == UB_RS_LOG_SOFTMAX
		 ? UB_RO_FULL : UB_RO_ROWS;
	s->var[s->nvar++] = kind == UB_RS_ONEHOT ? b : a;
	if (kind == UB_RS_PICK)
		s->var[s->nvar++] = b;
	return 0;
}

/* The environment index of x's value, a new kernel unless x is a name. */
static int value(struct tp *t, const struct ub_sx *x, const char *name, int *v)
{
	if (x->kind == UB_SX_SYM && (*v = lookup(t, x->text)) >= 0)
		return 0;
	*v = -1;
	if (kernel_of(x) >= 0)
		return special(t, x, name, v);
	struct ub_ro_step tmp = {.kind = UB_RS_ELEM};
	int ext = -1, st = elem(t, x, &tmp, &ext, &tmp.e);
	if (!st && ext < 0 && t->allow_const) {
		t->pending = tmp.e;   /* a constant: its binding holds it */
		return 0;
	}
	if (!st && ext < 0)
		st = fail(t, x, "%s", ":torch: a kernel must read a tensor");
	/* after the kernels elem made first (sum ...): they run before it */
	struct ub_ro_step *s = st ? NULL : new_step(t, x, name[0] ? name : "t", v);
	if (!s) {
		ub_expr_free(tmp.e);
		return st ? st : UB_USAGE;
	}
	s->kind = UB_RS_ELEM;
	s->ext = (enum ub_ro_ext)ext;
	s->nvar = tmp.nvar;
	memcpy(s->var, tmp.var, sizeof s->var);
	s->e = tmp.e;
	return 0;
}

/* (let ([n e] ...) body) or let*: the bindings in scope of body. */
static int bindings(struct tp *t, const struct ub_sx *x, const struct ub_sx **body)
{
	int seq = ub_sx_is(&x->kids[0], "let*"), from = t->nscope;
	const struct ub_sx *bs = &x->kids[1];
	for (int i = 0; i < bs->n; i++) {
		const struct ub_sx *b = &bs->kids[i];
		int v, st;
		if (b->kind != UB_SX_LIST || b->n != 2 || b->kids[0].kind != UB_SX_SYM)
			return fail(t, b, "%s", ":torch: a binding is [NAME EXPR]");
		if (t->nscope == MAX_SCOPE)
			return fail(t, b, "%s", ":torch: too many bindings");
		int top = t->nscope;
		if (!seq)   /* let: the names bound here are not in scope yet */
			t->nscope = from;
		t->allow_const = 1;
		t->pending = NULL;
		st = value(t, &b->kids[1], b->kids[0].text, &v);
		t->allow_const = 0;
		t->nscope = top;
		if (st)
			return st;
		t->sname[t->nscope] = b->kids[0].text;
		t->sconst[t->nscope] = v < 0 ? t->pending : NULL;
		t->sval[t->nscope++] = v;
	}
	*body = &x->kids[2];
	return 0;
}

static int plan(struct tp *t);

int ub_rowop_torch(struct ub_rowop *op, struct ub_error *err)
{
	struct tp t;
	memset(&t, 0, sizeof t);
	t.op = op;
	t.err = err;
	int st = plan(&t);
	for (int i = 0; i < t.nscope; i++)
		ub_expr_free(t.sconst[i]);
	return st;
}

static int plan(struct tp *t)
{
	struct ub_rowop *op = t->op;
	const struct ub_sx *x = op->torch_sx;
	for (int k = 0; k < op->nin; k++) {
		t->sname[t->nscope] = op->in[k].name;
		t->sval[t->nscope++] = k;
	}
	while (x->kind == UB_SX_LIST && x->n == 3 && x->kids[1].kind == UB_SX_LIST &&
	       (ub_sx_is(&x->kids[0], "let") || ub_sx_is(&x->kids[0], "let*"))) {
		int st = bindings(t, x, &x);
		if (st)
			return st;
	}
	int arr = x->kind == UB_SX_LIST && x->n >= 1 && ub_sx_is(&x->kids[0], "array");
	if ((arr ? x->n - 1 : 1) != op->nout)
		return fail(t, x, ":torch: give one value per output (%s)", arr ? "array"
			    : "one expression");
	for (int o = 0; o < op->nout; o++) {
		const struct ub_sx *e = arr ? &x->kids[o + 1] : x;
		int st = value(t, e, op->out[o].name, &op->out_value[o]);
		if (st)
			return st;
		if (op->out_value[o] < 0 || ext_of(t, op->out_value[o]) != op->out[o].ext ||
		    is_int(t, op->out_value[o]))
			return fail(t, e, ":torch: output '%s' has another shape than the "
				    "body gives it", op->out[o].name);
	}
	return 0;
}

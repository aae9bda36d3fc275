/* rowop_parse.c — an FPCore row op's form into struct ub_rowop (rowop.h):
 * its arguments and their shapes, the properties a row op reads (:name,
 * :pre bounds, :params, :sizes, :integers, :outputs, :input-docs,
 * :torch), and the outputs its body gives, each with its shape.  The body
 * itself is read when a row is built (rowop_build.c); here only its
 * outline: the let and let* around (array ...) or one tensor. */
#include "rowop.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rp {
	const char *file;
	struct ub_error *err;
};

static int fail(const struct rp *c, const struct ub_sx *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int fail(const struct rp *c, const struct ub_sx *x, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ub_sx_fail(c->err, c->file, x->line, x->col, "%s", buf);
}

static int oom(const struct rp *c)
{
	return ub_fail(c->err, UB_RUNTIME, "out of memory");
}

static int sym(const struct ub_sx *x)
{
	return x->kind == UB_SX_SYM;
}

int ub_rowop_is(const struct ub_sx *f)
{
	if (f->kind != UB_SX_LIST || f->n < 3 || !ub_sx_is(&f->kids[0], "FPCore"))
		return 0;
	int a = sym(&f->kids[1]) ? 2 : 1, i;
	const struct ub_sx *args = &f->kids[a];
	for (i = 0; args->kind == UB_SX_LIST && i < args->n; i++)
		if (args->kids[i].kind == UB_SX_LIST && args->kids[i].n >= 2 &&
		    !ub_sx_is(&args->kids[i].kids[0], "!"))
			return 1;
	for (i = a + 1; i + 1 < f->n && f->kids[i].kind == UB_SX_KEY; i += 2)
		if (!strcmp(f->kids[i].text, ":outputs"))
			return 1;
	const struct ub_sx *b = &f->kids[f->n - 1];
	while (b->kind == UB_SX_LIST && b->n == 3 &&
	       (ub_sx_is(&b->kids[0], "let") || ub_sx_is(&b->kids[0], "let*")))
		b = &b->kids[2];
	return b->kind == UB_SX_LIST && b->n >= 1 && ub_sx_is(&b->kids[0], "array");
}

int ub_rowop_input(const struct ub_rowop *op, const char *name)
{
	for (int k = 0; k < op->nin; k++)
		if (!strcmp(op->in[k].name, name))
			return k;
	return -1;
}

int ub_rowop_size(const struct ub_rowop *op, const char *name)
{
	for (int k = 0; k < op->nsizes; k++)
		if (!strcmp(op->size_name[k], name))
			return k;
	return -1;
}

int ub_rowop_param(const struct ub_rowop *op, const char *name)
{
	for (int k = 0; k < op->nparams; k++)
		if (!strcmp(op->param_name[k], name))
			return k;
	return -1;
}

int ub_rowop_dim(const struct ub_rowop *op, const char *name)
{
	if (op->rname && !strcmp(op->rname, name))
		return 0;
	if (op->cname && !strcmp(op->cname, name))
		return 1;
	int k = ub_rowop_size(op, name);
	return k >= 0 ? 2 + k : -1;
}

long long ub_rowop_ihi(const struct ub_rowop *op, int k, long long cols)
{
	const struct ub_ro_in *a = &op->in[k];
	return a->ihi_size == -1 ? a->ihi : a->ihi_size == -2 ? cols
	       : op->size_val[a->ihi_size];
}

const char *ub_rowop_ext_name(const struct ub_rowop *op, int k, char *buf, size_t len)
{
	const struct ub_ro_in *a = &op->in[k];
	switch (a->ext) {
	case UB_RO_FULL: return "rows, cols";
	case UB_RO_ROWS: return "rows";
	case UB_RO_COLS: return "cols";
	default:
		snprintf(buf, len, "%s, cols", op->size_name[a->table]);
		return buf;
	}
}

/* A name used once among the arguments, sizes and params. */
static int fresh(const struct rp *c, const struct ub_rowop *op, const struct ub_sx *x)
{
	if (!sym(x))
		return fail(c, x, "expected a name, found %s", x->kind == UB_SX_LIST
			    ? "a list" : x->text ? x->text : "a string");
	if (ub_rowop_input(op, x->text) >= 0 || ub_rowop_size(op, x->text) >= 0 ||
	    ub_rowop_param(op, x->text) >= 0)
		return fail(c, x, "'%s' is named twice", x->text);
	return 0;
}

/* :sizes ([V 100] ...): sizes other than the run's rows and columns. */
static int sizes(const struct rp *c, const struct ub_sx *x, struct ub_rowop *op)
{
	if (x->kind != UB_SX_LIST || x->n > UB_RO_MAX_SIZES)
		return fail(c, x, ":sizes: expected at most %s [NAME COUNT] pairs", "4");
	for (int i = 0; i < x->n; i++) {
		const struct ub_sx *b = &x->kids[i];
		char *end;
		if (b->kind != UB_SX_LIST || b->n != 2 || b->kids[1].kind != UB_SX_NUM)
			return fail(c, b, "%s", ":sizes: expected [NAME COUNT]");
		int st = fresh(c, op, &b->kids[0]);
		if (st)
			return st;
		errno = 0;
		long long v = strtoll(b->kids[1].text, &end, 10);
		if (*end || errno || v < 1 || v > 1 << 24)
			return fail(c, &b->kids[1], ":sizes: '%s' is not a count in 1..2^24",
				    b->kids[1].text);
		if (!(op->size_name[op->nsizes] = strdup(b->kids[0].text)))
			return oom(c);
		op->size_val[op->nsizes++] = v;
	}
	return 0;
}

/* The rows and columns' names: the dimensions of the first argument of
 * two whose first is not a size of :sizes. */
static int dim_names(const struct rp *c, const struct ub_sx *args, struct ub_rowop *op)
{
	for (int i = 0; i < args->n && !op->rname; i++) {
		const struct ub_sx *a = &args->kids[i];
		if (a->kind == UB_SX_LIST && a->n == 3 && sym(&a->kids[1]) && sym(&a->kids[2]) &&
		    ub_rowop_size(op, a->kids[1].text) < 0) {
			if (!(op->rname = strdup(a->kids[1].text)) ||
			    !(op->cname = strdup(a->kids[2].text)))
				return oom(c);
			if (!strcmp(op->rname, op->cname))
				return fail(c, a, "argument '%s': its two dimensions must "
					    "differ (rows, then columns)", a->kids[0].text);
		}
	}
	if (!op->rname && !op->elementwise)
		return fail(c, args, "%s", "a row op needs an argument of two dimensions, "
			    "(x R C): R counts the rows, C the columns");
	return 0;
}

/* One argument: x (elementwise), (x R C), (w C), (t R) or (e V C). */
static int argument(const struct rp *c, const struct ub_sx *a, struct ub_rowop *op)
{
	struct ub_ro_in *in = &op->in[op->nin];
	const struct ub_sx *nm = a->kind == UB_SX_LIST && a->n ? &a->kids[0] : a;
	int st = fresh(c, op, nm);
	if (st)
		return st;
	if (op->nin == UB_RO_MAX_IN)
		return fail(c, a, "more than %s arguments", "8");
	memset(in, 0, sizeof *in);
	in->lo = -INFINITY;
	in->hi = INFINITY;
	in->ihi_size = -1;
	if (!(in->name = strdup(nm->text)))
		return oom(c);
	op->nin++;
	if ((a->kind == UB_SX_LIST) == op->elementwise)
		return fail(c, a, "argument '%s': the arguments must all have dimensions "
			    "or none have (an elementwise op of several outputs)", in->name);
	if (op->elementwise)
		return 0;
	int d0 = a->n >= 2 && sym(&a->kids[1]) ? ub_rowop_dim(op, a->kids[1].text) : -1;
	int d1 = a->n == 3 && sym(&a->kids[2]) ? ub_rowop_dim(op, a->kids[2].text) : -1;
	if (a->n == 3 && d0 == 0 && d1 == 1)
		in->ext = UB_RO_FULL;
	else if (a->n == 3 && d0 >= 2 && d1 == 1) {
		in->ext = UB_RO_TABLE;
		in->table = d0 - 2;
	} else if (a->n == 2 && d0 == 0)
		in->ext = UB_RO_ROWS;
	else if (a->n == 2 && d0 == 1)
		in->ext = UB_RO_COLS;
	else {
		char buf[160];
		snprintf(buf, sizeof buf, "argument '%s' must be (%s %s %s), (%s %s), "
			 "(%s %s) or (%s V %s) with V a size of :sizes", in->name, in->name,
			 op->rname, op->cname, in->name, op->cname, in->name, op->rname,
			 in->name, op->cname);
		return fail(c, a, "%s", buf);
	}
	return 0;
}

/* A bound of :pre: a number, INFINITY or (- INFINITY). */
static int bound(const struct ub_sx *x, double *v)
{
	char *end;
	if (x->kind == UB_SX_LIST && x->n == 2 && ub_sx_is(&x->kids[0], "-") &&
	    bound(&x->kids[1], v)) {
		*v = -*v;
		return 1;
	}
	if (ub_sx_is(x, "INFINITY") || ub_sx_is(x, "inf")) {
		*v = INFINITY;
		return 1;
	}
	if (x->kind != UB_SX_NUM || strchr(x->text, '/'))
		return 0;
	*v = strtod(x->text, &end);
	return *end == '\0';
}

/* :pre: (and ...) of (<= LO x HI), (<= LO x), (<= x HI), >= alike. */
static int pre(const struct rp *c, const struct ub_sx *x, struct ub_rowop *op)
{
	if (x->kind == UB_SX_LIST && x->n >= 1 && ub_sx_is(&x->kids[0], "and")) {
		for (int i = 1; i < x->n; i++) {
			int st = pre(c, &x->kids[i], op);
			if (st)
				return st;
		}
		return 0;
	}
	int le = x->kind == UB_SX_LIST && x->n >= 3 && ub_sx_is(&x->kids[0], "<=");
	int ge = x->kind == UB_SX_LIST && x->n >= 3 && ub_sx_is(&x->kids[0], ">=");
	if (!le && !ge)
		return fail(c, x, "%s", ":pre of a row op: only bounds, (<= LO x HI), "
			    "(<= LO x), (>= x LO), joined by and");
	for (int i = 1; i < x->n; i++) {
		int k = sym(&x->kids[i]) ? ub_rowop_input(op, x->kids[i].text) : -1;
		if (k < 0)
			continue;
		double v;
		for (int j = 1; j < x->n; j++)
			if (j != i && !bound(&x->kids[j], &v))
				return fail(c, &x->kids[j], ":pre: '%s' is not a number "
					    "bounding an input", x->kids[j].text ?
					    x->kids[j].text : "a list");
		if (i > 1 && bound(&x->kids[i - 1], &v))
			*(le ? &op->in[k].lo : &op->in[k].hi) = v;
		if (i + 1 < x->n && bound(&x->kids[i + 1], &v))
			*(le ? &op->in[k].hi : &op->in[k].lo) = v;
		return 0;
	}
	return fail(c, x, "%s", ":pre: a bound names none of the inputs");
}

/* :integers ([ids 0 V] ...): integer inputs and their ranges [LO, HI). */
static int integers(const struct rp *c, const struct ub_sx *x, struct ub_rowop *op)
{
	for (int i = 0; x->kind == UB_SX_LIST && i < x->n; i++) {
		const struct ub_sx *b = &x->kids[i];
		int k = b->kind == UB_SX_LIST && b->n == 3 && sym(&b->kids[0])
			? ub_rowop_input(op, b->kids[0].text) : -1;
		char *end;
		if (k < 0 || b->kids[1].kind != UB_SX_NUM)
			return fail(c, b, "%s", ":integers: expected [INPUT LO HI], the "
				    "values LO <= v < HI (HI a number, a size or the columns)");
		struct ub_ro_in *in = &op->in[k];
		in->is_int = 1;
		in->ilo = strtoll(b->kids[1].text, &end, 10);
		int d = sym(&b->kids[2]) ? ub_rowop_dim(op, b->kids[2].text) : -1;
		in->ihi_size = d == 1 ? -2 : d >= 2 ? d - 2 : -1;
		if (b->kids[2].kind == UB_SX_NUM)
			in->ihi = strtoll(b->kids[2].text, &end, 10);
		else if (d != 1 && d < 2)
			return fail(c, &b->kids[2], ":integers: '%s' is not a number, a size "
				    "or the columns", b->kids[2].text);
		if (in->ihi_size == -1 && in->ihi <= in->ilo)
			return fail(c, b, ":integers: the range of '%s' is empty", in->name);
		if (in->ilo < -(1ll << 31) || (in->ihi_size == -1 && in->ihi > 1ll << 31))
			return fail(c, b, ":integers: '%s' must fit 32 bits", in->name);
		if (in->ext == UB_RO_TABLE)
			return fail(c, b, ":integers: '%s' is a table", in->name);
	}
	return x->kind == UB_SX_LIST ? 0 : fail(c, x, "%s", ":integers: expected a list");
}

/* :params ([lr 0.001] ...): each value held as dtype dt's arithmetic. */
static int params(const struct rp *c, const struct ub_sx *x, int dt,
		  const char *const *values, struct ub_rowop *op)
{
	if (x->kind != UB_SX_LIST || x->n > UB_RO_MAX_PARAMS)
		return fail(c, x, ":params: expected at most %s [NAME VALUE] pairs", "16");
	for (int i = 0; i < x->n; i++) {
		const struct ub_sx *b = &x->kids[i];
		if (b->kind != UB_SX_LIST || b->n != 2 || b->kids[1].kind != UB_SX_NUM ||
		    strchr(b->kids[1].text, '/'))
			return fail(c, b, "%s", ":params: expected [NAME NUMBER]");
		int st = fresh(c, op, &b->kids[0]), k = op->nparams;
		if (st)
			return st;
		const char *v = values && values[k] ? values[k] : b->kids[1].text;
		double d = strtod(v, NULL);
		char used[64];
		snprintf(used, sizeof used, "%a", dt == UB_F64 ? d : (double)(float)d);
		if (!(op->param_name[k] = strdup(b->kids[0].text)) ||
		    !(op->param_text[k] = strdup(v)) ||
		    !(op->param_used[k] = strdup(dt < 0 ? v : used)))
			return oom(c);
		op->nparams++;
	}
	return 0;
}

/* :input-docs ([x "text"] ...) */
static int docs(const struct rp *c, const struct ub_sx *x, struct ub_rowop *op)
{
	for (int i = 0; x->kind == UB_SX_LIST && i < x->n; i++) {
		const struct ub_sx *b = &x->kids[i];
		int k = b->kind == UB_SX_LIST && b->n == 2 && sym(&b->kids[0]) &&
			b->kids[1].kind == UB_SX_STR ? ub_rowop_input(op, b->kids[0].text) : -1;
		if (k < 0)
			return fail(c, b, "%s", ":input-docs: expected [INPUT \"text\"]");
		free(op->in[k].doc);
		if (!(op->in[k].doc = strdup(b->kids[1].text)))
			return oom(c);
	}
	return 0;
}

/* The shape of one output's expression, x: (tensor ([i R] [j C]) e),
 * (tensor ([i R]) e), a name let binds to one, or (elementwise) any. */
static int out_shape(const struct rp *c, const struct ub_rowop *op, const struct ub_sx *x,
		     const struct ub_sx *const *lets, int nlets, enum ub_ro_ext *e)
{
	if (op->elementwise) {
		*e = UB_RO_FULL;
		return 0;
	}
	for (int i = nlets - 1; sym(x) && i >= 0; i--)
		if (ub_sx_is(&lets[i]->kids[0], x->text))
			x = &lets[i]->kids[1];
	if (x->kind == UB_SX_LIST && x->n == 3 && ub_sx_is(&x->kids[0], "tensor") &&
	    x->kids[1].kind == UB_SX_LIST && x->kids[1].n >= 1 && x->kids[1].n <= 2) {
		const struct ub_sx *ix = &x->kids[1];
		int ok = 1;
		for (int d = 0; d < ix->n; d++)
			ok &= ix->kids[d].kind == UB_SX_LIST && ix->kids[d].n == 2 &&
			      sym(&ix->kids[d].kids[0]) && sym(&ix->kids[d].kids[1]) &&
			      ub_rowop_dim(op, ix->kids[d].kids[1].text) == d;
		if (ok) {
			*e = ix->n == 2 ? UB_RO_FULL : UB_RO_ROWS;
			return 0;
		}
	}
	return fail(c, x, "an output must be (tensor ([i %s] [j %s]) ...), (tensor "
		    "([i %s]) ...) or the name of one a let binds", op->rname, op->cname,
		    op->rname);
}

/* The outline of the body: lets around (array ...) or one output. */
static int outline(const struct rp *c, const struct ub_sx *names, struct ub_rowop *op)
{
	const struct ub_sx *lets[256], *b = op->body;
	int nlets = 0;
	while (b->kind == UB_SX_LIST && b->n == 3 && b->kids[1].kind == UB_SX_LIST &&
	       (ub_sx_is(&b->kids[0], "let") || ub_sx_is(&b->kids[0], "let*"))) {
		for (int i = 0; i < b->kids[1].n && nlets < 256; i++)
			if (b->kids[1].kids[i].kind == UB_SX_LIST && b->kids[1].kids[i].n == 2)
				lets[nlets++] = &b->kids[1].kids[i];
		b = &b->kids[2];
	}
	int arr = b->kind == UB_SX_LIST && b->n >= 1 && ub_sx_is(&b->kids[0], "array");
	op->nout = arr ? b->n - 1 : 1;
	if (op->nout < 1 || op->nout > UB_RO_MAX_OUT)
		return fail(c, b, "(array ...) of 1 to %s outputs", "6");
	if (names && (names->kind != UB_SX_LIST || names->n != op->nout))
		return fail(c, names, ":outputs: name each of the body's %s outputs",
			    arr ? "array's" : "one");
	for (int o = 0; o < op->nout; o++) {
		const struct ub_sx *nm = names ? &names->kids[o] : NULL;
		if (nm && !sym(nm))
			return fail(c, nm, "%s", ":outputs: expected names");
		for (int p = 0; nm && p < o; p++)
			if (!strcmp(op->out[p].name, nm->text))
				return fail(c, nm, ":outputs: '%s' appears twice", nm->text);
		if (nm && ub_rowop_input(op, nm->text) >= 0 && op->in[ub_rowop_input(op, nm->text)].is_int)
			return fail(c, nm, ":outputs: '%s' is an integer input", nm->text);
		if (!(op->out[o].name = strdup(nm ? nm->text : op->nout > 1 ? "" : "out")))
			return oom(c);
		if (!nm && op->nout > 1)
			return fail(c, b, "%s", "several outputs need their names: :outputs "
				    "(NAME ...)");
		op->outs[o] = arr ? &b->kids[o + 1] : b;
		int st = out_shape(c, op, op->outs[o], lets, nlets, &op->out[o].ext);
		if (st)
			return st;
	}
	return 0;
}

/* The properties a row op reads; others (:description, :cite, ...) are
 * read past.  :precision, :spec, :kernel and the like are refused. */
static int props(const struct rp *c, const struct ub_sx *f, int i, int dt,
		 const char *const *values, struct ub_rowop *op)
{
	const struct ub_sx *p[8] = {0};
	static const char *const keys[8] = {":sizes", ":params", ":pre", ":integers",
		":outputs", ":input-docs", ":torch", ":name"};
	static const char *const refused[] = {":spec", ":kernel", ":entry", ":args",
		":saved", ":saved-math", ":kernel-expr", ":torch-rounding", ":precision",
		NULL};
	for (; i + 1 < f->n && f->kids[i].kind == UB_SX_KEY; i += 2) {
		for (int k = 0; refused[k]; k++)
			if (!strcmp(f->kids[i].text, refused[k]))
				return fail(c, &f->kids[i], "%s is not read for a row op "
					    "(docs/rowops.md)", refused[k]);
		for (int k = 0; k < 8; k++)
			if (!strcmp(f->kids[i].text, keys[k]))
				p[k] = &f->kids[i + 1];
	}
	if (i != f->n - 1)
		return fail(c, i < f->n ? &f->kids[i] : f, "%s", "expected the body last, "
			    "after the properties");
	op->body = &f->kids[i];
	int st = p[0] ? sizes(c, p[0], op) : 0;
	const struct ub_sx *args = &f->kids[2];
	for (int a = 0; !st && a < args->n; a++)
		op->elementwise |= a == 0 && args->kids[a].kind != UB_SX_LIST;
	if (!st)
		st = dim_names(c, args, op);
	for (int a = 0; !st && a < args->n; a++)
		st = argument(c, &args->kids[a], op);
	if (!st && !op->nin)
		st = fail(c, args, "%s", "a row op takes at least one argument");
	if (!st && p[1])
		st = params(c, p[1], dt, values, op);
	if (!st && p[2])
		st = pre(c, p[2], op);
	if (!st && p[3])
		st = integers(c, p[3], op);
	if (!st && p[5])
		st = docs(c, p[5], op);
	if (!st && p[7] && p[7]->kind == UB_SX_STR && !(op->desc = strdup(p[7]->text)))
		st = oom(c);
	if (!st)
		st = outline(c, p[4], op);
	op->torch_sx = p[6];
	return st;
}

int ub_rowop_parse(const char *text, const char *file, int dt,
		   const char *const *values, size_t rows, size_t cols,
		   struct ub_rowop *op, struct ub_error *err)
{
	struct rp c = {file, err};
	memset(op, 0, sizeof *op);
	op->rows = rows ? (long long)rows : 1;
	op->cols = cols ? (long long)cols : 1;
	for (int o = 0; o < UB_RO_MAX_OUT; o++)
		op->out_value[o] = -1;
	int st = ub_sx_read(text, file, &op->top, err);
	if (st)
		return st;
	const struct ub_sx *f = op->top.n == 1 ? &op->top.kids[0] : NULL;
	if (!f || f->kind != UB_SX_LIST || f->n < 4 || !ub_sx_is(&f->kids[0], "FPCore") ||
	    !sym(&f->kids[1]) || f->kids[2].kind != UB_SX_LIST)
		return f ? fail(&c, f, "%s", "an op over rows or of several outputs is "
				"(FPCore NAME (ARGS...) PROPS... BODY), named (docs/rowops.md)")
			 : ub_fail(err, UB_USAGE, "%s: not one FPCore form", file);
	op->form = f;
	op->line = f->line;
	if (!(op->name = strdup(f->kids[1].text)) || !(op->file = strdup(file)) ||
	    !(op->text = strdup(text)))
		return oom(&c);
	st = props(&c, f, 3, dt, values, op);
	if (!st && op->torch_sx)
		st = ub_rowop_torch(op, err);
	return st;
}

void ub_rowop_free(struct ub_rowop *op)
{
	free(op->name);
	free(op->desc);
	free(op->file);
	free(op->text);
	free(op->rname);
	free(op->cname);
	for (int k = 0; k < op->nsizes; k++)
		free(op->size_name[k]);
	for (int k = 0; k < op->nin; k++) {
		free(op->in[k].name);
		free(op->in[k].doc);
	}
	for (int o = 0; o < op->nout; o++)
		free(op->out[o].name);
	for (int k = 0; k < op->nparams; k++) {
		free(op->param_name[k]);
		free(op->param_text[k]);
		free(op->param_used[k]);
	}
	for (int k = 0; k < op->nsteps; k++)
		ub_expr_free(op->steps[k].e);
	ub_sx_free(&op->top);
	memset(op, 0, sizeof *op);
}

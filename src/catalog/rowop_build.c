/* rowop_build.c — a row op's exact math for one row, unrolled into scalar
 * expressions (rowop.h).
 *
 * Every element of an input that the row's math reads is a variable of
 * the row (its value: the element's encoding); an integer input's element
 * is a number, and an index where it indexes.  A (for ...) over n indices
 * becomes n copies of its update (rowop_loop.c), chained as FPCore says (for: the
 * accumulators updated together; for*: in turn); a lone accumulator that
 * adds (+ acc e), or takes fmax or fmin, becomes a balanced tree of its n
 * terms and its initial value instead, the same real number (+, max and
 * min of reals are associative) nested log2(n) deep rather than n, so
 * that rows of many columns stay within dag.h's depth.  A tensor that let
 * binds is built element by element as ref reads it.
 *
 * Sharing: a form is built once per row for each value of the names it
 * reads (an index, a let binding, an accumulator), kept in a table until
 * the row ends, so that a row sum that every element of the row reads is
 * one node, not cols copies.  Every node the row built stays referenced
 * until then, so that a node's address names it. */
#include "rowop.h"

#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rowop_internal.h"

int ub_ro_fail(struct ub_ro_row *rb, const struct ub_sx *x, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	return ub_sx_fail(rb->err, rb->op->file, x->line, x->col, "%s", buf);
}

int ub_ro_oom(struct ub_ro_row *rb)
{
	return ub_fail(rb->err, UB_RUNTIME, "out of memory");
}

/* Keeps a reference to e until the row ends. */
int ub_ro_keep(struct ub_ro_row *rb, struct ub_expr *e)
{
	if (rb->nkeep == rb->kcap) {
		int cap = rb->kcap ? 2 * rb->kcap : 256;
		struct ub_expr **k = realloc(rb->keep, (size_t)cap * sizeof *k);
		if (!k)
			return ub_ro_oom(rb);
		rb->keep = k;
		rb->kcap = cap;
	}
	rb->keep[rb->nkeep++] = ub_expr_ref(e);
	return 0;
}

static struct ub_expr *number(long long v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", v);
	return ub_expr_new_num(buf);
}

static int grow_hash(struct ub_ro_row *rb)
{
	size_t cap = rb->hcap ? 2 * rb->hcap : 1024;
	long long *key = calloc(cap, sizeof *key);
	int *var = calloc(cap, sizeof *var);
	if (!key || !var) {
		free(key);
		free(var);
		return ub_ro_oom(rb);
	}
	for (size_t i = 0; i < rb->hcap; i++) {
		if (!rb->hkey[i])
			continue;
		size_t h = (size_t)rb->hkey[i] * 0x9e3779b97f4a7c15ull & (cap - 1);
		while (key[h])
			h = (h + 1) & (cap - 1);
		key[h] = rb->hkey[i];
		var[h] = rb->hvar[i];
	}
	free(rb->hkey);
	free(rb->hvar);
	rb->hkey = key;
	rb->hvar = var;
	rb->hcap = cap;
	return 0;
}

/* The variable holding element i of input k (a new reference). */
static int variable(struct ub_ro_row *rb, int k, size_t i, struct ub_expr **out)
{
	long long key = ((long long)k << 40) + (long long)i + 1;
	if (2 * (size_t)(rb->nvar + 1) > rb->hcap && grow_hash(rb))
		return UB_RUNTIME;
	size_t h = (size_t)key * 0x9e3779b97f4a7c15ull & (rb->hcap - 1);
	while (rb->hkey[h] && rb->hkey[h] != key)
		h = (h + 1) & (rb->hcap - 1);
	if (rb->hkey[h]) {
		*out = ub_expr_ref(rb->vnode[rb->hvar[h]]);
		return 0;
	}
	if (rb->nvar == rb->vcap) {
		int cap = rb->vcap ? 2 * rb->vcap : 256;
		uint64_t *v = realloc(rb->val, (size_t)cap * sizeof *v);
		struct ub_expr **n = v ? realloc(rb->vnode, (size_t)cap * sizeof *n) : NULL;
		if (v)
			rb->val = v;
		if (!n)
			return ub_ro_oom(rb);
		rb->vnode = n;
		rb->vcap = cap;
	}
	if (!(rb->vnode[rb->nvar] = ub_expr_new_var(rb->nvar)))
		return ub_ro_oom(rb);
	rb->val[rb->nvar] = rb->d->get(rb->d->ctx, k, i);
	rb->hkey[h] = key;
	rb->hvar[h] = rb->nvar;
	*out = ub_expr_ref(rb->vnode[rb->nvar++]);
	return 0;
}

static const struct env *find(const struct env *e, const char *name)
{
	for (; e; e = e->up)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

/* Whether symbol name appears anywhere in x. */
int ub_ro_appears(const struct ub_sx *x, const char *name)
{
	if (x->kind == UB_SX_SYM)
		return !strcmp(x->text, name);
	for (int i = 0; x->kind == UB_SX_LIST && i < x->n; i++)
		if (ub_ro_appears(&x->kids[i], name))
			return 1;
	return 0;
}

/* x's memo key in env: what each name x reads stands for (an
 * elementwise op's hidden indices " i", " j": always, as its inputs'
 * names read them). */
static int memo_key(const struct ub_sx *x, const struct env *env, uintptr_t *key)
{
	int n = 0;
	for (const struct env *e = env; e; e = e->up) {
		if (find(env, e->name) != e || (e->name[0] != ' ' && !ub_ro_appears(x, e->name)))
			continue;   /* shadowed, or not read */
		if (n == 8)
			return -1;
		key[n++] = e->kind == B_INDEX ? (uintptr_t)e->ix * 4 + 1 :
			   e->kind == B_SCALAR ? (uintptr_t)e->e : (uintptr_t)e->tx;
	}
	return n;
}

static struct memo *memo_find(struct ub_ro_row *rb, const struct ub_sx *x, int nk,
			      const uintptr_t *key)
{
	for (int i = rb->nmemo - 1; i >= 0; i--)
		if (rb->memo[i].x == x && rb->memo[i].nk == nk &&
		    !memcmp(rb->memo[i].key, key, (size_t)nk * sizeof *key))
			return &rb->memo[i];
	return NULL;
}


/* make() (build() or a loop's), once per row for each value of what x
 * reads. */
int ub_ro_shared_by(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
		    struct ub_expr **out, ub_ro_maker make)
{
	uintptr_t key[8];
	int nk = memo_key(x, env, key);
	struct memo *m = nk >= 0 ? memo_find(rb, x, nk, key) : NULL;
	if (m) {
		*out = ub_expr_ref(m->e);
		return 0;
	}
	int st = make(rb, x, env, out);
	if (st || nk < 0)
		return st;
	if (rb->nmemo == rb->mcap) {
		int cap = rb->mcap ? 2 * rb->mcap : 64;
		struct memo *mm = realloc(rb->memo, (size_t)cap * sizeof *mm);
		if (!mm)
			return ub_ro_oom(rb);
		rb->memo = mm;
		rb->mcap = cap;
	}
	m = &rb->memo[rb->nmemo++];
	*m = (struct memo){x, nk, {0}, ub_expr_ref(*out)};
	memcpy(m->key, key, (size_t)nk * sizeof *key);
	return 0;
}

static int shared(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
		  struct ub_expr **out)
{
	return ub_ro_shared_by(rb, x, env, out, ub_ro_build);
}

/* The count a size name or number stands for. */
int ub_ro_extent(struct ub_ro_row *rb, const struct ub_sx *x, long long *n)
{
	int d = x->kind == UB_SX_SYM ? ub_rowop_dim(rb->op, x->text) : -1;
	if (d >= 0) {
		*n = d == 0 ? (long long)rb->d->rows : d == 1 ? (long long)rb->d->cols
		     : rb->op->size_val[d - 2];
		return 0;
	}
	if (x->kind == UB_SX_NUM && sscanf(x->text, "%lld", n) == 1 && *n >= 0)
		return 0;
	return ub_ro_fail(rb, x, "expected a size (%s, a :sizes name or a number)", rb->op->cname);
}

static int index_of(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
		    long long *v);

/* The flat element of input k at indices idx[0..n-1], checked. */
static int element(struct ub_ro_row *rb, const struct ub_sx *x, int k, const long long *idx,
		   int n, size_t *flat)
{
	const struct ub_ro_in *a = &rb->op->in[k];
	long long R = (long long)rb->d->rows, C = (long long)rb->d->cols;
	long long lim[2] = {a->ext == UB_RO_TABLE ? rb->op->size_val[a->table] :
			    a->ext == UB_RO_COLS ? C : R, C};
	int want = a->ext == UB_RO_FULL || a->ext == UB_RO_TABLE ? 2 : 1;
	if (n != want)
		return ub_ro_fail(rb, x, "(ref %s ...) takes %s", a->name, want == 2 ? "two indices"
			    : "one index");
	for (int d = 0; d < n; d++)
		if (idx[d] < 0 || idx[d] >= lim[d]) {
			char buf[160];
			snprintf(buf, sizeof buf, "index %lld of %s is outside [0, %lld) "
				 "(row %zu)", idx[d], a->name, lim[d], rb->r);
			return ub_ro_fail(rb, x, "%s", buf);
		}
	*flat = n == 2 ? (size_t)(idx[0] * C + idx[1]) : (size_t)idx[0];
	return 0;
}

/* (ref T i ...): an input's element, an integer, or a bound tensor's. */
static int ref(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
	       int as_index, long long *iv, struct ub_expr **out)
{
	long long idx[4];
	int n = x->n - 2, st = 0;
	if (n < 1 || n > 2 || x->kids[1].kind != UB_SX_SYM)
		return ub_ro_fail(rb, x, "%s", "expected (ref TENSOR INDEX ...)");
	for (int d = 0; d < n && !st; d++)
		st = index_of(rb, &x->kids[d + 2], env, &idx[d]);
	if (st)
		return st;
	const char *name = x->kids[1].text;
	const struct env *b = find(env, name);
	if (b && b->kind == B_TENSOR) {
		const struct ub_sx *ix = &b->tx->kids[1];
		if (ix->n != n)
			return ub_ro_fail(rb, x, "(ref %s ...): the tensor has another number of "
				    "indices", name);
		struct env e[2];
		const struct env *up = b->tenv;
		for (int d = 0; d < n; d++) {
			e[d] = (struct env){ix->kids[d].kids[0].text, B_INDEX, idx[d], NULL,
					    NULL, NULL, up};
			up = &e[d];
		}
		if (as_index)
			return ub_ro_fail(rb, x, "%s", "an index must be an integer input's element");
		return shared(rb, &b->tx->kids[2], up, out);
	}
	int k = b ? -1 : ub_rowop_input(rb->op, name);
	size_t flat = 0;
	if (k < 0)
		return ub_ro_fail(rb, x, "(ref %s ...): not an input or a tensor that let binds", name);
	if ((st = element(rb, x, k, idx, n, &flat)))
		return st;
	if (rb->op->in[k].is_int) {
		long long v = (long long)(int64_t)rb->d->get(rb->d->ctx, k, flat);
		if (as_index)
			return *iv = v, 0;
		return (*out = number(v)) ? 0 : ub_ro_oom(rb);
	}
	if (as_index)
		return ub_ro_fail(rb, x, "'%s' is not an integer input: it cannot be an index", name);
	return variable(rb, k, flat, out);
}

/* An index: a number, an index name, (ref INT ...), (+ a b), (- a b). */
static int index_of(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
		    long long *v)
{
	const struct env *b = x->kind == UB_SX_SYM ? find(env, x->text) : NULL;
	if (b && b->kind == B_INDEX)
		return *v = b->ix, 0;
	if (x->kind == UB_SX_NUM && sscanf(x->text, "%lld", v) == 1 && strspn(x->text, "-0123456789") == strlen(x->text))
		return 0;
	if (x->kind == UB_SX_LIST && x->n >= 3 && ub_sx_is(&x->kids[0], "ref"))
		return ref(rb, x, env, 1, v, NULL);
	if (x->kind == UB_SX_LIST && x->n == 3 &&
	    (ub_sx_is(&x->kids[0], "+") || ub_sx_is(&x->kids[0], "-"))) {
		long long a, c;
		int st = index_of(rb, &x->kids[1], env, &a);
		if (!st)
			st = index_of(rb, &x->kids[2], env, &c);
		*v = x->kids[0].text[0] == '+' ? a + c : a - c;
		return st;
	}
	return ub_ro_fail(rb, x, "%s", "an index is an index name, a whole number, (ref "
		    "INTEGERS ...), or + or - of them");
}

/* The names of (let ...) or (let* ...) x bound after env into e[] (64 at
 * most), *up the innermost: a (tensor ...) value binds a tensor (only
 * where no index is in scope: its elements are shared by the tensor's
 * form), a name of one another name for it. */
static int bind_lets(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
		     struct env *e, const struct env **up)
{
	const struct ub_sx *bs = &x->kids[1];
	int seq = ub_sx_is(&x->kids[0], "let*"), st = 0;
	if (bs->kind != UB_SX_LIST || bs->n > 64)
		return ub_ro_fail(rb, x, "%s", "let: expected ([NAME EXPR] ...), at most 64");
	*up = env;
	for (int i = 0; i < bs->n && !st; i++) {
		const struct ub_sx *b = &bs->kids[i];
		if (b->kind != UB_SX_LIST || b->n != 2 || b->kids[0].kind != UB_SX_SYM)
			return ub_ro_fail(rb, b, "%s", "let: a binding is [NAME EXPR]");
		const struct env *in = seq ? *up : env;
		const struct ub_sx *v = &b->kids[1];
		const struct env *t = v->kind == UB_SX_SYM ? find(in, v->text) : NULL;
		e[i] = (struct env){b->kids[0].text, B_TENSOR, 0, NULL, v, in, *up};
		if (t && t->kind == B_TENSOR) {
			e[i].tx = t->tx;
			e[i].tenv = t->tenv;
		} else if (v->kind == UB_SX_LIST && v->n == 3 && ub_sx_is(&v->kids[0], "tensor")) {
			for (const struct env *s = in; s; s = s->up)
				if (s->kind == B_INDEX)
					return ub_ro_fail(rb, v, "%s", "a tensor is bound at the top of "
						    "the body, outside every index");
			const struct ub_sx *ix = &v->kids[1];
			for (int d = 0; d < ix->n && ix->kind == UB_SX_LIST; d++)
				if (ix->kids[d].kind != UB_SX_LIST || ix->kids[d].n != 2 ||
				    ix->kids[d].kids[0].kind != UB_SX_SYM || d > 1)
					return ub_ro_fail(rb, v, "%s", "expected (tensor ([i SIZE] ...) EXPR)");
		} else {
			e[i].kind = B_SCALAR;
			st = shared(rb, v, in, &e[i].e);
			if (!st)
				st = ub_ro_keep(rb, e[i].e);
			ub_expr_free(e[i].e);
		}
		*up = &e[i];
	}
	return st;
}

static int let(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
	       struct ub_expr **out)
{
	struct env e[64];
	const struct env *up;
	int st = bind_lets(rb, x, env, e, &up);
	return st ? st : ub_ro_build(rb, &x->kids[2], up, out);
}

/* A name as a value: a let binding, an index, a size, a param, a
 * constant, or (elementwise) an input's element of the output's place. */
static int name(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
		struct ub_expr **out)
{
	const struct ub_rowop *op = rb->op;
	const struct env *b = find(env, x->text);
	int p = ub_rowop_param(op, x->text), d = ub_rowop_dim(op, x->text), k;
	double c;
	if (b && b->kind == B_SCALAR)
		return *out = ub_expr_ref(b->e), 0;
	if (b && b->kind == B_INDEX)
		return (*out = number(b->ix)) ? 0 : ub_ro_oom(rb);
	if (b)
		return ub_ro_fail(rb, x, "'%s' is a tensor: read it with (ref ...)", x->text);
	if (p >= 0 || ub_expr_const(x->text, &c))
		return (*out = ub_expr_new_num(p >= 0 ? op->param_used[p] : x->text)) ? 0 : ub_ro_oom(rb);
	if (d >= 0) {
		long long n;
		ub_ro_extent(rb, x, &n);
		return (*out = number(n)) ? 0 : ub_ro_oom(rb);
	}
	if ((k = ub_rowop_input(op, x->text)) >= 0 && op->elementwise) {
		const struct env *i = find(env, " i"), *j = find(env, " j");
		size_t flat = (size_t)(i->ix * (long long)rb->d->cols + j->ix);
		if (op->in[k].is_int)
			return (*out = number((long long)(int64_t)rb->d->get(rb->d->ctx, k, flat)))
			       ? 0 : ub_ro_oom(rb);
		return variable(rb, k, flat, out);
	}
	if (k >= 0)
		return ub_ro_fail(rb, x, "'%s' is a tensor: read it with (ref ...)", x->text);
	return ub_ro_fail(rb, x, "unknown name '%s'", x->text);
}

int ub_ro_build(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
		struct ub_expr **out)
{
	*out = NULL;
	if (x->kind == UB_SX_NUM)
		return (*out = ub_expr_new_num(x->text)) ? 0 : ub_ro_oom(rb);
	if (x->kind == UB_SX_SYM)
		return name(rb, x, env, out);
	if (x->kind != UB_SX_LIST || x->n < 1 || x->kids[0].kind != UB_SX_SYM)
		return ub_ro_fail(rb, x, "%s", "expected a number, a name or (OP ARGS...)");
	const char *h = x->kids[0].text;
	if ((!strcmp(h, "let") || !strcmp(h, "let*")) && x->n == 3)
		return let(rb, x, env, out);
	if (!strcmp(h, "ref"))
		return ref(rb, x, env, 0, NULL, out);
	if ((!strcmp(h, "for") || !strcmp(h, "for*")) && x->n == 4)
		return ub_ro_shared_by(rb, x, env, out, ub_ro_loop);
	if (!strcmp(h, "tensor") || !strcmp(h, "array") || !strcmp(h, "!") ||
	    !strcmp(h, "tensor*") || !strcmp(h, "dim") || !strcmp(h, "size") ||
	    !strcmp(h, "while") || !strcmp(h, "while*") || !strcmp(h, "cast") ||
	    !strcmp(h, "digits"))
		return ub_ro_fail(rb, x, "'%s' is not read here (a row op's math: docs/rowops.md)", h);
	int n = x->n - 1, st = 0;
	struct ub_expr *a[64] = {0};
	if (n > 64)
		return ub_ro_fail(rb, x, "%s", "more than 64 arguments");
	for (int i = 0; i < n && !st; i++)
		st = ub_ro_build(rb, &x->kids[i + 1], env, &a[i]);
	if (st) {
		for (int i = 0; i < n; i++)
			ub_expr_free(a[i]);
		return st;
	}
	return ub_rowop_apply(rb->op->file, x, a, n, out, rb->err);
}

int ub_ro_row_begin(const struct ub_rowop *op, const struct ub_ro_data *d, size_t r,
		    struct ub_ro_row **rbp, struct ub_error *err)
{
	struct ub_ro_row *rb = calloc(1, sizeof *rb);
	*rbp = rb;
	if (!rb)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	*rb = (struct ub_ro_row){.op = op, .d = d, .r = r, .err = err};
	return grow_hash(rb);
}

/* The body's lets down to output o's expression, which is built at the
 * place (r, j). */
static int top(struct ub_ro_row *rb, const struct ub_sx *x, int o, size_t j,
	       const struct env *env, struct ub_expr **out)
{
	const struct ub_rowop *op = rb->op;
	if (x != op->outs[o] && x->kind == UB_SX_LIST && x->n == 3 &&
	    (ub_sx_is(&x->kids[0], "let") || ub_sx_is(&x->kids[0], "let*"))) {
		struct env e[64];
		const struct env *up;
		int st = bind_lets(rb, x, env, e, &up);
		return st ? st : top(rb, &x->kids[2], o, j, up, out);
	}
	const struct ub_sx *e = op->outs[o];
	const struct env *b = e->kind == UB_SX_SYM ? find(env, e->text) : NULL;
	long long idx[2] = {(long long)rb->r, (long long)j};
	struct env ix[2];
	if (op->elementwise)   /* the indices are in env already */
		return shared(rb, e, env, out);
	if (b && b->kind != B_TENSOR)
		return ub_ro_fail(rb, e, "output '%s' must be a tensor", op->out[o].name);
	const struct ub_sx *t = b ? b->tx : e;
	const struct env *up = b ? b->tenv : env;
	const struct ub_sx *is = &t->kids[1];
	for (int d = 0; d < is->n; d++) {
		ix[d] = (struct env){is->kids[d].kids[0].text, B_INDEX, idx[d], NULL, NULL,
				     NULL, up};
		up = &ix[d];
	}
	return shared(rb, &t->kids[2], up, out);
}

int ub_ro_row_elem(struct ub_ro_row *rb, int o, size_t j, struct ub_expr **e,
		   struct ub_error *err)
{
	struct env ix[2] = {
		{" i", B_INDEX, (long long)rb->r, NULL, NULL, NULL, NULL},
		{" j", B_INDEX, (long long)j, NULL, NULL, NULL, &ix[0]}};
	rb->err = err;
	return top(rb, rb->op->body, o, j, rb->op->elementwise ? &ix[1] : NULL, e);
}

int ub_ro_row_input(struct ub_ro_row *rb, int k, size_t i, struct ub_expr **e)
{
	return variable(rb, k, i, e);
}

const uint64_t *ub_ro_row_vars(const struct ub_ro_row *rb, int *n)
{
	*n = rb->nvar;
	return rb->val;
}

void ub_ro_row_end(struct ub_ro_row *rb)
{
	if (!rb)
		return;
	for (int i = 0; i < rb->nmemo; i++)
		ub_expr_free(rb->memo[i].e);
	for (int i = 0; i < rb->nkeep; i++)
		ub_expr_free(rb->keep[i]);
	for (int i = 0; i < rb->nvar; i++)
		ub_expr_free(rb->vnode[i]);
	free(rb->memo);
	free(rb->keep);
	free(rb->val);
	free(rb->vnode);
	free(rb->hkey);
	free(rb->hvar);
	free(rb);
}

/* dag.c — the distinct nodes of an expression in argument-first order
 * (dag.h), and the demand-driven walk over them.  Both keep their own
 * stacks on the heap: an expression's depth never touches the call stack.
 *
 * Building: a depth-first walk from the root with an explicit stack of
 * (node, next argument); a node gets its number when its last argument is
 * numbered, and a pointer-keyed hash table (open addressing) says whether
 * a node met again through another parent already has one.  A node is on
 * the stack at most once at a time (it would otherwise be its own
 * argument's argument: expressions are acyclic), so the stack never holds
 * more than the number of distinct nodes.
 *
 * Walking: the same explicit stack of pending nodes; a loop walks its
 * parts from the top of that stack (a nested call per loop nesting level,
 * which the depth bound keeps shallow).  What the stack holds at any time
 * is a chain of nodes each waiting on the next, all distinct for the same
 * reason, so its capacity is the number of nodes. */
#include "dag.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct map {
	size_t cap;                 /* a power of two, or 0 */
	const struct ub_expr **key;
	int *val;
};

static size_t slot_of(const struct map *m, const struct ub_expr *e)
{
	uintptr_t h = (uintptr_t)e >> 4;
	size_t i = (size_t)(h * UINT64_C(0x9e3779b97f4a7c15) >> 17) & (m->cap - 1);
	while (m->key[i] && m->key[i] != e)
		i = (i + 1) & (m->cap - 1);
	return i;
}

/* The number of e, or -1. */
static int lookup(const struct map *m, const struct ub_expr *e)
{
	if (!m->cap)
		return -1;
	size_t i = slot_of(m, e);
	return m->key[i] ? m->val[i] : -1;
}

/* Inserts e -> v, keeping the table at most half full; 0 or -1 (ENOMEM). */
static int insert(struct map *m, const struct ub_expr *e, int v, int count)
{
	if ((size_t)count * 2 >= m->cap) {
		struct map g = {m->cap ? m->cap * 2 : 64, NULL, NULL};
		g.key = calloc(g.cap, sizeof *g.key);
		g.val = malloc(g.cap * sizeof *g.val);
		if (!g.key || !g.val) {
			free(g.key);
			free(g.val);
			return -1;
		}
		for (size_t i = 0; i < m->cap; i++)
			if (m->key[i]) {
				size_t j = slot_of(&g, m->key[i]);
				g.key[j] = m->key[i];
				g.val[j] = m->val[i];
			}
		free(m->key);
		free(m->val);
		*m = g;
	}
	size_t i = slot_of(m, e);
	m->key[i] = e;
	m->val[i] = v;
	return 0;
}

void ub_dag_free(struct ub_dag *d)
{
	if (!d)
		return;
	void *k = atomic_load_explicit(&d->kept, memory_order_acquire);
	if (k && d->free_kept)
		d->free_kept(k);
	free(d->node);
	free(d->first);
	free(d->arg);
	free(d->uses);
	free(d->dep_first);
	free(d->dep);
	free(d);
}

struct frame {
	const struct ub_expr *e;
	int k;                      /* next argument to visit */
};

static int push_node(struct ub_dag *d, int *cap, const struct ub_expr *e)
{
	if (d->n == *cap) {
		int nc = *cap ? *cap * 2 : 16;
		const struct ub_expr **nn = realloc(d->node, (size_t)nc * sizeof *nn);
		if (!nn)
			return -1;
		d->node = nn;
		*cap = nc;
	}
	d->node[d->n++] = e;
	return 0;
}

/* d->node in argument-first order; 0 or -1 (ENOMEM). */
static int order(struct ub_dag *d, struct map *m, const struct ub_expr *root)
{
	int cap = 0, top = 0, scap = 16, st = 0;
	struct frame *stack = malloc((size_t)scap * sizeof *stack);
	if (!stack)
		return -1;
	stack[top++] = (struct frame){root, 0};
	while (top && !st) {
		struct frame *f = &stack[top - 1];
		const struct ub_expr *e = f->e;
		if (e->kind == UB_E_OP && f->k < e->nargs) {
			const struct ub_expr *a = e->args[f->k++];
			if (lookup(m, a) >= 0)
				continue;
			if (top == scap) {
				struct frame *ns = realloc(stack, (size_t)scap * 2 * sizeof *ns);
				if (!ns) {
					st = -1;
					break;
				}
				stack = ns;
				scap *= 2;
			}
			stack[top++] = (struct frame){a, 0};
			continue;
		}
		st = insert(m, e, d->n, d->n) || push_node(d, &cap, e) ? -1 : 0;
		top--;
	}
	free(stack);
	return st;
}

/* first, arg and uses from the numbering in m. */
static int link(struct ub_dag *d, const struct map *m)
{
	int total = 0;
	d->first = malloc((size_t)d->n * sizeof *d->first);
	d->uses = calloc((size_t)d->n, sizeof *d->uses);
	for (int i = 0; d->first && i < d->n; i++) {
		d->first[i] = total;
		total += d->node[i]->kind == UB_E_OP ? d->node[i]->nargs : 0;
	}
	d->arg = malloc((size_t)(total ? total : 1) * sizeof *d->arg);
	if (!d->first || !d->uses || !d->arg)
		return -1;
	for (int i = 0; i < d->n; i++)
		for (int k = 0; d->node[i]->kind == UB_E_OP && k < d->node[i]->nargs; k++) {
			int a = lookup(m, d->node[i]->args[k]);
			d->arg[d->first[i] + k] = a;
			d->uses[a]++;
		}
	return 0;
}

static int is_loop(const struct ub_expr *e)
{
	return e->kind == UB_E_OP && (e->op == UB_WHILE || e->op == UB_WHILES);
}

/* For each loop, the nodes that depend on its variables: a forward pass
 * over the argument-first order marks them (a node depends when an
 * argument is one of the variables or depends); one pass per loop. */
static int dependents(struct ub_dag *d)
{
	int total = 0, loops = 0;
	unsigned char *mark = calloc((size_t)d->n + 1, 1);
	d->dep_first = calloc((size_t)d->n + 1, sizeof *d->dep_first);
	if (!mark || !d->dep_first) {
		free(mark);
		return -1;
	}
	for (int pass = 0; pass < 2; pass++) {
		total = 0;
		for (int w = 0; w < d->n; w++) {
			d->dep_first[w] = total;
			if (!is_loop(d->node[w]))
				continue;
			loops++;
			int n = ub_loop_nvars(d->node[w]->op, d->node[w]->nargs);
			memset(mark, 0, (size_t)d->n);
			for (int k = 0; k < n; k++)
				mark[ub_dag_arg(d, w, UB_LOOP_VAR(n, k))] = 2; /* a variable */
			for (int i = 0; i < w; i++) {
				const struct ub_expr *e = d->node[i];
				for (int k = 0; e->kind == UB_E_OP && !mark[i] && k < e->nargs; k++)
					if (mark[ub_dag_arg(d, i, k)])
						mark[i] = 1;
				if (mark[i] == 1 && pass)
					d->dep[total] = i;
				total += mark[i] == 1;
			}
		}
		d->dep_first[d->n] = total;
		if (!pass && !(d->dep = malloc((size_t)(total ? total : 1) * sizeof *d->dep))) {
			free(mark);
			return -1;
		}
	}
	free(mark);
	return 0;
}

static struct ub_dag *build(const struct ub_expr *root)
{
	struct ub_dag *d = calloc(1, sizeof *d);
	struct map m = {0, NULL, NULL};
	if (d && (order(d, &m, root) || link(d, &m) || dependents(d))) {
		ub_dag_free(d);
		d = NULL;
	}
	free(m.key);
	free(m.val);
	return d;
}

void *ub_dag_keep(const struct ub_dag *d, void *k, void (*free_k)(void *))
{
	struct ub_dag *w = (struct ub_dag *)d; /* a cache, not the dag */
	void *none = NULL;
	w->free_kept = free_k;   /* one function per kind of object: the same */
	if (atomic_compare_exchange_strong_explicit(&w->kept, &none, k,
						    memory_order_acq_rel,
						    memory_order_acquire))
		return k;
	free_k(k);   /* another thread kept its own first */
	return none;
}

int ub_expr_dag(const struct ub_expr *e, const struct ub_dag **out,
		struct ub_error *err)
{
	struct ub_expr *w = (struct ub_expr *)e; /* the cache, not the value */
	struct ub_dag *d = atomic_load_explicit(&w->dag, memory_order_acquire);
	if ((*out = d) != NULL)
		return 0;
	if (e->depth > UB_EXPR_MAX_DEPTH)
		return ub_fail(err, UB_USAGE, "expression nested deeper than %d",
			       UB_EXPR_MAX_DEPTH);
	if (!(d = build(e)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	struct ub_dag *none = NULL;
	if (!atomic_compare_exchange_strong_explicit(&w->dag, &none, d,
						     memory_order_acq_rel,
						     memory_order_acquire)) {
		ub_dag_free(d); /* another thread built it first */
		d = none;
	}
	*out = d;
	return 0;
}

void ub_walk_free(struct ub_walk *w)
{
	free(w->stack);
	free(w->done);
	free(w->chosen);
	free(w->branch);
	memset(w, 0, sizeof *w);
}

static int walk_grow(struct ub_walk *w, int n)
{
	if (n <= w->cap)
		return 0;
	struct ub_walk g = {n, 0, malloc((size_t)n * sizeof *g.stack),
			    calloc((size_t)n, sizeof *g.done),
			    calloc((size_t)n, sizeof *g.chosen),
			    calloc((size_t)n, 1), 0};
	if (!g.stack || !g.done || !g.chosen || !g.branch) {
		ub_walk_free(&g);
		return UB_RUNTIME;
	}
	ub_walk_free(w);
	*w = g;
	return 0;
}

/* The next node that i waits for, or -1 when i can be applied; for an if
 * whose condition is done, *branch is the one chosen (test asked once). */
static int pending(const struct ub_dag *d, struct ub_walk *w, int i,
		   const struct ub_walk_fns *f, void *ctx, int *branch, int *st)
{
	const struct ub_expr *e = d->node[i];
	unsigned s = w->stamp;
	if (e->kind != UB_E_OP)
		return -1;
	if (e->op != UB_IF) {
		for (int k = 0; k < e->nargs; k++)
			if (w->done[ub_dag_arg(d, i, k)] != s)
				return ub_dag_arg(d, i, k);
		return -1;
	}
	int c = ub_dag_arg(d, i, 0);
	if (w->done[c] != s)
		return c;
	if (w->chosen[i] != s) {
		int truth = 0;
		if ((*st = f->test(ctx, c, &truth)) != 0)
			return -1;
		w->branch[i] = (unsigned char)(truth ? 1 : 2);
		w->chosen[i] = s;
	}
	*branch = w->branch[i];
	int a = ub_dag_arg(d, i, *branch);
	return w->done[a] != s ? a : -1;
}

static int walk_from(const struct ub_dag *d, struct ub_walk *w,
		     const struct ub_walk_fns *f, void *ctx, int root);

/* The nodes depending on loop i's variables: pending again. */
static void invalidate(const struct ub_dag *d, struct ub_walk *w, int i)
{
	for (int j = d->dep_first[i]; j < d->dep_first[i + 1]; j++)
		w->done[d->dep[j]] = w->chosen[d->dep[j]] = 0;
}

/* Variable v of loop i takes node from's value (computed first). */
static int set(const struct ub_dag *d, struct ub_walk *w,
	       const struct ub_walk_fns *f, void *ctx, int i, int v, int from)
{
	int a = ub_dag_arg(d, i, v), st;
	if ((st = walk_from(d, w, f, ctx, ub_dag_arg(d, i, from))) != 0 ||
	    (st = f->assign(ctx, a, ub_dag_arg(d, i, from))) != 0)
		return st;
	w->done[a] = w->stamp;
	return 0;
}

/* One step of loop i: its updates into its variables (from: the update
 * arguments, or the initial values at the start). */
static int step(const struct ub_dag *d, struct ub_walk *w,
		const struct ub_walk_fns *f, void *ctx, int i, int init)
{
	const struct ub_expr *e = d->node[i];
	int n = ub_loop_nvars(e->op, e->nargs), st = 0;
	for (int k = 0; k < n && !st; k++) {
		int from = init ? UB_LOOP_INIT(n, k) : UB_LOOP_UPD(n, k);
		if (e->op == UB_WHILES) { /* in turn, each seeing the last */
			st = set(d, w, f, ctx, i, UB_LOOP_VAR(n, k), from);
			invalidate(d, w, i);
		} else if (init) { /* the initial values see no variable */
			st = set(d, w, f, ctx, i, UB_LOOP_VAR(n, k), from);
		} else {
			st = set(d, w, f, ctx, i, UB_LOOP_SHADOW(n, k), from);
		}
	}
	for (int k = 0; e->op == UB_WHILE && !init && k < n && !st; k++)
		st = set(d, w, f, ctx, i, UB_LOOP_VAR(n, k), UB_LOOP_SHADOW(n, k));
	invalidate(d, w, i);
	return st;
}

static int loop(const struct ub_dag *d, struct ub_walk *w,
		const struct ub_walk_fns *f, void *ctx, int i)
{
	const struct ub_expr *e = d->node[i];
	int n = ub_loop_nvars(e->op, e->nargs), cond = ub_dag_arg(d, i, UB_LOOP_COND(n));
	int st = step(d, w, f, ctx, i, 1);
	for (long it = 0; !st; it++) {
		int truth = 0;
		if ((st = walk_from(d, w, f, ctx, cond)) != 0 ||
		    (st = f->test(ctx, cond, &truth)) != 0 || !truth)
			break;
		if (it == UB_LOOP_MAX)
			return UB_WALK_LOOP_LIMIT;
		if (f->tick && it % UB_WALK_TICK == UB_WALK_TICK - 1 && (st = f->tick(ctx)) != 0)
			break;
		st = step(d, w, f, ctx, i, 0);
	}
	if (!st)
		st = walk_from(d, w, f, ctx, ub_dag_arg(d, i, UB_LOOP_BODY(n)));
	return st ? st : f->apply(ctx, i, UB_LOOP_BODY(n));
}

/* Applies root and what it needs, with the stack above w->top. */
static int walk_from(const struct ub_dag *d, struct ub_walk *w,
		     const struct ub_walk_fns *f, void *ctx, int root)
{
	int base = w->top, st = 0;
	if (w->done[root] == w->stamp)
		return 0;
	if (w->top == w->cap) /* cannot happen: see the file comment */
		return UB_RUNTIME;
	w->stack[w->top++] = root;
	while (w->top > base && !st) {
		int i = w->stack[w->top - 1], branch = -1;
		if (w->done[i] == w->stamp) {
			w->top--;
			continue;
		}
		int next = is_loop(d->node[i]) ? -1 : pending(d, w, i, f, ctx, &branch, &st);
		if (st)
			break;
		if (next >= 0) {
			if (w->top == w->cap)
				return w->top = base, UB_RUNTIME;
			w->stack[w->top++] = next;
			continue;
		}
		st = is_loop(d->node[i]) ? loop(d, w, f, ctx, i) : f->apply(ctx, i, branch);
		w->done[i] = w->stamp;
		w->top--;
	}
	w->top = base;
	return st;
}

int ub_dag_walk(const struct ub_dag *d, struct ub_walk *w,
		const struct ub_walk_fns *f, void *ctx)
{
	if (walk_grow(w, d->n))
		return UB_RUNTIME;
	if (++w->stamp == 0) { /* wrapped: old stamps could match again */
		memset(w->done, 0, (size_t)w->cap * sizeof *w->done);
		memset(w->chosen, 0, (size_t)w->cap * sizeof *w->chosen);
		w->stamp = 1;
	}
	w->top = 0;
	return walk_from(d, w, f, ctx, d->n - 1);
}

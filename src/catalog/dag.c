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
 * more than the number of distinct nodes. */
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

static struct ub_dag *build(const struct ub_expr *root)
{
	struct ub_dag *d = calloc(1, sizeof *d);
	struct map m = {0, NULL, NULL};
	if (d && (order(d, &m, root) || link(d, &m))) {
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
	struct ub_walk g = {n, malloc((size_t)n * sizeof *g.stack),
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
 * whose condition is done, *branch is the one chosen (choose asked once). */
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
		int b = 0;
		if ((*st = f->choose(ctx, i, &b)) != 0)
			return -1;
		w->branch[i] = (unsigned char)b;
		w->chosen[i] = s;
	}
	*branch = w->branch[i];
	int a = ub_dag_arg(d, i, *branch);
	return w->done[a] != s ? a : -1;
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
	int top = 0;
	w->stack[top++] = d->n - 1;
	while (top) {
		int i = w->stack[top - 1], branch = 0, st = 0;
		if (w->done[i] == w->stamp) {
			top--;
			continue;
		}
		int next = pending(d, w, i, f, ctx, &branch, &st);
		if (st)
			return st;
		if (next >= 0) {
			w->stack[top++] = next;
			continue;
		}
		if ((st = f->apply(ctx, i, branch)) != 0)
			return st;
		w->done[i] = w->stamp;
		top--;
	}
	return 0;
}

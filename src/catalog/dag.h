/* dag.h — an expression as its evaluators see it: the distinct nodes
 * reachable from a root, each listed once, every argument before the nodes
 * that use it, so that a shared node (a let binding used twice) is
 * computed once per evaluation, and a walk over the list needs no
 * recursion however deep the expression is. */
#ifndef UB_DAG_H
#define UB_DAG_H

#include "expr.h"

#include <stdatomic.h>

/* How deep an expression may be (expr.h's depth).  The FPCore reader
 * refuses deeper ones ("FILE:LINE:COL: expression nested deeper than N"),
 * and so does ub_expr_dag: the evaluators that recurse (codegen's
 * expression text, printing) stay far inside any thread's stack, and CUDA
 * compilers take the generated expressions. */
#define UB_EXPR_MAX_DEPTH 1000

struct ub_dag {
	int n;                        /* distinct nodes; the root is n - 1 */
	const struct ub_expr **node;  /* node[i]; node[i]'s arguments come
					 before i */
	int *first;                   /* node i's argument k is node
					 arg[first[i] + k] */
	int *arg;
	int *uses;                    /* how many argument places name node
					 i (the root: 0) */
	/* what an evaluator derives from the dag once and keeps with it (the
	 * fast reference's program, ref_fast.c): set once by ub_dag_keep,
	 * freed with the dag by free_kept */
	void *_Atomic kept;
	void (*free_kept)(void *);
	int *dep_first, *dep;         /* a loop i: the nodes whose value
					 depends on its variables are
					 dep[dep_first[i] .. dep_first[i+1]-1]
					 (other nodes: none) */
};

/* d's kept object, or, when there is none yet, k (made by the caller,
 * freed by free_k) made d's: the first of threads racing wins, the
 * others' k are freed.  Returns the object d keeps. */
void *ub_dag_keep(const struct ub_dag *d, void *k, void (*free_k)(void *));

/* The dag of root e into *d, built on first use and kept with e (freed
 * with it); safe to call from several threads at once.  Returns 0,
 * UB_USAGE when e is deeper than UB_EXPR_MAX_DEPTH, or UB_RUNTIME when out
 * of memory (err says which). */
int ub_expr_dag(const struct ub_expr *e, const struct ub_dag **d,
		struct ub_error *err);
void ub_dag_free(struct ub_dag *d);

static inline int ub_dag_arg(const struct ub_dag *d, int i, int k)
{
	return d->arg[d->first[i] + k];
}

/* A demand-driven walk over a dag, without recursion but for loops
 * inside loops: node i is applied once its arguments are, except that
 *  - an if applies its condition first, asks test whether it holds, and
 *    applies the branch it picks only: an evaluator never computes, and
 *    never fails on, a branch its condition rules out;
 *  - a loop (expr.h's layout) applies its initial values and assigns them
 *    to its variables, then, while test says its condition holds,
 *    applies the updates and assigns them (while: through its shadows,
 *    so that every update reads the old values; while*: in turn), each
 *    assignment making the nodes that depend on the variables pending
 *    again; then it applies its body.  More than UB_LOOP_MAX iterations
 *    stop the walk with UB_WALK_LOOP_LIMIT.
 * A node shared by several users is applied once per walk (per iteration
 * inside a loop, when it depends on the loop's variables).  test, apply
 * and assign return 0 or a status, which stops the walk and is its
 * result. */
struct ub_walk {
	int cap, top;
	int *stack;
	unsigned *done, *chosen;   /* stamps: applied, branch chosen, in the
				      walk of that number */
	unsigned char *branch;
	unsigned stamp;
};
#define UB_WALK_LOOP_LIMIT (-9)
struct ub_walk_fns {
	/* whether condition node c (computed) holds, into *truth */
	int (*test)(void *ctx, int c, int *truth);
	/* node i from its arguments; for an if or a loop, `from` is the
	 * argument whose value is its own (the branch taken, the body), else
	 * -1 */
	int (*apply)(void *ctx, int i, int from);
	/* loop variable (or shadow) v takes the value of node from */
	int (*assign)(void *ctx, int v, int from);
	/* NULL, or called every UB_WALK_TICK iterations of a loop: a status
	 * stops the walk (the reference's time budget) */
	int (*tick)(void *ctx);
};
#define UB_WALK_TICK 1024
/* w is zeroed before its first use and grows to the dag (UB_RUNTIME when
 * out of memory); free it with ub_walk_free. */
int ub_dag_walk(const struct ub_dag *d, struct ub_walk *w,
		const struct ub_walk_fns *f, void *ctx);
void ub_walk_free(struct ub_walk *w);

#endif

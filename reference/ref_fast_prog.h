/* ref_fast_prog.h — the fast reference's program and its columns
 * (ref_fast.c builds the program and decides, ref_fast_col.c evaluates the
 * nodes of a block). */
#ifndef UB_REF_FAST_PROG_H
#define UB_REF_FAST_PROG_H

#include "ref_fast.h"

#include <stdint.h>
#include <string.h>

/* A program: an expression's dag as a flat list of nodes, arguments
 * first, built once (ref_fast.c) and kept with the dag. */
enum { FK_VAR, FK_LIT, FK_OP };

struct fnode {
	unsigned char kind, op, nargs;
	int self;          /* this node's index */
	int a[3];          /* arguments: node indices */
	int var;
	double lit, lit_e;
};

struct fprog {
	int n, ok;
	int strict;        /* NaN in, NaN out (ref_fast.c's file comment) */
	int fn;            /* the root is fn(node 0, a variable), a function
			      with a float version; else fn = -1 */
	int one;           /* the root is one(node 0, a variable), any unary
			      operator (overflows); else one = -1 */
	int algebraic;     /* no function but sqrt and rsqrt: the exact
			      evaluation is asked at a power of two */
	const struct ub_dag *d;
	int nvars;         /* 1 + the largest variable used */
	unsigned used;     /* bit k: variable k is used */
	struct fnode node[];
};

/* The enclosures of one node for the elements of a block, apart:
 * element j's struct fval is (v[j], e[j], ok[j], sg[j]), so that a node's
 * loop reads and writes contiguous arrays. */
#define BLOCK 256
struct fcol {
	double v[BLOCK], e[BLOCK];
	signed char ok[BLOCK], sg[BLOCK];
};

static inline struct fval get(const struct fcol *c, int j)
{
	return (struct fval){ c->v[j], c->e[j], c->ok[j], c->sg[j] };
}

/* The statements for each element j of m. */
#define EACH(...) for (int j = 0; j < m; j++) { __VA_ARGS__; }

/* The neighbour of the finite double x toward +inf (up) or -inf, by its
 * encoding (libm's nextafter is a call per element). */
static inline double step(double x, int up)
{
	uint64_t u;
	memcpy(&u, &x, sizeof u);
	if ((u << 1) == 0)   /* +-0 */
		u = up ? 1 : UINT64_C(0x8000000000000001);
	else
		u = (x > 0) == up ? u + 1 : u - 1;
	memcpy(&x, &u, sizeof x);
	return x;
}

/* The calling thread's columns for n nodes (ub_ref_fast_release frees
 * them), or NULL when out of memory. */
struct fcol *fast_scratch(int n);

/* Every node but the variables (block loads those) for the m elements of
 * a block; the root's enclosures end in val[n - 1]. */
void fast_run(const struct fprog *p, struct fcol *val, int m);

#endif

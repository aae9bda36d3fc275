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
	unsigned long serial; /* this program's number among those built
				 (from 1): its constant columns (fast_kept) */
	int strict;        /* NaN in, NaN out (ref_fast.c's file comment) */
	int fn;            /* the root is fn(node 0, a variable), a function
			      with a float version; else fn = -1 */
	int one;           /* the root is one(node 0, a variable), any unary
			      operator (overflows); else one = -1 */
	int algebraic;     /* no function but sqrt and rsqrt: the exact
			      evaluation is asked at a power of two */
	const struct ub_dag *d;
	int nvars;         /* 1 + the largest variable used */
	unsigned used;     /* bit k: variable k is used (k < 32; the others
			      are taken as used) */
	struct fnode node[];
};

/* The enclosures of one node for the elements of a block, apart:
 * element j's struct fval is (v[j], e[j], ok[j], sg[j]), so that a node's
 * loop reads and writes contiguous arrays.  ok (0, 1) and sg (-1, 0, 1)
 * are held as doubles, exactly: lanes of them then take the same vector
 * instructions as the values (a product of signs, an equality, a pick by
 * a mask), with no conversion. */
#define BLOCK 256
struct fcol {
	double v[BLOCK], e[BLOCK];
	double ok[BLOCK], sg[BLOCK];
};

static inline struct fval get(const struct fcol *c, int j)
{
	return (struct fval){ c->v[j], c->e[j], (signed char)c->ok[j],
			      (signed char)c->sg[j] };
}

/* The statements for each element j of m. */
#define EACH(...) for (int j = 0; j < m; j++) { __VA_ARGS__; }

/* A block's nodes run over its elements in groups of FAST_W: m rounded
 * up to a multiple of FAST_W (the columns have room, BLOCK being one),
 * the lanes past the block's elements holding the enclosure 1 (block
 * loads them so; nobody reads their results). */
#define FAST_W 4
static inline int fast_lanes(int m)
{
	return (m + FAST_W - 1) / FAST_W * FAST_W;
}

/* FAST_W lanes of doubles and of 64-bit integers (a comparison's lanes:
 * -1 true, 0 false).  Each lane's operation is the
 * scalar IEEE one (no contraction: -ffp-contract=off), so a lane has the
 * bits that the same expression on doubles has. */
typedef double fvd __attribute__((vector_size(8 * FAST_W)));
typedef int64_t fvi __attribute__((vector_size(8 * FAST_W)));
/* Where the lanes are used: compiled for AVX2 too, the CPU picking (the
 * baseline x86-64 has no 64-bit lane comparison; ASan's build keeps one
 * version). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__SANITIZE_ADDRESS__)
#define FAST_LANES __attribute__((target_clones("avx2", "default")))
#else
#define FAST_LANES
#endif

/* The operations on lanes are macros (GNU C statement expressions, each
 * argument evaluated once), not functions: no lanes are passed or
 * returned across a call, whose ABI would differ between the AVX2 and
 * the baseline version. */
#define fv_load(p) ({ fvd x_; memcpy(&x_, (p), sizeof x_); x_; })
#define fv_store(p, x) do { fvd y_ = (x); memcpy((p), &y_, sizeof y_); } while (0)
/* x in every lane (its bits: -0.0 stays -0.0) */
#define fv_dup(x) ({ double d_ = (x); fvd v_; for (int k_ = 0; k_ < FAST_W; k_++) v_[k_] = d_; v_; })
#define fv_abs(x) ((fvd)((fvi)(x) & INT64_MAX))
/* -1 where x is finite (its exponent field not all ones), else 0 */
#define fv_finite(x) ((((fvi)(x)) & INT64_C(0x7ff0000000000000)) != INT64_C(0x7ff0000000000000))
/* the lanes of a where m is -1, of b where it is 0 */
#define fv_pick(m, a, b) ({ fvi m_ = (m); (fvd)((m_ & (fvi)(a)) | (~m_ & (fvi)(b))); })

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

/* Whether the calling thread's columns val hold p's constant parts in
 * every lane (its literals, its variables' e and ok), as p's last block
 * on this thread left them; from now on they are taken to (the caller
 * fills what they do not hold). */
int fast_kept(const struct fprog *p, const struct fcol *val);

/* Every node but the variables (block loads those) for the m elements of
 * a block, the literals' columns filled unless kept (fast_kept); the
 * root's enclosures end in val[n - 1]. */
void fast_run(const struct fprog *p, struct fcol *val, int m, int kept);

#endif

/* ref_fast.c — the fast path of the reference (reference.h,
 * ub_ref_eval_fast, ub_ref_fast_array): the correctly rounded f32, f16 or
 * bf16 result of an expression decided in double arithmetic with a
 * rigorous running error bound (ref_fast.h), without MPFR, whenever that
 * is provably safe; otherwise the caller falls back to MPFR.  The argument
 * is written out in docs/reference.md.
 *
 * Program: an expression's dag (dag.h) is turned once into a flat list of
 * nodes, arguments first (kept with the dag: ub_dag_keep), so that an
 * element costs one pass over it: each node's enclosure from its
 * arguents' (ref_fast.h's rules, ref_fast_fn.c's functions), conditions
 * decided when the bounds of their arguments are apart, an if taking the
 * branch its condition picks.  A node the path does not know (an operator
 * without a rule, a literal that is not a finite number) makes the whole
 * expression MPFR's.
 *
 * Inputs: finite values are exact (e = 0).  A NaN input of an expression
 * that propagates NaN through every operator (no comparison, if, fmin,
 * fmax: those may drop one) gives NaN, as MPFR does; an infinite input
 * goes to MPFR.
 *
 * Decision: [lo, hi] = [v - e, v + e] widened outward by one double, cut
 * at 0 when X's sign is known (an underflowed value still rounds to the
 * zero of its sign); if both ends round (once, from double: ub_fast_round)
 * to the same encoding of the format, so does every value in between, X
 * included, since rounding is monotonic.  That encoding is the correctly
 * rounded result.  When they differ and the expression is one function of
 * an input in f32, LLVM's correctly rounded float function decides if its
 * result is one of the two; else MPFR.  The exact value reported is v (lo
 * 0), decided only when e <= 2^-45 |v| or e <= 2^-22 of the format's
 * smallest subnormal: the fractional ULP error then moves by at most
 * 2^-21 ulp against MPFR's. */
#include "dag.h"
#include "ref_fast.h"
#include "ref_internal.h"
#include "reference.h"
#include "ub_bits.h"

#include <stdlib.h>
#include <string.h>

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
	int strict;        /* NaN in, NaN out (see the file comment) */
	int fn;            /* the root is fn(node 0, a variable), a function
			      with a float version; else fn = -1 */
	int one;           /* the root is one(node 0, a variable), any unary
			      operator (overflows); else one = -1 */
	int nvars;         /* 1 + the largest variable used */
	unsigned used;     /* bit k: variable k is used */
	struct fnode node[];
};

/* A literal's enclosure: strtod's double (correctly rounded: e = u|v|),
 * exact for an integer below 2^53; a named constant (PI, E, ...) the
 * correctly rounded double of its C definition.  0 if none. */
static int literal(const struct ub_expr *x, struct fnode *nd)
{
	double v = x->num_d;
	int exact = x->num_int && fabs(v) < 0x1p53;
	if (v != v && x->num && ub_expr_const(x->num, &v))
		exact = !strcmp(x->num, "TRUE") || !strcmp(x->num, "FALSE");
	if (!isfinite(v))
		return 0;
	nd->lit = v;
	nd->lit_e = exact ? 0 : fabs(v) * FAST_U;
	return 1;
}

static int op_known(int op)
{
	switch (op) {
	case UB_ADD: case UB_SUB: case UB_MUL: case UB_DIV: case UB_NEG:
	case UB_FMA: case UB_SQRT: case UB_RSQRT: case UB_FABS: case UB_FMIN:
	case UB_FMAX: case UB_LT: case UB_GT: case UB_LE: case UB_GE: case UB_EQ:
	case UB_NE: case UB_AND: case UB_OR: case UB_NOT: case UB_IF:
		return 1;
	default:
		return fast_fn_known(op);
	}
}

/* NaN in every argument makes a NaN (MPFR's rules for these ops). */
static int nan_strict(int op)
{
	return !(UB_EXPR_IS_BOOL(op) || op == UB_IF || op == UB_FMIN || op == UB_FMAX);
}

static struct fprog *build(const struct ub_dag *d)
{
	struct fprog *p = calloc(1, sizeof *p + (size_t)d->n * sizeof p->node[0]);
	if (!p)
		return NULL;
	p->n = d->n;
	p->ok = p->strict = 1;
	p->fn = p->one = -1;
	for (int i = 0; i < d->n && p->ok; i++) {
		const struct ub_expr *x = d->node[i];
		struct fnode *nd = &p->node[i];
		nd->self = i;
		if (x->kind == UB_E_VAR) {
			nd->kind = FK_VAR;
			nd->var = x->var;
			p->ok = x->var >= 0 && x->var < UB_MAX_INPUTS;
			if (p->ok && x->var + 1 > p->nvars)
				p->nvars = x->var + 1;
			if (p->ok)
				p->used |= 1u << x->var;
		} else if (x->kind == UB_E_LVAR || x->prec >= 0) {
			/* a rounding context (expr.h's prec) is an extra
			 * rounding this path does not model; a loop variable
			 * needs the walk of dag.h */
			p->ok = 0;
		} else if (x->kind == UB_E_NUM) {
			nd->kind = FK_LIT;
			p->ok = literal(x, nd);
		} else {
			nd->kind = FK_OP;
			nd->op = (unsigned char)x->op;
			nd->nargs = (unsigned char)x->nargs;
			p->ok = op_known(x->op) && x->nargs <= 3;
			p->strict &= nan_strict(x->op);
			for (int k = 0; k < x->nargs && k < 3; k++)
				nd->a[k] = ub_dag_arg(d, i, k);
		}
	}
	const struct fnode *r = &p->node[d->n - 1];
	float y;
	if (d->n == 2 && r->kind == FK_OP && r->nargs == 1 &&
	    p->node[0].kind == FK_VAR) {
		p->one = r->op;
	}
	if (p->one >= 0 && fast_fn_float(r->op, 1.0f, &y))
		p->fn = r->op;
	return p;
}

/* The program of e, built on first use and kept with its dag. */
static const struct fprog *program(const struct ub_expr *e)
{
	const struct ub_dag *d;
	if (ub_expr_dag(e, &d, NULL))
		return NULL;
	const struct fprog *p = atomic_load_explicit(&d->kept, memory_order_acquire);
	if (p)
		return p;
	struct fprog *np = build(d);
	return np ? ub_dag_keep(d, np, free) : NULL;
}

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

/* The lower and upper ends of a's enclosure, rounded outward. */
static double lower(const struct fval *a)
{
	return a->e == 0 ? a->v : step(a->v - a->e, 0);
}

static double upper(const struct fval *a)
{
	return a->e == 0 ? a->v : step(a->v + a->e, 1);
}

/* A comparison of a and b: 1 true, 0 false, -1 undecided. */
static int compare(int op, const struct fval *a, const struct fval *b)
{
	double alo = lower(a), ahi = upper(a), blo = lower(b), bhi = upper(b);
	int lt = ahi < blo ? 1 : alo >= bhi ? 0 : -1;    /* a < b */
	int gt = alo > bhi ? 1 : ahi <= blo ? 0 : -1;    /* a > b */
	int eq = a->e == 0 && b->e == 0 ? a->v == b->v : lt == 1 || gt == 1 ? 0 : -1;
	switch (op) {
	case UB_LT: return lt;
	case UB_GT: return gt;
	case UB_LE: return gt < 0 ? -1 : !gt;
	case UB_GE: return lt < 0 ? -1 : !lt;
	case UB_EQ: return eq;
	default: return eq < 0 ? -1 : !eq;   /* != */
	}
}

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

static inline void put(struct fcol *c, int j, struct fval f)
{
	c->v[j] = f.v, c->e[j] = f.e, c->ok[j] = f.ok, c->sg[j] = f.sg;
}

/* Element j of r from a computed (v, e), its operands' ok and the sign
 * rule's sg: fast_sign's checks. */
static inline void set(struct fcol *r, int j, double v, double e, int ok, int sg)
{
	r->v[j] = v;
	r->e[j] = e;
	r->ok[j] = (signed char)(ok && fast_finite(v, e));
	r->sg[j] = fast_sg(v, e, sg);
}

/* A condition's value: 1 true, 0 false, -1 undecided (ok 0). */
static inline void truth(struct fcol *r, int j, int t)
{
	put(r, j, (struct fval){ t > 0, 0, t >= 0, 0 });
}

/* Node nd for the m elements of a block from its arguments' columns:
 * ref_fast.h's rules element by element (the same operations in the same
 * order as fast_add, fast_mul, ..., hence the same bits). */
#define EACH(...) for (int j = 0; j < m; j++) { __VA_ARGS__; }
static void node_op(const struct fnode *nd, struct fcol *val, int m)
{
	const struct fcol *a = &val[nd->a[0]], *b = &val[nd->a[1]], *c = &val[nd->a[2]];
	struct fcol *r = &val[nd->self];
	struct fval t;
	switch (nd->op) {
	case UB_ADD:
		EACH(double v = a->v[j] + b->v[j];
		     set(r, j, v, fast_add_e(a->e[j], b->e[j], v), a->ok[j] & b->ok[j],
			 a->sg[j] == b->sg[j] ? a->sg[j] : 0))
		return;
	case UB_SUB:   /* a + (-b) */
		EACH(double v = a->v[j] + -b->v[j];
		     set(r, j, v, fast_add_e(a->e[j], b->e[j], v), a->ok[j] & b->ok[j],
			 a->sg[j] == -b->sg[j] ? a->sg[j] : 0))
		return;
	case UB_MUL:
		EACH(double v = a->v[j] * b->v[j];
		     set(r, j, v, fast_mul_e(a->v[j], a->e[j], b->v[j], b->e[j], v),
			 a->ok[j] & b->ok[j], a->sg[j] * b->sg[j]))
		return;
	case UB_DIV:
		EACH(if (!(a->ok[j] && b->ok[j] && fast_div_ok(b->v[j], b->e[j]))) {
			     put(r, j, (struct fval){ 0, 0, 0, 0 });
			     continue;
		     }
		     double v = a->v[j] / b->v[j];
		     set(r, j, v, fast_div_e(a->v[j], a->e[j], b->v[j], b->e[j], v), 1,
			 a->sg[j] * b->sg[j]))
		return;
	case UB_NEG:
		EACH(r->v[j] = -a->v[j]; r->e[j] = a->e[j]; r->ok[j] = a->ok[j];
		     r->sg[j] = (signed char)-a->sg[j])
		return;
	case UB_FABS:
		EACH(r->v[j] = fabs(a->v[j]); r->e[j] = a->e[j]; r->ok[j] = a->ok[j];
		     r->sg[j] = a->sg[j] ? 1 : 0)
		return;
	case UB_FMIN: case UB_FMAX:   /* 1-Lipschitz in each argument, exact */
		EACH(set(r, j, nd->op == UB_FMIN ? fmin(a->v[j], b->v[j]) : fmax(a->v[j], b->v[j]),
			 fmax(a->e[j], b->e[j]), a->ok[j] && b->ok[j], 0))
		return;
	case UB_LT: case UB_GT: case UB_LE: case UB_GE: case UB_EQ: case UB_NE:
		EACH(struct fval x = get(a, j), y = get(b, j);
		     truth(r, j, x.ok && y.ok ? compare(nd->op, &x, &y) : -1))
		return;
	case UB_NOT: EACH(truth(r, j, a->ok[j] ? !a->v[j] : -1)) return;
	case UB_AND:   /* a false argument decides, whatever the other */
		EACH(truth(r, j, (a->ok[j] && !a->v[j]) || (b->ok[j] && !b->v[j]) ? 0
			   : a->ok[j] && b->ok[j] ? 1 : -1))
		return;
	case UB_OR:
		EACH(truth(r, j, (a->ok[j] && a->v[j]) || (b->ok[j] && b->v[j]) ? 1
			   : a->ok[j] && b->ok[j] ? 0 : -1))
		return;
	case UB_IF:
		EACH(put(r, j, !a->ok[j] ? (struct fval){ 0, 0, 0, 0 } : get(a->v[j] ? b : c, j)))
		return;
	case UB_FMA:
		EACH(struct fval x = get(a, j), y = get(b, j), z = get(c, j);
		     fast_fma(&x, &y, &z, &t); put(r, j, t))
		return;
	case UB_SQRT: case UB_RSQRT:
		EACH(struct fval x = get(a, j); fast_sqrt(&x, &t, nd->op == UB_RSQRT);
		     put(r, j, t))
		return;
	default:
		EACH(struct fval x = get(a, j); fast_fn(nd->op, &x, &t); put(r, j, t))
		return;
	}
}

/* The calling thread's columns, one per node, grown as needed and freed
 * by ub_ref_release. */
static _Thread_local struct fcol *vals;
static _Thread_local int nvals;

void ub_ref_fast_release(void)
{
	free(vals);
	vals = NULL;
	nvals = 0;
}

static struct fcol *scratch(int n)
{
	if (n > nvals) {
		struct fcol *v = realloc(vals, (size_t)n * sizeof *v);
		if (!v)
			return NULL;
		vals = v;
		nvals = n;
	}
	return vals;
}

/* Every node but the variables (loaded by block) for the m elements of a
 * block; the root's enclosures end in val[n - 1]. */
static void run(const struct fprog *p, struct fcol *val, int m)
{
	for (int i = 0; i < p->n; i++) {
		const struct fnode *nd = &p->node[i];
		struct fcol *r = &val[i];
		if (nd->kind == FK_LIT) {
			signed char sg = nd->lit > 0 ? 1 : nd->lit < 0 ? -1 : 0;
			EACH(r->v[j] = nd->lit; r->e[j] = nd->lit_e; r->ok[j] = 1; r->sg[j] = sg)
		} else if (nd->kind == FK_OP) {
			node_op(nd, val, m);
		}
	}
}

uint64_t ub_fast_round(enum ub_dtype dt, double d)
{
	if (dt == UB_F32) {
		float f = (float)d;   /* one IEEE conversion, nearest-even */
		uint32_t u;
		memcpy(&u, &f, sizeof u);
		return u;
	}
	/* f16, bf16: d / spacing is exact (a power of two), rint rounds it
	 * once to an integer, ties to even (the mode is nearest) */
	int p = ub_dt_prec(dt), emin = ub_dt_emin(dt), emax = ub_dt_emax(dt);
	uint64_t sign = signbit(d) ? ub_dt_sign(dt) : 0;
	double a = fabs(d);
	if (a == 0)
		return sign;
	int e = ilogb(a);
	if (e < emin)
		e = emin;
	double m = rint(ldexp(a, p - 1 - e));   /* < 2^p, or 2^p after a carry */
	if (m >= ldexp(1, p))
		m /= 2, e++;
	if (e > emax)
		return sign | ub_dt_inf(dt);
	uint64_t mi = (uint64_t)m;
	if (mi < (UINT64_C(1) << (p - 1)))   /* subnormal (or zero) */
		return sign | mi;
	return sign | ((uint64_t)(e - emin + 1) << (p - 1)) | (mi & ((UINT64_C(1) << (p - 1)) - 1));
}

/* The smallest subnormal of dt, times 2^-22. */
static double tiny(enum ub_dtype dt)
{
	return ldexp(1, ub_dt_emin(dt) - ub_dt_prec(dt) + 1 - 22);
}

/* Decides the root r (see the file comment): 1 with *cr and *exact, or 0.
 * x: the single function's argument. */
static int decide(const struct fprog *p, enum ub_dtype dt, double x,
		  const struct fval *r, uint64_t *cr, struct ub_exact *exact)
{
	if (!r->ok || !(r->e <= fabs(r->v) * 0x1p-45 || r->e <= tiny(dt)))
		return 0;
	double lo = step(r->v - r->e, 0), hi = step(r->v + r->e, 1);
	if ((r->sg > 0) & (lo <= 0))   /* &: one branch, rarely taken */
		lo = 0.0;
	if ((r->sg < 0) & (hi >= 0))
		hi = -0.0;
	uint64_t blo = ub_fast_round(dt, lo), bhi = ub_fast_round(dt, hi);
	if (blo != bhi) {
		float y;   /* the single function: LLVM's correctly rounded float */
		if (dt != UB_F32 || p->fn < 0 || !fast_fn_float(p->fn, (float)x, &y))
			return 0;
		uint32_t u;
		memcpy(&u, &y, sizeof u);
		if (u != blo && u != bhi)
			return 0;
		blo = u;
	}
	*cr = blo;
	if (exact)
		*exact = (struct ub_exact){ r->v, 0 };
	return 1;
}

/* Whether op(x), x finite, is beyond the doubles: |op(x)| >= 2^1024, so
 * that its nearest double, the exact value MPFR reports, is +-inf, and so
 * is its correctly rounded value in every format.  exp and expm1 of
 * x >= 710 (e^710 = 2^1024.31...), exp2 of x >= 1025, cosh of |x| >= 711
 * and sinh of |x| >= 711 (e^711 / 2 = 2^1024.76..., the other term below
 * 2^-1025).  The sign of the result, or 0 when op(x) is not known to be
 * beyond the doubles (the enclosures of ref_fast_fn.c then decide it, or
 * MPFR: double's exp overflows from 709.79 on). */
static int overflows(int op, double x)
{
	switch (op) {
	case UB_EXP:
	case UB_EXPM1:
		return x >= 710;
	case UB_EXP2:
		return x >= 1025;
	case UB_COSH:
		return fabs(x) >= 711;
	case UB_SINH:
		return x >= 711 ? 1 : x <= -711 ? -1 : 0;
	default:
		return 0;
	}
}

/* Variable nd's column for the m elements of a block from i0: the inputs
 * as doubles (exact), e = 0.  A NaN or an infinite input is replaced by 1
 * and marks its element: NaN in, NaN out (nan[j]); inf, or a NaN that an
 * operator might drop, goes to MPFR (more[j]). */
static void load(const struct fprog *p, const struct fnode *nd, enum ub_dtype dt,
		 const struct ub_array *in, size_t i0, int m, struct fcol *r,
		 unsigned char *nan, unsigned char *more)
{
	const void *data = in[nd->var].data;
	int bad = 0;
	if (dt == UB_F32) {   /* a float is exact in double; its sign bit */
		uint32_t w[BLOCK];
		memcpy(w, (const char *)data + i0 * sizeof w[0], (size_t)m * sizeof w[0]);
		EACH(float f;
		     memcpy(&f, &w[j], sizeof f);
		     r->v[j] = f;
		     r->sg[j] = (signed char)((w[j] << 1 != 0) - 2 * (w[j] > 0x80000000u));
		     bad |= (w[j] & 0x7f800000) == 0x7f800000)   /* inf or NaN */
	} else {
		EACH(r->v[j] = ub_bits_to_double_i(dt, ub_load(dt, data, i0 + (size_t)j));
		     r->sg[j] = (signed char)((r->v[j] > 0) - (r->v[j] < 0));
		     bad |= !isfinite(r->v[j]))
	}
	if (bad)
		EACH(if (!isfinite(r->v[j])) {
			(r->v[j] != r->v[j] && p->strict ? nan : more)[j] = 1;
			r->v[j] = 1;
			r->sg[j] = 1;
		})
	memset(r->e, 0, (size_t)m * sizeof r->e[0]);   /* +0.0 */
	memset(r->ok, 1, (size_t)m);
}

/* A block of m elements: element j's inputs in[k][i0 + j].  Its results
 * into cr and exact (exact may be NULL), and, for each element the fast
 * path cannot decide, more[j] = 1 (the others 0). */
static void block(const struct fprog *p, enum ub_dtype dt, const struct ub_array *in,
		  size_t i0, int m, struct fcol *val, struct ub_array *cr,
		  struct ub_exact *exact, unsigned char *more)
{
	unsigned char nan[BLOCK];
	memset(nan, 0, (size_t)m);
	memset(more, 0, (size_t)m);
	for (int i = 0; i < p->n; i++)
		if (p->node[i].kind == FK_VAR)
			load(p, &p->node[i], dt, in, i0, m, &val[i], nan, more);
	run(p, val, m);
	const struct fcol *root = &val[p->n - 1];
	const double *x0 = val[0].v;   /* fn's and one's argument: node 0 */
	for (int j = 0; j < m; j++) {
		uint64_t y = 0;
		struct ub_exact ex = { NAN, 0 };
		struct fval r;
		int o;
		if (more[j])
			continue;
		if (nan[j]) {
			y = ub_ref_encode(dt, NAN);
		} else if (p->one >= 0 && (o = overflows(p->one, x0[j])) != 0) {
			y = (o < 0 ? ub_dt_sign(dt) : 0) | ub_dt_inf(dt);
			ex.hi = o * (double)INFINITY;
		} else if (r = get(root, j), !decide(p, dt, x0[j], &r, &y, &ex)) {
			more[j] = 1;
			continue;
		}
		ub_store(cr->dt, cr->data, i0 + (size_t)j, y);
		if (exact)
			exact[i0 + (size_t)j] = ex;
	}
}

static int usable(const struct fprog *p, enum ub_dtype dt, int nin)
{
	return p && p->ok && p->nvars <= nin &&
	       (dt == UB_F32 || dt == UB_F16 || dt == UB_BF16);
}

int ub_ref_eval_fast(const struct ub_expr *e, enum ub_dtype dt,
		     const uint64_t *in, int nin, uint64_t *cr,
		     struct ub_exact *exact)
{
	const struct fprog *p = program(e);
	struct fcol *val;
	if (!usable(p, dt, nin) || !(val = scratch(p->n)))
		return 0;
	uint64_t bits[UB_MAX_INPUTS], y;
	struct ub_array arr[UB_MAX_INPUTS], out = { dt, 1, &y };
	for (int k = 0; k < nin && k < UB_MAX_INPUTS; k++) {
		bits[k] = in[k];
		arr[k] = (struct ub_array){ dt, 1, &bits[k] };
		ub_array_set(&arr[k], 0, in[k]);   /* dt's width, little-endian */
	}
	unsigned char more;
	block(p, dt, arr, 0, 1, val, &out, exact, &more);
	if (more)
		return 0;
	*cr = ub_array_get(&out, 0);
	return 1;
}

int ub_ref_eval_auto(const struct ub_expr *e, enum ub_dtype dt,
		     const uint64_t *in, int nin, int fast, uint64_t *cr,
		     struct ub_exact *exact, struct ub_error *err)
{
	if (fast && ub_ref_eval_fast(e, dt, in, nin, cr, exact))
		return 0;
	return ub_ref_eval(e, dt, in, nin, cr, exact, err);
}

int ub_ref_eval_chunk(const struct ub_expr *e, enum ub_dtype dt,
		      const struct ub_array *in, int nin, size_t n, int fast,
		      struct ub_array *cr, struct ub_exact *exact,
		      struct ub_error *err)
{
	const struct fprog *p = fast ? program(e) : NULL;
	struct fcol *val = NULL;
	unsigned char more[BLOCK];
	uint64_t x[UB_MAX_INPUTS], y;
	if (p && (!usable(p, dt, nin) || !(val = scratch(p->n))))
		p = NULL;
	for (size_t i0 = 0; i0 < n; i0 += BLOCK) {
		int m = n - i0 < BLOCK ? (int)(n - i0) : BLOCK;
		if (p)
			block(p, dt, in, i0, m, val, cr, exact, more);
		else
			memset(more, 1, (size_t)m);
		for (int j = 0; j < m; j++) {
			if (!more[j])
				continue;
			size_t i = i0 + (size_t)j;
			for (int k = 0; k < nin; k++)
				x[k] = ub_load(dt, in[k].data, i);
			int s = ub_ref_eval(e, dt, x, nin, &y, &exact[i], err);
			if (s && s != UB_REF_UNDECIDED)   /* undecided: marked, counted */
				return s;
			ub_store(dt, cr->data, i, y);
		}
	}
	return 0;
}

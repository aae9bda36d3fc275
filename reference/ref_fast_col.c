/* ref_fast_col.c — the nodes of the fast reference for a block of
 * elements (ref_fast_prog.h): each node's enclosures from its arguments'
 * columns by ref_fast.h's rules, the same operations in the same order as
 * fast_add, fast_mul, ... (hence the same bits); conditions decided when
 * the bounds of their arguments are apart, an if taking the branch its
 * condition picks. */
#include "expr.h"
#include "ref_fast_prog.h"
#include "reference.h"

#include <stdlib.h>

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

/* Element j of c from one enclosure. */
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

/* The lanes' sign rule (fast_sg), signs as doubles: sg where known (not
 * 0), else v's sign where the bound excludes 0, else 0. */
#define fv_sg(V, E, SG)                                                      \
	({ fvd v2_ = (V), e2_ = (E), sg2_ = (SG);                            \
	   fvd s2_ = fv_pick(v2_ > 0, fv_dup(1), fv_dup(-1));                \
	   fv_pick(sg2_ != 0, sg2_, fv_pick(fv_abs(v2_) > e2_ * FAST_SAFE, s2_, fv_dup(0))); })

/* FAST_W lanes of column R from J: a computed (V, E), its operands' OK (0
 * or 1) and the sign rule's SG, as doubles: set()'s checks. */
#define fv_set(R, J, V, E, OK, SG)                                           \
	do {                                                                 \
		fvd v3_ = (V), e3_ = (E);                                    \
		fv_store(&(R)->v[J], v3_);                                   \
		fv_store(&(R)->e[J], e3_);                                   \
		fv_store(&(R)->ok[J], fv_pick(fv_finite(v3_) & fv_finite(e3_), (OK), fv_dup(0))); \
		fv_store(&(R)->sg[J], fv_sg(v3_, e3_, (SG)));                \
	} while (0)

/* The statements for each group of FAST_W lanes from j, with the lanes
 * of a's (and B_W: b's) columns there, flags as doubles. */
#define EACH_W(...)                                                          \
	for (int j = 0; j < m; j += FAST_W) {                                \
		fvd av = fv_load(&a->v[j]), ae = fv_load(&a->e[j]);          \
		fvd ao = fv_load(&a->ok[j]), as = fv_load(&a->sg[j]);      \
		(void)ae, (void)ao, (void)as;                                \
		__VA_ARGS__;                                                 \
	}
#define B_W                                                                  \
	fvd bv = fv_load(&b->v[j]), be = fv_load(&b->e[j]);                  \
	fvd bo = fv_load(&b->ok[j]), bs = fv_load(&b->sg[j])

/* Node nd for the m lanes of a block (m a multiple of FAST_W) from its
 * arguments' columns: ref_fast.h's rules element by element (the same
 * operations in the same order as fast_add, fast_mul, ..., hence the same
 * bits), + - * / and the sign changes on FAST_W lanes at once; with AVX2
 * where the CPU has it. */
FAST_LANES
static void node_op(const struct fnode *nd, struct fcol *val, int m)
{
	const struct fcol *a = &val[nd->a[0]], *b = &val[nd->a[1]], *c = &val[nd->a[2]];
	struct fcol *r = &val[nd->self];
	struct fval t;
	switch (nd->op) {
	case UB_ADD:
		EACH_W(B_W; fvd v = av + bv;
		       fv_set(r, j, v, FAST_ADD_E(fv_abs, ae, be, v), ao * bo,
			      fv_pick(as == bs, as, fv_dup(0))))
		return;
	case UB_SUB:   /* a + (-b) */
		EACH_W(B_W; fvd v = av + -bv;
		       fv_set(r, j, v, FAST_ADD_E(fv_abs, ae, be, v), ao * bo,
			      fv_pick(as == -bs, as, fv_dup(0))))
		return;
	case UB_MUL:
		EACH_W(B_W; fvd v = av * bv;
		       fv_set(r, j, v, FAST_MUL_E(fv_abs, av, ae, bv, be, v), ao * bo,
			      as * bs))
		return;
	case UB_DIV:   /* lanes where the rule does not apply: 0, 0, 0, 0 */
		EACH_W(B_W; fvi go = (ao * bo != 0) & FAST_DIV_OK(fv_abs, bv, be);
		       fvd v = av / bv;
		       fvd e = FAST_DIV_E(fv_abs, av, ae, bv, be, v);
		       fv_set(r, j, fv_pick(go, v, fv_dup(0)), fv_pick(go, e, fv_dup(0)),
			      fv_pick(go, fv_dup(1), fv_dup(0)),
			      fv_pick(go, as * bs, fv_dup(0))))
		return;
	case UB_NEG:
		EACH_W(fv_store(&r->v[j], -av); fv_store(&r->e[j], ae);
		       fv_store(&r->ok[j], ao); fv_store(&r->sg[j], -as))
		return;
	case UB_FABS:
		EACH_W(fv_store(&r->v[j], fv_abs(av)); fv_store(&r->e[j], ae);
		       fv_store(&r->ok[j], ao);
		       fv_store(&r->sg[j], fv_pick(as != 0, fv_dup(1), fv_dup(0))))
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
 * by ub_ref_release; lit: the serial of the program whose constant parts
 * they hold in every lane (0: none): its literals' columns and its
 * variables' e (0) and ok (1).  Those are written by fast_run and block's
 * load alone, so a thread evaluating one program block after block fills
 * them once; another program's run in between, which may use the same
 * columns for other nodes, has them filled again (fast_kept). */
static _Thread_local struct fcol *vals;
static _Thread_local int nvals;
static _Thread_local unsigned long lit;

void ub_ref_fast_release(void)
{
	free(vals);
	vals = NULL;
	nvals = 0;
	lit = 0;
}

struct fcol *fast_scratch(int n)
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

int fast_kept(const struct fprog *p, const struct fcol *val)
{
	int kept = p->serial == lit && val == vals;
	lit = val == vals ? p->serial : 0;
	return kept;
}

void fast_run(const struct fprog *p, struct fcol *val, int m, int kept)
{
	for (int i = 0; i < p->n; i++) {
		const struct fnode *nd = &p->node[i];
		struct fcol *r = &val[i];
		if (nd->kind == FK_LIT) {
			fvd v = fv_dup(nd->lit), e = fv_dup(nd->lit_e);
			fvd sg = fv_dup(nd->lit > 0 ? 1 : nd->lit < 0 ? -1 : 0);
			for (int j = 0; !kept && j < BLOCK; j += FAST_W) {
				fv_store(&r->v[j], v);
				fv_store(&r->e[j], e);
				fv_store(&r->ok[j], fv_dup(1));
				fv_store(&r->sg[j], sg);
			}
		} else if (nd->kind == FK_OP) {
			node_op(nd, val, m);
		}
	}
}


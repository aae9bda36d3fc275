/* ref_fast.c — the fast path of the reference (reference.h,
 * ub_ref_eval_fast, ub_ref_fast_array): the correctly rounded f32, f16 or
 * bf16 result of an expression decided in double arithmetic with a
 * rigorous running error bound (ref_fast.h), without MPFR, whenever that
 * is provably safe; otherwise the caller falls back to MPFR.  The argument
 * is written out in docs/reference.md.
 *
 * Program: an expression's dag (dag.h) is turned once into a flat list of
 * nodes, arguments first (kept with the dag: ub_dag_keep; ref_fast_prog.h),
 * so that a block of elements costs one pass over it (ref_fast_col.c):
 * each node's enclosures from its arguments' (ref_fast.h's rules,
 * ref_fast_fn.c's functions), conditions decided when the bounds of their
 * arguments are apart, an if taking the branch its condition picks.  A
 * node the path does not know (an operator without a rule, a literal that
 * is not a finite number) makes the whole expression MPFR's.
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
 * 2^-21 ulp against MPFR's; where [v - e, v + e] holds a power of two,
 * the exact evaluation's value or the power (decide()). */
#include "dag.h"
#include "ref_fast_prog.h"
#include "ref_internal.h"
#include "reference.h"
#include "ub_bits.h"

#include <stdlib.h>
#include <string.h>

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
	static atomic_ulong serials;
	p->n = d->n;
	p->d = d;
	p->serial = atomic_fetch_add_explicit(&serials, 1, memory_order_relaxed) + 1;
	p->ok = p->strict = p->algebraic = 1;
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
			if (p->ok && x->var < 32)   /* the mask's width */
				p->used |= 1u << x->var;
		} else if (x->kind == UB_E_LVAR || ub_prec_rounds(x->prec)) {
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
			p->algebraic &= !fast_fn_known(x->op) || x->op == UB_SQRT ||
					x->op == UB_RSQRT;
			for (int k = 0; k < x->nargs && k < 3; k++)
				nd->a[k] = ub_dag_arg(d, i, k);
		}
	}
	const struct fnode *r = &p->node[d->n - 1];
	float y;
	if (d->n == 2 && r->kind == FK_OP && r->nargs == 1 &&
	    p->node[0].kind == FK_VAR)
		p->one = r->op;
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

/* The power of two P (> 0) that [|v| - e, |v| + e] holds, where the ulp of
 * the exact value changes (metrics.h: the smaller spacing at P, the
 * larger just above): P above the smallest normal of dt and within its
 * range; else 0.  e <= 2^-45 |v|: at most one P. */
static double pow2_within(enum ub_dtype dt, double v, double e)
{
	double a = fabs(v) - e, b = fabs(v) + e;
	uint64_t ua, ub;
	if (!(e > 0) || !(a > 0))
		return 0;
	memcpy(&ua, &a, sizeof ua);
	memcpy(&ub, &b, sizeof ub);
	const uint64_t mant = (UINT64_C(1) << 52) - 1;
	if (ua >> 52 == ub >> 52 && (ua & mant) != 0)
		return 0;   /* one binade, a not its power: the common case */
	if (!(a >= 0x1p-1022))
		return 0;   /* far below every format's normals */
	int k = (int)(ub >> 52) - 1023;   /* P = 2^k: b's binade, or a itself */
	if (ua >> 52 == ub >> 52)
		k = (int)(ua >> 52) - 1023;
	return k > ub_dt_emin(dt) && k <= ub_dt_emax(dt) ? ub_pow2(k) : 0;
}

/* Decides the root r (see the file comment): 1 with *cr and *exact, 2
 * when *cr is decided but the exact value needs the exact evaluation, or
 * 0.  x: the single function's argument. */
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
	if (!exact)
		return 1;
	/* at a power of two the enclosure does not say the side: an algebraic
	 * expression asks the exact evaluation (and MPFR where it fails);
	 * else the power itself, the smaller spacing: right at P and below,
	 * twice the definition's figure just above, never understated */
	double pw = pow2_within(dt, r->v, r->e);
	*exact = (struct ub_exact){ pw != 0 ? copysign(pw, r->v) : r->v, 0 };
	return pw != 0 && p->algebraic ? 2 : 1;
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
 * as doubles (exact), e = 0 and ok = 1 in every lane (left as they are
 * when kept: fast_kept).  A NaN or an infinite input is replaced by 1
 * and marks its element: NaN in, NaN out (nan[j]); inf, or a NaN that an
 * operator might drop, goes to MPFR (more[j]).  The lanes from m to mm
 * (fast_lanes) hold 1 too. */
static inline __attribute__((always_inline)) void
load(const struct fprog *p, const struct fnode *nd, enum ub_dtype dt,
		 const struct ub_array *in, size_t i0, int m, int mm, int kept,
		 struct fcol *r, unsigned char *nan, unsigned char *more)
{
	const void *data = in[nd->var].data;
	int bad = 0, j = 0;
	if (dt == UB_F32) {   /* a float is exact in double; its sign bit */
		typedef uint32_t fvu __attribute__((vector_size(4 * FAST_W)));
		typedef int32_t fvs __attribute__((vector_size(4 * FAST_W)));
		typedef float fvf __attribute__((vector_size(4 * FAST_W)));
		const char *src = (const char *)data + i0 * sizeof(uint32_t);
		fvs any = { 0 };
		for (; j + FAST_W <= m; j += FAST_W) {   /* FAST_W at once */
			fvu w;
			memcpy(&w, src + (size_t)j * sizeof(uint32_t), sizeof w);
			fv_store(&r->v[j], __builtin_convertvector((fvf)w, fvd));
			/* the scalar sign below; a comparison's lanes are -1 */
			fvs sg = 2 * (w > 0x80000000u) - (w << 1 != 0);
			fv_store(&r->sg[j], __builtin_convertvector(sg, fvd));
			any |= (w & 0x7f800000) == 0x7f800000;   /* inf or NaN */
		}
		for (int k = 0; k < FAST_W; k++)
			bad |= any[k] != 0;
		for (; j < m; j++) {
			uint32_t w;
			float f;
			memcpy(&w, src + (size_t)j * sizeof w, sizeof w);
			memcpy(&f, &w, sizeof f);
			r->v[j] = f;
			r->sg[j] = (signed char)((w << 1 != 0) - 2 * (w > 0x80000000u));
			bad |= (w & 0x7f800000) == 0x7f800000;
		}
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
	for (j = m; j < mm; j++) {
		r->v[j] = 1;
		r->sg[j] = 1;
	}
	if (kept)   /* e and ok as the program's last block left them */
		return;
	memset(r->e, 0, sizeof r->e);   /* +0.0, in every lane */
	for (j = 0; j < BLOCK; j += FAST_W)
		fv_store(&r->ok[j], fv_dup(1));
}

/* The exact value of element i, whose correctly rounded result is cr, from
 * the exact evaluation (ref_exact.c): 1, or 0 when it gives up. */
static int exact_at(const struct fprog *p, enum ub_dtype dt, const struct ub_array *in,
		    size_t i, uint64_t cr, struct ub_exact *ex)
{
	uint64_t bits[UB_MAX_INPUTS], xcr;
	for (int k = 0; k < p->nvars; k++)
		bits[k] = k >= 32 || (p->used >> k & 1) ? ub_load(dt, in[k].data, i) : 0;
	return ub_ref_exact(p->d, dt, bits, p->nvars, &xcr, ex) == 0 && xcr == cr;
}

/* Element j of a block from i0 (block below): its result into cr and
 * exact, or more[j] = 1. */
static void element(const struct fprog *p, enum ub_dtype dt, const struct ub_array *in,
		    size_t i0, int j, const struct fcol *root, const double *x0,
		    const unsigned char *nan, unsigned char *more, struct ub_array *cr,
		    struct ub_exact *exact)
{
	uint64_t y = 0;
	struct ub_exact ex = { NAN, 0 };
	struct fval r;
	int o;
	if (more[j])
		return;
	if (nan[j]) {
		y = ub_ref_encode(dt, NAN);
	} else if (p->one >= 0 && (o = overflows(p->one, x0[j])) != 0) {
		y = (o < 0 ? ub_dt_sign(dt) : 0) | ub_dt_inf(dt);
		ex.hi = o * (double)INFINITY;
	} else if (r = get(root, j),
		   !(o = decide(p, dt, x0[j], &r, &y, exact ? &ex : NULL)) ||
		   (o == 2 && !exact_at(p, dt, in, i0 + (size_t)j, y, &ex))) {
		more[j] = 1;
		return;
	}
	ub_store(cr->dt, cr->data, i0 + (size_t)j, y);
	if (exact) {   /* field by field: ex was written so */
		exact[i0 + (size_t)j].hi = ex.hi;
		exact[i0 + (size_t)j].lo = ex.lo;
	}
}

/* decide() on FAST_W f32 elements from j at once, for its common way: an
 * enclosure narrow enough, both ends rounding to the same float, no power
 * of two within (so the exact value is v); the lanes that go that way
 * (a bit each) with their floats in y.  The others (and those with NaN or
 * infinite inputs, or an overflowing single function) are element()'s.
 * The same operations as decide() and step(), on lanes. */
static inline __attribute__((always_inline)) unsigned
easy_f32(const struct fprog *p, const struct fcol *root, int j,
			 const double *x0, const unsigned char *nan,
			 const unsigned char *more, uint32_t *y)
{
	typedef float fvf __attribute__((vector_size(4 * FAST_W)));
	typedef int32_t fvs __attribute__((vector_size(4 * FAST_W)));
	const int64_t mant = (INT64_C(1) << 52) - 1;
	fvd v = fv_load(&root->v[j]), e = fv_load(&root->e[j]);
	fvd ok = fv_load(&root->ok[j]), sg = fv_load(&root->sg[j]);
	fvi go = (ok != 0) & ((e <= fv_abs(v) * 0x1p-45) | (e <= tiny(UB_F32)));
	fvd l = v - e, h = v + e;   /* step(l, 0), step(h, 1) */
	/* the encodings as unsigned lanes, as step() has them (wrapping) */
	typedef uint64_t fvq __attribute__((vector_size(8 * FAST_W)));
	fvq ul = (fvq)l, uh = (fvq)h;
	fvq zl = (fvq)((ul << 1) == 0), zh = (fvq)((uh << 1) == 0);
	fvq pl = (fvq)(l > 0), ph = (fvq)(h > 0);   /* all ones where true */
	ul = (zl & UINT64_C(0x8000000000000001)) | (~zl & (ul + 1 + 2 * pl));   /* pl: - 1 */
	uh = (zh & 1) | (~zh & (uh - 1 - 2 * ph));   /* ph: + 1 */
	l = fv_pick((sg > 0) & ((fvd)ul <= 0), fv_dup(0.0), (fvd)ul);
	h = fv_pick((sg < 0) & ((fvd)uh >= 0), fv_dup(-0.0), (fvd)uh);
	fvs bl = (fvs)__builtin_convertvector(l, fvf), bh = (fvs)__builtin_convertvector(h, fvf);
	/* pow2_within's common case: no power of two within */
	fvd a = fv_abs(v) - e, b = fv_abs(v) + e;
	fvi ua = (fvi)a, ub = (fvi)b;
	fvi nopw = ~(e > 0) | ~(a > 0) | (((ua >> 52) == (ub >> 52)) & ((ua & mant) != 0));
	/* go, the same float at both ends, no power of two, not more, not NaN:
	 * on the lanes too (more and nan are bytes), then a bit each */
	typedef signed char fvc __attribute__((vector_size(FAST_W)));
	fvc mo, na;
	memcpy(&mo, more + j, sizeof mo);
	memcpy(&na, nan + j, sizeof na);
	fvi fine = go & __builtin_convertvector(bl == bh, fvi) & nopw &
		   (__builtin_convertvector(mo, fvi) == 0) &
		   (__builtin_convertvector(na, fvi) == 0);
	unsigned easy = 0;
	for (int k = 0; k < FAST_W; k++) {
		easy |= (unsigned)(fine[k] & 1) << k;
		y[k] = (uint32_t)bl[k];
	}
	if (p->one >= 0)   /* an overflowing single function: element()'s */
		for (int k = 0; k < FAST_W; k++)
			if ((easy >> k & 1) && overflows(p->one, x0[j + k]))
				easy &= ~(1u << k);
	return easy;
}

/* A block of m elements: element j's inputs in[k][i0 + j].  Its results
 * into cr and exact (exact may be NULL), and, for each element the fast
 * path cannot decide, more[j] = 1 (the others 0). */
FAST_LANES
static void block(const struct fprog *p, enum ub_dtype dt, const struct ub_array *in,
		  size_t i0, int m, struct fcol *val, struct ub_array *cr,
		  struct ub_exact *exact, unsigned char *more)
{
	unsigned char nan[BLOCK];
	int mm = fast_lanes(m), j = 0;
	memset(nan, 0, (size_t)m);
	memset(more, 0, (size_t)m);
	int kept = fast_kept(p, val);
	for (int i = 0; i < p->n; i++)
		if (p->node[i].kind == FK_VAR)
			load(p, &p->node[i], dt, in, i0, m, mm, kept, &val[i], nan, more);
	fast_run(p, val, mm, kept);
	const struct fcol *root = &val[p->n - 1];
	const double *x0 = val[0].v;   /* fn's and one's argument: node 0 */
	if (dt == UB_F32 && cr->dt == UB_F32) {
		uint32_t *out = (uint32_t *)cr->data + i0, y[FAST_W];
		for (; j + FAST_W <= m; j += FAST_W) {
			unsigned easy = easy_f32(p, root, j, x0, nan, more, y);
			if (easy == (1u << FAST_W) - 1) {   /* the common case: all at once */
				memcpy(out + j, y, sizeof y);
				for (int k = 0; exact && k < FAST_W; k++)
					exact[i0 + (size_t)(j + k)] =
						(struct ub_exact){ root->v[j + k], 0 };
				continue;
			}
			for (int k = 0; k < FAST_W; k++) {
				if (!(easy >> k & 1)) {
					element(p, dt, in, i0, j + k, root, x0, nan, more, cr, exact);
					continue;
				}
				out[j + k] = y[k];
				if (exact) {
					exact[i0 + (size_t)(j + k)].hi = root->v[j + k];
					exact[i0 + (size_t)(j + k)].lo = 0;
				}
			}
		}
	}
	for (; j < m; j++)
		element(p, dt, in, i0, j, root, x0, nan, more, cr, exact);
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
	if (!usable(p, dt, nin) || !(val = fast_scratch(p->n)))
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
	if (p && (!usable(p, dt, nin) || !(val = fast_scratch(p->n))))
		p = NULL;
	for (size_t i0 = 0; i0 < n; i0 += BLOCK) {
		int m = n - i0 < BLOCK ? (int)(n - i0) : BLOCK;
		if (p)
			block(p, dt, in, i0, m, val, cr, exact, more);
		else
			memset(more, 1, (size_t)m);
		for (int j = 0; j < m; j++) {
			uint64_t eight;   /* the common case: 8 elements decided */
			if (!(j & 7) && m - j >= 8 &&
			    (memcpy(&eight, more + j, sizeof eight), eight == 0)) {
				j += 7;
				continue;
			}
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

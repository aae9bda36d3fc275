/* inputs_pre.c — the shapes of :pre that a domain (one interval per input)
 * does not say but that sampling can follow (inputs.h):
 *
 *   - a choice of points, (or (== x 0) (== x 10) ...): input x is drawn
 *     among the points that its format holds, uniformly;
 *   - a bound of a magnitude from below, (> (fabs x) c) or (>= ...): x is
 *     drawn in its domain outside the hole (-c', c'), c' the double next
 *     below c toward zero (so that the hole never holds an accepted value).
 *
 * Both clauses are still tested on every candidate (catalog_pre.c marks
 * them inexact): the shapes only make the draws land where the clause
 * holds, so that a region the encodings almost never hit is not rejected
 * 10,000 times in a row.  Each draw depends on (seed, input, element,
 * attempt) alone, as every draw of inputs.c does. */
#include "inputs.h"

#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

/* A literal (or its negation) that is exactly a double: 1 with *v. */
static int exact_literal(const struct ub_expr *e, double *v)
{
	if (e->kind == UB_E_OP && e->op == UB_NEG && exact_literal(e->args[0], v)) {
		*v = -*v;
		return 1;
	}
	if (e->kind != UB_E_NUM || e->prec >= 0 || strchr(e->num, '/') ||
	    ub_expr_const(e->num, v))
		return 0;
	mpfr_t x;
	mpfr_init2(x, 53);
	char *end;
	int t = mpfr_strtofr(x, e->num, &end, 0, MPFR_RNDN);
	*v = mpfr_get_d(x, MPFR_RNDN);
	mpfr_clear(x);
	return !*end && t == 0;
}

/* The input of (== x c) or (== c x) with c exact: its index and *v. */
static int equality(const struct ub_expr *e, int nin, double *v)
{
	if (e->kind != UB_E_OP || e->op != UB_EQ)
		return -1;
	const struct ub_expr *a = e->args[0], *b = e->args[1];
	if (b->kind == UB_E_VAR) {
		const struct ub_expr *t = a;
		a = b;
		b = t;
	}
	return a->kind == UB_E_VAR && a->var < nin && exact_literal(b, v) ? a->var : -1;
}

/* The points of a choice e for input *k (-1: any yet) into sh. */
static int points(const struct ub_expr *e, int nin, enum ub_dtype sdt, int *k,
		  struct ub_pre_shape *sh)
{
	if (e->kind == UB_E_OP && e->op == UB_OR)
		return points(e->args[0], nin, sdt, k, sh) && points(e->args[1], nin, sdt, k, sh);
	double v;
	int in = equality(e, nin, &v);
	if (in < 0 || (*k >= 0 && in != *k))
		return 0;
	*k = in;
	int64_t o = ub_ordered_bound(sdt, v, 1);
	if (ub_bits_to_double(sdt, ub_from_ordered(sdt, o)) == v && sh->npts < UB_PRE_POINTS)
		sh->pts[sh->npts++] = ub_from_ordered(sdt, v == 0 && signbit(v) ? -1 : o);
	return 1;
}

/* (> (fabs x) c), (>= (fabs x) c), or the same written from c's side:
 * the input x and the hole's half-width (the double toward zero from c). */
static int hole(const struct ub_expr *e, int nin, double *c)
{
	if (e->kind != UB_E_OP || (e->op != UB_GT && e->op != UB_GE && e->op != UB_LT &&
				   e->op != UB_LE))
		return -1;
	int below = e->op == UB_LT || e->op == UB_LE; /* c < |x| */
	const struct ub_expr *f = e->args[below], *k = e->args[!below];
	if (f->kind != UB_E_OP || f->op != UB_FABS || f->args[0]->kind != UB_E_VAR ||
	    f->args[0]->var >= nin || k->kind != UB_E_NUM || !(k->num_d > 0) ||
	    isinf(k->num_d))
		return -1;
	*c = nextafter(k->num_d, 0);
	return f->args[0]->var;
}

int ub_pre_shapes(const struct ub_op *op, struct ub_sampling *s,
		  struct ub_error *err)
{
	int n = op->nsampled, any = 0;
	struct ub_pre_shape *sh = calloc((size_t)(n > 0 ? n : 1), sizeof *sh);
	if (!sh)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (int c = 0; c < op->npre; c++) {
		const struct ub_expr *e = op->pre[c].e;
		struct ub_pre_shape one = {0};
		int k = -1;
		double h;
		if (points(e, n, UB_F64, &k, &one) && k >= 0 && !sh[k].npts) {
			enum ub_dtype sdt = (enum ub_dtype)s->sdt[k];
			one.npts = 0;     /* again, in the input's own format */
			int kk = k;
			points(e, n, sdt, &kk, &one);
			sh[k].npts = one.npts;
			memcpy(sh[k].pts, one.pts, sizeof one.pts);
			any |= one.npts > 0;
		} else if ((k = hole(e, n, &h)) >= 0 && h > sh[k].hole) {
			sh[k].hole = h;
			any = 1;
		}
	}
	if (!any) {
		free(sh);
		sh = NULL;
	}
	s->shape = sh;
	return 0;
}

int ub_pre_draw(const struct ub_pre_shape *sh, enum ub_dtype sdt, int64_t lo,
		int64_t hi, int by_value, uint64_t r, uint64_t *b)
{
	if (sh->npts) { /* the points inside the domain (a bound may cut) */
		uint64_t in[UB_PRE_POINTS];
		int n = 0;
		for (int j = 0; j < sh->npts; j++) {
			int64_t o = ub_ordered(sdt, sh->pts[j]);
			if (o >= lo && o <= hi)
				in[n++] = sh->pts[j];
		}
		if (!n)
			return 0;
		*b = in[r % (uint64_t)n];
		return 1;
	}
	if (!(sh->hole > 0))
		return 0;
	/* the domain's ordered encodings [lo, hi] without (-hole, hole) */
	int64_t hl = ub_ordered_bound(sdt, -sh->hole, 1) + 1;  /* above -hole */
	int64_t hh = ub_ordered_bound(sdt, sh->hole, 0) - 1;   /* below hole */
	if (hl > hh || hh < lo || hl > hi)
		return 0;
	uint64_t left = hl > lo ? (uint64_t)(hl - lo) : 0;
	uint64_t right = hh < hi ? (uint64_t)(hi - hh) : 0;
	if (!left && !right)
		return 0; /* the domain is inside the hole: the test rejects */
	if (by_value) { /* each side its share of the length */
		double vl = left ? ub_bits_to_double(sdt, ub_from_ordered(sdt, hl - 1)) -
				   ub_bits_to_double(sdt, ub_from_ordered(sdt, lo)) : 0;
		double vr = right ? ub_bits_to_double(sdt, ub_from_ordered(sdt, hi)) -
				    ub_bits_to_double(sdt, ub_from_ordered(sdt, hh + 1)) : 0;
		double u = (double)(r >> 11) * 0x1p-53, w = vl + vr;
		int on_left = left && (!right || !(w > 0) || !isfinite(w) ? (r & 1) : u * w < vl);
		double a = ub_bits_to_double(sdt, ub_from_ordered(sdt, on_left ? lo : hh + 1));
		double z = ub_bits_to_double(sdt, ub_from_ordered(sdt, on_left ? hl - 1 : hi));
		double t = (double)((r * 0x9e3779b97f4a7c15u) >> 11) * 0x1p-53;
		double v = a * (1 - t) + z * t;
		int64_t o = ub_ordered_bound(sdt, isfinite(v) ? v : a, 1);
		int64_t from = on_left ? lo : hh + 1, to = on_left ? hl - 1 : hi;
		*b = ub_from_ordered(sdt, o < from ? from : o > to ? to : o);
		return 1;
	}
	uint64_t u = r % (left + right);
	*b = ub_from_ordered(sdt, u < left ? lo + (int64_t)u : hh + 1 + (int64_t)(u - left));
	return 1;
}

/* ref_sdpa.c — the reference of scaled-dot-product attention's forward
 * (shaped_mm.h): out[i,c] = sum_t e_t v[t,c] / sum_t e_t, with
 * e_t = exp((d_t - d_max) / sqrt(D)), d_t = q[i] . k[t] over the keys t
 * allowed (all, or t <= i when causal), d_max the largest of them.
 *
 * Method: interval arithmetic in MPFR.  The dots d_t and the differences
 * d_t - d_max (<= 0) are exact (as ref_mm.c's sums: wide enough never to
 * round); 1/sqrt(D) is enclosed by mpfr_rec_sqrt rounded down and up;
 * every later operation is done twice, rounded down for the lower end and
 * up for the upper one, on monotone functions (a product of a nonpositive
 * difference by a positive scale, exp, sums of intervals, products by
 * v, the quotient by a positive sum), so [lo, hi] encloses the exact
 * value.  When both ends round to the same encoding of the dtype (round
 * to nearest is monotone), so does the exact value: the element is
 * decided, its value taken as the middle of the enclosure.  Otherwise the
 * working precision doubles, up to UB_REF_PREC_MAX bits; an element
 * still undecided (a result on a rounding boundary: two keys of equal
 * score whose values' mean is a tie) is marked so and counted.  An exact
 * zero (both ends zero: every value of the column a zero) is +0, as a sum
 * from +0 gives it.  A NaN or infinity among the row's q, keys or the
 * column's values gives NaN. */
#include "shaped_mm.h"
#include "reference.h"
#include "ref_internal.h"

#include <math.h>
#include <mpfr.h>
#include <stdlib.h>

#define P_START 64

struct iv {
	mpfr_t lo, hi;
};

/* What one query row works with. */
struct qrow {
	const struct ub_shaped_req *q;
	enum ub_dtype dt;
	size_t i, n, cols;        /* the row, its allowed keys, D */
	mpfr_t *diff;             /* d_t - d_max, exact */
	int special;              /* a NaN or inf in q[i] or the keys */
	struct iv *e, s, rs;      /* e_t, sum e_t, 1/sqrt(D) */
};

static double val(const struct ub_array *a, size_t k)
{
	return ub_bits_to_double(a->dt, ub_array_get(a, k));
}

/* The exact dots of row i with its allowed keys, minus the largest. */
static void dots(struct qrow *w, const struct ub_array *in)
{
	const struct ub_dtype_info *f = &ub_dtypes[w->dt];
	size_t D = w->cols, lg = 1, imax = 0;
	while (((size_t)1 << lg) < D + 2)
		lg++;
	mpfr_prec_t P = (mpfr_prec_t)(2 * (f->emax - f->emin + f->prec) + 4 + (long)lg + 8);
	mpfr_t *t = malloc(D * sizeof *t), x, y;
	mpfr_ptr *tp = malloc(D * sizeof *tp);
	mpfr_inits2(f->prec, x, y, (mpfr_ptr)0);
	for (size_t k = 0; k < D; k++)
		mpfr_init2(t[k], 2 * f->prec + 2), tp[k] = t[k];
	for (size_t u = 0; u < w->n; u++) {
		for (size_t k = 0; k < D; k++) {
			double a = val(&in[0], w->i * D + k), b = val(&in[1], u * D + k);
			w->special |= !isfinite(a) || !isfinite(b);
			mpfr_set_d(x, a, MPFR_RNDN);
			mpfr_set_d(y, b, MPFR_RNDN);
			mpfr_mul(t[k], x, y, MPFR_RNDN);   /* exact */
		}
		mpfr_init2(w->diff[u], P + 1);
		mpfr_sum(w->diff[u], tp, (unsigned long)D, MPFR_RNDN);   /* exact */
		if (mpfr_cmp(w->diff[u], w->diff[imax]) > 0)
			imax = u;
	}
	mpfr_t m;
	mpfr_init2(m, P + 1);
	mpfr_set(m, w->diff[imax], MPFR_RNDN);
	for (size_t u = 0; u < w->n; u++)
		mpfr_sub(w->diff[u], w->diff[u], m, MPFR_RNDN);   /* exact: P + 1 bits */
	mpfr_clear(m);
	for (size_t k = 0; k < D; k++)
		mpfr_clear(t[k]);
	mpfr_clears(x, y, (mpfr_ptr)0);
	free(t);
	free(tp);
}

static void iv_init(struct iv *v, mpfr_prec_t p)
{
	mpfr_inits2(p, v->lo, v->hi, (mpfr_ptr)0);
}

static void iv_clear(struct iv *v)
{
	mpfr_clears(v->lo, v->hi, (mpfr_ptr)0);
}

/* e_t and their sum at precision p. */
static void weights(struct qrow *w, mpfr_prec_t p)
{
	iv_init(&w->rs, p);
	iv_init(&w->s, p);
	mpfr_set_ui(w->s.lo, 0, MPFR_RNDN);
	mpfr_set_ui(w->s.hi, 0, MPFR_RNDN);
	mpfr_set_ui(w->rs.lo, (unsigned long)w->cols, MPFR_RNDN);
	mpfr_set_ui(w->rs.hi, (unsigned long)w->cols, MPFR_RNDN);
	mpfr_rec_sqrt(w->rs.lo, w->rs.lo, MPFR_RNDD);
	mpfr_rec_sqrt(w->rs.hi, w->rs.hi, MPFR_RNDU);
	for (size_t u = 0; u < w->n; u++) {
		struct iv *e = &w->e[u];
		iv_init(e, p);
		/* diff <= 0: diff * rs is smallest with the largest rs */
		mpfr_mul(e->lo, w->diff[u], w->rs.hi, MPFR_RNDD);
		mpfr_mul(e->hi, w->diff[u], w->rs.lo, MPFR_RNDU);
		mpfr_exp(e->lo, e->lo, MPFR_RNDD);
		mpfr_exp(e->hi, e->hi, MPFR_RNDU);
		mpfr_add(w->s.lo, w->s.lo, e->lo, MPFR_RNDD);
		mpfr_add(w->s.hi, w->s.hi, e->hi, MPFR_RNDU);
	}
}

static void weights_clear(struct qrow *w)
{
	for (size_t u = 0; u < w->n; u++)
		iv_clear(&w->e[u]);
	iv_clear(&w->s);
	iv_clear(&w->rs);
}

/* The enclosure of out[i, c] at precision p into r; *abs its dot's
 * absolute sum (sum |p_t v|, in double). */
static void enclose(struct qrow *w, const struct ub_array *v, size_t c,
		    mpfr_prec_t p, struct iv *r, double *abs)
{
	struct iv num, t;
	iv_init(&num, p);
	iv_init(&t, p);
	mpfr_set_ui(num.lo, 0, MPFR_RNDN);
	mpfr_set_ui(num.hi, 0, MPFR_RNDN);
	double s = mpfr_get_d(w->s.hi, MPFR_RNDN), a = 0;
	for (size_t u = 0; u < w->n; u++) {
		double x = val(v, u * w->cols + c);
		int neg = x < 0;
		/* x e: the smaller with e's lower end when x >= 0, its upper one
		 * when x < 0 */
		mpfr_mul_d(t.lo, neg ? w->e[u].hi : w->e[u].lo, x, MPFR_RNDD);
		mpfr_mul_d(t.hi, neg ? w->e[u].lo : w->e[u].hi, x, MPFR_RNDU);
		mpfr_add(num.lo, num.lo, t.lo, MPFR_RNDD);
		mpfr_add(num.hi, num.hi, t.hi, MPFR_RNDU);
		a += fabs(x) * mpfr_get_d(w->e[u].hi, MPFR_RNDN) / s;
	}
	/* num / s, s > 0: each end by the end of s that moves it outward */
	mpfr_div(r->lo, num.lo, mpfr_sgn(num.lo) >= 0 ? w->s.hi : w->s.lo, MPFR_RNDD);
	mpfr_div(r->hi, num.hi, mpfr_sgn(num.hi) >= 0 ? w->s.lo : w->s.hi, MPFR_RNDU);
	*abs = a;
	iv_clear(&num);
	iv_clear(&t);
}

static void set_mid(struct ub_exact *x, const struct iv *r, int decided)
{
	mpfr_t m, t;
	mpfr_init2(m, mpfr_get_prec(r->lo) + 2);
	mpfr_init2(t, mpfr_get_prec(r->lo) + 66);
	mpfr_add(m, r->lo, r->hi, MPFR_RNDN);
	mpfr_div_2ui(m, m, 1, MPFR_RNDN);
	x->hi = mpfr_get_d(m, MPFR_RNDN);
	mpfr_sub_d(t, m, x->hi, MPFR_RNDN);
	x->lo = decided ? mpfr_get_d(t, MPFR_RNDN) : NAN;
	mpfr_clears(m, t, (mpfr_ptr)0);
}

/* Query row i: every column, precision doubling until decided. */
static void row(struct qrow *w, const struct ub_array *in, struct ub_array *cr,
		struct ub_exact *exact, double *dotabs, size_t *undecided)
{
	size_t D = w->cols, left = D;
	char *done = calloc(D, 1);
	for (size_t c = 0; c < D && done; c++) {
		int special = w->special;
		for (size_t u = 0; u < w->n; u++)   /* the column's values */
			special |= !isfinite(val(&in[2], u * D + c));
		if (!special)
			continue;
		ub_array_set(cr, w->i * D + c, ub_ref_encode(w->dt, NAN));
		exact[w->i * D + c] = (struct ub_exact){ NAN, 0 };
		dotabs[w->i * D + c] = NAN;
		done[c] = 1, left--;
	}
	for (mpfr_prec_t p = P_START; done && left && p <= UB_REF_PREC_MAX; p *= 2) {
		weights(w, p);
		for (size_t c = 0; c < D; c++) {
			struct iv r;
			double abs;
			if (done[c])
				continue;
			iv_init(&r, p);
			enclose(w, &in[2], c, p, &r, &abs);
			/* an exact zero (every value a zero): +0, as a sum from +0 gives */
			if (mpfr_zero_p(r.lo) && mpfr_zero_p(r.hi))
				mpfr_set_zero(r.lo, 1), mpfr_set_zero(r.hi, 1);
			uint64_t lo = ub_ref_round_to(w->dt, r.lo), hi = ub_ref_round_to(w->dt, r.hi);
			int last = p * 2 > UB_REF_PREC_MAX;
			if (lo == hi || last) {
				done[c] = 1, left--;
				ub_array_set(cr, w->i * D + c, lo == hi ? lo : ub_ref_encode(w->dt, NAN));
				set_mid(&exact[w->i * D + c], &r, lo == hi);
				dotabs[w->i * D + c] = abs;
				*undecided += lo != hi;
			}
			iv_clear(&r);
		}
		weights_clear(w);
	}
	free(done);
}

int ub_sdpa_ref(const struct ub_shaped_req *q, enum ub_dtype dt, const struct ub_array *in,
		size_t rows, size_t cols, struct ub_array *cr, struct ub_exact *exact,
		double *dotabs, size_t *undecided, struct ub_error *err)
{
	size_t S = q->inner;
	struct qrow w = { .q = q, .dt = dt, .cols = cols };
	w.diff = malloc(S * sizeof *w.diff);
	w.e = malloc(S * sizeof *w.e);
	if (!w.diff || !w.e) {
		free(w.diff);
		free(w.e);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	for (size_t i = 0; i < rows; i++) {
		w.i = i;
		w.n = q->op->kind == UB_SH_SDPA_CAUSAL && i + 1 < S ? i + 1 : S;
		w.special = 0;
		dots(&w, in);
		row(&w, in, cr, exact, dotabs, undecided);
		for (size_t u = 0; u < w.n; u++)
			mpfr_clear(w.diff[u]);
	}
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	free(w.diff);
	free(w.e);
	return 0;
}

/* ref_shaped_bwd.c — the exact reference of the norms' backward passes
 * (shaped.h, docs/reductions.md), and the forward statistics they take by
 * default.
 *
 * Given the forward's mean and rstd as inputs (binary floats, as PyTorch
 * saves them), every output is a rational function of binary floats with
 * no root or transcendental: + - * and a division by cols.  It is
 * computed exactly with GMP rationals and rounded once to the dtype
 * (ub_ref_round_q): nothing is ever undecided.
 *   layer_norm_bwd  g = weight*dout, xhat = (x - mean)*rstd,
 *                   dx_j = rstd/C * (C g_j - sum g - xhat_j sum g*xhat),
 *                   dweight_j = sum_i dout_ij xhat_ij, dbias_j = sum_i dout_ij
 *   rms_norm_bwd    dx_j = rstd g_j - x_j rstd^3/C sum g*x,
 *                   dweight_j = sum_i dout_ij x_ij rstd_i
 * An output that reads a NaN or an infinity is NaN (IEEE would give an
 * infinity for some: the row is flagged, not guessed). */
#include "shaped.h"
#include "reference.h"
#include "ref_internal.h"

#include <math.h>
#include <mpfr.h>
#include <stdlib.h>

/* Input k's element i as an exact rational; 0 if it is not finite. */
static int get(mpq_ptr q, const struct ub_array *in, int k, size_t i)
{
	double d = ub_bits_to_double(in[k].dt, ub_array_get(&in[k], i));
	if (!isfinite(d))
		return 0;
	mpq_set_d(q, d); /* exact */
	return 1;
}

static void put(enum ub_dtype dt, int ok, mpq_srcptr v, struct ub_array *cr, size_t i,
		struct ub_exact *ex)
{
	if (!ok) {
		ub_array_set(cr, i, ub_ref_encode(dt, NAN));
		ex[i] = (struct ub_exact){NAN, 0};
		return;
	}
	ub_array_set(cr, i, ub_ref_round_q(dt, v, 0));
	ub_ref_exact_q(v, 0, &ex[i]);
}

/* The scratch rationals of one computation. */
enum { DY, X, W, MEAN, RSTD, G, XH, A, B, T, NQ };

static void qinit(mpq_t *q)
{
	for (int k = 0; k < NQ; k++)
		mpq_init(q[k]);
}

static void qclear(mpq_t *q)
{
	for (int k = 0; k < NQ; k++)
		mpq_clear(q[k]);
}

/* Element (i, j)'s g = weight*dout and xhat (layer norm: (x - mean)*rstd;
 * rms: x, the rstd applied by the caller) into q[G], q[XH]; 0 if an
 * input is not finite. */
static int terms(int rms, const struct ub_array *in, size_t cols, size_t i, size_t j,
		 mpq_t *q)
{
	int ok = get(q[DY], in, 0, i * cols + j) & get(q[X], in, 1, i * cols + j) &
		 get(q[W], in, 2, j);
	ok &= rms ? get(q[RSTD], in, 3, i) : get(q[MEAN], in, 3, i) & get(q[RSTD], in, 4, i);
	if (!ok)
		return 0;
	mpq_mul(q[G], q[W], q[DY]);
	if (rms) {
		mpq_set(q[XH], q[X]);
	} else {
		mpq_sub(q[XH], q[X], q[MEAN]);
		mpq_mul(q[XH], q[XH], q[RSTD]);
	}
	return 1;
}

int ub_shaped_ref_bwd_row(const struct ub_shaped_op *op, enum ub_dtype dt,
			  const struct ub_array *in, size_t cols, size_t r,
			  struct ub_array *cr, struct ub_exact **exact)
{
	int rms = op->kind == UB_SH_RMS_NORM_BWD, ok = 1;
	mpq_t q[NQ], c;
	qinit(q);
	mpq_init(c);
	mpq_set_ui(c, (unsigned long)cols, 1);
	for (size_t k = 0; k < cols; k++) { /* A = sum g, B = sum g*xhat */
		ok &= terms(rms, in, cols, r, k, q);
		if (!ok)
			break;
		mpq_add(q[A], q[A], q[G]);
		mpq_mul(q[T], q[G], q[XH]);
		mpq_add(q[B], q[B], q[T]);
	}
	for (size_t j = 0; j < cols; j++) {
		if (ok)
			terms(rms, in, cols, r, j, q); /* finite: the loop above */
		if (ok && rms) {
			/* rstd g - x rstd^3 B / C */
			mpq_mul(q[T], q[RSTD], q[RSTD]);
			mpq_mul(q[T], q[T], q[RSTD]);
			mpq_mul(q[T], q[T], q[B]);
			mpq_div(q[T], q[T], c);
			mpq_mul(q[T], q[T], q[X]);
			mpq_mul(q[G], q[G], q[RSTD]);
			mpq_sub(q[T], q[G], q[T]);
		} else if (ok) {
			/* rstd/C (C g - A - xhat B) */
			mpq_mul(q[G], q[G], c);
			mpq_sub(q[G], q[G], q[A]);
			mpq_mul(q[T], q[XH], q[B]);
			mpq_sub(q[T], q[G], q[T]);
			mpq_mul(q[T], q[T], q[RSTD]);
			mpq_div(q[T], q[T], c);
		}
		put(dt, ok, q[T], &cr[0], r * cols + j, exact[0]);
	}
	mpq_clear(c);
	qclear(q);
	return 0;
}

int ub_shaped_ref_cols(const struct ub_shaped_op *op, enum ub_dtype dt,
		       const struct ub_array *in, size_t rows, size_t cols,
		       struct ub_array *cr, struct ub_exact **exact,
		       struct ub_error *err)
{
	(void)err;
	int rms = op->kind == UB_SH_RMS_NORM_BWD;
	mpq_t q[NQ];
	qinit(q);
	for (size_t j = 0; j < cols; j++) {
		int ok = 1;
		mpq_set_ui(q[A], 0, 1); /* dweight */
		mpq_set_ui(q[B], 0, 1); /* dbias */
		for (size_t i = 0; ok && i < rows; i++) {
			if (!(ok = terms(rms, in, cols, i, j, q)))
				break;
			mpq_mul(q[T], q[DY], q[XH]);
			if (rms)
				mpq_mul(q[T], q[T], q[RSTD]);
			mpq_add(q[A], q[A], q[T]);
			mpq_add(q[B], q[B], q[DY]);
		}
		put(dt, ok, q[A], &cr[1], j, exact[1]);
		if (!rms)
			put(dt, ok, q[B], &cr[2], j, exact[2]);
	}
	qclear(q);
	return 0;
}

/* x's row r: the exact mean into m and the exact (biased) variance, or
 * (rms) the mean of the squares, into v; 0 if an element is not finite. */
static int moments(int rms, const struct ub_array *x, size_t cols, size_t r, mpq_ptr m,
		   mpq_ptr v)
{
	mpq_t e, c;
	int ok = 1;
	mpq_inits(e, c, (mpq_ptr)0);
	mpq_set_ui(c, (unsigned long)cols, 1);
	mpq_set_ui(m, 0, 1);
	mpq_set_ui(v, 0, 1);
	for (size_t k = 0; ok && k < cols; k++)
		if ((ok = get(e, x, 0, r * cols + k)))
			mpq_add(m, m, e);
	mpq_div(m, m, c);
	for (size_t k = 0; ok && k < cols; k++) {
		get(e, x, 0, r * cols + k);
		if (!rms)
			mpq_sub(e, e, m);
		mpq_mul(e, e, e);
		mpq_add(v, v, e);
	}
	mpq_div(v, v, c);
	mpq_clears(e, c, (mpq_ptr)0);
	return ok;
}

int ub_shaped_ref_stats(int rms, const struct ub_array *x, size_t rows, size_t cols,
			struct ub_array *mean, struct ub_array *rstd,
			struct ub_error *err)
{
	if ((mean && ub_array_alloc(mean, UB_F32, rows)) || ub_array_alloc(rstd, UB_F32, rows))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	mpq_t m, v;
	mpfr_t a;
	mpq_inits(m, v, (mpq_ptr)0);
	mpfr_init2(a, 160);
	for (size_t r = 0; r < rows; r++) {
		int ok = moments(rms, x, cols, r, m, v);
		if (mean)
			ub_array_set(mean, r, ok ? ub_ref_round_q(UB_F32, m, 0)
					     : ub_ref_encode(UB_F32, NAN));
		mpfr_set_q(a, v, MPFR_RNDN);
		mpfr_add_d(a, a, UB_SHAPED_EPS, MPFR_RNDN);
		mpfr_rec_sqrt(a, a, MPFR_RNDN);
		float f = ok ? mpfr_get_flt(a, MPFR_RNDN) : NAN;
		ub_array_set(rstd, r, ub_ref_encode(UB_F32, f));
	}
	mpfr_clear(a);
	mpq_clears(m, v, (mpq_ptr)0);
	return 0;
}

/* ref_mm.c — the exact reference of matmul, linear and bmm (shaped_mm.h):
 * every output element the exact dot product, rounded once.
 *
 * Each input is a binary float of p bits (p <= 53): the product of two is
 * exact in 2p bits, and a sum of such products (and linear's bias) is
 * exact in an MPFR number spanning the largest product's top bit to the
 * smallest's bottom bit plus the carries of the terms: 2 (emax - emin +
 * p) + 2 + log2(K + 1) bits hold any of them (products range over
 * [2^(2 (emin - p + 1)), 2^(2 emax + 2))).  mpfr_sum into that precision
 * is therefore exact, and the exact sum is rounded once to the dtype
 * (subnormals and overflow as IEEE 754 says; ub_ref_round).  A NaN or an
 * infinity among the inputs gives what mpfr_sum gives: IEEE's NaN for
 * inf * 0 or inf - inf, else the infinity; a zero sum is -0 only when
 * every term is (IEEE's rule for a sum).  Every element is decided. */
#include "shaped_mm.h"
#include "reference.h"
#include "ref_internal.h"

#include <math.h>
#include <mpfr.h>
#include <stdlib.h>

/* The left and right operands of output (i, j)'s k-th product. */
static void operands(const struct ub_shaped_req *q, const struct ub_array *in,
		     size_t i, size_t j, size_t k, size_t cols, double *a, double *b)
{
	size_t K = q->inner, m = q->rows / q->batch;
	enum ub_dtype dt = in[0].dt;
	*a = ub_bits_to_double(dt, ub_array_get(&in[0], i * K + k));
	if (q->op->kind == UB_SH_LINEAR)      /* weight (N, K) */
		*b = ub_bits_to_double(dt, ub_array_get(&in[1], j * K + k));
	else if (q->op->kind == UB_SH_BMM)    /* b (batch, K, N) */
		*b = ub_bits_to_double(dt, ub_array_get(&in[1], ((i / m) * K + k) * cols + j));
	else                                  /* b (K, N) */
		*b = ub_bits_to_double(dt, ub_array_get(&in[1], k * cols + j));
}

int ub_mm_ref(const struct ub_shaped_req *q, enum ub_dtype dt, const struct ub_array *in,
	      size_t rows, size_t cols, struct ub_array *cr, struct ub_exact *exact,
	      double *dotabs, size_t *undecided, struct ub_error *err)
{
	if (q->op->kind == UB_SH_SDPA || q->op->kind == UB_SH_SDPA_CAUSAL)
		return ub_sdpa_ref(q, dt, in, rows, cols, cr, exact, dotabs, undecided, err);
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	int bias = q->op->kind == UB_SH_LINEAR;
	size_t K = q->inner, n = K + (size_t)bias, lg = 1;
	while (((size_t)1 << lg) < n + 1)
		lg++;
	mpfr_prec_t P = (mpfr_prec_t)(2 * (f->emax - f->emin + f->prec) + 2 + (long)lg + 8);
	mpfr_t *t = malloc((K + 1) * sizeof *t), sum, x, y;
	mpfr_ptr *tp = malloc((K + 1) * sizeof *tp);
	if (!t || !tp) {
		free(t);
		free(tp);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	for (size_t k = 0; k < K + 1; k++) {
		mpfr_init2(t[k], 2 * f->prec + 2);
		tp[k] = t[k];
	}
	mpfr_inits2(f->prec, x, y, (mpfr_ptr)0);
	mpfr_init2(sum, P);
	for (size_t i = 0; i < rows; i++)
		for (size_t j = 0; j < cols; j++) {
			double a, b, abs = 0;
			for (size_t k = 0; k < K; k++) {
				operands(q, in, i, j, k, cols, &a, &b);
				mpfr_set_d(x, a, MPFR_RNDN);   /* exact: p bits */
				mpfr_set_d(y, b, MPFR_RNDN);
				mpfr_mul(t[k], x, y, MPFR_RNDN); /* exact: 2p + 2 bits */
				abs += fabs(a * b);
			}
			double bv = bias ? ub_bits_to_double(dt, ub_array_get(&in[2], j)) : 0;
			mpfr_set_d(t[K], bv, MPFR_RNDN);
			abs += fabs(bv);
			mpfr_sum(sum, tp, (unsigned long)n, MPFR_RNDN);   /* exact */
			ub_array_set(cr, i * cols + j, ub_ref_round_to(dt, sum));
			ub_ref_set_exact(&exact[i * cols + j], sum);
			dotabs[i * cols + j] = abs;
		}
	for (size_t k = 0; k < K + 1; k++)
		mpfr_clear(t[k]);
	mpfr_clears(sum, x, y, (mpfr_ptr)0);
	free(t);
	free(tp);
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	(void)undecided;   /* every element is exact */
	return 0;
}

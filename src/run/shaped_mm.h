/* shaped_mm.h — the matrix ops among the shaped ops (shaped.h,
 * docs/tensor-cores.md): matmul, linear (with bias), bmm, and the
 * forward of scaled-dot-product attention (causal or not).
 *
 * Sizes: a run's rows are the output's rows (M; bmm: batch * M; sdpa: L),
 * its cols the output's columns (N; sdpa: D), q->inner the depth of the
 * products (K; sdpa: S, the keys) and q->batch bmm's batch (1 for the
 * others).  Operands: matmul a (rows, inner), b (inner, cols); linear x
 * (rows, inner), weight (cols, inner), bias (cols): out = x weight^T +
 * bias, as torch.nn.functional.linear; bmm a (batch * M, inner), b
 * (batch, inner, cols); sdpa q (rows, cols), k and v (inner, cols): out =
 * softmax(q k^T / sqrt(D)) v, the causal form masking key t > query i
 * (torch's is_causal: the upper-left triangle).
 *
 * Besides the correctly rounded reference, each output element has its
 * dot's absolute sum: sum_k |a_ik b_kj| (+ |bias_j|), and for sdpa
 * sum_t |p_it v_tc| (p the exact softmax): the quantity a matmul's
 * normwise error bound is relative to (|y - exact| <= gamma_K sum |a b|);
 * a row reports the largest |y - exact| / that sum (max_dot_rel). */
#ifndef UB_SHAPED_MM_H
#define UB_SHAPED_MM_H

#include "shaped.h"

/* Whether op is a matrix op. */
int ub_shaped_is_mm(const struct ub_shaped_op *op);

/* Elements of an input or output of extent e in a run of q's sizes
 * (rows, cols the run's). */
size_t ub_mm_count(const struct ub_shaped_req *q, enum ub_extent e, size_t rows,
		   size_t cols);
/* The 2-D shape (*r, *c) an operand of extent e is dumped in. */
void ub_mm_dims(const struct ub_shaped_req *q, enum ub_extent e, size_t rows,
		size_t cols, size_t *r, size_t *c);

/* --shape for a matrix op: M,N,K (matmul, linear), B,M,N,K (bmm), L,S,D
 * (sdpa): each at least 1, every operand below 2^31 elements; sets
 * q->rows, cols, inner, batch.  ub_mm_default: the sizes without it. */
int ub_mm_shape_parse(const struct ub_shaped_op *op, const char *spec,
		      struct ub_shaped_req *q, struct ub_error *err);
void ub_mm_default(const struct ub_shaped_op *op, struct ub_shaped_req *q);
/* "64,64,64": the sizes as --shape gives them, into buf. */
const char *ub_mm_shape_text(const struct ub_shaped_req *q, size_t rows, size_t cols,
			     char *buf, size_t len);

/* The reference (reference/ref_mm.c): every output element correctly
 * rounded to dt into cr, its exact value into exact[] and its dot's
 * absolute sum into dotabs[]; an element the reference cannot decide is
 * marked so and counted in *undecided (sdpa only: the others are exact). */
int ub_mm_ref(const struct ub_shaped_req *q, enum ub_dtype dt, const struct ub_array *in,
	      size_t rows, size_t cols, struct ub_array *cr, struct ub_exact *exact,
	      double *dotabs, size_t *undecided, struct ub_error *err);
/* sdpa's (reference/ref_sdpa.c), called by ub_mm_ref. */
int ub_sdpa_ref(const struct ub_shaped_req *q, enum ub_dtype dt, const struct ub_array *in,
		size_t rows, size_t cols, struct ub_array *cr, struct ub_exact *exact,
		double *dotabs, size_t *undecided, struct ub_error *err);

/* The torch row (shaped_mm_torch.c): cuBLAS is not open, so this is its
 * documented contract on an sm_90 GPU, a model: f16, bf16: the products
 * through the sm_90 MMA unit (mma_unit.h) in k order, f32 between the
 * blocks of 16, the sum (+ bias in f32) rounded once to the dtype; f32:
 * fused multiply-adds in f32 in k order (allow_tf32 off, PyTorch's
 * default), or with tf32 set the unit with tf32 inputs (allow_tf32 on);
 * f64: fused multiply-adds in k order.  out allocated; *approx gets the
 * mma-model kind (the order is cuBLAS's own: the row is flagged).  sdpa:
 * no model (na says why, out left empty). */
int ub_mm_torch(const struct ub_shaped_req *q, enum ub_dtype dt, const struct ub_array *in,
		size_t rows, size_t cols, int tf32, struct ub_array *out, char *na,
		size_t nalen, uint64_t *approx, struct ub_error *err);

#endif

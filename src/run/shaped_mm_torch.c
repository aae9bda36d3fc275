/* shaped_mm_torch.c — the torch rows of the matrix ops (shaped_mm.h): what
 * torch.matmul, torch.bmm and torch.nn.functional.linear do on a CUDA
 * device, as far as it is documented.  PyTorch calls cuBLAS (cublasLt
 * for linear with a bias, the bias added in the epilogue), which is not
 * open: which kernel runs, its tile order along k and whether it splits k
 * are its own.  The documented contract (PyTorch's "CUDA semantics",
 * "TensorFloat-32 (TF32) on Ampere (and later) devices" and "Reduced
 * Precision Reduction in FP16 GEMMs") is: f16 and bf16 accumulate in
 * f32 on the tensor cores; f32 in f32 (FFMA), or on the tensor cores with
 * TF32 inputs when torch.backends.cuda.matmul.allow_tf32 is set (off by
 * default); f64 in f64.  The model takes that contract with one order:
 * k = 0 up, in one pass, the f16 and bf16 products through the sm_90 unit
 * (blocks of 16, mma_unit.h), TF32 through it in blocks of 8, f32 and
 * f64 as a chain of fused multiply-adds, then + bias in f32 (linear) and
 * one rounding to the dtype.  The order is a model: every such row is
 * flagged (mma-model), never shown as PyTorch's bits. */
#include "shaped_mm.h"
#include "mma_unit.h"
#include "ptx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The k-th operands of output (i, j), as encodings of dt. */
static void operands(const struct ub_shaped_req *q, const struct ub_array *in,
		     size_t i, size_t j, size_t k, size_t cols, uint64_t *a, uint64_t *b)
{
	size_t K = q->inner, m = q->rows / q->batch;
	*a = ub_array_get(&in[0], i * K + k);
	*b = q->op->kind == UB_SH_LINEAR ? ub_array_get(&in[1], j * K + k)
	     : q->op->kind == UB_SH_BMM ? ub_array_get(&in[1], ((i / m) * K + k) * cols + j)
	     : ub_array_get(&in[1], k * cols + j);
}

static uint64_t f32_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

/* The unit's format of dtype dt (tf32 for f32 with allow_tf32). */
static int unit_fmt(enum ub_dtype dt, int tf32)
{
	return dt == UB_F16 ? UB_MF16 : dt == UB_BF16 ? UB_MBF16 : tf32 ? UB_MTF32 : -1;
}

/* One output element in f32 (or f64 for f64): the dot in k order. */
static uint64_t dot(const struct ub_shaped_req *q, const struct ub_array *in,
		    enum ub_dtype dt, int tf32, size_t i, size_t j, size_t cols,
		    const struct ub_mma_model *mo, unsigned *doubt)
{
	size_t K = q->inner;
	int fmt = unit_fmt(dt, tf32);
	if (fmt < 0) {   /* fused multiply-adds, k = 0 up */
		double acc = 0;
		float accf = 0;
		for (size_t k = 0; k < K; k++) {
			uint64_t a, b;
			operands(q, in, i, j, k, cols, &a, &b);
			double x = ub_bits_to_double(dt, a), y = ub_bits_to_double(dt, b);
			if (dt == UB_F64)
				acc = fma(x, y, acc);
			else
				accf = fmaf((float)x, (float)y, accf);
		}
		uint64_t r;
		if (dt == UB_F64)
			memcpy(&r, &acc, 8);
		else
			r = f32_bits(accf);
		return r;
	}
	uint64_t a[16], b[16], c = 0;
	size_t blk = (size_t)mo->block;
	for (size_t k0 = 0; k0 < K; k0 += blk) {   /* zero-padded to the block */
		for (size_t k = 0; k < blk; k++) {
			a[k] = b[k] = 0;
			if (k0 + k < K)
				operands(q, in, i, j, k0 + k, cols, &a[k], &b[k]);
		}
		c = ub_mma_dot(mo, fmt, fmt, a, b, (int)blk, UB_MF32, c, doubt);
	}
	return c;
}

int ub_mm_torch(const struct ub_shaped_req *q, enum ub_dtype dt, const struct ub_array *in,
		size_t rows, size_t cols, int tf32, struct ub_array *out, char *na,
		size_t nalen, uint64_t *approx, struct ub_error *err)
{
	if (q->op->kind == UB_SH_SDPA || q->op->kind == UB_SH_SDPA_CAUSAL) {
		snprintf(na, nalen, "PyTorch's fused attention kernels (flash, memory-"
			 "efficient, cuDNN) are not modelled");
		return 0;
	}
	struct ub_mma_model mo = {0};
	int fmt = unit_fmt(dt, tf32);
	if (fmt >= 0 && ub_mma_model_get(90, UB_MMA_SYNC, fmt, fmt == UB_MTF32 ? 8 : 16, &mo))
		return ub_fail(err, UB_RUNTIME, "no sm_90 unit for %s", ub_dtypes[dt].name);
	if (ub_array_alloc(out, dt, rows * cols))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	unsigned doubt = 0;
	for (size_t i = 0; i < rows; i++)
		for (size_t j = 0; j < cols; j++) {
			uint64_t acc = dot(q, in, dt, tf32, i, j, cols, &mo, &doubt);
			double v = dt == UB_F64 ? ub_bits_to_double(UB_F64, acc)
						: ub_bits_to_double(UB_F32, acc);
			if (q->op->kind == UB_SH_LINEAR && dt != UB_F64)   /* epilogue, f32 */
				v = (double)((float)v + (float)ub_bits_to_double(dt,
						 ub_array_get(&in[2], j)));
			else if (q->op->kind == UB_SH_LINEAR)
				v += ub_bits_to_double(dt, ub_array_get(&in[2], j));
			ub_array_set(out, i * cols + j, ub_shaped_round(dt, v));
		}
	*approx |= 1ull << PTX_AX_MMA;   /* cuBLAS's order is modelled */
	return 0;
}

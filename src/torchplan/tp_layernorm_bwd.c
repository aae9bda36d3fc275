/* tp_layernorm_bwd.c — layer_norm backward over the last dimension as
 * PyTorch's CUDA kernels compute it (dx, dweight, dbias).
 *
 * Followed: pytorch/pytorch aten/src/ATen/native/cuda/layer_norm_kernel.cu
 * (commit 0005c538e468, the 2.x series; LayerNormBackwardKernelImplInternal
 * without ROCm) and block_reduce.cuh (BlockReduceSum).
 *
 * dx: layer_norm_grad_input_kernel_vectorized when cols is a multiple of
 * 4 (buffers taken as aligned), else layer_norm_grad_input_kernel; 128
 * threads; thread t folds elements 4t..4t+3, then + 512, ... (the
 * unvectorized kernel then runs its tail l, l + 1, ... < cols) into
 * x1 += dy * g and x2 += dy * g * (x - mean) * rstd; BlockReduceSum
 * (shfl_down tree per warp, the 4 warp sums and 28 zeros in warp 0);
 * per element ((fH * g * dy - (x - mean) * rstd * x2) - x1) * term1 with
 * fH = cols, term1 = (1 / fH) * rstd.
 *
 * dweight, dbias: rows < 128: GammaBetaBackwardSimpleCUDAKernel, each
 * column summed over the rows in order; otherwise
 * GammaBetaBackwardCUDAKernel_32x32 (rows and cols multiples of 32) or
 * GammaBetaBackwardCUDAKernel: 32 warps per column block, warp y taking
 * rows (b * 32 + y) * 8 + 0..7 for b = 0, 1, ... and then its remainder
 * rows, the 32 partial sums added as a halving tree (the 32x32 kernel's
 * butterfly gives the same bits).
 *
 * Contraction, read from nvcc 13.0's PTX (sm_90) for these expressions:
 * p = dy * g rounded, x1 = x1 + p (not fused), x2 = fma((x - mean) * p,
 * rstd, x2); the dx epilogue is fused nowhere; dweight terms are
 * fma(rstd, dy * (x - mean), s). */
#include "tp_internal.h"

#include <stdlib.h>

struct bwd_row {
	const float *dy, *x, *g;
	float mean, rstd;
};

static void stat_elem(const struct bwd_row *r, int j, float *x1, float *x2)
{
	float p = r->dy[j] * (r->g ? r->g[j] : 1.0f);
	*x1 = *x1 + p;
	*x2 = fmaf((r->x[j] - r->mean) * p, r->rstd, *x2);
}

/* BlockReduceSum over 128 threads. */
static float block_sum128(const float *v)
{
	float lane[32], w[32];
	for (int k = 0; k < 4; k++) {
		memcpy(lane, v + 32 * k, sizeof lane);
		w[k] = tp_down_sum(lane);
	}
	for (int k = 4; k < 32; k++)
		w[k] = 0.0f;
	return tp_down_sum(w);
}

static void dx_row(const struct bwd_row *r, int cols, enum ub_dtype dt, uint64_t *dx)
{
	float s1[128], s2[128];
	int vec = cols % 4 == 0;
	for (int t = 0; t < 128; t++) {
		int l = 4 * t;
		s1[t] = s2[t] = 0.0f;
		for (; l + 3 < cols; l += 512)
			for (int k = 0; k < 4; k++)
				stat_elem(r, l + k, &s1[t], &s2[t]);
		for (; !vec && l < cols; l++)
			stat_elem(r, l, &s1[t], &s2[t]);
	}
	float x1 = block_sum128(s1), x2 = block_sum128(s2);
	float fh = (float)cols, term1 = (1.0f / fh) * r->rstd;
	for (int j = 0; j < cols; j++) {
		float f = fh * (r->g ? r->g[j] : 1.0f) * r->dy[j];
		f = f - (r->x[j] - r->mean) * r->rstd * x2;
		f = f - x1;
		dx[j] = tp_store(dt, f * term1);
	}
}

/* One column's dweight and dbias terms of row i into s1, s2. */
static void gb_term(const float *dy, const float *x, const float *mean, const float *rstd,
		    size_t cols, size_t i, size_t j, float *s1, float *s2)
{
	float d = dy[i * cols + j];
	*s1 = fmaf(rstd[i], d * (x[i * cols + j] - mean[i]), *s1);
	*s2 = *s2 + d;
}

static void gamma_beta(const float *dy, const float *x, const float *mean, const float *rstd,
		       size_t rows, size_t cols, size_t j, float *dg, float *db)
{
	if (rows < 128) {
		*dg = *db = 0.0f;
		for (size_t i = 0; i < rows; i++)
			gb_term(dy, x, mean, rstd, cols, i, j, dg, db);
		return;
	}
	float a[32], b[32];
	size_t full = rows / (32 * 8);
	for (size_t y = 0; y < 32; y++) {
		a[y] = b[y] = 0.0f;
		for (size_t bc = 0; bc <= full; bc++) /* the last pass is the remainder */
			for (size_t ii = 0, off = (bc * 32 + y) * 8; ii < 8; ii++)
				if (off + ii < rows)
					gb_term(dy, x, mean, rstd, cols, off + ii, j, &a[y], &b[y]);
	}
	*dg = tp_xor_sum(a, 32);
	*db = tp_xor_sum(b, 32);
}

enum tp_status tp_layer_norm_bwd(const struct tp_device *dev, const struct tp_tensor *dy,
				 const struct tp_tensor *x, const uint64_t *mean,
				 const uint64_t *rstd, const uint64_t *weight,
				 uint64_t *dx, uint64_t *dweight, uint64_t *dbias,
				 struct tp_why *why)
{
	enum tp_status st = tp_check(dev, x, why);
	if (st != TP_EXACT)
		return st;
	if (dy->dt != x->dt || dy->rows != x->rows || dy->cols != x->cols)
		return tp_na(why, "dy (%s, %zu x %zu) does not match x (%s, %zu x %zu)",
			     ub_dtypes[dy->dt].name, dy->rows, dy->cols, ub_dtypes[x->dt].name,
			     x->rows, x->cols);
	size_t rows = x->rows, cols = x->cols, n = rows * cols;
	float *fdy = malloc((2 * n + 2 * rows + cols) * sizeof *fdy);
	if (!fdy)
		return tp_na(why, "out of memory for %zu x %zu elements", rows, cols);
	float *fx = fdy + n, *fm = fx + n, *fr = fm + rows, *fg = fr + rows;
	for (size_t i = 0; i < n; i++) {
		fdy[i] = tp_load(x->dt, dy->bits[i]);
		fx[i] = tp_load(x->dt, x->bits[i]);
	}
	for (size_t i = 0; i < rows; i++) {
		fm[i] = tp_load(UB_F32, mean[i]);
		fr[i] = tp_load(UB_F32, rstd[i]);
	}
	for (size_t j = 0; j < cols; j++)
		fg[j] = weight ? tp_load(x->dt, weight[j]) : 1.0f;
	for (size_t i = 0; dx && i < rows; i++) {
		struct bwd_row r = { fdy + i * cols, fx + i * cols, weight ? fg : NULL,
				     fm[i], fr[i] };
		dx_row(&r, (int)cols, x->dt, dx + i * cols);
	}
	for (size_t j = 0; (dweight || dbias) && j < cols; j++) {
		float g, b;
		gamma_beta(fdy, fx, fm, fr, rows, cols, j, &g, &b);
		if (dweight)
			dweight[j] = tp_store(x->dt, g);
		if (dbias)
			dbias[j] = tp_store(x->dt, b);
	}
	free(fdy);
	return TP_EXACT;
}

/* tp_layernorm.c — layer_norm forward over the last dimension as
 * PyTorch's CUDA kernels compute it.
 *
 * Followed: pytorch/pytorch aten/src/ATen/native/cuda/layer_norm_kernel.cu
 * (commit 0005c538e468, the 2.x series), its Welford operator from
 * ATen/native/SharedReduceOps.h (WelfordOps) and block_reduce.cuh.
 * mean and rstd are float32 for every input dtype (layer_norm_cuda
 * allocates them in the accumulate type).
 *
 * LayerNormKernelImplInternal takes vectorized_layer_norm_kernel when
 * cols is a multiple of 4 and at most 2^24 (and the buffers are 16-byte
 * aligned, as fresh tensors are): 128 threads as (32, 4); thread
 * t = x + 32 y folds vectors t, t + 128, ... of 4 elements with
 * cuWelfordOnlineSum; the lanes combine by shfl_down with
 * cuWelfordCombine (own data as B, the lane below as A), the four warps'
 * lane 0 through shared memory (2,3 into 0,1, then 1 into 0); the
 * variance is sigma2 / N and rstd = rsqrtf(var + eps).  Otherwise
 * RowwiseMomentsCUDAKernel (512 threads, WelfordOps.reduce per element
 * j = t, t + 512, ..., BlockReduce with WelfordOps.combine, var = m2 / n)
 * and LayerNormForwardCUDAKernel.
 *
 * Where the source multiplies and adds, nvcc's default contraction fuses;
 * which product it fuses was read from the PTX that nvcc 13.0 (sm_90)
 * writes for these expressions:
 *   online:  mean' = fma(rcp(n'), d, mean), s' = fma(d, x - mean', s)
 *   combine: mean = fma(A.mean, nA, B.mean * nB),
 *            s = fma(A.n * (d * d), nB, A.s + B.s)
 *   WelfordOps.reduce: mean' = mean + d / n', m2' = fma(d, x - mean', m2)
 *   WelfordOps.combine: mean = fma(d, r, a.mean),
 *            m2 = fma(a.n * (d * d), r, a.m2 + b.m2), r = b.n / (a.n + b.n)
 *   out (vectorized): fma(g, r * (x - mean), b), g * (r * (x - mean)),
 *            fma(r, x - mean, b) or r * (x - mean) as weight/bias exist
 *   out (LayerNormForwardCUDAKernel): fma((x - mean) * r, g, b) with
 *            g = 1, b = 0 standing in for a missing weight or bias. */
#include "tp_internal.h"

#include <stdlib.h>

struct wln {
	float mean, s2, n;
};

static struct wln online(float v, struct wln c)
{
	float d = v - c.mean, n = c.n + 1.0f, rcp = 1.0f / n;
	float mean = fmaf(rcp, d, c.mean);
	return (struct wln){ mean, fmaf(d, v - mean, c.s2), n };
}

/* cuWelfordCombine(B, A) */
static struct wln combine_ln(struct wln b, struct wln a)
{
	float d = b.mean - a.mean, n = a.n + b.n;
	if (!(n > 0.0f))
		return (struct wln){ 0.0f, 0.0f, n };
	float coef = 1.0f / n, na = a.n * coef, nb = b.n * coef;
	return (struct wln){ fmaf(a.mean, na, b.mean * nb),
			     fmaf(a.n * (d * d), nb, a.s2 + b.s2), n };
}

/* The statistics of one row through compute_stats (vectorized kernel). */
static void stats_vec(const float *x, int cols, float *mean, float *var)
{
	struct wln lane[128], t[32];
	int nvec = cols / 4;
	for (int th = 0; th < 128; th++) {
		lane[th] = (struct wln){ 0, 0, 0 };
		for (int i = th; i < nvec; i += 128)
			for (int k = 0; k < 4; k++)
				lane[th] = online(x[4 * i + k], lane[th]);
	}
	for (int w = 0; w < 4; w++) {
		struct wln *v = lane + 32 * w;
		for (int off = 16; off > 0; off /= 2) {
			for (int i = 0; i < 32; i++)
				t[i] = combine_ln(v[i], i + off < 32 ? v[i + off] : v[i]);
			memcpy(v, t, sizeof t);
		}
	}
	for (int off = 2; off > 0; off /= 2)
		for (int y = 0; y < off; y++)
			lane[32 * y] = combine_ln(lane[32 * y], lane[32 * (y + off)]);
	*mean = lane[0].mean;
	*var = lane[0].s2 / (float)cols;
}

struct wf {
	float mean, m2, nf;
};

static struct wf wf_reduce(struct wf a, float x)
{
	float nf = a.nf + 1.0f, d = x - a.mean, mean = a.mean + d / nf;
	return (struct wf){ mean, fmaf(d, x - mean, a.m2), nf };
}

static struct wf wf_combine(struct wf a, struct wf b)
{
	if (a.nf == 0)
		return b;
	if (b.nf == 0)
		return a;
	float d = b.mean - a.mean, n = a.nf + b.nf, r = b.nf / n;
	return (struct wf){ fmaf(d, r, a.mean), fmaf(a.nf * (d * d), r, a.m2 + b.m2), n };
}

static struct wf wf_warp(struct wf *v)
{
	struct wf t[32];
	for (int off = 16; off > 0; off /= 2) {
		for (int i = 0; i < 32; i++)
			t[i] = wf_combine(v[i], i + off < 32 ? v[i + off] : v[i]);
		memcpy(v, t, sizeof t);
	}
	return v[0];
}

/* The statistics of one row through RowwiseMomentsCUDAKernel. */
static void stats_rowwise(const float *x, int cols, float *mean, float *var)
{
	struct wf th[512], lanes[32];
	for (int t = 0; t < 512; t++) {
		th[t] = (struct wf){ 0, 0, 0 };
		for (int j = t; j < cols; j += 512)
			th[t] = wf_reduce(th[t], x[j]);
	}
	for (int w = 0; w < 16; w++)
		lanes[w] = wf_warp(th + 32 * w);
	for (int l = 16; l < 32; l++)
		lanes[l] = (struct wf){ 0, 0, 0 };
	struct wf r = wf_warp(lanes);
	*mean = r.mean;
	*var = r.m2 / (r.nf > 0 ? r.nf : 0.0f);
}

/* One output element. */
static float ln_out(int vec, float x, float mean, float r, const float *g, const float *b)
{
	if (!vec)
		return fmaf((x - mean) * r, g ? *g : 1.0f, b ? *b : 0.0f);
	if (g && b)
		return fmaf(*g, r * (x - mean), *b);
	if (g)
		return *g * (r * (x - mean));
	if (b)
		return fmaf(r, x - mean, *b);
	return r * (x - mean);
}

enum tp_status tp_layer_norm_fwd(const struct tp_device *dev, const struct tp_math *math,
				 const struct tp_tensor *x, const uint64_t *weight,
				 const uint64_t *bias, double eps, uint64_t *out,
				 uint64_t *mean, uint64_t *rstd, enum ub_dtype *stat_dt,
				 struct tp_why *why)
{
	enum tp_status st = tp_check(dev, x, why);
	if (st != TP_EXACT)
		return st;
	int cols = (int)x->cols, vec = cols % 4 == 0 && cols <= (1 << 24);
	float *v = malloc((size_t)cols * 3 * sizeof *v), *g = v + cols, *b = g + cols;
	if (!v)
		return tp_na(why, "out of memory for a row of %d elements", cols);
	for (int j = 0; j < cols; j++) {
		g[j] = weight ? tp_load(x->dt, weight[j]) : 1.0f;
		b[j] = bias ? tp_load(x->dt, bias[j]) : 0.0f;
	}
	struct tp_fn fn;
	tp_fn_init(&fn, math);
	float feps = (float)eps;
	for (size_t r = 0; r < x->rows; r++) {
		const uint64_t *xr = x->bits + r * x->cols;
		float m, var;
		for (int j = 0; j < cols; j++)
			v[j] = tp_load(x->dt, xr[j]);
		if (vec)
			stats_vec(v, cols, &m, &var);
		else
			stats_rowwise(v, cols, &m, &var);
		float rs = tp_rsqrtf(&fn, var + feps);
		for (int j = 0; j < cols; j++)
			out[r * x->cols + j] = tp_store(x->dt, ln_out(vec, v[j], m, rs,
				weight ? g + j : NULL, bias ? b + j : NULL));
		if (mean)
			mean[r] = tp_store(UB_F32, m);
		if (rstd)
			rstd[r] = tp_store(UB_F32, rs);
	}
	free(v);
	if (stat_dt)
		*stat_dt = UB_F32;
	return tp_fn_status(&fn);
}

/* tp_softmax.c — softmax and log_softmax over the last dimension as
 * PyTorch's CUDA kernels compute them.
 *
 * Followed: pytorch/pytorch aten/src/ATen/native/cuda/SoftMax.cu (commit
 * 000cace5a401, the 2.x series: host_softmax), PersistentSoftmax.cuh
 * (commit c238a2686998; the unmasked path of the later masked version
 * does the same arithmetic) and block_reduce.cuh (commit 0d1a44aee51d).
 *
 * host_softmax takes the persistent warp softmax when cols <= 1024 and
 * cols * sizeof(dtype) <= 4096 (every cols <= 1024 for f32/f16/bf16):
 * one warp of W = min(next_pow2(cols), 32) lanes per row; lane l holds
 * elements l, l + W, ... (padding -inf), takes the maximum over them in
 * order with (m > e ? m : e), then a butterfly (shfl_xor) with
 * (a < b ? b : a) whose lanes may end with different bits for NaN or
 * signed zeros, so each lane is simulated; then its sum of
 * expf(e - max) from 0, a butterfly sum, and per element
 * expf(e - max) / sum, or e - max - logf(sum).
 *
 * Beyond, the block softmax (cunn_SoftMaxForward, or ...Smem when the
 * row fits in shared memory and cols is a multiple of ILP): a block of
 * B = min(cols, 1024) rounded up to 32 threads; thread t reads vectors
 * of ILP = 16 / sizeof(dtype) elements t, t + B, ..., folding each
 * element in order with fmaxf from -FLT_MAX (and later the sum of expf),
 * the non-shared-memory kernel leaving the last cols % (ILP * B) elements
 * to a scalar tail loop (element cols - last + t, then + B); the block
 * reduction is cuda_utils::BlockReduce: a shfl_down tree in each warp,
 * the warp results through shared memory into warp 0 (identity beyond
 * the number of warps), a second shfl_down tree.  Epilogue per element:
 * expf(x - max) / sum, or x - max - logf(sum).  Input and output are
 * taken as freshly allocated, 16-byte aligned tensors (PyTorch's caching
 * allocator), so the kernels' alignment shift is 0. */
#include "tp_internal.h"

#include <float.h>
#include <stdlib.h>

static float max_gt(float a, float b)
{
	return a > b ? a : b;
}

static int next_pow2(size_t n)
{
	int p = 1;
	while ((size_t)p < n)
		p *= 2;
	return p;
}

/* One row through softmax_warp_forward. */
static void warp_row(const struct tp_fn *fn, enum ub_dtype dt, const uint64_t *x,
		     int cols, int log, uint64_t *out)
{
	int p = next_pow2((size_t)cols), w = p < 32 ? p : 32, iters = p / w;
	float e[1024], mx[32], sum[32];
	for (int i = 0; i < p; i++)
		e[i] = i < cols ? tp_load(dt, x[i]) : -INFINITY;
	for (int l = 0; l < w; l++) {
		mx[l] = e[l];
		for (int it = 1; it < iters; it++)
			mx[l] = max_gt(mx[l], e[l + it * w]);
	}
	tp_xor_max(mx, w);
	for (int l = 0; l < w; l++) {
		sum[l] = 0.0f;
		for (int it = 0; it < iters; it++) {
			int k = l + it * w;
			e[k] = log ? e[k] : tp_expf(fn, e[k] - mx[l]);
			sum[l] = sum[l] + (log ? tp_expf(fn, e[k] - mx[l]) : e[k]);
		}
	}
	float s = tp_xor_sum(sum, w), ls = log ? tp_logf(fn, s) : 0;
	for (int k = 0; k < cols; k++) {
		float m = mx[k % w], r;
		if (log)
			r = e[k] - m - ls;
		else
			r = s == 0.0f ? NAN : e[k] / s;
		out[k] = tp_store(dt, r);
	}
}

struct block {
	int threads, ilp, smem;
};

/* The kernel and block size host_softmax picks for a row of cols. */
static struct block block_config(const struct tp_device *dev, enum ub_dtype dt, int cols)
{
	struct block b;
	int size = ub_dtypes[dt].bits / 8, mx = cols < 1024 ? cols : 1024;
	b.threads = (mx + 31) / 32 * 32;
	b.ilp = 16 / size;
	size_t fit = (dev->shared_per_block - (size_t)(b.threads / 32) * 4) / (size_t)size;
	b.smem = (size_t)cols < fit && cols % b.ilp == 0;
	return b;
}

/* Thread t's fold of f over its elements, in the order it reads them;
 * f is fmaxf (max = NULL) or + expf(x - *max). */
static float thread_fold(const struct tp_fn *fn, const struct block *b, const float *x,
			 int cols, int t, const float *max)
{
	float acc = max ? 0.0f : -FLT_MAX;
	int last = b->smem ? 0 : cols % (b->ilp * b->threads), off;
	for (off = t; off * b->ilp < cols - last; off += b->threads)
		for (int j = 0; j < b->ilp; j++) {
			float v = x[off * b->ilp + j];
			acc = max ? acc + tp_expf(fn, v - *max) : tp_fmaxf(acc, v);
		}
	for (off = cols - last + t; last && off < cols; off += b->threads) {
		float v = x[off];
		acc = max ? acc + tp_expf(fn, v - *max) : tp_fmaxf(acc, v);
	}
	return acc;
}

/* cuda_utils::BlockReduce over the threads' values v (max or sum). */
static float block_reduce(float *v, int threads, int is_max)
{
	float lanes[32];
	int warps = threads / 32;
	for (int w = 0; w < warps; w++)
		v[w] = is_max ? tp_down_max(v + 32 * w) : tp_down_sum(v + 32 * w);
	for (int l = 0; l < 32; l++)
		lanes[l] = l < warps ? v[l] : (is_max ? -FLT_MAX : 0.0f);
	return is_max ? tp_down_max(lanes) : tp_down_sum(lanes);
}

/* One row through cunn_SoftMaxForward / cunn_SoftMaxForwardSmem; work
 * holds cols + 1024 floats. */
static void block_row(const struct tp_device *dev, const struct tp_fn *fn, enum ub_dtype dt,
		      const uint64_t *x, int cols, int log, uint64_t *out, float *work)
{
	struct block b = block_config(dev, dt, cols);
	float *v = work, *tv = work + cols;
	for (int k = 0; k < cols; k++)
		v[k] = tp_load(dt, x[k]);
	for (int t = 0; t < b.threads; t++)
		tv[t] = thread_fold(fn, &b, v, cols, t, NULL);
	float max = block_reduce(tv, b.threads, 1);
	for (int t = 0; t < b.threads; t++)
		tv[t] = thread_fold(fn, &b, v, cols, t, &max);
	float sum = block_reduce(tv, b.threads, 0), ls = log ? tp_logf(fn, sum) : 0;
	for (int k = 0; k < cols; k++)
		out[k] = tp_store(dt, log ? v[k] - max - ls : tp_expf(fn, v[k] - max) / sum);
}

enum tp_status tp_softmax(const struct tp_device *dev, const struct tp_math *math,
			  const struct tp_tensor *x, int log, uint64_t *out,
			  struct tp_why *why)
{
	enum tp_status st = tp_check(dev, x, why);
	if (st != TP_EXACT)
		return st;
	struct tp_fn fn;
	tp_fn_init(&fn, math);
	int cols = (int)x->cols, size = ub_dtypes[x->dt].bits / 8;
	if (cols <= 1024 && cols * size <= 4096) {
		for (size_t r = 0; r < x->rows; r++)
			warp_row(&fn, x->dt, x->bits + r * x->cols, cols, log, out + r * x->cols);
		return tp_fn_status(&fn);
	}
	float *work = malloc(((size_t)cols + TP_MAX_THREADS) * sizeof *work);
	if (!work)
		return tp_na(why, "out of memory for a row of %d elements", cols);
	for (size_t r = 0; r < x->rows; r++)
		block_row(dev, &fn, x->dt, x->bits + r * x->cols, cols, log,
			  out + r * x->cols, work);
	free(work);
	return tp_fn_status(&fn);
}

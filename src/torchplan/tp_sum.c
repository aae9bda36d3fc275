/* tp_sum.c — x.sum(dim=-1) of a contiguous rows x cols tensor as
 * PyTorch's generic CUDA reduction computes it.
 *
 * Followed: aten/src/ATen/native/cuda/Reduce.cuh of the PyTorch 1.13 /
 * 2.0 series (ReduceConfig with input_vec_size 4 for every dtype,
 * setReduceConfig, ReduceOp::run with block_y_reduce before
 * block_x_reduce, input_vectorized_thread_reduce_impl,
 * thread_reduce_impl, global_reduce) and ReduceSumProdKernel.cu
 * (sum_kernel_impl: vt0 = 4, accumulation in float for f16/bf16, a + b,
 * identity 0).  The tensor is taken as freshly allocated (its base
 * 16-byte aligned), so row r starts r * cols elements past an aligned
 * address, which fixes the kernel's alignment shift per row.
 *
 * Launch configuration (setReduceConfig): the reduced dimension is the
 * fastest, so dim0 = cols, dim1 = rows; when cols > 128 the input is read
 * as vectors of 4 (dim0 /= 4).  block_width = min(last_pow2(dim0), 32),
 * block_height = min(last_pow2(dim1), 512 / width), then width =
 * min(last_pow2(dim0), 512 / height) (dims >= 512 count as 512).  The
 * lanes split the input; the warps split it too (block_y_reduce) when
 * that leaves each thread >= 16 * height or >= 256 values, else each warp
 * row takes its own output; with the input split over warps, >= 256
 * values per thread and few enough blocks (grid <= SMs * (threads per SM
 * / threads)), the input is split over ctas_per_output blocks too, whose
 * partial sums the last block adds (global_reduce).
 *
 * Per thread: vectorized, the unaligned head of the row (threads
 * x = shift..3, warp 0, block 0), then vectors idx, idx + step, ... into
 * 4 accumulators by lane of the vector, then the tail element
 * tail_start + x into accumulator 0, then ((a0 + a1) + a2) + a3;
 * unvectorized, 4 accumulators over idx + i * step, the same combine.
 * Then the warps' values pairwise over y (offsets height/2 .. 1), the
 * lanes through shared memory (offsets width/2 .. 32) and by shfl_down
 * with offsets 1, 2, 4, 8, 16. */
#include "tp_internal.h"

#include <stdlib.h>

struct rcfg {
	int vec, bw, bh, ctas;
	int mult_x, mult_y, mult_c; /* input_mult[0..2] */
	int step;                   /* step_input */
};

static int last_pow2(int n)
{
	n |= n >> 1;
	n |= n >> 2;
	n |= n >> 4;
	n |= n >> 8;
	n |= n >> 16;
	return n - (n >> 1) > 1 ? n - (n >> 1) : 1;
}

static int div_up(long a, long b)
{
	return (int)((a + b - 1) / b);
}

static struct rcfg config(const struct tp_device *dev, int rows, int cols)
{
	struct rcfg c = { 0 };
	long dim0 = cols, dim1 = rows;
	c.vec = dim0 > 128;
	if (c.vec)
		dim0 /= 4;
	int d0 = dim0 < 512 ? last_pow2((int)dim0) : 512;
	int d1 = dim1 < 512 ? last_pow2((int)dim1) : 512;
	c.bw = d0 < 32 ? d0 : 32;
	c.bh = d1 < 512 / c.bw ? d1 : 512 / c.bw;
	c.bw = d0 < 512 / c.bh ? d0 : 512 / c.bh;
	c.mult_x = 1;
	c.step = c.bw;
	int step_out = 1, vpt = div_up(cols, c.step);
	if (vpt >= c.bh * 16 || vpt >= 256) {
		c.mult_y = c.step;
		c.step *= c.bh;
	} else {
		step_out = c.bh;
	}
	int threads = c.bw * c.bh, target = dev->sm_count * (dev->max_threads_per_sm / threads);
	int grid = div_up(rows, step_out);
	c.ctas = 1;
	vpt = div_up(cols, c.step);
	if (c.mult_y && vpt >= 256 && grid <= target) {
		int c1 = div_up(target, grid), c2 = div_up(vpt, 16), c3 = div_up(vpt, 256);
		c.ctas = c1 < c2 ? c1 : c2;
		if (c.ctas < c3)
			c.ctas = c3;
		if (c.ctas > 1) {
			c.mult_c = c.step;
			c.step *= c.ctas;
		}
	}
	return c;
}

static float combine4(const float *a)
{
	return ((a[0] + a[1]) + a[2]) + a[3];
}

/* input_vectorized_thread_reduce_impl for thread (x, y) of block cta;
 * x is the row's elements, row its index. */
static float thread_vec(const struct rcfg *c, const float *x, int cols, int row,
			int tx, int ty, int cta)
{
	int tail_ok = (!c->mult_y || ty == 0) && (!c->mult_c || cta == 0);
	int shift = (int)(((long)row * cols) % 4), end = cols, base = 0;
	float a[4] = { 0, 0, 0, 0 };
	if (shift > 0) { /* data -= shift; end += shift; ... */
		if (tx >= shift && tx < 4 && tail_ok)
			a[0] = a[0] + x[tx - shift];
		end = cols + shift - 4;
		base = 4 - shift;
		shift = 4 - shift;
	}
	int idx = tx * c->mult_x + ty * c->mult_y + cta * c->mult_c;
	for (; idx * 4 + 3 < end; idx += c->step)
		for (int i = 0; i < 4; i++)
			a[i] = a[i] + x[base + idx * 4 + i];
	int t = end - end % 4 + tx;
	if (tail_ok && t < end)
		a[0] = a[0] + x[base + t];
	return combine4(a);
}

/* thread_reduce_impl (contiguous, output_vec_size 1). */
static float thread_plain(const struct rcfg *c, const float *x, int cols, int tx, int ty,
			  int cta)
{
	int idx = tx * c->mult_x + ty * c->mult_y + cta * c->mult_c, s = c->step;
	float a[4] = { 0, 0, 0, 0 };
	for (; idx + 3 * s < cols; idx += 4 * s)
		for (int i = 0; i < 4; i++)
			a[i] = a[i] + x[idx + i * s];
	for (int i = 0; i < 4 && idx < cols; i++, idx += s)
		a[i] = a[i] + x[idx];
	return combine4(a);
}

/* block_y_reduce then block_x_reduce over v[x + y * bw]; returns the
 * value of thread (0, 0). */
static float block_reduce(const struct rcfg *c, float *v, int y_reduce)
{
	for (int off = c->bh / 2; y_reduce && off > 0; off /= 2)
		for (int y = 0; y < off; y++)
			for (int x = 0; x < c->bw; x++)
				v[x + y * c->bw] = v[x + y * c->bw] + v[x + (y + off) * c->bw];
	int dx = c->bw;
	for (int off = dx / 2; dx > 32 && off >= 32; off /= 2)
		for (int x = 0; x < off; x++)
			v[x] = v[x] + v[x + off];
	if (dx > 32)
		dx = 32;
	for (int off = 1; off < dx; off *= 2) /* lane 0 reads only lanes < dx */
		for (int x = 0; x + off < dx; x++)
			v[x] = v[x] + v[x + off];
	return v[0];
}

/* One row: every block of the row, then global_reduce; v holds the
 * block's threads, staged ctas floats. */
static float row_sum(const struct rcfg *c, const float *x, int cols, int row, float *v,
		     float *staged)
{
	int hy = c->mult_y ? c->bh : 1; /* the warps that read this row */
	for (int cta = 0; cta < c->ctas; cta++) {
		for (int y = 0; y < hy; y++)
			for (int tx = 0; tx < c->bw; tx++)
				v[tx + y * c->bw] = c->vec ? thread_vec(c, x, cols, row, tx, y, cta)
							   : thread_plain(c, x, cols, tx, y, cta);
		staged[cta] = block_reduce(c, v, c->mult_y != 0);
	}
	if (c->ctas == 1)
		return staged[0];
	int n = c->bw * c->bh;
	for (int t = 0; t < n; t++) {
		v[t] = 0.0f;
		for (int i = t; i < c->ctas; i += n)
			v[t] = v[t] + staged[i];
	}
	return block_reduce(c, v, 1);
}

enum tp_status tp_sum_lastdim(const struct tp_device *dev, const struct tp_tensor *x,
			      uint64_t *out, struct tp_why *why)
{
	enum tp_status st = tp_check(dev, x, why);
	if (st != TP_EXACT)
		return st;
	if (x->cols == 1)
		return tp_na(why, "a sum over one element: whether PyTorch runs the reduction "
			     "(0 + x) or a copy is not modelled");
	if (dev->max_threads_per_sm < 512)
		return tp_na(why, "%d threads per SM: below one block of the reduction",
			     dev->max_threads_per_sm);
	int rows = (int)x->rows, cols = (int)x->cols;
	struct rcfg c = config(dev, rows, cols);
	float *buf = malloc(((size_t)cols + 512 + (size_t)c.ctas) * sizeof *buf);
	if (!buf)
		return tp_na(why, "out of memory for a row of %d elements", cols);
	float *v = buf + cols, *staged = v + 512;
	for (int r = 0; r < rows; r++) {
		for (int j = 0; j < cols; j++)
			buf[j] = tp_load(x->dt, x->bits[(size_t)r * cols + j]);
		out[r] = tp_store(x->dt, row_sum(&c, buf, cols, r, v, staged));
	}
	free(buf);
	return TP_EXACT;
}

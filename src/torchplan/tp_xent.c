/* tp_xent.c — cross_entropy(logits, target) as PyTorch's CUDA kernels
 * compute it: log_softmax over the classes (tp_softmax: host_softmax in
 * the logits' dtype) then nll_loss.
 *
 * Followed: aten/src/ATen/native/LossNLL.cpp (cross_entropy_loss without
 * label smoothing: nll_loss_nd(log_softmax(self, 1, self.dtype), ...))
 * and aten/src/ATen/native/cuda/Loss.cu of the 2.0 series
 * (nll_loss_forward_no_reduce_cuda_kernel for 'none';
 * nll_loss_forward_reduce_cuda_kernel_2d for 'mean': one block of
 * NLL_LOSS_THREADS = 32 threads, thread t subtracting rows t, t + 32, ...
 * from a float 0, thread 0 adding the 32 partial sums in order from 0,
 * and the weights likewise, then sum / total weight).  No class weights;
 * ignore_index is PyTorch's default -100. */
#include "tp_internal.h"

#include <stdlib.h>

#define NLL_THREADS 32
#define IGNORE_INDEX (-100)

enum tp_status tp_cross_entropy(const struct tp_device *dev, const struct tp_math *math,
				const struct tp_tensor *logits, const int64_t *target,
				int mean, uint64_t *out, struct tp_why *why)
{
	enum tp_status st = tp_check(dev, logits, why);
	if (st != TP_EXACT)
		return st;
	size_t rows = logits->rows, cols = logits->cols;
	for (size_t i = 0; i < rows; i++)
		if (target[i] != IGNORE_INDEX && (target[i] < 0 || (uint64_t)target[i] >= cols))
			return tp_na(why, "target %lld of row %zu is not a class in [0, %zu) "
				     "(the CUDA kernel asserts)", (long long)target[i], i, cols);
	uint64_t *lp = malloc(rows * cols * sizeof *lp);
	if (!lp)
		return tp_na(why, "out of memory for %zu x %zu log-probabilities", rows, cols);
	st = tp_softmax(dev, math, logits, 1, lp, why);
	if (st == TP_NA) {
		free(lp);
		return st;
	}
	enum ub_dtype dt = logits->dt;
	if (!mean) {
		for (size_t i = 0; i < rows; i++)
			out[i] = target[i] == IGNORE_INDEX ? tp_store(dt, 0.0f)
				: tp_store(dt, -tp_load(dt, lp[i * cols + (size_t)target[i]]));
		free(lp);
		return st;
	}
	float part[NLL_THREADS], wpart[NLL_THREADS], acc = 0.0f, wacc = 0.0f;
	for (int t = 0; t < NLL_THREADS; t++) {
		part[t] = wpart[t] = 0.0f;
		for (size_t i = (size_t)t; i < rows; i += NLL_THREADS) {
			if (target[i] == IGNORE_INDEX)
				continue;
			part[t] = part[t] - tp_load(dt, lp[i * cols + (size_t)target[i]]);
			wpart[t] = wpart[t] + 1.0f;
		}
	}
	for (int t = 0; t < NLL_THREADS; t++) {
		acc = acc + part[t];
		wacc = wacc + wpart[t];
	}
	out[0] = tp_store(dt, wacc != 0.0f ? acc / wacc : acc);
	free(lp);
	return st;
}

/* tp_unmodelled.c — the plans of torch_reduce.h whose CUDA order is not
 * modelled: they answer n/a with the reason, never a guess.
 *
 * rms_norm: PyTorch 2.4 to 2.7 (aten/src/ATen/native/layer_norm.cpp,
 * rms_norm_symint) have no fused CUDA kernel; the op is the chain
 * x.float().pow(2).mean(-1, keepdim).add_(eps).rsqrt(), x * that, * weight,
 * .type_as(x).  The mean is the generic reduction of those versions, whose
 * setReduceConfig differs from the 1.13/2.0 one tp_sum.c follows, so its
 * order is not known here. */
#include "tp_internal.h"

enum tp_status tp_rms_norm_fwd(const struct tp_device *dev, const struct tp_math *math,
			       const struct tp_tensor *x, const uint64_t *weight,
			       double eps, uint64_t *out, struct tp_why *why)
{
	(void)dev, (void)math, (void)x, (void)weight, (void)eps, (void)out;
	return tp_na(why, "no torch plan for rms_norm: PyTorch runs it as the chain pow, mean, "
		     "add, rsqrt, mul, whose mean goes through a newer Reduce.cuh configuration "
		     "than the one modelled");
}

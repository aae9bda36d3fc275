/* tp_unmodelled.c — the plans of torch_reduce.h whose CUDA order is not
 * modelled yet: they answer n/a with the reason, never a guess. */
#include "tp_internal.h"

enum tp_status tp_layer_norm_bwd(const struct tp_device *dev, const struct tp_tensor *dy,
				 const struct tp_tensor *x, const uint64_t *mean,
				 const uint64_t *rstd, const uint64_t *weight,
				 uint64_t *dx, uint64_t *dweight, uint64_t *dbias,
				 struct tp_why *why)
{
	(void)dev, (void)dy, (void)x, (void)mean, (void)rstd, (void)weight;
	(void)dx, (void)dweight, (void)dbias;
	return tp_na(why, "no torch plan for layer_norm backward yet (its CUDA order, "
		     "layer_norm_grad_input_kernel and GammaBetaBackwardCUDAKernel, is not modelled)");
}

enum tp_status tp_rms_norm_fwd(const struct tp_device *dev, const struct tp_math *math,
			       const struct tp_tensor *x, const uint64_t *weight,
			       double eps, uint64_t *out, struct tp_why *why)
{
	(void)dev, (void)math, (void)x, (void)weight, (void)eps, (void)out;
	return tp_na(why, "no torch plan for rms_norm yet (PyTorch's chain pow, mean, "
		     "add, rsqrt, mul is not modelled)");
}

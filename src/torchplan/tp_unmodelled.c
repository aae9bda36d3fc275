/* tp_unmodelled.c — the plans of torch_reduce.h whose CUDA order is not
 * modelled yet: they answer n/a with the reason, never a guess. */
#include "tp_internal.h"

enum tp_status tp_rms_norm_fwd(const struct tp_device *dev, const struct tp_math *math,
			       const struct tp_tensor *x, const uint64_t *weight,
			       double eps, uint64_t *out, struct tp_why *why)
{
	(void)dev, (void)math, (void)x, (void)weight, (void)eps, (void)out;
	return tp_na(why, "no torch plan for rms_norm yet (PyTorch's chain pow, mean, "
		     "add, rsqrt, mul is not modelled)");
}

/* torch_reduce.h — PyTorch's CUDA reductions modelled on the host: each
 * function computes what PyTorch's CUDA kernel writes for a contiguous
 * rows x cols tensor (the reduction runs over the last dimension, cols),
 * in the order that kernel computes it, from the launch configuration the
 * kernel's host code picks for that shape and device.
 *
 * Every model names the PyTorch source file it follows (and the commit of
 * that file that was read) in its own .c file and in docs/torchplan.md.
 *
 * Values are encodings (uint64_t, low bits used), as everywhere in
 * ulpbench: inputs and outputs of dtype f32, f16 or bf16.  As in PyTorch,
 * f16/bf16 are read into float ("accumulate type"), every step is float32
 * arithmetic, and only the stored outputs are rounded to the dtype.
 *
 * The arithmetic +, -, *, / and sqrt are IEEE float32 round-to-nearest,
 * and a product feeding an add is fused into one fma where nvcc's default
 * contraction (-fmad=true) fuses it (each model says where).  CUDA's
 * expf, logf and rsqrtf go through approximate instructions (ex2.approx,
 * lg2.approx, rsqrt.approx) whose bits the host cannot know: they are
 * supplied by the caller (struct tp_math).  With the built-in stand-ins
 * (correctly rounded functions) a result follows PyTorch's order exactly
 * but its bits may differ from the GPU's where an elementary function
 * does: the status says which (TP_ORDER rather than TP_EXACT).
 *
 * Where the order depends on something not known on the host at plan
 * time (a non-power-of-two warp size, a launch configuration the model
 * does not cover, a dtype the kernel does not take), the function returns
 * TP_NA with the reason in why->msg, and writes no output. */
#ifndef UB_TORCH_REDUCE_H
#define UB_TORCH_REDUCE_H

#include "ub.h"

#include <stddef.h>
#include <stdint.h>

/* The device properties the launch configurations read
 * (cudaDeviceProp fields in brackets). */
struct tp_device {
	const char *name;
	int sm_count;              /* multiProcessorCount */
	int warp_size;             /* warpSize (C10_WARP_SIZE is 32 on CUDA) */
	int max_threads_per_block; /* maxThreadsPerBlock */
	int max_threads_per_sm;    /* maxThreadsPerMultiProcessor */
	size_t shared_per_block;   /* sharedMemPerBlock (bytes) */
};

/* The known devices, declared once:
 * X(name, SMs, warp, threads/block, threads/SM, shared bytes/block). */
#define TP_DEVICES(X)                                   \
	X("h100", 132, 32, 1024, 2048, 49152)           \
	X("h200", 132, 32, 1024, 2048, 49152)

/* Fills *dev with the named device's properties ("h100", "h200"); returns
 * 0, or UB_USAGE naming the valid ones in err. */
int tp_device_find(const char *name, struct tp_device *dev, struct ub_error *err);
/* The default device (H100 SXM). */
void tp_device_default(struct tp_device *dev);

/* Elementary functions as the device computes them, on float32 encodings.
 * exact = 1 says they return the device's bits (a model of libdevice's
 * expf/logf and of rsqrtf, e.g. through captured approx tables); then
 * results are TP_EXACT.  Any member may be NULL: the built-in stand-in
 * (correctly rounded) is used and results are TP_ORDER. */
struct tp_math {
	uint32_t (*expf_)(uint32_t x, void *ctx);
	uint32_t (*logf_)(uint32_t x, void *ctx);
	uint32_t (*rsqrtf_)(uint32_t x, void *ctx);
	void *ctx;
	int exact;
};

enum tp_status {
	TP_EXACT = 0, /* PyTorch's order and, given exact math, its bits */
	TP_ORDER = 1, /* PyTorch's order; expf/logf/rsqrtf were stand-ins */
	TP_NA = 2     /* not modelled: why->msg says why; no output written */
};

struct tp_why {
	char msg[256];
};

/* A contiguous row-major rows x cols tensor of encodings. */
struct tp_tensor {
	enum ub_dtype dt;
	size_t rows, cols;
	const uint64_t *bits;
};

/* softmax / log_softmax over the last dimension (dim=-1, output dtype =
 * input dtype): out has rows*cols elements.  cols <= 1024 (and
 * cols * sizeof(dtype) <= 4096): the persistent warp softmax; beyond: the
 * block softmax.  math may be NULL. */
enum tp_status tp_softmax(const struct tp_device *dev, const struct tp_math *math,
			  const struct tp_tensor *x, int log, uint64_t *out,
			  struct tp_why *why);

/* x.sum(dim=-1), output dtype = input dtype: out has rows elements; the
 * generic reduction (Reduce.cuh) with the configuration it picks. */
enum tp_status tp_sum_lastdim(const struct tp_device *dev, const struct tp_tensor *x,
			      uint64_t *out, struct tp_why *why);

/* layer_norm over the last dimension (normalized_shape = (cols,)):
 * weight and bias have cols elements of x's dtype, or are NULL (no affine).
 * out: rows*cols of x's dtype; mean and rstd: rows each, of dtype
 * *stat_dt (float32 for every input dtype, as PyTorch's CUDA kernel
 * returns its accumulate type).  eps is converted to float as PyTorch
 * does.  Any of mean/rstd may be NULL. */
enum tp_status tp_layer_norm_fwd(const struct tp_device *dev, const struct tp_math *math,
				 const struct tp_tensor *x, const uint64_t *weight,
				 const uint64_t *bias, double eps, uint64_t *out,
				 uint64_t *mean, uint64_t *rstd, enum ub_dtype *stat_dt,
				 struct tp_why *why);

/* layer_norm backward: dy and x are rows x cols of one dtype; mean and
 * rstd rows float32 each (the forward's outputs); weight cols or NULL.
 * dx: rows*cols; dweight, dbias: cols each (x's dtype), any may be NULL. */
enum tp_status tp_layer_norm_bwd(const struct tp_device *dev, const struct tp_tensor *dy,
				 const struct tp_tensor *x, const uint64_t *mean,
				 const uint64_t *rstd, const uint64_t *weight,
				 uint64_t *dx, uint64_t *dweight, uint64_t *dbias,
				 struct tp_why *why);

/* rms_norm over the last dimension (torch.nn.functional.rms_norm):
 * weight cols or NULL; out rows*cols of x's dtype.  eps < 0 means None
 * (PyTorch then uses the dtype's epsilon). */
enum tp_status tp_rms_norm_fwd(const struct tp_device *dev, const struct tp_math *math,
			       const struct tp_tensor *x, const uint64_t *weight,
			       double eps, uint64_t *out, struct tp_why *why);

/* cross_entropy(logits, target) with logits rows x cols (classes last),
 * target rows class indices, reduction 'mean' (mean = 1) or 'none'
 * (mean = 0: out has rows elements; 'mean': out has one).  Output dtype =
 * logits dtype. */
enum tp_status tp_cross_entropy(const struct tp_device *dev, const struct tp_math *math,
				const struct tp_tensor *logits, const int64_t *target,
				int mean, uint64_t *out, struct tp_why *why);

/* "exact", "order", "n/a". */
const char *tp_status_name(enum tp_status st);

#endif

/* tp_internal.h — what the torch plan models share: float32 arithmetic
 * on the host as the GPU does it (round to nearest, fma where nvcc fuses),
 * conversions between float and the stored dtypes, the elementary
 * functions, warp trees over simulated lanes, and the n/a helper.
 *
 * The library is built with -ffp-contract=off (Makefile.am), so every C
 * operator on float below is one IEEE float32 operation rounded to
 * nearest, and fmaf() is the one place a product is not rounded. */
#ifndef UB_TP_INTERNAL_H
#define UB_TP_INTERNAL_H

#include "torch_reduce.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

/* The threads one simulated block may hold (the largest launch any
 * model makes is 1024). */
#define TP_MAX_THREADS 1024

static inline float tp_f(uint32_t b)
{
	float f;
	memcpy(&f, &b, sizeof f);
	return f;
}

static inline uint32_t tp_b(float f)
{
	uint32_t b;
	memcpy(&b, &f, sizeof b);
	return b;
}

/* An element of dtype dt (f32, f16, bf16) as a float: exact. */
float tp_load(enum ub_dtype dt, uint64_t bits);
/* A float rounded to dt, to nearest even (CUDA's __float2half_rn and
 * c10::BFloat16's round_to_nearest_even); a NaN becomes the canonical NaN
 * of the GPU (0x7fffffff, 0x7fff, 0x7fc0). */
uint64_t tp_store(enum ub_dtype dt, float f);

/* The elementary functions of a plan, and whether they are the device's. */
struct tp_fn {
	const struct tp_math *m;
	int exact;
};
void tp_fn_init(struct tp_fn *fn, const struct tp_math *m);
float tp_expf(const struct tp_fn *fn, float x);
float tp_logf(const struct tp_fn *fn, float x);
float tp_rsqrtf(const struct tp_fn *fn, float x);
/* TP_EXACT when the functions used were the device's, else TP_ORDER. */
enum tp_status tp_fn_status(const struct tp_fn *fn);

/* Fills why and returns TP_NA (printf style). */
enum tp_status tp_na(struct tp_why *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Checks the common arguments: a dtype f32/f16/bf16, rows*cols that fit,
 * a device with warp size 32 and max threads >= the launches' 1024;
 * returns TP_NA with a reason, or TP_EXACT (0) when the plan can go on. */
enum tp_status tp_check(const struct tp_device *dev, const struct tp_tensor *x,
			struct tp_why *why);

/* The compare-select maximum PyTorch's softmax kernels use: a < b ? b : a
 * (a NaN b is dropped, a NaN a kept; max(+0, -0) keeps a). */
static inline float tp_max_sel(float a, float b)
{
	return a < b ? b : a;
}

/* CUDA's fmaxf (PTX max.f32): a NaN operand yields the other; -0 < +0. */
static inline float tp_fmaxf(float a, float b)
{
	if (a != a)
		return b;
	if (b != b)
		return a;
	if (a == 0 && b == 0)
		return signbit(a) ? b : a;
	return a > b ? a : b;
}

/* A sum tree over w lanes of v (w a power of two <= 32) by __shfl_xor:
 * at each step lane i takes v[i] + v[i ^ off] (addition commutes, so
 * every lane holds the same bits); the result of lane 0. */
float tp_xor_sum(float *v, int w);
/* The same butterfly for tp_max_sel, whose operands do not commute for
 * NaN and signed zeros: every lane is simulated and lane l's final value
 * is left in v[l]. */
void tp_xor_max(float *v, int w);
/* A 32-lane tree by __shfl_down (lanes whose source lies beyond the
 * warp receive their own value): v[i] = op(v[i], v[i + off]); the
 * result is lane 0's. */
float tp_down_sum(float *v);
float tp_down_max(float *v);

#endif

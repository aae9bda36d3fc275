/* ptx_mufu.h — which approximate instructions have a measured model
 * (src/exec/mufu.h), and which. */
#ifndef UB_PTX_MUFU_H
#define UB_PTX_MUFU_H

#include "mufu.h"
#include "ptx_internal.h"

/* The measured model (enum ub_mufu_fn) of op, or -1: tanh.approx.f32 and
 * the f64 ones have none. */
static inline int ptx_mufu_fn(int op)
{
	switch (op) {
	case PTX_DIV_APPROX_F32: return UB_MF_DIV_APPROX;
	case PTX_DIV_FULL_F32: return UB_MF_DIV_FULL;
	case PTX_RCP_APPROX_F32: return UB_MF_RCP;
	case PTX_SQRT_APPROX_F32: return UB_MF_SQRT;
	case PTX_RSQRT_APPROX_F32: return UB_MF_RSQRT;
	case PTX_EX2_APPROX_F32: return UB_MF_EX2;
	case PTX_LG2_APPROX_F32: return UB_MF_LG2;
	case PTX_SIN_APPROX_F32: return UB_MF_SIN;
	case PTX_COS_APPROX_F32: return UB_MF_COS;
	case PTX_EX2_APPROX_H: return UB_MF_EX2_H;
	case PTX_TANH_APPROX_H: return UB_MF_TANH_H;
	default: return -1;
	}
}

static inline int ptx_measured_op(int op)
{
	return ptx_mufu_fn(op) >= 0;
}

#endif

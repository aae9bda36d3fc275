/* ptx_float.c — the models of the approximate instructions (the
 * directed rounding modes are ptx_dir.h's).
 *
 * Approximate instructions (div.approx, div.full, rcp/sqrt/rsqrt/ex2/lg2/
 * sin/cos/tanh .approx) run on the GPU's special function unit, whose
 * output bits are not documented.  What we compute is a MODEL, not the
 * GPU's bits: the correctly rounded (or nearly: computed in double, then
 * rounded to float) value of the same math, which lies within the
 * documented error of the instruction.  Every run that executes one says
 * so in ptx_run_info.approx_mask. */
#include "ptx_num.h"

/* ptx_f32_approx: the models of ptx_num.h's ptx_f32_quot (div.approx,
 * div.full, rcp.approx) and ptx_f32_ex2, and those of the functions
 * below. */
float ptx_f32_approx(int op, float a, float b, int ftz)
{
	float r;
	if (op == PTX_DIV_APPROX_F32 || op == PTX_DIV_FULL_F32 ||
	    op == PTX_RCP_APPROX_F32)
		return ptx_f32_quot(op, a, b, ftz);
	if (ftz)
		a = ptx_ftz32(a);
	switch (op) {
	/* sqrt.approx.f32: 2^-23 relative documented. */
	case PTX_SQRT_APPROX_F32: r = sqrtf(a); break;
	/* rsqrt.approx.f32: 2^-22.9 relative; rsqrt(-0) = -inf. */
	case PTX_RSQRT_APPROX_F32: r = (float)(1.0 / sqrt((double)a)); break;
	/* ex2.approx.f32: 2 ulp; lg2.approx.f32: 2^-22 abs/rel. */
	case PTX_EX2_APPROX_F32: r = ptx_f32_ex2(a, 0); break;   /* ptx_num.h */
	case PTX_LG2_APPROX_F32: r = (float)log2((double)a); break;
	/* sin/cos.approx.f32: 2^-20.5 absolute on [-2pi, 2pi]. */
	case PTX_SIN_APPROX_F32: r = (float)sin((double)a); break;
	case PTX_COS_APPROX_F32: r = (float)cos((double)a); break;
	/* tanh.approx.f32: 2^-11 relative (sm_75 and later). */
	default: r = (float)tanh((double)a); break;
	}
	return ftz ? ptx_ftz32(r) : r;
}

static double ftz64(double x)
{
	return fabs(x) < 0x1p-1022 ? copysign(0.0, x) : x;
}

/* rcp.approx.ftz.f64 (the ISA has no other form) and rsqrt.approx.f64:
 * on the GPU, MUFU.RCP64H / MUFU.RSQ64H work on the upper 32 bits of the
 * double (sign, exponent, 20 fraction bits) and libdevice refines the
 * result with Newton steps.  Model: the IEEE value RN(1/a), and
 * RN(1/RN(sqrt a)) (two roundings, within 1 ulp), subnormals flushed with
 * .ftz; rsqrt(-0) = -inf as for f32. */
double ptx_f64_approx(int op, double a, int ftz)
{
	double r;
	if (ftz)
		a = ftz64(a);
	if (op == PTX_RCP_APPROX_F64)
		r = 1.0 / a;
	else
		r = a == 0 ? copysign(INFINITY, a) : 1.0 / sqrt(a);
	return ftz ? ftz64(r) : r;
}

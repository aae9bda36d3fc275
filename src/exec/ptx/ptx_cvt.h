/* ptx_cvt.h — the conversion that kernels run in their arithmetic
 * (cvt.f32.f32: an integral rounding, .sat, .ftz), inline so that the
 * interpreter's cases and native code fold the instruction's fields;
 * every other cvt is ptx_cvt.c's (ptx_cvt). */
#ifndef UB_PTX_CVT_H
#define UB_PTX_CVT_H

#include "ptx_num.h"

/* f to the nearest integral float, ties to even, in any host mode: f - t
 * (t = trunc f) is exact, and so is t + 1 (|t| < 2^24 when f has a
 * fraction); a zero keeps the sign of f, and infinities stay (NaN
 * compares false). */
static inline float ptx_roundeven32(float f)
{
	float t = truncf(f), d = fabsf(f - t);
	if (d > 0.5f || (d == 0.5f && fmodf(t, 2.0f) != 0.0f))
		t += copysignf(1.0f, f);
	return t;
}

/* cvt.f32.f32 (an integral rounding, .sat, .ftz) in float arithmetic:
 * rounding to an integral value is exact, so the C functions give the
 * value ptx_cvt_exact does, ties to even (ptx_roundeven32) whatever the host's
 * mode, the sign of a zero result kept; NaN is left to it.  1 with *r; 0
 * for another cvt. */
static inline int ptx_cvt_f32_f32(const struct ptx_insn *in, uint64_t a, uint64_t *r)
{
	if (in->op != PTX_CVT_FF || in->aux != PTX_T_F32 || in->dtype != PTX_T_F32)
		return 0;
	uint32_t u = (uint32_t)a;
	float f;
	if ((u & 0x7f800000u) == 0x7f800000u && (u & 0x7fffffu))
		return 0;                                   /* NaN */
	if ((in->flags & PTX_F_FTZ) && !(u & 0x7f800000u))
		u &= 0x80000000u;                           /* subnormal input */
	memcpy(&f, &u, sizeof f);
	switch (in->rnd) {
	case PTX_RND_RNI: f = ptx_roundeven32(f); break;
	case PTX_RND_RZI: f = truncf(f); break;
	case PTX_RND_RMI: f = floorf(f); break;
	case PTX_RND_RPI: f = ceilf(f); break;
	default: break;                                     /* f32 to f32: exact */
	}
	if (in->flags & PTX_F_SAT)
		f = !(f > 0.0f) ? 0.0f : f >= 1.0f ? 1.0f : f;
	memcpy(&u, &f, sizeof u);
	if ((in->flags & PTX_F_FTZ) && !(u & 0x7f800000u))
		u &= 0x80000000u;                           /* subnormal result */
	*r = u;
	return 1;
}

#endif

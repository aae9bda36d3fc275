/* check_bits.h — float32 encodings for the unit tests: compare bits, not
 * values (a NaN keeps its payload, -0 is not +0). */
#ifndef UB_CHECK_BITS_H
#define UB_CHECK_BITS_H

#include <math.h>
#include <stdint.h>
#include <string.h>

static inline float f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, sizeof f);
	return f;
}

static inline uint32_t bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

/* .ftz: a subnormal becomes the zero of its sign */
static inline float flush(float v)
{
	return fpclassify(v) == FP_SUBNORMAL ? copysignf(0.0f, v) : v;
}

#endif

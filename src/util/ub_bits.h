/* ub_bits.h — the bit-pattern helpers of ub.h as static inline functions,
 * for the per-element loops (metrics.c).  Called with a dtype the compiler
 * knows, each folds to a few integer operations on the encoding: the
 * format parameters come from the UB_DTYPES table through a switch, not
 * from the ub_dtypes array, so they are constants there.  ub.c's
 * out-of-line functions are these same definitions.
 *
 * For storage bits b and precision p (hidden bit included): the mantissa
 * field has p - 1 bits, the exponent field b - p, the sign is bit b - 1;
 * infinity is the all-ones exponent with a zero mantissa, and every
 * encoding whose magnitude bits lie above it is a NaN. */
#ifndef UB_BITS_H
#define UB_BITS_H

#include "ub.h"

#include <math.h>
#include <string.h>

/* For the helpers of a per-element loop: inlined even where the compiler
 * would not, so that each call with a constant dtype folds. */
#define UB_INLINE static inline __attribute__((always_inline))

/* ub_dt_bits(dt), ub_dt_prec(dt), ub_dt_emin(dt), ub_dt_emax(dt): the
 * columns of UB_DTYPES. */
#define UB_DT_FIELD(field)                                                 \
	UB_INLINE int ub_dt_##field(enum ub_dtype dt)                  \
	{                                                                  \
		switch (dt) {                                              \
		UB_DTYPES(UB_DT_CASE_##field)                              \
		default: return 0;                                         \
		}                                                          \
	}
#define UB_DT_CASE_bits(id, name, bits, prec, emin, emax, npy, ctype) case id: return bits;
#define UB_DT_CASE_prec(id, name, bits, prec, emin, emax, npy, ctype) case id: return prec;
#define UB_DT_CASE_emin(id, name, bits, prec, emin, emax, npy, ctype) case id: return emin;
#define UB_DT_CASE_emax(id, name, bits, prec, emin, emax, npy, ctype) case id: return emax;
UB_DT_FIELD(bits)
UB_DT_FIELD(prec)
UB_DT_FIELD(emin)
UB_DT_FIELD(emax)
#undef UB_DT_FIELD
#undef UB_DT_CASE_bits
#undef UB_DT_CASE_prec
#undef UB_DT_CASE_emin
#undef UB_DT_CASE_emax

/* All storage bits of dt set. */
/* 2^k, by its encoding (ldexp is slow); k >= -1074 is a double. */
UB_INLINE double ub_pow2(int k)
{
	if (k < -1074 || k > 1023)
		return ldexp(1, k);
	uint64_t u = k >= -1022 ? (uint64_t)(k + 1023) << 52
				: UINT64_C(1) << (k + 1074);
	double d;
	memcpy(&d, &u, sizeof d);
	return d;
}

UB_INLINE uint64_t ub_dt_mask(enum ub_dtype dt)
{
	int b = ub_dt_bits(dt);
	return b == 64 ? ~UINT64_C(0) : (UINT64_C(1) << b) - 1;
}

UB_INLINE uint64_t ub_dt_sign(enum ub_dtype dt)
{
	return UINT64_C(1) << (ub_dt_bits(dt) - 1);
}

/* The encoding of +inf. */
UB_INLINE uint64_t ub_dt_inf(enum ub_dtype dt)
{
	return (ub_dt_mask(dt) >> 1) & ~((UINT64_C(1) << (ub_dt_prec(dt) - 1)) - 1);
}

/* The magnitude bits (sign and unused high bits cleared). */
UB_INLINE uint64_t ub_bits_mag(enum ub_dtype dt, uint64_t bits)
{
	return bits & (ub_dt_mask(dt) >> 1);
}

UB_INLINE int ub_bits_isnan_i(enum ub_dtype dt, uint64_t bits)
{
	return ub_bits_mag(dt, bits) > ub_dt_inf(dt);
}

UB_INLINE int ub_bits_isfinite_i(enum ub_dtype dt, uint64_t bits)
{
	return ub_bits_mag(dt, bits) < ub_dt_inf(dt);
}

UB_INLINE int ub_bits_isinf_i(enum ub_dtype dt, uint64_t bits)
{
	return ub_bits_mag(dt, bits) == ub_dt_inf(dt);
}

/* The value, exactly: f32 and bf16 through a float, f64 as is, f16 from
 * its fields. */
UB_INLINE double ub_bits_to_double_i(enum ub_dtype dt, uint64_t bits)
{
	if (dt == UB_F64) {
		double d;
		memcpy(&d, &bits, sizeof d);
		return d;
	}
	if (dt == UB_F32 || dt == UB_BF16) { /* a float holds both exactly */
		uint32_t u = dt == UB_F32 ? (uint32_t)bits : (uint32_t)bits << 16;
		float f;
		memcpy(&f, &u, sizeof f);
		return f;
	}
	int mb = ub_dt_prec(dt) - 1, eb = ub_dt_bits(dt) - 1 - mb;
	int sign = (int)(bits >> (eb + mb)) & 1;
	uint64_t e = (bits >> mb) & ((1u << eb) - 1);
	uint64_t m = bits & ((UINT64_C(1) << mb) - 1);
	int bias = (1 << (eb - 1)) - 1;
	double v;
	if (e == (uint64_t)(1u << eb) - 1)
		v = m ? NAN : INFINITY;
	else if (e == 0)
		v = ldexp((double)m, 1 - bias - mb); /* subnormal: exact */
	else
		v = ldexp((double)(m | (UINT64_C(1) << mb)), (int)e - bias - mb);
	return sign ? -v : v;
}

/* Element i of the data of an ub_array of dtype dt (ub_array_get/set). */
/* Bits equal, any NaN equal to any NaN (ub_same). */
UB_INLINE int ub_bits_same_i(enum ub_dtype dt, uint64_t a, uint64_t b)
{
	int an = ub_bits_isnan_i(dt, a), bn = ub_bits_isnan_i(dt, b);
	if (an || bn)
		return an && bn;
	return ((a ^ b) & ub_dt_mask(dt)) == 0;
}

/* Encodings as ordered integers (ub_ordered): mag, or -mag - 1 (= ~mag)
 * for a negative sign, by a mask rather than a branch (the signs of the
 * results a pass compares with the torch plan come in no order). */
UB_INLINE int64_t ub_bits_ordered_i(enum ub_dtype dt, uint64_t bits)
{
	uint64_t mag = ub_bits_mag(dt, bits);
	return (int64_t)(mag ^ -(uint64_t)((bits & ub_dt_sign(dt)) != 0));
}

UB_INLINE uint64_t ub_bits_distance_i(enum ub_dtype dt, uint64_t a, uint64_t b)
{
	int an = ub_bits_isnan_i(dt, a), bn = ub_bits_isnan_i(dt, b);
	if (an || bn)
		return an && bn ? 0 : UINT64_MAX;
	int64_t oa = ub_bits_ordered_i(dt, a), ob = ub_bits_ordered_i(dt, b);
	/* the true difference is below 2^64: modular arithmetic is exact */
	return oa >= ob ? (uint64_t)oa - (uint64_t)ob
			: (uint64_t)ob - (uint64_t)oa;
}

UB_INLINE uint64_t ub_load(enum ub_dtype dt, const void *data, size_t i)
{
	switch (ub_dt_bits(dt)) {
	case 16: return ((const uint16_t *)data)[i];
	case 32: return ((const uint32_t *)data)[i];
	default: return ((const uint64_t *)data)[i];
	}
}

UB_INLINE void ub_store(enum ub_dtype dt, void *data, size_t i,
			    uint64_t bits)
{
	switch (ub_dt_bits(dt)) {
	case 16: ((uint16_t *)data)[i] = (uint16_t)bits; break;
	case 32: ((uint32_t *)data)[i] = (uint32_t)bits; break;
	default: ((uint64_t *)data)[i] = bits; break;
	}
}

#endif

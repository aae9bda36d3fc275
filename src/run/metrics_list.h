/* metrics_list.h — the first step of a row's pass (metrics_pass.c): the
 * elements of a block that need a closer look, listed.
 *
 * Element i of a block [b, e) is listed (its offset i - b, increasing)
 * when the row's bits y[i] differ from the correctly rounded result's
 * c[i], or from the torch plan's t[i] (t NULL: no torch plan to compare
 * with), or when its flags flag[i - b] lack PF_FAST (no error prepared).
 * list_plain is the definition, one element at a time; where SSE2 is
 * there (every x86-64) list_differing compares 4 elements of 32 bits or
 * 8 of 16 bits at once, a bit mask of the listed lanes selecting their
 * offsets from a table, and gives the same list (tests/check_metrics_pass.c
 * compares them).  at needs room for e - b offsets; a block is at most
 * UB_LIST_BLOCK elements. */
#ifndef UB_METRICS_LIST_H
#define UB_METRICS_LIST_H

#include "metrics_def.h"

#include <stdint.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define UB_LIST_BLOCK 1024 /* offsets fit in uint16_t */

/* The elements [from, e) of the block from b, into at (their offsets
 * i - b); how many.  Branch-free: each offset is written, the count moves
 * on only for a listed one. */
UB_INLINE size_t list_plain(enum ub_dtype dt, const void *y, const void *c,
			    const void *t, const unsigned char *flag, size_t b,
			    size_t from, size_t e, uint16_t *at)
{
	size_t n = 0;
	for (size_t i = from; i < e; i++) {
		uint64_t yi = ub_load(dt, y, i);
		at[n] = (uint16_t)(i - b);
		/* branch-free: | of the three, not || */
		n += (size_t)(yi != ub_load(dt, c, i)) | (size_t)!(flag[i - b] & PF_FAST) |
		     (size_t)(t && yi != ub_load(dt, t, i));
	}
	return n;
}

#ifdef __SSE2__
/* For a mask m of 4 lanes: its set lanes in increasing order, and how
 * many. */
static const uint16_t list_lanes[16][4] = {
	{0}, {0}, {1}, {0, 1}, {2}, {0, 2}, {1, 2}, {0, 1, 2},
	{3}, {0, 3}, {1, 3}, {0, 1, 3}, {2, 3}, {0, 2, 3}, {1, 2, 3}, {0, 1, 2, 3},
};
static const unsigned char list_count[16] = {
	0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
};

/* The offsets off + the lanes of m (4 bits) at at + n; the new n.  Four
 * offsets are written whatever m holds: the list has room, the block's
 * later elements not listed yet. */
UB_INLINE size_t list_put4(uint16_t *at, size_t n, unsigned m, size_t off)
{
	__m128i lanes = _mm_loadl_epi64((const __m128i *)list_lanes[m]);
	lanes = _mm_add_epi16(lanes, _mm_set1_epi16((short)off));
	_mm_storel_epi64((__m128i *)(at + n), lanes);
	return n + list_count[m];
}

/* The lanes where a vector of flags lacks PF_FAST, all ones there. */
UB_INLINE __m128i lack_fast(__m128i f, int bits)
{
	__m128i fast = bits == 32 ? _mm_set1_epi32(PF_FAST) : _mm_set1_epi16(PF_FAST);
	f = _mm_and_si128(f, fast);
	return bits == 32 ? _mm_cmpeq_epi32(f, _mm_setzero_si128())
			  : _mm_cmpeq_epi16(f, _mm_setzero_si128());
}

/* 4 elements of 32 bits from i (offset off): the mask of listed lanes. */
UB_INLINE unsigned list_mask32(const uint32_t *y, const uint32_t *c,
			       const uint32_t *t, const unsigned char *flag,
			       size_t i, size_t off)
{
	__m128i z = _mm_setzero_si128();
	__m128i yv = _mm_loadu_si128((const __m128i *)(y + i));
	__m128i same = _mm_cmpeq_epi32(yv, _mm_loadu_si128((const __m128i *)(c + i)));
	if (t)
		same = _mm_and_si128(same, _mm_cmpeq_epi32(
				yv, _mm_loadu_si128((const __m128i *)(t + i))));
	uint32_t f4;
	memcpy(&f4, flag + off, sizeof f4);
	__m128i f = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)f4), z), z);
	same = _mm_andnot_si128(lack_fast(f, 32), same);
	return ~(unsigned)_mm_movemask_ps(_mm_castsi128_ps(same)) & 15;
}

/* 8 elements of 16 bits from i (offset off): the mask of listed lanes. */
UB_INLINE unsigned list_mask16(const uint16_t *y, const uint16_t *c,
			       const uint16_t *t, const unsigned char *flag,
			       size_t i, size_t off)
{
	__m128i z = _mm_setzero_si128();
	__m128i yv = _mm_loadu_si128((const __m128i *)(y + i));
	__m128i same = _mm_cmpeq_epi16(yv, _mm_loadu_si128((const __m128i *)(c + i)));
	if (t)
		same = _mm_and_si128(same, _mm_cmpeq_epi16(
				yv, _mm_loadu_si128((const __m128i *)(t + i))));
	__m128i f = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(flag + off)), z);
	same = _mm_andnot_si128(lack_fast(f, 16), same);
	/* each lane's all-ones or zero to one byte, then one bit */
	return ~(unsigned)_mm_movemask_epi8(_mm_packs_epi16(same, z)) & 255;
}

UB_INLINE size_t list_differing(enum ub_dtype dt, const void *y, const void *c,
				const void *t, const unsigned char *flag,
				size_t b, size_t e, uint16_t *at)
{
	size_t n = 0, i = b;
	if (ub_dt_bits(dt) == 32) {
		for (; e - i >= 4; i += 4)
			n = list_put4(at, n, list_mask32(y, c, t, flag, i, i - b), i - b);
	} else if (ub_dt_bits(dt) == 16) {
		for (; e - i >= 8; i += 8) {
			unsigned m = list_mask16(y, c, t, flag, i, i - b);
			n = list_put4(at, n, m & 15, i - b);
			n = list_put4(at, n, m >> 4, i - b + 4);
		}
	}
	return n + list_plain(dt, y, c, t, flag, b, i, e, at + n);
}
#else
UB_INLINE size_t list_differing(enum ub_dtype dt, const void *y, const void *c,
				const void *t, const unsigned char *flag,
				size_t b, size_t e, uint16_t *at)
{
	return list_plain(dt, y, c, t, flag, b, b, e, at);
}
#endif

#endif

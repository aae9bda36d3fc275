/* hash.c — see hash.h. */
#include "hash.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static inline uint64_t rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

/* One word into each lane: x -> rotl(x * odd, r) is a bijection, and so
 * is x -> x ^ w (lane 0) or x + w (lane 1) for each w. */
static inline void step(uint64_t *a, uint64_t *b, uint64_t w)
{
	*a = rotl((*a ^ w) * UINT64_C(0x9e3779b97f4a7c15), 29);
	*b = rotl((*b + w) * UINT64_C(0xc2b2ae3d27d4eb4f), 31);
}

void ub_hash_bytes(uint64_t h[2], const void *p, size_t n)
{
	const unsigned char *s = p;
	uint64_t a = h[0], b = h[1], w;
	size_t i = 0;
	for (; n - i >= 8; i += 8) {
		memcpy(&w, s + i, 8);
		step(&a, &b, w);
	}
	w = 0;
	if (n > i)
		memcpy(&w, s + i, n - i);   /* the last 1-7 bytes, zeros after */
	step(&a, &b, w);
	step(&a, &b, (uint64_t)n);  /* "ab" then "c" is not "a" then "bc" */
	h[0] = a;
	h[1] = b;
}

void ub_hash_str(uint64_t h[2], const char *s)
{
	ub_hash_bytes(h, s, strlen(s) + 1);
}

void ub_hash_hex(const uint64_t h[2], char hex[33])
{
	snprintf(hex, 33, "%016" PRIx64 "%016" PRIx64, h[0], h[1]);
}

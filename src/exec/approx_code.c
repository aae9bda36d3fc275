/* approx_code.c — distances from a prediction, range coded (approx_code.h).
 *
 * The range coder is the classic binary adaptive one (as in LZMA): 11-bit
 * probabilities moved 1/32 towards each coded bit, a 32-bit range renormalized
 * a byte at a time, carries propagated through a cached byte.  A distance
 * v is coded as z = zigzag(v) (0, -1, 1, -2, ... -> 0, 1, 2, 3, ...):
 *   one bit "z != 0"              context: the previous z was 0, 1..2, more
 *   the bit length n of z, 1..64  a 6-bit tree, same context
 *   the 2 bits below z's top bit  adaptive, per n
 *   the rest                      plain bits (probability 1/2). */
#include "approx_code.h"

#include <stdlib.h>
#include <string.h>

#define PROB_BITS 11
#define PROB_ONE (1u << PROB_BITS)
#define MOVE 5
#define TOP (1u << 24)

void ub_bytes_put(struct ub_bytes *b, const void *data, size_t len)
{
	if (b->oom)
		return;
	if (b->len + len > b->cap) {
		size_t cap = (b->cap + len) * 2 + 4096;
		unsigned char *p = realloc(b->p, cap);
		if (!p) {
			b->oom = 1;
			return;
		}
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
}

void ub_bytes_free(struct ub_bytes *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

int64_t ub_ord32(uint32_t u)
{
	return u >> 31 ? -1 - (int64_t)(u & 0x7fffffffu) : (int64_t)u;
}

uint32_t ub_unord32(int64_t o)
{
	return o < 0 ? 0x80000000u | (uint32_t)(-1 - o) : (uint32_t)o;
}

struct model {
	uint16_t nonzero[3];
	uint16_t len[3][128];
	uint16_t top[65][4];
};

static void model_init(struct model *m)
{
	uint16_t *p = (uint16_t *)m;
	for (size_t i = 0; i < sizeof *m / sizeof *p; i++)
		p[i] = PROB_ONE / 2;
}

static int context(uint64_t prev)
{
	return prev == 0 ? 0 : prev <= 2 ? 1 : 2;
}

static uint64_t zigzag(int64_t v)
{
	return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static int64_t unzigzag(uint64_t z)
{
	return (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
}

/* ----- encoder ----- */

struct enc {
	uint64_t low, cache_size;
	uint32_t range;
	unsigned char cache;
	struct ub_bytes *out;
};

static void shift_low(struct enc *e)
{
	if ((uint32_t)e->low < 0xff000000u || (e->low >> 32) != 0) {
		unsigned char carry = (unsigned char)(e->low >> 32), b = e->cache;
		do {
			unsigned char byte = (unsigned char)(b + carry);
			ub_bytes_put(e->out, &byte, 1);
			b = 0xff;
		} while (--e->cache_size != 0);
		e->cache = (unsigned char)(e->low >> 24);
	}
	e->cache_size++;
	e->low = (e->low & 0x00ffffffu) << 8;
}

static void enc_bit(struct enc *e, uint16_t *p, unsigned bit)
{
	uint32_t bound = (e->range >> PROB_BITS) * *p;
	if (!bit) {
		e->range = bound;
		*p += (PROB_ONE - *p) >> MOVE;
	} else {
		e->low += bound;
		e->range -= bound;
		*p -= *p >> MOVE;
	}
	while (e->range < TOP) {
		e->range <<= 8;
		shift_low(e);
	}
}

static void enc_direct(struct enc *e, uint64_t v, int nbits)
{
	for (int i = nbits - 1; i >= 0; i--) {
		e->range >>= 1;
		if (v >> i & 1)
			e->low += e->range;
		while (e->range < TOP) {
			e->range <<= 8;
			shift_low(e);
		}
	}
}

static void enc_value(struct enc *e, struct model *m, int ctx, uint64_t z)
{
	enc_bit(e, &m->nonzero[ctx], z != 0);
	if (!z)
		return;
	int n = 64 - __builtin_clzll(z), node = 1;
	for (int i = 5; i >= 0; i--) {
		unsigned b = (unsigned)(n - 1) >> i & 1;
		enc_bit(e, &m->len[ctx][node], b);
		node = 2 * node + (int)b;
	}
	int top = n - 1 < 2 ? n - 1 : 2;
	node = 1;
	for (int i = 0; i < top; i++) {
		unsigned b = (unsigned)(z >> (n - 2 - i)) & 1;
		enc_bit(e, &m->top[n][node], b);
		node = 2 * node + (int)b;
	}
	enc_direct(e, z, n - 1 - top);
}

int ub_code_encode(const uint32_t *y, const uint32_t *pred, size_t n,
		   enum ub_coding coding, struct ub_bytes *b)
{
	struct model *m = malloc(sizeof *m);
	struct enc e = {.range = 0xffffffffu, .cache_size = 1, .out = b};
	if (!m)
		return -1;
	model_init(m);
	int64_t prev_r = 0;
	uint64_t prev_z = 0;
	for (size_t i = 0; i < n; i++) {
		int64_t r = ub_ord32(y[i]) - ub_ord32(pred ? pred[i] : 0);
		uint64_t z = zigzag(coding == UB_CODE_DELTA ? r - prev_r : r);
		enc_value(&e, m, context(prev_z), z);
		prev_r = r;
		prev_z = z;
	}
	for (int i = 0; i < 5; i++)
		shift_low(&e);
	free(m);
	return b->oom ? -1 : 0;
}

/* ----- decoder ----- */

struct dec {
	const unsigned char *p, *end;
	uint32_t range, code;
	int overrun;
};

static unsigned char next_byte(struct dec *d)
{
	if (d->p < d->end)
		return *d->p++;
	d->overrun++;
	return 0;
}

static void dec_normalize(struct dec *d)
{
	while (d->range < TOP) {
		d->range <<= 8;
		d->code = d->code << 8 | next_byte(d);
	}
}

static unsigned dec_bit(struct dec *d, uint16_t *p)
{
	uint32_t bound = (d->range >> PROB_BITS) * *p;
	unsigned bit;
	if (d->code < bound) {
		d->range = bound;
		*p += (PROB_ONE - *p) >> MOVE;
		bit = 0;
	} else {
		d->code -= bound;
		d->range -= bound;
		*p -= *p >> MOVE;
		bit = 1;
	}
	dec_normalize(d);
	return bit;
}

static uint64_t dec_direct(struct dec *d, int nbits)
{
	uint64_t v = 0;
	for (int i = 0; i < nbits; i++) {
		d->range >>= 1;
		unsigned bit = d->code >= d->range;
		if (bit)
			d->code -= d->range;
		v = v << 1 | bit;
		dec_normalize(d);
	}
	return v;
}

static uint64_t dec_value(struct dec *d, struct model *m, int ctx)
{
	if (!dec_bit(d, &m->nonzero[ctx]))
		return 0;
	int node = 1;
	for (int i = 0; i < 6; i++)
		node = 2 * node + (int)dec_bit(d, &m->len[ctx][node]);
	int n = node - 64 + 1, top = n - 1 < 2 ? n - 1 : 2;
	uint64_t z = 1;
	node = 1;
	for (int i = 0; i < top; i++) {
		unsigned b = dec_bit(d, &m->top[n][node]);
		node = 2 * node + (int)b;
		z = z << 1 | b;
	}
	int rest = n - 1 - top;
	return rest ? z << rest | dec_direct(d, rest) : z;
}

int ub_code_decode(const unsigned char *p, size_t len, const uint32_t *pred,
		   size_t n, enum ub_coding coding, uint32_t *y)
{
	struct model *m = malloc(sizeof *m);
	struct dec d = {.p = p, .end = p + len, .range = 0xffffffffu};
	if (!m)
		return -1;
	model_init(m);
	for (int i = 0; i < 5; i++)
		d.code = d.code << 8 | next_byte(&d);
	int64_t prev_r = 0;
	uint64_t prev_z = 0;
	int status = 0;
	for (size_t i = 0; i < n && !status; i++) {
		uint64_t z = dec_value(&d, m, context(prev_z));
		int64_t v = unzigzag(z), r = v, o;
		/* a distance past 2^32 fits no float32: corrupt data, which
		   must not overflow on the way */
		if ((coding == UB_CODE_DELTA && __builtin_add_overflow(prev_r, v, &r)) ||
		    __builtin_add_overflow(ub_ord32(pred ? pred[i] : 0), r, &o) ||
		    o < -(INT64_C(1) << 31) || o > INT32_MAX || d.overrun > 4)
			status = -1;
		else
			y[i] = ub_unord32(o);
		prev_r = r;
		prev_z = z;
	}
	free(m);
	return status;
}

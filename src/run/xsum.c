/* xsum.c — the exact sum of nonnegative doubles (xsum.h).
 *
 * The quotient sum / n is rounded once: the integer N = sum * 2^1074 is
 * shifted left by 64 bits and divided by n digit by digit (long division,
 * a 96-bit partial dividend in unsigned __int128), giving Q = floor(N *
 * 2^64 / n) and whether a remainder is left.  The value is Q * 2^-1138
 * plus less than one unit of Q's last bit.  Rounding to nearest even keeps
 * the 53 bits below Q's top bit, or fewer where the result is subnormal
 * (no bit of weight below 2^-1074 is kept); the bit after them decides,
 * with the bits below it and the remainder as the sticky bit.  Those
 * positions are never below Q's bit 1 (2^-1137 < 2^-1074), so the round
 * bit is a bit of Q and the remainder only ever counts as sticky: the
 * result is the correctly rounded quotient.  The kept bits times their
 * weight are then exactly representable (at most 54 significant bits
 * only when rounding carried to a power of two), so ldexp is exact, or
 * overflows to +inf as rounding to nearest does. */
#include "xsum.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void ub_xsum_norm(struct ub_xsum *x)
{
	uint64_t carry = 0;
	for (int k = 0; k < UB_XSUM_WORDS; k++) {
		uint64_t v = x->w[k] + carry; /* < 2^63 + 2^32: no overflow */
		x->w[k] = v & 0xffffffffu;
		carry = v >> 32;
	}
	x->pending = 0; /* carry is 0 here: the sum is below 2^2162 */
}

void ub_xsum_add_special(struct ub_xsum *x, double e)
{
	x->flags |= e > 0 ? UB_XSUM_INF : UB_XSUM_NAN; /* +inf; NaN or < 0 */
}

/* x += n * 2^pos (in units of 2^-1074): each 32-bit digit of n, shifted
 * by pos mod 32, spans two words and adds less than 2^32 to each, so a
 * word receives at most 2 such additions per digit position; pending
 * counts them. */
static void add_wide(struct ub_xsum *x, unsigned __int128 n, unsigned pos)
{
	unsigned k = pos >> 5, off = pos & 31;
	for (unsigned d = 0; d < 4 && n; d++, n >>= 32) {
		uint64_t q = (uint64_t)(uint32_t)n << off; /* < 2^63 */
		x->w[k + d] += q & 0xffffffffu;
		x->w[k + d + 1] += q >> 32;
	}
	x->pending += 2;
	if (x->pending >= UB_XSUM_PENDING_MAX - 2)
		ub_xsum_norm(x);
}

void ub_xsum_acc_flush(struct ub_xsum *x, struct ub_xsum_acc *a)
{
	/* bucket ex is (sum of m) * 2^(ex - 1), ex 0 times 2^0; the highest,
	 * ex 2046: pos 2045, words up to 63 + 4 < UB_XSUM_WORDS */
	for (unsigned ex = 0; ex < UB_XSUM_BUCKETS; ex++)
		if (a->b[ex]) {
			add_wide(x, a->b[ex], ex ? ex - 1 : 0);
			a->b[ex] = 0;
		}
	x->flags |= a->flags;
	a->flags = 0;
	ub_xsum_norm(x);
}

void ub_xsum_merge(struct ub_xsum *a, const struct ub_xsum *b)
{
	for (int k = 0; k < UB_XSUM_WORDS; k++)
		a->w[k] += b->w[k];
	a->flags |= b->flags;
	ub_xsum_norm(a);
}

void ub_xsum_sub(struct ub_xsum *a, const struct ub_xsum *b)
{
	uint64_t borrow = 0;
	for (int k = 0; k < UB_XSUM_WORDS; k++) {
		/* digits below 2^32: the difference wraps to 2^64 - d at most */
		uint64_t v = a->w[k] - b->w[k] - borrow;
		borrow = v >> 63;
		a->w[k] = v & 0xffffffffu;
	}
}

int ub_xsum_equal(const struct ub_xsum *a, const struct ub_xsum *b)
{
	return a->flags == b->flags && !memcmp(a->w, b->w, sizeof a->w);
}

/* Bit b of the digits q (32 per word). */
static unsigned bit_at(const uint64_t *q, int b)
{
	return (unsigned)(q[b >> 5] >> (b & 31)) & 1;
}

/* Q * 2^e rounded to nearest even, Q the nq digits of q with bits below
 * the rounding position or sticky standing for a nonzero rest; e + the
 * position of the last kept bit >= -1074 decides the subnormal case. */
static double round_digits(const uint64_t *q, int nq, int sticky, int e)
{
	int top = -1;
	for (int k = nq - 1; k >= 0 && top < 0; k--)
		if (q[k])
			top = 32 * k + 63 - __builtin_clzll(q[k]);
	if (top < 0)
		return 0;
	int lsb = top - 52;               /* the last of 53 bits kept */
	if (lsb + e < -1074)
		lsb = -1074 - e;          /* subnormal: nothing below 2^-1074 */
	uint64_t kept = 0;
	for (int b = top; b >= lsb; b--)
		kept = kept << 1 | (b >= 0 ? bit_at(q, b) : 0);
	unsigned round = lsb >= 1 ? bit_at(q, lsb - 1) : 0;
	for (int b = lsb - 2; b >= 0 && !sticky; b--)
		sticky = bit_at(q, b);
	if (round && (sticky || (kept & 1)))
		kept++;
	return ldexp((double)kept, lsb + e);
}

double ub_xsum_div(const struct ub_xsum *x, uint64_t n)
{
	enum { NQ = UB_XSUM_WORDS + 2 };
	uint64_t q[NQ];
	unsigned __int128 rem = 0;
	if (x->flags & UB_XSUM_NAN)
		return NAN;
	if (x->flags & UB_XSUM_INF)
		return INFINITY;
	if (n == 0)
		return NAN;
	/* N * 2^64: two zero digits below the sum's */
	for (int k = NQ - 1; k >= 0; k--) {
		uint64_t digit = k >= 2 ? x->w[k - 2] : 0;
		unsigned __int128 cur = rem << 32 | digit;
		q[k] = (uint64_t)(cur / n); /* < 2^32: rem < n */
		rem = cur % n;
	}
	return round_digits(q, NQ, rem != 0, -1074 - 64);
}

void ub_xsum_format(const struct ub_xsum *x, char *buf, size_t len)
{
	int hi = UB_XSUM_WORDS - 1, lo = 0;
	size_t used = 0;
	while (hi >= 0 && !x->w[hi])
		hi--;
	while (lo <= hi && !x->w[lo])
		lo++;
	if (hi < 0) {
		used = (size_t)snprintf(buf, len, "0");
	} else {
		used = (size_t)snprintf(buf, len, "0x%llx", (unsigned long long)x->w[hi]);
		for (int k = hi - 1; k >= lo && used < len; k--)
			used += (size_t)snprintf(buf + used, len - used, "%08llx",
						 (unsigned long long)x->w[k]);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "p%d",
						 32 * lo - 1074);
	}
	if (used < len && x->flags)
		snprintf(buf + used, len - used, "%s%s",
			 x->flags & UB_XSUM_INF ? " inf" : "",
			 x->flags & UB_XSUM_NAN ? " nan" : "");
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The digits "0xHEXpE" into x (flags untouched). */
static int parse_digits(const char *s, size_t len, struct ub_xsum *x)
{
	if (len == 1 && s[0] == '0')
		return 0;
	if (len < 5 || s[0] != '0' || s[1] != 'x')
		return -1;
	const char *p = memchr(s, 'p', len);
	if (!p || p == s + 2 || s[2] == '0')
		return -1;
	char *end;
	long e = strtol(p + 1, &end, 10);
	if (end != s + len || (e + 1074) % 32 || e < -1074)
		return -1;
	int k = (int)((e + 1074) / 32);
	int ndig = (int)(p - (s + 2));
	if (k + (ndig + 7) / 8 > UB_XSUM_WORDS)
		return -1;
	for (int d = 0; d < ndig; d++) { /* the last hex digit is the lowest */
		int v = hexval((unsigned char)p[-1 - d]);
		if (v < 0)
			return -1;
		x->w[k + d / 8] |= (uint64_t)v << (4 * (d % 8));
	}
	return x->w[k] ? 0 : -1; /* the lowest digit given is nonzero */
}

int ub_xsum_parse(const char *s, struct ub_xsum *x)
{
	static const char *const tails[] = {"", " inf", " nan", " inf nan"};
	memset(x, 0, sizeof *x);
	const char *sp = strchr(s, ' ');
	size_t len = sp ? (size_t)(sp - s) : strlen(s);
	if (parse_digits(s, len, x))
		return -1;
	for (uint32_t f = 0; f < 4; f++)
		if (!strcmp(s + len, tails[f])) {
			x->flags = f; /* UB_XSUM_INF is 1, UB_XSUM_NAN 2 */
			return 0;
		}
	return -1;
}

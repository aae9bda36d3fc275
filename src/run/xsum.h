/* xsum.h — the exact sum of nonnegative doubles, so that a sum over a run
 * is the same number whatever the order its terms (or its parts, merged
 * from shards) arrive in.
 *
 * Every finite double e >= 0 is an integer multiple of 2^-1074, e =
 * m * 2^(q) with m < 2^53 and q >= -1074, so e * 2^1074 = m * 2^(q+1074) is
 * an integer below 2^2098; a sum of at most 2^64 such terms is an integer
 * below 2^2162.  The accumulator holds that integer exactly, as 32-bit
 * digits in 64-bit words (UB_XSUM_WORDS of them: 32 * 70 = 2240 bits), a
 * fixed-point number with 1074 bits after the point.  Integer addition is
 * exact, commutative and associative, hence the order-independence.
 *
 * Adding a term touches three words (its 53 bits shifted to their place
 * span at most three 32-bit digits) without propagating carries: each
 * word has 32 bits of headroom, so up to 2^31 additions can wait before
 * ub_xsum_norm moves the carries up (ub_xsum_add counts and does it
 * itself).  Outside an adding loop an accumulator is normalized: every
 * word below 2^32, so two of them add word by word without overflow.
 *
 * +inf, NaN and negative terms are not numbers this sum can hold: they
 * set a flag (the sum then reads as +inf, or NaN), the exact part stays
 * as it was. */
#ifndef UB_XSUM_H
#define UB_XSUM_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define UB_XSUM_WORDS 70
#define UB_XSUM_PENDING_MAX (UINT32_C(1) << 31)

enum { UB_XSUM_INF = 1, UB_XSUM_NAN = 2 }; /* flags */

struct ub_xsum {
	uint64_t w[UB_XSUM_WORDS]; /* w[k]: digit k (bits 32k..32k+31) */
	uint32_t flags;            /* UB_XSUM_INF, UB_XSUM_NAN */
	uint32_t pending;          /* additions since the last ub_xsum_norm */
};

/* Moves every word's carries into the next: each word below 2^32. */
void ub_xsum_norm(struct ub_xsum *x);
/* A term that is not a finite double >= 0 (the flags). */
void ub_xsum_add_special(struct ub_xsum *x, double e);

static inline __attribute__((always_inline)) void
ub_xsum_add(struct ub_xsum *x, double e)
{
	uint64_t u;
	memcpy(&u, &e, sizeof u);
	if (!u)
		return; /* +0 */
	unsigned ex = (unsigned)(u >> 52); /* with the sign bit above it */
	if (ex >= 0x7ff) {                 /* inf, NaN, or negative */
		if (u != UINT64_C(1) << 63) { /* -0 adds nothing */
			ub_xsum_add_special(x, e);
		}
		return;
	}
	uint64_t m = u & ((UINT64_C(1) << 52) - 1);
	unsigned pos = 0;                 /* e * 2^1074 = m * 2^pos */
	if (ex) {
		m |= UINT64_C(1) << 52;
		pos = ex - 1;
	}
	unsigned k = pos >> 5, off = pos & 31;
	uint64_t lo = m << off, hi = off ? m >> (64 - off) : 0;
	x->w[k] += lo & 0xffffffffu;
	x->w[k + 1] += lo >> 32;
	x->w[k + 2] += hi;
	if (++x->pending == UB_XSUM_PENDING_MAX)
		ub_xsum_norm(x);
}

/* Many terms are added faster by exponent: a term's 53-bit significand
 * goes into the bucket of its exponent field (b[ex], a 128-bit integer:
 * room for 2^75 terms), one add to one place in memory; flushing adds
 * each bucket, times its power of two, into an exact sum.  The sum is the
 * same number as ub_xsum_add of each term gives (integers add exactly).
 * A flushed accumulator is all zero (as from calloc or memset). */
#define UB_XSUM_BUCKETS 2047 /* the exponent fields of finite doubles */
struct ub_xsum_acc {
	unsigned __int128 b[UB_XSUM_BUCKETS]; /* b[ex]: sum of significands */
	uint32_t flags;            /* UB_XSUM_INF, UB_XSUM_NAN */
};

static inline __attribute__((always_inline)) void
ub_xsum_acc_add(struct ub_xsum_acc *a, double e)
{
	uint64_t u;
	memcpy(&u, &e, sizeof u);
	unsigned ex = (unsigned)(u >> 52); /* with the sign bit above it */
	if (ex >= 0x7ff) {                 /* inf, NaN, or negative */
		if (u != UINT64_C(1) << 63) /* -0 adds nothing */
			a->flags |= e > 0 ? UB_XSUM_INF : UB_XSUM_NAN;
		return;
	}
	/* e * 2^1074 = m * 2^(ex - 1) for a normal, m * 2^0 below (ex 0);
	 * +0 adds 0 to b[0] */
	uint64_t m = (u & ((UINT64_C(1) << 52) - 1)) | (uint64_t)(ex != 0) << 52;
	a->b[ex] += m;
}

/* x += what a holds (x normalized before and after); a flushed after. */
void ub_xsum_acc_flush(struct ub_xsum *x, struct ub_xsum_acc *a);

/* a += b; both normalized before, a normalized after. */
void ub_xsum_merge(struct ub_xsum *a, const struct ub_xsum *b);
/* a -= b, both normalized, where b's terms are some of a's (so a >= b);
 * a normalized after, its flags kept. */
void ub_xsum_sub(struct ub_xsum *a, const struct ub_xsum *b);
/* Normalized a and b hold the same sum. */
int ub_xsum_equal(const struct ub_xsum *a, const struct ub_xsum *b);

/* The sum divided by n (n >= 1) rounded to the nearest double, ties to
 * even: the exact quotient, rounded once.  +inf or NaN as the flags say. */
double ub_xsum_div(const struct ub_xsum *x, uint64_t n);

/* Text for a normalized sum: "0" or "0xHEXpE" (the integer HEX times 2^E,
 * E = 32k - 1074 for the lowest nonzero digit k), then " inf" or " nan"
 * when a flag is set; at most UB_XSUM_TEXT bytes with the NUL. */
#define UB_XSUM_TEXT (UB_XSUM_WORDS * 8 + 32)
void ub_xsum_format(const struct ub_xsum *x, char *buf, size_t len);
/* Reads what ub_xsum_format wrote (the whole of s); 0, or -1 when s is
 * not such a text. */
int ub_xsum_parse(const char *s, struct ub_xsum *x);

#endif

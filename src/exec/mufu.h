/* mufu.h — the sim's measured models of the approximate instructions: the
 * structures of mufu_model.h over the tables an sm_90 GPU returned
 * (captures/mufu-sm90.ubx, docs/gpu-results.md), each checked there
 * against the hardware on every one of its 2^32 inputs (2^16 for the f16
 * and bf16 forms).  `make` turns the capture into a compact file that is
 * mapped, not read (ub_mufu_build, mufu_build.c); without it the sim
 * keeps its documented-error models and flags the rows.
 *
 * Measured: rcp, rsqrt, sqrt, ex2, lg2, sin, cos .approx.f32 (.ftz or
 * not), div.approx and div.full .f32 (the products ptxas makes of
 * MUFU.RCP), ex2.approx.f16, ex2.approx.ftz.bf16, tanh.approx.f16 and
 * .bf16 (and their x2 forms).  Not: tanh.approx.f32 (no structure found),
 * rcp.approx.ftz.f64, rsqrt.approx.f64. */
#ifndef UB_MUFU_H
#define UB_MUFU_H

#include <stdint.h>
#include <string.h>

#include "ub.h"

/* The tables, declared once: X(ID, name in the compact file, entries). */
#define UB_MUFU_TABS(X)                                      \
	X(UB_MT_RCP, "rcp", 1u << 23)     /* MUFU.RCP over [1, 2) */ \
	X(UB_MT_RSQ0, "rsqrt0", 1u << 23) /* MUFU.RSQ over [1, 2) */ \
	X(UB_MT_RSQ1, "rsqrt1", 1u << 23) /* and [2, 4) */   \
	X(UB_MT_SQRT0, "sqrt0", 1u << 23)                    \
	X(UB_MT_SQRT1, "sqrt1", 1u << 23)                    \
	X(UB_MT_EX2, "ex2", 1u << 24)     /* T[0] then T[1] (mufu_model.h) */ \
	X(UB_MT_LG2_0, "lg2_0", 1u << 23) /* MUFU.LG2 over [1, 2) */ \
	X(UB_MT_LG2_M1, "lg2_m1", 1u << 23) /* and [1/2, 1) */ \
	X(UB_MT_SIN, "sin", 1u << 25)     /* by the turns' key, W = 25 */ \
	X(UB_MT_COS, "cos", 1u << 25)                        \
	X(UB_MT_EX2_F16, "ex2_f16", 1u << 16)                \
	X(UB_MT_EX2_BF16, "ex2_bf16", 1u << 16)              \
	X(UB_MT_TANH_F16, "tanh_f16", 1u << 16)              \
	X(UB_MT_TANH_BF16, "tanh_bf16", 1u << 16)

enum ub_mufu_tabid {
#define X(id, name, n) id,
	UB_MUFU_TABS(X)
#undef X
	UB_NMT
};

/* Each table's name and number of entries. */
extern const char *const ub_mufu_names[UB_NMT];
extern const uint32_t ub_mufu_sizes[UB_NMT];

/* The structures' parameters (scripts/mufu-probe.cu found them). */
#define UB_MUFU_EX2_F 23   /* ex2: 23 fraction bits of |x|, truncated */
#define UB_MUFU_EX2_V 1
#define UB_MUFU_TURNS_W 25 /* sin, cos: 25 bits of |t|, truncated */

/* The functions the models compute, for ub_mufu_eval. */
enum ub_mufu_fn {
	UB_MF_RCP, UB_MF_RSQRT, UB_MF_SQRT, UB_MF_EX2, UB_MF_LG2, UB_MF_SIN,
	UB_MF_COS, UB_MF_DIV_APPROX, UB_MF_DIV_FULL, UB_MF_EX2_H, UB_MF_TANH_H
};

/* 1 when the compact tables were found and mapped (once, on first call;
 * thread-safe), else 0 and the sim models as before. */
int ub_mufu_ready(void);

/* Where they were found, or why not (for --version and messages). */
const char *ub_mufu_where(void);

/* The measured result of fn for the operand bits a (and b: div) with .ftz
 * or not; for the 16-bit fns, a holds the f16 (bf16 when bf16 is set)
 * encoding.  Only after ub_mufu_ready() returned 1. */
uint32_t ub_mufu_eval(int fn, uint32_t a, uint32_t b, int ftz, int bf16);

/* Builds the compact file from a capture (mufu_build.c; `make` runs it
 * as `ulpbench-mufu CAPTURE OUT`). */
int ub_mufu_build(const char *capture, const char *out, struct ub_error *err);

/* Entry i of table id (tests: the compact form gives back every entry). */
uint32_t ub_mufu_entry(int id, uint32_t i);

/* The sure form's blocks (mufu.c): 2^SHIFT entries, two u16 each. */
#define UB_MUFU_SURE_SHIFT 8
#define UB_MUFU_SURE_BYTES(n) ((uint64_t)((n) >> UB_MUFU_SURE_SHIFT) * 4)

/* A value d in [1/2, 2) as the sure form sees it (mufu.c): the float
 * below it (its bits) in *lo, and the next 16 bits, its place between lo
 * and lo + 1, returned. */
static inline uint32_t ub_mufu_sure_split(double d, uint32_t *lo)
{
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	*lo = (uint32_t)(u >> 29) - (896u << 23); /* exponents 1023 -> 127 */
	return (uint32_t)(u >> 13) & 0xffffu;
}

/* The sure form's band test for entry i of a table of rcp, rsqrt or sqrt
 * whose function's value at the entry's input has q as its next 16 bits
 * (ub_mufu_sure_split): 1 when the block decides, with *up 1 for lo + 1
 * and 0 for lo; 0 when q lies in the block's band [A, C] and the table
 * must be asked.  No branch on which of lo and lo + 1 (that comes at
 * random): the signs of q - A and C - q.  The decision is returned apart
 * from the entry so that a caller can fold it into one branch with tests
 * of its own (ub_mufu_rcp_sure_at). */
static inline __attribute__((always_inline)) int
ub_mufu_band(const uint16_t *sure, uint32_t i, uint32_t q, uint32_t *up)
{
	const uint16_t *s = sure + 2 * (i >> UB_MUFU_SURE_SHIFT);
	uint32_t a = q - s[0], c = s[1] - q;
	*up = c >> 31;
	return (int)((a | c) >> 31);
}

/* The sure form's entry i of such a table whose function's value at the
 * entry's input, in double, is d; 0 (no entry is) when undecided. */
static inline uint32_t ub_mufu_sure(const uint16_t *sure, uint32_t i, double d)
{
	uint32_t lo, up, q = ub_mufu_sure_split(d, &lo);
	return ub_mufu_band(sure, i, q, &up) ? lo + up : 0;
}

/* MUFU.RCP's sure form, for ub_mufu_rcp_sure_at: NULL until
 * ub_mufu_ready() has mapped the tables. */
extern const uint16_t *ub_mufu_rcp_sure;

/* MUFU.RCP(b), rcp.approx.ftz.f32, where the sure form decides the
 * table's entry and b is normal or infinite: 1 and the result's bits in
 * *r; else 0 (b zero, subnormal or NaN, or T[m] in its block's band:
 * rare), and the table must be asked (ub_mufu_eval).
 * MUFU.RCP(b) = 2^-e T[m] for b = 2^e 1.m normal, T[m] in (1/2, 1]:
 * T[m]'s exponent field moved by 127 - e's, a result below 2^-126
 * flushed to 0, and so is that of b = inf (its exponent field 255); the
 * sign b's.  Taken from d = 1 / |b| in double rather than from 1 / 1.m:
 * d = 2^-e (1 / 1.m) exactly (a power of two scales the double quotient
 * without a rounding), so d has 1 / 1.m's bits below its exponent (the
 * same q, the same decision) and the float below d, lo + its unit where
 * the block says so, is the entry already moved by e.  Counted from
 * the exponent 2^-126 (896 in double, 1 as a float) in 64 bits, a result
 * below 2^-126 comes out below 0x00800000 (negative from 2^-127 on:
 * flushed), and 2^-126 itself where the unit carries lo's largest
 * subnormal field into it, as 2^-e T[m] is then.  b = inf: d = 0, whose
 * q = 0 is 1 / 1.0's (the same decision), t negative: 0.  Zeros,
 * subnormals and NaNs are told by b's exponent field.  A mask, not a
 * branch: b's kind comes at random in a run over random encodings.  The
 * same bits as the table on all 2^32 encodings (checked when this form
 * was made: decisions and results alike). */
static inline __attribute__((always_inline)) int ub_mufu_rcp_sure_at(uint32_t b, uint32_t *r)
{
	uint32_t mb = b & 0x7fffffffu;
	union { uint32_t u; float f; } x = {mb};
	double d = 1.0 / (double)x.f;
	uint64_t u;
	memcpy(&u, &d, sizeof u);
	uint32_t up, sure = (uint32_t)ub_mufu_band(ub_mufu_rcp_sure, b & 0x7fffffu,
						  (uint32_t)(u >> 13) & 0xffffu, &up);
	int64_t t = (int64_t)(u >> 29) - ((int64_t)896 << 23) + up;
	if (!sure | (mb - 0x00800000u > 0x7f000000u))
		return 0;
	*r = ((uint32_t)t & -(uint32_t)(t >= 0x00800000)) | (b & 0x80000000u);
	return 1;
}

/* rcp.approx.ftz.f32 (tanhf's, and --use_fast_math's 1 / x):
 * ub_mufu_eval's UB_MF_RCP with .ftz, the same bits (tests/check_mufu.c),
 * inline in both executors, the table asked only where
 * ub_mufu_rcp_sure_at does not decide.  Only after ub_mufu_ready()
 * returned 1. */
static inline __attribute__((always_inline)) uint32_t ub_mufu_rcp_approx_ftz(uint32_t b)
{
	uint32_t r;
	return ub_mufu_rcp_sure_at(b, &r) ? r : ub_mufu_eval(UB_MF_RCP, b, 0, 1, 0);
}

/* div.approx.ftz.f32 (--use_fast_math's a / b): ub_mufu_eval's
 * UB_MF_DIV_APPROX with .ftz, FMUL.FTZ(a, MUFU.RCP(b)), the same bits
 * (tests/check_mufu.c), inline in both executors: MUFU.RCP(b) from
 * ub_mufu_rcp_sure_at, the table asked where that does not decide (about
 * 3% of random divisors); masks, not branches, for what comes at random
 * in a run over random encodings (a subnormal, the product flushed);
 * branches only for the rare (a NaN product, one on 2^-126).  Only after
 * ub_mufu_ready() returned 1. */
static inline __attribute__((always_inline)) uint32_t ub_mufu_div_approx_ftz(uint32_t a, uint32_t b)
{
	union { uint32_t u; float f; } x, y;
	uint32_t r;
	if (!ub_mufu_rcp_sure_at(b, &r))
		return ub_mufu_eval(UB_MF_DIV_APPROX, a, b, 1, 0);
	/* FMUL.FTZ (ub_mufu_mul): a flushed, the product rounded once (a
	 * float product: r is 0 or normal), a NaN made the canonical one, a
	 * result below 2^-126 flushed.  Where the product rounds to 2^-126 on
	 * the subnormal grid, its value rounded to 24 bits with an unbounded
	 * exponent decides (rare: a branch) */
	x.u = a & ~(-(uint32_t)((a & 0x7fffffffu) < 0x00800000u) & 0x7fffffffu);
	y.u = r;
	float f = x.f * y.f;
	if (f != f)
		return 0x7fffffffu;
	uint32_t o, mo;
	memcpy(&o, &f, sizeof o);
	mo = o & 0x7fffffffu;
	o &= ~(-(uint32_t)(mo < 0x00800000u) & 0x7fffffffu);
	if (mo == 0x00800000u) {
		float z = (float)((double)x.f * (double)y.f * 0x1p128); /* in [2, 4] */
		if (z < 4.0f && z > -4.0f)
			o &= 0x80000000u;
	}
	return o;
}

/* The compact form of MUFU.EX2's table (mufu.c: the ordered encoding of
 * every 64th entry, and each entry's distance from the line between its
 * two), for ub_mufu_ex2_approx_ftz: NULL until ub_mufu_ready() has mapped
 * the tables. */
extern const int32_t *ub_mufu_ex2_anchor;
extern const int8_t *ub_mufu_ex2_res;

/* ex2.approx.ftz.f32 (expf's, tanhf's and others' in every mode):
 * ub_mufu_eval's UB_MF_EX2 with .ftz (mufu_model.h ub_mufu_ex2, F 23,
 * truncated), the same bits (tests/check_mufu.c), a direct call in both
 * executors rather than ub_mufu_eval's.  Not inline: in erff's kernel,
 * which has a path without ex2, the inline copies made that path's
 * native code 19% slower (0.33 -> 0.39 CPU s on 2^23 inputs) while the
 * call costs the ex2 path nothing measurable.  x = +-2^e 1.m normal with |x| < 1024: mag = |x| 2^23
 * truncated (one shift of the 24-bit significand), the entry of index
 * sign 2^23 + (mag mod 2^23) from the compact form (two anchors and a
 * distance), its exponent moved by +-(mag >> 23), a result below 2^-126
 * flushed to 0, one past the largest finite inf.  The table asked for a
 * zero or subnormal x, |x| >= 1024, inf and NaN, and an entry kept among
 * the escapes (all rare). */
static __attribute__((noinline, unused)) uint32_t ub_mufu_ex2_approx_ftz(uint32_t x)
{
	uint32_t a = x & 0x7fffffffu, neg = x >> 31;
	if (a - 0x00800000u >= 0x44800000u - 0x00800000u)
		return ub_mufu_eval(UB_MF_EX2, x, 0, 1, 0);
	int sh = (int)(a >> 23) - 127; /* |x| 2^23 = (2^23 + m) 2^sh, sh in [-126, 9] */
	int down = 32 - sh;
	uint64_t mag = ((uint64_t)((a & 0x7fffffu) | 0x800000u) << 32) >> (down < 63 ? down : 63);
	uint32_t i = neg << 23 | (uint32_t)(mag & 0x7fffffu);
	int64_t a0 = ub_mufu_ex2_anchor[i >> 6], a1 = ub_mufu_ex2_anchor[(i >> 6) + 1];
	int64_t o = a0 + (((a1 - a0) * (int64_t)(i & 63)) >> 6) + ub_mufu_ex2_res[i];
	if ((ub_mufu_ex2_res[i] == -128) | (o < 0x00800000) | (o >= 0x7f800000))
		return ub_mufu_eval(UB_MF_EX2, x, 0, 1, 0);
	int d = (int)(mag >> 23), e = (int)(o >> 23) + (neg ? -d : d);
	uint32_t r = (uint32_t)e << 23 | ((uint32_t)o & 0x7fffffu);
	r = e <= 0 ? 0 : r;
	return e >= 255 ? 0x7f800000u : r;
}

/* The compact form of T, table id (n entries; mufu.c): anchors,
 * distances and escapes, and for the tables of rcp, rsqrt and sqrt the
 * quick and sure forms too, malloc'd.  -1 when out of memory. */
struct ub_mufu_compact {
	int32_t *anchor; /* n / 64 + 2 */
	int8_t *res;     /* n */
	uint32_t *esc;   /* nesc (index, value) pairs */
	uint32_t nesc;
	uint8_t *quick;  /* n / 4 (2 bits an entry), or NULL (mufu.c) */
	uint16_t *sure;  /* (A, C) per block, or NULL (mufu.c) */
};
int ub_mufu_compact(int id, const uint32_t *T, uint32_t n, struct ub_mufu_compact *c);

#endif

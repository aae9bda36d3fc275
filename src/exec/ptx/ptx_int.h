/* ptx_int.h — integer instruction semantics (PTX ISA 9.7.1 Integer
 * Arithmetic, Logic and Shift, setp), exact, on values of `bits` bits held
 * in the low bits of a uint64_t.  s selects the signed form. */
#ifndef UB_PTX_INT_H
#define UB_PTX_INT_H

#include "ptx_num.h"

/* The operand as a signed or unsigned 64-bit value (for comparisons). */
static inline int ptx_ilt(uint64_t a, uint64_t b, unsigned bits, int s)
{
	return s ? ptx_sext(a, bits) < ptx_sext(b, bits)
		 : (a & ptx_mask(bits)) < (b & ptx_mask(bits));
}

/* div: truncating.  Division by zero is "unspecified" in the ISA; we
 * return all ones (-1 signed).  MIN / -1 wraps to MIN. */
static inline uint64_t ptx_idiv(uint64_t a, uint64_t b, unsigned bits, int s)
{
	uint64_t m = ptx_mask(bits);
	if (!s && (a & m) < (b & m))
		return 0;   /* a grid-stride loop's trip count, one pass */
	if (!s && bits <= 32)   /* a 32-bit divide is the faster one */
		return (b & m) ? (uint32_t)(a & m) / (uint32_t)(b & m) : m;
	if (!s)
		return (b & m) ? ((a & m) / (b & m)) : m;
	int64_t x = ptx_sext(a, bits), y = ptx_sext(b, bits);
	if (y == 0)
		return m;
	if (y == -1)
		return (0 - (uint64_t)x) & m;
	return (uint64_t)(x / y) & m;
}

/* rem: sign of the dividend; rem by zero returns a (ISA: unspecified). */
static inline uint64_t ptx_irem(uint64_t a, uint64_t b, unsigned bits, int s)
{
	uint64_t m = ptx_mask(bits);
	if (!s)
		return (b & m) ? ((a & m) % (b & m)) : a & m;
	int64_t x = ptx_sext(a, bits), y = ptx_sext(b, bits);
	if (y == 0)
		return a & m;
	if (y == -1)
		return 0;
	return (uint64_t)(x % y) & m;
}

/* mul.hi: the upper `bits` bits of the 2*bits-bit product. */
static inline uint64_t ptx_mulhi(uint64_t a, uint64_t b, unsigned bits, int s)
{
	uint64_t m = ptx_mask(bits);
	if (s) {
		__int128 p = (__int128)ptx_sext(a, bits) * ptx_sext(b, bits);
		return (uint64_t)(p >> bits) & m;
	}
	unsigned __int128 p = (unsigned __int128)(a & m) * (b & m);
	return (uint64_t)(p >> bits) & m;
}

/* mul.wide: the full product of two `bits`-bit operands (bits <= 32). */
static inline uint64_t ptx_mulwide(uint64_t a, uint64_t b, unsigned bits, int s)
{
	if (s)
		return (uint64_t)(ptx_sext(a, bits) * ptx_sext(b, bits)) &
		       ptx_mask(2 * bits);
	return (a & ptx_mask(bits)) * (b & ptx_mask(bits));
}

/* shr: amounts >= bits are clamped to bits (all sign bits / zero). */
static inline uint64_t ptx_shr(uint64_t a, uint64_t b, unsigned bits, int s)
{
	uint64_t n = b & 0xffffffffu;
	if (s)
		return (uint64_t)(ptx_sext(a, bits) >> (n >= bits ? bits - 1 : n)) &
		       ptx_mask(bits);
	return n >= bits ? 0 : (a & ptx_mask(bits)) >> n;
}

/* shf.{l,r}.{wrap,clamp}.b32 d, a, b, c [logic]: the 64-bit {b, a} (b
 * the upper half) shifted by n = c & 31 (.wrap) or min(c, 32) (.clamp);
 * .l keeps the upper 32 bits, .r the lower 32. */
static inline uint64_t ptx_shf(uint64_t a, uint64_t b, uint64_t c, int right,
			       int clamp)
{
	uint64_t n = c & 0xffffffffu, v = (b & 0xffffffffu) << 32 | (a & 0xffffffffu);
	n = clamp ? (n > 32 ? 32 : n) : n & 31;
	return (right ? v >> n : v << n >> 32) & 0xffffffffu;
}

static inline uint64_t ptx_brev(uint64_t a, unsigned bits)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < bits; i++)
		r |= ((a >> i) & 1) << (bits - 1 - i);
	return r;
}

/* bfe (ISA pseudocode): pos = b & 0xff, len = c & 0xff; bit i of d is
 * a[pos+i] for i < len and pos+i <= msb, else the sign bit (a[min(pos+len-1,
 * msb)] for .s with len > 0, else 0). */
static inline uint64_t ptx_bfe(uint64_t a, uint64_t b, uint64_t c,
			       unsigned bits, int s)
{
	unsigned pos = b & 0xff, len = c & 0xff, msb = bits - 1;
	unsigned top = pos + len - 1 < msb ? pos + len - 1 : msb;
	uint64_t sbit = s && len ? (a >> top) & 1 : 0, d = 0;
	for (unsigned i = 0; i <= msb; i++) {
		uint64_t bit = i < len && pos + i <= msb ? (a >> (pos + i)) & 1 : sbit;
		d |= bit << i;
	}
	return d;
}

/* bfi (ISA pseudocode): f = b; f[pos+i] = a[i] for i < len, pos+i <= msb
 * with pos = c & 0xff, len = d & 0xff. */
static inline uint64_t ptx_bfi(uint64_t a, uint64_t b, uint64_t c, uint64_t d,
			       unsigned bits)
{
	unsigned pos = c & 0xff, len = d & 0xff;
	uint64_t f = b & ptx_mask(bits);
	for (unsigned i = 0; i < len && pos + i < bits; i++)
		f = (f & ~(1ull << (pos + i))) | (((a >> i) & 1) << (pos + i));
	return f;
}

/* prmt.b32{.mode} (PTX ISA 9.0, 9.7.9.7): the bytes of {b, a} (a the
 * low four, b0..b7) that c selects.  Without a mode each of c's four low
 * nibbles picks a byte by its low 3 bits, its top bit asking for the
 * byte's sign bit in all 8; with one, c's low 2 bits pick a row of the
 * ISA's table of the mode: the byte index of d's bytes 0..3 per row,
 * rows f4e, b4e, rc8, ecl, ecr, rc16 in mode order 1..6. */
static inline uint32_t ptx_prmt(uint32_t a, uint32_t b, uint32_t c, int mode)
{
	static const uint8_t tab[6][4][4] = {
		{ {0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6} },   /* f4e */
		{ {0, 7, 6, 5}, {1, 0, 7, 6}, {2, 1, 0, 7}, {3, 2, 1, 0} },   /* b4e */
		{ {0, 0, 0, 0}, {1, 1, 1, 1}, {2, 2, 2, 2}, {3, 3, 3, 3} },   /* rc8 */
		{ {0, 1, 2, 3}, {1, 1, 2, 3}, {2, 2, 2, 3}, {3, 3, 3, 3} },   /* ecl */
		{ {0, 0, 0, 0}, {0, 1, 1, 1}, {0, 1, 2, 2}, {0, 1, 2, 3} },   /* ecr */
		{ {0, 1, 0, 1}, {2, 3, 2, 3}, {0, 1, 0, 1}, {2, 3, 2, 3} },   /* rc16 */
	};
	uint64_t src = (uint64_t)b << 32 | a;
	uint32_t d = 0;
	for (int k = 0; k < 4; k++) {
		unsigned sel = mode ? tab[mode - 1][c & 3][k] : (c >> (4 * k)) & 0xf;
		uint32_t byte = (uint32_t)(src >> (8 * (sel & 7))) & 0xff;
		if (!mode && (sel & 8))
			byte = (byte & 0x80) ? 0xff : 0;
		d |= byte << (8 * k);
	}
	return d;
}

/* lop3.b32 (9.7.8.6): bit i of d is bit (a_i << 2 | b_i << 1 | c_i) of
 * lut, the function F for which lut = F(0xF0, 0xCC, 0xAA). */
static inline uint32_t ptx_lop3(uint32_t a, uint32_t b, uint32_t c, unsigned lut)
{
	uint32_t d = 0;
	for (unsigned k = 0; k < 8; k++)
		if (lut >> k & 1)
			d |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
	return d;
}

/* %lanemask_eq, _le, _lt, _ge, _gt (op 0..4) of lane l (chapter 10). */
static inline uint32_t ptx_lanemask(unsigned l, int op)
{
	uint32_t eq = 1u << l, lt = eq - 1;
	switch (op) {
	case 0: return eq;
	case 1: return lt | eq;
	case 2: return lt;
	case 3: return ~lt;
	default: return ~(lt | eq);
	}
}

/* setp on integers: eq ne (bits), lt le gt ge (signedness of the type),
 * lo ls hi hs (unsigned).  Without branches, so that it inlines into the
 * executors' loops: the operands are mapped to unsigned order (the sign
 * bit flipped for a signed compare), and each operator is the set of
 * outcomes {less, equal, greater} it accepts (bits 0, 1, 2).  The batched
 * executor prepares k once per instruction (ptx_icmp_prep). */
struct ptx_icmp_k {
	uint64_t flip, m;
	unsigned acc;
};

static inline struct ptx_icmp_k ptx_icmp_prep(unsigned bits, int s, int cmp)
{
	static const unsigned char accept[] = {
		[PTX_CMP_EQ] = 2, [PTX_CMP_NE] = 5, [PTX_CMP_LT] = 1,
		[PTX_CMP_LE] = 3, [PTX_CMP_GT] = 4, [PTX_CMP_GE] = 6,
		[PTX_CMP_LO] = 1 | 8, [PTX_CMP_LS] = 3 | 8, [PTX_CMP_HI] = 4 | 8,
		[PTX_CMP_HS] = 6 | 8,   /* 8: always unsigned */
	};
	struct ptx_icmp_k k;
	k.acc = cmp >= 0 && cmp <= PTX_CMP_HS ? accept[cmp] : 6 | 8;
	k.m = ptx_mask(bits);
	k.flip = (s && !(k.acc & 8)) ? 1ull << (bits - 1) : 0;
	return k;
}

static inline int ptx_icmp_k(const struct ptx_icmp_k *k, uint64_t a, uint64_t b)
{
	uint64_t x = (a ^ k->flip) & k->m, y = (b ^ k->flip) & k->m;
	unsigned out = x < y ? 1u : x == y ? 2u : 4u;
	return (k->acc & out) != 0;
}

static inline int ptx_icmp(uint64_t a, uint64_t b, unsigned bits, int s, int cmp)
{
	struct ptx_icmp_k k = ptx_icmp_prep(bits, s, cmp);
	return ptx_icmp_k(&k, a, b);
}

/* Extended precision (PTX ISA 9.7.2): addc, subc, madc.lo, madc.hi, and
 * add.cc, sub.cc, mad.cc (no PTX_F_CIN).  *cf is CC.CF: read with
 * PTX_F_CIN, written with PTX_F_CC (sub: the borrow, a < b + cin as
 * unsigned n-bit numbers, as the ISA's "d = a - (b + CC.CF)" says). */
static inline uint64_t ptx_carry_op(const struct ptx_insn *in, uint64_t a,
				    uint64_t b, uint64_t c, uint64_t *cf)
{
	unsigned n = in->bits;
	uint64_t m = ptx_mask(n), cin = (in->flags & PTX_F_CIN) ? (*cf & 1) : 0;
	unsigned __int128 r;
	int out;
	a &= m, b &= m, c &= m;
	if (in->op == PTX_SUBC) {
		r = (unsigned __int128)a - b - cin;
		out = (unsigned __int128)a < (unsigned __int128)b + cin;
	} else {
		uint64_t x = in->op == PTX_ADDC ? a : in->op == PTX_MADC_LO ? (a * b) & m
			     : ptx_mulhi(a, b, n, (in->flags & PTX_F_SIGNED) != 0);
		uint64_t y = in->op == PTX_ADDC ? b : c;
		r = (unsigned __int128)x + y + cin;
		out = (int)(r >> n) & 1;
	}
	if (in->flags & PTX_F_CC)
		*cf = (uint64_t)out;
	return (uint64_t)r & m;
}

#endif
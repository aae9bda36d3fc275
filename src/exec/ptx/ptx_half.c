/* ptx_half.c — f16 and bf16 arithmetic (PTX ISA 9.7.4 Half Precision
 * Floating-Point Instructions): add, sub, mul, fma (.rn), neg, abs, min,
 * max and the values setp compares; scalar, or x2 with each 16-bit half
 * (low half first) done on its own.
 *
 * Method: a*b + c exactly, never through a wider float.  The product of two
 * significands of at most 11 bits is exact in 64 bits; the sum is formed
 * exactly in 128 bits after aligning exponents (an addend more than 100
 * binades below the other only acts as a sticky bit of the right sign),
 * compressed to 64 bits with a sticky least significant bit (round to odd,
 * harmless for a later rounding to <= 62 bits), and rounded once to the
 * format by ptx_round.  add is a*1 + b, sub a*1 + (-b), mul a*b alone, so
 * every result is correctly rounded.  Non-finite operands follow IEEE (the
 * double computation of the same operation is exact for them).
 * .ftz (f16 only) flushes subnormal inputs and results; .sat clamps to
 * [0, 1] with NaN -> +0; NaN results are 0x7fff (assumed canonical, to
 * verify on a GPU). */
#include "ptx_num.h"
#include "mufu.h"

/* Exact product of two finite values (significands < 2^32). */
static struct ptx_val mul_val(struct ptx_val a, struct ptx_val b)
{
	struct ptx_val r = { a.cls && b.cls, a.sign ^ b.sign, a.exp + b.exp,
			     a.mag * b.mag };
	return r;
}

static int hibit128(unsigned __int128 m)
{
	uint64_t hi = (uint64_t)(m >> 64);
	return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)m);
}

/* Exact sum of two finite values (significands < 2^32), its significand
 * compressed to 64 bits with a sticky bit.  An exact zero is +0 unless
 * both are -0 (round to nearest). */
static struct ptx_val add_val(struct ptx_val p, struct ptx_val c)
{
	if (!p.cls || !c.cls)
		return !c.cls ? (p.cls ? p : (struct ptx_val){ 0, p.sign && c.sign, 0, 0 })
			      : c;
	struct ptx_val *hi = p.exp >= c.exp ? &p : &c, *lo = hi == &p ? &c : &p;
	int d = hi->exp - lo->exp;
	if (d > 100)
		lo->mag = 1, lo->exp = hi->exp - 100, d = 100;
	unsigned __int128 H = (unsigned __int128)hi->mag << d, L = lo->mag, m;
	int sign = hi->sign;
	if (hi->sign == lo->sign)
		m = H + L;
	else if (H >= L)
		m = H - L;
	else
		m = L - H, sign = lo->sign;
	if (m == 0)
		return (struct ptx_val){ 0, 0, 0, 0 };
	int e = lo->exp, k = hibit128(m) - 62;
	if (k > 0) {
		int lost = (m & (((unsigned __int128)1 << k) - 1)) != 0;
		m = (m >> k) | (unsigned __int128)lost;
		e += k;
	}
	return (struct ptx_val){ 1, sign, e, (uint64_t)m };
}

static struct ptx_val flush(const struct ptx_fmt *f, struct ptx_val v)
{
	if (v.cls == 1 && v.mag < (1ull << (f->p - 1)))
		v.cls = 0, v.mag = 0;
	return v;
}

/* min/max: a NaN operand yields the other (with .NaN, NaN), -0 < +0. */
static struct ptx_val minmax(struct ptx_val a, struct ptx_val b, int is_max, int nan)
{
	if (nan && (a.cls == 3 || b.cls == 3))
		return a.cls == 3 ? a : b;
	if (a.cls == 3)
		return b;
	if (b.cls == 3)
		return a;
	double x = ptx_val_double(a), y = ptx_val_double(b);
	int a_first = x == y ? (a.sign != 0) != is_max : (x < y) != is_max;
	return a_first ? a : b;
}

/* Whether the exact finite v, rounded to nearest even to f's p bits with
 * an unbounded exponent, is below 2^emin (nonzero). */
static int tiny_after(const struct ptx_fmt *f, struct ptx_val v)
{
	if (v.cls != 1 || !v.mag)
		return 0;
	int top = 63 - __builtin_clzll(v.mag), e = top + v.exp; /* 2^e <= |v| */
	if (e != f->emin - 1)
		return e < f->emin;
	/* |v| in [2^(emin-1), 2^emin): it reaches 2^emin only by rounding
	 * up from p ones */
	int drop = top + 1 - f->p;
	if (drop <= 0)
		return 1;
	uint64_t keep = v.mag >> drop, rest = v.mag & ((UINT64_C(1) << drop) - 1),
		 half = UINT64_C(1) << (drop - 1);
	int up = rest > half || (rest == half && (keep & 1));
	return !(up && keep == (UINT64_C(1) << f->p) - 1);
}

/* One 16-bit lane. */
static uint64_t lane(const struct ptx_insn *in, const struct ptx_fmt *f,
		     uint64_t a, uint64_t b, uint64_t c)
{
	int ftz = (in->flags & PTX_F_FTZ) && f->p == 11;
	struct ptx_val va = ptx_decode(f, a), vb = ptx_decode(f, b),
		       vc = ptx_decode(f, c), r;
	if (ftz)
		va = flush(f, va), vb = flush(f, vb), vc = flush(f, vc);
	if (in->op == PTX_SUB_H)
		vb.sign ^= 1;
	switch (in->op) {
	case PTX_NEG_H: r = va, r.sign ^= 1; break;
	case PTX_ABS_H: r = va, r.sign = 0; break;
	case PTX_MIN_H: case PTX_MAX_H:
		r = minmax(va, vb, in->op == PTX_MAX_H, (in->flags & PTX_F_NAN) != 0);
		break;
	default: {
		int isfma = in->op == PTX_FMA_H, mul = in->op == PTX_MUL_H;
		struct ptx_val one = { 1, 0, 0, 1 };
		if (va.cls >= 2 || vb.cls >= 2 || (isfma && vc.cls >= 2)) {
			double x = ptx_val_double(va), y = ptx_val_double(vb);
			double z = isfma ? fma(x, y, ptx_val_double(vc)) : mul ? x * y : x + y;
			r = ptx_decode(ptx_fmt_of(PTX_T_F64), ptx_bits64(z));
		} else if (isfma || mul) {
			r = mul_val(va, vb);
			r = isfma ? add_val(r, vc) : r;
		} else {
			r = add_val(mul_val(va, one), vb);
		}
	}
	}
	/* .ftz on a product or fma flushes a value that, rounded to the
	 * format's p bits with an unbounded exponent, is below the smallest
	 * normal (sm_90, as mul.ftz.f32: ptx_cases.h) */
	if (ftz && (in->op == PTX_MUL_H || in->op == PTX_FMA_H) && tiny_after(f, r))
		r = (struct ptx_val){ 0, r.sign, 0, 0 };
	if ((in->flags & PTX_F_SAT) && !(r.cls && !r.sign && r.cls != 3))
		r = (struct ptx_val){ 0, 0, 0, 0 };          /* NaN, <= 0 -> +0 */
	else if ((in->flags & PTX_F_SAT) && ptx_val_double(r) >= 1.0)
		r = (struct ptx_val){ 1, 0, 0, 1 };
	uint64_t bits = ptx_round(f, r, PTX_RND_RN);
	if (ftz && !(bits & 0x7fff & ~ptx_mask((unsigned)f->p - 1)))
		bits &= 0x8000;                              /* subnormal result */
	return bits;
}

uint64_t ptx_half_op(const struct ptx_insn *in, uint64_t a, uint64_t b,
		     uint64_t c)
{
	const struct ptx_fmt *f = ptx_fmt_of(in->dtype);
	uint64_t r = lane(in, f, a & 0xffff, b & 0xffff, c & 0xffff);
	if (in->bits == 32)
		r |= lane(in, f, (a >> 16) & 0xffff, (b >> 16) & 0xffff,
			  (c >> 16) & 0xffff) << 16;
	return r;
}

double ptx_half_value(const struct ptx_insn *in, uint64_t a)
{
	const struct ptx_fmt *f = ptx_fmt_of(in->dtype);
	struct ptx_val v = ptx_decode(f, a & 0xffff);
	if ((in->flags & PTX_F_FTZ) && f->p == 11)
		v = flush(f, v);
	return ptx_val_double(v);
}

static uint64_t approx_lane(const struct ptx_insn *in, const struct ptx_fmt *f,
			    uint64_t a, int fn)
{
	int bf16 = f->p == 8, ftz = (in->flags & PTX_F_FTZ) != 0;
	if (in->cmp)
		return ub_mufu_eval(fn, (uint32_t)a, 0, ftz, bf16);
	struct ptx_val v = ptx_decode(f, a);
	if (ftz)
		v = flush(f, v);
	double x = ptx_val_double(v), y = fn == UB_MF_EX2_H ? exp2(x) : tanh(x);
	uint64_t bits = ptx_round(f, ptx_decode(ptx_fmt_of(PTX_T_F64), ptx_bits64(y)), PTX_RND_RN);
	if (ftz && !(bits & 0x7fff & ~ptx_mask((unsigned)f->p - 1)))
		bits &= 0x8000;
	return bits;
}

uint64_t ptx_half_approx(const struct ptx_insn *in, uint64_t a, int fn)
{
	const struct ptx_fmt *f = ptx_fmt_of(in->dtype);
	uint64_t r = approx_lane(in, f, a & 0xffff, fn);
	if (in->bits == 32)
		r |= approx_lane(in, f, (a >> 16) & 0xffff, fn) << 16;
	return r;
}

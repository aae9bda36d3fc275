/* ptx_set.c — set.CmpOp{.ftz}.dtype.stype d, a, b (PTX ISA [cmp] set, and
 * 9.7.4 half precision set): compare a and b as stype; d is 1.0 in a float
 * dtype (f32 0x3f800000, f16 0x3c00, bf16 0x3f80) or all ones in an
 * integer dtype when the compare holds, else 0.  With a packed stype
 * (f16x2, bf16x2) each 16-bit half is compared on its own and gives a
 * 16-bit result (f16x2: 0x3c00, bf16x2: 0x3f80, u32/s32: 0xffff).
 * Float compares follow setp (ordered/unordered, -0 == +0); .ftz flushes
 * f32 and f16 subnormal sources. */
#include "ptx_int.h"

/* The value of one source element of type ty (bits of it), as a double;
 * integers are compared by ptx_icmp instead. */
static double fvalue(const struct ptx_insn *in, int ty, uint64_t v)
{
	const struct ptx_fmt *f = ptx_fmt_of(ty);
	struct ptx_val x = ptx_decode(f, v & ptx_mask((unsigned)f->bits));
	int ftz = (in->flags & PTX_F_FTZ) && (ty == PTX_T_F32 || ty == PTX_T_F16 ||
					      ty == PTX_T_F16X2);
	if (ftz && x.cls == 1 && x.mag < (1ull << (f->p - 1)))
		x.cls = 0, x.mag = 0;             /* subnormal -> zero */
	return ptx_val_double(x);
}

/* "True" in a result field of type ty, 16 bits wide when half is set. */
static uint64_t truth(int ty, int half)
{
	switch (ty) {
	case PTX_T_F32: return 0x3f800000u;
	case PTX_T_F16: case PTX_T_F16X2: return 0x3c00u;
	case PTX_T_BF16: case PTX_T_BF16X2: return 0x3f80u;
	default: return ptx_mask(half ? 16 : ptx_type_bits(ty));
	}
}

uint64_t ptx_set(const struct ptx_insn *in, uint64_t a, uint64_t b)
{
	int s = in->aux, d = in->dtype;
	if (s == PTX_T_F16X2 || s == PTX_T_BF16X2) {
		int lane = s == PTX_T_F16X2 ? PTX_T_F16 : PTX_T_BF16;
		uint64_t r = 0;
		for (int h = 0; h < 2; h++) {
			uint64_t x = (a >> (16 * h)) & 0xffff, y = (b >> (16 * h)) & 0xffff;
			if (ptx_fcmp(fvalue(in, lane, x), fvalue(in, lane, y), in->cmp))
				r |= truth(d, 1) << (16 * h);
		}
		return r;
	}
	unsigned sb = ptx_type_bits(s);
	int t = ptx_type_kind(s) == 'F' || ptx_type_kind(s) == 'H'
		? ptx_fcmp(fvalue(in, s, a), fvalue(in, s, b), in->cmp)
		: ptx_icmp(a, b, sb, (in->flags & PTX_F_SIGNED) != 0, in->cmp);
	return t ? truth(d, 0) : 0;
}

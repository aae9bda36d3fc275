/* check_ptx_int.c — integer, logic, predicate, move and cvt instructions
 * against the PTX ISA (9.7.1 Integer Arithmetic, Logic and Shift, cvt),
 * one instruction per kernel.  Expected values are worked out by hand from
 * the ISA's definitions (modular arithmetic, the shift clamping rule, the
 * bfe/bfi pseudocode, cvt's saturation) and IEEE rounding for cvt; the
 * rounding rows were cross-checked with exact rationals (Python's
 * fractions), never with the interpreter. */
#include "check_ptx.h"

static const struct ptx_case int_arith[] = {
	/* Wraparound modulo 2^n. */
	{ "add.s32 %x3, %x0, %x1", 0x7fffffff, 1, 0, 'x', 0x80000000, 0, 0 },
	{ "add.u64 %y3, %y0, %y1", ~0ull, 1, 0, 'y', 0, 0, 0 },
	{ "add.u16 %h3, %h0, %h1", 0xffff, 1, 0, 'h', 0, 0, 0 },
	{ "sub.s32 %x3, %x0, %x1", 0, 1, 0, 'x', 0xffffffff, 0, 0 },
	{ "mul.lo.s32 %x3, %x0, %x1", 0x10000, 0x10000, 0, 'x', 0, 0, 0 },
	/* (2^32-1)^2 = 2^64 - 2^33 + 1: high word 0xfffffffe. */
	{ "mul.hi.u32 %x3, %x0, %x1", 0xffffffff, 0xffffffff, 0, 'x', 0xfffffffe, 0, 0 },
	/* -1 * -1 = 1: high word 0; -2^31 * 2 = -2^32: high word -1. */
	{ "mul.hi.s32 %x3, %x0, %x1", 0xffffffff, 0xffffffff, 0, 'x', 0, 0, 0 },
	{ "mul.hi.s32 %x3, %x0, %x1", 0x80000000, 2, 0, 'x', 0xffffffff, 0, 0 },
	{ "mul.hi.u64 %y3, %y0, %y1", ~0ull, 2, 0, 'y', 1, 0, 0 },
	{ "mul.wide.s32 %y3, %x0, %x1", 0xfffffffe, 3, 0, 'y', 0xfffffffffffffffa, 0, 0 },
	{ "mul.wide.u32 %y3, %x0, %x1", 0xffffffff, 0xffffffff, 0, 'y',
	  0xfffffffe00000001, 0, 0 },
	{ "mul.wide.s16 %x3, %h0, %h1", 0xffff, 0xffff, 0, 'x', 1, 0, 0 },
	{ "mad.lo.s32 %x3, %x0, %x1, %x2", 3, 4, 5, 'x', 17, 0, 0 },
	{ "mad.hi.u32 %x3, %x0, %x1, %x2", 0xffffffff, 0xffffffff, 1, 'x', 0xffffffff, 0, 0 },
	{ "mad.wide.u32 %y3, %x0, %x1, %y2", 0xffffffff, 2, 1, 'y', 0x1ffffffff, 0, 0 },
	/* Truncating division; the remainder has the dividend's sign. */
	{ "div.s32 %x3, %x0, %x1", (uint32_t)-7, 2, 0, 'x', (uint32_t)-3, 0, 0 },
	{ "rem.s32 %x3, %x0, %x1", (uint32_t)-7, 2, 0, 'x', (uint32_t)-1, 0, 0 },
	{ "div.u32 %x3, %x0, %x1", 0xffffffff, 2, 0, 'x', 0x7fffffff, 0, 0 },
	{ "div.s64 %y3, %y0, %y1", 0x8000000000000000, ~0ull, 0, 'y', 0x8000000000000000, 0, 0 },
	{ "rem.s64 %y3, %y0, %y1", 0x8000000000000000, ~0ull, 0, 'y', 0, 0, 0 },
	/* Division by zero: unspecified in the ISA; defined here as all ones
	 * for div and the dividend for rem (documented choice). */
	{ "div.u32 %x3, %x0, %x1", 7, 0, 0, 'x', 0xffffffff, 0, 0 },
	{ "rem.u32 %x3, %x0, %x1", 7, 0, 0, 'x', 7, 0, 0 },
	{ "div.s32 %x3, %x0, %x1", 0x80000000, 0xffffffff, 0, 'x', 0x80000000, 0, 0 },
	{ "neg.s32 %x3, %x0", 0x80000000, 0, 0, 'x', 0x80000000, 0, 0 },
	{ "abs.s32 %x3, %x0", 0x80000000, 0, 0, 'x', 0x80000000, 0, 0 },
	{ "abs.s32 %x3, %x0", (uint32_t)-5, 0, 0, 'x', 5, 0, 0 },
	{ "min.s32 %x3, %x0, %x1", 0xffffffff, 1, 0, 'x', 0xffffffff, 0, 0 },
	{ "min.u32 %x3, %x0, %x1", 0xffffffff, 1, 0, 'x', 1, 0, 0 },
	{ "max.s64 %y3, %y0, %y1", ~0ull, 1, 0, 'y', 1, 0, 0 },
	{ "popc.b32 %x3, %x0", 0xf0f0f0f0, 0, 0, 'x', 16, 0, 0 },
	{ "popc.b64 %x3, %y0", ~0ull, 0, 0, 'x', 64, 0, 0 },
	{ "clz.b32 %x3, %x0", 0, 0, 0, 'x', 32, 0, 0 },
	{ "clz.b32 %x3, %x0", 1, 0, 0, 'x', 31, 0, 0 },
	{ "clz.b64 %x3, %y0", 1, 0, 0, 'x', 63, 0, 0 },
	/* 0x12345678 reversed bit by bit: 0x1e6a2c48. */
	{ "brev.b32 %x3, %x0", 0x12345678, 0, 0, 'x', 0x1e6a2c48, 0, 0 },
	/* bfe: bits 4..11 of 0x12345678 = 0x67; .s32 field 0xf of 0xf0 at 4
	 * sign-extends to -1; len 0 gives 0. */
	{ "bfe.u32 %x3, %x0, 4, 8", 0x12345678, 0, 0, 'x', 0x67, 0, 0 },
	{ "bfe.s32 %x3, %x0, 4, 4", 0xf0, 0, 0, 'x', 0xffffffff, 0, 0 },
	{ "bfe.s32 %x3, %x0, 4, 0", 0xf0, 0, 0, 'x', 0, 0, 0 },
	/* bfi: a's low bits into b at pos c, length d. */
	{ "bfi.b32 %x3, %x0, %x1, 4, 4", 0xf, 0, 0, 'x', 0xf0, 0, 0 },
	{ "bfi.b64 %y3, %y0, %y1, 32, 32", 0x11111111, 0x22222222, 0, 'y',
	  0x1111111122222222, 0, 0 },
};

/* Logic, shifts (amounts >= n clamp to n: 0 or all sign bits), predicates
 * as values, selection. */
static const struct ptx_case int_logic[] = {
	{ "and.b32 %x3, %x0, %x1", 0xff00ff00, 0x0ff00ff0, 0, 'x', 0x0f000f00, 0, 0 },
	{ "or.b32 %x3, %x0, %x1", 0xff00ff00, 0x0ff00ff0, 0, 'x', 0xfff0fff0, 0, 0 },
	{ "xor.b32 %x3, %x0, %x1", 0xff00ff00, 0x0ff00ff0, 0, 'x', 0xf0f0f0f0, 0, 0 },
	{ "not.b32 %x3, %x0", 0, 0, 0, 'x', 0xffffffff, 0, 0 },
	{ "cnot.b32 %x3, %x0", 0, 0, 0, 'x', 1, 0, 0 },
	{ "cnot.b32 %x3, %x0", 5, 0, 0, 'x', 0, 0, 0 },
	{ "shl.b32 %x3, %x0, %x1", 1, 31, 0, 'x', 0x80000000, 0, 0 },
	{ "shl.b32 %x3, %x0, %x1", 1, 32, 0, 'x', 0, 0, 0 },
	{ "shl.b64 %y3, %y0, %x1", 1, 64, 0, 'y', 0, 0, 0 },
	{ "shl.b64 %y3, %y0, %x1", 1, 63, 0, 'y', 0x8000000000000000, 0, 0 },
	{ "shr.u32 %x3, %x0, %x1", 0x80000000, 40, 0, 'x', 0, 0, 0 },
	{ "shr.s32 %x3, %x0, %x1", 0x80000000, 40, 0, 'x', 0xffffffff, 0, 0 },
	{ "shr.s32 %x3, %x0, %x1", 0x80000000, 31, 0, 'x', 0xffffffff, 0, 0 },
	{ "shr.b32 %x3, %x0, %x1", 0x80000000, 31, 0, 'x', 1, 0, 0 },
	{ "shr.s64 %y3, %y0, 65", 0x8000000000000000, 0, 0, 'y', ~0ull, 0, 0 },
	/* shf (funnel shift, libdevice's sinf/cosf reduction as Triton inlines
	 * it): {b, a} = 0x01234567_89abcdef.  By 8: .l keeps the upper word
	 * of the shifted 64 bits, 0x23456789; .r the lower, 0x6789abcd.  By
	 * 40: .wrap shifts by 40 & 31 = 8 again, .clamp by 32 (.l gives a,
	 * .r gives b).  By 0: .l gives b, .r gives a. */
	{ "shf.l.wrap.b32 %x3, %x0, %x1, %x2", 0x89abcdef, 0x01234567, 8, 'x', 0x23456789, 0, 0 },
	{ "shf.r.wrap.b32 %x3, %x0, %x1, %x2", 0x89abcdef, 0x01234567, 8, 'x', 0x6789abcd, 0, 0 },
	{ "shf.l.wrap.b32 %x3, %x0, %x1, %x2", 0x89abcdef, 0x01234567, 40, 'x', 0x23456789, 0, 0 },
	{ "shf.l.clamp.b32 %x3, %x0, %x1, %x2", 0x89abcdef, 0x01234567, 40, 'x', 0x89abcdef, 0, 0 },
	{ "shf.r.clamp.b32 %x3, %x0, %x1, %x2", 0x89abcdef, 0x01234567, 40, 'x', 0x01234567, 0, 0 },
	{ "shf.l.clamp.b32 %x3, %x0, %x1, %x2", 0x89abcdef, 0x01234567, 0, 'x', 0x01234567, 0, 0 },
	{ "shf.r.wrap.b32 %x3, %x0, %x1, %x2", 0x89abcdef, 0x01234567, 0, 'x', 0x89abcdef, 0, 0 },
	{ "and.pred %p3, %p0, %p1", 1, 1, 0, 'p', 1, 0, 0 },
	{ "and.pred %p3, %p0, %p1", 1, 0, 0, 'p', 0, 0, 0 },
	{ "or.pred %p3, %p0, %p1", 0, 1, 0, 'p', 1, 0, 0 },
	{ "xor.pred %p3, %p0, %p1", 1, 1, 0, 'p', 0, 0, 0 },
	{ "not.pred %p3, %p0", 0, 0, 0, 'p', 1, 0, 0 },
	{ "not.pred %p3, %p0", 1, 0, 0, 'p', 0, 0, 0 },
	{ "selp.b32 %x3, %x0, %x1, %p2", 10, 20, 1, 'x', 10, 0, 0 },
	{ "selp.b32 %x3, %x0, %x1, %p2", 10, 20, 0, 'x', 20, 0, 0 },
	{ "selp.f32 %x3, 0f3F800000, 0f40000000, %p2", 0, 0, 0, 'x', 0x40000000, 0, 0 },
	{ "slct.b32.s32 %x3, %x0, %x1, %x2", 10, 20, 0xffffffff, 'x', 20, 0, 0 },
	{ "slct.b32.s32 %x3, %x0, %x1, %x2", 10, 20, 0, 'x', 10, 0, 0 },
	/* slct with f32 c: -0 >= 0 selects a; NaN selects b. */
	{ "slct.b32.f32 %x3, %x0, %x1, %x2", 10, 20, 0x80000000, 'x', 10, 0, 0 },
	{ "slct.b32.f32 %x3, %x0, %x1, %x2", 10, 20, 0x7fc00000, 'x', 20, 0, 0 },
	/* Integer setp: signed lt, unsigned lo/hi, lt on .u. */
	{ "setp.lt.s32 %p3, %x0, %x1", 0xffffffff, 0, 0, 'p', 1, 0, 0 },
	{ "setp.lt.u32 %p3, %x0, %x1", 0xffffffff, 0, 0, 'p', 0, 0, 0 },
	{ "setp.lo.u32 %p3, %x0, %x1", 0xffffffff, 0, 0, 'p', 0, 0, 0 },
	{ "setp.hi.u32 %p3, %x0, %x1", 0xffffffff, 0, 0, 'p', 1, 0, 0 },
	{ "setp.ge.s64 %p3, %y0, %y1", 5, 5, 0, 'p', 1, 0, 0 },
	{ "setp.ne.b16 %p3, %h0, %h1", 0x10001, 1, 0, 'p', 0, 0, 0 },
	/* mov: immediates, bit moves, packing (element 0 in the low bits). */
	{ "mov.u32 %x3, -1", 0, 0, 0, 'x', 0xffffffff, 0, 0 },
	{ "mov.b64 %y3, 0x123456789", 0, 0, 0, 'y', 0x123456789, 0, 0 },
	{ "mov.f32 %x3, 0f3F800000", 0, 0, 0, 'x', 0x3f800000, 0, 0 },
	{ "mov.f64 %y3, 0d3FF0000000000000", 0, 0, 0, 'y', 0x3ff0000000000000, 0, 0 },
	{ "mov.b64 %y3, {%x0, %x1}", 0x11111111, 0x22222222, 0, 'y', 0x2222222211111111, 0, 0 },
	{ "mov.b64 {%x3, %x4}, %y0", 0x2222222211111111, 0, 0, 'x', 0x11111111, 0, 0 },
	{ "mov.b32 {%h4, %h3}, %x0", 0xbbbbaaaa, 0, 0, 'h', 0xbbbb, 0, 0 },
	{ "mov.u32 %x3, %laneid", 0, 0, 0, 'x', 0, 0, 0 },
	/* ld: vectors (element i at address + i * size, little endian); .s8
	 * and .s16 sign-extend to the register's width, .u8 zero-extends
	 * (PTX relaxed type rules for ld destinations). */
	{ "ld.global.v2.b32 {%x3, %x4}, [%a0]", 0x2222222211111111, 0, 0, 'x',
	  0x11111111, 0, 0 },
	{ "ld.global.v2.b32 {%x4, %x3}, [%a0+8]", 0, 0x2222222211111111, 0, 'x',
	  0x22222222, 0, 0 },
	{ "ld.global.s8 %x3, [%a0]", 0x80, 0, 0, 'x', 0xffffff80, 0, 0 },
	{ "ld.global.u8 %x3, [%a0]", 0x80, 0, 0, 'x', 0x80, 0, 0 },
	{ "ld.global.s16 %y3, [%a0+8]", 0, 0x8000, 0, 'y', 0xffffffffffff8000, 0, 0 },
	{ "mov.u32 %x3, %ntid.x", 0, 0, 0, 'x', 1, 0, 0 },
};

/* cvt: float -> int rounds to an integral value with the modifier, clamps
 * to the destination's range, NaN -> 0; int -> float and narrowing float
 * conversions round once with the modifier (IEEE). */
static const struct ptx_case int_cvt[] = {
	/* 2.5 (0x40200000) to even 2, 3.5 (0x40600000) to 4, -2.5 to -2. */
	{ "cvt.rni.s32.f32 %x3, %x0", 0x40200000, 0, 0, 'x', 2, 0, 0 },
	{ "cvt.rni.s32.f32 %x3, %x0", 0x40600000, 0, 0, 'x', 4, 0, 0 },
	{ "cvt.rni.s32.f32 %x3, %x0", 0xc0200000, 0, 0, 'x', (uint32_t)-2, 0, 0 },
	{ "cvt.rzi.s32.f32 %x3, %x0", 0xc02ccccd, 0, 0, 'x', (uint32_t)-2, 0, 0 },  /* -2.7 */
	{ "cvt.rmi.s32.f32 %x3, %x0", 0xc0200000, 0, 0, 'x', (uint32_t)-3, 0, 0 },
	{ "cvt.rpi.s32.f32 %x3, %x0", 0x40066666, 0, 0, 'x', 3, 0, 0 },            /* 2.1 */
	/* Saturation: 3e9 (0x4f32d05e) > 2^31 - 1; -3e9; -1 -> u32 0; NaN 0. */
	{ "cvt.rzi.s32.f32 %x3, %x0", 0x4f32d05e, 0, 0, 'x', 0x7fffffff, 0, 0 },
	{ "cvt.rzi.s32.f32 %x3, %x0", 0xcf32d05e, 0, 0, 'x', 0x80000000, 0, 0 },
	{ "cvt.rzi.u32.f32 %x3, %x0", 0xbf800000, 0, 0, 'x', 0, 0, 0 },
	{ "cvt.rzi.s32.f32 %x3, %x0", 0x7fc00000, 0, 0, 'x', 0, 0, 0 },
	{ "cvt.rzi.s32.f32 %x3, %x0", 0x7f800000, 0, 0, 'x', 0x7fffffff, 0, 0 },
	{ "cvt.rzi.u32.f32 %x3, %x0", 0x7f800000, 0, 0, 'x', 0xffffffff, 0, 0 },
	{ "cvt.rzi.s64.f64 %y3, %y0", 0x43e158e460913d00, 0, 0, 'y', 0x7fffffffffffffff, 0, 0 },
	{ "cvt.rzi.u64.f32 %y3, %x0", 0xbf000000, 0, 0, 'y', 0, 0, 0 },           /* -0.5 */
	/* 2^24 + 1 is the midpoint of 2^24 (0x4b800000, even) and 2^24 + 2
	 * (0x4b800001); 2^24 + 3 ties to 2^24 + 4 (0x4b800002, even). */
	{ "cvt.rn.f32.s32 %x3, %x0", 16777217, 0, 0, 'x', 0x4b800000, 0, 0 },
	{ "cvt.rp.f32.s32 %x3, %x0", 16777217, 0, 0, 'x', 0x4b800001, 0, 0 },
	{ "cvt.rn.f32.s32 %x3, %x0", 16777219, 0, 0, 'x', 0x4b800002, 0, 0 },
	/* 2^64 - 1: RN -> 2^64 (0x5f800000), RZ -> 0x5f7fffff. */
	{ "cvt.rn.f32.u64 %x3, %y0", ~0ull, 0, 0, 'x', 0x5f800000, 0, 0 },
	{ "cvt.rz.f32.u64 %x3, %y0", ~0ull, 0, 0, 'x', 0x5f7fffff, 0, 0 },
	{ "cvt.rn.f32.s64 %x3, %y0", ~0ull, 0, 0, 'x', 0xbf800000, 0, 0 },
	{ "cvt.rn.f64.s64 %y3, %y0", ~0ull, 0, 0, 'y', 0xbff0000000000000, 0, 0 },
	/* f64 1/3 (0x3fd5555555555555) -> f32: RN 0x3eaaaaab, RZ 0x3eaaaaaa. */
	{ "cvt.rn.f32.f64 %x3, %y0", 0x3fd5555555555555, 0, 0, 'x', 0x3eaaaaab, 0, 0 },
	{ "cvt.rz.f32.f64 %x3, %y0", 0x3fd5555555555555, 0, 0, 'x', 0x3eaaaaaa, 0, 0 },
	/* 1e300 overflows: RN inf, RZ the largest finite. */
	{ "cvt.rn.f32.f64 %x3, %y0", 0x7e37e43c8800759c, 0, 0, 'x', 0x7f800000, 0, 0 },
	{ "cvt.rz.f32.f64 %x3, %y0", 0x7e37e43c8800759c, 0, 0, 'x', 0x7f7fffff, 0, 0 },
	/* 2^-150 is half of the least subnormal: RN ties to 0, RP gives it. */
	{ "cvt.rn.f32.f64 %x3, %y0", 0x3690000000000000, 0, 0, 'x', 0, 0, 0 },
	{ "cvt.rp.f32.f64 %x3, %y0", 0x3690000000000000, 0, 0, 'x', 1, 0, 0 },
	/* Widening is exact: 0x3eaaaaab -> significand << 29, exponent -2. */
	{ "cvt.f64.f32 %y3, %x0", 0x3eaaaaab, 0, 0, 'y', 0x3fd5555560000000, 0, 0 },
	{ "cvt.f64.f32 %y3, %x0", 1, 0, 0, 'y', 0x36a0000000000000, 0, 0 },      /* 2^-149 */
	{ "cvt.ftz.f64.f32 %y3, %x0", 1, 0, 0, 'y', 0, 0, 0 },
	/* Round to integral in float: 2.5 -> 2 (even), -0.5 -> -1 (rmi) or
	 * -0 (rpi, ceil(-0.5) = -0), -0.7 -> -0 (rzi). */
	{ "cvt.rni.f32.f32 %x3, %x0", 0x40200000, 0, 0, 'x', 0x40000000, 0, 0 },
	{ "cvt.rmi.f32.f32 %x3, %x0", 0xbf000000, 0, 0, 'x', 0xbf800000, 0, 0 },
	{ "cvt.rpi.f32.f32 %x3, %x0", 0xbf000000, 0, 0, 'x', 0x80000000, 0, 0 },
	{ "cvt.rzi.f32.f32 %x3, %x0", 0xbf333333, 0, 0, 'x', 0x80000000, 0, 0 },
	/* .sat: [0, 1], NaN -> +0. */
	{ "cvt.sat.f32.f32 %x3, %x0", 0x3fc00000, 0, 0, 'x', 0x3f800000, 0, 0 },
	{ "cvt.sat.f32.f32 %x3, %x0", 0xc0000000, 0, 0, 'x', 0, 0, 0 },
	{ "cvt.sat.f32.f32 %x3, %x0", 0x7fc00000, 0, 0, 'x', 0, 0, 0 },
	{ "cvt.sat.f32.f32 %x3, %x0", 0x3f000000, 0, 0, 'x', 0x3f000000, 0, 0 },
	/* Integer widths: zero/sign extension by the source, truncation,
	 * .sat clamping; a narrow signed result is sign-extended into a wider
	 * register (PTX relaxed type rules). */
	{ "cvt.u64.u32 %y3, %x0", 0xffffffff, 0, 0, 'y', 0xffffffff, 0, 0 },
	{ "cvt.s64.s32 %y3, %x0", 0xffffffff, 0, 0, 'y', ~0ull, 0, 0 },
	{ "cvt.u32.u64 %x3, %y0", 0x123456789, 0, 0, 'x', 0x23456789, 0, 0 },
	{ "cvt.sat.u8.s32 %x3, %x0", 300, 0, 0, 'x', 0xff, 0, 0 },
	{ "cvt.sat.u8.s32 %x3, %x0", (uint32_t)-5, 0, 0, 'x', 0, 0, 0 },
	{ "cvt.sat.s8.s32 %x3, %x0", (uint32_t)-300, 0, 0, 'x', 0xffffff80, 0, 0 },
	{ "cvt.s8.s32 %x3, %x0", 0x180, 0, 0, 'x', 0xffffff80, 0, 0 },
	{ "cvt.s32.s8 %x3, %x0", 0x80, 0, 0, 'x', 0xffffff80, 0, 0 },
	{ "cvt.sat.s32.u32 %x3, %x0", 0x80000000, 0, 0, 'x', 0x7fffffff, 0, 0 },
	/* f16: 1/3 (f32 0x3eaaaaab) -> 0x3555 (fraction 0101010101|0101.. rounds
	 * down).  65520 (0x477ff000) is the midpoint of 65504 (0x7bff, odd) and
	 * 2^16 (even, overflow): RN gives inf; 65519 gives 65504; RZ never
	 * overflows.  f64 1 + 2^-11 + 2^-40 is just above the midpoint of 1 and
	 * 1 + 2^-10: RN gives 0x3c01, where rounding to f32 first (1 + 2^-11)
	 * and then to f16 (a tie, to even 1.0) would give 0x3c00. */
	{ "cvt.rn.f16.f32 %h3, %x0", 0x3eaaaaab, 0, 0, 'h', 0x3555, 0, 0 },
	{ "cvt.rn.f16.f32 %h3, %x0", 0x477ff000, 0, 0, 'h', 0x7c00, 0, 0 },
	{ "cvt.rn.f16.f32 %h3, %x0", 0x477fef00, 0, 0, 'h', 0x7bff, 0, 0 },
	{ "cvt.rz.f16.f32 %h3, %x0", 0x49742400, 0, 0, 'h', 0x7bff, 0, 0 },         /* 1e6 */
	{ "cvt.rn.f16.f64 %h3, %y0", 0x3ff0020000001000, 0, 0, 'h', 0x3c01, 0, 0 },
	{ "cvt.f32.f16 %x3, %h0", 0x3555, 0, 0, 'x', 0x3eaaa000, 0, 0 },
	{ "cvt.f32.f16 %x3, %h0", 0x0001, 0, 0, 'x', 0x33800000, 0, 0 },          /* 2^-24 */
	/* bf16 (8-bit significand): 1 + 2^-8 ties to even 1.0 (0x3f80);
	 * 1 + 2^-7 + 2^-8 ties to 0x3f82; 0x3f808001 is above the tie. */
	{ "cvt.rn.bf16.f32 %h3, %x0", 0x3f808000, 0, 0, 'h', 0x3f80, 0, 0 },
	{ "cvt.rn.bf16.f32 %h3, %x0", 0x3f818000, 0, 0, 'h', 0x3f82, 0, 0 },
	{ "cvt.rn.bf16.f32 %h3, %x0", 0x3f808001, 0, 0, 'h', 0x3f81, 0, 0 },
	{ "cvt.f32.bf16 %x3, %h0", 0x3f81, 0, 0, 'x', 0x3f810000, 0, 0 },
	/* ASSUMPTION: the f16 NaN is 0x7fff. */
	{ "cvt.rn.f16.f32 %h3, %x0", 0x7fc00000, 0, 0, 'h', 0x7fff, 0, 0 },
	/* Packed (PTX ISA cvt: "the converted value of a is stored in the
	 * upper half of d and that of b in the lower half"; cuda_fp16.hpp's
	 * __floats2half2_rn(a, b) writes cvt.rn.f16x2.f32 %0, b, a for .x = a
	 * low).  Each half as the scalar cases above: 1.0 -> 0x3f80, and the
	 * bf16 ties 1 + 2^-8 -> 0x3f80, 1 + 2^-7 + 2^-8 -> 0x3f82; .rz drops
	 * 0x3f81ffff's low bits; f16: 1.0 -> 0x3c00, 65520 -> inf. */
	{ "cvt.rn.bf16x2.f32 %x3, %x0, %x1", 0x3f800000, 0x3f808000, 0, 'x', 0x3f803f80, 0, 0 },
	{ "cvt.rn.bf16x2.f32 %x3, %x0, %x1", 0x3f818000, 0x3f800000, 0, 'x', 0x3f823f80, 0, 0 },
	{ "cvt.rz.bf16x2.f32 %x3, %x0, %x1", 0x3f81ffff, 0xbf81ffff, 0, 'x', 0x3f81bf81, 0, 0 },
	{ "cvt.rn.f16x2.f32 %x3, %x0, %x1", 0x3f800000, 0x477ff000, 0, 'x', 0x3c007c00, 0, 0 },
	{ "cvt.rn.f16x2.f32 %x3, %x0, %x1", 0x477fef00, 0x3eaaaaab, 0, 'x', 0x7bff3555, 0, 0 },
	/* ASSUMPTION, as for the scalar cvt: a NaN half is 0x7fff. */
	{ "cvt.rn.bf16x2.f32 %x3, %x0, %x1", 0x7fc00000, 0x3f800000, 0, 'x', 0x7fff3f80, 0, 0 },
};

#define TABLE_TEST(name)                                                 \
	START_TEST(test_##name) { ptx_check_case(&name[_i]); }           \
	END_TEST
TABLE_TEST(int_arith)
TABLE_TEST(int_logic)
TABLE_TEST(int_cvt)

#define ADD_TABLE(tc, name) \
	tcase_add_loop_test(tc, test_##name, 0, (int)(sizeof name / sizeof *name))

TCase *ptx_int_tcase(void)
{
	TCase *tc = tcase_create("int");
	ADD_TABLE(tc, int_arith);
	ADD_TABLE(tc, int_logic);
	ADD_TABLE(tc, int_cvt);
	return tc;
}

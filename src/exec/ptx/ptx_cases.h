/* ptx_cases.h — what every instruction that only reads and writes
 * registers does, written once for both executors: the thread-by-thread
 * one (ptx_exec.c) and the lane-batched one (ptx_batch.c).
 *
 * PTX_REG_CASES(X) lists X(OP, statements...).  The statements name the
 * operands through macros the including file defines before expanding
 * the list:
 *   REG(s)   the register (slot) s of the running thread (an lvalue)
 *   in       the instruction (const struct ptx_insn *)
 * and count into the including function's locals `unmarked`, `fused`
 * (uint64_t) and `amask` (approximate kinds run).  From REG come
 *   A B C3 D  the slots of src[0], src[1], src[2] and dst,
 *   M         the mask of the operand width,  SG  signed (.s type).
 * Memory (ld/st), control flow (bra, call, ret, exit) are not here: each
 * executor does them itself. */
#ifndef UB_PTX_CASES_H
#define UB_PTX_CASES_H

#include "ptx_cvt.h"   /* cvt.f32.f32, inline */
#include "ptx_dir.h"   /* the f32 directed roundings, inline */
#include "ptx_mufu.h"  /* the measured models of approximate ops */

#define A REG(in->src[0])
#define B REG(in->src[1])
#define C3 REG(in->src[2])
#define D REG(in->dst)
#define M ptx_mask(in->bits)
#define SG ((in->flags & PTX_F_SIGNED) != 0)

/* An f32 source operand, flushed with .ftz. */
static inline float ptx_in32(const struct ptx_insn *in, uint64_t v)
{
	float x = ptx_f32(v);
	return (in->flags & PTX_F_FTZ) ? ptx_ftz32(x) : x;
}

/* setp: p = t BOOL c, q = !t BOOL c (c: the combining predicate). */
static inline void ptx_setp_out(uint64_t *p, uint64_t *q, uint64_t c3,
				const struct ptx_insn *in, int t)
{
	int c = (int)((c3 & 1) ^ ((in->flags & PTX_F_NEGC) != 0));
	int pp = t, qq = !t;
	switch (in->aux) {
	case PTX_BOOL_AND: pp &= c, qq &= c; break;
	case PTX_BOOL_OR: pp |= c, qq |= c; break;
	case PTX_BOOL_XOR: pp ^= c, qq ^= c; break;
	}
	*p = (uint64_t)pp;
	*q = (uint64_t)qq;
}
#define SETP(t) ptx_setp_out(&D, &REG(in->src[3]), C3, in, (t))

/* A narrow signed cvt result, sign-extended to its register's width. */
static inline uint64_t ptx_cvt_ext(const struct ptx_insn *in, uint64_t r)
{
	if (in->flags & PTX_F_SEXT)
		return (uint64_t)ptx_sext(r, in->bits) & ptx_mask(in->rbits);
	return r;
}

/* testp: finite, infinite, number, notanumber, normal, subnormal.  The
 * ISA counts +-0 as normal ("as a special case, positive and negative zero
 * are considered normal numbers"). */
static inline int ptx_testp(double x, int is_sub, int op)
{
	switch (op) {
	case PTX_TP_FINITE: return isfinite(x);
	case PTX_TP_INFINITE: return isinf(x);
	case PTX_TP_NUMBER: return x == x;
	case PTX_TP_NOTANUMBER: return x != x;
	case PTX_TP_NORMAL: return isfinite(x) && !is_sub;
	default: return is_sub;
	}
}

static inline int ptx_approx_kind(int op)
{
	switch (op) {
	case PTX_EX2_APPROX_H: return PTX_AX_EX2_APPROX;
	case PTX_DIV_APPROX_F32: return PTX_AX_DIV_APPROX;
	case PTX_DIV_FULL_F32: return PTX_AX_DIV_FULL;
	case PTX_RCP_APPROX_F32: case PTX_RCP_APPROX_F64: return PTX_AX_RCP_APPROX;
	case PTX_SQRT_APPROX_F32: return PTX_AX_SQRT_APPROX;
	case PTX_RSQRT_APPROX_F32: case PTX_RSQRT_APPROX_F64: return PTX_AX_RSQRT_APPROX;
	case PTX_EX2_APPROX_F32: return PTX_AX_EX2_APPROX;
	case PTX_LG2_APPROX_F32: return PTX_AX_LG2_APPROX;
	case PTX_SIN_APPROX_F32: return PTX_AX_SIN_APPROX;
	case PTX_COS_APPROX_F32: return PTX_AX_COS_APPROX;
	default: return PTX_AX_TANH_APPROX;
	}
}

/* .ftz on a product, quotient, reciprocal or fma: the GPU flushes a result
 * whose value rounded to 24 bits with an unbounded exponent (IEEE 754's
 * tininess after rounding) is below 2^-126, while the result on the
 * subnormal grid may round up to 2^-126 itself: seen on sm_90, mul.ftz.f32
 * of 0x3f7fffff and 2^-126 (exactly 2^-126 (1 - 2^-24)) gives +0, and
 * div.rp.ftz.f32 of 2^-126 by 1 + 2^-23 too, but fma.rn.ftz.f32 giving
 * 2^-126 - 2^-252 keeps 2^-126 (kernels/ptx-insns.txt, docs/gpu-results.md).
 * Only a result r of magnitude 2^-126 can differ; the operation is then
 * redone with its smaller operand (and fma's c) scaled by 2^64, exactly,
 * where 24 bits are the format's own: tiny when below 2^-62. */
static inline float ptx_ftz_tiny32(int fop, int rnd, float r, float a, float b, float c)
{
	if (fabsf(r) != 0x1p-126f || !(fop == PTX_FOP_MUL || fop == PTX_FOP_DIV ||
				      fop == PTX_FOP_RCP || fop == PTX_FOP_FMA))
		return r;
	float t;
	if (fop == PTX_FOP_RCP)
		t = ptx_f32_rnd(PTX_FOP_DIV, rnd, 0x1p64f, a, 0.0f);
	else if (fop == PTX_FOP_DIV)
		t = ptx_f32_rnd(PTX_FOP_DIV, rnd, a * 0x1p64f, b, 0.0f);
	else if (fabsf(a) <= fabsf(b))
		t = ptx_f32_rnd(fop, rnd, a * 0x1p64f, b, c * 0x1p64f);
	else
		t = ptx_f32_rnd(fop, rnd, a, b * 0x1p64f, c * 0x1p64f);
	return fabsf(t) < 0x1p-62f ? copysignf(0.0f, r) : r;
}

/* f32/f64 arithmetic: `e` at round-to-nearest, else in mode in->rnd. */
#define F32_OP(fop, e, c3e)                                             \
	float a = ptx_in32(in, A), b = ptx_in32(in, B), c3 = (c3e);     \
	float r = in->rnd == PTX_RND_RN ? (e) :                         \
		  ptx_f32_rnd(fop, in->rnd, a, b, c3);                  \
	if (in->flags & PTX_F_FTZ)                                      \
		r = ptx_ftz_tiny32(fop, in->rnd, r, a, b, c3);          \
	(void)c3;                                                       \
	unmarked += (in->flags & PTX_F_UNMARKED) != 0;                  \
	D = ptx_res32(r, in->flags);
/* f64: a NaN result keeps a NaN operand's payload (ptx_nan64, for div
 * ptx_nan64_div). */
#define F64_OP(fop, e, c3e)                                             \
	double a = ptx_f64(A), b = ptx_f64(B), c3 = (c3e);              \
	double r = in->rnd == PTX_RND_RN ? (e) :                        \
		   ptx_f64_rnd(fop, in->rnd, a, b, c3);                 \
	(void)c3;                                                       \
	unmarked += (in->flags & PTX_F_UNMARKED) != 0;                  \
	D = r == r ? ptx_res64(r, in->flags) :                          \
	    fop == PTX_FOP_DIV ? ptx_nan64_div(A, B) :                  \
	    ptx_nan64(A, B, fop == PTX_FOP_FMA ? C3 : 0, fop == PTX_FOP_FMA ? 3 : \
		      fop == PTX_FOP_RCP || fop == PTX_FOP_SQRT ? 1 : 2);
/* An approximate instruction: the measured model where the decoder chose
 * it (in->cmp, see ptx_insn.c), counted in the measured kinds' bits (32
 * up: the row stays exact); else the documented-error model, flagged. */
#define APPROX32                                                        \
	if (in->cmp) {                                                  \
		D = !(in->flags & PTX_F_FTZ)                            \
		    ? ub_mufu_eval(ptx_mufu_fn(in->op), (uint32_t)A, (uint32_t)B, 0, 0) \
		    : in->op == PTX_DIV_APPROX_F32                      \
		    ? ub_mufu_div_approx_ftz((uint32_t)A, (uint32_t)B)  \
		    : in->op == PTX_RCP_APPROX_F32                      \
		    ? ub_mufu_rcp_approx_ftz((uint32_t)A)               \
		    : in->op == PTX_EX2_APPROX_F32                      \
		    ? ub_mufu_ex2_approx_ftz((uint32_t)A)               \
		    : ub_mufu_eval(ptx_mufu_fn(in->op), (uint32_t)A, (uint32_t)B, 1, 0); \
		amask |= 1ull << (PTX_AX_MEASURED + ptx_approx_kind(in->op)); \
	} else {                                                        \
		APPROX32_MODEL                                          \
	}
#define APPROX32_MODEL                                                  \
	D = ptx_res32(in->op == PTX_DIV_APPROX_F32 ||                   \
		      in->op == PTX_DIV_FULL_F32 ||                     \
		      in->op == PTX_RCP_APPROX_F32                      \
		      ? ptx_f32_quot(in->op, ptx_f32(A), ptx_f32(B),    \
				     (in->flags & PTX_F_FTZ) != 0)      \
		      : in->op == PTX_EX2_APPROX_F32                    \
		      ? ptx_f32_ex2(ptx_f32(A), (in->flags & PTX_F_FTZ) != 0) \
		      : ptx_f32_approx(in->op, ptx_f32(A), ptx_f32(B),  \
				       (in->flags & PTX_F_FTZ) != 0), 0); \
	amask |= 1ull << ptx_approx_kind(in->op);
#define APPROX64                                                        \
	D = ptx_res64(ptx_f64_approx(in->op, ptx_f64(A),                \
				     (in->flags & PTX_F_FTZ) != 0), 0); \
	amask |= 1ull << ptx_approx_kind(in->op);
#define HALF_UNMARKED                                                   \
	unmarked += (in->flags & PTX_F_UNMARKED) != 0;                  \
	D = ptx_half_op(in, A, B, C3);
/* mov d, {a0, a1, ..} / mov {d0, d1, ..}, a: element i in bits i*w.. */
#define PACK                                                            \
	uint64_t v = 0;                                                 \
	unsigned w = in->bits / in->aux;                                \
	for (int i = 0; i < in->aux; i++)                               \
		v |= (REG(in->src[i]) & ptx_mask(w)) << (i * w);        \
	D = v;
#define UNPACK                                                          \
	unsigned w = in->bits / in->aux;                                \
	uint64_t v = A;                                                 \
	for (int i = 0; i < in->aux; i++)                               \
		REG(i ? in->src[i] : in->dst) = (v >> (i * w)) & ptx_mask(w);

#define PTX_REG_CASES(X)                                                \
	X(ADD_I, D = (A + B) & M;)                                      \
	X(SUB_I, D = (A - B) & M;)                                      \
	X(MUL_LO, D = (A * B) & M;)                                     \
	X(MUL_HI, D = ptx_mulhi(A, B, in->bits, SG);)                   \
	X(MUL_WIDE, D = ptx_mulwide(A, B, in->bits, SG);)               \
	X(MAD_LO, D = (A * B + C3) & M;)                                \
	X(MAD_HI, D = (ptx_mulhi(A, B, in->bits, SG) + C3) & M;)        \
	X(MAD_WIDE, D = (ptx_mulwide(A, B, in->bits, SG) + C3) &        \
		    ptx_mask(2 * in->bits);)                            \
	X(ADDC, D = ptx_carry_op(in, A, B, C3, &REG(PTX_SLOT_CC));)     \
	X(SUBC, D = ptx_carry_op(in, A, B, C3, &REG(PTX_SLOT_CC));)     \
	X(MADC_LO, D = ptx_carry_op(in, A, B, C3, &REG(PTX_SLOT_CC));)  \
	X(MADC_HI, D = ptx_carry_op(in, A, B, C3, &REG(PTX_SLOT_CC));)  \
	X(DIV_I, D = ptx_idiv(A, B, in->bits, SG);)                     \
	X(REM_I, D = ptx_irem(A, B, in->bits, SG);)                     \
	X(ABS_I, D = ptx_sext(A, in->bits) < 0 ? (0 - A) & M : A & M;)  \
	X(NEG_I, D = (0 - A) & M;)                                      \
	X(MIN_I, D = (ptx_ilt(A, B, in->bits, SG) ? A : B) & M;)        \
	X(MAX_I, D = (ptx_ilt(A, B, in->bits, SG) ? B : A) & M;)        \
	X(POPC, D = (uint64_t)__builtin_popcountll(A & M);)             \
	X(CLZ, D = (A & M) ? (uint64_t)__builtin_clzll(A & M) -         \
			     (64 - in->bits) : in->bits;)               \
	X(BREV, D = ptx_brev(A, in->bits);)                             \
	X(BFE, D = ptx_bfe(A, B, C3, in->bits, SG);)                    \
	X(BFI, D = ptx_bfi(A, B, C3, REG(in->src[3]), in->bits);)       \
	X(AND, D = A & B & M;)                                          \
	X(OR, D = (A | B) & M;)                                         \
	X(XOR, D = (A ^ B) & M;)                                        \
	X(NOT, D = ~A & M;)                                             \
	X(CNOT, D = (A & M) == 0;)                                      \
	X(SHL, D = (B & 0xffffffffu) >= in->bits ? 0 : (A << (B & 63)) & M;) \
	X(SHR, D = ptx_shr(A, B, in->bits, SG);)                        \
	X(SHF_L, D = ptx_shf(A, B, C3, 0, (in->flags & PTX_F_CLAMP) != 0);) \
	X(SHF_R, D = ptx_shf(A, B, C3, 1, (in->flags & PTX_F_CLAMP) != 0);) \
	X(SETP_I, SETP(ptx_icmp(A, B, in->bits, SG, in->cmp));)         \
	X(SETP_F32, SETP(ptx_fcmp(ptx_in32(in, A), ptx_in32(in, B), in->cmp));) \
	X(SETP_F64, SETP(ptx_fcmp(ptx_f64(A), ptx_f64(B), in->cmp));)   \
	X(SET, D = ptx_set(in, A, B);)                                  \
	X(SELP, D = (C3 & 1) ? A : B;)                                  \
	X(SLCT, D = ((in->flags & PTX_F_SRC_F32) ? ptx_in32(in, C3) >= 0.0f \
			: ptx_sext(C3, 32) >= 0) ? A : B;)              \
	X(ADD_F32, F32_OP(PTX_FOP_ADD, a + b, 0.0f))                    \
	X(ADD_F64, F64_OP(PTX_FOP_ADD, a + b, 0.0))                     \
	X(SUB_F32, F32_OP(PTX_FOP_SUB, a - b, 0.0f))                    \
	X(SUB_F64, F64_OP(PTX_FOP_SUB, a - b, 0.0))                     \
	X(MUL_F32, F32_OP(PTX_FOP_MUL, a * b, 0.0f))                    \
	X(MUL_F64, F64_OP(PTX_FOP_MUL, a * b, 0.0))                     \
	X(FMA_F32, F32_OP(PTX_FOP_FMA, fmaf(a, b, c3), ptx_in32(in, C3))) \
	X(FMA_F64, F64_OP(PTX_FOP_FMA, fma(a, b, c3), ptx_f64(C3)))     \
	X(DIV_F32, F32_OP(PTX_FOP_DIV, a / b, 0.0f))                    \
	X(DIV_F64, F64_OP(PTX_FOP_DIV, a / b, 0.0))                     \
	X(RCP_F32, F32_OP(PTX_FOP_RCP, 1.0f / a, 0.0f))                 \
	X(RCP_F64, F64_OP(PTX_FOP_RCP, 1.0 / a, 0.0))                   \
	X(SQRT_F32, F32_OP(PTX_FOP_SQRT, sqrtf(a), 0.0f))               \
	X(SQRT_F64, F64_OP(PTX_FOP_SQRT, sqrt(a), 0.0))                 \
	X(DIV_APPROX_F32, APPROX32)                                     \
	X(DIV_FULL_F32, APPROX32)                                       \
	X(RCP_APPROX_F32, APPROX32)                                     \
	X(SQRT_APPROX_F32, APPROX32)                                    \
	X(RSQRT_APPROX_F32, APPROX32)                                   \
	X(EX2_APPROX_F32, APPROX32)                                     \
	X(LG2_APPROX_F32, APPROX32)                                     \
	X(SIN_APPROX_F32, APPROX32)                                     \
	X(COS_APPROX_F32, APPROX32)                                     \
	X(TANH_APPROX_F32, APPROX32)                                    \
	X(RCP_APPROX_F64, APPROX64)                                     \
	X(RSQRT_APPROX_F64, APPROX64)                                   \
	X(NEG_F32, D = ptx_res32(-ptx_in32(in, A), 0);)                 \
	X(NEG_F64, D = ptx_f64(A) != ptx_f64(A) ? ptx_nan64(A, 0, 0, 1) : \
			A ^ (1ull << 63);)                              \
	X(ABS_F32, D = ptx_res32(fabsf(ptx_in32(in, A)), 0);)           \
	X(ABS_F64, D = ptx_f64(A) != ptx_f64(A) ? ptx_nan64(A, 0, 0, 1) : \
			A & ~(1ull << 63);)                             \
	X(MIN_F32, D = ptx_minmax32(ptx_in32(in, A), ptx_in32(in, B), 0, in->flags);) \
	X(MIN_F64, D = ptx_minmax64(ptx_f64(A), ptx_f64(B), 0, in->flags);) \
	X(MAX_F32, D = ptx_minmax32(ptx_in32(in, A), ptx_in32(in, B), 1, in->flags);) \
	X(MAX_F64, D = ptx_minmax64(ptx_f64(A), ptx_f64(B), 1, in->flags);) \
	X(COPYSIGN_F32, D = (B & 0x7fffffffu) | (A & 0x80000000u);)     \
	X(COPYSIGN_F64, D = (B & ~(1ull << 63)) | (A & (1ull << 63));)  \
	X(TESTP_F32, D = (uint64_t)ptx_testp(ptx_f32(A),                \
		fabsf(ptx_f32(A)) < 0x1p-126f && ptx_f32(A) != 0.0f, in->cmp);) \
	X(TESTP_F64, D = (uint64_t)ptx_testp(ptx_f64(A),                \
		fabs(ptx_f64(A)) < 0x1p-1022 && ptx_f64(A) != 0.0, in->cmp);) \
	X(ADD_H, HALF_UNMARKED)                                         \
	X(SUB_H, HALF_UNMARKED)                                         \
	X(MUL_H, HALF_UNMARKED)                                         \
	X(FMA_H, D = ptx_half_op(in, A, B, C3);)                        \
	X(NEG_H, D = ptx_half_op(in, A, B, C3);)                        \
	X(ABS_H, D = ptx_half_op(in, A, B, C3);)                        \
	X(MIN_H, D = ptx_half_op(in, A, B, C3);)                        \
	X(MAX_H, D = ptx_half_op(in, A, B, C3);)                        \
	X(EX2_APPROX_H, D = ptx_half_approx(in, A, UB_MF_EX2_H);         \
	  amask |= 1ull << ((in->cmp ? PTX_AX_MEASURED : 0) + PTX_AX_EX2_APPROX);) \
	X(TANH_APPROX_H, D = ptx_half_approx(in, A, UB_MF_TANH_H);       \
	  amask |= 1ull << ((in->cmp ? PTX_AX_MEASURED : 0) + PTX_AX_TANH_APPROX);) \
	X(SETP_H, SETP(ptx_fcmp(ptx_half_value(in, A), ptx_half_value(in, B), \
				in->cmp));)                             \
	X(MOV, D = A & M;)                                              \
	X(MOV_PACK, PACK)                                               \
	X(MOV_UNPACK, UNPACK)                                           \
	X(CVT_II, D = ptx_cvt_ext(in, (in->flags & PTX_F_SAT) ? ptx_cvt(in, A) : \
			(SG ? (uint64_t)ptx_sext(A, in->sbits)          \
			    : A & ptx_mask(in->sbits)) & M);)           \
	X(CVT_IF, D = ptx_cvt_ext(in, ptx_cvt(in, A));)                 \
	X(CVT_FI, D = ptx_cvt(in, A);)                                  \
	X(CVT_FF, uint64_t r_;                                          \
	  D = ptx_cvt_f32_f32(in, A, &r_) ? r_ : ptx_cvt(in, A);)       \
	X(CVT_X2, D = ptx_cvt_x2(in, A, B);)                            \
	X(CREATEPOLICY, D = 0;)                                         \
	X(HOLD, REG(in->src[2]) = A; REG(in->src[3]) = B;)              \
	X(FUSED, D = ptx_fused(in, A, B, C3); fused++;                  \
		 if (in->flags & PTX_F_GUESS)                           \
			 amask |= 1ull << PTX_AX_FMA_CHOICE;)           \
	X(PRMT, D = ptx_prmt((uint32_t)A, (uint32_t)B, (uint32_t)C3, in->cmp);) \
	X(LOP3, D = ptx_lop3((uint32_t)A, (uint32_t)B, (uint32_t)C3, in->aux);) \
	X(LOP3_P, D = in->cmp == 1 ? ((A & M) != 0) | (B & 1)             \
				  : ((A & M) != 0) & (B & 1);)          \
	X(LANEMASK, D = ptx_lanemask((unsigned)A & 31, in->cmp);)       \
	X(NANOSLEEP, (void)A;)

#endif

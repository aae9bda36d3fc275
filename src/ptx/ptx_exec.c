/* ptx_exec.c — runs one thread through a decoded function (ptx_run.c
 * sets the launch up and walks the grid).
 *
 * The hot loop reads compact instructions (ptx_internal.h) and a uint64_t
 * register file; it never sees a string.  Dispatch goes through the macros
 * vmdispatch/vmcase/vmbreak (as in Lua's lvm.c) so that a computed-goto
 * variant can replace the switch without touching the cases.  Each case is
 * a few lines calling exact helpers (ptx_num.h, ptx_int.h) or, for
 * directed rounding, approximate instructions and conversions, functions
 * of ptx_float.c, ptx_cvt.c, ptx_half.c and ptx_set.c.
 *
 * Memory: global addresses are host addresses; every ld/st.global is
 * checked against the launch's buffers (st: writable ones) and the
 * module's .global/.const arrays (read-only); .local is the running
 * function's local buffer; .param its parameter buffer (a kernel's
 * arguments, a .func's arguments and return value) or a call site's
 * .param variable (declared in the caller's body, kept in its local
 * buffer).  A bad access stops the run with a message naming the
 * instruction and its line, and so does a thread that runs more than the
 * instruction budget.  `call` runs the .func in its own frame (do_call). */
#include "ptx_exec.h"
#include "ptx_trace.h"

#include <stdlib.h>

#define vmdispatch(o) switch (o)
#define vmcase(l) case PTX_##l:
#define vmbreak break

#define ctx ptx_ctx

static inline int fits(uint64_t lo, uint64_t size, uint64_t a, uint64_t n)
{
	return size >= n && a - lo <= size - n;
}

static inline int in_local(const struct ptx_frame *fr, uint64_t a, uint64_t n)
{
	return fits((uint64_t)(uintptr_t)fr->local, fr->f->local_size, a, n);
}

/* Is [a, a+n) inside a region the instruction `op` may touch?  .param:
 * the frame's parameter buffer, or a call site's .param variable in its
 * local buffer. */
static inline int mem_ok(const struct ctx *c, int op, uint64_t a, uint64_t n)
{
	int st = op == PTX_ST_GLOBAL || op == PTX_ST_GENERIC;
	if (op == PTX_LD_PARAM || op == PTX_ST_PARAM)
		return in_local(c->fr, a, n) ||
		       fits((uint64_t)(uintptr_t)c->fr->param, c->fr->f->param_size, a, n);
	if (op != PTX_LD_GLOBAL && op != PTX_ST_GLOBAL && in_local(c->fr, a, n))
		return 1;
	if (op == PTX_LD_LOCAL || op == PTX_ST_LOCAL)
		return 0;
	for (int i = 0; i < c->nrg; i++)
		if (fits(c->rg[i].lo, c->rg[i].size, a, n) &&
		    (!st || c->rg[i].writable))
			return 1;
	return 0;
}

/* ld (all spaces): dst and src[1..] receive aux elements of bits bits. */
static int do_ld(struct ctx *c, const struct ptx_insn *in)
{
	uint64_t *R = c->fr->R, bytes = in->bits / 8 ? in->bits / 8 : 1;
	uint64_t a = R[in->src[0]] + (uint64_t)in->off, n = bytes * in->aux;
	if (!mem_ok(c, in->op, a, n))
		goto bad;
	const unsigned char *p = (const unsigned char *)(uintptr_t)a;
	for (int i = 0; i < in->aux; i++) {
		uint64_t v = 0;
		memcpy(&v, p + i * bytes, bytes);   /* little-endian host */
		if (in->flags & PTX_F_SEXT)
			v = (uint64_t)ptx_sext(v, in->bits) & ptx_mask(in->rbits);
		R[i ? in->src[i] : in->dst] = v;
	}
	return 0;
bad:
	c->bad_addr = a;
	c->bad_kind = 1;
	return UB_RUNTIME;
}

static int do_st(struct ctx *c, const struct ptx_insn *in)
{
	const uint64_t *R = c->fr->R;
	uint64_t bytes = in->bits / 8 ? in->bits / 8 : 1;
	uint64_t a = R[in->src[0]] + (uint64_t)in->off;
	if (!mem_ok(c, in->op, a, bytes * in->aux)) {
		c->bad_addr = a;
		c->bad_kind = 1;
		return UB_RUNTIME;
	}
	unsigned char *p = (unsigned char *)(uintptr_t)a;
	for (int i = 0; i < in->aux; i++) {
		uint64_t v = R[i ? in->src[i] : in->dst];
		memcpy(p + i * bytes, &v, bytes);
	}
	return 0;
}

/* An f32 source operand, flushed with .ftz. */
static inline float in32(const struct ptx_insn *in, uint64_t v)
{
	float x = ptx_f32(v);
	return (in->flags & PTX_F_FTZ) ? ptx_ftz32(x) : x;
}

static int approx_kind(int op)
{
	switch (op) {
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

/* testp: finite, infinite, number, notanumber, normal, subnormal.  The
 * ISA counts +-0 as normal ("as a special case, positive and negative zero
 * are considered normal numbers"). */
static int testp(double x, int is_sub, int op)
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

/* setp: p = t BOOL c, q = !t BOOL c. */
static inline void setp_out(uint64_t *R, const struct ptx_insn *in, int t)
{
	int c = (int)((R[in->src[2]] & 1) ^ ((in->flags & PTX_F_NEGC) != 0));
	int p = t, q = !t;
	switch (in->aux) {
	case PTX_BOOL_AND: p &= c, q &= c; break;
	case PTX_BOOL_OR: p |= c, q |= c; break;
	case PTX_BOOL_XOR: p ^= c, q ^= c; break;
	}
	R[in->dst] = (uint64_t)p;
	R[in->src[3]] = (uint64_t)q;
}

/* A narrow signed cvt result, sign-extended to its register's width. */
static inline uint64_t cvt_ext(const struct ptx_insn *in, uint64_t r)
{
	if (in->flags & PTX_F_SEXT)
		return (uint64_t)ptx_sext(r, in->bits) & ptx_mask(in->rbits);
	return r;
}

/* mov {d0, d1, ..}, a / mov d, {a0, a1, ..}: element i in bits i*w.. */
static void do_pack(uint64_t *R, const struct ptx_insn *in)
{
	unsigned w = in->bits / in->aux;
	if (in->op == PTX_MOV_PACK) {
		uint64_t v = 0;
		for (int i = 0; i < in->aux; i++)
			v |= (R[in->src[i]] & ptx_mask(w)) << (i * w);
		R[in->dst] = v;
		return;
	}
	uint64_t v = R[in->src[0]];
	for (int i = 0; i < in->aux; i++)
		R[i ? in->src[i] : in->dst] = (v >> (i * w)) & ptx_mask(w);
}

#define A R[in->src[0]]
#define B R[in->src[1]]
#define C R[in->src[2]]
#define D R[in->dst]
#define M ptx_mask(in->bits)
#define SG ((in->flags & PTX_F_SIGNED) != 0)

/* f32/f64 arithmetic: `e` at round-to-nearest, else in mode in->rnd. */
#define F32_OP(fop, e, c3e)                                             \
	{                                                               \
		float a = in32(in, A), b = in32(in, B), c3 = (c3e);     \
		float r = in->rnd == PTX_RND_RN ? (e) :                 \
			  ptx_f32_rnd(fop, in->rnd, a, b, c3);          \
		(void)c3;                                               \
		unmarked += (in->flags & PTX_F_UNMARKED) != 0;          \
		D = ptx_res32(r, in->flags);                            \
		vmbreak;                                                \
	}
#define F64_OP(fop, e, c3e)                                             \
	{                                                               \
		double a = ptx_f64(A), b = ptx_f64(B), c3 = (c3e);      \
		double r = in->rnd == PTX_RND_RN ? (e) :                \
			   ptx_f64_rnd(fop, in->rnd, a, b, c3);         \
		(void)c3;                                               \
		unmarked += (in->flags & PTX_F_UNMARKED) != 0;          \
		D = ptx_res64(r, in->flags);                            \
		vmbreak;                                                \
	}

/* call: a .func runs in its own frame; the caller's call-site .param
 * variables (in its local buffer) give the arguments and take the return
 * value, byte for byte at the callee's .param layout. */
static int do_call(struct ctx *c, const struct ptx_insn *in)
{
	struct ptx_frame *caller = c->fr;
	const struct ptx_call *cs = &caller->f->calls[in->off];
	struct ptx_frame *callee = &c->frames[cs->func];
	const struct ptx_func *g = callee->f;
	if (callee->active) {
		c->bad_kind = 3;
		return UB_RUNTIME;
	}
	memcpy(callee->R + PTX_SLOT_SREG, caller->R + PTX_SLOT_SREG,
	       PTX_NSREGS * sizeof *callee->R);
	for (int k = 0; k <= cs->nargs; k++) {
		int ret = k == cs->nargs;   /* the return value last: checked only */
		if (ret && !cs->has_ret)
			break;
		const struct ptx_param *p = &g->params[ret ? 0 : g->nret + k];
		uint64_t a = caller->R[ret ? cs->ret : cs->args[k]];
		if (!in_local(caller, a, p->size)) {
			c->bad_addr = a;
			c->bad_kind = 1;
			return UB_RUNTIME;
		}
		if (!ret)
			memcpy(callee->param + p->offset, (void *)(uintptr_t)a, p->size);
	}
	callee->active = 1;
	c->fr = callee;
	int rc = ptx_run_frame(c);
	c->fr = caller;
	callee->active = 0;
	if (!rc && cs->has_ret)
		memcpy((void *)(uintptr_t)caller->R[cs->ret],
		       callee->param + g->params[0].offset, g->params[0].size);
	return rc;
}

/* Runs the current frame's function.  Instantiated twice (ptx_run_frame):
 * `tracing` is a constant, so the untraced copy carries no trace code. */
static inline __attribute__((always_inline)) int
run_frame_body(struct ctx *c, const int tracing)
{
	struct ptx_trace_event ev;
	const struct ptx_insn *code = c->fr->f->code, *pc = code, *in;
	const uint8_t *traced = c->fr->traced;
	uint64_t *R = c->fr->R, n = 0, unmarked = 0, amask = 0, fused = 0;
	int rc = 0;
	for (;;) {
		in = pc++;
		if (!((R[in->guard] ^ in->gneg) & 1))
			continue;
		n++;
		if (tracing && traced && traced[in - code])
			ptx_trace_before(c->fr->f, in, R, &ev);
		vmdispatch(in->op) {
		vmcase(ADD_I) D = (A + B) & M; vmbreak;
		vmcase(SUB_I) D = (A - B) & M; vmbreak;
		vmcase(MUL_LO) D = (A * B) & M; vmbreak;
		vmcase(MUL_HI) D = ptx_mulhi(A, B, in->bits, SG); vmbreak;
		vmcase(MUL_WIDE) D = ptx_mulwide(A, B, in->bits, SG); vmbreak;
		vmcase(MAD_LO) D = (A * B + C) & M; vmbreak;
		vmcase(MAD_HI) D = (ptx_mulhi(A, B, in->bits, SG) + C) & M; vmbreak;
		vmcase(MAD_WIDE)
			D = (ptx_mulwide(A, B, in->bits, SG) + C) & ptx_mask(2 * in->bits);
			vmbreak;
		vmcase(ADDC) vmcase(SUBC) vmcase(MADC_LO) vmcase(MADC_HI)
			D = ptx_carry_op(in, A, B, C, &R[PTX_SLOT_CC]);
			vmbreak;
		vmcase(DIV_I) D = ptx_idiv(A, B, in->bits, SG); vmbreak;
		vmcase(REM_I) D = ptx_irem(A, B, in->bits, SG); vmbreak;
		vmcase(ABS_I)
			D = ptx_sext(A, in->bits) < 0 ? (0 - A) & M : A & M;
			vmbreak;
		vmcase(NEG_I) D = (0 - A) & M; vmbreak;
		vmcase(MIN_I) D = (ptx_ilt(A, B, in->bits, SG) ? A : B) & M; vmbreak;
		vmcase(MAX_I) D = (ptx_ilt(A, B, in->bits, SG) ? B : A) & M; vmbreak;
		vmcase(POPC) D = (uint64_t)__builtin_popcountll(A & M); vmbreak;
		vmcase(CLZ)
			D = (A & M) ? (uint64_t)__builtin_clzll(A & M) - (64 - in->bits)
				    : in->bits;
			vmbreak;
		vmcase(BREV) D = ptx_brev(A, in->bits); vmbreak;
		vmcase(BFE) D = ptx_bfe(A, B, C, in->bits, SG); vmbreak;
		vmcase(BFI) D = ptx_bfi(A, B, C, R[in->src[3]], in->bits); vmbreak;
		vmcase(AND) D = A & B & M; vmbreak;
		vmcase(OR) D = (A | B) & M; vmbreak;
		vmcase(XOR) D = (A ^ B) & M; vmbreak;
		vmcase(NOT) D = ~A & M; vmbreak;
		vmcase(CNOT) D = (A & M) == 0; vmbreak;
		vmcase(SHL)
			D = (B & 0xffffffffu) >= in->bits ? 0 : (A << (B & 63)) & M;
			vmbreak;
		vmcase(SHR) D = ptx_shr(A, B, in->bits, SG); vmbreak;
		vmcase(SETP_I) setp_out(R, in, ptx_icmp(A, B, in->bits, SG, in->cmp)); vmbreak;
		vmcase(SETP_F32)
			setp_out(R, in, ptx_fcmp(in32(in, A), in32(in, B), in->cmp));
			vmbreak;
		vmcase(SETP_F64)
			setp_out(R, in, ptx_fcmp(ptx_f64(A), ptx_f64(B), in->cmp));
			vmbreak;
		vmcase(SET) D = ptx_set(in, A, B); vmbreak;
		vmcase(SELP) D = (C & 1) ? A : B; vmbreak;
		vmcase(SLCT)
			D = ((in->flags & PTX_F_SRC_F32) ? in32(in, C) >= 0.0f
							  : ptx_sext(C, 32) >= 0) ? A : B;
			vmbreak;
		vmcase(ADD_F32) F32_OP(PTX_FOP_ADD, a + b, 0.0f)
		vmcase(ADD_F64) F64_OP(PTX_FOP_ADD, a + b, 0.0)
		vmcase(SUB_F32) F32_OP(PTX_FOP_SUB, a - b, 0.0f)
		vmcase(SUB_F64) F64_OP(PTX_FOP_SUB, a - b, 0.0)
		vmcase(MUL_F32) F32_OP(PTX_FOP_MUL, a * b, 0.0f)
		vmcase(MUL_F64) F64_OP(PTX_FOP_MUL, a * b, 0.0)
		vmcase(FMA_F32) F32_OP(PTX_FOP_FMA, fmaf(a, b, c3), in32(in, C))
		vmcase(FMA_F64) F64_OP(PTX_FOP_FMA, fma(a, b, c3), ptx_f64(C))
		vmcase(DIV_F32) F32_OP(PTX_FOP_DIV, a / b, 0.0f)
		vmcase(DIV_F64) F64_OP(PTX_FOP_DIV, a / b, 0.0)
		vmcase(RCP_F32) F32_OP(PTX_FOP_RCP, 1.0f / a, 0.0f)
		vmcase(RCP_F64) F64_OP(PTX_FOP_RCP, 1.0 / a, 0.0)
		vmcase(SQRT_F32) F32_OP(PTX_FOP_SQRT, sqrtf(a), 0.0f)
		vmcase(SQRT_F64) F64_OP(PTX_FOP_SQRT, sqrt(a), 0.0)
		vmcase(DIV_APPROX_F32) vmcase(DIV_FULL_F32) vmcase(RCP_APPROX_F32)
		vmcase(SQRT_APPROX_F32) vmcase(RSQRT_APPROX_F32)
		vmcase(EX2_APPROX_F32) vmcase(LG2_APPROX_F32)
		vmcase(SIN_APPROX_F32) vmcase(COS_APPROX_F32) vmcase(TANH_APPROX_F32)
			D = ptx_res32(ptx_f32_approx(in->op, ptx_f32(A), ptx_f32(B),
						     (in->flags & PTX_F_FTZ) != 0), 0);
			amask |= 1ull << approx_kind(in->op);
			vmbreak;
		vmcase(RCP_APPROX_F64) vmcase(RSQRT_APPROX_F64)
			D = ptx_res64(ptx_f64_approx(in->op, ptx_f64(A),
						     (in->flags & PTX_F_FTZ) != 0), 0);
			amask |= 1ull << approx_kind(in->op);
			vmbreak;
		vmcase(NEG_F32) D = ptx_res32(-in32(in, A), 0); vmbreak;
		vmcase(NEG_F64) D = ptx_res64(-ptx_f64(A), 0); vmbreak;
		vmcase(ABS_F32) D = ptx_res32(fabsf(in32(in, A)), 0); vmbreak;
		vmcase(ABS_F64) D = ptx_res64(fabs(ptx_f64(A)), 0); vmbreak;
		vmcase(MIN_F32) D = ptx_minmax32(in32(in, A), in32(in, B), 0, in->flags); vmbreak;
		vmcase(MIN_F64) D = ptx_minmax64(ptx_f64(A), ptx_f64(B), 0, in->flags); vmbreak;
		vmcase(MAX_F32) D = ptx_minmax32(in32(in, A), in32(in, B), 1, in->flags); vmbreak;
		vmcase(MAX_F64) D = ptx_minmax64(ptx_f64(A), ptx_f64(B), 1, in->flags); vmbreak;
		vmcase(COPYSIGN_F32) D = (B & 0x7fffffffu) | (A & 0x80000000u); vmbreak;
		vmcase(COPYSIGN_F64) D = (B & ~(1ull << 63)) | (A & (1ull << 63)); vmbreak;
		vmcase(TESTP_F32)
			D = (uint64_t)testp(ptx_f32(A), fabsf(ptx_f32(A)) < 0x1p-126f &&
					    ptx_f32(A) != 0.0f, in->cmp);
			vmbreak;
		vmcase(TESTP_F64)
			D = (uint64_t)testp(ptx_f64(A), fabs(ptx_f64(A)) < 0x1p-1022 &&
					    ptx_f64(A) != 0.0, in->cmp);
			vmbreak;
		vmcase(ADD_H) vmcase(SUB_H) vmcase(MUL_H)
			unmarked += (in->flags & PTX_F_UNMARKED) != 0;
			D = ptx_half_op(in, A, B, C);
			vmbreak;
		vmcase(FMA_H) vmcase(NEG_H) vmcase(ABS_H) vmcase(MIN_H) vmcase(MAX_H)
			D = ptx_half_op(in, A, B, C);
			vmbreak;
		vmcase(SETP_H)
			setp_out(R, in, ptx_fcmp(ptx_half_value(in, A),
						 ptx_half_value(in, B), in->cmp));
			vmbreak;
		vmcase(MOV) D = A & M; vmbreak;
		vmcase(MOV_PACK) vmcase(MOV_UNPACK) do_pack(R, in); vmbreak;
		vmcase(CVT_II)
			D = cvt_ext(in, (in->flags & PTX_F_SAT) ? ptx_cvt(in, A) :
				(SG ? (uint64_t)ptx_sext(A, in->sbits)
				    : A & ptx_mask(in->sbits)) & M);
			vmbreak;
		vmcase(CVT_IF) D = cvt_ext(in, ptx_cvt(in, A)); vmbreak;
		vmcase(CVT_FI) vmcase(CVT_FF) D = ptx_cvt(in, A); vmbreak;
		vmcase(LD_PARAM) vmcase(LD_GLOBAL) vmcase(LD_LOCAL) vmcase(LD_GENERIC)
			if ((rc = do_ld(c, in)) != 0)
				goto out;
			vmbreak;
		vmcase(ST_GLOBAL) vmcase(ST_LOCAL) vmcase(ST_GENERIC) vmcase(ST_PARAM)
			if ((rc = do_st(c, in)) != 0)
				goto out;
			vmbreak;
		vmcase(BRA)
			pc = code + in->off;
			if (n > c->budget) {
				c->bad_kind = 2;
				rc = UB_RUNTIME;
				goto out;
			}
			vmbreak;
		vmcase(HOLD) R[in->src[2]] = A; R[in->src[3]] = B; vmbreak;
		vmcase(FUSED)
			D = ptx_fused(in, A, B, C);
			fused++;
			if (in->flags & PTX_F_GUESS)
				amask |= 1ull << PTX_AX_FMA_CHOICE;
			vmbreak;
		vmcase(CALL)
			if ((rc = do_call(c, in)) != 0)
				goto out;
			vmbreak;
		vmcase(RET) vmcase(EXIT) goto out;
		default: vmbreak;
		}
		if (tracing && traced && traced[in - code])
			ptx_trace_after(c->trace, c->fr->f, in, R, &ev);
	}
out:
	if (rc && !c->bad_f) {   /* the innermost frame names the place */
		c->bad_f = c->fr->f;
		c->bad_pc = (uint32_t)(in - code);
	}
	c->insns += n;
	c->unmarked += unmarked;
	c->fused += fused;
	c->amask |= amask;
	return rc;
}

int ptx_run_frame(struct ctx *c)
{
	return c->trace ? run_frame_body(c, 1) : run_frame_body(c, 0);
}


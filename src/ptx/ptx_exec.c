/* ptx_exec.c — runs a decoded kernel over a whole launch, one thread after
 * another (blocks in x, y, z order, and threads within a block likewise).
 *
 * The hot loop reads compact instructions (ptx_internal.h) and a uint64_t
 * register file; it never sees a string.  Dispatch goes through the macros
 * vmdispatch/vmcase/vmbreak (as in Lua's lvm.c) so that a computed-goto
 * variant can replace the switch without touching the cases.  Each case is
 * a few lines calling exact helpers (ptx_num.h, ptx_int.h) or, for
 * directed rounding, approximate instructions and conversions, functions
 * of ptx_float.c and ptx_cvt.c.
 *
 * Memory: global addresses are host addresses; every ld/st.global is
 * checked against the launch's buffers (st: writable ones) and the
 * module's .global/.const arrays (read-only); .local is one buffer per
 * run, reused by each thread in turn (local memory starts undefined in
 * PTX, so no thread can rely on what the previous one left); .param reads
 * the kernel arguments laid out at their declared offsets.  A bad access
 * stops the run with a message naming the instruction and its line.
 * A thread that runs more than the instruction budget stops the run too.
 *
 * The host's rounding mode is set to nearest for the run and restored. */
#include "ptx_int.h"
#include "ptx_trace.h"

#include <fenv.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define PTX_DEFAULT_BUDGET (1ull << 28)

#define vmdispatch(o) switch (o)
#define vmcase(l) case PTX_##l:
#define vmbreak break

struct region {
	uint64_t lo, size;
	int writable;
};

/* What one run needs; the counters are summed over threads. */
struct ctx {
	const struct ptx_func *f;
	uint64_t *R;
	const struct region *rg;
	int nrg;
	uint64_t local_lo, local_size;
	const unsigned char *param;
	uint64_t param_size;
	uint64_t insns, unmarked, amask, budget;
	uint32_t bad_pc;      /* instruction that failed */
	uint64_t bad_addr;
	int bad_kind;         /* 1 out of bounds, 2 budget exceeded */
	const struct ptx_trace *trace; /* NULL unless explain traces */
	const uint8_t *traced;         /* per instruction: traced? */
};

static inline int fits(uint64_t lo, uint64_t size, uint64_t a, uint64_t n)
{
	return size >= n && a - lo <= size - n;
}

/* Is [a, a+n) inside a region the instruction `op` may touch? */
static inline int mem_ok(const struct ctx *c, int op, uint64_t a, uint64_t n)
{
	int st = op == PTX_ST_GLOBAL || op == PTX_ST_GENERIC;
	if (op != PTX_LD_GLOBAL && op != PTX_ST_GLOBAL &&
	    fits(c->local_lo, c->local_size, a, n))
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
	uint64_t *R = c->R, bytes = in->bits / 8 ? in->bits / 8 : 1;
	uint64_t a = R[in->src[0]] + (uint64_t)in->off, n = bytes * in->aux;
	const unsigned char *p;
	if (in->op == PTX_LD_PARAM) {
		if (!fits(0, c->param_size, a, n))
			goto bad;
		p = c->param + a;
	} else {
		if (!mem_ok(c, in->op, a, n))
			goto bad;
		p = (const unsigned char *)(uintptr_t)a;
	}
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
	const uint64_t *R = c->R;
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
	case PTX_RCP_APPROX_F32: return PTX_AX_RCP_APPROX;
	case PTX_SQRT_APPROX_F32: return PTX_AX_SQRT_APPROX;
	case PTX_RSQRT_APPROX_F32: return PTX_AX_RSQRT_APPROX;
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

/* Runs the current thread to ret/exit.  0, or UB_RUNTIME with c->bad_*.
 * Instantiated twice (run_thread): `tracing` is a constant, so the
 * untraced copy carries no trace code at all. */
static inline __attribute__((always_inline)) int
run_thread_body(struct ctx *c, const int tracing)
{
	struct ptx_trace_event ev;
	const struct ptx_insn *code = c->f->code, *pc = code, *in;
	uint64_t *R = c->R, n = 0, unmarked = 0, amask = 0;
	int rc = 0;
	for (;;) {
		in = pc++;
		if (!((R[in->guard] ^ in->gneg) & 1))
			continue;
		n++;
		if (tracing && c->traced[in - code])
			ptx_trace_before(c->f, in, R, &ev);
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
		vmcase(ST_GLOBAL) vmcase(ST_LOCAL) vmcase(ST_GENERIC)
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
		vmcase(RET) vmcase(EXIT) goto out;
		default: vmbreak;
		}
		if (tracing && c->traced[in - code])
			ptx_trace_after(c->trace, c->f, in, R, &ev);
	}
out:
	if (rc)
		c->bad_pc = (uint32_t)(in - code);
	c->insns += n;
	c->unmarked += unmarked;
	c->amask |= amask;
	return rc;
}

static int run_thread(struct ctx *c)
{
	return c->trace ? run_thread_body(c, 1) : run_thread_body(c, 0);
}

const char *ptx_approx_name(int kind)
{
	static const char *const names[] = {
#define X(id, name) name,
		PTX_APPROX_KINDS(X)
#undef X
	};
	return kind >= 0 && kind < PTX_AX_COUNT ? names[kind] : "?";
}

static const struct ptx_func *find_func(const struct ptx_module *m,
					const char *entry, struct ub_error *err)
{
	char list[512] = "";
	for (int i = 0; i < m->nfuncs; i++)
		if (!strcmp(m->funcs[i].name, entry))
			return &m->funcs[i];
	for (int i = 0; i < m->nfuncs; i++) {
		size_t l = strlen(list);
		snprintf(list + l, sizeof list - l, "%s%s", i ? ", " : "",
			 m->funcs[i].name);
	}
	ub_fail(err, UB_RUNTIME, "ptx: no kernel '%s' in the module (kernels: %s)",
		entry, m->nfuncs ? list : "none");
	return NULL;
}

/* Lays the arguments out at their .param offsets. */
static int make_params(const struct ptx_func *f, const struct ptx_launch *l,
		       unsigned char *buf, struct ub_error *err)
{
	if (l->nargs != f->nparams)
		return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' takes %d "
			       "parameters, the launch gives %d", f->name,
			       f->nparams, l->nargs);
	for (int i = 0; i < f->nparams; i++) {
		const struct ptx_param *p = &f->params[i];
		if (p->size > 8)
			return ub_fail(err, UB_RUNTIME, "ptx: parameter '%s' of %u "
				       "bytes is not supported", p->name, p->size);
		memcpy(buf + p->offset, &l->args[i], p->size);  /* little endian */
	}
	return 0;
}

static void thread_regs(uint64_t *R, const unsigned *blk, const unsigned *tid,
			const unsigned *bdim)
{
	uint64_t *S = R + PTX_SLOT_SREG;
	unsigned lin = tid[0] + bdim[0] * (tid[1] + bdim[1] * tid[2]);
	for (int k = 0; k < 3; k++) {
		S[PTX_SR_TID_X + k] = tid[k];
		S[PTX_SR_CTAID_X + k] = blk[k];
	}
	S[PTX_SR_LANEID] = lin % 32;
	S[PTX_SR_WARPID] = lin / 32;
}

/* Every thread of the grid, in order; stops at the first failure. */
static int run_grid(struct ctx *c, const struct ptx_launch *l, unsigned *blk,
		    unsigned *tid)
{
	const unsigned *g = l->grid, *b = l->block;
	for (blk[2] = 0; blk[2] < g[2]; blk[2]++)
	for (blk[1] = 0; blk[1] < g[1]; blk[1]++)
	for (blk[0] = 0; blk[0] < g[0]; blk[0]++)
	for (tid[2] = 0; tid[2] < b[2]; tid[2]++)
	for (tid[1] = 0; tid[1] < b[1]; tid[1]++)
	for (tid[0] = 0; tid[0] < b[0]; tid[0]++) {
		thread_regs(c->R, blk, tid, b);
		if (run_thread(c))
			return UB_RUNTIME;
	}
	return 0;
}

static int report(const struct ctx *c, const unsigned *blk, const unsigned *tid,
		  struct ub_error *err)
{
	const struct ptx_func *f = c->f;
	const char *what = f->text[c->bad_pc] ? f->text[c->bad_pc] : "?";
	uint32_t line = f->lines[c->bad_pc];
	if (c->bad_kind == 1)
		return ub_fail(err, UB_RUNTIME, "ptx: out-of-bounds %s at 0x%" PRIx64
			       " (line %u, block %u,%u,%u thread %u,%u,%u)", what,
			       c->bad_addr, line, blk[0], blk[1], blk[2], tid[0],
			       tid[1], tid[2]);
	return ub_fail(err, UB_RUNTIME, "ptx: thread %u,%u,%u of block %u,%u,%u "
		       "ran more than %" PRIu64 " instructions (line %u): stopped",
		       tid[0], tid[1], tid[2], blk[0], blk[1], blk[2], c->budget,
		       line);
}

/* Regions: the launch's buffers, then the module's arrays (read-only). */
static struct region *make_regions(const struct ptx_module *m,
				   const struct ptx_launch *l, int *n)
{
	struct region *rg = malloc(((size_t)l->nbufs + (size_t)m->nvars + 1) *
				   sizeof *rg);
	if (!rg)
		return NULL;
	*n = 0;
	for (int i = 0; i < l->nbufs; i++)
		rg[(*n)++] = (struct region){ (uint64_t)(uintptr_t)l->bufs[i].base,
					      l->bufs[i].size, l->bufs[i].writable };
	for (int i = 0; i < m->nvars; i++)
		rg[(*n)++] = (struct region){ (uint64_t)(uintptr_t)m->vars[i].data,
					      m->vars[i].size, 0 };
	return rg;
}

int ptx_run(const struct ptx_module *m, const char *entry,
	    const struct ptx_launch *launch, struct ptx_run_info *info,
	    struct ub_error *err)
{
	return ptx_run_traced(m, entry, launch, NULL, info, err);
}

int ptx_run_traced(const struct ptx_module *m, const char *entry,
		   const struct ptx_launch *launch,
		   const struct ptx_trace *trace, struct ptx_run_info *info,
		   struct ub_error *err)
{
	const struct ptx_func *f = find_func(m, entry, err);
	if (!f)
		return UB_RUNTIME;
	for (int k = 0; k < 3; k++)
		if (!launch->grid[k] || !launch->block[k])
			return ub_fail(err, UB_RUNTIME, "ptx: empty grid or block "
				       "dimension for kernel '%s'", entry);
	struct ctx c = { .f = f, .param_size = f->param_size,
			 .local_size = f->local_size,
			 .budget = launch->budget ? launch->budget : PTX_DEFAULT_BUDGET };
	unsigned char *param = calloc(1, f->param_size + 1u);
	unsigned char *local = calloc(1, f->local_size + 1u);
	struct region *rg = make_regions(m, launch, &c.nrg);
	c.R = malloc(f->nslots * sizeof *c.R);
	uint8_t *traced = trace ? ptx_trace_marks(f) : NULL;
	c.trace = traced ? trace : NULL;
	c.traced = traced;
	int rc = param && local && rg && c.R && (traced || !trace) ? 0 :
		 ub_fail(err, UB_RUNTIME, "ptx: out of memory");
	if (!rc)
		rc = make_params(f, launch, param, err);
	unsigned blk[3] = { 0 }, tid[3] = { 0 };
	if (!rc) {
		c.param = param;
		c.rg = rg;
		c.local_lo = (uint64_t)(uintptr_t)local;
		memcpy(c.R, f->init, f->nslots * sizeof *c.R);
		for (int i = 0; i < f->nrelocs; i++)
			c.R[f->relocs[i].slot] = c.local_lo + f->relocs[i].offset;
		for (int k = 0; k < 3; k++) {
			c.R[PTX_SLOT_SREG + PTX_SR_NTID_X + k] = launch->block[k];
			c.R[PTX_SLOT_SREG + PTX_SR_NCTAID_X + k] = launch->grid[k];
		}
		int mode = fegetround();
		fesetround(FE_TONEAREST);
		if (run_grid(&c, launch, blk, tid))
			rc = report(&c, blk, tid, err);
		fesetround(mode);
	}
	if (info) {
		info->approx_mask = c.amask;
		info->insns = c.insns;
		info->unmarked_fp = c.unmarked;
	}
	free(param);
	free(local);
	free(rg);
	free(c.R);
	free(traced);
	return rc;
}

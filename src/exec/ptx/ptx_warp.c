/* ptx_warp.c — steps one warp of a block-level kernel (ptx_block.h).
 *
 * The 32 lanes of a warp each have a pc; the lanes that can run (live,
 * not waiting at a barrier) at the smallest pc run the instruction
 * together (the active lanes; those whose guard holds execute it), so
 * lanes that branch apart run one path, then the other, and meet again
 * where the paths join: the reconvergence of compiled structured code.
 * Register instructions are ptx_cases.h's, as in the other executors;
 * memory instructions add the block's .shared memory (an offset for
 * ld/st.shared, its host address for generic ones); bar.sync parks the
 * lanes that reach it until every thread of the block is there
 * (ptx_block.c).  The budget counts a warp's instructions. */
#include "ptx_block.h"
#include "ptx_cases.h"
#include "ptx_mma.h"

#include <stdarg.h>
#include <stdio.h>

#define W PTX_WARP
#define REG(s) R[(size_t)(s) * W + l]
#define LANES(...)                                                      \
	for (uint32_t m_ = g; m_; m_ &= m_ - 1) {                       \
		unsigned l = (unsigned)__builtin_ctz(m_);               \
		__VA_ARGS__                                             \
	}

/* The lanes of act whose guard predicate holds. */
static uint32_t guard_of(const uint64_t *R, const struct ptx_insn *in,
			 uint32_t act)
{
	uint32_t g = 0;
	for (uint32_t m = act; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		g |= (uint32_t)((R[(size_t)in->guard * W + l] ^ in->gneg) & 1) << l;
	}
	return g;
}

/* The bytes st of lane l stores: aux elements of `bytes` each, from d
 * and src[1..] (little-endian host). */
static void st_bytes(const struct ptx_insn *in, const uint64_t *R, unsigned l,
		     uint64_t bytes, unsigned char *out)
{
	for (int i = 0; i < in->aux; i++) {
		uint64_t v = REG(i ? in->src[i] : in->dst);
		memcpy(out + i * bytes, &v, bytes);
	}
}

/* ld/st of lane l at the .shared host address p (checked). */
static void shared_ldst(const struct ptx_insn *in, uint64_t *R, unsigned l,
			unsigned char *p, int st)
{
	uint64_t bytes = in->bits / 8 ? in->bits / 8 : 1;
	if (st) {
		st_bytes(in, R, l, bytes, p);
		return;
	}
	for (int i = 0; i < in->aux; i++) {
		uint64_t v = 0;
		memcpy(&v, p + i * bytes, bytes);
		if (in->flags & PTX_F_SEXT)
			v = (uint64_t)ptx_sext(v, in->bits) & ptx_mask(in->rbits);
		REG(i ? in->src[i] : in->dst) = v;
	}
}

/* What the launch buffer at lo is ("input 'x'"). */
static const char *region_name(const struct ptx_blk *b, uint64_t lo)
{
	for (int i = 0; i < b->chk.nbufs; i++)
		if (b->chk.bufs[i].lo == lo && b->chk.bufs[i].buf->name)
			return b->chk.bufs[i].buf->name;
	for (int i = 0; i < b->nbufs; i++)
		if ((uint64_t)(uintptr_t)b->bufs[i].base == lo && b->bufs[i].name)
			return b->bufs[i].name;
	return "a global array";
}

/* The checks of lane l's ld/st (st: 1) of n bytes at a (.shared: an
 * offset; else a host address, lbuf the thread's .local): alignment,
 * initcheck, racecheck.  0, or UB_RUNTIME with b's failure set. */
static int checked(struct ptx_blk *b, const struct ptx_insn *in, uint64_t *R,
		   unsigned l, unsigned t, uint64_t a, uint64_t n, int sh,
		   const unsigned char *lbuf, uint64_t lo, int st)
{
	uint32_t pc = (uint32_t)(in - b->f->code);
	uint64_t bytes = in->bits / 8 ? in->bits / 8 : 1;
	unsigned char val[32];
	size_t ls = b->f->local_size;
	int kind = st ? PTX_CHK_WRITE : PTX_CHK_READ, rc = 0;
	int loc = !sh && fits((uint64_t)(uintptr_t)lbuf, ls, a, n) &&
		  in->op != PTX_LD_GLOBAL && in->op != PTX_ST_GLOBAL;
	if (in->op == PTX_LD_PARAM || in->op == PTX_ST_PARAM)
		return 0;
	if (ptx_blk_aligned(b, in, sh ? a : a - lo, n, sh ? ".shared memory" : loc ?
			    "the thread's .local memory" : region_name(b, lo), t))
		return UB_RUNTIME;
	if (st && n <= sizeof val)
		st_bytes(in, R, l, bytes, val);
	if (sh)
		rc = ptx_chk_shared(&b->chk, a, n, kind, t, pc, val, b->shared + a);
	else if (loc)
		rc = ptx_chk_local(&b->chk, a - (uint64_t)(uintptr_t)lbuf, n, kind, t, pc);
	else
		rc = ptx_chk_global(&b->chk, a, n, kind, t, pc, val);
	return rc ? ptx_blk_fail(b, t, "%s", b->chk.msg) : 0;
}

/* ld or st (st: 1) of the lanes in g. */
static int mem(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
	       uint64_t *R, uint32_t g, int st)
{
	struct ptx_ctx *c = b->c;
	size_t ls = b->f->local_size;
	uint64_t bytes = (in->bits / 8 ? in->bits / 8 : 1) * in->aux;
	uint64_t base = (uint64_t)(uintptr_t)b->shared;
	LANES(
		unsigned t = wi * W + l;
		uint64_t a = REG(in->src[0]) + (uint64_t)in->off;
		int sh = in->op == PTX_LD_SHARED || in->op == PTX_ST_SHARED;
		int gen = in->op == PTX_LD_GENERIC || in->op == PTX_ST_GENERIC;
		unsigned char *lbuf = b->local + (size_t)t * ls;
		if (gen && a - base < b->shared_size)
			a -= base, sh = 1;
		if (sh) {
			unsigned char *p = ptx_shared_at(b, a, bytes);
			if (!p)
				return ptx_blk_fail(b, t, "out-of-bounds %s at .shared "
						    "offset 0x%llx (%llu bytes; the "
						    "block has %llu bytes of .shared "
						    "memory; --launch ...,shared=BYTES gives "
						    "its dynamic part) at line %u",
						    b->f->text[in - b->f->code],
						    (unsigned long long)a,
						    (unsigned long long)bytes,
						    (unsigned long long)b->shared_size,
						    b->f->lines[in - b->f->code]);
			if (checked(b, in, R, l, t, a, bytes, 1, lbuf, 0, st))
				return UB_RUNTIME;
			shared_ldst(in, R, l, p, st);
			continue;
		}
		uint64_t lo, size;   /* out of bounds: ptx_ld/ptx_st say so */
		if (ptx_mem_region(c, in->op, a, bytes, lbuf, &lo, &size) &&
		    checked(b, in, R, l, t, a, bytes, 0, lbuf, lo, st))
			return UB_RUNTIME;
		if (st ? ptx_st(c, in, R + l, W, lbuf) : ptx_ld(c, in, R + l, W, lbuf)) {
			b->bad_thread = t;
			return UB_RUNTIME;
		}
	)
	return 0;
}

/* A failure of thread t of the kind c->bad_kind (ptx_exec.h). */
static int thread_fail(struct ptx_blk *b, unsigned t, int kind)
{
	b->c->bad_kind = kind;
	b->bad_thread = t;
	return UB_RUNTIME;
}

/* bar.sync (aligned) run by the lanes g of warp wi but not by another
 * live lane of it: undefined on the GPU (a divergent __syncthreads). */
static int diverged(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		    uint32_t g)
{
	const struct ptx_warp *w = &b->w[wi];
	unsigned o = (unsigned)__builtin_ctz(w->live & ~g);
	uint32_t pc = (uint32_t)(in - b->f->code), opc = w->pc[o];
	char src[160] = "", there[200];
	if (ptx_src_line(b->f, pc, src + 2, sizeof src - 3)) {
		src[0] = ' ', src[1] = '(';
		strcat(src, ")");
	}
	if (w->wait >> o & 1)
		snprintf(there, sizeof there, "waits at the barrier at line %u",
			 b->f->lines[w->barpc[o]]);
	else if (opc == pc)
		snprintf(there, sizeof there, "skips it (its guard is false)");
	else
		snprintf(there, sizeof there, "is at line %u", b->f->lines[opc]);
	return ptx_blk_fail(b, wi * W + (unsigned)__builtin_ctz(g), "%s at line %u%s "
			    "is run by lane %u of warp %u but not by lane %u, which "
			    "%s: a __syncthreads() that not every thread of a warp "
			    "reaches (divergent code) is undefined on the GPU "
			    "(bar.sync is .aligned)", b->f->text[pc], b->f->lines[pc],
			    src, (unsigned)__builtin_ctz(g), wi, o, there);
}

/* One instruction of the lanes in g (act: all lanes at it).  0, 1 when
 * the warp yields before an atomic, UB_RUNTIME on a failure. */
static int step(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		uint32_t g, uint32_t act)
{
	struct ptx_warp *w = &b->w[wi];
	uint64_t *R = w->R, unmarked = 0, fused = 0, amask = 0;
	uint64_t base = (uint64_t)(uintptr_t)b->shared;
	int rc = 0;
	switch (in->op) {
#define X(op, ...) case PTX_##op: LANES(__VA_ARGS__) break;
	PTX_REG_CASES(X)
#undef X
	case PTX_LD_PARAM: case PTX_LD_GLOBAL: case PTX_LD_LOCAL:
	case PTX_LD_GENERIC: case PTX_LD_SHARED:
		return mem(b, wi, in, R, g, 0);
	case PTX_ST_GLOBAL: case PTX_ST_LOCAL: case PTX_ST_GENERIC:
	case PTX_ST_PARAM: case PTX_ST_SHARED:
		return mem(b, wi, in, R, g, 1);
	case PTX_CVTA_SHARED:
		LANES(D = (A + base) & M;)
		break;
	case PTX_CVTA_TO_SHARED:
		LANES(D = (A - base) & M;)
		break;
	case PTX_BAR:
		if (in->aux && (w->live & ~g))   /* .aligned: the whole warp */
			return diverged(b, wi, in, g);
		w->wait |= g;
		LANES(w->barpc[l] = (uint32_t)(in - b->f->code);)
		break;
	case PTX_FENCE:
		break;
	case PTX_BAR_WARP: case PTX_SHFL: case PTX_VOTE: case PTX_MATCH:
	case PTX_REDUX: case PTX_ACTIVEMASK: case PTX_ELECT:
		return ptx_warp_collective(b, w, in, g, act);
	case PTX_ATOM: case PTX_RED:
		return ptx_warp_atomic(b, w, in, g, wi);
	case PTX_LDMATRIX: case PTX_STMATRIX: case PTX_MOVMATRIX: case PTX_MMA:
	case PTX_WMMA_LOAD: case PTX_WMMA_STORE: case PTX_WMMA_MMA: case PTX_WGMMA:
	case PTX_WGMMA_SYNC:   /* tensor cores: ptx_mma.h */
		rc = ptx_warp_mma(b, wi, in, g, act);
		break;
	case PTX_CP_ASYNC: case PTX_CP_COMMIT: case PTX_CP_WAIT: case PTX_MBARRIER:
		return ptx_async_step(b, wi, in, g);
	case PTX_CLOCK:   /* the launch's instructions so far */
		LANES(D = (b->c->insns + b->insns) & M;)
		break;
	case PTX_PRINTF:
		LANES(ptx_printf(b->c, in, R + l, W, b->local + (size_t)(wi * W + l) *
				 b->f->local_size);)
		break;
	case PTX_TRAP: case PTX_ASSERTFAIL: {
		unsigned l = (unsigned)__builtin_ctz(g);
		char msg[512] = "";
		if (in->op == PTX_ASSERTFAIL)
			ptx_assert_message(b->c, in, R + l, W, b->local +
					   (size_t)(wi * W + l) * b->f->local_size,
					   msg, sizeof msg);
		return ptx_blk_fail(b, wi * W + l, "%s (PTX line %u)", in->op == PTX_TRAP ?
				    "ran trap: the GPU aborts the kernel there" : msg,
				    b->f->lines[in - b->f->code]);
	}
	default:   /* call: ptx_run.c refuses it for a block-level kernel */
		return ptx_blk_fail(b, wi * W + (unsigned)__builtin_ctz(g),
				    "%s at line %u is not supported in a kernel "
				    "with block-level instructions",
				    b->f->text[in - b->f->code],
				    b->f->lines[in - b->f->code]);
	}
	b->unmarked += unmarked;
	b->fused += fused;
	b->amask |= amask;
	return rc;
}

int ptx_warp_run(struct ptx_blk *b, unsigned wi)
{
	struct ptx_warp *w = &b->w[wi];
	const struct ptx_insn *code = b->f->code;
	for (;;) {
		uint32_t run = w->live & ~w->wait, act = 0, pc = UINT32_MAX;
		if (!run)
			return 0;
		for (uint32_t m = run; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			if (w->pc[l] < pc)
				pc = w->pc[l], act = 0;
			if (w->pc[l] == pc)
				act |= 1u << l;
		}
		const struct ptx_insn *in = &code[pc];
		uint32_t g = guard_of(w->R, in, act), next = pc + 1;
		if (g && (in->op == PTX_ATOM || in->op == PTX_RED) && b->rng &&
		    !w->yielded && (ptx_blk_rand(b) & 1)) {
			w->yielded = 1;   /* another warp may go first */
			return 1;
		}
		w->yielded = 0;
		if (++w->steps > b->c->budget) {
			b->c->bad_f = b->f;
			b->c->bad_pc = pc;
			return thread_fail(b, wi * W + (unsigned)__builtin_ctz(act), 2);
		}
		b->insns += (uint64_t)__builtin_popcount(g);
		if (g && in->op == PTX_BRA) {
			for (uint32_t m = act; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctz(m);
				w->pc[l] = (g >> l & 1) ? (uint32_t)in->off : next;
			}
			continue;
		}
		if (g && ptx_mbar_is_wait(in)) {   /* held until the phase completes */
			uint32_t held;
			if (ptx_mbar_wait(b, wi, in, g, &held))
				return UB_RUNTIME;
			w->wait |= held;
			for (uint32_t m = held; m; m &= m - 1)
				w->barpc[__builtin_ctz(m)] = pc;
			act &= ~held;
		} else if (g && (in->op == PTX_RET || in->op == PTX_EXIT)) {
			w->live &= ~g;
			ptx_async_exit(b, wi, g);
		} else if (g) {
			int rc = step(b, wi, in, g, act);
			if (rc) {
				if (!b->msg[0] && !b->c->bad_f) {
					b->c->bad_f = b->f;
					b->c->bad_pc = pc;
				}
				return rc;
			}
		}
		for (uint32_t m = act; m; m &= m - 1)
			w->pc[__builtin_ctz(m)] = next;
	}
}

int ptx_blk_fail(struct ptx_blk *b, unsigned t, const char *fmt, ...)
{
	char what[700];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof what, fmt, ap);
	va_end(ap);
	b->bad_thread = t;
	snprintf(b->msg, sizeof b->msg, "ptx: kernel '%s': %s", b->f->name, what);
	return UB_RUNTIME;
}

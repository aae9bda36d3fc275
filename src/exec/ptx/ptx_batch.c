/* ptx_batch.c — runs PTX_LANES threads of a kernel at once: each
 * instruction is decoded once and applied to every lane that is at it
 * (a tight loop over lanes), instead of once per thread.
 *
 * Registers are stored lane-major per slot: lane l's slot s is
 * R[s * PTX_LANES + l], so an instruction reads and writes contiguous
 * columns.  The instruction semantics are ptx_cases.h's, shared with the
 * thread-by-thread executor (ptx_exec.c), so both compute the same bits.
 *
 * Control flow: every lane has its own pc.  The lanes that are at the
 * smallest pc run together (the active mask); a branch that splits them
 * parks each lane at its own next pc, and the smallest pc runs next, so
 * lanes that went different ways meet again where the paths join (the
 * smallest-pc-first rule).  Threads of an elementwise kernel do not talk
 * to each other, so the order in which lanes advance cannot change what
 * any of them computes (two threads storing to one address is a race on
 * the GPU too, and may end differently here).
 *
 * Every lane has its own .local buffer (c->lanes_local).  Kernels with
 * calls are not batched (ptx_batchable); they run thread by thread.  A lane that fails (a
 * bad address, the instruction budget) makes ptx_run.c rerun the whole
 * batch thread by thread, which names the failing thread as before. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif
#include "ptx_batch.h"
#include "ptx_cases.h"

#include <stdlib.h>
#include <string.h>

#define W PTX_LANES
#define REG(s) R[(size_t)(s) * W + l]

int ptx_batchable(const struct ptx_func *f)
{
	/* every call instruction has its entry in f->calls; device printf
	   runs thread by thread, in grid order, once a thread, and so do
	   clocks, which count the instructions run before */
	for (uint32_t i = 0; i < f->ncode; i++)
		if (f->code[i].op == PTX_PRINTF || f->code[i].op == PTX_CLOCK)
			return 0;
	return f->ncalls == 0 && f->nslots <= PTX_BATCH_MAX_SLOTS;
}

/* The lanes of `act` whose guard predicate holds. */
static inline uint64_t guard_mask(const uint64_t *R, const struct ptx_insn *in,
				  uint64_t act)
{
	if (in->guard == PTX_SLOT_TRUE && !in->gneg)
		return act;
	const uint64_t *p = R + (size_t)in->guard * W;
	uint64_t g[4] = { 0, 0, 0, 0 };   /* four chains, not one */
	for (unsigned l = 0; l < W; l += 4)
		for (unsigned k = 0; k < 4; k++)
			g[k] |= (p[l + k] & 1) << (l + k);
	return ((g[0] | g[1] | g[2] | g[3]) ^ (in->gneg ? ~0ull : 0)) & act;
}

/* Lanes of `live` parked at their own pcs (lpc): the smallest pc becomes
 * the one to run, its lanes the active ones; *minwait: the smallest pc of
 * the others (UINT32_MAX: none). */
static void schedule(uint64_t live, const uint32_t *lpc, uint32_t *pc,
		     uint64_t *act, uint32_t *minwait)
{
	uint32_t lo = UINT32_MAX, next = UINT32_MAX;
	uint64_t a = 0;
	for (uint64_t m = live; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctzll(m);
		if (lpc[l] < lo) {
			next = lo;
			lo = lpc[l];
			a = 1ull << l;
		} else if (lpc[l] == lo) {
			a |= 1ull << l;
		} else if (lpc[l] < next) {
			next = lpc[l];
		}
	}
	*pc = lo;
	*act = a;
	*minwait = next;
}

/* The lanes in g, one after another (all W of them in a plain loop). */
#define LANES(...)                                                       \
	do {                                                            \
		if (g == ~0ull) {                                       \
			for (unsigned l = 0; l < W; l++) { __VA_ARGS__ } \
		} else {                                                \
			for (uint64_t m_ = g; m_; m_ &= m_ - 1) {       \
				unsigned l = (unsigned)__builtin_ctzll(m_); \
				__VA_ARGS__                             \
			}                                               \
		}                                                       \
	} while (0)

/* The n-byte little-endian value at p (n: 1, 2, 4 or 8). */
/* A scalar ld or st of T over the lanes in g, the region of the previous
 * lane tried first. */
#define MEM_LOOP(T)                                                     \
	LANES(                                                          \
		uint64_t p = a[l] + (uint64_t)in->off;                  \
		if (!fits(lo, size, p, sizeof(T)) &&                    \
		    !ptx_mem_region(c, in->op, p, sizeof(T), LBUF, &lo, &size)) { \
			c->bad_addr = p;                                \
			c->bad_kind = 1;                                \
			return UB_RUNTIME;                              \
		}                                                       \
		if ((p - lo) & (sizeof(T) - 1)) {   /* misaligned */    \
			c->bad_addr = p;                                \
			c->bad_kind = 5;                                \
			return UB_RUNTIME;                              \
		}                                                       \
		T x;                                                    \
		if (is_st) {                                            \
			x = (T)v[l];                                    \
			memcpy((void *)(uintptr_t)p, &x, sizeof x);     \
		} else {                                                \
			memcpy(&x, (const void *)(uintptr_t)p, sizeof x); \
			v[l] = x;                                       \
		}                                                       \
		if (!shared)                                            \
			size = 0;   /* a local buffer is the lane's own */  \
	)

/* ld or st over the lanes in g (ptx_ld/ptx_st for vectors and sign
 * extension). */
static inline __attribute__((always_inline)) int
batch_mem(struct ptx_ctx *c, const struct ptx_insn *in, uint64_t *R,
	  uint64_t g, const int is_st)
{
	uint64_t lo = 0, size = 0;
	size_t ls = c->fr->f->local_size;
	int shared = in->op == PTX_LD_GLOBAL || in->op == PTX_ST_GLOBAL ||
		     in->op == PTX_LD_PARAM;
#define LBUF (c->lanes_local + (size_t)l * ls)
	uint64_t *a = R + (size_t)in->src[0] * W, *v = R + (size_t)in->dst * W;
	switch (in->aux != 1 || (in->flags & PTX_F_SEXT) ? 0 : in->bits) {
	case 8: MEM_LOOP(uint8_t); break;
	case 16: MEM_LOOP(uint16_t); break;
	case 32: MEM_LOOP(uint32_t); break;
	case 64: MEM_LOOP(uint64_t); break;
	default:
		if (is_st)
			LANES(if (ptx_st(c, in, R + l, W, LBUF)) return UB_RUNTIME;);
		else
			LANES(if (ptx_ld(c, in, R + l, W, LBUF)) return UB_RUNTIME;);
		break;
	}
#undef LBUF
	return 0;
}

/* Counters of what ran (ptx_run_info). */
struct counts {
	uint64_t unmarked, fused, amask;
};

/* Runs the data instruction in (not a branch, call, ret or exit) on the
 * lanes in g.  0, UB_RUNTIME (a bad address), or -1: not a data
 * instruction. */
/* The most frequent integer instructions in their common forms, with
 * what depends on the instruction worked out once, not per lane: 1 if
 * done. */
static inline __attribute__((always_inline)) int
fast_step(const struct ptx_insn *in, uint64_t *restrict R, uint64_t g)
{
	uint64_t *d = R + (size_t)in->dst * W;
	const uint64_t *a = R + (size_t)in->src[0] * W, *b = R + (size_t)in->src[1] * W;
	switch (in->op) {
	case PTX_SETP_I: {
		if (in->aux != PTX_BOOL_NONE)
			return 0;
		uint64_t *q = R + (size_t)in->src[3] * W;
		const struct ptx_icmp_k k = ptx_icmp_prep(in->bits, SG, in->cmp);
		LANES(int t = ptx_icmp_k(&k, a[l], b[l]);
		      d[l] = (uint64_t)t;
		      q[l] = (uint64_t)!t;);
		return 1;
	}
	case PTX_CVT_II: {
		if (in->flags & (PTX_F_SAT | PTX_F_SEXT))
			return 0;
		const uint64_t m = M;
		if (!SG) {
			const uint64_t mz = ptx_mask(in->sbits) & m;
			LANES(d[l] = a[l] & mz;);
		} else {
			const unsigned sb = in->sbits;
			LANES(d[l] = (uint64_t)ptx_sext(a[l], sb) & m;);
		}
		return 1;
	}
	default:
		return 0;
	}
}

static inline __attribute__((always_inline)) int
step(struct ptx_ctx *c, const struct ptx_insn *in, uint64_t *restrict R,
     uint64_t g, struct counts *k)
{
	uint64_t unmarked = 0, fused = 0, amask = 0;
	if (fast_step(in, R, g))
		return 0;
	switch (in->op) {
#define X(op, ...) case PTX_##op: LANES(__VA_ARGS__); break;
	PTX_REG_CASES(X)
#undef X
	case PTX_LD_PARAM: case PTX_LD_GLOBAL: case PTX_LD_LOCAL:
	case PTX_LD_GENERIC:
		return batch_mem(c, in, R, g, 0);
	case PTX_ST_GLOBAL: case PTX_ST_LOCAL: case PTX_ST_GENERIC:
	case PTX_ST_PARAM:
		return batch_mem(c, in, R, g, 1);
	default:
		return -1;
	}
	k->unmarked += unmarked;
	k->fused += fused;
	k->amask |= amask;
	return 0;
}

int ptx_batch_prepare(struct ptx_ctx *c, uint64_t *R, const uint8_t *uniform)
{
	const struct ptx_func *f = c->fr->f;
	struct counts k = { 0, 0, 0 };
	for (uint32_t i = 0; i < f->ncode; i++) {
		const struct ptx_insn cur = f->code[i];
		if (uniform[i] && step(c, &cur, R, ~0ull, &k))
			return UB_RUNTIME;
	}
	return 0;
}

int ptx_batch_run(struct ptx_ctx *c, uint64_t *R, uint64_t live,
		  const uint8_t *uniform)
{
	const struct ptx_insn *code = c->fr->f->code;
	uint32_t pc = 0, minwait = UINT32_MAX, lpc[W];
	uint64_t act = live, n = 0, steps = 0;
	struct counts k = { 0, 0, 0 };
	while (live) {
		uint32_t next = pc + 1;
		if (uniform[pc]) {   /* computed once for the launch */
			steps++;
			n += act == ~0ull ? W : (uint64_t)__builtin_popcountll(act);
			goto advance;
		}
		/* step's R is restrict: its stores do not change *in, whose
		   fields stay in registers over the lane loops */
		const struct ptx_insn *in = &code[pc];
		uint64_t g = guard_mask(R, in, act);
		if (!g)
			goto advance;
		steps++;
		n += g == ~0ull ? W : (uint64_t)__builtin_popcountll(g);
		int rc = step(c, in, R, g, &k);
		if (rc > 0)
			return rc;
		if (rc == 0)
			goto advance;
		switch (in->op) {
		case PTX_BRA:
			if (steps > c->budget)
				return UB_RUNTIME;
			if (g == act) {
				next = (uint32_t)in->off;
				break;
			}
			for (uint64_t m = act; m; m &= m - 1) {
				unsigned l = (unsigned)__builtin_ctzll(m);
				lpc[l] = (g >> l & 1) ? (uint32_t)in->off : next;
			}
			schedule(live, lpc, &pc, &act, &minwait);
			continue;
		case PTX_RET: case PTX_EXIT:
			live &= ~g;
			act &= ~g;
			break;
		default:   /* call: ptx_batchable keeps it out; trap and a
			      failed assert: thread by thread, to say so */
			return UB_RUNTIME;
		}
advance:
		if (act && next < minwait) {
			pc = next;
			continue;
		}
		for (uint64_t m = act; m; m &= m - 1)
			lpc[__builtin_ctzll(m)] = next;
		schedule(live, lpc, &pc, &act, &minwait);
	}
	c->insns += n;
	c->unmarked += k.unmarked;
	c->fused += k.fused;
	c->amask |= k.amask;
	return 0;
}

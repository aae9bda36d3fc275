/* ptx_exec.h — the state of one launch on the interpreter, shared by the
 * instruction loop (ptx_exec.c) and the launch setup (ptx_run.c). */
#ifndef UB_PTX_EXEC_H
#define UB_PTX_EXEC_H

#include "ptx_int.h"

/* A memory region the kernel may touch through ld/st.global. */
struct ptx_region {
	uint64_t lo, size;
	int writable;
};

/* One function of the module as it runs: its register file, its local
 * buffer and its .param buffer (a kernel's arguments, or a .func's
 * arguments and return value).  One frame per function and launch,
 * reused by every thread and call: ptx_frame_reset gives each the state
 * the first one had (ptx_undef.c). */
struct ptx_frame {
	const struct ptx_func *f;
	uint64_t *R;
	unsigned char *local, *param;
	int active;              /* on the call stack now (no recursion) */
	uint8_t *traced;         /* per instruction: traced? (NULL: none) */
};

/* What one launch needs; the counters are summed over threads. */
struct ptx_ctx {
	struct ptx_frame *frames;  /* one per module function */
	struct ptx_frame *fr;      /* the running one */
	const struct ptx_region *rg;
	int nrg;
	uint64_t insns, unmarked, fused, amask, budget, reruns;
	uint64_t native_reruns;    /* native launches finished on the
				      interpreter from a failing thread */
	uint64_t tinsns;           /* instructions of the running thread in
				      frames it left (the budget's count) */
	unsigned char *lanes_local;   /* a batch's local buffers, lane after
					 lane (ptx_batch.c) */
	const struct ptx_trace *trace; /* NULL unless explain traces */
	const struct ptx_func *bad_f; /* where the run failed, */
	uint32_t bad_pc;              /* at which instruction */
	uint64_t bad_addr;
	int bad_kind;    /* 1 out of bounds, 2 budget exceeded, 3 recursion,
			    4 a check failed (chk's message), 5 misaligned,
			    6 a failed device assert (bad_msg), 7 trap */
	char bad_msg[512];
	const struct ptx_bufcheck *bc; /* the launch's buffers as the checks
				 see them (ptx.h), or NULL */
	const struct ptx_run_opts *opts; /* the run's (ptx.h), or NULL */
	struct ptx_chk *chk;  /* the thread path's checks of launch buffers
				 (ptx_check.h), or NULL */
	unsigned chk_t;       /* the running thread's index in its block */
	uint64_t pf_calls;   /* device printf: calls, and the first lines */
	size_t pf_len;
	int pf_full;         /* a line did not fit: no more after it */
	char pf[2048];
};

/* A thread (or call) starts: the registers it may read before writing
 * them back at their initial values (0), its .local memory zero, as for
 * the first thread of the launch (ptx_undef.c). */
static inline void ptx_frame_reset(struct ptx_frame *fr)
{
	const struct ptx_func *f = fr->f;
	for (uint32_t k = 0; k < f->nreset; k++)
		fr->R[f->reset[k]] = f->init[f->reset[k]];
	memset(fr->local, 0, f->local_size);
}

static inline int fits(uint64_t lo, uint64_t size, uint64_t a, uint64_t n)
{
	return size >= n && a - lo <= size - n;
}

static inline int in_local(const struct ptx_frame *fr, uint64_t a, uint64_t n)
{
	return fits((uint64_t)(uintptr_t)fr->local, fr->f->local_size, a, n);
}

/* Is [a, a+n) inside a region the instruction `op` may touch?  .local:
 * the running thread's local buffer `lbuf` (c->fr->local, or a batch
 * lane's own); .param: the frame's parameter buffer, or a call site's
 * .param variable in the local buffer.  If so, *lo and *size tell that
 * region. */
static inline int ptx_mem_region(const struct ptx_ctx *c, int op, uint64_t a,
				 uint64_t n, const unsigned char *lbuf,
				 uint64_t *lo, uint64_t *size)
{
	int st = op == PTX_ST_GLOBAL || op == PTX_ST_GENERIC;
	const struct ptx_frame *fr = c->fr;
	uint64_t local = (uint64_t)(uintptr_t)lbuf;
	int local_ok = fits(local, fr->f->local_size, a, n) &&
		       op != PTX_LD_GLOBAL && op != PTX_ST_GLOBAL;
	if (local_ok) {
		*lo = local;
		*size = fr->f->local_size;
		return 1;
	}
	if (op == PTX_LD_PARAM || op == PTX_ST_PARAM) {
		*lo = (uint64_t)(uintptr_t)fr->param;
		*size = fr->f->param_size;
		return fits(*lo, *size, a, n);
	}
	if (op == PTX_LD_LOCAL || op == PTX_ST_LOCAL)
		return 0;
	for (int i = 0; i < c->nrg; i++)
		if (fits(c->rg[i].lo, c->rg[i].size, a, n) &&
		    (!st || c->rg[i].writable)) {
			*lo = c->rg[i].lo;
			*size = c->rg[i].size;
			return 1;
		}
	return 0;
}

/* The search of ptx_access_ok below, out of line (its callers, the
 * native code's ld and st above all, stay small): the region op may
 * touch at a, its n-byte slots into *span, and the alignment. */
static __attribute__((noinline, unused)) int
ptx_access_find(struct ptx_ctx *c, int op, uint64_t a, uint64_t n,
		const unsigned char *lbuf, uint64_t *lo, uint64_t *span)
{
	uint64_t size;
	if (!ptx_mem_region(c, op, a, n, lbuf, lo, &size)) {
		c->bad_addr = a;
		c->bad_kind = 1;
		return 0;
	}
	*span = ((size - n) >> __builtin_ctzll(n)) + 1;   /* size >= n: the
							     n-byte slots that fit */
	if ((a - *lo) & (n - 1)) {   /* misaligned */
		c->bad_addr = a;
		c->bad_kind = 5;
		return 0;
	}
	return 1;
}

/* Whether instruction in may access [a, a + n): the cached [*lo, *lo +
 * *span) first (ptx_ld_at below), else the search, which sets them; when
 * not, c->bad_* tell where.  An access must also be aligned to its n
 * bytes (a power of two: a vector to its whole width) from the start of
 * its region, which a GPU aligns (a launch buffer to 256 bytes): else
 * the hardware faults (bad_kind 5). */
static inline __attribute__((always_inline)) int
ptx_access_ok(struct ptx_ctx *c, const struct ptx_insn *in, uint64_t a,
	      uint64_t n, const unsigned char *lbuf, uint64_t *lo, uint64_t *span)
{
	/* x rotated right by log2(n): x / n when x is a multiple of n, else
	 * above 2^(64 - log2(n)), which no span reaches: one comparison
	 * decides both the bounds and the alignment */
	const unsigned s = (unsigned)__builtin_ctzll(n);
	uint64_t x = a - *lo;
	if (((x >> s) | (x << ((64 - s) & 63))) < *span)
		return 1;
	return ptx_access_find(c, in->op, a, n, lbuf, lo, span);
}

/* ld (all spaces): dst and src[1..] receive aux elements of bits bits.
 * R[k * S] is the thread's register k (S: the lane stride of a batch),
 * lbuf its local buffer.  *lo, *span: where this instruction's accesses
 * may start, *lo plus a multiple of the access's n bytes below *span * n
 * (span 0: nowhere yet), tried before the search and set from the region
 * found (its n-byte slots that fit), so that a caller running the same
 * instruction again (the
 * native code's threads, src/exec/native/) decides with one comparison; a
 * region found for this instruction's op is one the same op may touch at
 * any address inside.  Always inlined: with in a constant, the compiler
 * reduces it to the check and the access. */
static inline __attribute__((always_inline)) int
ptx_ld_at(struct ptx_ctx *c, const struct ptx_insn *in,
			    uint64_t *R, size_t S, const unsigned char *lbuf,
			    uint64_t *lo, uint64_t *span)
{
	uint64_t bytes = in->bits / 8 ? in->bits / 8 : 1;
	uint64_t a = R[in->src[0] * S] + (uint64_t)in->off, n = bytes * in->aux;
	if (!ptx_access_ok(c, in, a, n, lbuf, lo, span))
		return UB_RUNTIME;
	const unsigned char *p = (const unsigned char *)(uintptr_t)a;
	for (int i = 0; i < in->aux; i++) {
		uint64_t v = 0;
		memcpy(&v, p + i * bytes, bytes);   /* little-endian host */
		if (in->flags & PTX_F_SEXT)
			v = (uint64_t)ptx_sext(v, in->bits) & ptx_mask(in->rbits);
		R[(i ? in->src[i] : in->dst) * S] = v;
	}
	return 0;
}

static inline __attribute__((always_inline)) int
ptx_st_at(struct ptx_ctx *c, const struct ptx_insn *in,
			    const uint64_t *R, size_t S, const unsigned char *lbuf,
			    uint64_t *lo, uint64_t *span)
{
	uint64_t bytes = in->bits / 8 ? in->bits / 8 : 1;
	uint64_t a = R[in->src[0] * S] + (uint64_t)in->off, n = bytes * in->aux;
	if (!ptx_access_ok(c, in, a, n, lbuf, lo, span))
		return UB_RUNTIME;
	unsigned char *p = (unsigned char *)(uintptr_t)a;
	for (int i = 0; i < in->aux; i++) {
		uint64_t v = R[(i ? in->src[i] : in->dst) * S];
		memcpy(p + i * bytes, &v, bytes);
	}
	return 0;
}

static inline int ptx_ld(struct ptx_ctx *c, const struct ptx_insn *in,
			 uint64_t *R, size_t S, const unsigned char *lbuf)
{
	uint64_t lo = 0, span = 0;
	return ptx_ld_at(c, in, R, S, lbuf, &lo, &span);
}

static inline int ptx_st(struct ptx_ctx *c, const struct ptx_insn *in,
			 const uint64_t *R, size_t S, const unsigned char *lbuf)
{
	uint64_t lo = 0, span = 0;
	return ptx_st_at(c, in, R, S, lbuf, &lo, &span);
}

/* Device assert and printf (ptx_builtin.c), for the thread whose
 * registers are R[k * S] and local memory lbuf: the message of a failed
 * assert (ASSERTFAIL) into buf; a PRINTF's text, after the thread, kept
 * in c->pf while whole lines fit (the run's ptx_run_info gives them), its
 * result stored. */
void ptx_assert_message(const struct ptx_ctx *c, const struct ptx_insn *in,
			const uint64_t *R, size_t S, const unsigned char *lbuf,
			char *buf, size_t len);
void ptx_printf(struct ptx_ctx *c, const struct ptx_insn *in, const uint64_t *R,
		size_t S, const unsigned char *lbuf);

/* Runs the current frame's function to ret/exit.  0, or UB_RUNTIME with
 * c->bad_* set (by the innermost frame that failed). */
int ptx_run_frame(struct ptx_ctx *c);

/* c->chk's checks of a global ld/st (st: 1) of the running thread
 * (ptx_exec.c): 0, or UB_RUNTIME with c->bad_kind 4. */
int ptx_exec_checked(struct ptx_ctx *c, const struct ptx_insn *in,
		     const uint64_t *R, int st);

#endif

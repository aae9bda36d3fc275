/* ptx_block.h — the block executor: the threads of one block run
 * together, in warps of 32 with SIMT semantics, for kernels that use
 * .shared memory, barriers, warp-level instructions or atomics
 * (ptx_func.block_level), and for kernels whose memory must be tracked
 * (ptx_run.c), with the checks of ptx_check.h.  ptx_block.c walks the grid block by block and
 * schedules the warps of a block; ptx_warp.c steps one warp; the warp
 * collectives (shfl, vote, match, redux, elect) and the atomics are in
 * ptx_warp_ops.c. */
#ifndef UB_PTX_BLOCK_H
#define UB_PTX_BLOCK_H

#include "ptx_check.h"

#define PTX_WARP 32

/* One warp: every lane has its own pc (the smallest pc among the lanes
 * that can run goes next, with every lane at it: lanes that branched
 * apart meet again where the paths join). */
struct ptx_warp {
	uint64_t *R;             /* lane l's slot s: R[s * PTX_WARP + l] */
	uint32_t pc[PTX_WARP];
	uint32_t barpc[PTX_WARP];  /* the barrier a waiting lane is at */
	uint32_t live;           /* lanes that exist and have not exited */
	uint32_t wait;           /* lanes waiting at a barrier */
	uint64_t steps;          /* instructions run (the budget) */
	int yielded;             /* stopped before the atomic at its pc to
				    let another warp go first */
};

/* One block as it runs. */
struct ptx_blk {
	struct ptx_ctx *c;
	const struct ptx_func *f;
	unsigned nthreads, nwarps;
	struct ptx_warp *w;
	unsigned char *local;    /* thread t's .local: local + t * local_size */
	unsigned char *shared;   /* the block's .shared memory */
	uint64_t shared_size;
	uint64_t rng;            /* --atomic-order seed=S; 0: the default */
	struct ptx_async *as;    /* queued cp.async copies (ptx_async.c) */
	uint64_t unmarked, fused, amask, insns;
	int float_atomics;       /* a float atom/red add ran */
	uint64_t block;          /* the running block's index in grid order */
	const struct ptx_buffer *bufs;   /* the launch's, for messages */
	int nbufs;
	struct ptx_chk chk;      /* initcheck, racecheck (ptx_check.h) */
	/* a failure: the thread (index in the block), and a whole message
	 * when the failure is one of the block's (a barrier, a mask, a
	 * .shared access), else c->bad_* as for a thread */
	unsigned bad_thread;
	char msg[800];
};

/* Runs warp wi until none of its lanes can go on (all exited or waiting
 * at a barrier): 0; or, with an atomic order seed, 1 when it stops
 * before an atomic so that another warp may go first; UB_RUNTIME on a
 * failure (b->bad_thread, and b->msg or c->bad_*). */
int ptx_warp_run(struct ptx_blk *b, unsigned wi);

/* Warp collectives and atomics on the lanes in g of warp w at
 * instruction in (ptx_warp_ops.c): 0, or UB_RUNTIME with the failure
 * set in b. */
int ptx_warp_collective(struct ptx_blk *b, struct ptx_warp *w,
			const struct ptx_insn *in, uint32_t g, uint32_t act);
int ptx_warp_atomic(struct ptx_blk *b, struct ptx_warp *w,
		    const struct ptx_insn *in, uint32_t g, unsigned wi);

/* cp.async and mbarrier (ptx_async.c): the block's queue of copies
 * (alloc: 0 or -1, out of memory; reset at each block's start); a
 * CP_ASYNC, CP_COMMIT, CP_WAIT or MBARRIER of the lanes in g of warp wi
 * (0, or UB_RUNTIME with the failure set); the mbarrier waits (test_wait,
 * try_wait): the lanes of g whose phase is not complete into *held, the
 * others' predicate set; whether lane l of warp wi, held at in, may run
 * it again; the lanes of g exiting (their copies complete). */
struct ptx_async;
int ptx_async_alloc(struct ptx_blk *b);
void ptx_async_free(struct ptx_blk *b);
void ptx_async_reset(struct ptx_blk *b);
int ptx_async_step(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		   uint32_t g);
int ptx_mbar_is_wait(const struct ptx_insn *in);
int ptx_mbar_wait(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		  uint32_t g, uint32_t *held);
int ptx_mbar_ready(struct ptx_blk *b, unsigned wi, unsigned l,
		   const struct ptx_insn *in);
void ptx_async_exit(struct ptx_blk *b, unsigned wi, uint32_t g);

/* "ptx: kernel 'k': ..." into b->msg, for thread t of the block. */
int ptx_blk_fail(struct ptx_blk *b, unsigned t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The next pseudo-random number of the atomic order (splitmix64). */
uint64_t ptx_blk_rand(struct ptx_blk *b);

/* A shared or generic address of n bytes: the host pointer, or NULL
 * when it is outside the block's .shared memory. */
static inline unsigned char *ptx_shared_at(const struct ptx_blk *b,
					   uint64_t off, uint64_t n)
{
	return fits(0, b->shared_size, off, n) ? b->shared + off : NULL;
}

/* Runs the grid of c's kernel block by block (ptx_run.c, for a
 * block-level kernel).  0; 1 when a thread failed as a thread does (bad
 * address, budget: c->bad_*; blk, tid name it); 2 when err holds the
 * whole message; -1 out of memory. */
int ptx_block_grid(struct ptx_ctx *c, const struct ptx_module *m,
		   const struct ptx_launch *l, unsigned *blk, unsigned *tid,
		   struct ptx_run_info *info, struct ub_error *err);

/* The check of an access of n bytes at byte off of memory `space`
 * (".shared memory", "input 'x'": offsets from the start of a buffer,
 * which a GPU allocates 256-aligned): aligned to n (the hardware faults
 * otherwise; a vector access to its whole width), else a failure of
 * thread t naming it. */
int ptx_blk_aligned(struct ptx_blk *b, const struct ptx_insn *in, uint64_t off,
		    uint64_t n, const char *space, unsigned t);

#endif

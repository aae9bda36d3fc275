/* ptx_check.h — what the simulator checks while a kernel runs, beyond
 * the bounds of every access (docs/block-kernels.md, "Checks"):
 *
 * initcheck: a read of memory that nothing wrote is an error naming the
 *   array (a launch buffer that starts unwritten: an output; the
 *   block's .shared memory; a thread's .local memory), the element, the
 *   instruction with its PTX and source lines, and what to do.  Shared
 *   and local memory start poisoned (all ones), never zero.
 * racecheck: two accesses to one byte of .shared memory or one element
 *   of a tracked launch buffer by different threads of a block, at least
 *   one a write that changes what memory holds, with neither ordered
 *   before the other, are a hazard (read after write, write after read,
 *   write after write).  Order comes from happens-before, never from the
 *   schedule that ran: a barrier (bar.sync) ends an epoch of the block,
 *   and within one, two lanes of a warp are ordered by a bar.warp.sync
 *   (__syncwarp) that both took part in, after the first access and
 *   before the second (vector clocks of the warp's lanes).  Atomics are
 *   not races and take no part; accesses of different blocks are not
 *   compared.  Hazards do not stop the run: they are counted (distinct
 *   pairs of instructions and kinds, up to PTX_CHK_MAX_PAIRS) and the
 *   first is described with both threads and both lines.  Of a granule
 *   the record keeps the last write and two reads since (the epoch's
 *   first reader and its last other one), so a read between those two
 *   by a third thread is not compared with a later write.
 *
 * Granules: .shared and .local memory are tracked per byte, a launch
 * buffer per element (struct ptx_bufcheck.elem bytes). */
#ifndef UB_PTX_CHECK_H
#define UB_PTX_CHECK_H

#include "ptx_exec.h"

#define PTX_CHK_MAX_BUFS 16
#define PTX_CHK_MAX_PAIRS 64   /* distinct hazards kept to count them */

/* What a granule of tracked memory has seen in the current launch. */
enum { PTX_INIT_READABLE = 1, PTX_INIT_WRITTEN = 2 };

/* The last write of a granule and up to two reads since (the first
 * reader of the epoch and the last other one): epoch, the thread (in the
 * block), its warp clock, the instruction. */
struct ptx_rec {
	uint32_t wep, rep;
	uint32_t wclk, rclk[2];
	uint32_t wpc, rpc[2];
	uint16_t wt, rt[2];
};

/* One tracked region of memory. */
struct ptx_shadow {
	uint64_t lo, size;       /* host addresses (a buffer) or offsets */
	unsigned shift;          /* a granule is 1 << shift bytes */
	uint8_t *init;           /* per granule: PTX_INIT_* */
	struct ptx_rec *rec;     /* per granule; NULL: no racecheck */
	const struct ptx_buffer *buf;  /* a launch buffer, else NULL */
	const struct ptx_bufcheck *bc; /* and how the checks see it */
};

struct ptx_hazard_key {
	uint32_t pc1, pc2;
	int kind;
};

struct ptx_chk {
	int off;                     /* 1: every check does nothing */
	const struct ptx_func *f;
	const struct ptx_module *m;
	struct ptx_shadow bufs[PTX_CHK_MAX_BUFS];
	int nbufs;
	struct ptx_shadow shared;    /* offsets into the block's .shared */
	uint8_t *local_init;         /* per byte of every thread's .local */
	size_t local_size;
	unsigned nthreads, bdim[3], blk[3];
	uint32_t epoch;
	uint32_t *vc;                /* per warp 32 x 32 lane clocks */
	uint8_t *vc_live;            /* per warp: its clocks are in use */
	uint64_t hazards;
	struct ptx_hazard_key seen[PTX_CHK_MAX_PAIRS];
	int nseen;
	char first[512];             /* the first hazard, described */
	char msg[640];               /* an initcheck failure, described */
};

/* Sets k up for a launch of f with the regions of l: every writable
 * buffer is tracked (its start from bc, NULL: written), shared memory of
 * shared_size bytes and .local of local_size bytes per thread for
 * nthreads threads a block.  0, or -1 out of memory. */
int ptx_chk_init(struct ptx_chk *k, const struct ptx_module *m,
		 const struct ptx_func *f, const struct ptx_launch *l,
		 const struct ptx_bufcheck *bc, uint64_t shared_size,
		 size_t local_size);
void ptx_chk_free(struct ptx_chk *k);

/* A block starts: .shared and .local unwritten, a new epoch. */
void ptx_chk_block(struct ptx_chk *k, const unsigned *blk);
/* A barrier released the block: a new epoch. */
void ptx_chk_barrier(struct ptx_chk *k);
/* bar.warp.sync of warp wi's lanes in mask completed. */
void ptx_chk_syncwarp(struct ptx_chk *k, unsigned wi, uint32_t mask);

/* Kinds of access. */
enum { PTX_CHK_READ, PTX_CHK_WRITE, PTX_CHK_ATOM };

/* An access of n bytes at host address a by thread t (of the block) at
 * instruction pc; p: for a write, the bytes it stores (a write of what
 * memory holds already cannot race).  Not a tracked buffer: nothing to
 * do.  0, or UB_RUNTIME with k->msg (a read of what nothing wrote). */
int ptx_chk_global(struct ptx_chk *k, uint64_t a, uint64_t n, int kind,
		   unsigned t, uint32_t pc, const void *p);
/* The same at offset off of the block's .shared memory. */
int ptx_chk_shared(struct ptx_chk *k, uint64_t off, uint64_t n, int kind,
		   unsigned t, uint32_t pc, const void *p, const void *mem);
/* The same at offset off of thread t's .local memory (no races). */
int ptx_chk_local(struct ptx_chk *k, uint64_t off, uint64_t n, int kind,
		  unsigned t, uint32_t pc);

/* After the launch: how many elements of launch buffer b (tracked: a
 * writable one) the kernel never wrote, and the first into *first. */
size_t ptx_chk_unwritten(const struct ptx_chk *k, const struct ptx_buffer *b,
			 size_t *first);

#endif

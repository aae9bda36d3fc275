/* ptx_batch.h — the lane-batched executor (ptx_batch.c), for ptx_run.c. */
#ifndef UB_PTX_BATCH_H
#define UB_PTX_BATCH_H

#include "ptx_exec.h"

/* Threads run together by ptx_batch_run: one bit each in a uint64_t. */
#define PTX_LANES 64

/* The most register slots of a kernel run batched: a batch holds
 * PTX_LANES of each (8 MiB at this bound, per thread of ulpbench); a
 * kernel with more (none that NVRTC makes of an elementwise kernel has
 * near as many) runs thread by thread, with the same results. */
#define PTX_BATCH_MAX_SLOTS (1u << 14)

/* Can f run batched?  (No calls, at most PTX_BATCH_MAX_SLOTS slots.) */
int ptx_batchable(const struct ptx_func *f);

/* Runs the lanes in `live` of c->fr's function to ret/exit.  R holds
 * PTX_LANES columns per slot (lane l's slot s at R[s * PTX_LANES + l]),
 * the special registers set per lane.  0, with the counters of c added;
 * Instructions marked in `uniform` are counted, not run.
 * UB_RUNTIME when a lane failed or ran past the budget (then nothing is
 * added and the batch is to be rerun thread by thread for the message). */
int ptx_batch_run(struct ptx_ctx *c, uint64_t *R, uint64_t live,
		  const uint8_t *uniform);

/* Per instruction of f: 1 if it computes the same value in every thread
 * of a launch (ptx_uniform.c).  malloc'd; NULL: out of memory. */
uint8_t *ptx_uniform_insns(const struct ptx_func *f);

/* Computes the uniform instructions into every lane's registers, once
 * per launch, before any batch runs (ptx_batch_run then skips them).
 * 0, or UB_RUNTIME (a bad ld.param address). */
int ptx_batch_prepare(struct ptx_ctx *c, uint64_t *R, const uint8_t *uniform);

#endif

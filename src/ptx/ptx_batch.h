/* ptx_batch.h — the lane-batched executor (ptx_batch.c), for ptx_run.c. */
#ifndef UB_PTX_BATCH_H
#define UB_PTX_BATCH_H

#include "ptx_exec.h"

/* Threads run together by ptx_batch_run: one bit each in a uint64_t. */
#define PTX_LANES 64

/* Can f run batched?  (No calls, no .local memory.) */
int ptx_batchable(const struct ptx_func *f);

/* Runs the lanes in `live` of c->fr's function to ret/exit.  R holds
 * PTX_LANES columns per slot (lane l's slot s at R[s * PTX_LANES + l]),
 * the special registers set per lane.  0, with the counters of c added;
 * UB_RUNTIME when a lane failed or ran past the budget (then nothing is
 * added and the batch is to be rerun thread by thread for the message). */
int ptx_batch_run(struct ptx_ctx *c, uint64_t *R, uint64_t live);

#endif

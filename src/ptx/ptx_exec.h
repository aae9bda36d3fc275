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
 * reused by every thread and call (PTX registers and local memory start
 * undefined, so nothing can rely on what an earlier use left). */
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
	uint64_t insns, unmarked, fused, amask, budget;
	const struct ptx_trace *trace; /* NULL unless explain traces */
	const struct ptx_func *bad_f; /* where the run failed, */
	uint32_t bad_pc;              /* at which instruction */
	uint64_t bad_addr;
	int bad_kind;    /* 1 out of bounds, 2 budget exceeded, 3 recursion */
};

/* Runs the current frame's function to ret/exit.  0, or UB_RUNTIME with
 * c->bad_* set (by the innermost frame that failed). */
int ptx_run_frame(struct ptx_ctx *c);

#endif

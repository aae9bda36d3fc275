/* ptx_native.h — how the interpreter runs a kernel translated to native
 * code (src/exec/native/): the one call between them.  A translated
 * kernel is compiled against this header (and the headers it includes),
 * so the layout below is the same on both sides. */
#ifndef UB_PTX_NATIVE_H
#define UB_PTX_NATIVE_H

#include "ptx_exec.h"

/* One launch, set up by ptx_run.c as for the interpreter: c's kernel
 * frame holds the parameters (its .param buffer), the initial registers
 * (symbol addresses patched in), the thread's .local buffer; c->rg the
 * regions ld/st may touch; c->budget the instruction budget of a thread.
 * The kernel runs every thread of the grid in grid order, each as the
 * thread-by-thread executor would (ptx_exec.c), and adds what they ran to
 * the counters.  When a thread fails (a bad address, the budget), it stops
 * there and returns 1 with `bad` that thread's index in grid order: the
 * threads before it are done, and ptx_run.c runs the rest on the
 * interpreter, which stops at the same thread with its message. */
struct ptx_native_args {
	struct ptx_ctx *c;
	const unsigned *grid, *block;
	uint64_t insns, unmarked, fused, amask;  /* added by the kernel */
	uint64_t bad;
};

/* Every translated unit defines ub_native_abi (this string) and
 * ub_native_sizes (these sizes, as its compiler saw the structures); the
 * loader refuses a unit whose values differ from its own. */
#define PTX_NATIVE_ABI "ulpbench-native 1"
#define PTX_NATIVE_SIZES                                                  \
	{ sizeof(struct ptx_ctx), sizeof(struct ptx_frame),                \
	  sizeof(struct ptx_func), sizeof(struct ptx_region),              \
	  sizeof(struct ptx_insn), sizeof(struct ptx_native_args) }

#endif

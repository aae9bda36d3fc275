/* ptx_trace.h — building the events of a traced run (ptx.h: struct
 * ptx_trace), for ptx_exec.c.  Nothing here runs unless a launch asks for
 * a trace. */
#ifndef UB_PTX_TRACE_H
#define UB_PTX_TRACE_H

#include "ptx_internal.h"

/* One byte per instruction of f: 1 if it is traced (its mnemonic names a
 * float type and it computes: not ld/st/mov).  malloc'd; NULL: no memory. */
uint8_t *ptx_trace_marks(const struct ptx_func *f);

/* Before a traced instruction runs: its text, line and operands. */
void ptx_trace_before(const struct ptx_func *f, const struct ptx_insn *in,
		      const uint64_t *R, struct ptx_trace_event *ev);
/* After it ran: its result and thread, then the callback. */
void ptx_trace_after(const struct ptx_trace *t, const struct ptx_func *f,
		     const struct ptx_insn *in, const uint64_t *R,
		     struct ptx_trace_event *ev);

#endif

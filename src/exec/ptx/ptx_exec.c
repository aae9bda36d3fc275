/* ptx_exec.c — runs one thread through a decoded function (ptx_run.c
 * sets the launch up and walks the grid).
 *
 * The hot loop reads compact instructions (ptx_internal.h) and a uint64_t
 * register file; it never sees a string.  Dispatch goes through the macros
 * vmdispatch/vmcase/vmbreak (as in Lua's lvm.c) so that a computed-goto
 * variant can replace the switch without touching the cases.  Each case is
 * a few lines calling exact helpers (ptx_num.h, ptx_int.h) or, for
 * directed rounding, approximate instructions and conversions, functions
 * of ptx_float.c, ptx_cvt.c, ptx_half.c and ptx_set.c.
 *
 * Memory: global addresses are host addresses; every ld/st.global is
 * checked against the launch's buffers (st: writable ones) and the
 * module's .global/.const arrays (read-only); .local is the running
 * function's local buffer; .param its parameter buffer (a kernel's
 * arguments, a .func's arguments and return value) or a call site's
 * .param variable (declared in the caller's body, kept in its local
 * buffer).  A bad access stops the run with a message naming the
 * instruction and its line, and so does a thread that runs more than the
 * instruction budget (counted over the thread's calls too, checked at
 * every branch).  `call` runs the .func in its own frame (do_call);
 * device assert and printf are ptx_builtin.c's. */
#include "ptx_check.h"
#include "ptx_trace.h"
#include "ptx_cases.h"

#include <stdlib.h>

#define vmdispatch(o) switch (o)
#define vmcase(l) case PTX_##l:
#define vmbreak break

#define ctx ptx_ctx
#define REG(s) R[s]

/* call: a .func runs in its own frame; the caller's call-site .param
 * variables (in its local buffer) give the arguments and take the return
 * value, byte for byte at the callee's .param layout. */
static int do_call(struct ctx *c, const struct ptx_insn *in)
{
	struct ptx_frame *caller = c->fr;
	const struct ptx_call *cs = &caller->f->calls[in->off];
	struct ptx_frame *callee = &c->frames[cs->func];
	const struct ptx_func *g = callee->f;
	if (callee->active) {
		c->bad_kind = 3;
		return UB_RUNTIME;
	}
	ptx_frame_reset(callee);   /* every call starts afresh */
	memset(callee->param, 0, g->param_size);
	memcpy(callee->R + PTX_SLOT_SREG, caller->R + PTX_SLOT_SREG,
	       PTX_NSREGS * sizeof *callee->R);
	for (int k = 0; k <= cs->nargs; k++) {
		int ret = k == cs->nargs;   /* the return value last: checked only */
		if (ret && !cs->has_ret)
			break;
		const struct ptx_param *p = &g->params[ret ? 0 : g->nret + k];
		uint64_t a = caller->R[ret ? cs->ret : cs->args[k]];
		if (!in_local(caller, a, p->size)) {
			c->bad_addr = a;
			c->bad_kind = 1;
			return UB_RUNTIME;
		}
		if (!ret)
			memcpy(callee->param + p->offset, (void *)(uintptr_t)a, p->size);
	}
	callee->active = 1;
	c->fr = callee;
	int rc = ptx_run_frame(c);
	c->fr = caller;
	callee->active = 0;
	if (!rc && cs->has_ret)
		memcpy((void *)(uintptr_t)caller->R[cs->ret],
		       callee->param + g->params[0].offset, g->params[0].size);
	return rc;
}

/* Runs the current frame's function.  Instantiated twice (ptx_run_frame):
 * `tracing` is a constant, so the untraced copy carries no trace code. */
static inline __attribute__((always_inline)) int
run_frame_body(struct ctx *c, const int tracing)
{
	struct ptx_trace_event ev;
	const struct ptx_insn *code = c->fr->f->code, *pc = code, *in;
	const uint8_t *traced = c->fr->traced;
	uint64_t *R = c->fr->R, n = 0, unmarked = 0, amask = 0, fused = 0;
	int rc = 0;
	for (;;) {
		in = pc++;
		if (!((R[in->guard] ^ in->gneg) & 1))
			continue;
		n++;
		if (tracing && traced && traced[in - code])
			ptx_trace_before(c->fr->f, in, R, &ev);
		vmdispatch(in->op) {
#define X(op, ...) vmcase(op) { __VA_ARGS__ } vmbreak;
		PTX_REG_CASES(X)
#undef X
		vmcase(LD_PARAM) vmcase(LD_GLOBAL) vmcase(LD_LOCAL) vmcase(LD_GENERIC)
			if ((c->chk && (rc = ptx_exec_checked(c, in, R, 0)) != 0) ||
			    (rc = ptx_ld(c, in, R, 1, c->fr->local)) != 0)
				goto out;
			vmbreak;
		vmcase(ST_GLOBAL) vmcase(ST_LOCAL) vmcase(ST_GENERIC) vmcase(ST_PARAM)
			if ((c->chk && (rc = ptx_exec_checked(c, in, R, 1)) != 0) ||
			    (rc = ptx_st(c, in, R, 1, c->fr->local)) != 0)
				goto out;
			vmbreak;
		vmcase(BRA)
			pc = code + in->off;
			if (c->tinsns + n > c->budget) {   /* the whole thread */
				c->bad_kind = 2;
				rc = UB_RUNTIME;
				goto out;
			}
			vmbreak;
		vmcase(CALL)
			c->tinsns += n;   /* the callee counts on from here */
			c->insns += n;
			n = 0;
			if ((rc = do_call(c, in)) != 0)
				goto out;
			vmbreak;
		vmcase(TRAP)
			c->bad_kind = 7;
			rc = UB_RUNTIME;
			goto out;
		vmcase(ASSERTFAIL)
			ptx_assert_message(c, in, R, 1, c->fr->local, c->bad_msg,
					   sizeof c->bad_msg);
			c->bad_kind = 6;
			rc = UB_RUNTIME;
			goto out;
		vmcase(CLOCK)
			R[in->dst] = (c->insns + n) & ptx_mask(in->bits);
			vmbreak;
		vmcase(PRINTF)
			ptx_printf(c, in, R, 1, c->fr->local);
			vmbreak;
		vmcase(RET) vmcase(EXIT) goto out;
		default: vmbreak;
		}
		if (tracing && traced && traced[in - code])
			ptx_trace_after(c->trace, c->fr->f, in, R, &ev);
	}
out:
	if (rc && !c->bad_f) {   /* the innermost frame names the place */
		c->bad_f = c->fr->f;
		c->bad_pc = (uint32_t)(in - code);
	}
	c->insns += n;
	c->tinsns += n;
	c->unmarked += unmarked;
	c->fused += fused;
	c->amask |= amask;
	return rc;
}

int ptx_exec_checked(struct ctx *c, const struct ptx_insn *in,
		     const uint64_t *R, int st)
{
	uint64_t bytes = in->bits / 8 ? in->bits / 8 : 1, n = bytes * in->aux, lo, size;
	uint64_t a = R[in->src[0]] + (uint64_t)in->off;
	unsigned char val[32];
	if ((in->op != PTX_LD_GLOBAL && in->op != PTX_LD_GENERIC &&
	     in->op != PTX_ST_GLOBAL && in->op != PTX_ST_GENERIC) || n > sizeof val ||
	    !ptx_mem_region(c, in->op, a, n, c->fr->local, &lo, &size) ||
	    in_local(c->fr, a, n))
		return 0;   /* not a launch buffer's (out of bounds: ptx_ld says) */
	for (int i = 0; st && i < in->aux; i++) {
		uint64_t v = R[i ? in->src[i] : in->dst];
		memcpy(val + i * bytes, &v, bytes);
	}
	c->chk->f = c->fr->f;   /* its lines name this function's */
	if (!ptx_chk_global(c->chk, a, n, st ? PTX_CHK_WRITE : PTX_CHK_READ,
			    c->chk_t, (uint32_t)(in - c->fr->f->code), val))
		return 0;
	c->bad_kind = 4;
	return UB_RUNTIME;
}

int ptx_run_frame(struct ctx *c)
{
	return c->trace ? run_frame_body(c, 1) : run_frame_body(c, 0);
}


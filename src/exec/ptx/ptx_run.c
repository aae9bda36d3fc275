/* ptx_run.c — one kernel launch on the interpreter: a frame per function
 * of the module (registers with their initial values, local and .param
 * buffers, addresses of local and .param symbols patched in), the kernel
 * arguments laid out at their .param offsets, the memory regions the
 * kernel may touch, then every thread of the grid in order (blocks in x,
 * y, z order, threads within a block likewise), each run by ptx_exec.c.
 * The host's rounding mode is set to nearest for the run and restored. */
#include "ptx_batch.h"
#include "ptx_block.h"
#include "ptx_native.h"
#include "ptx_trace.h"

#include <fenv.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

uint64_t ptx_budget(const struct ptx_module *m)
{
	uint64_t n = 0;
	for (int i = 0; i < m->nfuncs; i++)
		n += m->funcs[i].ncode;
	/* fewer than 2^31 functions of under 2^26 instructions: n does not
	   wrap; counted up to 2^24, the budget stays under 2^41 */
	return PTX_BUDGET_BASE + (n < (1ull << 24) ? n : 1ull << 24) * PTX_BUDGET_PER_INSN;
}

const char *ptx_approx_name(int kind)
{
	static const char *const names[] = {
#define X(id, name) name,
		PTX_APPROX_KINDS(X)
#undef X
	};
	return kind >= 0 && kind < PTX_AX_COUNT ? names[kind] : "?";
}

/* The kernel (.entry) named entry: its index, or -1 with a message. */
static int find_entry(const struct ptx_module *m, const char *entry,
		      struct ub_error *err)
{
	char list[512] = "";
	int any = 0;
	for (int i = 0; i < m->nfuncs; i++)
		if (m->funcs[i].is_entry && !strcmp(m->funcs[i].name, entry))
			return i;
	for (int i = 0; i < m->nfuncs; i++) {
		size_t l = strlen(list);
		if (m->funcs[i].is_entry)
			snprintf(list + l, sizeof list - l, "%s%s", any++ ? ", " : "",
				 m->funcs[i].name);
	}
	ub_fail(err, UB_RUNTIME, "ptx: no kernel '%s' in the module (kernels: %s)",
		entry, any ? list : "none");
	return -1;
}

/* Lays the arguments out at their .param offsets. */
static int make_params(const struct ptx_func *f, const struct ptx_launch *l,
		       unsigned char *buf, struct ub_error *err)
{
	if (l->nargs != f->nparams)
		return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' takes %d "
			       "parameters, the launch gives %d", f->name,
			       f->nparams, l->nargs);
	for (int i = 0; i < f->nparams; i++) {
		const struct ptx_param *p = &f->params[i];
		if (p->size > 8)
			return ub_fail(err, UB_RUNTIME, "ptx: parameter '%s' of %u "
				       "bytes is not supported", p->name, p->size);
		memcpy(buf + p->offset, &l->args[i], p->size);  /* little endian */
	}
	return 0;
}

/* The special registers of thread (blk, tid): S[k * stride] is %tid.x.. */
static void thread_regs(uint64_t *S, size_t stride, const unsigned *blk,
			const unsigned *tid, const unsigned *bdim)
{
	unsigned lin = tid[0] + bdim[0] * (tid[1] + bdim[1] * tid[2]);
	for (int k = 0; k < 3; k++) {
		S[(PTX_SR_TID_X + k) * stride] = tid[k];
		S[(PTX_SR_CTAID_X + k) * stride] = blk[k];
	}
	S[PTX_SR_LANEID * stride] = lin % 32;
	S[PTX_SR_WARPID * stride] = lin / 32;
}

/* How many threads the grid has. */
static uint64_t grid_threads(const struct ptx_launch *l)
{
	const unsigned *g = l->grid, *b = l->block;
	return (uint64_t)g[0] * g[1] * g[2] * b[0] * b[1] * b[2];
}

/* The index in grid order of thread (blk, tid): the inverse of coords. */
static uint64_t linear_index(const struct ptx_launch *l, const unsigned *blk,
			     const unsigned *tid)
{
	const unsigned *g = l->grid, *b = l->block;
	return (((uint64_t)blk[2] * g[1] + blk[1]) * g[0] + blk[0]) *
	       ((uint64_t)b[0] * b[1] * b[2]) +
	       ((uint64_t)tid[2] * b[1] + tid[1]) * b[0] + tid[0];
}

/* Block and thread coordinates of the t-th thread in grid order. */
static void coords(const struct ptx_launch *l, uint64_t t, unsigned *blk,
		   unsigned *tid)
{
	const unsigned *g = l->grid, *b = l->block;
	uint64_t tb = (uint64_t)b[0] * b[1] * b[2], bl = t / tb, tl = t % tb;
	tid[0] = (unsigned)(tl % b[0]);
	tid[1] = (unsigned)(tl / b[0] % b[1]);
	tid[2] = (unsigned)(tl / b[0] / b[1]);
	blk[0] = (unsigned)(bl % g[0]);
	blk[1] = (unsigned)(bl / g[0] % g[1]);
	blk[2] = (unsigned)(bl / g[0] / g[1]);
}

/* The coordinates of the next thread in grid order. */
static void next_coords(const struct ptx_launch *l, unsigned *blk, unsigned *tid)
{
	for (int k = 0; k < 3; k++) {
		if (++tid[k] < l->block[k])
			return;
		tid[k] = 0;
	}
	for (int k = 0; k < 3; k++) {
		if (++blk[k] < l->grid[k])
			return;
		blk[k] = 0;
	}
}

/* Threads first .. first + count - 1 in grid order, one after another;
 * stops at the first failure, blk and tid then naming that thread. */
static int run_threads(struct ptx_ctx *c, const struct ptx_launch *l,
		       uint64_t first, uint64_t count, unsigned *blk,
		       unsigned *tid)
{
	uint64_t *S = c->fr->R + PTX_SLOT_SREG;   /* the kernel's frame */
	coords(l, first, blk, tid);
	for (uint64_t k = 0; k < count; k++, next_coords(l, blk, tid)) {
		ptx_frame_reset(c->fr);
		c->tinsns = 0;
		c->chk_t = tid[0] + l->block[0] * (tid[1] + l->block[1] * tid[2]);
		if (c->chk && (!c->chk_t || !k))
			ptx_chk_block(c->chk, blk);
		thread_regs(S, 1, blk, tid, l->block);
		if (ptx_run_frame(c))
			return UB_RUNTIME;
	}
	return 0;
}

/* The special registers of the nl threads from (blk, tid) on, one
 * column of PTX_LANES per register from S.  When the batch lies in one
 * row of a block (the launches of sim.c), only %tid.x, %laneid and
 * %warpid vary, by one thread per lane. */
static void batch_regs(uint64_t *S, unsigned nl, const struct ptx_launch *l,
		       unsigned *blk, unsigned *tid)
{
	const unsigned *b = l->block;
	if (b[1] * b[2] == 1 && tid[0] + nl <= b[0]) {
		uint64_t *x = S + PTX_SR_TID_X * PTX_LANES, *ca = S + PTX_SR_CTAID_X * PTX_LANES,
			 *y = S + PTX_SR_TID_Y * PTX_LANES, *z = S + PTX_SR_TID_Z * PTX_LANES,
			 *la = S + PTX_SR_LANEID * PTX_LANES, *wa = S + PTX_SR_WARPID * PTX_LANES;
		for (unsigned k = 0; k < nl; k++) {
			x[k] = tid[0] + k;
			y[k] = z[k] = 0;
			la[k] = (tid[0] + k) % 32;
			wa[k] = (tid[0] + k) / 32;
			for (int d = 0; d < 3; d++)
				ca[d * PTX_LANES + k] = blk[d];
		}
		return;
	}
	for (unsigned k = 0; k < nl; k++, next_coords(l, blk, tid))
		thread_regs(S + k, PTX_LANES, blk, tid, b);
}

/* Every lane of a batch starts as a thread does (ptx_frame_reset). */
static void batch_reset(const struct ptx_func *f, uint64_t *R,
			unsigned char *lanes_local)
{
	for (uint32_t i = 0; i < f->nreset; i++) {
		uint32_t s = f->reset[i];
		for (unsigned k = 0; k < PTX_LANES; k++)
			R[(size_t)s * PTX_LANES + k] = f->init[s];
	}
	memset(lanes_local, 0, PTX_LANES * f->local_size);
}

/* The grid in batches of PTX_LANES threads (ptx_batch.c), in grid order.
 * A batch that fails is rerun thread by thread, which stops at the first
 * failing thread with its message (blk, tid: where). */
static int run_batched(struct ptx_ctx *c, const struct ptx_launch *l,
		       unsigned *blk, unsigned *tid)
{
	struct ptx_frame *kernel = c->fr;
	uint32_t ns = kernel->f->nslots;
	uint64_t *R = malloc((size_t)ns * PTX_LANES * sizeof *R);
	if (!R)
		return -1;
	for (uint32_t s = 0; s < ns; s++)
		for (unsigned k = 0; k < PTX_LANES; k++)
			R[(size_t)s * PTX_LANES + k] = kernel->R[s];
	const struct ptx_func *f = kernel->f;
	uint8_t *uniform = ptx_uniform_insns(f);
	c->lanes_local = calloc(PTX_LANES, f->local_size + 1u);
	if (!uniform || !c->lanes_local) {
		free(R);
		free(uniform);
		free(c->lanes_local);
		return -1;
	}
	for (int i = 0; i < f->nrelocs; i++)   /* each lane's own .local */
		for (unsigned k = 0; f->relocs[i].space == 'l' && k < PTX_LANES; k++)
			R[(size_t)f->relocs[i].slot * PTX_LANES + k] =
				(uint64_t)(uintptr_t)(c->lanes_local + k * f->local_size) +
				f->relocs[i].offset;
	if (ptx_batch_prepare(c, R, uniform))   /* a bad ld.param: by thread */
		memset(uniform, 0, f->ncode);
	uint64_t total = grid_threads(l);
	int rc = 0;
	for (uint64_t t0 = 0; !rc && t0 < total; t0 += PTX_LANES) {
		unsigned nl = total - t0 < PTX_LANES ? (unsigned)(total - t0) : PTX_LANES;
		coords(l, t0, blk, tid);
		batch_reset(f, R, c->lanes_local);
		batch_regs(R + (size_t)PTX_SLOT_SREG * PTX_LANES, nl, l, blk, tid);
		if (!ptx_batch_run(c, R, nl == 64 ? ~0ull : (1ull << nl) - 1, uniform))
			continue;
		c->bad_kind = 0;
		c->reruns++;
		rc = run_threads(c, l, t0, nl, blk, tid);
	}
	free(R);
	free(uniform);
	free(c->lanes_local);
	c->lanes_local = NULL;
	return rc;
}

/* The grid as native code (ptx_native.h).  A thread that fails there
 * stops it: the threads before it are done, and the rest run thread by
 * thread from it on, which stops at it again with the interpreter's
 * message (blk, tid: where). */
static int run_native(struct ptx_ctx *c, const struct ptx_launch *l,
		      ptx_native_fn fn, unsigned *blk, unsigned *tid)
{
	struct ptx_native_args a = { .c = c, .grid = l->grid, .block = l->block };
	int r = fn(&a);
	c->insns += a.insns;
	c->unmarked += a.unmarked;
	c->fused += a.fused;
	c->amask |= a.amask;
	if (!r)
		return 0;
	c->native_reruns++;
	return run_threads(c, l, a.bad, grid_threads(l) - a.bad, blk, tid);
}

/* "1st", "2nd", ... */
static const char *ordinal(int k, char *buf, size_t len)
{
	static const char *const suf[] = { "th", "st", "nd", "rd" };
	int r = k % 100 >= 11 && k % 100 <= 13 ? 0 : k % 10 <= 3 ? k % 10 : 0;
	snprintf(buf, len, "%d%s", k, suf[r]);
	return buf;
}

/* A bad access that is a store into memory the kernel may only read:
 * what that memory is ("the 1st parameter of 'k' (input 'x': read-only)",
 * "the module's array 'tab' (read-only)") into buf; 0 if it is not one. */
static int read_only_store(const struct ptx_ctx *c, const struct ptx_module *m,
			   const struct ptx_launch *l, char *buf, size_t len)
{
	const struct ptx_func *f = c->bad_f;
	int op = f->code[c->bad_pc].op, j = 0;
	if (op != PTX_ST_GLOBAL && op != PTX_ST_GENERIC && op != PTX_ATOM &&
	    op != PTX_RED)
		return 0;
	while (j < c->nrg && !(c->bad_addr - c->rg[j].lo < c->rg[j].size))
		j++;
	if (j == c->nrg || c->rg[j].writable)
		return 0;
	if (j >= l->nbufs) {
		snprintf(buf, len, "the module's array '%s' (read-only)",
			 m->vars[j - l->nbufs].name);
		return 1;
	}
	const char *name = l->bufs[j].name ? l->bufs[j].name : "an array";
	char nth[16];
	for (int i = 0; i < l->nargs && i < c->fr->f->nparams; i++)
		if (l->args[i] == c->rg[j].lo) {
			snprintf(buf, len, "the %s parameter of '%s' (%s: read-only)",
				 ordinal(i + 1, nth, sizeof nth), c->fr->f->name, name);
			return 1;
		}
	snprintf(buf, len, "%s (read-only)", name);
	return 1;
}

/* A misaligned access (bad_kind 5): which memory, where in it. */
static int misaligned(const struct ptx_ctx *c, const struct ptx_module *m,
		      const struct ptx_launch *l, const unsigned *blk,
		      const unsigned *tid, struct ub_error *err)
{
	const struct ptx_func *f = c->bad_f;
	const struct ptx_insn *in = &f->code[c->bad_pc];
	uint64_t bytes = (in->bits / 8 ? in->bits / 8 : 1) * in->aux, lo = 0, size;
	const unsigned char *lbuf = c->fr->local;
	char what[200] = "memory", src[160] = "";
	ptx_mem_region(c, in->op, c->bad_addr, bytes, lbuf, &lo, &size);
	for (int j = 0; j < c->nrg; j++)
		if (c->rg[j].lo == lo)
			snprintf(what, sizeof what, "%s", j < l->nbufs && l->bufs[j].name ?
				 l->bufs[j].name : j < l->nbufs ? "a launch buffer"
				 : m->vars[j - l->nbufs].name);
	if (ptx_src_line(f, c->bad_pc, src + 2, sizeof src - 3)) {
		src[0] = ' ', src[1] = '(';
		strcat(src, ")");
	}
	return ub_fail(err, UB_RUNTIME, "ptx: misaligned %s at line %u%s: byte 0x%"
		       PRIx64 " of %s is %" PRIu64 " mod %" PRIu64 ", and an access of %"
		       PRIu64 " bytes must be aligned to %" PRIu64 " (on the GPU: a "
		       "misaligned address error) (block %u,%u,%u thread %u,%u,%u)",
		       f->text[c->bad_pc], f->lines[c->bad_pc], src, c->bad_addr - lo,
		       what, (c->bad_addr - lo) % bytes, bytes, bytes, bytes, blk[0],
		       blk[1], blk[2], tid[0], tid[1], tid[2]);
}

static int report(const struct ptx_ctx *c, const struct ptx_module *m,
		  const struct ptx_launch *l, const unsigned *blk,
		  const unsigned *tid, struct ub_error *err)
{
	const struct ptx_func *f = c->bad_f;
	const char *what = f->text[c->bad_pc] ? f->text[c->bad_pc] : "?";
	uint32_t line = f->lines[c->bad_pc];
	char ro[256];
	if (c->bad_kind == 1 && read_only_store(c, m, l, ro, sizeof ro))
		return ub_fail(err, UB_RUNTIME, "ptx: store through %s: %s at 0x%"
			       PRIx64 " (line %u, block %u,%u,%u thread %u,%u,%u)",
			       ro, what, c->bad_addr, line, blk[0], blk[1], blk[2],
			       tid[0], tid[1], tid[2]);
	if (c->bad_kind == 1)
		return ub_fail(err, UB_RUNTIME, "ptx: out-of-bounds %s at 0x%" PRIx64
			       " (line %u, block %u,%u,%u thread %u,%u,%u)", what,
			       c->bad_addr, line, blk[0], blk[1], blk[2], tid[0],
			       tid[1], tid[2]);
	if (c->bad_kind == 3)
		return ub_fail(err, UB_RUNTIME, "ptx: recursive call (line %u): "
			       "not supported", line);
	if (c->bad_kind == 5)
		return misaligned(c, m, l, blk, tid, err);
	if (c->bad_kind == 4)
		return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s': %s (block %u,%u,%u "
			       "thread %u,%u,%u)", c->fr->f->name, c->chk->msg, blk[0],
			       blk[1], blk[2], tid[0], tid[1], tid[2]);
	if (c->bad_kind == 6)
		return ub_fail(err, UB_RUNTIME, "ptx: %s (PTX line %u, block %u,%u,%u "
			       "thread %u,%u,%u)", c->bad_msg, line, blk[0], blk[1],
			       blk[2], tid[0], tid[1], tid[2]);
	if (c->bad_kind == 7)
		return ub_fail(err, UB_RUNTIME, "ptx: thread %u,%u,%u of block %u,%u,%u "
			       "ran trap (line %u): the GPU aborts the kernel there",
			       tid[0], tid[1], tid[2], blk[0], blk[1], blk[2], line);
	return ub_fail(err, UB_RUNTIME, "ptx: thread %u,%u,%u of block %u,%u,%u "
		       "ran more than %" PRIu64 " instructions (line %u): stopped",
		       tid[0], tid[1], tid[2], blk[0], blk[1], blk[2], c->budget,
		       line);
}

/* Regions: the launch's buffers, then the module's arrays (read-only). */
static struct ptx_region *make_regions(const struct ptx_module *m,
				       const struct ptx_launch *l, int *n)
{
	struct ptx_region *rg = malloc(((size_t)l->nbufs + (size_t)m->nvars + 1) *
				       sizeof *rg);
	if (!rg)
		return NULL;
	*n = 0;
	for (int i = 0; i < l->nbufs; i++)
		rg[(*n)++] = (struct ptx_region){ (uint64_t)(uintptr_t)l->bufs[i].base,
						  l->bufs[i].size, l->bufs[i].writable };
	for (int i = 0; i < m->nvars; i++)
		rg[(*n)++] = (struct ptx_region){ (uint64_t)(uintptr_t)m->vars[i].data,
						  m->vars[i].size, 0 };
	return rg;
}

/* A frame for f: initial registers, buffers, symbol addresses. */
static int frame_init(struct ptx_frame *fr, const struct ptx_func *f)
{
	fr->f = f;
	fr->R = malloc(f->nslots * sizeof *fr->R);
	fr->local = calloc(1, f->local_size + 1u);
	fr->param = calloc(1, f->param_size + 1u);
	if (!fr->R || !fr->local || !fr->param)
		return UB_RUNTIME;
	memcpy(fr->R, f->init, f->nslots * sizeof *fr->R);
	for (int i = 0; i < f->nrelocs; i++) {
		const struct ptx_reloc *r = &f->relocs[i];
		if (r->space == 'd')   /* dynamic .shared: set at parse time */
			continue;
		unsigned char *base = r->space == 'l' ? fr->local : fr->param;
		fr->R[r->slot] = (uint64_t)(uintptr_t)base + r->offset;
	}
	return 0;
}

static void frames_free(struct ptx_frame *frames, int n)
{
	for (int i = 0; frames && i < n; i++) {
		free(frames[i].R);
		free(frames[i].local);
		free(frames[i].param);
		free(frames[i].traced);
	}
	free(frames);
}

/* Does kernel e need its threads together (ptx_block.c)?  1 when it or
 * a function it calls is block level; UB_RUNTIME (message) when it would
 * but cannot: calls, tracing. */
static int block_level(const struct ptx_module *m, int e, int traced,
		       struct ub_error *err)
{
	const struct ptx_func *f = &m->funcs[e];
	int any = f->block_level;
	for (int i = 0; i < f->ncalls; i++)
		any |= m->funcs[f->calls[i].func].block_level;
	if (!any)
		return 0;
	if (f->ncalls)
		return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' uses block-level "
			       "instructions (.shared memory, barriers, warp or atomic "
			       "instructions) and calls functions ('%s'): not supported",
			       f->name, m->funcs[f->calls[0].func].name);
	if (traced)
		return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' uses block-level "
			       "instructions: explain does not trace such kernels",
			       f->name);
	return 1;
}

/* Whether kernel e must run with its memory tracked (ptx_check.h)
 * although it is not block level: a buffer must be written whole and the
 * run must see which elements (its start holds values, so the sentinel
 * of src/run/written.c cannot tell), or the kernel may read a buffer
 * that starts unwritten (ptx_prov.c: the PTX does not prove it never
 * does). */
static int tracked(const struct ptx_func *f, const struct ptx_launch *l,
		   const struct ptx_bufcheck *bc)
{
	for (int i = 0; bc && i < l->nbufs; i++) {
		const struct ptx_buffer *b = &l->bufs[i];
		if (b->writable && bc[i].must_write)
			return 1;
		for (int k = 0; b->writable && bc[i].fresh && k < l->nargs &&
			     k < f->nparams; k++)
			if (l->args[k] == (uint64_t)(uintptr_t)b->base &&
			    f->params[k].size == 8 && (f->read_params >> (k < 63 ? k : 63) & 1))
				return 1;
	}
	return 0;
}

/* The grid thread by thread with the checks of launch buffers (a
 * tracked kernel that calls functions, which the block executor does not
 * run), k set up for it; what they found into info. */
static int run_checked(struct ptx_ctx *c, struct ptx_chk *k,
		       const struct ptx_launch *l, unsigned *blk, unsigned *tid,
		       struct ptx_run_info *info)
{
	c->chk = k;
	int rc = run_threads(c, l, 0, grid_threads(l), blk, tid);
	if (rc || !info)
		return rc;
	info->checked = 1;
	info->hazards = k->hazards;
	snprintf(info->hazard, sizeof info->hazard, "%s", k->first);
	for (int i = 0; i < l->nbufs && !info->unwritten; i++) {
		size_t first;
		if (!c->bc || !c->bc[i].must_write)
			continue;
		info->unwritten = ptx_chk_unwritten(k, &l->bufs[i], &first);
		info->unwritten_at = first;
		info->unwritten_buf = i;
	}
	return 0;
}

int ptx_run(const struct ptx_module *m, const char *entry,
	    const struct ptx_launch *launch, struct ptx_run_info *info,
	    struct ub_error *err)
{
	return ptx_run_traced(m, entry, launch, NULL, info, err);
}

/* What the launch needs before it runs: kernel e exists and can run, the
 * launch fits its .reqntid and a GPU's limits. */
static int launchable(const struct ptx_module *m, const char *entry,
		      const struct ptx_launch *launch, int *e, struct ub_error *err)
{
	*e = find_entry(m, entry, err);
	if (*e < 0 || ptx_check_runnable(m, entry, err))
		return UB_RUNTIME;
	for (int k = 0; k < 3; k++)
		if (!launch->grid[k] || !launch->block[k])
			return ub_fail(err, UB_RUNTIME, "ptx: empty grid or block "
				       "dimension for kernel '%s'", entry);
	const unsigned *rq = m->funcs[*e].reqntid;
	if (rq[0] && (rq[0] != launch->block[0] || rq[1] != launch->block[1] ||
		      rq[2] != launch->block[2]))
		return ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' requires blocks of "
			       "%u x %u x %u threads (.reqntid), launched with %u x %u x %u",
			       entry, rq[0], rq[1], rq[2], launch->block[0],
			       launch->block[1], launch->block[2]);
	return ptx_launch_limits(m, &m->funcs[*e], launch, err);
}

/* The frames of every function, the entry's parameters laid out. */
static int frames(struct ptx_ctx *c, const struct ptx_module *m, int e,
		  const struct ptx_launch *launch, const struct ptx_trace *trace,
		  struct ub_error *err)
{
	int rc = c->frames ? 0 : UB_RUNTIME;
	for (int i = 0; !rc && i < m->nfuncs; i++) {
		if (m->funcs[i].error)   /* never reached (ptx_check_runnable) */
			continue;
		rc = frame_init(&c->frames[i], &m->funcs[i]);
		if (!rc && trace && !(c->frames[i].traced = ptx_trace_marks(&m->funcs[i])))
			rc = UB_RUNTIME;
	}
	if (rc)
		return ub_fail(err, UB_RUNTIME, "ptx: out of memory");
	return make_params(&m->funcs[e], launch, c->frames[e].param, err);
}

/* Runs the grid the way the kernel needs: the block executor (block
 * level, or tracked without calls), thread by thread with the checks
 * (tracked, with calls), native code, batches of lanes, or thread by
 * thread.  ptx_block_grid's statuses. */
static int dispatch(struct ptx_ctx *c, const struct ptx_module *m, int e,
		    const struct ptx_launch *l, int blocks, int track,
		    unsigned *blk, unsigned *tid, struct ptx_run_info *info,
		    struct ub_error *err)
{
	ptx_native_fn nat = m->native && !c->trace && !l->thread_by_thread &&
			    !blocks && !track ? m->native[e] : NULL;
	if (info)
		info->native = nat != NULL;
	if (blocks)
		return ptx_block_grid(c, m, l, blk, tid, info, err);
	if (track)
		return run_checked(c, c->chk, l, blk, tid, info);
	if (nat)
		return run_native(c, l, nat, blk, tid);
	if (!c->trace && !l->thread_by_thread && ptx_batchable(c->fr->f))
		return run_batched(c, l, blk, tid);
	return run_threads(c, l, 0, grid_threads(l), blk, tid);
}

int ptx_run_traced(const struct ptx_module *m, const char *entry,
		   const struct ptx_launch *launch,
		   const struct ptx_trace *trace, struct ptx_run_info *info,
		   struct ub_error *err)
{
	return ptx_run_checked(m, entry, launch, NULL, trace, info, err);
}

int ptx_run_checked(const struct ptx_module *m, const char *entry,
		    const struct ptx_launch *launch, const struct ptx_run_opts *opts,
		    const struct ptx_trace *trace, struct ptx_run_info *info,
		    struct ub_error *err)
{
	const struct ptx_bufcheck *bc = opts ? opts->bufs : NULL;
	int e, blocks;
	if (info)   /* what the checks fill when they run */
		memset(info, 0, sizeof *info);
	if (launchable(m, entry, launch, &e, err) ||
	    (blocks = block_level(m, e, trace != NULL, err)) == UB_RUNTIME)
		return UB_RUNTIME;
	/* a kernel whose memory must be tracked runs on the block executor,
	   which checks everything, unless it calls functions */
	int track = !blocks && !trace && !(opts && opts->unchecked) &&
		    tracked(&m->funcs[e], launch, bc);
	blocks |= track && !m->funcs[e].ncalls;
	track &= !blocks;
	struct ptx_chk chk = { 0 };
	struct ptx_ctx c = { .budget = launch->budget ? launch->budget
						       : ptx_budget(m),
			     .trace = trace, .chk = track ? &chk : NULL, .bc = bc,
			     .opts = opts };
	c.frames = calloc((size_t)m->nfuncs, sizeof *c.frames);
	struct ptx_region *rg = make_regions(m, launch, &c.nrg);
	int rc = rg ? frames(&c, m, e, launch, trace, err)
		    : ub_fail(err, UB_RUNTIME, "ptx: out of memory");
	if (!rc && track && ptx_chk_init(&chk, m, &m->funcs[e], launch, bc, 0, 0))
		rc = ub_fail(err, UB_RUNTIME, "ptx: out of memory");
	unsigned blk[3] = { 0 }, tid[3] = { 0 };
	int thread_failed = 0;
	if (!rc) {
		c.rg = rg;
		c.fr = &c.frames[e];
		for (int k = 0; k < 3; k++) {
			c.fr->R[PTX_SLOT_SREG + PTX_SR_NTID_X + k] = launch->block[k];
			c.fr->R[PTX_SLOT_SREG + PTX_SR_NCTAID_X + k] = launch->grid[k];
		}
		uint64_t dyn = launch->shared_bytes;   /* ptx_block.c's layout */
		c.fr->R[PTX_SLOT_SREG + PTX_SR_DYNAMIC_SMEM] = dyn;
		c.fr->R[PTX_SLOT_SREG + PTX_SR_TOTAL_SMEM] =
			dyn ? (m->shared_static + 15) / 16 * 16 + dyn : m->shared_static;
		int mode = fegetround();
		fesetround(FE_TONEAREST);
		int r = dispatch(&c, m, e, launch, blocks, track, blk, tid, info, err);
		if (r < 0)
			rc = ub_fail(err, UB_RUNTIME, "ptx: out of memory");
		else if (blocks && r == 2)   /* the block's own message */
			rc = UB_RUNTIME;
		else if (r)
			rc = report(&c, m, launch, blk, tid, err);
		thread_failed = r > 0;
		fesetround(mode);
	}
	if (info) {
		info->approx_mask = c.amask;
		info->insns = c.insns;
		info->unmarked_fp = c.unmarked;
		info->fused = c.fused;
		info->batch_reruns = c.reruns;
		info->native_reruns = c.native_reruns;
		info->printf_calls = c.pf_calls;
		memcpy(info->printf_text, c.pf, c.pf_len + 1);
		info->bad_thread = thread_failed ? linear_index(launch, blk, tid)
						 : UINT64_MAX;
	}
	ptx_chk_free(&chk);
	frames_free(c.frames, m->nfuncs);
	free(rg);
	return rc;
}

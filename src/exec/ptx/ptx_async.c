/* ptx_async.c — asynchronous copies and mbarriers on the block executor
 * (ptx_block.h), PTX ISA 9.0.
 *
 * cp.async (9.7.9, data movement): a thread's copy from global to .shared
 * memory completes at some time before the thread's cp.async.wait_group
 * or wait_all that covers it.  Here the source is read when the copy is
 * issued (its bytes checked against the launch's arrays then) and the
 * destination written when a wait of the thread covers its group:
 * commit_group closes the thread's group of copies, wait_group N
 * completes every group but the newest N, wait_all every copy.  A copy
 * nobody waits for completes when its thread exits.  Reading the
 * destination before the wait gives the bytes that were there before, one
 * of the values a GPU may give.  src-size below cp-size zero-fills the
 * rest; an ignore-src predicate that holds writes zeros.  The checks
 * (ptx_check.h) see the source read at the issue and the destination
 * written at the completion, by the copy's thread and instruction.
 *
 * mbarrier (9.7.13): an object of 8 bytes in .shared memory, here bits
 * 0-20 the arrivals the current phase still waits for, 21-41 those each
 * phase expects, 42-62 the phase's number, 63 set by init.  arrive takes
 * count arrivals away and completes the phase when none is left (the next
 * phase then expects the expected count again); its result (the state)
 * is the object as it was, which test_wait and try_wait compare with the
 * current phase (.parity: the parity given).  A wait that finds the phase
 * not complete parks the thread there until it is (ptx_block.c releases
 * it: one schedule a GPU may give); when every thread of the block waits
 * and none can complete it, the GPU would wait forever: an error.  Using
 * an object before init, or more arrivals than a phase has, is an error
 * (undefined on the GPU).  The checks see init and inval as writes of the
 * object and the other operations on it as atomics (initcheck: an object
 * nothing wrote is read; racecheck: atomics take no part).  Racecheck
 * takes no order from an mbarrier's phases, as it takes none from fences
 * (docs/block-kernels.md). */
#include "ptx_block.h"

#include <stdlib.h>

#define W PTX_WARP
#define REG(l, s) b->w[wi].R[(size_t)(s) * W + (l)]

#define MB_COUNT 0x1fffffull
#define MB_PHASE(o) ((o) >> 42 & MB_COUNT)
#define MB_EXPECT(o) ((o) >> 21 & MB_COUNT)
#define MB_INITED (1ull << 63)
/* set by init; all ones is the poison .shared memory starts with (no
 * object init makes has an expected count of 2^21-1) */
#define MB_IS_INITED(o) (((o) & MB_INITED) && (o) != UINT64_MAX)

struct ptx_cp {
	unsigned thread;
	uint32_t pc;             /* the cp.async instruction */
	uint32_t group;          /* the thread's groups committed before it */
	uint64_t dst;            /* .shared offset */
	unsigned n;
	unsigned char data[16];
};

struct ptx_async {
	struct ptx_cp *q;
	size_t nq, cap;
	uint32_t *committed;     /* per thread of the block */
};

int ptx_async_alloc(struct ptx_blk *b)
{
	if (!(b->as = calloc(1, sizeof *b->as)) ||
	    !(b->as->committed = calloc(b->nthreads + 1u, sizeof *b->as->committed)))
		return -1;
	return 0;
}

void ptx_async_free(struct ptx_blk *b)
{
	if (b->as) {
		free(b->as->q);
		free(b->as->committed);
	}
	free(b->as);
}

void ptx_async_reset(struct ptx_blk *b)
{
	b->as->nq = 0;
	memset(b->as->committed, 0, b->nthreads * sizeof *b->as->committed);
}

static unsigned line_of(const struct ptx_blk *b, const struct ptx_insn *in)
{
	return b->f->lines[in - b->f->code];
}

static const char *text_of(const struct ptx_blk *b, const struct ptx_insn *in)
{
	return b->f->text[in - b->f->code];
}

/* Completes thread t's queued copies of the groups below `below`, or
 * with all every one (the uncommitted too), in the order they were
 * issued. */
static void complete(struct ptx_blk *b, unsigned t, uint32_t below, int all)
{
	struct ptx_async *as = b->as;
	size_t k = 0;
	for (size_t i = 0; i < as->nq; i++) {
		struct ptx_cp *e = &as->q[i];
		if (e->thread == t && (all || e->group < below)) {
			/* bounds checked at the issue; a write cannot fail a check */
			ptx_chk_shared(&b->chk, e->dst, e->n, PTX_CHK_WRITE, t, e->pc,
				       e->data, b->shared + e->dst);
			memcpy(b->shared + e->dst, e->data, e->n);
		} else
			as->q[k++] = *e;
	}
	as->nq = k;
}

void ptx_async_exit(struct ptx_blk *b, unsigned wi, uint32_t g)
{
	for (uint32_t m = g; m && b->as->nq; m &= m - 1)
		complete(b, wi * W + (unsigned)__builtin_ctz(m), 0, 1);
}

/* cp.async of lane l: checks both addresses, reads the source, queues. */
static int copy(struct ptx_blk *b, unsigned wi, unsigned l, const struct ptx_insn *in)
{
	struct ptx_async *as = b->as;
	unsigned t = wi * W + l, n = in->bits / 8;
	int32_t doff = (int32_t)(uint32_t)((uint64_t)in->off & 0xffffffffu);
	int32_t soff = (int32_t)(uint32_t)((uint64_t)in->off >> 32);
	uint64_t d = REG(l, in->src[0]) + (uint64_t)(int64_t)doff;
	uint64_t s = REG(l, in->src[1]) + (uint64_t)(int64_t)soff, lo, size;
	uint64_t bytes = REG(l, in->src[2]) & 0xffffffffu;
	int ignore = (in->flags & PTX_F_NEGC) && (REG(l, in->src[3]) & 1);
	if (bytes > n)
		return ptx_blk_fail(b, t, "%s at line %u: src-size %llu is more than "
				    "cp-size %u", text_of(b, in), line_of(b, in),
				    (unsigned long long)bytes, n);
	if (d % n || s % n)
		return ptx_blk_fail(b, t, "%s at line %u: misaligned copy (.shared "
				    "offset 0x%llx, global 0x%llx; both must be "
				    "multiples of %u)", text_of(b, in), line_of(b, in),
				    (unsigned long long)d, (unsigned long long)s, n);
	if (!ptx_shared_at(b, d, n))
		return ptx_blk_fail(b, t, "out-of-bounds %s at .shared offset 0x%llx "
				    "(%u bytes; the block has %llu bytes of .shared "
				    "memory) at line %u", text_of(b, in),
				    (unsigned long long)d, n,
				    (unsigned long long)b->shared_size, line_of(b, in));
	uint32_t pc = (uint32_t)(in - b->f->code);
	struct ptx_cp e = { .thread = t, .pc = pc, .group = as->committed[t], .dst = d,
			    .n = n };
	if (bytes && !ignore) {
		unsigned char *lbuf = b->local + (size_t)t * b->f->local_size;
		if (!ptx_mem_region(b->c, PTX_LD_GLOBAL, s, bytes, lbuf, &lo, &size)) {
			b->c->bad_addr = s;
			b->c->bad_kind = 1;
			b->bad_thread = t;
			return UB_RUNTIME;
		}
		if (ptx_chk_global(&b->chk, s, bytes, PTX_CHK_READ, t, pc, NULL))
			return ptx_blk_fail(b, t, "%s", b->chk.msg);
		memcpy(e.data, (const void *)(uintptr_t)s, bytes);
	}
	if (as->nq == as->cap) {
		size_t cap = as->cap ? 2 * as->cap : 256;
		struct ptx_cp *q = realloc(as->q, cap * sizeof *q);
		if (!q)
			return ptx_blk_fail(b, t, "out of memory");
		as->q = q;
		as->cap = cap;
	}
	as->q[as->nq++] = e;
	return 0;
}

/* The host address of lane l's mbarrier, or NULL (the failure set). */
static unsigned char *mbar_at(struct ptx_blk *b, unsigned wi, unsigned l,
			      const struct ptx_insn *in)
{
	uint64_t a = REG(l, in->src[0]) + (uint64_t)in->off;
	uint64_t base = (uint64_t)(uintptr_t)b->shared;
	if (!in->aux && a - base < b->shared_size)   /* a generic address */
		a -= base;
	unsigned char *p = a % 8 ? NULL : ptx_shared_at(b, a, 8);
	if (!p)
		ptx_blk_fail(b, wi * W + l, "%s at line %u: the mbarrier at 0x%llx "
			     "is not 8 aligned bytes of the block's .shared memory "
			     "(%llu bytes)", text_of(b, in), line_of(b, in),
			     (unsigned long long)a, (unsigned long long)b->shared_size);
	return p;
}

/* count arrivals (drop: also fewer expected from now on) on *o. */
static int arrive(struct ptx_blk *b, unsigned t, const struct ptx_insn *in,
		  uint64_t *o, uint64_t count, int drop)
{
	uint64_t pend = *o & MB_COUNT, exp = MB_EXPECT(*o), ph = MB_PHASE(*o);
	if (count > pend || (drop && count > exp))
		return ptx_blk_fail(b, t, "%s at line %u: %llu arrivals on an "
				    "mbarrier whose phase waits for %llu (undefined "
				    "on the GPU)", text_of(b, in), line_of(b, in),
				    (unsigned long long)count, (unsigned long long)pend);
	exp -= drop ? count : 0;
	pend -= count;
	if (!pend && (in->flags & PTX_F_SAT) && in->cmp != PTX_MB_CP_ARRIVE)
		return ptx_blk_fail(b, t, "%s at line %u: a .noComplete arrival "
				    "completes the phase (undefined on the GPU)",
				    text_of(b, in), line_of(b, in));
	if (!pend)
		ph = (ph + 1) & MB_COUNT, pend = exp;
	*o = MB_INITED | ph << 42 | exp << 21 | pend;
	return 0;
}

/* Whether the phase that lane l waits for (its state, or .parity) is
 * complete on the object o. */
static int done(struct ptx_blk *b, unsigned wi, unsigned l,
		const struct ptx_insn *in, uint64_t o)
{
	uint64_t v = REG(l, in->src[1]);
	if (in->flags & PTX_F_NEGC)
		return (MB_PHASE(o) & 1) != (v & 1);
	return MB_PHASE(o) != MB_PHASE(v);
}

/* One mbarrier operation of lane l; held: a wait not complete. */
static int mbar_lane(struct ptx_blk *b, unsigned wi, unsigned l,
		     const struct ptx_insn *in, int *held)
{
	unsigned t = wi * W + l;
	uint64_t v = REG(l, in->src[1]), o;
	if (in->cmp == PTX_MB_PENDING) {   /* of a state, not of the object */
		REG(l, in->dst) = v & MB_COUNT;
		return 0;
	}
	unsigned char *p = mbar_at(b, wi, l, in);
	if (!p)
		return UB_RUNTIME;
	uint32_t pc = (uint32_t)(in - b->f->code);
	int sets = in->cmp == PTX_MB_INIT || in->cmp == PTX_MB_INVAL;
	memcpy(&o, p, 8);
	if (!sets && (!MB_IS_INITED(o) ||   /* initcheck: nothing wrote it */
		      ptx_chk_shared(&b->chk, (uint64_t)(p - b->shared), 8,
				     PTX_CHK_ATOM, t, pc, NULL, p)))
		return ptx_blk_fail(b, t, "%s at line %u: the mbarrier at .shared "
				    "offset 0x%llx is used before mbarrier.init",
				    text_of(b, in), line_of(b, in),
				    (unsigned long long)(p - b->shared));
	if (in->cmp == PTX_MB_INIT) {
		uint64_t n = v & 0xffffffffu;
		if (n < 1 || n >= 1u << 20)
			return ptx_blk_fail(b, t, "%s at line %u: count %llu is not in "
					    "1..2^20-1", text_of(b, in), line_of(b, in),
					    (unsigned long long)n);
		o = MB_INITED | n << 21 | n;
	} else if (in->cmp == PTX_MB_INVAL) {
		o = 0;
	} else if (in->cmp == PTX_MB_TEST || in->cmp == PTX_MB_TRY) {
		*held = !done(b, wi, l, in, o);
		REG(l, in->dst) = !*held;
		return 0;
	} else {
		if (in->cmp == PTX_MB_CP_ARRIVE)   /* its copies first: then arrive */
			complete(b, t, 0, 1);
		uint64_t was = o;
		if ((in->cmp != PTX_MB_CP_ARRIVE || (in->flags & PTX_F_SAT)) &&
		    arrive(b, t, in, &o, in->cmp == PTX_MB_CP_ARRIVE ? 1 : v & 0xffffffffu,
			   in->cmp == PTX_MB_ARRIVE_DROP))
			return UB_RUNTIME;
		REG(l, in->dst) = was;
	}
	if (sets)
		ptx_chk_shared(&b->chk, (uint64_t)(p - b->shared), 8, PTX_CHK_WRITE, t, pc,
			       &o, p);
	memcpy(p, &o, 8);
	return 0;
}

int ptx_mbar_wait(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		  uint32_t g, uint32_t *held)
{
	*held = 0;
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		int h = 0;
		if (mbar_lane(b, wi, l, in, &h))
			return UB_RUNTIME;
		*held |= (uint32_t)h << l;
	}
	return 0;
}

int ptx_mbar_is_wait(const struct ptx_insn *in)
{
	return in->op == PTX_MBARRIER && (in->cmp == PTX_MB_TEST || in->cmp == PTX_MB_TRY);
}

int ptx_mbar_ready(struct ptx_blk *b, unsigned wi, unsigned l,
		   const struct ptx_insn *in)
{
	uint64_t a = REG(l, in->src[0]) + (uint64_t)in->off, o;
	uint64_t base = (uint64_t)(uintptr_t)b->shared;
	if (!in->aux && a - base < b->shared_size)
		a -= base;
	const unsigned char *p = ptx_shared_at(b, a, 8);
	if (!p)
		return 1;   /* running it again says what is wrong */
	memcpy(&o, p, 8);
	return !MB_IS_INITED(o) || done(b, wi, l, in, o);
}

int ptx_async_step(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		   uint32_t g)
{
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m), t = wi * W + l;
		int held = 0;
		switch (in->op) {
		case PTX_CP_ASYNC:
			if (copy(b, wi, l, in))
				return UB_RUNTIME;
			break;
		case PTX_CP_COMMIT:
			b->as->committed[t]++;
			break;
		case PTX_CP_WAIT:
			if (in->cmp)   /* wait_all: every copy */
				complete(b, t, 0, 1);
			else if ((uint64_t)in->off < b->as->committed[t])
				complete(b, t, b->as->committed[t] - (uint32_t)in->off, 0);
			break;
		default:
			if (mbar_lane(b, wi, l, in, &held))
				return UB_RUNTIME;
		}
	}
	return 0;
}

/* ptx_block.c — runs a block-level kernel (ptx_block.h) over the grid,
 * one block after another, each with its threads together: warps of 32
 * lanes (ptx_warp.c), .local memory per thread, and the block's .shared
 * memory (static variables, then the launch's dynamic bytes), zero at
 * the start of each block.
 *
 * Within a block the warps run in order, each until all its lanes have
 * exited or wait at a barrier; when every live thread of the block waits,
 * those held at an mbarrier wait whose phase is complete go on
 * (ptx_async.c), else, when all wait at the same bar.sync, all go on.  Threads that exited do not hold a
 * barrier up (PTX ISA, exit).  When every live thread waits but not all
 * at one barrier, the GPU would wait forever: an error naming the kernel,
 * both barriers' lines and a thread at each.
 *
 * Atomic order: by default blocks in grid order, warps in order, lanes in
 * order — one deterministic order among those a GPU may give.  With a
 * seed (--atomic-order seed=S) another valid one: blocks in a permuted
 * order, a warp reaching an atomic may let a random other warp go first,
 * and the lanes of one atomic go in a random order. */
#include "ptx_block.h"

#include <stdio.h>
#include <stdlib.h>

#define W PTX_WARP

uint64_t ptx_blk_rand(struct ptx_blk *b)
{
	uint64_t z = (b->rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Block coordinates of the k-th block in grid order. */
static void block_coords(const struct ptx_launch *l, uint64_t k, unsigned *blk)
{
	blk[0] = (unsigned)(k % l->grid[0]);
	blk[1] = (unsigned)(k / l->grid[0] % l->grid[1]);
	blk[2] = (unsigned)(k / l->grid[0] / l->grid[1]);
}

static void thread_coords(const struct ptx_launch *l, unsigned t, unsigned *tid)
{
	tid[0] = t % l->block[0];
	tid[1] = t / l->block[0] % l->block[1];
	tid[2] = t / l->block[0] / l->block[1];
}

/* Every warp of the block at its start: registers as the kernel frame
 * holds them (initial values, parameter addresses), each thread's .local
 * addresses and special registers. */
static void block_start(struct ptx_blk *b, const struct ptx_launch *l,
			const unsigned *blk)
{
	const struct ptx_func *f = b->f;
	const uint64_t *R0 = b->c->fr->R;
	/* poisoned, as a GPU leaves them: never zero (initcheck finds a
	   read of them) */
	memset(b->local, 0xff, (size_t)b->nthreads * f->local_size);
	memset(b->shared, 0xff, b->shared_size);
	ptx_chk_block(&b->chk, blk);
	ptx_async_reset(b);
	for (unsigned wi = 0; wi < b->nwarps; wi++) {
		struct ptx_warp *w = &b->w[wi];
		unsigned nl = b->nthreads - wi * W < W ? b->nthreads - wi * W : W;
		for (uint32_t s = 0; s < f->nslots; s++)
			for (unsigned k = 0; k < W; k++)
				w->R[(size_t)s * W + k] = R0[s];
		for (unsigned k = 0; k < nl; k++) {
			unsigned t = wi * W + k, tid[3];
			thread_coords(l, t, tid);
			for (int d = 0; d < 3; d++) {
				w->R[(size_t)(PTX_SLOT_SREG + PTX_SR_TID_X + d) * W + k] = tid[d];
				w->R[(size_t)(PTX_SLOT_SREG + PTX_SR_CTAID_X + d) * W + k] = blk[d];
			}
			w->R[(size_t)(PTX_SLOT_SREG + PTX_SR_LANEID) * W + k] = k;
			w->R[(size_t)(PTX_SLOT_SREG + PTX_SR_WARPID) * W + k] = wi;
			for (int i = 0; i < f->nrelocs; i++)
				if (f->relocs[i].space == 'l')
					w->R[(size_t)f->relocs[i].slot * W + k] =
						(uint64_t)(uintptr_t)(b->local + (size_t)t * f->local_size) +
						f->relocs[i].offset;
		}
		memset(w->pc, 0, sizeof w->pc);
		w->live = nl == W ? ~0u : (1u << nl) - 1;
		w->wait = 0;
		w->steps = 0;
		w->yielded = 0;
	}
}

/* Threads held at an mbarrier wait whose phase is now complete go on
 * (1 when one does); when none can, the one first held there is a
 * deadlock (UB_RUNTIME, message); 0 when none is held at one. */
static int release_mbar(struct ptx_blk *b)
{
	int held = 0, woke = 0;
	unsigned at = 0;
	for (unsigned wi = 0; wi < b->nwarps; wi++)
		for (uint32_t m = b->w[wi].wait; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			const struct ptx_insn *in = &b->f->code[b->w[wi].barpc[l]];
			if (!ptx_mbar_is_wait(in))
				continue;
			if (ptx_mbar_ready(b, wi, l, in))
				b->w[wi].wait &= ~(1u << l), woke = 1;
			else if (!held++)
				at = wi * W + l;
		}
	if (woke || !held)
		return woke;
	uint32_t pc = b->w[at / W].barpc[at % W];
	ptx_blk_fail(b, at, "%s at line %u waits for an mbarrier phase that no "
		     "thread can complete: every thread of the block waits (a "
		     "deadlock on the GPU)", b->f->text[pc], b->f->lines[pc]);
	return UB_RUNTIME;
}

/* Every live thread waits at a barrier: the same one releases them all
 * (0); two different ones are a deadlock (UB_RUNTIME, message). */
static int release(struct ptx_blk *b)
{
	int have = 0;
	uint32_t pc = 0;
	unsigned first = 0;
	int r = release_mbar(b);
	if (r)
		return r == 1 ? 0 : r;
	for (unsigned wi = 0; wi < b->nwarps; wi++)
		for (uint32_t m = b->w[wi].wait; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			if (!have)
				have = 1, pc = b->w[wi].barpc[l], first = wi * W + l;
			else if (b->w[wi].barpc[l] != pc)
				return ptx_blk_fail(b, wi * W + l, "%s at line %u is not "
						    "reached by every thread of the "
						    "block: thread %u (of the block) "
						    "waits there, this one at line %u "
						    "(a deadlock on the GPU)",
						    b->f->text[pc], b->f->lines[pc], first,
						    b->f->lines[b->w[wi].barpc[l]]);
		}
	for (unsigned wi = 0; wi < b->nwarps; wi++)
		b->w[wi].wait = 0;
	ptx_chk_barrier(&b->chk);
	return 0;
}

/* One block, until all its threads exited. */
static int run_block(struct ptx_blk *b)
{
	for (;;) {
		unsigned left = 0;
		if (!b->rng) {
			for (unsigned wi = 0; wi < b->nwarps; wi++)
				if (ptx_warp_run(b, wi))
					return UB_RUNTIME;
		} else {
			for (;;) {   /* a random warp that can run, until none */
				unsigned can[1024 / W], nc = 0;
				for (unsigned wi = 0; wi < b->nwarps; wi++)
					if (b->w[wi].live & ~b->w[wi].wait)
						can[nc++] = wi;
				if (!nc)
					break;
				int rc = ptx_warp_run(b, can[ptx_blk_rand(b) % nc]);
				if (rc < 0 || rc == UB_RUNTIME)
					return UB_RUNTIME;
			}
		}
		for (unsigned wi = 0; wi < b->nwarps; wi++)
			left += b->w[wi].live != 0;
		if (!left)
			return 0;
		if (release(b))
			return UB_RUNTIME;
	}
}

/* The k-th block to run: k itself, or with a seed a permutation of the
 * blocks (k * p + q mod n, p coprime with n). */
static uint64_t block_at(uint64_t k, uint64_t n, uint64_t p, uint64_t q)
{
	return p ? (uint64_t)(((unsigned __int128)k * p + q) % n) : k;
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static int blk_alloc(struct ptx_blk *b, const struct ptx_module *m,
		     const struct ptx_launch *l)
{
	const struct ptx_func *f = b->f;
	b->nthreads = l->block[0] * l->block[1] * l->block[2];
	b->nwarps = (b->nthreads + W - 1) / W;
	uint64_t dyn = l->shared_bytes ? (m->shared_static + 15) / 16 * 16 : 0;
	b->shared_size = l->shared_bytes ? dyn + l->shared_bytes : m->shared_static;
	b->w = calloc(b->nwarps, sizeof *b->w);
	b->local = calloc((size_t)b->nthreads, f->local_size + 1u);
	b->shared = calloc(1, b->shared_size + 1u);
	if (!b->w || !b->local || !b->shared ||
	    ptx_chk_init(&b->chk, m, f, l, b->c->bc, b->shared_size, f->local_size) ||
	    ptx_async_alloc(b))
		return -1;
	b->chk.off = b->c->opts && b->c->opts->unchecked;
	for (unsigned wi = 0; wi < b->nwarps; wi++)
		if (!(b->w[wi].R = malloc((size_t)f->nslots * W * sizeof *b->w[wi].R)))
			return -1;
	return 0;
}

static void blk_free(struct ptx_blk *b)
{
	for (unsigned wi = 0; b->w && wi < b->nwarps; wi++)
		free(b->w[wi].R);
	free(b->w);
	free(b->local);
	free(b->shared);
	ptx_chk_free(&b->chk);
	ptx_async_free(b);
}

int ptx_blk_aligned(struct ptx_blk *b, const struct ptx_insn *in, uint64_t off,
		    uint64_t n, const char *space, unsigned t)
{
	if (!(off & (n - 1)) || (n & (n - 1)))
		return 0;
	uint32_t pc = (uint32_t)(in - b->f->code);
	char src[160] = "";
	if (ptx_src_line(b->f, pc, src + 2, sizeof src - 3)) {
		src[0] = ' ', src[1] = '(';
		strcat(src, ")");
	}
	return ptx_blk_fail(b, t, "misaligned %s at line %u%s: byte 0x%llx of %s is "
			    "%llu mod %llu, and an access of %llu bytes must be aligned "
			    "to %llu (on the GPU: a misaligned address error)",
			    b->f->text[pc], b->f->lines[pc], src, (unsigned long long)off,
			    space, (unsigned long long)(off & (n - 1)),
			    (unsigned long long)n, (unsigned long long)n,
			    (unsigned long long)n);
}

/* After the grid: what the checks found, into info; the first element
 * of a buffer that had to be written whole and was not. */
static void checks_done(const struct ptx_blk *b, const struct ptx_launch *l,
			struct ptx_run_info *info)
{
	if (!info)
		return;
	info->checked = !b->chk.off;
	info->hazards = b->chk.hazards;
	snprintf(info->hazard, sizeof info->hazard, "%s", b->chk.first);
	info->float_atomics = b->float_atomics;
	for (int i = 0; i < l->nbufs && !info->unwritten; i++) {
		size_t first;
		if (!b->c->bc || !b->c->bc[i].must_write)
			continue;
		info->unwritten = ptx_chk_unwritten(&b->chk, &l->bufs[i], &first);
		info->unwritten_at = first;
		info->unwritten_buf = i;
	}
}

int ptx_block_grid(struct ptx_ctx *c, const struct ptx_module *m,
		   const struct ptx_launch *l, unsigned *blk, unsigned *tid,
		   struct ptx_run_info *info, struct ub_error *err)
{
	struct ptx_blk b = { .c = c, .f = c->fr->f, .bufs = l->bufs, .nbufs = l->nbufs };
	if ((uint64_t)l->block[0] * l->block[1] * l->block[2] > 1024) {   /* CUDA's */
		ub_fail(err, UB_RUNTIME, "ptx: kernel '%s' uses block-level "
			"instructions: blocks of at most 1024 threads, launched with "
			"%u x %u x %u", b.f->name, l->block[0], l->block[1], l->block[2]);
		return 2;
	}
	int rc = blk_alloc(&b, m, l);
	uint64_t n = (uint64_t)l->grid[0] * l->grid[1] * l->grid[2], p = 0, q = 0;
	if (l->atomic_seeded) {
		b.rng = l->atomic_seed * 2 + 1;   /* never 0: 0 is the default */
		q = ptx_blk_rand(&b) % n;
		do
			p = ptx_blk_rand(&b) % n + 1;
		while (gcd(p, n) != 1);
	}
	for (uint64_t k = 0; !rc && k < n; k++) {
		b.block = block_at(k, n, p, q);
		block_coords(l, b.block, blk);
		block_start(&b, l, blk);
		if (run_block(&b)) {
			thread_coords(l, b.bad_thread, tid);
			rc = b.msg[0] ? 2 : 1;
		}
	}
	if (rc == 2)
		ub_fail(err, UB_RUNTIME, "%s (block %u,%u,%u thread %u,%u,%u)", b.msg,
			blk[0], blk[1], blk[2], tid[0], tid[1], tid[2]);
	if (!rc)
		checks_done(&b, l, info);
	c->insns += b.insns;
	c->unmarked += b.unmarked;
	c->fused += b.fused;
	c->amask |= b.amask;
	blk_free(&b);
	return rc;
}

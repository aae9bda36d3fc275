/* ptx_undef.c — which registers a function may read before it writes
 * them, so that every executor gives such a read the same value.
 *
 * PTX leaves a register undefined until it is written.  The interpreter
 * defines it: every thread of a launch (and every call of a .func) starts
 * with each register at its initial value, 0, as the first thread does.
 * The registers of a frame are reused from one thread to the next, so the
 * registers a thread may read before writing (f->reset, computed here)
 * are restored before each thread runs (ptx_run.c, ptx_exec.c,
 * ptx_batch.c); the others are always written first, and what an earlier
 * thread left in them is never seen.  The batched executor's once-per-
 * launch instructions (ptx_uniform.c) write only registers outside
 * f->reset, so a thread never reads such a value where it would read 0.
 *
 * Method: a forward "definitely written" analysis over the basic blocks.
 * IN(entry) is empty, IN(b) the intersection of what its predecessors
 * leave written; an instruction with a guard writes nothing for sure.  A
 * read of a slot outside the set where it happens puts the slot in
 * f->reset.  Slots that no instruction writes (immediates, symbol
 * addresses, registers never set) always hold their initial value and
 * are left out.  The sets take blocks x written slots bits; past
 * MAX_WORDS words the analysis gives up and resets every written slot
 * that some instruction reads (the same values, at a cost per thread). */
#include "ptx_internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_WORDS (1u << 20)   /* 8 MiB of sets */

static int guarded(const struct ptx_insn *in)
{
	return in->guard != PTX_SLOT_TRUE || in->gneg;
}

/* Does control leave instruction i for i + 1 / for its branch target? */
static int falls_through(const struct ptx_insn *in)
{
	int op = in->op;
	return guarded(in) || (op != PTX_BRA && op != PTX_RET && op != PTX_EXIT);
}

/* Block numbers: blk[i] for every instruction; returns the count. */
static uint32_t number_blocks(const struct ptx_func *f, uint32_t *blk)
{
	memset(blk, 0, f->ncode * sizeof *blk);
	for (uint32_t i = 0; i < f->ncode; i++) {
		const struct ptx_insn *in = &f->code[i];
		int ends = in->op == PTX_BRA || in->op == PTX_RET || in->op == PTX_EXIT;
		if (in->op == PTX_BRA && (uint64_t)in->off < f->ncode)
			blk[in->off] = 1;
		if (ends && i + 1 < f->ncode)
			blk[i + 1] = 1;
	}
	uint32_t nb = 0;
	for (uint32_t i = 0; i < f->ncode; i++)
		blk[i] = i && blk[i] ? ++nb : nb;
	return nb + 1;
}

struct sets {
	const struct ptx_func *f;
	const int32_t *idx;   /* slot -> bit, or -1: never written */
	uint32_t *blk, nb, w;
	uint64_t *in;         /* nb sets of w words */
	uint8_t *undef;       /* per slot: read before written */
};

/* Runs block b from the set cur (w words), marking reads outside it in
 * s->undef when mark is set; leaves in cur what the block leaves written.
 * Returns the block's last instruction. */
static uint32_t run_block(struct sets *s, uint32_t b, uint32_t first,
			  uint64_t *cur, int mark)
{
	const struct ptx_func *f = s->f;
	uint32_t i = first, r[PTX_MAX_READS], w[PTX_MAX_WRITES];
	for (;; i++) {
		const struct ptx_insn *in = &f->code[i];
		for (int k = mark ? ptx_reads(in, r) : 0; k-- > 0;) {
			int32_t x = r[k] < f->nslots ? s->idx[r[k]] : -1;
			if (x >= 0 && !(cur[x / 64] >> (x % 64) & 1))
				s->undef[r[k]] = 1;
		}
		for (int k = guarded(in) ? 0 : ptx_writes(in, w); k-- > 0;) {
			int32_t x = w[k] < f->nslots ? s->idx[w[k]] : -1;
			if (x >= 0)
				cur[x / 64] |= 1ull << (x % 64);
		}
		if (i + 1 == f->ncode || s->blk[i + 1] != b)
			return i;
	}
}

/* IN(t) &= cur; 1 if that changed IN(t). */
static int meet(struct sets *s, uint32_t t, const uint64_t *cur)
{
	uint64_t *d = s->in + (size_t)t * s->w, changed = 0;
	for (uint32_t k = 0; k < s->w; k++) {
		changed |= d[k] & ~cur[k];
		d[k] &= cur[k];
	}
	return changed != 0;
}

/* The fixed point, then one marking pass; 0 or -1 (out of memory). */
static int analyse(struct sets *s, const uint32_t *first)
{
	const struct ptx_func *f = s->f;
	uint64_t *cur = malloc(s->w * sizeof *cur);
	if (!cur)
		return -1;
	memset(s->in, 0xff, (size_t)s->nb * s->w * sizeof *s->in);
	memset(s->in, 0, s->w * sizeof *s->in);   /* the entry: nothing yet */
	for (int changed = 1, mark = 0; changed || !mark;) {
		mark = !changed;   /* the pass after the fixed point marks */
		changed = 0;
		for (uint32_t b = 0; b < s->nb; b++) {
			memcpy(cur, s->in + (size_t)b * s->w, s->w * sizeof *cur);
			uint32_t last = run_block(s, b, first[b], cur, mark);
			const struct ptx_insn *in = &f->code[last];
			if (in->op == PTX_BRA && (uint64_t)in->off < f->ncode)
				changed |= meet(s, s->blk[in->off], cur);
			if (falls_through(in) && last + 1 < f->ncode)
				changed |= meet(s, b + 1, cur);
		}
		if (mark)
			break;
	}
	free(cur);
	return 0;
}

/* Too large to analyse: every written slot that something reads. */
static void every_read(const struct ptx_func *f, const int32_t *idx,
		       uint8_t *undef)
{
	uint32_t r[PTX_MAX_READS];
	for (uint32_t i = 0; i < f->ncode; i++)
		for (int k = ptx_reads(&f->code[i], r); k-- > 0;)
			if (r[k] < f->nslots && idx[r[k]] >= 0)
				undef[r[k]] = 1;
}

/* Dense bit numbers of the written slots into idx; their count. */
static uint32_t index_written(const struct ptx_func *f, int32_t *idx)
{
	uint32_t n = 0, w[PTX_MAX_WRITES];
	for (uint32_t s = 0; s < f->nslots; s++)
		idx[s] = -1;
	for (uint32_t i = 0; i < f->ncode; i++)
		for (int k = ptx_writes(&f->code[i], w); k-- > 0;)
			if (w[k] < f->nslots && w[k] != PTX_SLOT_SINK && idx[w[k]] < 0)
				idx[w[k]] = (int32_t)n++;
	return n;
}

static int collect(struct ptx_func *f, const uint8_t *undef)
{
	uint32_t n = 0;
	for (uint32_t s = 0; s < f->nslots; s++)
		n += undef[s];
	f->reset = malloc((n ? n : 1) * sizeof *f->reset);
	if (!f->reset)
		return -1;
	for (uint32_t s = 0; s < f->nslots; s++)
		if (undef[s])
			f->reset[f->nreset++] = s;
	return 0;
}

int ptx_undef_pass(struct ptx_pstate *st)
{
	struct ptx_func *f = st->f;
	struct sets s = { .f = f };
	int32_t *idx = malloc(f->nslots * sizeof *idx);
	uint32_t *first = NULL;
	s.undef = calloc(f->nslots, 1);
	s.blk = malloc(f->ncode * sizeof *s.blk);
	int rc = idx && s.undef && s.blk ? 0 : -1;
	uint32_t nw = rc ? 0 : index_written(f, idx);
	s.idx = idx;
	s.w = (nw + 63) / 64;
	s.nb = rc ? 0 : number_blocks(f, s.blk);
	if (!rc && nw && (uint64_t)s.nb * s.w > MAX_WORDS) {
		every_read(f, idx, s.undef);
	} else if (!rc && nw) {
		first = malloc(s.nb * sizeof *first);
		s.in = malloc((size_t)s.nb * s.w * sizeof *s.in);
		rc = first && s.in ? 0 : -1;
		for (uint32_t i = f->ncode; !rc && i-- > 0;)
			first[s.blk[i]] = i;
		if (!rc)
			rc = analyse(&s, first);
	}
	if (!rc)
		rc = collect(f, s.undef);
	free(idx);
	free(first);
	free(s.undef);
	free(s.blk);
	free(s.in);
	return rc ? ptx_perr(st, 0, "out of memory") : 0;
}

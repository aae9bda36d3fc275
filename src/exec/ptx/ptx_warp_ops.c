/* ptx_warp_ops.c — the warp collectives and the atomics of the block
 * executor (ptx_block.h), PTX ISA 9.0: shfl.sync (9.7.9.6), vote.sync,
 * match.sync, redux.sync, activemask, elect.sync, bar.warp.sync
 * (9.7.13), atom and red (9.7.13.5, .6).
 *
 * A .sync instruction names the lanes that take part (membermask).  On
 * the GPU each waits for the others of its mask: a lane that runs it
 * without being in the mask is undefined, and a live lane of the mask
 * that is elsewhere (another path, a barrier) never comes, a deadlock.
 * Both are errors here naming the lane and where it is; lanes that have
 * exited (or that the block does not have) are not waited for, as on the
 * GPU, but a shuffle that reads one of them is an error: its value is
 * undefined.  All lanes at the instruction share the guard's result g:
 * the lanes taking part are g, and the mask must be g plus exited lanes.
 *
 * Atomics run lane by lane in lane order (with an atomic order seed, in
 * a random order of the lanes), each read-modify-write whole before the
 * next: every order a GPU may pick gives one of these results. */
#include "ptx_block.h"

#include <stdio.h>

#define W PTX_WARP
#define REG(s) w->R[(size_t)(s) * W + l]

static unsigned line_of(const struct ptx_blk *b, const struct ptx_insn *in)
{
	return b->f->lines[in - b->f->code];
}

static const char *text_of(const struct ptx_blk *b, const struct ptx_insn *in)
{
	return b->f->text[in - b->f->code];
}

/* The mask operand (slot s) of the lanes in g: the same in every lane,
 * every lane of g in it, every live lane of it in g.  0, or UB_RUNTIME
 * with the message. */
static int check_mask(struct ptx_blk *b, struct ptx_warp *w,
		      const struct ptx_insn *in, uint32_t g, uint32_t s,
		      uint32_t *maskp)
{
	unsigned first = (unsigned)__builtin_ctz(g), wi = (unsigned)(w - b->w);
	uint32_t mask = (uint32_t)w->R[(size_t)s * W + first];
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		if ((uint32_t)REG(s) != mask)
			return ptx_blk_fail(b, wi * W + l, "%s at line %u: lanes %u and %u "
					    "of warp %u give different masks (0x%08x, "
					    "0x%08x)", text_of(b, in), line_of(b, in),
					    first, l, wi, mask, (uint32_t)REG(s));
	}
	uint32_t out = g & ~mask, away = mask & w->live & ~g;
	if (out) {
		unsigned l = (unsigned)__builtin_ctz(out);
		return ptx_blk_fail(b, wi * W + l, "%s at line %u: lane %u of warp %u "
				    "runs it but its mask 0x%08x leaves it out "
				    "(undefined on the GPU)", text_of(b, in),
				    line_of(b, in), l, wi, mask);
	}
	if (away) {
		unsigned l = (unsigned)__builtin_ctz(away);
		char where[80];
		uint32_t pc = (uint32_t)(in - b->f->code);
		if (w->wait >> l & 1)
			snprintf(where, sizeof where, "waits at the barrier at line %u",
				 b->f->lines[w->barpc[l]]);
		else if (w->pc[l] == pc)
			snprintf(where, sizeof where, "skips it (its guard is false)");
		else
			snprintf(where, sizeof where, "is at line %u", b->f->lines[w->pc[l]]);
		return ptx_blk_fail(b, wi * W + first, "%s at line %u: its mask 0x%08x "
				    "names lane %u of warp %u, which %s: a warp "
				    "that waits for it deadlocks on the GPU",
				    text_of(b, in), line_of(b, in), mask, l, wi, where);
	}
	*maskp = mask;
	return 0;
}

/* shfl.sync (PTX ISA 9.7.9.6): the source lane j and whether it is in
 * range (p); out of range, a lane keeps its own value. */
static int shfl(struct ptx_blk *b, struct ptx_warp *w, const struct ptx_insn *in,
		uint32_t g)
{
	uint64_t d[W], p[W];
	unsigned wi = (unsigned)(w - b->w);
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint32_t bv = (uint32_t)REG(in->src[1]) & 31, c = (uint32_t)REG(in->src[2]);
		uint32_t seg = (c >> 8) & 31, clamp = c & 31;
		int max = (int)((l & seg) | (clamp & ~seg)), min = (int)(l & seg), j;
		int in_range;
		switch (in->cmp) {
		case PTX_B_UP: j = (int)l - (int)bv; in_range = j >= max; break;
		case PTX_B_DOWN: j = (int)l + (int)bv; in_range = j <= max; break;
		case PTX_B_BFLY: j = (int)(l ^ bv); in_range = j <= max; break;
		default: j = min | (int)(bv & ~seg); in_range = j <= max; break;
		}
		if (!in_range)
			j = (int)l;
		if (!(g >> j & 1))
			return ptx_blk_fail(b, wi * W + l, "%s at line %u: lane %u of warp "
					    "%u reads lane %d, which does not take part "
					    "(exited, not in the block, or not in the "
					    "mask): its value is undefined", text_of(b, in),
					    line_of(b, in), l, wi, j);
		d[l] = w->R[(size_t)in->src[0] * W + (unsigned)j];
		p[l] = (uint64_t)in_range;
	}
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		REG(in->dst) = d[l] & 0xffffffffu;
		REG((uint32_t)in->off) = p[l];
	}
	return 0;
}

/* vote.sync: all, any, uni of the predicate, or its ballot. */
static void vote(struct ptx_warp *w, const struct ptx_insn *in, uint32_t g)
{
	uint32_t ball = 0;
	int neg = (in->flags & PTX_F_NEGC) != 0;
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		ball |= (uint32_t)((REG(in->src[0]) & 1) ^ (uint64_t)neg) << l;
	}
	uint64_t r = in->cmp == PTX_B_ALL ? ball == g : in->cmp == PTX_B_ANY ? ball != 0
		     : in->cmp == PTX_B_UNI ? (ball == 0 || ball == g) : ball;
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		REG(in->dst) = r;
	}
}

/* match.any: the lanes of g with the same value; match.all: g if all
 * have one value (p = 1), else 0 (p = 0). */
static void match(struct ptx_warp *w, const struct ptx_insn *in, uint32_t g)
{
	uint32_t same[W], all = 1;
	uint64_t M = ptx_mask(in->bits), v0 = w->R[(size_t)in->src[0] * W +
						    (unsigned)__builtin_ctz(g)] & M;
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		same[l] = 0;
		for (uint32_t k = g; k; k &= k - 1) {
			unsigned o = (unsigned)__builtin_ctz(k);
			if ((w->R[(size_t)in->src[0] * W + o] & M) == (REG(in->src[0]) & M))
				same[l] |= 1u << o;
		}
		all &= (REG(in->src[0]) & M) == v0;
	}
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		REG(in->dst) = in->cmp == PTX_B_ANY ? same[l] : all ? g : 0;
		REG((uint32_t)in->off) = all;
	}
}

/* redux.sync: add (mod 2^32), min, max (the type's signedness), and, or,
 * xor over the lanes of g. */
static void redux(struct ptx_warp *w, const struct ptx_insn *in, uint32_t g)
{
	int sg = (in->flags & PTX_F_SIGNED) != 0, first = 1;
	uint64_t r = 0;
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		uint64_t v = REG(in->src[0]) & 0xffffffffu;
		if (first)
			r = v, first = 0;
		else if (in->cmp == PTX_B_ADD)
			r = (r + v) & 0xffffffffu;
		else if (in->cmp == PTX_B_MIN)
			r = ptx_ilt(v, r, 32, sg) ? v : r;
		else if (in->cmp == PTX_B_MAX)
			r = ptx_ilt(r, v, 32, sg) ? v : r;
		else
			r = in->cmp == PTX_B_AND ? r & v : in->cmp == PTX_B_OR ? r | v : r ^ v;
	}
	for (uint32_t m = g; m; m &= m - 1) {
		unsigned l = (unsigned)__builtin_ctz(m);
		REG(in->dst) = r;
	}
}

int ptx_warp_collective(struct ptx_blk *b, struct ptx_warp *w,
			const struct ptx_insn *in, uint32_t g, uint32_t act)
{
	uint32_t mask = 0;
	(void)act;
	if (in->op == PTX_ACTIVEMASK) {   /* the lanes running it together */
		for (uint32_t m = g; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			REG(in->dst) = g;
		}
		return 0;
	}
	uint32_t ms = in->op == PTX_SHFL ? in->src[3] : in->op == PTX_BAR_WARP ||
		      in->op == PTX_ELECT ? in->src[0] : in->src[1];
	int nomask = in->op == PTX_SHFL && (in->flags & PTX_F_SAT);   /* no .sync */
	if (!nomask && check_mask(b, w, in, g, ms, &mask))
		return UB_RUNTIME;
	switch (in->op) {
	case PTX_SHFL: return shfl(b, w, in, g);
	case PTX_VOTE: vote(w, in, g); return 0;
	case PTX_MATCH: match(w, in, g); return 0;
	case PTX_REDUX: redux(w, in, g); return 0;
	case PTX_ELECT: {
		unsigned lead = (unsigned)__builtin_ctz(g);
		for (uint32_t m = g; m; m &= m - 1) {
			unsigned l = (unsigned)__builtin_ctz(m);
			REG(in->dst) = lead;
			REG((uint32_t)in->off) = l == lead;
		}
		return 0;
	}
	default:   /* bar.warp.sync: orders the memory accesses of its lanes */
		ptx_chk_syncwarp(&b->chk, (unsigned)(w - b->w), g);
		return 0;
	}
}

/* OP(old, b[, c]) of atom/red at the instruction's type, on .shared
 * memory or not. */
static uint64_t atom_value(const struct ptx_insn *in, uint64_t old, uint64_t v,
			   uint64_t c, int shared)
{
	uint64_t M = ptx_mask(in->bits);
	int sg = (in->flags & PTX_F_SIGNED) != 0;
	switch (in->cmp) {
	case PTX_B_ADD:
		if (in->dtype == PTX_T_F32 && shared)   /* "atom.add.f32 on shared
						 memory supports subnormal inputs
						 and results" (PTX ISA, atom) */
			return ptx_res32(ptx_f32(old) + ptx_f32(v), 0);
		if (in->dtype == PTX_T_F32)   /* "rounds to nearest even ...
						 on global memory flushes
						 subnormal inputs and results to
						 sign-preserving zero" */
			return ptx_res32(ptx_ftz32(ptx_f32(old)) + ptx_ftz32(ptx_f32(v)),
					 PTX_F_FTZ);
		if (in->dtype == PTX_T_F64)
			return ptx_res64(ptx_f64(old) + ptx_f64(v), 0);
		if (ptx_type_kind(in->dtype) == 'H') {   /* .noftz: no flush */
			struct ptx_insn h = { .op = PTX_ADD_H, .bits = in->bits,
					      .dtype = in->dtype, .rnd = PTX_RND_RN };
			return ptx_half_op(&h, old, v, 0);
		}
		return (old + v) & M;
	case PTX_B_MIN: return ptx_ilt(v, old, in->bits, sg) ? v : old;
	case PTX_B_MAX: return ptx_ilt(old, v, in->bits, sg) ? v : old;
	case PTX_B_INC: return old >= v ? 0 : (old + 1) & M;
	case PTX_B_DEC: return old == 0 || old > v ? v : old - 1;
	case PTX_B_AND: return old & v;
	case PTX_B_OR: return old | v;
	case PTX_B_XOR: return old ^ v;
	case PTX_B_EXCH: return v;
	default: return old == v ? c : old;   /* cas */
	}
}

/* The host address of lane l's atomic operand, or NULL (the failure set);
 * *shared: whether it is in .shared memory. */
static unsigned char *atom_at(struct ptx_blk *b, struct ptx_warp *w,
			      const struct ptx_insn *in, unsigned l, unsigned wi,
			      int *shared)
{
	uint64_t n = in->bits / 8, a = REG(in->src[0]) + (uint64_t)in->off;
	uint64_t base = (uint64_t)(uintptr_t)b->shared, lo, size;
	unsigned t = wi * W + l;
	uint32_t pc = (uint32_t)(in - b->f->code);
	*shared = 1;
	if (in->aux == PTX_AS_GENERIC && a - base < b->shared_size)
		a -= base;
	else if (in->aux != PTX_AS_SHARED) {
		*shared = 0;
		unsigned char *lbuf = b->local + (size_t)t * b->f->local_size;
		int op = in->aux == PTX_AS_GLOBAL ? PTX_ST_GLOBAL : PTX_ST_GENERIC;
		if (ptx_mem_region(b->c, op, a, n, lbuf, &lo, &size)) {
			if (ptx_blk_aligned(b, in, a - lo, n, "a global array", t))
				return NULL;
			if (ptx_chk_global(&b->chk, a, n, PTX_CHK_ATOM, t, pc, NULL)) {
				ptx_blk_fail(b, t, "%s", b->chk.msg);
				return NULL;
			}
			return (unsigned char *)(uintptr_t)a;
		}
		b->c->bad_addr = a;
		b->c->bad_kind = 1;
		b->bad_thread = t;
		return NULL;
	}
	unsigned char *p = ptx_shared_at(b, a, n);
	if (!p)
		ptx_blk_fail(b, t, "out-of-bounds %s at .shared offset 0x%llx (%llu "
			     "bytes; the block has %llu bytes of .shared memory; "
			     "--launch ...,shared=BYTES gives its dynamic part) at "
			     "line %u", text_of(b, in), (unsigned long long)a,
			     (unsigned long long)n, (unsigned long long)b->shared_size,
			     line_of(b, in));
	else if (ptx_blk_aligned(b, in, a, n, ".shared memory", t))
		return NULL;
	else if (ptx_chk_shared(&b->chk, a, n, PTX_CHK_ATOM, t, pc, NULL, p)) {
		ptx_blk_fail(b, t, "%s", b->chk.msg);
		return NULL;
	}
	return p;
}

int ptx_warp_atomic(struct ptx_blk *b, struct ptx_warp *w,
		    const struct ptx_insn *in, uint32_t g, unsigned wi)
{
	unsigned order[W], n = 0;
	for (uint32_t m = g; m; m &= m - 1)
		order[n++] = (unsigned)__builtin_ctz(m);
	for (unsigned i = n; b->rng && i > 1; i--) {   /* Fisher-Yates */
		unsigned k = (unsigned)(ptx_blk_rand(b) % i), t = order[i - 1];
		order[i - 1] = order[k];
		order[k] = t;
	}
	uint64_t bytes = in->bits / 8;
	int fk = ptx_type_kind(in->dtype);
	b->float_atomics |= in->cmp == PTX_B_ADD && (fk == 'F' || fk == 'H');
	for (unsigned i = 0; i < n; i++) {
		unsigned l = order[i];
		int shared;
		unsigned char *p = atom_at(b, w, in, l, wi, &shared);
		if (!p)
			return UB_RUNTIME;
		uint64_t old = 0, v;
		memcpy(&old, p, bytes);   /* little-endian host */
		v = atom_value(in, old, REG(in->src[1]), REG(in->src[2]), shared);
		memcpy(p, &v, bytes);
		REG(in->dst) = old;
		if (b->c->opts && b->c->opts->atomic)
			b->c->opts->atomic(b->c->opts->user, b->block, wi * W + l);
	}
	return 0;
}

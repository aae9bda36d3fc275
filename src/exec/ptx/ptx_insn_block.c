/* ptx_insn_block.c — decodes the block and warp level instructions
 * (PTX ISA 9.0: 9.7.13 parallel synchronization and communication, and
 * shfl.sync in [data]): bar/barrier, shfl.sync, vote.sync, match.sync,
 * redux.sync, activemask, elect.sync, atom, red, membar/fence.  Their
 * mnemonics have many parts that change nothing here (.aligned, memory
 * orderings and scopes: every access happens in one order on the host);
 * a part that does change something and is not modelled (a thread count
 * on a barrier, vector atomics, .L2::cache_hint) is an error naming it.
 * Any of them makes the function block level (ptx_block.c runs it). */
#include "ptx_internal.h"

#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

static const char *const families[] = { "bar", "barrier", "shfl", "vote",
	"match", "redux", "activemask", "elect", "atom", "red", "membar",
	"fence" };

/* Parts that change nothing on the interpreter: memory orderings and
 * scopes (.cluster: a cluster of one block). */
static const char *const inert[] = { "sync", "aligned", "cta", "gpu", "sys",
	"relaxed", "acquire", "release", "acq_rel", "sc", "gl", "noftz",
	"mmio", "cluster" };

/* The mnemonic's parts after the base, split at '.'. */
struct bparts {
	char base[16];
	char part[8][24];
	int n;
};

static int split(const struct ptx_tok *t, struct bparts *p)
{
	memset(p, 0, sizeof *p);
	return ptx_split_mnemonic(t, 160, p->base, sizeof p->base, p->part,
				  (int)COUNT(p->part), &p->n);
}

int ptx_is_block_insn(const struct ptx_tok *t)
{
	size_t n = 0;
	while (n < t->len && t->s[n] != '.')
		n++;
	for (int i = 0; i < COUNT(families); i++)
		if (strlen(families[i]) == n && !memcmp(families[i], t->s, n))
			return 1;
	return 0;
}

static int type_named(const char *s)
{
	for (int i = 0; i < PTX_NTYPES; i++)
		if (!strcmp(ptx_type_name(i), s))
			return i;
	return -1;
}

static const char *const bop_names[] = { "up", "down", "bfly", "idx", "all",
	"any", "uni", "ballot", "add", "min", "max", "inc", "dec", "and", "or",
	"xor", "exch", "cas" };

/* What the parts say: the sub-operation, the type, the space; a part
 * that is neither of these nor inert is returned in *bad. */
struct bwhat {
	int bop, ty, space, sync, warp, aligned, hint, vec;
	const char *bad;
};

static void classify(const struct bparts *p, struct bwhat *w)
{
	w->bop = w->ty = -1;
	w->space = PTX_AS_GENERIC;
	w->sync = w->warp = w->aligned = w->hint = w->vec = 0;
	w->bad = NULL;
	for (int i = 0; i < p->n; i++) {
		const char *s = p->part[i];
		int k, inert_part = 0;
		for (k = 0; k < COUNT(inert); k++)
			inert_part |= !strcmp(inert[k], s);
		w->sync |= !strcmp(s, "sync");
		w->aligned |= !strcmp(s, "aligned");
		if (inert_part)
			continue;
		if (!strcmp(s, "global"))
			w->space = PTX_AS_GLOBAL;
		else if (!strcmp(s, "shared") || !strcmp(s, "shared::cta") ||
			 !strcmp(s, "shared::cluster"))   /* a cluster of one block */
			w->space = PTX_AS_SHARED;
		else if (!strcmp(s, "L2::cache_hint"))
			w->hint = 1;
		else if (!strcmp(s, "v2") || !strcmp(s, "v4") || !strcmp(s, "v8"))
			w->vec = s[1] - '0';
		else if (!strcmp(s, "warp"))
			w->warp = 1;
		else if ((k = type_named(s)) >= 0 && w->ty < 0)
			w->ty = k;
		else {
			for (k = 0; k < COUNT(bop_names) && strcmp(bop_names[k], s); k++)
				;
			if (k < COUNT(bop_names) && w->bop < 0)
				w->bop = k;
			else if (!w->bad)
				w->bad = s;
		}
	}
}

static const struct ptx_tok *cur(struct ptx_pstate *st)
{
	return ptx_peek(st, 0);
}

/* d or d|p (p into *p, else the sink). */
static int dst_pred(struct ptx_pstate *st, uint32_t *d, uint32_t *p)
{
	*p = PTX_SLOT_SINK;
	if (ptx_opd_dst(st, d))
		return UB_RUNTIME;
	if (!ptx_tok_is(cur(st), "|"))
		return 0;
	st->pos++;
	return ptx_opd_dst(st, p);
}

static int comma_src(struct ptx_pstate *st, int ty, uint32_t *slot)
{
	return ptx_expect(st, ",") || ptx_opd_src(st, ty, slot);
}

/* Which types an atom/red operation takes (PTX ISA 9.7.13.5). */
static int atom_type_ok(int bop, int ty)
{
	int bits = (int)ptx_type_bits(ty), kind = ptx_type_kind(ty);
	switch (bop) {
	case PTX_B_ADD:
		return ((kind == 'U' || kind == 'S') && bits >= 32) ||
		       ty == PTX_T_F32 || ty == PTX_T_F64 || kind == 'H';
	case PTX_B_MIN: case PTX_B_MAX:
		return (kind == 'U' || kind == 'S') && bits >= 32;
	case PTX_B_INC: case PTX_B_DEC:
		return ty == PTX_T_U32;
	case PTX_B_CAS:   /* also .b16 */
		return kind == 'B' && bits >= 16 && bits <= 64;
	case PTX_B_AND: case PTX_B_OR: case PTX_B_XOR: case PTX_B_EXCH:
		return kind == 'B' && bits >= 32 && bits <= 64;
	default:
		return 0;
	}
}

/* atom d, [a], b[, c] and red [a], b, then the cache policy of
 * .L2::cache_hint (hint: read and ignored; caching does not change what
 * memory holds). */
static int operands_atom(struct ptx_pstate *st, struct ptx_insn *in, int red,
			 int hint)
{
	int ty = in->dtype;
	uint32_t pol;
	in->dst = PTX_SLOT_SINK;
	in->src[2] = PTX_SLOT_TRUE;
	if (!red && (ptx_opd_dst(st, &in->dst) || ptx_expect(st, ",")))
		return UB_RUNTIME;
	if (ptx_opd_mem(st, &in->src[0], &in->off) || comma_src(st, ty, &in->src[1]))
		return UB_RUNTIME;
	if (in->cmp == PTX_B_CAS && comma_src(st, ty, &in->src[2]))
		return UB_RUNTIME;
	return hint ? comma_src(st, PTX_T_B64, &pol) : 0;
}

/* {r0, .., r(n-1)} of type ty (destinations when dst). */
static int vec_list(struct ptx_pstate *st, uint32_t *r, int n, int ty, int dst)
{
	if (ptx_expect(st, "{"))
		return UB_RUNTIME;
	for (int i = 0; i < n; i++)
		if ((i && ptx_expect(st, ",")) ||
		    (dst ? ptx_opd_dst(st, &r[i]) : ptx_opd_src(st, ty, &r[i])))
			return UB_RUNTIME;
	return ptx_expect(st, "}");
}

/* atom/red.global.vN.TYPE.add: atomic element by element (PTX ISA, atom:
 * "the atomicity is guaranteed separately for each of the individual
 * scalar elements"), so N scalar atoms, one after another; each reads its
 * own b before writing its d, and a d that is a later element's b is
 * refused (the split would read it changed). */
static int atom_vector(struct ptx_pstate *st, struct ptx_insn *in, int red,
		       int n, int hint, const struct ptx_tok *mnem, uint32_t line)
{
	uint32_t d[8], b[8], base, pol;
	int64_t off;
	for (int i = 0; i < n; i++)
		d[i] = PTX_SLOT_SINK;
	if ((!red && (vec_list(st, d, n, in->dtype, 1) || ptx_expect(st, ","))) ||
	    ptx_opd_mem(st, &base, &off) || ptx_expect(st, ",") ||
	    vec_list(st, b, n, in->dtype, 0) || (hint && comma_src(st, PTX_T_B64, &pol)) ||
	    ptx_expect(st, ";"))
		return UB_RUNTIME;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			if (d[i] == b[j] && d[i] != PTX_SLOT_SINK)
				return ptx_perr(st, line, "unsupported instruction '%.*s': "
						"element %d's destination is element %d's "
						"source", (int)mnem->len, mnem->s, i, j);
	st->f->block_level = 1;
	for (int i = 0; i < n; i++) {
		in->dst = d[i];
		in->src[0] = base;
		in->src[1] = b[i];
		in->src[2] = PTX_SLOT_TRUE;
		in->off = off + (int64_t)i * (in->bits / 8);
		if (ptx_emit(st, in, line, mnem))
			return UB_RUNTIME;
	}
	return 0;
}

/* The operands of in (op, cmp, dtype set) by shape. */
static int operands(struct ptx_pstate *st, struct ptx_insn *in, int hint)
{
	uint32_t p;
	switch (in->op) {
	case PTX_BAR: case PTX_BAR_WARP:
		if (ptx_opd_src(st, PTX_T_U32, &in->src[0]))
			return UB_RUNTIME;
		if (ptx_tok_is(cur(st), ","))
			return ptx_perr(st, cur(st)->line, "a barrier with a thread "
					"count is not supported (only every thread "
					"of the block)");
		return 0;
	case PTX_SHFL:
		if (dst_pred(st, &in->dst, &p))
			return UB_RUNTIME;
		in->off = p;
		in->src[3] = PTX_SLOT_TRUE;   /* without .sync: no mask */
		for (int i = 0; i < ((in->flags & PTX_F_SAT) ? 3 : 4); i++)
			if (comma_src(st, PTX_T_B32, &in->src[i]))
				return UB_RUNTIME;
		return 0;
	case PTX_VOTE: {
		int neg = 0;
		if (ptx_opd_dst(st, &in->dst) || ptx_expect(st, ",") ||
		    ptx_opd_pred(st, &in->src[0], &neg) ||
		    comma_src(st, PTX_T_B32, &in->src[1]))
			return UB_RUNTIME;
		in->flags |= neg ? PTX_F_NEGC : 0;
		return 0;
	}
	case PTX_MATCH:
		if (dst_pred(st, &in->dst, &p))
			return UB_RUNTIME;
		in->off = p;
		return comma_src(st, in->dtype, &in->src[0]) ||
		       comma_src(st, PTX_T_B32, &in->src[1]);
	case PTX_REDUX:
		return ptx_opd_dst(st, &in->dst) || comma_src(st, in->dtype, &in->src[0]) ||
		       comma_src(st, PTX_T_B32, &in->src[1]);
	case PTX_ACTIVEMASK:
		return ptx_opd_dst(st, &in->dst);
	case PTX_ELECT:
		if (dst_pred(st, &in->dst, &p))
			return UB_RUNTIME;
		in->off = p;
		return comma_src(st, PTX_T_B32, &in->src[0]);
	case PTX_ATOM: case PTX_RED:
		return operands_atom(st, in, in->op == PTX_RED, hint);
	default:
		return 0;
	}
}

/* The opcode and fields from the parts; NULL, or what is wrong. */
static const char *select_op(const struct bparts *p, const struct bwhat *w,
			     struct ptx_insn *in)
{
	const char *b = p->base;
	int bop = w->bop, ty = w->ty;
	in->cmp = (uint8_t)(bop < 0 ? 0 : bop);
	in->dtype = (uint8_t)(ty < 0 ? PTX_T_B32 : ty);
	in->bits = (uint8_t)ptx_type_bits(in->dtype);
	if (ty >= 0 && ptx_type_kind(ty) == 'S')
		in->flags |= PTX_F_SIGNED;
	if (!strcmp(b, "membar") || !strcmp(b, "fence")) {
		in->op = PTX_FENCE;
		return NULL;
	}
	if (w->bad)
		return "a qualifier the interpreter does not model";
	if (!strcmp(b, "bar") || !strcmp(b, "barrier")) {
		in->op = w->warp ? PTX_BAR_WARP : PTX_BAR;
		/* bar.sync is barrier.sync.aligned: every thread of a warp
		   must run the same one (PTX ISA, barrier) */
		in->aux = (uint8_t)(w->aligned || !strcmp(b, "bar"));
		return bop >= 0 || ty >= 0 || (!w->sync && !w->warp)
			       ? "only bar.sync, barrier.sync and bar.warp.sync"
			       : NULL;
	}
	if (!strcmp(b, "activemask")) {
		in->op = PTX_ACTIVEMASK;
		return ty == PTX_T_B32 ? NULL : "needs .b32";
	}
	if (!strcmp(b, "elect")) {
		in->op = PTX_ELECT;
		return w->sync && ty < 0 ? NULL : "only elect.sync";
	}
	if (!w->sync && strcmp(b, "atom") && strcmp(b, "red") && strcmp(b, "shfl"))
		return "only the .sync form";
	if (!strcmp(b, "shfl")) {   /* shfl without .sync (9.7.9.5, before
				       sm_70): the lanes running it together */
		in->op = PTX_SHFL;
		in->flags |= w->sync ? 0 : PTX_F_SAT;
		return bop >= PTX_B_UP && bop <= PTX_B_IDX && ty == PTX_T_B32 ? NULL
		       : "needs .up, .down, .bfly or .idx and .b32";
	}
	if (!strcmp(b, "vote")) {
		in->op = PTX_VOTE;
		if (bop == PTX_B_BALLOT)
			return ty == PTX_T_B32 ? NULL : "ballot needs .b32";
		return bop >= PTX_B_ALL && bop <= PTX_B_UNI && ty == PTX_T_PRED ? NULL
		       : "needs .all, .any, .uni with .pred, or .ballot.b32";
	}
	if (!strcmp(b, "match")) {
		in->op = PTX_MATCH;
		return (bop == PTX_B_ANY || bop == PTX_B_ALL) &&
		       (ty == PTX_T_B32 || ty == PTX_T_B64) ? NULL
		       : "needs .any or .all and .b32 or .b64";
	}
	if (!strcmp(b, "redux")) {
		in->op = PTX_REDUX;
		int arith = bop == PTX_B_ADD || bop == PTX_B_MIN || bop == PTX_B_MAX;
		int logic = bop == PTX_B_AND || bop == PTX_B_OR || bop == PTX_B_XOR;
		return (arith && (ty == PTX_T_U32 || ty == PTX_T_S32)) ||
		       (logic && ty == PTX_T_B32) ? NULL
		       : "needs .add/.min/.max with .u32/.s32, or .and/.or/.xor with .b32";
	}
	in->op = !strcmp(b, "red") ? PTX_RED : PTX_ATOM;
	in->aux = (uint8_t)w->space;
	if (bop < PTX_B_ADD || ty < 0 || !atom_type_ok(bop, ty))
		return "an operation and type the interpreter does not model";
	if (in->op == PTX_RED && bop == PTX_B_CAS)
		return "red has no .cas";
	if (w->vec && (bop != PTX_B_ADD || (ty != PTX_T_F32 && ptx_type_kind(ty) != 'H') ||
		       w->space == PTX_AS_SHARED || (ty == PTX_T_F32 && w->vec > 4)))
		return "vectors: .v2/.v4 of .add.f32, .v2-.v8 of .add.noftz of 16-bit "
		       "floats, on .global";
	return NULL;
}

int ptx_decode_block(struct ptx_pstate *st, struct ptx_insn *in,
		     const struct ptx_tok *mnem, uint32_t line)
{
	struct bparts p;
	struct bwhat w;
	if (split(mnem, &p))
		return ptx_perr(st, line, "unsupported instruction '%.*s'",
				(int)mnem->len, mnem->s);
	classify(&p, &w);
	const char *why = select_op(&p, &w, in);
	if (why && w.bad)
		return ptx_perr(st, line, "unsupported instruction '%.*s': %s "
				"('.%s')", (int)mnem->len, mnem->s, why, w.bad);
	if (why)
		return ptx_perr(st, line, "unsupported instruction '%.*s': %s",
				(int)mnem->len, mnem->s, why);
	if (w.vec)
		return atom_vector(st, in, in->op == PTX_RED, w.vec, w.hint, mnem, line);
	if (w.hint && in->op != PTX_ATOM && in->op != PTX_RED)
		return ptx_perr(st, line, "unsupported instruction '%.*s': "
				".L2::cache_hint only on atom and red", (int)mnem->len,
				mnem->s);
	if (in->op == PTX_FENCE) {   /* operands, if any, change nothing */
		while (!ptx_tok_is(cur(st), ";") && cur(st)->kind != PTX_TK_END)
			st->pos++;
	} else if (operands(st, in, w.hint)) {
		return UB_RUNTIME;
	}
	if (ptx_expect(st, ";"))
		return UB_RUNTIME;
	st->f->block_level = 1;
	return ptx_emit(st, in, line, mnem);
}

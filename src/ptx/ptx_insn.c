/* ptx_insn.c — decodes one PTX instruction statement into a struct
 * ptx_insn: the mnemonic into an opcode (ptx_ops.h) with its type, rounding
 * mode and flags, every operand into a register-file slot (immediates and
 * symbol addresses become constant slots), memory operands into base slot
 * plus offset, branch targets into label references resolved at the end of
 * the kernel.  Anything outside the supported subset is an error naming
 * the instruction, never a guess. */
#include "ptx_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum ptx_variant {
	PTX_V__, PTX_V_LO, PTX_V_HI, PTX_V_WIDE, PTX_V_APPROX, PTX_V_FULL,
	PTX_V_PACK, PTX_V_UNPACK, PTX_V_II, PTX_V_IF, PTX_V_FI, PTX_V_FF,
	PTX_V_PARAM, PTX_V_GLOBAL, PTX_V_LOCAL, PTX_V_GENERIC
};
enum { PTX_TM_INT = 1, PTX_TM_PRED = 2, PTX_TM_F32 = 4, PTX_TM_F64 = 8,
       PTX_TM_H = 16, PTX_TM_BITS = 3, PTX_TM_ANY = 31 };
enum ptx_shape {
	PTX_S_A, PTX_S_AB, PTX_S_ABC, PTX_S_CNT, PTX_S_WIDE, PTX_S_WIDE3,
	PTX_S_SHIFT, PTX_S_BFE, PTX_S_BFI, PTX_S_SETP, PTX_S_SELP, PTX_S_SLCT,
	PTX_S_TESTP, PTX_S_MOV, PTX_S_PACK, PTX_S_UNPACK, PTX_S_CVT, PTX_S_LD,
	PTX_S_ST, PTX_S_BRA, PTX_S_NONE
};

static const struct {
	const char *base;
	uint8_t var, types, shape;
} opdesc[] = {
#define X(id, base, var, types, shape) \
	{ base, PTX_V_##var, PTX_TM_##types, PTX_S_##shape },
	PTX_OPS(X)
#undef X
};

static const struct {
	const char *name;
	uint8_t bits;
	char kind;
} tyinfo[] = {
#define X(id, name, bits, kind) { name, bits, #kind[0] },
	PTX_TYPES(X)
#undef X
};

static const char *const rnd_names[] = {
	"",
#define X(id, name) name,
	PTX_RNDS(X)
#undef X
};
static const char *const cmp_names[] = {
#define X(id, name) name,
	PTX_CMPS(X)
#undef X
};
static const char *const testp_names[] = {
#define X(id, name) name,
	PTX_TESTPS(X)
#undef X
};
static const char *const sreg_names[] = {
#define X(id, name) name,
	PTX_SREGS(X)
#undef X
};

/* Qualifiers that change nothing for one thread at a time on a host. */
static const char *const ignored[] = {
	"uni", "to", "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt",
	"volatile", "weak", "relaxed", "sys", "gpu", "cta", NULL
};

unsigned ptx_type_bits(int ty)
{
	return tyinfo[ty].bits;
}

int ptx_type_kind(int ty)
{
	return tyinfo[ty].kind;
}

static int type_mask(int ty)
{
	switch (tyinfo[ty].kind) {
	case 'P': return PTX_TM_PRED;
	case 'F': return tyinfo[ty].bits == 32 ? PTX_TM_F32 : PTX_TM_F64;
	case 'H': return PTX_TM_H;
	default: return PTX_TM_INT;
	}
}

static int is_float(int ty)
{
	return tyinfo[ty].kind == 'F' || tyinfo[ty].kind == 'H';
}

/* The parts of a mnemonic such as "setp.ltu.and.ftz.f32". */
struct mnem {
	char base[16];
	int var, ty[3], nty, rnd, cmp, boolop, testp, vec, space, mad;
	unsigned flags;
};

static int find_name(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

/* One ".part" of a mnemonic; 0, or -1 if it is not understood. */
static int mnem_part(struct mnem *m, const char *p)
{
	int i, setp = !strcmp(m->base, "setp");
	if (setp && (i = find_name(cmp_names, PTX_NCMPS, p)) >= 0)
		m->cmp = i;
	else if (setp && (i = find_name((const char *const[]){ "", "and", "or",
					"xor" }, 4, p)) > 0)
		m->boolop = i;
	else if (!strcmp(m->base, "testp") &&
		 (i = find_name(testp_names, COUNT(testp_names), p)) >= 0)
		m->testp = i;
	else if ((i = find_name(rnd_names, COUNT(rnd_names), p)) > 0)
		m->rnd = i;
	else if (!strcmp(p, "ftz"))
		m->flags |= PTX_F_FTZ;
	else if (!strcmp(p, "sat"))
		m->flags |= PTX_F_SAT;
	else if (!strcmp(p, "NaN"))
		m->flags |= PTX_F_NAN;
	else if ((i = find_name((const char *const[]){ "", "lo", "hi", "wide",
				"approx", "full" }, 6, p)) > 0)
		m->var = i;   /* PTX_V_LO .. PTX_V_FULL */
	else if ((i = find_name((const char *const[]){ "", "param", "global",
				"local", "const", "shared", "generic" }, 7, p)) > 0)
		m->space = i;
	else if (!strcmp(p, "v2") || !strcmp(p, "v4"))
		m->vec = p[1] - '0';
	else if (find_name(ignored, COUNT(ignored) - 1, p) >= 0 || strstr(p, "::"))
		return 0;
	else {
		for (i = 0; i < PTX_NTYPES && strcmp(tyinfo[i].name, p); i++)
			;
		if (i == PTX_NTYPES || m->nty == 3)
			return -1;
		m->ty[m->nty++] = i;
	}
	return 0;
}

/* Splits the mnemonic token into *m; -1 if some part is unknown. */
static int mnem_split(const struct ptx_tok *t, struct mnem *m)
{
	char buf[96];
	if (t->len >= sizeof buf)
		return -1;
	memcpy(buf, t->s, t->len);
	buf[t->len] = 0;
	memset(m, 0, sizeof *m);
	char *save, *p = strtok_r(buf, ".", &save);
	if (!p || strlen(p) >= sizeof m->base)
		return -1;
	strcpy(m->base, p);
	while ((p = strtok_r(NULL, ".", &save)))
		if (mnem_part(m, p))
			return -1;
	return 0;   /* no type: bra, ret, exit (ty[0] = .pred, in ANY) */
}

/* Base name and variant that select the opcode. */
static int mnem_variant(struct ptx_pstate *st, struct mnem *m)
{
	static const uint8_t space_var[] = { PTX_V_GENERIC, PTX_V_PARAM,
		PTX_V_GLOBAL, PTX_V_LOCAL, PTX_V_GENERIC, 0, PTX_V_GENERIC };
	if (!strcmp(m->base, "cvta"))
		strcpy(m->base, "mov"), m->space = 0;
	if (!strcmp(m->base, "mad") && is_float(m->ty[0]))
		strcpy(m->base, "fma"), m->mad = 1;
	if (!strcmp(m->base, "ld") || !strcmp(m->base, "st")) {
		m->var = space_var[m->space];
		return m->var ? 0 : -1;
	}
	if (m->space)
		return -1;
	if (!strcmp(m->base, "cvt") && m->nty == 2)
		m->var = is_float(m->ty[0]) ? (is_float(m->ty[1]) ? PTX_V_FF : PTX_V_FI)
					    : (is_float(m->ty[1]) ? PTX_V_IF : PTX_V_II);
	if (!strcmp(m->base, "mov") && ptx_tok_is(&st->t[st->pos], "{"))
		m->var = PTX_V_UNPACK;
	else if (!strcmp(m->base, "mov") && ptx_tok_is(&st->t[st->pos + 2], "{"))
		m->var = PTX_V_PACK;
	return 0;
}

static int find_op(const struct mnem *m)
{
	for (int i = 0; i < PTX_NOPS; i++)
		if (opdesc[i].var == m->var && !strcmp(opdesc[i].base, m->base) &&
		    (opdesc[i].types & type_mask(m->ty[0])))
			return i;
	return -1;
}

static const struct ptx_tok *cur(struct ptx_pstate *st)
{
	return &st->t[st->pos];
}

static int want(struct ptx_pstate *st, const char *p)
{
	if (ptx_tok_is(cur(st), p)) {
		st->pos++;
		return 0;
	}
	return ptx_perr(st, cur(st)->line, "expected '%s', found '%.*s'", p,
			(int)cur(st)->len, cur(st)->s);
}

/* Declared register, or special register, named by t; 0 if none. */
static int find_reg(struct ptx_pstate *st, const struct ptx_tok *t,
		    uint32_t *slot)
{
	for (int i = st->nregs - 1; i >= 0; i--) {
		const struct ptx_regdecl *d = &st->regs[i];
		if (!d->count) {
			if (t->len == d->len && !memcmp(t->s, d->name, d->len))
				return *slot = d->base, 1;
			continue;
		}
		if (t->len <= d->len || memcmp(t->s, d->name, d->len))
			continue;
		uint32_t k = d->len, v = 0;
		if (t->s[k] == '0' && t->len > k + 1)
			continue;
		while (k < t->len && isdigit((unsigned char)t->s[k]) && v < d->count)
			v = v * 10 + (uint32_t)(t->s[k++] - '0');
		if (k == t->len && v < d->count)
			return *slot = d->base + v, 1;
	}
	for (int i = 0; i < PTX_NSREGS; i++)
		if (ptx_tok_is(t, sreg_names[i]))
			return *slot = PTX_SLOT_SREG + (uint32_t)i, 1;
	return 0;
}

/* A destination register (or `_`). */
static int opd_dst(struct ptx_pstate *st, uint32_t *slot)
{
	const struct ptx_tok *t = cur(st);
	if (ptx_tok_is(t, "_"))
		*slot = PTX_SLOT_SINK;
	else if (t->kind != PTX_TK_WORD || t->s[0] != '%' || !find_reg(st, t, slot))
		return ptx_perr(st, t->line, "undeclared register '%.*s'",
				(int)t->len, t->s);
	else if (*slot < PTX_SLOT_FIRST)
		return ptx_perr(st, t->line, "'%.*s' is read-only", (int)t->len, t->s);
	st->pos++;
	return 0;
}

/* Address of a .param/.local/module symbol as a constant slot. */
static int sym_slot(struct ptx_pstate *st, const struct ptx_tok *t,
		    uint32_t *slot)
{
	for (int i = st->nsyms - 1; i >= 0; i--) {
		const struct ptx_sym *s = &st->syms[i];
		if (s->len != t->len || memcmp(s->name, t->s, t->len))
			continue;
		if (ptx_new_slot(st, s->value, 64, slot))
			return UB_RUNTIME;
		if (s->space != 'l')
			return 0;
		struct ptx_func *f = st->f;
		int cap = f->nrelocs;
		if (ptx_grow(&f->relocs, &cap, f->nrelocs + 1, sizeof *f->relocs))
			return ptx_perr(st, t->line, "out of memory");
		f->relocs[f->nrelocs++] = (struct ptx_reloc){ *slot, s->value };
		return 0;
	}
	return ptx_perr(st, t->line, "unknown symbol '%.*s'", (int)t->len, t->s);
}

/* A source: register, special register, immediate of type ty, symbol. */
static int opd_src(struct ptx_pstate *st, int ty, uint32_t *slot)
{
	const struct ptx_tok *t = cur(st);
	uint64_t v;
	if (ptx_imm(st, ty, &v) == 0)
		return ptx_new_slot(st, v, tyinfo[ty].bits, slot);
	if (t->kind == PTX_TK_WORD && t->s[0] == '%') {
		if (!find_reg(st, t, slot))
			return ptx_perr(st, t->line, "undeclared register '%.*s'",
					(int)t->len, t->s);
		st->pos++;
		return 0;
	}
	if (t->kind != PTX_TK_WORD)
		return ptx_perr(st, t->line, "bad operand '%.*s'", (int)t->len, t->s);
	st->pos++;
	return sym_slot(st, t, slot);
}

/* A predicate source, optionally negated with '!' when neg is not NULL. */
static int opd_pred(struct ptx_pstate *st, uint32_t *slot, int *neg)
{
	if (neg && (*neg = ptx_tok_is(cur(st), "!")))
		st->pos++;
	const struct ptx_tok *t = cur(st);
	if (t->kind != PTX_TK_WORD || t->s[0] != '%' || !find_reg(st, t, slot))
		return ptx_perr(st, t->line, "undeclared register '%.*s'",
				(int)t->len, t->s);
	st->pos++;
	return 0;
}

/* [base], [base+off], [base+-off], [sym+off], [imm]. */
static int opd_mem(struct ptx_pstate *st, uint32_t *base, int64_t *off)
{
	uint64_t v;
	*off = 0;
	if (want(st, "["))
		return UB_RUNTIME;
	if (ptx_imm(st, PTX_T_U64, &v) == 0) {
		if (ptx_new_slot(st, v, 64, base))
			return UB_RUNTIME;
	} else if (opd_src(st, PTX_T_U64, base)) {
		return UB_RUNTIME;
	}
	if (ptx_tok_is(cur(st), "+")) {
		st->pos++;
		if (ptx_imm(st, PTX_T_S64, &v) < 0)
			return ptx_perr(st, cur(st)->line, "bad address offset");
		*off = (int64_t)v;
	}
	return want(st, "]");
}

/* {r0, r1, ...}: destinations (dst) or sources of type ty. */
static int opd_list(struct ptx_pstate *st, uint32_t *slots, int *n, int dst,
		    int ty)
{
	*n = 0;
	if (want(st, "{"))
		return UB_RUNTIME;
	do {
		if (*n && want(st, ","))
			return UB_RUNTIME;
		if (*n == 4)
			return ptx_perr(st, cur(st)->line, "vector too long");
		if (dst ? opd_dst(st, &slots[*n]) : opd_src(st, ty, &slots[*n]))
			return UB_RUNTIME;
		++*n;
	} while (!ptx_tok_is(cur(st), "}"));
	st->pos++;
	return 0;
}

/* d, then n sources of type ty. */
static int opds_dn(struct ptx_pstate *st, struct ptx_insn *in, int n, int ty)
{
	if (opd_dst(st, &in->dst))
		return UB_RUNTIME;
	for (int i = 0; i < n; i++)
		if (want(st, ",") || opd_src(st, ty, &in->src[i]))
			return UB_RUNTIME;
	return 0;
}

/* setp: p[|q], a, b[, [!]c] */
static int opds_setp(struct ptx_pstate *st, struct ptx_insn *in, int ty)
{
	int neg = 0;
	in->src[3] = PTX_SLOT_SINK;
	if (opd_dst(st, &in->dst))
		return UB_RUNTIME;
	if (ptx_tok_is(cur(st), "|")) {
		st->pos++;
		if (opd_dst(st, &in->src[3]))
			return UB_RUNTIME;
	}
	if (want(st, ",") || opd_src(st, ty, &in->src[0]) || want(st, ",") ||
	    opd_src(st, ty, &in->src[1]))
		return UB_RUNTIME;
	if (in->aux != PTX_BOOL_NONE &&
	    (want(st, ",") || opd_pred(st, &in->src[2], &neg)))
		return UB_RUNTIME;
	if (neg)
		in->flags |= PTX_F_NEGC;
	return 0;
}

/* ld: d or {d0, ..}, [a]   st: [a], b or {b0, ..}.  Data registers go to
 * dst, src[1..3]; the address base to src[0]. */
static int opds_mem(struct ptx_pstate *st, struct ptx_insn *in, int ty, int ld)
{
	uint32_t v[4] = { 0 };
	int n = 1;
	if (!ld && (opd_mem(st, &in->src[0], &in->off) || want(st, ",")))
		return UB_RUNTIME;
	if (ptx_tok_is(cur(st), "{")) {
		if (opd_list(st, v, &n, ld, ty))
			return UB_RUNTIME;
	} else if (ld ? opd_dst(st, &v[0]) : opd_src(st, ty, &v[0])) {
		return UB_RUNTIME;
	}
	if (ld && (want(st, ",") || opd_mem(st, &in->src[0], &in->off)))
		return UB_RUNTIME;
	if (n != (in->aux ? in->aux : 1))
		return ptx_perr(st, cur(st)->line, "vector length mismatch");
	in->aux = (uint8_t)n;
	in->dst = v[0];
	for (int i = 1; i < n; i++)
		in->src[i] = v[i];
	if (ld) {
		in->rbits = st->f->width[v[0]];
		if ((in->flags & PTX_F_SIGNED) && in->rbits > in->bits)
			in->flags |= PTX_F_SEXT;
	}
	return 0;
}

/* mov d, {a, b, ..} and mov {d0, d1, ..}, a. */
static int opds_pack(struct ptx_pstate *st, struct ptx_insn *in, int pack)
{
	uint32_t v[4];
	int n;
	if (pack) {
		if (opd_dst(st, &in->dst) || want(st, ",") ||
		    opd_list(st, v, &n, 0, PTX_T_B64))
			return UB_RUNTIME;
		memcpy(in->src, v, sizeof v);
	} else {
		if (opd_list(st, v, &n, 1, 0) || want(st, ",") ||
		    opd_src(st, PTX_T_B64, &in->src[0]))
			return UB_RUNTIME;
		in->dst = v[0];
		for (int i = 1; i < n; i++)
			in->src[i] = v[i];
	}
	if (n < 2 || in->bits % n)
		return ptx_perr(st, cur(st)->line, "bad vector for mov");
	in->aux = (uint8_t)n;
	return 0;
}

/* Operands of shape sh; ty is the instruction's (first) type. */
static int operands(struct ptx_pstate *st, struct ptx_insn *in, int sh,
		    const struct mnem *m)
{
	int ty = m->ty[0], wide = ty + 1;   /* u16 -> u32, s32 -> s64 */
	switch (sh) {
	case PTX_S_A: case PTX_S_MOV: return opds_dn(st, in, 1, ty);
	case PTX_S_AB: return opds_dn(st, in, 2, ty);
	case PTX_S_ABC: return opds_dn(st, in, 3, ty);
	case PTX_S_CNT: case PTX_S_TESTP: return opds_dn(st, in, 1, ty);
	case PTX_S_WIDE: return opds_dn(st, in, 2, ty);
	case PTX_S_WIDE3:
		return opds_dn(st, in, 2, ty) || want(st, ",") ||
		       opd_src(st, wide, &in->src[2]);
	case PTX_S_SHIFT: case PTX_S_BFE: case PTX_S_BFI: {
		int nt = sh == PTX_S_BFI ? 2 : 1, n = sh == PTX_S_SHIFT ? 2 :
			 sh == PTX_S_BFE ? 3 : 4;
		if (opd_dst(st, &in->dst))
			return UB_RUNTIME;
		for (int i = 0; i < n; i++)
			if (want(st, ",") ||
			    opd_src(st, i < nt ? ty : PTX_T_U32, &in->src[i]))
				return UB_RUNTIME;
		return 0;
	}
	case PTX_S_SETP: return opds_setp(st, in, ty);
	case PTX_S_SELP:
		return opds_dn(st, in, 2, ty) || want(st, ",") ||
		       opd_pred(st, &in->src[2], NULL);
	case PTX_S_SLCT:
		return opds_dn(st, in, 2, ty) || want(st, ",") ||
		       opd_src(st, m->ty[1], &in->src[2]);
	case PTX_S_CVT:
		if (opds_dn(st, in, 1, m->ty[1]))
			return UB_RUNTIME;
		/* PTX relaxed type rules: a narrow signed integer result is
		 * sign-extended to a wider destination register. */
		in->rbits = st->f->width[in->dst];
		if ((in->flags & PTX_F_DSIGNED) && in->rbits > in->bits)
			in->flags |= PTX_F_SEXT;
		return 0;
	case PTX_S_PACK: case PTX_S_UNPACK: return opds_pack(st, in, sh == PTX_S_PACK);
	case PTX_S_LD: case PTX_S_ST: return opds_mem(st, in, ty, sh == PTX_S_LD);
	case PTX_S_BRA: {
		const struct ptx_tok *t = cur(st);
		if (t->kind != PTX_TK_WORD)
			return ptx_perr(st, t->line, "expected a label");
		if (ptx_grow(&st->refs, &st->cap_refs, st->nrefs + 1, sizeof *st->refs))
			return ptx_perr(st, t->line, "out of memory");
		st->refs[st->nrefs++] = (struct ptx_labelref){ st->f->ncode,
			t->line, t->s, t->len };
		st->pos++;
		return 0;
	}
	default: return 0;
	}
}

/* Rounding rules of the float forms (PTX ISA, per instruction):
 * add/sub/mul may omit it (then .rn, and ptxas may fuse them: flagged);
 * mad.f32 without one is fma.rn.f32 (sm_20 and later); fma, div, rcp and
 * sqrt need one; approximate forms and the rest take none. */
static const char *check_rnd(struct ptx_insn *in, const struct mnem *m)
{
	int op = in->op, r = m->rnd;
	int fl = opdesc[op].types == PTX_TM_F32 || opdesc[op].types == PTX_TM_F64;
	int needs = op == PTX_FMA_F32 || op == PTX_FMA_F64 || op == PTX_DIV_F32 ||
		    op == PTX_DIV_F64 || op == PTX_RCP_F32 || op == PTX_RCP_F64 ||
		    op == PTX_SQRT_F32 || op == PTX_SQRT_F64;
	int optional = op == PTX_ADD_F32 || op == PTX_ADD_F64 || op == PTX_SUB_F32 ||
		       op == PTX_SUB_F64 || op == PTX_MUL_F32 || op == PTX_MUL_F64;
	if (!fl)
		return r ? "rounding modifier not allowed" : NULL;
	if (r > PTX_RND_RP || (r && !needs && !optional))
		return "rounding modifier not allowed";
	if (!r && optional)
		in->flags |= PTX_F_UNMARKED;
	/* mad.f32/.f64 without a modifier: the ISA maps legacy mad.f64 to
	 * mad.rn.f64 and requires one for mad.f32 on sm_20+; we accept both
	 * as .rn, which is fma.rn (mad.rnd.f32 "is identical to"
	 * fma.rnd.f32 on sm_20 and later). */
	if (!r && needs && !m->mad)
		return "needs a rounding modifier";
	in->rnd = (uint8_t)(r ? r : PTX_RND_RN);
	return NULL;
}

/* cvt: rounding modifier required for int<->float and narrowing float,
 * integral rounding (.rni..) for float->int, none for int->int. */
static const char *check_cvt(struct ptx_insn *in, const struct mnem *m)
{
	int r = m->rnd, d = m->ty[0], s = m->ty[1];
	if (m->nty != 2 || tyinfo[d].kind == 'P' || tyinfo[s].kind == 'P')
		return "bad cvt types";
	in->dtype = (uint8_t)d;
	in->aux = (uint8_t)s;
	in->bits = tyinfo[d].bits;
	in->sbits = tyinfo[s].bits;
	in->flags &= (uint16_t)~PTX_F_SIGNED;
	if (tyinfo[s].kind == 'S')
		in->flags |= PTX_F_SIGNED;
	if (tyinfo[d].kind == 'S')
		in->flags |= PTX_F_DSIGNED;
	in->rnd = (uint8_t)r;
	switch (in->op) {
	case PTX_CVT_II: return r ? "rounding modifier not allowed" : NULL;
	case PTX_CVT_IF: return r >= PTX_RND_RNI ? NULL : "needs .rni/.rzi/.rmi/.rpi";
	case PTX_CVT_FI: return r && r <= PTX_RND_RP ? NULL : "needs .rn/.rz/.rm/.rp";
	default:
		if (in->bits < in->sbits)
			return r && r <= PTX_RND_RP ? NULL : "needs .rn/.rz/.rm/.rp";
		if (in->bits > in->sbits)
			return r ? "rounding modifier not allowed" : NULL;
		return r && r <= PTX_RND_RP ? "rounding modifier not allowed" : NULL;
	}
}

/* Fills in the fields that come from the mnemonic; NULL or a problem. */
static const char *set_fields(struct ptx_insn *in, const struct mnem *m)
{
	int ty = m->ty[0], op = in->op;
	int fl = opdesc[op].types == PTX_TM_F32 || opdesc[op].types == PTX_TM_F64;
	in->bits = tyinfo[ty].bits;
	in->flags |= (uint16_t)m->flags;
	if (tyinfo[ty].kind == 'S')
		in->flags |= PTX_F_SIGNED;
	if ((m->flags & PTX_F_FTZ) && !fl && opdesc[op].shape != PTX_S_CVT)
		return ".ftz not allowed";
	if ((m->flags & PTX_F_SAT) && !fl && opdesc[op].shape != PTX_S_CVT)
		return ".sat not supported";
	if ((m->flags & PTX_F_NAN) && op != PTX_MIN_F32 && op != PTX_MAX_F32 &&
	    op != PTX_MIN_F64 && op != PTX_MAX_F64)
		return ".NaN not allowed";
	if (opdesc[op].shape == PTX_S_WIDE || opdesc[op].shape == PTX_S_WIDE3)
		if (in->bits != 16 && in->bits != 32)
			return ".wide needs a 16 or 32-bit type";
	if (opdesc[op].shape == PTX_S_SETP && (m->cmp >= PTX_CMP_LO && m->cmp <= PTX_CMP_HS) && fl)
		return "unsigned compare of floats";
	if (opdesc[op].shape == PTX_S_SETP && m->cmp >= PTX_CMP_EQU && !fl)
		return "unordered compare of integers";
	if (opdesc[op].shape == PTX_S_SLCT && m->nty == 2 && m->ty[1] == PTX_T_F32)
		in->flags |= PTX_F_SRC_F32;
	if (opdesc[op].shape == PTX_S_SLCT && (m->nty != 2 ||
	    (m->ty[1] != PTX_T_F32 && m->ty[1] != PTX_T_S32)))
		return "slct needs .s32 or .f32 for c";
	in->cmp = (uint8_t)(opdesc[op].shape == PTX_S_TESTP ? m->testp : m->cmp);
	in->aux = (uint8_t)(opdesc[op].shape == PTX_S_SETP ? m->boolop : m->vec);
	if (opdesc[op].shape == PTX_S_CVT)
		return check_cvt(in, m);
	return check_rnd(in, m);
}

int ptx_decode_insn(struct ptx_pstate *st)
{
	struct ptx_insn in = { .guard = PTX_SLOT_TRUE };
	const struct ptx_tok *t = cur(st);
	uint32_t line = t->line;
	int neg = 0;
	if (ptx_tok_is(t, "@")) {
		st->pos++;
		if (opd_pred(st, &in.guard, &neg))
			return UB_RUNTIME;
		in.gneg = (uint8_t)neg;
	}
	const struct ptx_tok *mt = cur(st);
	struct mnem m;
	int op = -1;
	st->pos++;
	if (mt->kind == PTX_TK_WORD && mnem_split(mt, &m) == 0 &&
	    mnem_variant(st, &m) == 0)
		op = find_op(&m);
	if (op < 0)
		return ptx_perr(st, line, "unsupported instruction '%.*s'",
				(int)mt->len, mt->s);
	in.op = (uint16_t)op;
	const char *why = set_fields(&in, &m);
	if (why)
		return ptx_perr(st, line, "unsupported instruction '%.*s': %s",
				(int)mt->len, mt->s, why);
	if (operands(st, &in, opdesc[op].shape, &m) || want(st, ";"))
		return UB_RUNTIME;
	return ptx_emit(st, &in, line, mt);
}

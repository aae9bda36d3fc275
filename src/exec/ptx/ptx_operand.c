/* ptx_operand.c — operands of one PTX instruction: registers (declared,
 * special, or the sink `_`) resolved to slots, immediates and symbol
 * addresses turned into constant slots (a .local symbol's slot is patched
 * with the thread's local buffer at run time), memory operands [base+off],
 * vectors {a, b}, and branch targets recorded for resolution at the end of
 * the kernel.  The layout of each shape is in ptx_internal.h. */
#include "ptx_internal.h"

#include <ctype.h>
#include <string.h>

static const char *const sreg_names[] = {
#define X(id, name) name,
	PTX_SREGS(X)
#undef X
};

static const struct sreg_alias {
	const char *name;
	char kind;
	uint32_t value;
} sreg_aliases[] = {
#define X(name, kind, value) { name, #kind[0], value },
	PTX_SREG_ALIASES(X)
#undef X
};

/* The special register t names among those of PTX_SREG_ALIASES; NULL if
 * none. */
static const struct sreg_alias *sreg_alias(const struct ptx_tok *t)
{
	for (size_t i = 0; i < sizeof sreg_aliases / sizeof *sreg_aliases; i++)
		if (ptx_tok_is(t, sreg_aliases[i].name))
			return &sreg_aliases[i];
	return NULL;
}

static const struct ptx_tok *cur(struct ptx_pstate *st)
{
	return ptx_peek(st, 0);
}

int ptx_expect(struct ptx_pstate *st, const char *p)
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
	else if (t->kind != PTX_TK_WORD || !find_reg(st, t, slot))
		return ptx_perr(st, t->line, "undeclared register '%.*s'",
				(int)t->len, t->s);
	else if (*slot < PTX_SLOT_FIRST)
		return ptx_perr(st, t->line, "'%.*s' is read-only", (int)t->len, t->s);
	st->pos++;
	return 0;
}

/* The function names the static .shared variable at offset off: counted
 * in its shared_bytes once (ptxas's count of a kernel's .shared). */
static int used_shared(struct ptx_pstate *st, uint64_t off)
{
	struct ptx_func *f = st->f;
	const struct ptx_module *m = st->m;
	int v = 0;
	while (v < m->nsvars && m->svars[v].off != off)
		v++;
	for (int i = 0; i < f->nsvars; i++)
		if (f->svars[i] == v)
			return 0;
	if (v == m->nsvars)
		return 0;
	int cap = f->nsvars;
	if (ptx_grow(&f->svars, &cap, f->nsvars + 1, sizeof *f->svars))
		return ptx_perr(st, cur(st)->line, "out of memory");
	f->svars[f->nsvars++] = v;
	f->shared_bytes += m->svars[v].size;
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
		if (s->space == 's' || s->space == 'd')   /* its threads share it */
			st->f->block_level = 1;
		if (s->space == 's' && used_shared(st, s->value))
			return UB_RUNTIME;
		if (s->space == 'g' || s->space == 's')
			return 0;
		struct ptx_func *f = st->f;
		int cap = f->nrelocs;
		if (ptx_grow(&f->relocs, &cap, f->nrelocs + 1, sizeof *f->relocs))
			return ptx_perr(st, t->line, "out of memory");
		f->relocs[f->nrelocs++] = (struct ptx_reloc){ *slot, s->value,
							      s->space };
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
		return ptx_new_slot(st, v, ptx_type_bits(ty), slot);
	if (t->kind == PTX_TK_WORD && find_reg(st, t, slot)) {
		st->pos++;   /* inline asm names registers without '%' too */
		return 0;
	}
	const struct sreg_alias *a = t->kind == PTX_TK_WORD ? sreg_alias(t) : NULL;
	if (a) {
		st->pos++;
		if (a->kind == 'A')
			return *slot = PTX_SLOT_SREG + a->value, 0;
		if (a->kind == 'C')
			return ptx_new_slot(st, a->value, 32, slot);
		return ptx_perr(st, t->line, "'%.*s' is read by mov only", (int)t->len,
				t->s);
	}
	if (t->kind == PTX_TK_WORD && t->s[0] == '%')
		return ptx_perr(st, t->line, "undeclared register '%.*s'",
				(int)t->len, t->s);
	if (t->kind != PTX_TK_WORD)
		return ptx_perr(st, t->line, "bad operand '%.*s'", (int)t->len, t->s);
	st->pos++;
	return sym_slot(st, t, slot);
}

/* A predicate source, optionally negated with '!' when neg is not NULL. */
int ptx_opd_pred(struct ptx_pstate *st, uint32_t *slot, int *neg)
{
	if (neg && (*neg = ptx_tok_is(cur(st), "!")))
		st->pos++;
	const struct ptx_tok *t = cur(st);
	if (t->kind != PTX_TK_WORD || !find_reg(st, t, slot))
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
	if (ptx_expect(st, "["))
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
	return ptx_expect(st, "]");
}

/* {r0, r1, ...}: destinations (dst) or sources of type ty. */
static int opd_list(struct ptx_pstate *st, uint32_t *slots, int *n, int dst,
		    int ty)
{
	*n = 0;
	if (ptx_expect(st, "{"))
		return UB_RUNTIME;
	do {
		if (*n && ptx_expect(st, ","))
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
		if (ptx_expect(st, ",") || opd_src(st, ty, &in->src[i]))
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
	if (ptx_expect(st, ",") || opd_src(st, ty, &in->src[0]) || ptx_expect(st, ",") ||
	    opd_src(st, ty, &in->src[1]))
		return UB_RUNTIME;
	if (in->aux != PTX_BOOL_NONE &&
	    (ptx_expect(st, ",") || ptx_opd_pred(st, &in->src[2], &neg)))
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
	if (!ld && (opd_mem(st, &in->src[0], &in->off) || ptx_expect(st, ",")))
		return UB_RUNTIME;
	if (ptx_tok_is(cur(st), "{")) {
		if (opd_list(st, v, &n, ld, ty))
			return UB_RUNTIME;
	} else if (ld ? opd_dst(st, &v[0]) : opd_src(st, ty, &v[0])) {
		return UB_RUNTIME;
	}
	if (ld && (ptx_expect(st, ",") || opd_mem(st, &in->src[0], &in->off)))
		return UB_RUNTIME;
	uint32_t policy;   /* .L2::cache_hint: the policy, for the cache only */
	if ((in->flags & PTX_F_HINT) &&
	    (ptx_expect(st, ",") || opd_src(st, PTX_T_B64, &policy)))
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

/* createpolicy d, ...: the operands after d describe the policy to the
 * cache (a fraction, an address range, an access property); skipped up to
 * the ';' without a look at what they mean. */
static int opds_policy(struct ptx_pstate *st, struct ptx_insn *in)
{
	if (opd_dst(st, &in->dst))
		return UB_RUNTIME;
	while (!ptx_tok_is(cur(st), ";") && cur(st)->kind != PTX_TK_END)
		st->pos++;
	return 0;
}

/* mov d, {a, b, ..} and mov {d0, d1, ..}, a. */
static int opds_pack(struct ptx_pstate *st, struct ptx_insn *in, int pack)
{
	uint32_t v[4];
	int n;
	if (pack) {
		if (opd_dst(st, &in->dst) || ptx_expect(st, ",") ||
		    opd_list(st, v, &n, 0, PTX_T_B64))
			return UB_RUNTIME;
		memcpy(in->src, v, sizeof v);
	} else {
		if (opd_list(st, v, &n, 1, 0) || ptx_expect(st, ",") ||
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

/* call{.uni} [(ret),] name[, (arg, ...)]: the call site is recorded in
 * the function's calls (in->off) and resolved once the module is read. */
static int opds_call(struct ptx_pstate *st, struct ptx_insn *in)
{
	struct ptx_func *f = st->f;
	struct ptx_call c = { .func = -1, .line = cur(st)->line };
	int cap = f->ncalls;
	if (ptx_tok_is(cur(st), "(")) {
		st->pos++;
		if (opd_src(st, PTX_T_U64, &c.ret) || ptx_expect(st, ")") ||
		    ptx_expect(st, ","))
			return UB_RUNTIME;
		c.has_ret = 1;
	}
	const struct ptx_tok *t = cur(st);
	if (t->kind != PTX_TK_WORD)
		return ptx_perr(st, t->line, "expected a function name");
	c.name = t->s, c.len = t->len;
	st->pos++;
	if (ptx_tok_is(cur(st), ",")) {
		st->pos++;
		if (ptx_expect(st, "("))
			return UB_RUNTIME;
		while (!ptx_tok_is(cur(st), ")")) {
			if (c.nargs == PTX_MAX_CALL_ARGS)
				return ptx_perr(st, t->line, "more than %d call arguments",
						PTX_MAX_CALL_ARGS);
			if ((c.nargs && ptx_expect(st, ",")) ||
			    opd_src(st, PTX_T_U64, &c.args[c.nargs]))
				return UB_RUNTIME;
			c.nargs++;
		}
		st->pos++;
	}
	if (ptx_builtin_call(st, in, &c))   /* device assert, printf */
		return 0;
	if (ptx_grow(&f->calls, &cap, f->ncalls + 1, sizeof *f->calls))
		return ptx_perr(st, t->line, "out of memory");
	in->off = f->ncalls;
	f->calls[f->ncalls++] = c;
	return 0;
}

/* Operands of shape sh; types are the instruction's types. */
int ptx_operands(struct ptx_pstate *st, struct ptx_insn *in, int sh,
		 const int *types)
{
	int ty = types[0], wide = ty + 1;   /* u16 -> u32, s32 -> s64 */
	switch (sh) {
	case PTX_S_A: return opds_dn(st, in, 1, ty);
	case PTX_S_MOV: {   /* mov d, %lanemask_lt: LANEMASK of %laneid;
			       mov d, %clock64: CLOCK */
		const struct sreg_alias *a = in->op == PTX_MOV && ptx_tok_is(ptx_peek(st, 1), ",")
					     ? sreg_alias(ptx_peek(st, 2)) : NULL;
		if (!a || (a->kind != 'L' && a->kind != 'T'))
			return opds_dn(st, in, 1, ty);
		if (opd_dst(st, &in->dst) || ptx_expect(st, ","))
			return UB_RUNTIME;
		st->pos++;
		in->op = a->kind == 'L' ? PTX_LANEMASK : PTX_CLOCK;
		in->cmp = (uint8_t)a->value;
		in->src[0] = PTX_SLOT_SREG + PTX_SR_LANEID;
		return 0;
	}
	case PTX_S_AB: return opds_dn(st, in, 2, ty);
	case PTX_S_ABC: return opds_dn(st, in, 3, ty);
	case PTX_S_CNT: case PTX_S_TESTP: return opds_dn(st, in, 1, ty);
	case PTX_S_WIDE: return opds_dn(st, in, 2, ty);
	case PTX_S_WIDE3:
		return opds_dn(st, in, 2, ty) || ptx_expect(st, ",") ||
		       opd_src(st, wide, &in->src[2]);
	case PTX_S_SHIFT: case PTX_S_BFE: case PTX_S_BFI: {
		int nt = sh == PTX_S_BFI ? 2 : 1, n = sh == PTX_S_SHIFT ? 2 :
			 sh == PTX_S_BFE ? 3 : 4;
		if (opd_dst(st, &in->dst))
			return UB_RUNTIME;
		for (int i = 0; i < n; i++)
			if (ptx_expect(st, ",") ||
			    opd_src(st, i < nt ? ty : PTX_T_U32, &in->src[i]))
				return UB_RUNTIME;
		return 0;
	}
	case PTX_S_SETP: return opds_setp(st, in, ty);
	case PTX_S_SELP:
		return opds_dn(st, in, 2, ty) || ptx_expect(st, ",") ||
		       ptx_opd_pred(st, &in->src[2], NULL);
	case PTX_S_SLCT:
		return opds_dn(st, in, 2, ty) || ptx_expect(st, ",") ||
		       opd_src(st, types[1], &in->src[2]);
	case PTX_S_SET: case PTX_S_CVT2: return opds_dn(st, in, 2, types[1]);
	case PTX_S_CALL: return opds_call(st, in);
	case PTX_S_POLICY: return opds_policy(st, in);
	case PTX_S_CVT:
		if (opds_dn(st, in, 1, types[1]))
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


int ptx_opd_dst(struct ptx_pstate *st, uint32_t *slot)
{
	return opd_dst(st, slot);
}

int ptx_opd_src(struct ptx_pstate *st, int ty, uint32_t *slot)
{
	return opd_src(st, ty, slot);
}

int ptx_opd_mem(struct ptx_pstate *st, uint32_t *base, int64_t *off)
{
	return opd_mem(st, base, off);
}

/* ptx_insn.c — decodes one PTX instruction statement into a struct
 * ptx_insn: the guard, the mnemonic into an opcode (ptx_ops.h) with its
 * types, rounding mode and flags, checked against the ISA's rules for
 * rounding modifiers; the operands are decoded by ptx_operand.c.  Anything
 * outside the supported subset is an error naming the instruction
 * ("ptx:LINE: unsupported instruction 'xyz.abc'"), never a guess. */
#include "ptx_internal.h"
#include "ptx_mufu.h"
#include "ptx_mma.h"

#include <stdlib.h>
#include <string.h>

enum ptx_variant {
	PTX_V__, PTX_V_LO, PTX_V_HI, PTX_V_WIDE, PTX_V_APPROX, PTX_V_FULL,
	PTX_V_PACK, PTX_V_UNPACK, PTX_V_II, PTX_V_IF, PTX_V_FI, PTX_V_FF,
	PTX_V_PARAM, PTX_V_GLOBAL, PTX_V_LOCAL, PTX_V_GENERIC, PTX_V_X2,
	PTX_V_L, PTX_V_R, PTX_V_SHARED, PTX_V_TOSHARED, PTX_V_BLOCK, PTX_V_WARP
};
enum { PTX_TM_INT = 1, PTX_TM_PRED = 2, PTX_TM_F32 = 4, PTX_TM_F64 = 8,
       PTX_TM_H = 16, PTX_TM_BITS = 3, PTX_TM_ANY = 31 };

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

/* Qualifiers that change nothing for one thread at a time on a host:
 * cache operators (ld .ca .cg .cs .lu .cv .nc, st .wb .cg .cs .wt),
 * memory-model orderings and scopes (threads of an elementwise kernel
 * share no data, and atomics are refused), and every "X::Y" part
 * (.L1::evict_last, .L1::no_allocate, .L2::256B, eviction priorities). */
static const char *const ignored[] = {
	"uni", "to", "nc", "ca", "cg", "cs", "lu", "cv", "wb", "wt",
	"volatile", "weak", "relaxed", "acquire", "release", "sys", "gpu",
	"cta", NULL
};

/* createpolicy.{fractional,range,cvt}[.L2]: what kind of policy it makes
 * (the eviction priorities are "::" parts, ignored like every one). */
static const char *const policy_parts[] = { "fractional", "range", "cvt", "L2" };

int ptx_op_shape(int op)
{
	return opdesc[op].shape;
}

int ptx_writes(const struct ptx_insn *in, uint32_t *w)
{
	int n = 0;
	if (in->op == PTX_HOLD) {   /* keeps a and b: d is not written */
		w[0] = in->src[2];
		w[1] = in->src[3];
		return 2;
	}
	switch (ptx_op_shape(in->op)) {
	case PTX_S_ST: case PTX_S_BRA: case PTX_S_NONE: case PTX_S_CALL:
	case PTX_S_BAR: case PTX_S_BUILTIN: case PTX_S_CPASYNC:
		if (in->op != PTX_CLOCK)   /* CLOCK: d only */
			return 0;
		break;
	case PTX_S_SHFL: case PTX_S_MATCH: case PTX_S_ELECT:   /* p */
		w[n++] = (uint32_t)in->off;
		break;
	case PTX_S_SETP:
		w[n++] = in->src[3];
		break;
	case PTX_S_LD: case PTX_S_UNPACK:   /* aux destinations */
		for (int i = 1; i < in->aux && i < 4; i++)
			w[n++] = in->src[i];
		break;
	case PTX_S_MMA: {   /* the written part of its list (ptx_mma.h) */
		const uint32_t *l = (const uint32_t *)(uintptr_t)in->off;
		for (uint32_t i = 0; i < l[0]; i++)
			w[n++] = l[PTX_OPL_HEAD + i];
		return n;
	}
	default:
		break;
	}
	if (in->flags & PTX_F_CC)
		w[n++] = PTX_SLOT_CC;
	w[n++] = in->dst;
	return n;
}

int ptx_reads(const struct ptx_insn *in, uint32_t *r)
{
	int n = 0, k;
	switch (ptx_op_shape(in->op)) {   /* HOLD is AB, FUSED ABC */
	case PTX_S_A: case PTX_S_MOV: case PTX_S_CNT: case PTX_S_TESTP:
	case PTX_S_CVT: case PTX_S_UNPACK: case PTX_S_LD: k = 1; break;
	case PTX_S_AB: case PTX_S_SHIFT: case PTX_S_WIDE: case PTX_S_SET:
	case PTX_S_CVT2: k = 2; break;
	case PTX_S_SETP: case PTX_S_ABC: case PTX_S_WIDE3: case PTX_S_SELP:
	case PTX_S_SLCT: case PTX_S_BFE: k = 3; break;
	case PTX_S_BFI: case PTX_S_SHFL: k = 4; break;
	case PTX_S_BAR: case PTX_S_ELECT: k = 1; break;
	case PTX_S_VOTE: case PTX_S_MATCH: case PTX_S_REDUX: k = 2; break;
	case PTX_S_ATOM: k = 3; break;
	case PTX_S_MMA: {   /* the read part of its list (ptx_mma.h) */
		const uint32_t *l = (const uint32_t *)(uintptr_t)in->off;
		for (uint32_t i = 0; i < l[1]; i++)
			r[n++] = l[PTX_OPL_HEAD + l[0] + i];
		k = 0;
		break;
	}
	case PTX_S_BUILTIN: case PTX_S_CPASYNC: k = 4; break;
	case PTX_S_MBAR: k = 2; break;
	case PTX_S_PACK: k = in->aux < 4 ? in->aux : 4; break;
	case PTX_S_ST:   /* the address, then the data: d and src[1..] */
		k = 1;
		r[n++] = in->dst;
		for (int i = 1; i < in->aux && i < 4; i++)
			r[n++] = in->src[i];
		break;
	default: k = 0; break;
	}
	for (int i = 0; i < k; i++)
		r[n++] = in->src[i];
	if (in->guard != PTX_SLOT_TRUE)
		r[n++] = in->guard;
	if (in->flags & PTX_F_CIN)
		r[n++] = PTX_SLOT_CC;
	return n;
}

const char *ptx_type_name(int ty)
{
	return tyinfo[ty].name;
}

unsigned ptx_type_name_len(int ty)
{
	return (unsigned)strlen(tyinfo[ty].name);
}

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
	int var, ty[3], nty, rnd, cmp, boolop, testp, vec, space, mad, shf, to;
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
	int i, setp = !strcmp(m->base, "setp") || !strcmp(m->base, "set");
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
	else if (!strcmp(m->base, "shf") && (!strcmp(p, "l") || !strcmp(p, "r")))
		m->var = p[0] == 'l' ? PTX_V_L : PTX_V_R;
	else if (!strcmp(m->base, "shf") && (!strcmp(p, "wrap") || !strcmp(p, "clamp")))
		m->shf = p[0] == 'c' ? 2 : 1;
	else if (!strcmp(p, "ftz"))
		m->flags |= PTX_F_FTZ;
	else if (!strcmp(p, "sat"))
		m->flags |= PTX_F_SAT;
	else if (!strcmp(p, "cc"))
		m->flags |= PTX_F_CC;
	else if (!strcmp(p, "NaN"))
		m->flags |= PTX_F_NAN;
	else if ((i = find_name((const char *const[]){ "", "lo", "hi", "wide",
				"approx", "full" }, 6, p)) > 0)
		m->var = i;   /* PTX_V_LO .. PTX_V_FULL */
	else if ((i = find_name((const char *const[]){ "", "param", "global",
				"local", "const", "shared", "generic" }, 7, p)) > 0)
		m->space = i;
	else if (!strcmp(p, "to") && !strcmp(m->base, "cvta"))
		m->to = 1;
	else if (!strcmp(p, "v2") || !strcmp(p, "v4"))
		m->vec = p[1] - '0';
	else if (!strcmp(p, "L2::cache_hint"))
		m->flags |= PTX_F_HINT;
	else if (!strcmp(m->base, "createpolicy") &&
		 find_name(policy_parts, COUNT(policy_parts), p) >= 0)
		return 0;
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
		PTX_V_GLOBAL, PTX_V_LOCAL, PTX_V_GENERIC, PTX_V_SHARED, PTX_V_GENERIC };
	if (!strcmp(m->base, "cvta") && m->space == 5) {   /* .shared offsets */
		m->var = m->to ? PTX_V_TOSHARED : PTX_V_SHARED;
		m->space = 0;
		return 0;
	}
	if (!strcmp(m->base, "cvta"))
		strcpy(m->base, "mov"), m->space = 0;
	if (!strcmp(m->base, "mad") && is_float(m->ty[0]))
		strcpy(m->base, "fma"), m->mad = 1;
	/* add.cc, sub.cc, mad{.lo,.hi}.cc are addc, subc, madc without the
	 * carry coming in */
	if (!strcmp(m->base, "addc") || !strcmp(m->base, "subc") ||
	    !strcmp(m->base, "madc"))
		m->flags |= PTX_F_CIN;
	else if ((m->flags & PTX_F_CC) && (!strcmp(m->base, "add") ||
		 !strcmp(m->base, "sub") || !strcmp(m->base, "mad")))
		strcat(m->base, "c");
	if (!strcmp(m->base, "ld") || !strcmp(m->base, "st")) {
		m->var = space_var[m->space];
		return m->var ? 0 : -1;
	}
	if (m->space)
		return -1;
	if (!strcmp(m->base, "cvt") && m->nty == 2 &&
	    (m->ty[0] == PTX_T_F16X2 || m->ty[0] == PTX_T_BF16X2) &&
	    m->ty[1] == PTX_T_F32)
		m->var = PTX_V_X2;
	else if (!strcmp(m->base, "cvt") && m->nty == 2)
		m->var = is_float(m->ty[0]) ? (is_float(m->ty[1]) ? PTX_V_FF : PTX_V_FI)
					    : (is_float(m->ty[1]) ? PTX_V_IF : PTX_V_II);
	if (!strcmp(m->base, "mov") && ptx_tok_is(ptx_peek(st, 0), "{"))
		m->var = PTX_V_UNPACK;
	else if (!strcmp(m->base, "mov") && ptx_tok_is(ptx_peek(st, 2), "{"))
		m->var = PTX_V_PACK;
	return 0;
}

static int find_op(const struct mnem *m)
{
	for (int i = 0; i < PTX_NOPS; i++)
		if (opdesc[i].var == m->var && opdesc[i].base[0] == m->base[0] &&
		    !strcmp(opdesc[i].base, m->base) &&
		    (opdesc[i].types & type_mask(m->ty[0])))
			return i;
	return -1;
}

static const struct ptx_tok *cur(struct ptx_pstate *st)
{
	return ptx_peek(st, 0);
}

static int is_half_op(int op)
{
	return opdesc[op].types == PTX_TM_H;
}

/* Rounding rules of the float forms (PTX ISA, per instruction):
 * add/sub/mul may omit it (then .rn, and ptxas may fuse them: flagged);
 * mad.f32 without one is fma.rn.f32 (sm_20 and later); fma, div, rcp and
 * sqrt need one; approximate forms and the rest take none. */
static const char *check_rnd(struct ptx_insn *in, const struct mnem *m)
{
	int op = in->op, r = m->rnd;
	int fl = opdesc[op].types == PTX_TM_F32 || opdesc[op].types == PTX_TM_F64 ||
		 is_half_op(op);
	int needs = op == PTX_FMA_F32 || op == PTX_FMA_F64 || op == PTX_FMA_H ||
		    op == PTX_DIV_F32 ||
		    op == PTX_DIV_F64 || op == PTX_RCP_F32 || op == PTX_RCP_F64 ||
		    op == PTX_SQRT_F32 || op == PTX_SQRT_F64;
	int optional = op == PTX_ADD_F32 || op == PTX_ADD_F64 || op == PTX_SUB_F32 ||
		       op == PTX_SUB_F64 || op == PTX_MUL_F32 || op == PTX_MUL_F64 ||
		       op == PTX_ADD_H || op == PTX_SUB_H || op == PTX_MUL_H;
	if (!fl)
		return r ? "rounding modifier not allowed" : NULL;
	if (r > PTX_RND_RP || (r && !needs && !optional) ||
	    (r > PTX_RND_RN && is_half_op(op)))
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
	if (d == PTX_T_F16X2 || d == PTX_T_BF16X2 || s == PTX_T_F16X2 ||
	    s == PTX_T_BF16X2)
		return "packed cvt not supported";
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
		/* f16 <-> bf16: one can hold what the other cannot, so both
		 * ways round (ptxas takes .rn, .rz, .rm, .rp) */
		if ((d == PTX_T_F16 && s == PTX_T_BF16) || (d == PTX_T_BF16 && s == PTX_T_F16))
			return r && r <= PTX_RND_RP ? NULL : "needs .rn/.rz/.rm/.rp";
		return r && r <= PTX_RND_RP ? "rounding modifier not allowed" : NULL;
	}
}

/* cvt.frnd2.{f16x2,bf16x2}.f32 d, a, b (PTX ISA [data] cvt): .rn or .rz
 * (.relu, .satfinite and .rs are not supported), no .ftz or .sat. */
static const char *check_cvt2(struct ptx_insn *in, const struct mnem *m)
{
	if (m->rnd != PTX_RND_RN && m->rnd != PTX_RND_RZ)
		return "needs .rn or .rz";
	if (m->flags & (PTX_F_FTZ | PTX_F_SAT))
		return ".ftz and .sat not allowed";
	in->rnd = (uint8_t)m->rnd;
	in->aux = (uint8_t)m->ty[1];
	in->sbits = 32;
	return NULL;
}

/* set.CMP[.ftz].dtype.stype: d is u32, s32, f32 or 16-bit float (x2: per
 * half), the sources any numeric type; no .BoolOp combination. */
static const char *check_set(struct ptx_insn *in, const struct mnem *m)
{
	int d = m->ty[0], s = m->ty[1];
	int fs = is_float(s);
	if (m->nty != 2 || m->boolop || tyinfo[s].kind == 'P' || tyinfo[d].kind == 'P')
		return "set needs .dtype.stype and no .and/.or/.xor";
	if ((m->cmp >= PTX_CMP_LO && m->cmp <= PTX_CMP_HS) ? fs : (m->cmp >= PTX_CMP_EQU && !fs))
		return "compare does not fit the source type";
	if ((m->flags & PTX_F_FTZ) && (!fs || s == PTX_T_F64))
		return ".ftz not allowed";
	if ((s == PTX_T_F16X2 || s == PTX_T_BF16X2) && ptx_type_bits(d) != 32)
		return "a packed compare needs a 32-bit destination";
	in->dtype = (uint8_t)d;
	in->aux = (uint8_t)s;
	in->cmp = (uint8_t)m->cmp;
	in->flags &= (uint16_t)~PTX_F_SIGNED;
	if (tyinfo[s].kind == 'S')
		in->flags |= PTX_F_SIGNED;
	return NULL;
}

/* Fills in the fields that come from the mnemonic; NULL or a problem. */
static const char *set_fields(struct ptx_insn *in, const struct mnem *m)
{
	int ty = m->ty[0], op = in->op;
	int fl = opdesc[op].types == PTX_TM_F32 || opdesc[op].types == PTX_TM_F64 ||
		 is_half_op(op);
	in->bits = tyinfo[ty].bits;
	in->dtype = (uint8_t)ty;
	if (op == PTX_SETP_H && in->bits != 16)
		return "packed setp not supported";
	in->flags |= (uint16_t)m->flags;
	if (tyinfo[ty].kind == 'S')
		in->flags |= PTX_F_SIGNED;
	/* f64: no .ftz (but rcp.approx.ftz.f64, rsqrt.approx.ftz.f64), no .sat */
	int f64 = opdesc[op].types == PTX_TM_F64 && op != PTX_RCP_APPROX_F64 &&
		  op != PTX_RSQRT_APPROX_F64;
	if ((m->flags & PTX_F_FTZ) && (!fl || f64) && opdesc[op].shape != PTX_S_CVT &&
	    opdesc[op].shape != PTX_S_SET)
		return ".ftz not allowed";
	if ((m->flags & PTX_F_SAT) && (!fl || f64) && opdesc[op].shape != PTX_S_CVT)
		return ".sat not supported";
	if ((m->flags & PTX_F_NAN) && op != PTX_MIN_F32 && op != PTX_MAX_F32 &&
	    op != PTX_MIN_H && op != PTX_MAX_H)
		return ".NaN not allowed";
	int carry = op == PTX_ADDC || op == PTX_SUBC || op == PTX_MADC_LO ||
		    op == PTX_MADC_HI;
	if (carry && in->bits != 32 && in->bits != 64)
		return "extended precision needs a 32 or 64-bit type";
	if ((m->flags & PTX_F_CC) && !carry)
		return ".cc not allowed";
	if ((m->flags & PTX_F_HINT) && opdesc[op].shape != PTX_S_LD &&
	    opdesc[op].shape != PTX_S_ST)
		return ".L2::cache_hint not allowed";
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
	if (opdesc[op].shape == PTX_S_SET)
		return check_set(in, m);
	if (opdesc[op].shape == PTX_S_CVT2)
		return check_cvt2(in, m);
	if (op == PTX_SHF_L || op == PTX_SHF_R) {
		if (!m->shf || ty != PTX_T_B32)
			return "shf needs .wrap or .clamp and .b32";
		in->flags |= m->shf == 2 ? PTX_F_CLAMP : 0;
	}
	in->cmp = (uint8_t)(opdesc[op].shape == PTX_S_TESTP ? m->testp : m->cmp);
	in->aux = (uint8_t)(opdesc[op].shape == PTX_S_SETP ? m->boolop : m->vec);
	if (opdesc[op].shape == PTX_S_CVT)
		return check_cvt(in, m);
	return check_rnd(in, m);
}

/* Families of instructions the sim backend does not run, and why:
 * X(mnemonic base, reason). */
#define PTX_UNSUPPORTED(X)                                                  \
	X("tex", "textures are not supported by the sim backend")          \
	X("tld4", "textures are not supported by the sim backend")         \
	X("suld", "surfaces are not supported by the sim backend")         \
	X("sust", "surfaces are not supported by the sim backend")

/* ": why" for an instruction outside the supported subset. */
static const char *why_unsupported(const struct ptx_tok *t)
{
	static const struct { const char *base, *why; } fam[] = {
#define X(base, why) { base, ": " why },
		PTX_UNSUPPORTED(X)
#undef X
	};
	size_t n = 0;
	while (n < t->len && t->s[n] != '.')
		n++;
	for (size_t i = 0; i < sizeof fam / sizeof *fam; i++)
		if (strlen(fam[i].base) == n && !memcmp(fam[i].base, t->s, n))
			return fam[i].why;
	return ": not among the instructions the sim backend runs "
	       "(src/exec/ptx/ptx_ops.h)";
}

int ptx_decode_insn(struct ptx_pstate *st)
{
	struct ptx_insn in = { .guard = PTX_SLOT_TRUE };
	const struct ptx_tok *t = cur(st);
	uint32_t line = t->line;
	int neg = 0;
	if (ptx_tok_is(t, "@")) {
		st->pos++;
		if (ptx_opd_pred(st, &in.guard, &neg))
			return UB_RUNTIME;
		in.gneg = (uint8_t)neg;
	}
	const struct ptx_tok *mt = cur(st);
	struct mnem m;
	int op = -1;
	st->pos++;
	if (mt->kind == PTX_TK_WORD && ptx_is_block_insn(mt))
		return ptx_decode_block(st, &in, mt, line);
	if (mt->kind == PTX_TK_WORD && ptx_is_mma_insn(mt))
		return ptx_decode_mma(st, &in, mt, line);
	if (mt->kind == PTX_TK_WORD && ptx_is_more_insn(mt))
		return ptx_decode_more(st, &in, mt, line);
	if (mt->kind == PTX_TK_WORD && mnem_split(mt, &m) == 0 &&
	    mnem_variant(st, &m) == 0)
		op = find_op(&m);
	if (op < 0)
		return ptx_perr(st, line, "unsupported instruction '%.*s'%s",
				(int)mt->len, mt->s, why_unsupported(mt));
	in.op = (uint16_t)op;
	if (op == PTX_LD_SHARED || op == PTX_ST_SHARED || op == PTX_CVTA_SHARED ||
	    op == PTX_CVTA_TO_SHARED)
		st->f->block_level = 1;   /* memory its threads share */
	const char *why = set_fields(&in, &m);
	if (why)
		return ptx_perr(st, line, "unsupported instruction '%.*s': %s",
				(int)mt->len, mt->s, why);
	if (ptx_measured_op(op) && st->sm == 90 && ub_mufu_ready())
		in.cmp = 1;   /* the measured model (mufu.h) */
	if (ptx_operands(st, &in, opdesc[op].shape, m.ty) ||
	    ptx_expect(st, ";"))
		return UB_RUNTIME;
	return ptx_emit(st, &in, line, mt);
}

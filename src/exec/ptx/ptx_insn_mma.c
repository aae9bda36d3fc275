/* ptx_insn_mma.c — decodes the tensor-core instructions (ptx_mma.h): the
 * warp-level ldmatrix, stmatrix, movmatrix, mma.sync, wmma.load, .store
 * and .mma (PTX ISA 9.0, 9.7.14), and wgmma.mma_async with its fence,
 * commit_group and wait_group (9.7.15).  A form the interpreter does not
 * run (integer or sparse mma, the sm_100a ldmatrix shapes, .satfinite)
 * is an error naming what, never a guess; so is one whose architecture
 * (the module's .target) has no such unit.  Each makes its function block
 * level (its lanes run together, ptx_block.c). */
#include "ptx_mma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

const struct ptx_mma_dims ptx_mma_dims[PTX_MS_COUNT] = {
#define X(id, name, m, n, k) { name, m, n, k },
	PTX_MMA_SHAPES(X)
#undef X
};

static const char *const families[] = { "ldmatrix", "stmatrix", "movmatrix",
					"mma", "wmma", "wgmma" };

int ptx_is_mma_insn(const struct ptx_tok *t)
{
	size_t n = 0;
	while (n < t->len && t->s[n] != '.')
		n++;
	for (int i = 0; i < COUNT(families); i++)
		if (strlen(families[i]) == n && !memcmp(families[i], t->s, n))
			return 1;
	return 0;
}

int ptx_mma_fmt_bits(int fmt)
{
	switch (fmt) {
	case UB_MF16: case UB_MBF16: return 16;
	case UB_ME4M3: case UB_ME5M2: return 8;
	case UB_MF64: return 64;
	default: return 32;
	}
}

/* The mnemonic's parts: the first word, then the rest in order; what is
 * understood is taken out of `left` as it is recognised. */
struct mparts {
	char base[12];
	char part[12][24];
	int n, used[12];
};

static int split(const struct ptx_tok *t, struct mparts *p)
{
	memset(p, 0, sizeof *p);
	return ptx_split_mnemonic(t, 200, p->base, sizeof p->base, p->part,
				  (int)COUNT(p->part), &p->n);
}

/* Takes part s out (1), or 0 when it is not there. */
static int take(struct mparts *p, const char *s)
{
	for (int i = 0; i < p->n; i++)
		if (!p->used[i] && !strcmp(p->part[i], s))
			return p->used[i] = 1;
	return 0;
}

/* The first part not taken, or NULL. */
static const char *left(const struct mparts *p)
{
	for (int i = 0; i < p->n; i++)
		if (!p->used[i])
			return p->part[i];
	return NULL;
}

/* The next part not taken that is an operand format (taken), or -1. */
static int take_fmt(struct mparts *p)
{
	for (int i = 0; i < p->n; i++)
		if (!p->used[i] && ub_mma_fmt_find(p->part[i]) >= 0) {
			p->used[i] = 1;
			return ub_mma_fmt_find(p->part[i]);
		}
	return -1;
}

/* The shape among the parts (taken), or -1. */
static int take_shape(struct mparts *p)
{
	for (int s = 0; s < PTX_MS_COUNT; s++)
		if (take(p, ptx_mma_dims[s].name))
			return s;
	return -1;
}

/* .shared, .shared::cta, .global or none (generic). */
static int take_space(struct mparts *p)
{
	if (take(p, "shared") || take(p, "shared::cta"))
		return PTX_WMMA_SHARED;
	return take(p, "global") ? PTX_WMMA_GLOBAL : PTX_WMMA_GENERIC;
}

static const struct ptx_tok *cur(struct ptx_pstate *st)
{
	return ptx_peek(st, 0);
}

/* A new operand list of nw written and nr read slots, owned by the
 * function, at in->off. */
static int new_list(struct ptx_pstate *st, struct ptx_insn *in, uint32_t nw,
		    uint32_t nr, uint32_t **out)
{
	struct ptx_func *f = st->f;
	int n = f->nlists;
	if (!(n & (n - 1))) {   /* 0, 1, 2, 4, ...: the array is full */
		uint32_t **p = realloc(f->lists, (size_t)(n ? 2 * n : 1) * sizeof *p);
		if (!p)
			return ptx_perr(st, cur(st)->line, "out of memory");
		f->lists = p;
	}
	uint32_t *l = calloc(PTX_OPL_HEAD + nw + nr, sizeof *l);
	if (!l)
		return ptx_perr(st, cur(st)->line, "out of memory");
	f->lists[f->nlists++] = l;
	l[0] = nw;
	l[1] = nr;
	in->off = (int64_t)(intptr_t)l;
	*out = l;
	return 0;
}

/* {r0, .., r(n-1)} (or a lone register when n is 1) into slots: written
 * registers (dst) or sources, each of `bits` bits. */
static int reg_list(struct ptx_pstate *st, uint32_t *slots, uint32_t n, int dst,
		    unsigned bits, const char *what)
{
	uint32_t line = cur(st)->line, k = 0;
	int brace = ptx_tok_is(cur(st), "{");
	if (brace)
		st->pos++;
	else if (n != 1)
		return ptx_perr(st, line, "%s: expected {...} of %u registers", what, n);
	for (; k < n; k++) {
		if (brace && ptx_tok_is(cur(st), "}"))
			break;
		if (k && ptx_expect(st, ","))
			return UB_RUNTIME;
		if (dst ? ptx_opd_dst(st, &slots[k]) : ptx_opd_src(st, bits == 64 ?
				PTX_T_B64 : PTX_T_B32, &slots[k]))
			return UB_RUNTIME;
		if (slots[k] != PTX_SLOT_SINK && st->f->width[slots[k]] != bits)
			return ptx_perr(st, line, "%s: register %u of %u is not of %u bits",
					what, k + 1, n, bits);
	}
	if (k < n || (brace && !ptx_tok_is(cur(st), "}")))
		return ptx_perr(st, line, "%s: expected %u registers", what, n);
	st->pos += brace;
	return 0;
}

/* ldmatrix, stmatrix (PTX ISA 9.7.14.5.15, .16): .m8n8 .x1/.x2/.x4
 * [.trans] [.shared{::cta}] .b16; movmatrix (9.7.14.5.17): .m8n8 .trans
 * .b16.  Their registers as a vector ld's or st's (ptx_mma.h). */
static const char *decode_move(struct ptx_pstate *st, struct mparts *p,
			       struct ptx_insn *in, int *rc)
{
	int mov = !strcmp(p->base, "movmatrix"), ldm = !strcmp(p->base, "ldmatrix");
	int types[2] = { PTX_T_B32, PTX_T_B32 };
	if (!take(p, "m8n8") || !take(p, "b16"))
		return "only .m8n8 with .b16 (the sm_100a shapes and .b8 types are "
		       "not supported)";
	in->cmp = (uint8_t)take(p, "trans");
	if (mov) {
		in->op = PTX_MOVMATRIX;
		in->bits = 32;
		if (!in->cmp)
			return "movmatrix needs .trans";
		*rc = ptx_operands(st, in, PTX_S_A, types);
		return NULL;
	}
	in->aux = take(p, "x1") ? 1 : take(p, "x2") ? 2 : take(p, "x4") ? 4 : 0;
	if (!in->aux)
		return "needs .x1, .x2 or .x4";
	in->sbits = (uint8_t)take_space(p);
	if (in->sbits == PTX_WMMA_GLOBAL)
		return "the matrix rows are in .shared memory";
	in->op = ldm ? PTX_LDMATRIX : PTX_STMATRIX;
	in->bits = 32;
	*rc = ptx_operands(st, in, ldm ? PTX_S_LD : PTX_S_ST, types);
	for (int i = 0; !*rc && i < in->aux; i++) {
		uint32_t s = i ? in->src[i] : in->dst;
		if (s != PTX_SLOT_SINK && st->f->width[s] != 32)
			*rc = ptx_perr(st, cur(st)->line, "%s: register %d is not of 32 bits",
				       p->base, i + 1);
	}
	return NULL;
}

/* Registers of a fragment of r x c elements of `bits` bits over 32 lanes
 * (64-bit elements: one a register). */
static uint32_t frag_regs(int r, int c, int bits)
{
	return bits == 64 ? (uint32_t)(r * c / 32) : (uint32_t)(r * c * bits / 32 / 32);
}

/* The unit for this form exists on the module's architecture. */
static const char *check_arch(struct ptx_pstate *st, int insn, int fa, int k,
			      char *why, size_t len)
{
	struct ub_mma_model m;
	if (!st->sm)
		return "the module has no .target sm_NN: the tensor cores' "
		       "arithmetic depends on the architecture";
	if (ub_mma_model_get(st->sm, insn, fa, k, &m) < 0) {
		snprintf(why, len, "no tensor-core unit takes %s on sm_%d",
			 ub_mma_fmt_name(fa), st->sm);
		return why;
	}
	return NULL;
}

/* mma.sync.aligned.SHAPE.row.col.DTYPE.ATYPE.BTYPE.CTYPE d, a, b, c
 * (PTX ISA 9.7.14.5.14): the floating-point forms but f16 m8n8k4 (sm_70)
 * and the f64 shapes of sm_90 other than m8n8k4. */
static const char *decode_mma(struct ptx_pstate *st, struct mparts *p,
			      struct ptx_insn *in, int *rc, char *why, size_t len)
{
	int sh = take_shape(p);
	int row = take(p, "row"), col = take(p, "col");
	int fd = take_fmt(p), fa = take_fmt(p), fb = take_fmt(p), fc = take_fmt(p);
	if (sh < 0 || sh > PTX_MS_M8N8K4)
		return "a shape the interpreter does not run (m16n8k4, m16n8k8, "
		       "m16n8k16, m16n8k32, m8n8k4 .f64)";
	if (!row || !col)
		return "needs .row.col";
	if (fd < 0 || fa < 0 || fb < 0 || fc < 0 || fd != fc)
		return "needs .dtype.atype.btype.ctype with ctype = dtype "
		       "(floating-point forms only)";
	const struct ptx_mma_dims *d = &ptx_mma_dims[sh];
	int ok = fa == fb || (fa == UB_ME4M3 && fb == UB_ME5M2) ||
		 (fa == UB_ME5M2 && fb == UB_ME4M3);
	int want_k = fa == UB_MTF32 ? (d->k == 4 || d->k == 8) :
		     fa == UB_MF16 || fa == UB_MBF16 ? (d->k == 8 || d->k == 16) :
		     fa == UB_ME4M3 || fa == UB_ME5M2 ? (d->k == 16 || d->k == 32) : 0;
	if (sh == PTX_MS_M8N8K4)
		ok &= fa == UB_MF64 && fd == UB_MF64;
	else
		ok &= want_k && (fd == UB_MF32 || (fd == UB_MF16 && fa != UB_MBF16 &&
						  fa != UB_MTF32));
	if (!ok)
		return "a combination of shape and types the interpreter does not run";
	const char *bad = check_arch(st, UB_MMA_SYNC, fa, d->k, why, len);
	if (bad)
		return bad;
	in->op = PTX_MMA;
	in->cmp = (uint8_t)sh;
	in->bits = (uint8_t)fa;
	in->rbits = (uint8_t)fb;
	in->dtype = (uint8_t)fd;
	in->aux = (uint8_t)fc;
	in->sbits = (uint8_t)st->sm;
	int ba = ptx_mma_fmt_bits(fa), bc = ptx_mma_fmt_bits(fd);
	uint32_t na = frag_regs(d->m, d->k, ba), nb = frag_regs(d->k, d->n, ba);
	uint32_t nd = frag_regs(d->m, d->n, bc), *l;
	unsigned rb = ba == 64 ? 64 : 32, cb = bc == 64 ? 64 : 32;
	if (new_list(st, in, nd, na + nb + nd, &l))
		return *rc = UB_RUNTIME, NULL;
	l[2] = na, l[3] = nb, l[4] = nd;
	uint32_t *w = l + PTX_OPL_HEAD, *r = w + nd;
	*rc = reg_list(st, w, nd, 1, cb, "d") || ptx_expect(st, ",") ||
	      reg_list(st, r, na, 0, rb, "a") || ptx_expect(st, ",") ||
	      reg_list(st, r + na, nb, 0, rb, "b") || ptx_expect(st, ",") ||
	      reg_list(st, r + na + nb, nd, 0, cb, "c") ? UB_RUNTIME : 0;
	return NULL;
}

/* The wmma shapes of a format: f16, bf16: m16n16k16, m32n8k16, m8n32k16;
 * tf32: m16n16k8; f64: m8n8k4. */
static int wmma_shape_ok(int sh, int f)
{
	if (f == UB_MF16 || f == UB_MBF16)
		return sh == PTX_MS_M16N16K16 || sh == PTX_MS_M32N8K16 || sh == PTX_MS_M8N32K16;
	if (f == UB_MTF32)
		return sh == PTX_MS_M16N16K8;
	return f == UB_MF64 && sh == PTX_MS_M8N8K4;
}

/* Registers of a wmma fragment (PTX ISA 9.7.14.4.3, the fragment sizes):
 * as mma's, but f16 a and b are 8 .f16x2 registers in every shape (an
 * element held by several lanes, as sm_70 holds them). */
static uint32_t wmma_regs(int sh, int which, int f)
{
	const struct ptx_mma_dims *d = &ptx_mma_dims[sh];
	int r = which == 'a' ? d->m : which == 'b' ? d->k : d->m;
	int c = which == 'a' ? d->k : d->n;
	if ((which == 'a' || which == 'b') && f == UB_MF16)
		return 8;   /* 16 halves: every element 4, 2 or 1 times */
	return frag_regs(r, c, ptx_mma_fmt_bits(f));
}

/* wmma.load.{a,b,c}.sync.aligned.LAYOUT.SHAPE[.SPACE].TYPE r, [p][, s]
 * and wmma.store.d.sync.aligned.LAYOUT.SHAPE[.SPACE].TYPE [p], r[, s]. */
static const char *decode_wmma_mem(struct ptx_pstate *st, struct mparts *p,
				   struct ptx_insn *in, int *rc, char *why, size_t len)
{
	int load = take(p, "load"), store = !load && take(p, "store");
	int which = take(p, "a") ? 'a' : take(p, "b") ? 'b' : take(p, "c") ? 'c'
		    : take(p, "d") ? 'd' : 0;
	int colm = take(p, "col"), rowm = take(p, "row");
	int sh = take_shape(p), space = take_space(p), f = take_fmt(p);
	if ((!load && !store) || !which || (load ? which == 'd' : which != 'd') ||
	    colm == rowm || sh < 0 || f < 0)
		return "needs .load.{a,b,c} or .store.d, .row or .col, a shape and a type";
	int acc = which == 'c' || which == 'd';
	/* the format of the shape's a and b (the unit the fragment is for) */
	int mf = !acc ? f : sh == PTX_MS_M8N8K4 ? UB_MF64 : sh == PTX_MS_M16N16K8 ?
		 UB_MTF32 : UB_MF16;
	int accf = mf == UB_MF64 ? f == UB_MF64 : mf == UB_MTF32 ? f == UB_MF32 :
		   f == UB_MF32 || f == UB_MF16;
	if (!wmma_shape_ok(sh, mf) || (acc && !accf))
		return "a shape and type the interpreter does not run";
	const char *bad = check_arch(st, UB_MMA_WMMA, mf, ptx_mma_dims[sh].k, why, len);
	if (bad)
		return bad;
	in->op = load ? PTX_WMMA_LOAD : PTX_WMMA_STORE;
	in->cmp = (uint8_t)sh;
	in->bits = (uint8_t)f;
	in->rbits = (uint8_t)which;
	in->aux = (uint8_t)colm;
	in->dtype = (uint8_t)space;
	in->sbits = (uint8_t)st->sm;
	uint32_t n = wmma_regs(sh, which == 'd' ? 'c' : which, f), *l;
	unsigned rb = f == UB_MF64 ? 64 : 32;
	/* the stride, if any, follows the address and the fragment */
	size_t save = st->pos;
	int depth = 0, has_stride = 0;
	for (size_t q = st->pos; st->t[q].kind != PTX_TK_END && !ptx_tok_is(&st->t[q], ";"); q++) {
		depth += ptx_tok_is(&st->t[q], "{") + ptx_tok_is(&st->t[q], "[") -
			 ptx_tok_is(&st->t[q], "}") - ptx_tok_is(&st->t[q], "]");
		has_stride += !depth && ptx_tok_is(&st->t[q], ",");
	}
	has_stride = has_stride > 1;
	st->pos = save;
	if (new_list(st, in, load ? n : 0, 1 + (uint32_t)has_stride + (load ? 0 : n), &l))
		return *rc = UB_RUNTIME, NULL;
	l[2] = (uint32_t)has_stride;
	l[3] = n;
	uint32_t *w = l + PTX_OPL_HEAD, *r = w + (load ? n : 0);
	int64_t off = 0;
	if (load)
		*rc = reg_list(st, w, n, 1, rb, "the fragment") || ptx_expect(st, ",") ||
		      ptx_opd_mem(st, &r[0], &off) ? UB_RUNTIME : 0;
	else
		*rc = ptx_opd_mem(st, &r[0], &off) || ptx_expect(st, ",") ||
		      reg_list(st, r + 1 + has_stride, n, 0, rb, "the fragment") ? UB_RUNTIME : 0;
	if (!*rc && has_stride)
		*rc = ptx_expect(st, ",") || ptx_opd_src(st, PTX_T_U32, &r[1]) ? UB_RUNTIME : 0;
	l[5] = (uint32_t)((uint64_t)off & 0xffffffffu);
	l[6] = (uint32_t)((uint64_t)off >> 32);
	return NULL;
}

/* wmma.mma.sync.aligned.ALAYOUT.BLAYOUT.SHAPE.DTYPE.CTYPE (f16) or
 * .f32.ATYPE.BTYPE.f32 (bf16, tf32), .f64.f64.f64.f64 d, a, b, c. */
static const char *decode_wmma_mma(struct ptx_pstate *st, struct mparts *p,
				   struct ptx_insn *in, int *rc, char *why, size_t len)
{
	int la = -1, lb = -1;
	for (int i = 0; i < p->n && lb < 0; i++)
		if (!p->used[i] && (!strcmp(p->part[i], "row") || !strcmp(p->part[i], "col"))) {
			p->used[i] = 1;
			*(la < 0 ? &la : &lb) = p->part[i][0] == 'c';
		}
	int sh = take_shape(p);
	take(p, "rn");
	int f[4], nf = 0, x;
	while (nf < 4 && (x = take_fmt(p)) >= 0)
		f[nf++] = x;
	if (la < 0 || lb < 0 || sh < 0 || (nf != 2 && nf != 4))
		return "needs two layouts, a shape and the types";
	int fd = f[0], fc = f[nf - 1], fa = nf == 4 ? f[1] : UB_MF16;
	if (nf == 4 && f[1] != f[2])
		return "a and b of different types";
	if (!wmma_shape_ok(sh, fa) || (fa != UB_MF16 && fd != fc) ||
	    (fa == UB_MF64 ? fd != UB_MF64 : fd != UB_MF32 && fd != UB_MF16) ||
	    (fc != UB_MF32 && fc != UB_MF16 && fc != UB_MF64) ||
	    ((fa == UB_MBF16 || fa == UB_MTF32) && fd != UB_MF32))
		return "a shape and types the interpreter does not run";
	const struct ptx_mma_dims *d = &ptx_mma_dims[sh];
	const char *bad = check_arch(st, UB_MMA_WMMA, fa, d->k, why, len);
	if (bad)
		return bad;
	in->op = PTX_WMMA_MMA;
	in->cmp = (uint8_t)sh;
	in->bits = in->rbits = (uint8_t)fa;
	in->dtype = (uint8_t)fd;
	in->aux = (uint8_t)fc;
	in->sbits = (uint8_t)st->sm;
	uint32_t na = wmma_regs(sh, 'a', fa), nb = wmma_regs(sh, 'b', fa);
	uint32_t nd = wmma_regs(sh, 'c', fd), nc = wmma_regs(sh, 'c', fc), *l;
	unsigned rb = fa == UB_MF64 ? 64 : 32;
	if (new_list(st, in, nd, na + nb + nc, &l))
		return *rc = UB_RUNTIME, NULL;
	l[2] = na, l[3] = nb, l[4] = nc;
	uint32_t *w = l + PTX_OPL_HEAD, *r = w + nd;
	*rc = reg_list(st, w, nd, 1, rb, "d") || ptx_expect(st, ",") ||
	      reg_list(st, r, na, 0, rb, "a") || ptx_expect(st, ",") ||
	      reg_list(st, r + na, nb, 0, rb, "b") || ptx_expect(st, ",") ||
	      reg_list(st, r + na + nb, nc, 0, rb, "c") ? UB_RUNTIME : 0;
	return NULL;
}

/* An immediate of the instruction's tail: 1 or -1 (scale), 0 or 1
 * (transpose); *v the value. */
static int imm_arg(struct ptx_pstate *st, int scale, int *v)
{
	uint64_t x;
	if (ptx_expect(st, ",") || ptx_imm(st, PTX_T_S32, &x) < 0)
		return ptx_perr(st, cur(st)->line, "wgmma: expected an immediate");
	*v = (int)(int32_t)x;
	if (scale ? (*v != 1 && *v != -1) : (*v != 0 && *v != 1))
		return ptx_perr(st, cur(st)->line, "wgmma: %s must be %s",
				scale ? "imm-scale" : "imm-trans", scale ? "1 or -1" : "0 or 1");
	return 0;
}

/* wgmma.mma_async.sync.aligned.m64nNkK.DTYPE.ATYPE.BTYPE d, a, b-desc,
 * scale-d, imm-scale-a, imm-scale-b[, imm-trans-a][, imm-trans-b]
 * (PTX ISA 9.7.15.5.2); fence, commit_group, wait_group. */
static const char *decode_wgmma(struct ptx_pstate *st, struct mparts *p,
				struct ptx_insn *in, int *rc, char *why, size_t len)
{
	if (take(p, "fence") || take(p, "commit_group") || take(p, "wait_group")) {
		in->op = PTX_WGMMA_SYNC;
		while (!ptx_tok_is(cur(st), ";") && cur(st)->kind != PTX_TK_END)
			st->pos++;
		return NULL;
	}
	if (!take(p, "mma_async"))
		return "only mma_async, fence, commit_group and wait_group";
	int n = 0, k = 0, fd = take_fmt(p), fa = take_fmt(p), fb = take_fmt(p);
	for (int i = 0; i < p->n; i++)
		if (!p->used[i] && sscanf(p->part[i], "m64n%dk%d", &n, &k) == 2)
			p->used[i] = 1;
	int fp8 = fa == UB_ME4M3 || fa == UB_ME5M2, h = fa == UB_MF16 || fa == UB_MBF16;
	int kk = fa == UB_MTF32 ? 8 : h ? 16 : fp8 ? 32 : 0;
	if (n < 8 || n > 256 || n % 8 || k != kk || fa < 0 ||
	    (fa != fb && !(fp8 && (fb == UB_ME4M3 || fb == UB_ME5M2))) ||
	    !(fd == UB_MF32 || (fd == UB_MF16 && (fa == UB_MF16 || fp8))))
		return "a shape and types the interpreter does not run (m64nNk16 f16, "
		       "bf16; m64nNk8 tf32; m64nNk32 e4m3, e5m2)";
	if (st->sm < 90)
		return "wgmma needs sm_90a";
	const char *bad = check_arch(st, UB_MMA_WGMMA, fa, k, why, len);
	if (bad)
		return bad;
	in->op = PTX_WGMMA;
	in->cmp = (uint8_t)(n / 8);
	in->bits = (uint8_t)fa;
	in->rbits = (uint8_t)fb;
	in->dtype = (uint8_t)fd;
	in->sbits = (uint8_t)st->sm;
	uint32_t nd = (uint32_t)(fd == UB_MF32 ? n / 2 : n / 4), *l;
	size_t save = st->pos;   /* past d's list: a '{' there, registers */
	for (int depth = 0; cur(st)->kind != PTX_TK_END;) {
		depth += ptx_tok_is(cur(st), "{") - ptx_tok_is(cur(st), "}");
		st->pos++;
		if (depth <= 0)
			break;
	}
	int areg = ptx_tok_is(cur(st), ",") && ptx_tok_is(ptx_peek(st, 1), "{");
	st->pos = save;
	uint32_t na = areg ? 4 : 1;
	if (new_list(st, in, nd, nd + na + 2, &l))
		return *rc = UB_RUNTIME, NULL;
	l[2] = na;
	uint32_t *w = l + PTX_OPL_HEAD, *r = w + nd;
	int sa = 0, sb = 0, ta = 0, tb = 0;
	*rc = reg_list(st, w, nd, 1, 32, "d") || ptx_expect(st, ",") ||
	      reg_list(st, r + nd, na, 0, areg ? 32 : 64, "a") || ptx_expect(st, ",") ||
	      ptx_opd_src(st, PTX_T_B64, &r[nd + na]) || ptx_expect(st, ",") ||
	      ptx_opd_src(st, PTX_T_PRED, &r[nd + na + 1]) ||
	      imm_arg(st, 1, &sa) || imm_arg(st, 1, &sb) ? UB_RUNTIME : 0;
	if (!*rc && h && !areg)
		*rc = imm_arg(st, 0, &ta);
	if (!*rc && h)
		*rc = imm_arg(st, 0, &tb);
	memcpy(r, w, nd * sizeof *r);   /* d is read as well (scale-d) */
	in->aux = (uint8_t)((areg ? PTX_WG_AREG : 0) | (sa < 0 ? PTX_WG_NEGA : 0) |
			    (sb < 0 ? PTX_WG_NEGB : 0) | (ta ? PTX_WG_TRANSA : 0) |
			    (tb ? PTX_WG_TRANSB : 0));
	return NULL;
}

int ptx_decode_mma(struct ptx_pstate *st, struct ptx_insn *in,
		   const struct ptx_tok *mnem, uint32_t line)
{
	struct mparts p;
	char why[160];
	int rc = 0;
	const char *bad = NULL;
	if (split(mnem, &p))
		return ptx_perr(st, line, "unsupported instruction '%.*s'",
				(int)mnem->len, mnem->s);
	int sync = take(&p, "sync");
	take(&p, "aligned");
	if (strcmp(p.base, "wgmma") && !sync)
		bad = "needs .sync";
	else if (!strcmp(p.base, "mma"))
		bad = decode_mma(st, &p, in, &rc, why, sizeof why);
	else if (!strcmp(p.base, "wmma"))
		bad = take(&p, "mma") ? decode_wmma_mma(st, &p, in, &rc, why, sizeof why)
				      : decode_wmma_mem(st, &p, in, &rc, why, sizeof why);
	else if (!strcmp(p.base, "wgmma"))
		bad = decode_wgmma(st, &p, in, &rc, why, sizeof why);
	else
		bad = decode_move(st, &p, in, &rc);
	if (!bad && !rc && in->op != PTX_WGMMA_SYNC && left(&p))
		bad = "a qualifier the interpreter does not run";
	if (bad)
		return ptx_perr(st, line, "unsupported instruction '%.*s': %s%s%s%s",
				(int)mnem->len, mnem->s, bad, left(&p) ? " ('." : "",
				left(&p) ? left(&p) : "", left(&p) ? "')" : "");
	if (rc || ptx_expect(st, ";"))
		return UB_RUNTIME;
	st->f->block_level = 1;
	return ptx_emit(st, in, line, mnem);
}

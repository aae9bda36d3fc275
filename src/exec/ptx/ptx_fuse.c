/* ptx_fuse.c — the model of what ptxas does with mul/add/sub that carry no
 * rounding modifier.
 *
 * The PTX ISA allows "mul/add/sub with no rounding modifier" to be
 * optimized aggressively, e.g. fused into one FMA; .rn forms never are.
 * ptxas 13.0 (sm_90) does fuse them, for f16, bf16, f16x2, bf16x2, f32
 * and f64 alike (checked by compiling the same PTX with --fmad=true and
 * --fmad=false and comparing the machine code: tests/ptxas_fusion.test).
 * What those experiments showed, and this file models:
 *   a mul is fused into the add/sub instructions that read its result
 *   when EVERY reader is such an add or sub: same type, no rounding
 *   modifier, the same .ftz as the mul (the add may have .sat, the mul
 *   may not, and may carry no guard), with no branch, call or return
 *   between the mul and the reader and no branch landing in between (a
 *   label nobody jumps to does not count); one reader that needs the
 *   rounded product (a store, an add.rn, a second mul) keeps the mul.
 *   Each fused reader then computes RN(a*b + c) (sub: RN(c - a*b) or
 *   RN(a*b - c)) with one rounding.
 * ptxas also looks through a mov (copy) or a neg of the product on the
 * way, and so does the model (a neg negates the fused product).  When
 * both operands of an add are fusable products,
 * which one ptxas fuses is not known: the model fuses the first operand
 * and every run that executes such an add says so (approx kind
 * "ptxas-fma-choice"), since its bits are then a guess.
 *
 * Mechanics: the mul becomes HOLD, which keeps its two operands in two
 * new slots (ptxas may reuse the registers; the values at the mul are
 * what counts), and each reader becomes FUSED, an FMA of those slots
 * with the reader's other operand. */
#include "ptx_num.h"

#include <stdlib.h>

/* Whether instruction `in` reads slot s (an operand or its guard). */
static int reads(const struct ptx_insn *in, uint32_t s)
{
	uint32_t r[PTX_MAX_READS];
	for (int k = ptx_reads(in, r); k-- > 0;)
		if (r[k] == s)
			return 1;
	return 0;
}

/* How many times `in` writes slot s. */
static int writes(const struct ptx_insn *in, uint32_t s)
{
	uint32_t w[PTX_MAX_WRITES];
	int n = 0;
	for (int k = ptx_writes(in, w); k-- > 0;)
		n += w[k] == s;
	return n;
}

static int is_mul(int op)
{
	return op == PTX_MUL_F32 || op == PTX_MUL_F64 || op == PTX_MUL_H;
}

static int is_add(int op)
{
	return op == PTX_ADD_F32 || op == PTX_SUB_F32 || op == PTX_ADD_F64 ||
	       op == PTX_SUB_F64 || op == PTX_ADD_H || op == PTX_SUB_H;
}

/* The add/sub family of mul op m, same operand type. */
static int same_family(const struct ptx_insn *m, const struct ptx_insn *a)
{
	int fam = m->op == PTX_MUL_F32 ? (a->op == PTX_ADD_F32 || a->op == PTX_SUB_F32)
		: m->op == PTX_MUL_F64 ? (a->op == PTX_ADD_F64 || a->op == PTX_SUB_F64)
		: (a->op == PTX_ADD_H || a->op == PTX_SUB_H);
	return fam && a->dtype == m->dtype;
}

/* No branch, call or return in (i, r], and no branch target in (i, r]. */
static int straight(const struct ptx_func *f, uint32_t i, uint32_t r)
{
	for (uint32_t k = i + 1; k < r; k++) {
		int op = f->code[k].op;
		if (op == PTX_BRA || op == PTX_CALL || op == PTX_RET || op == PTX_EXIT)
			return 0;
	}
	for (uint32_t k = 0; k < f->ncode; k++)
		if (f->code[k].op == PTX_BRA && f->code[k].off > (int64_t)i &&
		    f->code[k].off <= (int64_t)r)
			return 0;
	return 1;
}

/* Whether add/sub a may take mul m's product from slot d unrounded. */
static int fusable_add(const struct ptx_insn *m, const struct ptx_insn *a,
		       uint32_t d)
{
	if (!is_add(a->op) || !same_family(m, a) || !(a->flags & PTX_F_UNMARKED))
		return 0;
	if (((a->flags ^ m->flags) & PTX_F_FTZ) || a->guard == d)
		return 0;
	return (a->src[0] == d) != (a->src[1] == d);   /* d once, as a or b */
}

/* A copy (mov) or negation (neg) of the product ptxas looks through. */
static int passes(const struct ptx_insn *m, const struct ptx_insn *x)
{
	int neg = (m->op == PTX_MUL_F32 && x->op == PTX_NEG_F32) ||
		  (m->op == PTX_MUL_F64 && x->op == PTX_NEG_F64) ||
		  (m->op == PTX_MUL_H && x->op == PTX_NEG_H && x->dtype == m->dtype);
	if (x->guard != PTX_SLOT_TRUE || (x->flags & PTX_F_FTZ))
		return 0;
	return neg ? 2 : x->op == PTX_MOV && x->bits == m->bits;
}

/* One add that takes a fused product: where, in which operand, negated. */
struct use {
	uint32_t add;
	uint8_t pos, neg;
};
#define MAX_USES 16

/* The adds that take mul i's product, through movs and negs: their
 * number, or -1 when some reader needs the rounded product (then the mul
 * stays). */
static int uses_of(const struct ptx_func *f, uint32_t i, struct use *u)
{
	const struct ptx_insn *m = &f->code[i];
	uint32_t slot[MAX_USES], prod[MAX_USES], nslot = 0, nu = 0;
	uint8_t neg[MAX_USES];
	if (!is_mul(m->op) || !(m->flags & PTX_F_UNMARKED) || (m->flags & PTX_F_SAT) ||
	    m->guard != PTX_SLOT_TRUE || m->dst < PTX_SLOT_FIRST)
		return -1;
	slot[0] = m->dst, prod[0] = i, neg[0] = 0, nslot = 1;
	for (uint32_t s = 0; s < nslot; s++) {
		uint32_t d = slot[s];
		for (uint32_t k = 0; k < f->ncode; k++) {
			const struct ptx_insn *x = &f->code[k];
			int w = writes(x, d);
			if (w && (k != prod[s] || w != 1))
				return -1;   /* d has another definition */
			if (!reads(x, d))
				continue;
			if (k <= i || !straight(f, i, k) || nu == MAX_USES)
				return -1;
			int p = passes(m, x);
			if (fusable_add(m, x, d))
				u[nu++] = (struct use){ k, x->src[1] == d, neg[s] };
			else if (p && nslot < MAX_USES && x->dst >= PTX_SLOT_FIRST)
				slot[nslot] = x->dst, prod[nslot] = k,
				neg[nslot++] = (uint8_t)(neg[s] ^ (p == 2));
			else
				return -1;
		}
	}
	return nu ? (int)nu : -1;
}

/* Turns add/sub a into FUSED with mul m's held operands: a*b enters
 * negated when the chain negates it or a subtracts it (c - a*b), c when
 * a subtracts it (a*b - c). */
static void fuse(struct ptx_insn *a, const struct ptx_insn *m,
		 const struct use *u, int guess)
{
	int sub = a->op == PTX_SUB_F32 || a->op == PTX_SUB_F64 || a->op == PTX_SUB_H;
	uint32_t c = u->pos ? a->src[0] : a->src[1];
	a->op = PTX_FUSED;
	a->src[0] = m->src[2];
	a->src[1] = m->src[3];
	a->src[2] = c;
	a->flags &= (uint16_t)~PTX_F_UNMARKED;
	if (u->neg ^ (sub && u->pos))
		a->flags |= PTX_F_NEGA;
	if (sub && !u->pos)
		a->flags |= PTX_F_NEGC3;
	if (guess)
		a->flags |= PTX_F_GUESS;
}

int ptx_fuse_pass(struct ptx_pstate *st)
{
	struct ptx_func *f = st->f;
	struct use (*u)[MAX_USES] = calloc(f->ncode + 1u, sizeof *u);
	int *nu = calloc(f->ncode + 1u, sizeof *nu);
	uint32_t *claim = calloc(f->ncode + 1u, sizeof *claim); /* add: mul + 1 */
	uint8_t *guess = calloc(f->ncode + 1u, 1);
	int rc = u && nu && claim && guess ? 0 : UB_RUNTIME;
	for (uint32_t i = 0; i < f->ncode && !rc; i++)
		nu[i] = uses_of(f, i, u[i]);
	/* an add both of whose operands are fusable products: ptxas fuses
	 * one; the model keeps the one in operand b as a plain mul */
	for (uint32_t i = 0; i < f->ncode && !rc; i++)
		for (int k = 0; k < nu[i]; k++) {
			uint32_t a = u[i][k].add;
			if (claim[a] && claim[a] != i + 1) {
				uint32_t j = claim[a] - 1, drop = u[i][k].pos ? i : j;
				guess[a] = 1;
				nu[drop] = -1;
			}
			claim[a] = i + 1;
		}
	for (uint32_t i = 0; i < f->ncode && !rc; i++) {
		struct ptx_insn *m = &f->code[i];
		if (nu[i] <= 0)
			continue;
		rc = ptx_new_slot(st, 0, 64, &m->src[2]) ||
		     ptx_new_slot(st, 0, 64, &m->src[3]);
		for (int k = 0; k < nu[i] && !rc; k++) {
			fuse(&f->code[u[i][k].add], m, &u[i][k], guess[u[i][k].add]);
			st->m->nfused++;
		}
		m->op = PTX_HOLD;
	}
	free(u);
	free(nu);
	free(claim);
	free(guess);
	return rc ? ptx_perr(st, 0, "out of memory") : 0;
}

uint64_t ptx_fused(const struct ptx_insn *in, uint64_t a, uint64_t b, uint64_t c)
{
	int na = (in->flags & PTX_F_NEGA) != 0, nc = (in->flags & PTX_F_NEGC3) != 0;
	if (in->dtype == PTX_T_F32) {
		float x = ptx_f32(a), y = ptx_f32(b), z = ptx_f32(c);
		if (in->flags & PTX_F_FTZ)
			x = ptx_ftz32(x), y = ptx_ftz32(y), z = ptx_ftz32(z);
		return ptx_res32(fmaf(na ? -x : x, y, nc ? -z : z), in->flags);
	}
	if (in->dtype == PTX_T_F64) {
		double x = ptx_f64(a), y = ptx_f64(b), z = ptx_f64(c);
		return ptx_res64(fma(na ? -x : x, y, nc ? -z : z), in->flags);
	}
	uint64_t sign = in->bits == 32 ? 0x80008000u : 0x8000u;
	struct ptx_insn h = *in;
	h.op = PTX_FMA_H;
	return ptx_half_op(&h, na ? a ^ sign : a, b, nc ? c ^ sign : c);
}

int ptx_fused_mul_lines(const struct ptx_module *m, uint32_t *lines, int max)
{
	int n = 0;
	for (int i = 0; i < m->nfuncs; i++)
		for (uint32_t k = 0; k < m->funcs[i].ncode; k++)
			if (m->funcs[i].code[k].op == PTX_HOLD && n < max)
				lines[n++] = m->funcs[i].lines[k];
	return n;
}

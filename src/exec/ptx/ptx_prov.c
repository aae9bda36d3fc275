/* ptx_prov.c — which kernel parameters a kernel may read memory through:
 * a proof, from the PTX alone, that a kernel never reads its output (so
 * that it runs untracked, at full speed: ptx_run.c).
 *
 * Every register gets the set of kernel parameters its value may be
 * derived from (a bit per parameter, the 64th standing for every one
 * from the 64th on).  A kernel's ld.param of parameter k gives {k}; an
 * instruction's result has the union of the sets of every register it
 * reads (its guard included: the union only makes the sets larger); a
 * value loaded from memory (any space, a .func's ld.param of its
 * arguments and a call's return value included) has the union of the
 * sets of every value the module stores anywhere (st, atom and red's
 * data operands, a call's arguments through st.param).  The sets grow
 * until nothing changes (a fixpoint: each pass only adds bits, of which
 * there are finitely many), over the kernel and every function it calls
 * (the calls' registers are their own, their memory the same).  Then
 * the parameters a kernel may read through are the union of the sets of
 * the addresses of its ld.global, ld (generic), atom and red.
 *
 * The sets over-approximate: a value is derived from a parameter only
 * through the instructions and memory counted here, so a parameter
 * outside the final set is never the base of an address the kernel
 * reads.  An address derived from no parameter at all (a constant, a
 * module array's address) names no launch buffer; an ld.param whose
 * address is not a parameter's symbol counts as reading every one. */
#include "ptx_internal.h"

#include <stdlib.h>
#include <string.h>

#define ALL UINT64_MAX

static uint64_t bit_of(int k)
{
	return UINT64_C(1) << (k < 63 ? k : 63);
}

/* The parameter set of kernel f's ld.param in: the parameter its symbol
 * address plus offset falls in; every one when the address is not a
 * parameter symbol's. */
static uint64_t param_load(const struct ptx_func *f, const struct ptx_insn *in)
{
	for (int i = 0; i < f->nrelocs; i++) {
		const struct ptx_reloc *r = &f->relocs[i];
		if (r->slot != in->src[0] || r->space != 'p')
			continue;
		uint64_t at = r->offset + (uint64_t)in->off;
		for (int k = 0; k < f->nparams; k++)
			if (at - f->params[k].offset < f->params[k].size)
				return bit_of(k);
		return 0;   /* past the parameters: the run refuses it */
	}
	return ALL;
}

static int loads(int op)
{
	return op == PTX_LD_PARAM || op == PTX_LD_GLOBAL || op == PTX_LD_LOCAL ||
	       op == PTX_LD_GENERIC || op == PTX_LD_SHARED || op == PTX_ATOM;
}

/* The union of the sets of what in stores to memory (0: it stores
 * nothing): st's data (d, then src[1..] of a vector), atom and red's
 * operands b and c (src[0] is the address). */
static uint64_t stored(const struct ptx_insn *in, const uint64_t *P)
{
	uint64_t v;
	switch (in->op) {
	case PTX_ST_GLOBAL: case PTX_ST_LOCAL: case PTX_ST_GENERIC:
	case PTX_ST_SHARED: case PTX_ST_PARAM:
		v = P[in->dst];
		for (int i = 1; i < in->aux && i < 4; i++)
			v |= P[in->src[i]];
		return v;
	case PTX_ATOM: case PTX_RED:
		return P[in->src[1]] | P[in->src[2]];
	default:
		return 0;
	}
}

/* One pass over function f (sets P, one per slot): 1 when a set grew. */
static int pass(const struct ptx_func *f, int is_kernel, uint64_t *P,
		uint64_t *mem)
{
	int grew = 0;
	for (uint32_t pc = 0; pc < f->ncode; pc++) {
		const struct ptx_insn *in = &f->code[pc];
		uint32_t r[PTX_MAX_READS], w[PTX_MAX_WRITES];
		int nr = ptx_reads(in, r), nw = ptx_writes(in, w);
		uint64_t v = 0;
		uint64_t data = stored(in, P);
		if ((*mem | data) != *mem)
			*mem |= data, grew = 1;
		if (in->op == PTX_LD_PARAM && is_kernel)
			v = param_load(f, in);
		else if (loads(in->op))
			v = *mem;
		else
			for (int i = 0; i < nr; i++)
				v |= P[r[i]];
		for (int i = 0; i < nw; i++)
			if ((P[w[i]] | v) != P[w[i]])
				P[w[i]] |= v, grew = 1;
	}
	return grew;
}

/* The functions kernel e reaches through its calls, marked in reach; 0
 * when one of them cannot run (a call unresolved, a body the sim could
 * not decode). */
static int reach_from(const struct ptx_module *m, int e, unsigned char *reach)
{
	if (e < 0 || e >= m->nfuncs || m->funcs[e].error)
		return 0;
	if (reach[e])
		return 1;
	reach[e] = 1;
	for (int i = 0; i < m->funcs[e].ncalls; i++)
		if (!reach_from(m, m->funcs[e].calls[i].func, reach))
			return 0;
	return 1;
}

int ptx_prov_pass(struct ptx_module *m)
{
	for (int e = 0; e < m->nfuncs; e++) {
		struct ptx_func *k = &m->funcs[e];
		k->read_params = ALL;
		if (!k->is_entry || k->error)
			continue;
		unsigned char *reach = calloc((size_t)m->nfuncs, 1);
		uint64_t **P = calloc((size_t)m->nfuncs, sizeof *P), mem = 0;
		int ok = reach && P;
		ok = ok && reach_from(m, e, reach);
		for (int i = 0; ok && i < m->nfuncs; i++)
			if (reach[i] && !(P[i] = calloc(m->funcs[i].nslots, sizeof *P[i])))
				ok = 0;
		for (int grew = ok; grew;) {
			grew = 0;
			for (int i = 0; i < m->nfuncs; i++)
				if (reach[i])
					grew |= pass(&m->funcs[i], i == e, P[i], &mem);
		}
		uint64_t rd = 0;
		for (int i = 0; ok && i < m->nfuncs; i++)
			for (uint32_t pc = 0; reach[i] && pc < m->funcs[i].ncode; pc++) {
				const struct ptx_insn *in = &m->funcs[i].code[pc];
				if (in->op == PTX_LD_GLOBAL || in->op == PTX_LD_GENERIC ||
				    in->op == PTX_ATOM || in->op == PTX_RED)
					rd |= P[i][in->src[0]];
			}
		if (ok)
			k->read_params = rd;
		for (int i = 0; P && i < m->nfuncs; i++)
			free(P[i]);
		free(P);
		free(reach);
	}
	return 0;
}

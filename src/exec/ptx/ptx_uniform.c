/* ptx_uniform.c — which instructions of a kernel compute the same value
 * in every thread of a launch, so that the batched executor computes them
 * once per launch instead of once per thread (ptx_batch.c).
 *
 * An instruction is uniform when
 *   - it is an integer, move, conversion or ld.param instruction (pure:
 *     its result depends on its operands only; the kernel's parameters do
 *     not change during a launch) without a guard or a carry flag,
 *   - every operand is uniform: a slot no instruction writes (immediates,
 *     addresses of symbols, registers never set), %ntid.*, %nctaid.* and
 *     the shared memory sizes,
 *     or the result of an uniform instruction earlier in the code,
 *   - its destination is written by no other instruction, and no thread
 *     can read it before this instruction ran (it is not in f->reset,
 *     ptx_undef.c).
 * Its value is then the same whenever any thread runs it, and no other
 * instruction can overwrite it, so it may be computed before any thread
 * runs: a thread reads the register only after running the instruction
 * (so it reads that value, as thread by thread), and a thread that never
 * runs it never reads it. */
#include "ptx_batch.h"

#include <stdlib.h>

static int pure(const struct ptx_insn *in)
{
	if (in->flags & (PTX_F_CC | PTX_F_CIN))
		return 0;
	switch (in->op) {
	case PTX_ADD_I: case PTX_SUB_I: case PTX_MUL_LO: case PTX_MUL_HI:
	case PTX_MUL_WIDE: case PTX_MAD_LO: case PTX_MAD_HI: case PTX_MAD_WIDE:
	case PTX_AND: case PTX_OR: case PTX_XOR: case PTX_NOT: case PTX_SHL:
	case PTX_SHR: case PTX_MOV: case PTX_CVT_II:
		return 1;
	case PTX_LD_PARAM:
		return in->aux == 1;
	default:
		return 0;
	}
}

static int sreg_uniform(uint32_t s)
{
	int r = (int)(s - PTX_SLOT_SREG);
	return (r >= PTX_SR_NTID_X && r <= PTX_SR_NTID_Z) ||
	       (r >= PTX_SR_NCTAID_X && r <= PTX_SR_NCTAID_Z) ||
	       r == PTX_SR_DYNAMIC_SMEM || r == PTX_SR_TOTAL_SMEM;
}

uint8_t *ptx_uniform_insns(const struct ptx_func *f)
{
	uint8_t *nw = calloc(f->nslots, 1), *uni = calloc(f->nslots, 1);
	uint8_t *mark = calloc(f->ncode + 1u, 1);
	if (!nw || !uni || !mark) {
		free(nw);
		free(uni);
		free(mark);
		return NULL;
	}
	uint32_t w[PTX_MAX_WRITES];
	for (uint32_t i = 0; i < f->ncode; i++)
		for (int k = ptx_writes(&f->code[i], w); k-- > 0;)
			if (w[k] < f->nslots && nw[w[k]] < 2)
				nw[w[k]]++;
	int has_st_param = 0;
	for (uint32_t i = 0; i < f->ncode; i++)
		has_st_param |= f->code[i].op == PTX_ST_PARAM;
	for (uint32_t s = 0; s < f->nslots; s++)
		uni[s] = s >= PTX_SLOT_SREG && s < PTX_SLOT_SINK ? sreg_uniform(s)
							       : nw[s] == 0;
	for (uint32_t k = 0; k < f->nreset; k++)   /* may be read unset */
		if (nw[f->reset[k]] == 1)
			nw[f->reset[k]] = 2;
	for (uint32_t i = 0; i < f->ncode; i++) {
		const struct ptx_insn *in = &f->code[i];
		int ok = pure(in) && in->guard == PTX_SLOT_TRUE && !in->gneg &&
			 in->dst < f->nslots && nw[in->dst] == 1 &&
			 !(in->op == PTX_LD_PARAM && has_st_param);
		for (int k = 0; ok && k < 3; k++)
			ok = in->src[k] < f->nslots && uni[in->src[k]];
		if (ok)
			mark[i] = uni[in->dst] = 1;
	}
	free(nw);
	free(uni);
	return mark;
}

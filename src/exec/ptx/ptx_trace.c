/* ptx_trace.c — the events of a traced run (ptx.h: struct ptx_trace), for
 * `ulpbench explain`.  Which instructions are traced is decided once per
 * run from their mnemonics; the hot loop's traced copy (ptx_exec.c) calls
 * ptx_trace_before/after around each marked instruction, the untraced copy
 * never does. */
#include "ptx_trace.h"
#include "ptx_mufu.h"

#include <stdlib.h>
#include <string.h>

static const uint8_t shapes[] = {
#define X(id, base, var, types, shape) PTX_S_##shape,
	PTX_OPS(X)
#undef X
};

/* Operands an instruction of shape sh reads: slots src[0 .. n-1]; 0 for
 * shapes that only move data (ld, st, mov, pack) or are integer-only. */
static int nsrc_of(int sh)
{
	switch (sh) {
	case PTX_S_A: case PTX_S_TESTP: case PTX_S_CVT: return 1;
	case PTX_S_AB: case PTX_S_SETP: case PTX_S_CVT2: return 2;
	case PTX_S_ABC: case PTX_S_SELP: case PTX_S_SLCT: return 3;
	default: return 0;
	}
}

/* Does a dot-separated part of the mnemonic name a float type? */
static int names_float(const char *t)
{
	static const char *const fl[] = { "f16", "bf16", "f32", "f64", "f16x2",
					  "bf16x2" };
	for (const char *p = strchr(t, '.'); p; p = strchr(p, '.')) {
		size_t len = strcspn(++p, ".");
		for (size_t k = 0; k < sizeof fl / sizeof fl[0]; k++)
			if (len == strlen(fl[k]) && !strncmp(p, fl[k], len))
				return 1;
	}
	return 0;
}

uint8_t *ptx_trace_marks(const struct ptx_func *f)
{
	uint8_t *m = calloc(f->ncode + 1u, 1);
	for (uint32_t i = 0; m && i < f->ncode; i++)
		m[i] = f->text[i] && nsrc_of(shapes[f->code[i].op]) > 0 &&
		       names_float(f->text[i]);
	return m;
}

void ptx_trace_before(const struct ptx_func *f, const struct ptx_insn *in,
		      const uint64_t *R, struct ptx_trace_event *ev)
{
	uint32_t pc = (uint32_t)(in - f->code);
	ev->text = f->text[pc];
	ev->line = f->lines[pc];
	ev->nsrc = nsrc_of(shapes[in->op]);
	ev->measured = ptx_measured_op(in->op) && in->cmp;
	ev->func = f;
	ev->dst_reg = in->dst;
	for (int k = 0; k < ev->nsrc; k++) {
		ev->src[k] = R[in->src[k]];
		ev->src_bits[k] = f->width[in->src[k]];
		ev->src_reg[k] = in->src[k];
	}
}

void ptx_trace_after(const struct ptx_trace *t, const struct ptx_func *f,
		     const struct ptx_insn *in, const uint64_t *R,
		     struct ptx_trace_event *ev)
{
	const uint64_t *S = R + PTX_SLOT_SREG;
	uint64_t block = S[PTX_SR_CTAID_X] + S[PTX_SR_NCTAID_X] *
			 (S[PTX_SR_CTAID_Y] + S[PTX_SR_NCTAID_Y] * S[PTX_SR_CTAID_Z]);
	uint64_t tid = S[PTX_SR_TID_X] + S[PTX_SR_NTID_X] *
		       (S[PTX_SR_TID_Y] + S[PTX_SR_NTID_Y] * S[PTX_SR_TID_Z]);
	ev->dst = R[in->dst];
	ev->dst_bits = f->width[in->dst];
	ev->thread = block * S[PTX_SR_NTID_X] * S[PTX_SR_NTID_Y] *
		     S[PTX_SR_NTID_Z] + tid;
	t->insn(t->user, ev);
}

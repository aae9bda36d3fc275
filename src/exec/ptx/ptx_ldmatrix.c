/* ptx_ldmatrix.c — ldmatrix, stmatrix and movmatrix on the block executor
 * (PTX ISA 9.0, 9.7.14.5.15 "Warp-level matrix load instruction:
 * ldmatrix", .16 stmatrix, .17 movmatrix), and what the tensor-core
 * instructions share: the whole-warp rule, .shared addresses, the flag.
 *
 * An 8x8 matrix of b16 elements as a fragment: lane l holds row l / 4,
 * columns 2 (l % 4) and 2 (l % 4) + 1, the first in the low half of its
 * register.  ldmatrix .x1/.x2/.x4 reads 1, 2 or 4 such matrices: row r of
 * matrix i (8 contiguous elements, 16 bytes, 16-byte aligned) from the
 * .shared address that lane 8i + r gives; register i of every lane gets
 * matrix i (.trans: its transpose, lane l then holding column l / 4, rows
 * 2 (l % 4) and 2 (l % 4) + 1).  stmatrix writes the fragments back to
 * the rows so addressed; movmatrix transposes a fragment in registers.
 * The other lanes' addresses are not used (.x1: lanes 8..31). */
#include "ptx_mma.h"

#include <stdio.h>
#include <string.h>

#define W PTX_WARP
#define REG(s) w->R[(size_t)(s) * W + l]

unsigned char *ptx_mma_shared(struct ptx_blk *b, unsigned wi, unsigned l,
			      const struct ptx_insn *in, uint64_t a, uint64_t n,
			      uint64_t al, int generic, const char *what)
{
	uint64_t base = (uint64_t)(uintptr_t)b->shared;
	uint32_t pc = (uint32_t)(in - b->f->code);
	if (generic && a - base < b->shared_size)
		a -= base;
	else if (generic)
		return ptx_blk_fail(b, wi * W + l, "%s at line %u: %s: the generic "
				    "address 0x%llx is not in .shared memory", b->f->text[pc],
				    b->f->lines[pc], what, (unsigned long long)a), NULL;
	if (a % al)
		return ptx_blk_fail(b, wi * W + l, "%s at line %u: %s: .shared offset "
				    "0x%llx is not %llu-byte aligned", b->f->text[pc],
				    b->f->lines[pc], what, (unsigned long long)a,
				    (unsigned long long)al), NULL;
	unsigned char *p = ptx_shared_at(b, a, n);
	if (!p)
		ptx_blk_fail(b, wi * W + l, "%s at line %u: %s: out-of-bounds .shared "
			     "offset 0x%llx (%llu bytes; the block has %llu bytes of "
			     ".shared memory; --launch ...,shared=BYTES gives its "
			     "dynamic part)", b->f->text[pc], b->f->lines[pc], what,
			     (unsigned long long)a, (unsigned long long)n,
			     (unsigned long long)b->shared_size);
	return p;
}

int ptx_mma_checked(struct ptx_blk *b, unsigned wi, unsigned l, const struct ptx_insn *in,
		    const unsigned char *p, uint64_t n, int kind, const void *bytes)
{
	uint32_t pc = (uint32_t)(in - b->f->code);
	unsigned t = wi * W + l;
	uint64_t base = (uint64_t)(uintptr_t)b->shared, a = (uint64_t)(uintptr_t)p;
	int rc = a - base < b->shared_size
		 ? ptx_chk_shared(&b->chk, a - base, n, kind, t, pc, bytes, p)
		 : ptx_chk_global(&b->chk, a, n, kind, t, pc, bytes);
	return rc ? ptx_blk_fail(b, t, "%s", b->chk.msg) : 0;
}

void ptx_mma_flag(struct ptx_blk *b, const struct ub_mma_model *m, unsigned doubt)
{
	if (!m->known || doubt)
		b->amask |= 1ull << PTX_AX_MMA;
}

/* The 8x8 fragment of register slot s: x[row][col]. */
static void gather(const struct ptx_warp *w, uint32_t s, uint16_t x[8][8])
{
	for (unsigned l = 0; l < W; l++) {
		uint32_t v = (uint32_t)REG(s);
		x[l / 4][2 * (l % 4)] = (uint16_t)v;
		x[l / 4][2 * (l % 4) + 1] = (uint16_t)(v >> 16);
	}
}

static void scatter(struct ptx_warp *w, uint32_t s, uint16_t x[8][8])
{
	for (unsigned l = 0; l < W; l++)
		REG(s) = (uint64_t)x[l / 4][2 * (l % 4)] |
			 (uint64_t)x[l / 4][2 * (l % 4) + 1] << 16;
}

static void transpose(uint16_t x[8][8])
{
	for (int r = 0; r < 8; r++)
		for (int c = r + 1; c < 8; c++) {
			uint16_t t = x[r][c];
			x[r][c] = x[c][r];
			x[c][r] = t;
		}
}

int ptx_warp_ldmatrix(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in)
{
	struct ptx_warp *w = &b->w[wi];
	if (in->op == PTX_MOVMATRIX) {
		uint16_t x[8][8];
		gather(w, in->src[0], x);
		transpose(x);
		scatter(w, in->dst, x);
		return 0;
	}
	int ld = in->op == PTX_LDMATRIX;
	for (int i = 0; i < in->aux; i++) {
		uint32_t s = i ? in->src[i] : in->dst;
		uint16_t x[8][8];
		if (!ld) {
			gather(w, s, x);
			if (in->cmp)
				transpose(x);
		}
		for (unsigned r = 0; r < 8; r++) {
			unsigned l = 8 * (unsigned)i + r;
			char what[40];
			snprintf(what, sizeof what, "row %u of matrix %d (lane %u)", r, i, l);
			unsigned char *p = ptx_mma_shared(b, wi, l, in, REG(in->src[0]) +
							  (uint64_t)in->off, 16, 16,
							  in->sbits == PTX_WMMA_GENERIC, what);
			unsigned char nb[16];
			for (int c = 0; !ld && c < 8; c++)   /* little-endian host */
				nb[2 * c] = (unsigned char)x[r][c],
				nb[2 * c + 1] = (unsigned char)(x[r][c] >> 8);
			if (!p || ptx_mma_checked(b, wi, l, in, p, 16, ld ? PTX_CHK_READ :
						  PTX_CHK_WRITE, nb))
				return UB_RUNTIME;
			for (int c = 0; ld && c < 8; c++)
				x[r][c] = (uint16_t)(p[2 * c] | p[2 * c + 1] << 8);
			if (!ld)
				memcpy(p, nb, sizeof nb);
		}
		if (ld) {
			if (in->cmp)
				transpose(x);
			if (s != PTX_SLOT_SINK)
				scatter(w, s, x);
		}
	}
	return 0;
}

/* Every lane of the warp runs a warp-level matrix instruction together (.sync,
 * .aligned): a lane that skips it (exited, elsewhere, or its guard false)
 * leaves it undefined on the GPU. */
static int whole_warp(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		      uint32_t g)
{
	if (g == 0xffffffffu)
		return 0;
	struct ptx_warp *w = &b->w[wi];
	uint32_t pc = (uint32_t)(in - b->f->code);
	unsigned l = (unsigned)__builtin_ctz(~g);
	const char *why = !(w->live >> l & 1) ? "has exited or is not in the block"
			  : w->pc[l] == pc ? "skips it (its guard is false)"
			  : "is elsewhere";
	return ptx_blk_fail(b, wi * W + (unsigned)__builtin_ctz(g),
			    "%s at line %u: lane %u of warp %u %s: every lane of the "
			    "warp must run it together (.sync.aligned)", b->f->text[pc],
			    b->f->lines[pc], l, wi, why);
}

int ptx_warp_mma(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		 uint32_t g, uint32_t act)
{
	(void)act;
	if (in->op == PTX_WGMMA_SYNC)
		return 0;
	if (whole_warp(b, wi, in, g))
		return UB_RUNTIME;
	switch (in->op) {
	case PTX_LDMATRIX: case PTX_STMATRIX: case PTX_MOVMATRIX:
		return ptx_warp_ldmatrix(b, wi, in);
	case PTX_WGMMA:
		return ptx_warp_wgmma(b, wi, in);
	default:
		return ptx_warp_mma_sync(b, wi, in);
	}
}

/* ptx_wgmma.c — wgmma.mma_async on the block executor (PTX ISA 9.0,
 * 9.7.15 "Asynchronous Warpgroup Level Matrix Multiply-Accumulate
 * Instructions").
 *
 * A warpgroup (4 warps, the first a multiple of 4) computes a 64 x N tile
 * of D; warp w of the group holds rows 16w .. 16w + 15, and those rows
 * need only that warp's registers and the .shared operands, so each warp
 * runs its part when it reaches the instruction (the mma "runs at
 * issue"; wgmma.fence, commit_group and wait_group change nothing: a
 * kernel that writes an operand's .shared memory between the mma and
 * its wait_group is undefined on the GPU, and here sees the old values).
 *
 * D's fragment (9.7.15.5.1, "Register Fragments"): register i of lane l
 * of warp w is row 16w + l/4 + 8 ((i >> 1) & 1), column 8 (i >> 2) +
 * 2 (l % 4) + (i & 1) (f16 accumulators: element i = 2r + j of register
 * r).  A in registers: mma's m16n8kK fragment of rows 16w.. (ptx_mma_frag.c).
 *
 * A and B in .shared memory through a 64-bit descriptor (9.7.15.5.1,
 * "Matrix Descriptor Format"): bits 0-13 the start address >> 4, 16-29
 * the leading dimension byte offset (LBO) >> 4, 32-45 the stride
 * dimension byte offset (SBO) >> 4, 49-51 the base offset, 62-63 the
 * swizzle (0 none, 1 128-byte, 2 64-byte, 3 32-byte).  The canonical
 * layouts (9.7.15.5.1, "Shared Memory Matrix Layout"), in bytes, for the
 * element (i, k), i along M (or N), k along K, of e bytes:
 *   K-major, no swizzle: (i % 8) * 16 + (i / 8) * SBO + (ke / 16) * LBO + ke % 16
 *   K-major, swizzle S:  (i % 8) * S + (i / 8) * SBO + ke          (ke < 32 <= S)
 *   MN-major, none:      (ie % 16) + (ie / 16) * SBO + (k % 8) * 16 + (k / 8) * LBO
 *   MN-major, swizzle S: (ie % S) + (ie / S) * LBO + (k % 8) * S + (k / 8) * SBO
 * from the start address, then swizzled: bits 4.. of the offset XOR the
 * bits from 7 (3 of them for 128 bytes, 2 for 64, 1 for 32).  A base
 * offset other than 0 is not modelled (an error). */
#include "ptx_mma.h"

#include <stdio.h>
#include <stdlib.h>

#define W PTX_WARP
#define REG(s) w->R[(size_t)(s) * W + l]

struct desc {
	uint64_t start, lbo, sbo;
	int swz;   /* the swizzle's row bytes S (0: none) */
};

static int desc_of(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		   uint64_t v, struct desc *d, const char *which)
{
	static const int swz[4] = { 0, 128, 64, 32 };
	d->start = (v & 0x3fff) << 4;
	d->lbo = (v >> 16 & 0x3fff) << 4;
	d->sbo = (v >> 32 & 0x3fff) << 4;
	d->swz = swz[v >> 62];
	if (!(v >> 49 & 7))
		return 0;
	uint32_t pc = (uint32_t)(in - b->f->code);
	return ptx_blk_fail(b, wi * W, "%s at line %u: the descriptor of %s has base "
			    "offset %u: not modelled (only 0)", b->f->text[pc],
			    b->f->lines[pc], which, (unsigned)(v >> 49 & 7));
}

/* The .shared offset of element (i, k) of e bytes (above). */
static uint64_t at(const struct desc *d, int mn_major, uint64_t i, uint64_t k, uint64_t e)
{
	uint64_t a, S = (uint64_t)d->swz, ke = k * e, ie = i * e;
	if (!mn_major)
		a = S ? (i % 8) * S + (i / 8) * d->sbo + ke
		      : (i % 8) * 16 + (i / 8) * d->sbo + (ke / 16) * d->lbo + ke % 16;
	else
		a = S ? ie % S + (ie / S) * d->lbo + (k % 8) * S + (k / 8) * d->sbo
		      : ie % 16 + (ie / 16) * d->sbo + (k % 8) * 16 + (k / 8) * d->lbo;
	a += d->start;
	if (S)
		a ^= ((a >> 7) & (S / 16 - 1)) << 4;
	return a;
}

/* rows x k elements of format f from descriptor d (row i of the result:
 * element (i0 + i, k) of the matrix), negated with neg. */
static int load(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		const struct desc *d, int mn_major, int f, int i0, int rows, int k,
		int neg, uint64_t *M, const char *which)
{
	uint64_t e = (uint64_t)ptx_mma_fmt_bits(f) / 8;
	for (int i = 0; i < rows; i++)
		for (int q = 0; q < k; q++) {
			char what[48];
			snprintf(what, sizeof what, "element (%d, %d) of %s", i0 + i, q, which);
			unsigned char *p = ptx_mma_shared(b, wi, 0, in, at(d, mn_major,
							  (uint64_t)(i0 + i), (uint64_t)q, e),
							  e, e, 0, what);
			if (!p || ptx_mma_checked(b, wi, 0, in, p, e, PTX_CHK_READ, NULL))
				return UB_RUNTIME;
			uint64_t v = 0;
			for (uint64_t y = 0; y < e; y++)   /* little-endian */
				v |= (uint64_t)p[y] << (8 * y);
			M[i * k + q] = v ^ ((uint64_t)neg << (8 * e - 1));
		}
	return 0;
}

/* Element i of a lane's accumulator registers: its row (of the warp's
 * 16) and column. */
static void d_place(unsigned l, int i, int *row, int *col)
{
	*row = (int)(l / 4) + 8 * ((i >> 1) & 1);
	*col = 8 * (i >> 2) + 2 * (int)(l % 4) + (i & 1);
}

/* A's 16 x k elements of warp wi from its registers (mma's m16n8kK
 * fragment, PTX_WG_AREG) or its descriptor. */
static int load_a(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in, int k,
		  uint64_t *A)
{
	const struct ptx_warp *w = &b->w[wi];
	const uint32_t *L = ptx_opl(in), *ra = L + PTX_OPL_HEAD + 2 * L[0];
	int fa = in->bits, neg = (in->aux & PTX_WG_NEGA) != 0;
	if (!(in->aux & PTX_WG_AREG)) {
		struct desc da;
		unsigned l = 0;
		return desc_of(b, wi, in, REG(ra[0]), &da, "a") ||
		       load(b, wi, in, &da, (in->aux & PTX_WG_TRANSA) != 0, fa,
			    16 * (int)(wi % 4), 16, k, neg, A, "a") ? UB_RUNTIME : 0;
	}
	int shape = k == 16 ? PTX_MS_M16N8K16 : k == 8 ? PTX_MS_M16N8K8 : PTX_MS_M16N8K32;
	int bits = ptx_mma_fmt_bits(fa), e = 32 / bits, row, col;
	for (unsigned l = 0; l < W; l++)
		for (uint32_t r = 0; r < L[2]; r++)
			for (int j = 0; j < e; j++) {
				ptx_mma_frag_a(shape, fa, (int)l, (int)r, j, &row, &col);
				uint64_t v = (REG(ra[r]) >> (bits * j)) & ((1ull << bits) - 1);
				A[row * k + col] = v ^ ((uint64_t)neg << (bits - 1));
			}
	return 0;
}

/* The warp's 16 rows of D = A * B + C; A, B, C, D of 16 x k, n x k (B
 * transposed), 16 x n, 16 x n elements. */
static int run(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
	       uint64_t *A, uint64_t *B, uint64_t *C, uint64_t *D)
{
	struct ptx_warp *w = &b->w[wi];
	const uint32_t *L = ptx_opl(in), *ds = L + PTX_OPL_HEAD, *rs = ds + L[0];
	int n = in->cmp * 8, fa = in->bits, fb = in->rbits, fd = in->dtype;
	int k = fa == UB_MTF32 ? 8 : fa == UB_MF16 || fa == UB_MBF16 ? 16 : 32;
	int per = fd == UB_MF16 ? 2 : 1, row, col;
	uint32_t na = L[2], pc = (uint32_t)(in - b->f->code);
	if ((wi / 4 + 1) * 4 > b->nwarps || b->nthreads < (wi / 4 + 1) * 128)
		return ptx_blk_fail(b, wi * W, "%s at line %u: warp %u is not in a whole "
				    "warpgroup (4 warps of 32 threads; the block has %u "
				    "threads)", b->f->text[pc], b->f->lines[pc], wi,
				    b->nthreads);
	struct desc db;
	unsigned l = 0;
	if (desc_of(b, wi, in, REG(rs[L[0] + na]), &db, "b") ||
	    load(b, wi, in, &db, (in->aux & PTX_WG_TRANSB) != 0, fb, 0, n, k,
		 (in->aux & PTX_WG_NEGB) != 0, B, "b") || load_a(b, wi, in, k, A))
		return UB_RUNTIME;
	for (l = 0; l < W; l++)   /* C: d as it is, or +0 when scale-d is 0 */
		for (int i = 0; i < per * (int)L[0]; i++) {
			uint64_t v = REG(rs[i / per]) >> (16 * (i % per) * (per - 1));
			d_place(l, i, &row, &col);
			C[row * n + col] = REG(rs[L[0] + na + 1]) & 1 ?
					   v & (per == 2 ? 0xffff : 0xffffffff) : 0;
		}
	struct ub_mma_model mo;
	unsigned doubt = 0;
	uint64_t bc[32];
	ub_mma_model_get(in->sbits, UB_MMA_WGMMA, fa, k, &mo);
	for (int j = 0; j < n; j++) {
		for (int q = 0; q < k; q++)
			bc[q] = B[j * k + q];
		for (int i = 0; i < 16; i++)
			D[i * n + j] = ub_mma_dot(&mo, fa, fb, A + i * k, bc, k, fd,
						  C[i * n + j], &doubt);
	}
	ptx_mma_flag(b, &mo, doubt);
	for (l = 0; l < W; l++)
		for (uint32_t r = 0; r < L[0]; r++) {
			uint64_t v = 0;
			for (int j = 0; j < per; j++) {
				d_place(l, per * (int)r + j, &row, &col);
				v |= D[row * n + col] << (16 * j * (per - 1));
			}
			REG(ds[r]) = v;
		}
	return 0;
}

int ptx_warp_wgmma(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in)
{
	uint64_t *m = malloc((16 * 32 + 256 * 32 + 2 * 16 * 256) * sizeof *m);
	if (!m)
		return ptx_blk_fail(b, wi * W, "out of memory");
	int rc = run(b, wi, in, m, m + 16 * 32, m + 16 * 32 + 256 * 32,
		     m + 16 * 32 + 256 * 32 + 16 * 256);
	free(m);
	return rc;
}

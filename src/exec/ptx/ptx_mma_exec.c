/* ptx_mma_exec.c — mma.sync and wmma on the block executor (PTX ISA 9.0,
 * 9.7.14): the warp's fragments gathered into A, B and C, every element
 * of D computed by the MMA unit of the module's architecture
 * (mma_unit.h), and scattered back.  mma's fragments are the ISA's
 * (ptx_mma_frag.c).
 *
 * wmma's fragments are opaque in the ISA ("the layout of the fragments is
 * unspecified"): here element e of lane l of an R x C matrix is element
 * p = (e mod RC/32) * 32 + l in row-major order, the same for load, mma
 * and store, so that a kernel that only loads, multiplies, stores and
 * works element by element on fragments computes what it computes on the
 * GPU; the f16 a and b fragments (16 elements a lane) hold some elements
 * in several lanes, and mma reads the first.  wmma.load and .store take
 * one address and stride for the whole warp (the ISA requires them
 * uniform: lanes that differ are an error). */
#include "ptx_mma.h"

#include <stdio.h>
#include <string.h>

#define W PTX_WARP
#define REG(s) w->R[(size_t)(s) * W + l]
#define MAXE 512   /* elements of the largest a or b (16 x 32) */

static int per_reg(int fmt)
{
	int b = ptx_mma_fmt_bits(fmt);
	return b >= 32 ? 1 : 32 / b;
}

static uint64_t elem(uint64_t v, int fmt, int j)
{
	int b = ptx_mma_fmt_bits(fmt);
	return b == 64 ? v : (v >> (b * j)) & ((1ull << b) - 1);
}

/* D[i][j] = the unit's A[i][:] . B[:][j] + C[i][j] (m x n, k deep). */
static void multiply(struct ptx_blk *b, const struct ptx_insn *in, int insn,
		     int m, int n, int k, const uint64_t *A, const uint64_t *B,
		     const uint64_t *C, uint64_t *D)
{
	struct ub_mma_model mo;
	unsigned doubt = 0;
	uint64_t col[32];
	ub_mma_model_get(in->sbits, insn, in->bits, k, &mo);   /* decoded: exists */
	for (int j = 0; j < n; j++) {
		for (int q = 0; q < k; q++)
			col[q] = B[q * n + j];
		for (int i = 0; i < m; i++)
			D[i * n + j] = ub_mma_dot(&mo, in->bits, in->rbits, A + i * k, col, k,
						  in->dtype, C[i * n + j], &doubt);
	}
	ptx_mma_flag(b, &mo, doubt);
}

static int mma_sync(struct ptx_blk *b, struct ptx_warp *w, const struct ptx_insn *in)
{
	const uint32_t *L = ptx_opl(in), *ds = L + PTX_OPL_HEAD, *rs = ds + L[0];
	const struct ptx_mma_dims *dm = &ptx_mma_dims[in->cmp];
	int sh = in->cmp, fa = in->bits, fb = in->rbits, fc = in->aux, fd = in->dtype;
	uint64_t A[MAXE], B[MAXE], C[256], D[256];
	for (unsigned l = 0; l < W; l++) {
		int row, col;
		for (uint32_t r = 0; r < L[2]; r++)
			for (int j = 0; j < per_reg(fa); j++) {
				ptx_mma_frag_a(sh, fa, (int)l, (int)r, j, &row, &col);
				A[row * dm->k + col] = elem(REG(rs[r]), fa, j);
			}
		for (uint32_t r = 0; r < L[3]; r++)
			for (int j = 0; j < per_reg(fb); j++) {
				ptx_mma_frag_b(sh, fb, (int)l, (int)r, j, &row, &col);
				B[row * dm->n + col] = elem(REG(rs[L[2] + r]), fb, j);
			}
		for (uint32_t r = 0; r < L[4]; r++)
			for (int j = 0; j < per_reg(fc); j++) {
				ptx_mma_frag_c(sh, fc, (int)l, (int)r, j, &row, &col);
				C[row * dm->n + col] = elem(REG(rs[L[2] + L[3] + r]), fc, j);
			}
	}
	multiply(b, in, UB_MMA_SYNC, dm->m, dm->n, dm->k, A, B, C, D);
	for (unsigned l = 0; l < W; l++)
		for (uint32_t r = 0; r < L[0]; r++) {
			uint64_t v = 0;
			int row, col, bits = ptx_mma_fmt_bits(fd);
			for (int j = 0; j < per_reg(fd); j++) {
				ptx_mma_frag_c(sh, fd, (int)l, (int)r, j, &row, &col);
				v |= D[row * dm->n + col] << (bits == 64 ? 0 : bits * j);
			}
			REG(ds[r]) = v;
		}
	return 0;
}

/* The rows and columns of a wmma fragment: a (m x k), b (k x n), c and d
 * (m x n). */
static void wmma_dims(const struct ptx_mma_dims *d, int which, int *r, int *c)
{
	*r = which == 'b' ? d->k : d->m;
	*c = which == 'a' ? d->k : d->n;
}

/* Element e of lane l of an r x c fragment: its place in row-major order. */
static int wmma_place(int r, int c, int l, int e)
{
	return (e % (r * c / W)) * W + l;
}

/* Lane l's element at byte address a of n bytes, in the instruction's
 * state space: the host pointer, or NULL with the failure set. */
static unsigned char *wmma_at(struct ptx_blk *b, unsigned wi, unsigned l,
			      const struct ptx_insn *in, uint64_t a, uint64_t n, int store)
{
	uint64_t base = (uint64_t)(uintptr_t)b->shared, lo, size;
	if (in->dtype == PTX_WMMA_SHARED || (in->dtype == PTX_WMMA_GENERIC &&
					     a - base < b->shared_size))
		return ptx_mma_shared(b, wi, l, in, a, n, n, in->dtype == PTX_WMMA_GENERIC,
				      "a fragment element");
	unsigned t = wi * W + l;
	unsigned char *lbuf = b->local + (size_t)t * b->f->local_size;
	int op = in->dtype == PTX_WMMA_GLOBAL ? (store ? PTX_ST_GLOBAL : PTX_LD_GLOBAL)
					      : (store ? PTX_ST_GENERIC : PTX_LD_GENERIC);
	if (ptx_mem_region(b->c, op, a, n, lbuf, &lo, &size))
		return (unsigned char *)(uintptr_t)a;
	b->c->bad_addr = a;
	b->c->bad_kind = 1;
	b->bad_thread = t;
	return NULL;
}

/* wmma.load and wmma.store: the fragment's elements at address + (row *
 * stride + col) * size (.row) or (col * stride + row) * size (.col). */
static int wmma_mem(struct ptx_blk *b, unsigned wi, struct ptx_warp *w,
		    const struct ptx_insn *in)
{
	const uint32_t *L = ptx_opl(in);
	int load = in->op == PTX_WMMA_LOAD, f = in->bits, r, c;
	const uint32_t *regs = load ? L + PTX_OPL_HEAD : L + PTX_OPL_HEAD + 1 + L[2];
	const uint32_t *rs = L + PTX_OPL_HEAD + L[0];
	int64_t off = (int64_t)((uint64_t)L[5] | (uint64_t)L[6] << 32);
	wmma_dims(&ptx_mma_dims[in->cmp], in->rbits, &r, &c);
	uint64_t size = (uint64_t)ptx_mma_fmt_bits(f) / 8, a0 = 0, s0 = 0;
	uint32_t pc = (uint32_t)(in - b->f->code);
	for (unsigned l = 0; l < W; l++) {
		uint64_t a = REG(rs[0]) + (uint64_t)off;
		uint64_t s = L[2] ? (uint32_t)REG(rs[1]) : (uint64_t)(in->aux ? r : c);
		if (l && (a != a0 || s != s0))
			return ptx_blk_fail(b, wi * W + l, "%s at line %u: lane %u gives "
					    "address 0x%llx and stride %llu, lane 0 0x%llx "
					    "and %llu: they must be the same in every lane",
					    b->f->text[pc], b->f->lines[pc], l,
					    (unsigned long long)a, (unsigned long long)s,
					    (unsigned long long)a0, (unsigned long long)s0);
		a0 = a, s0 = s;
	}
	for (unsigned l = 0; l < W; l++)
		for (uint32_t k = 0; k < L[3]; k++) {
			uint64_t v = load ? 0 : REG(regs[k]);
			for (int j = 0; j < per_reg(f); j++) {
				int p = wmma_place(r, c, (int)l, (int)k * per_reg(f) + j);
				int row = p / c, col = p % c;
				uint64_t e = in->aux ? (uint64_t)col * s0 + (uint64_t)row
						     : (uint64_t)row * s0 + (uint64_t)col;
				unsigned char *q = wmma_at(b, wi, l, in, a0 + e * size, size, !load);
				uint64_t x = 0;
				int sh = (int)size * 8 * j;
				if (!load)
					x = size == 8 ? v : v >> sh;
				if (!q || ptx_mma_checked(b, wi, l, in, q, size, load ? PTX_CHK_READ
							  : PTX_CHK_WRITE, &x))
					return UB_RUNTIME;
				if (load) {
					memcpy(&x, q, size);   /* little-endian host */
					v |= x << (size == 8 ? 0 : sh);
				} else {
					memcpy(q, &x, size);
				}
			}
			if (load && regs[k] != PTX_SLOT_SINK)
				REG(regs[k]) = v;
		}
	return 0;
}

/* A wmma fragment (registers regs, format f, r x c) into M (row-major). */
static void wmma_gather(const struct ptx_warp *w, const uint32_t *regs, uint32_t n,
			int f, int r, int c, uint64_t *M)
{
	for (unsigned l = 0; l < W; l++)
		for (uint32_t k = 0; k < n; k++)
			for (int j = 0; j < per_reg(f); j++) {
				int e = (int)k * per_reg(f) + j;
				if (e < r * c / W)   /* the first copy */
					M[wmma_place(r, c, (int)l, e)] = elem(REG(regs[k]), f, j);
			}
}

static int wmma_mma(struct ptx_blk *b, struct ptx_warp *w, const struct ptx_insn *in)
{
	const uint32_t *L = ptx_opl(in), *ds = L + PTX_OPL_HEAD, *rs = ds + L[0];
	const struct ptx_mma_dims *dm = &ptx_mma_dims[in->cmp];
	uint64_t A[MAXE], B[MAXE], C[256], D[256];
	wmma_gather(w, rs, L[2], in->bits, dm->m, dm->k, A);
	wmma_gather(w, rs + L[2], L[3], in->rbits, dm->k, dm->n, B);
	wmma_gather(w, rs + L[2] + L[3], L[4], in->aux, dm->m, dm->n, C);
	multiply(b, in, UB_MMA_WMMA, dm->m, dm->n, dm->k, A, B, C, D);
	int fd = in->dtype, bits = ptx_mma_fmt_bits(fd);
	for (unsigned l = 0; l < W; l++)
		for (uint32_t k = 0; k < L[0]; k++) {
			uint64_t v = 0;
			for (int j = 0; j < per_reg(fd); j++)
				v |= D[wmma_place(dm->m, dm->n, (int)l, (int)k * per_reg(fd) + j)]
				     << (bits == 64 ? 0 : bits * j);
			REG(ds[k]) = v;
		}
	return 0;
}

int ptx_warp_mma_sync(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in)
{
	struct ptx_warp *w = &b->w[wi];
	switch (in->op) {
	case PTX_MMA: return mma_sync(b, w, in);
	case PTX_WMMA_MMA: return wmma_mma(b, w, in);
	default: return wmma_mem(b, wi, w, in);
	}
}

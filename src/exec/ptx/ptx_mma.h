/* ptx_mma.h — the tensor-core instructions of the interpreter (PTX ISA 9.0,
 * 9.7.14 "Warp Level Matrix Multiply-Accumulate Instructions" and 9.7.15
 * "Asynchronous Warpgroup Level Matrix Multiply-Accumulate Instructions";
 * docs/tensor-cores.md): how they are decoded (ptx_insn_mma.c) and run
 * (ptx_ldmatrix.c, ptx_mma_exec.c, ptx_wgmma.c), and the fragment layouts
 * they share (ptx_mma_frag.c).
 *
 * ldmatrix and stmatrix are of shape LD and ST (their registers in dst
 * and src[1..3] as a vector ld's, the address in src[0] and off),
 * movmatrix of shape A.  The others are of shape MMA: in->off points at
 * their operand list, one of the function's lists:
 *   l[0] the number of registers written, l[1] the number read,
 *   l[2..PTX_OPL_HEAD-1] what the instruction keeps (below),
 *   then the written slots, then the read ones, in the order the
 *   instruction names them.
 * mma and wmma.mma: written d; read a, b, c (l[2], l[3], l[4]: how many
 *   of each).
 * wmma.load: written the fragment; read the address, then the stride (or
 *   none: l[2] = 1 when there is one); l[5], l[6]: the offset (low, high).
 * wmma.store: read the address, the fragment, the stride; as load.
 * wgmma.mma_async: written d; read d, then a (l[2] registers, or one
 *   descriptor), the descriptor of b, scale-d.
 * The fields of the instruction: sbits the architecture (90 for sm_90),
 * bits and rbits the formats of a and b (mma_unit.h), dtype the format
 * of d, aux that of c (or flags), cmp the shape (enum ptx_mma_shape). */
#ifndef UB_PTX_MMA_H
#define UB_PTX_MMA_H

#include "ptx_block.h"
#include "mma_unit.h"

#define PTX_OPL_HEAD 8

static inline const uint32_t *ptx_opl(const struct ptx_insn *in)
{
	return (const uint32_t *)(uintptr_t)in->off;
}

/* The shapes, declared once: X(ID, name, m, n, k). */
#define PTX_MMA_SHAPES(X)                        \
	X(PTX_MS_M16N8K4, "m16n8k4", 16, 8, 4)   \
	X(PTX_MS_M16N8K8, "m16n8k8", 16, 8, 8)   \
	X(PTX_MS_M16N8K16, "m16n8k16", 16, 8, 16) \
	X(PTX_MS_M16N8K32, "m16n8k32", 16, 8, 32) \
	X(PTX_MS_M8N8K4, "m8n8k4", 8, 8, 4)      \
	X(PTX_MS_M16N16K16, "m16n16k16", 16, 16, 16) \
	X(PTX_MS_M32N8K16, "m32n8k16", 32, 8, 16) \
	X(PTX_MS_M8N32K16, "m8n32k16", 8, 32, 16) \
	X(PTX_MS_M16N16K8, "m16n16k8", 16, 16, 8)

enum ptx_mma_shape {
#define X(id, name, m, n, k) id,
	PTX_MMA_SHAPES(X)
#undef X
	PTX_MS_COUNT
};

struct ptx_mma_dims {
	const char *name;
	int m, n, k;
};
extern const struct ptx_mma_dims ptx_mma_dims[PTX_MS_COUNT];

/* wgmma's aux flags. */
enum {
	PTX_WG_AREG = 1,     /* a in registers, not a descriptor */
	PTX_WG_NEGA = 2,     /* imm-scale-a = -1 */
	PTX_WG_NEGB = 4,     /* imm-scale-b = -1 */
	PTX_WG_TRANSA = 8,   /* imm-trans-a = 1: a is M-major */
	PTX_WG_TRANSB = 16   /* imm-trans-b = 1: b is N-major */
};
/* wmma's aux: bit 0 the a (or the loaded) matrix column-major, bit 1 b;
 * its cmp: the shape; its dtype: the state space (enum below). */
enum { PTX_WMMA_GENERIC, PTX_WMMA_GLOBAL, PTX_WMMA_SHARED };

/* Decoding (ptx_insn_mma.c): 1 if the mnemonic t is a tensor-core
 * instruction, which ptx_decode_mma then decodes and emits. */
int ptx_is_mma_insn(const struct ptx_tok *t);
int ptx_decode_mma(struct ptx_pstate *st, struct ptx_insn *in,
		   const struct ptx_tok *mnem, uint32_t line);

/* Bits per element of an operand format, and elements per 32-bit
 * register (f64: one per 64-bit register). */
int ptx_mma_fmt_bits(int fmt);

/* The fragment layouts of mma (PTX ISA 9.7.14.5, "Matrix Fragments for
 * mma.mMnNkK"), for lane l: element j of register r of A, B and C/D at
 * *row, *col (ptx_mma_frag.c).  A row-major, B column-major (.row.col). */
void ptx_mma_frag_a(int shape, int fmt, int l, int r, int j, int *row, int *col);
void ptx_mma_frag_b(int shape, int fmt, int l, int r, int j, int *row, int *col);
void ptx_mma_frag_c(int shape, int fmt, int l, int r, int j, int *row, int *col);

/* The warp runs them (ptx_warp.c calls this for every op above):
 * 0, or UB_RUNTIME with the failure set in b. */
int ptx_warp_mma(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		 uint32_t g, uint32_t act);
int ptx_warp_ldmatrix(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in);
int ptx_warp_mma_sync(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in);
int ptx_warp_wgmma(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in);

/* A .shared (or generic pointing into .shared) address of n bytes aligned
 * to al for lane l of warp wi: the host pointer, or NULL with the failure
 * set (what names the instruction's role, "row 3 of matrix 1"). */
unsigned char *ptx_mma_shared(struct ptx_blk *b, unsigned wi, unsigned l,
			      const struct ptx_insn *in, uint64_t a, uint64_t n,
			      uint64_t al, int generic, const char *what);
/* The simulator's checks (ptx_check.h) of lane l's access of n bytes at
 * host pointer p, in .shared memory or a launch buffer: kind
 * (PTX_CHK_READ, PTX_CHK_WRITE), and for a write the bytes it stores,
 * before they are stored.  0, or UB_RUNTIME with the failure set. */
int ptx_mma_checked(struct ptx_blk *b, unsigned wi, unsigned l, const struct ptx_insn *in,
		    const unsigned char *p, uint64_t n, int kind, const void *bytes);

/* The approx-mask bit of an instruction's model: PTX_AX_MMA when the
 * model is not known for its architecture or a doubt arose. */
void ptx_mma_flag(struct ptx_blk *b, const struct ub_mma_model *m, unsigned doubt);

#endif

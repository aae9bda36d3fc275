/* ptx_mma.h — the warp-level matrix instructions of the interpreter (PTX
 * ISA 9.0, 9.7.14 "Warp Level Matrix Multiply-Accumulate Instructions"):
 * how they are decoded (ptx_insn_mma.c) and run (ptx_ldmatrix.c).
 *
 * ldmatrix and stmatrix are of shape LD and ST (their registers in dst
 * and src[1..3] as a vector ld's, the address in src[0] and off; aux the
 * number of matrices, cmp 1 for .trans, sbits the state space below),
 * movmatrix of shape A. */
#ifndef UB_PTX_MMA_H
#define UB_PTX_MMA_H

#include "ptx_block.h"

/* The state space of a matrix operand. */
enum { PTX_WMMA_GENERIC, PTX_WMMA_GLOBAL, PTX_WMMA_SHARED };

/* Decoding (ptx_insn_mma.c): 1 if the mnemonic t is one of these
 * instructions, which ptx_decode_mma then decodes and emits. */
int ptx_is_mma_insn(const struct ptx_tok *t);
int ptx_decode_mma(struct ptx_pstate *st, struct ptx_insn *in,
		   const struct ptx_tok *mnem, uint32_t line);

/* The warp runs them (ptx_warp.c calls this for every op above):
 * 0, or UB_RUNTIME with the failure set in b. */
int ptx_warp_mma(struct ptx_blk *b, unsigned wi, const struct ptx_insn *in,
		 uint32_t g, uint32_t act);

/* A .shared (or generic pointing into .shared) address of n bytes aligned
 * to al for lane l of warp wi: the host pointer, or NULL with the failure
 * set (what names the instruction's role, "row 3 of matrix 1"). */
unsigned char *ptx_mma_shared(struct ptx_blk *b, unsigned wi, unsigned l,
			      const struct ptx_insn *in, uint64_t a, uint64_t n,
			      uint64_t al, int generic, const char *what);

#endif

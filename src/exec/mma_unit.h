/* mma_unit.h — the arithmetic of NVIDIA's matrix-multiply units (tensor
 * cores): one element of D = A * B + C, as an architecture computes it
 * (docs/tensor-cores.md).  The PTX interpreter's mma, wmma and wgmma run
 * every element of D through ub_mma_dot; so do the ops' torch rows.
 *
 * The model, from Khattak and Mikaitis, "Accurate models of NVIDIA tensor
 * cores" (arXiv:2512.07004, 2025: the block FMA size, the extra alignment
 * bits, the final rounding, per GPU and format; validated bit for bit on
 * 10^5 random vectors each), Fasi, Higham, Mikaitis and Pranesh,
 * "Numerical behavior of NVIDIA tensor cores" (PeerJ CS 7:e330, 2021:
 * exact products, alignment to the largest exponent, truncation, no
 * normalisation inside a block, subnormals kept), and Xie et al.,
 * "MMA-Sim" (arXiv:2511.10909, 2025, the same features per instruction
 * and architecture, and the NaN, infinity and fp8 rules):
 *
 *   the k products of one instruction are taken in blocks of `block`
 *   consecutive products; per block,
 *   1. every product a_i * b_i is exact: its significand sa * sb (in
 *      [0, 4): subnormal inputs keep exponent emin and a significand
 *      below 1) and its exponent ea + eb;
 *   2. c (the accumulator, or the previous block's result) enters with
 *      its own significand and exponent in its format;
 *   3. every term is aligned to the largest exponent E among them and
 *      truncated toward zero to F fraction bits below 2^E: F = 23 + the
 *      architecture's extra alignment bits (sm_70: 0, sm_75 to sm_89: 1,
 *      sm_90 and later: 2; fp8 on sm_89 and in wgmma: 13 in all);
 *   4. the aligned terms are added exactly;
 *   5. the sum is normalised once and rounded to the output: f32 by
 *      truncation (toward zero; 13 fraction bits for fp8 where F is 13,
 *      a value of 2^128 or more is infinite), f16 to nearest even; an
 *      exact zero sum is +0.
 *   A NaN operand, inf * 0 or inf - inf gives the canonical NaN (f32
 *   0x7fffffff, f16 0x7fff); otherwise an infinite operand or product
 *   gives that infinity.  f64 (DMMA): fused multiply-adds in IEEE
 *   arithmetic, k = 0 first, starting from c.
 *
 * What the sources leave open is flagged, never silently assumed (the
 * row then says sim_exact = 0): architectures they did not measure, and
 * per element the cases where the published models disagree (a nonzero
 * sum that underflows to zero: +0 or -0; a product below 2^-133 inside
 * the alignment window; the NaN of an f64 DMMA). */
#ifndef UB_MMA_UNIT_H
#define UB_MMA_UNIT_H

#include <stdint.h>

/* Operand formats: X(ID, name, exponent bits, fraction bits). */
#define UB_MMA_FMTS(X)                 \
	X(UB_MF16, "f16", 5, 10)       \
	X(UB_MBF16, "bf16", 8, 7)      \
	X(UB_MTF32, "tf32", 8, 10)     \
	X(UB_ME4M3, "e4m3", 4, 3)      \
	X(UB_ME5M2, "e5m2", 5, 2)      \
	X(UB_MF32, "f32", 8, 23)       \
	X(UB_MF64, "f64", 11, 52)

enum ub_mma_fmt {
#define X(id, name, e, f) id,
	UB_MMA_FMTS(X)
#undef X
	UB_MMA_NFMTS
};

const char *ub_mma_fmt_name(int fmt);
/* The format named s ("f16", "e4m3", ...), or -1. */
int ub_mma_fmt_find(const char *s);

/* Which instruction feeds the unit: the split of k into blocks and the
 * fp8 accumulator differ between them. */
enum ub_mma_insn { UB_MMA_SYNC, UB_MMA_WMMA, UB_MMA_WGMMA };

/* The unit of one architecture for one instruction and input format. */
struct ub_mma_model {
	int sm;           /* the architecture, 80 for sm_80 */
	int frac;         /* F: fraction bits kept below the largest exponent */
	int block;        /* products per block (the block FMA's size) */
	int out_frac;     /* f32 output: fraction bits kept (23, or 13) */
	int known;        /* 1: the sources give this model for this
			     architecture and format; 0: the nearest known
			     one stands in, and the row is flagged */
	const char *source; /* where it comes from (docs/tensor-cores.md) */
};

/* The model for architecture sm (70, 75, 80, 86, 89, 90, 100, 120, ...),
 * instruction insn, input format in and k products per instruction: 0,
 * or -1 when the unit has no such form (fp8 before sm_89, an input
 * format the unit does not take). */
int ub_mma_model_get(int sm, int insn, int in, int k, struct ub_mma_model *m);

/* Doubts of one element (ub_mma_dot's *doubt): what the sources leave
 * open arose. */
enum {
	UB_MMA_DOUBT_ZERO = 1,     /* a nonzero sum rounded to zero */
	UB_MMA_DOUBT_TINY = 2,     /* a product below 2^-133 inside the window */
	UB_MMA_DOUBT_NAN64 = 4     /* an f64 NaN (its payload) */
};

/* d = a . b + c over k products: a[i], b[i] the encodings of the inputs
 * (formats fa, fb: f16, bf16, tf32 (an f32 encoding whose low 13 bits are
 * ignored), e4m3, e5m2; f64 with f64), c and the result encodings of
 * format fc (f32 or f16; f64).  *doubt |= what arose (UB_MMA_DOUBT_*). */
uint64_t ub_mma_dot(const struct ub_mma_model *m, int fa, int fb,
		    const uint64_t *a, const uint64_t *b, int k, int fc,
		    uint64_t c, unsigned *doubt);

/* The value of encoding v of format fmt as a double (exact for every
 * format here). */
double ub_mma_value(int fmt, uint64_t v);

#endif

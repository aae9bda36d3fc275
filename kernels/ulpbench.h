/* ulpbench.h — the mode macros for kernels tested by ulpbench.
 *
 * Write the arithmetic whose rounding you care about with these macros.
 * In mode `rn` (compiled with -DUB_MODE_RN) they become the CUDA intrinsics
 * __fmul_rn/__fadd_rn/__fsub_rn/__fdiv_rn, which round every operation on
 * its own and are never fused into an FMA, whatever -fmad says; in every
 * other mode they are the plain operators, so the compiler's own choices
 * (contraction, approximate division) are what gets tested. */
#ifndef ULPBENCH_H
#define ULPBENCH_H

#ifdef UB_MODE_RN
#define UB_MUL(a, b) __fmul_rn((a), (b))
#define UB_ADD(a, b) __fadd_rn((a), (b))
#define UB_SUB(a, b) __fsub_rn((a), (b))
#define UB_DIV(a, b) __fdiv_rn((a), (b))
#else
#define UB_MUL(a, b) ((a) * (b))
#define UB_ADD(a, b) ((a) + (b))
#define UB_SUB(a, b) ((a) - (b))
#define UB_DIV(a, b) ((a) / (b))
#endif

#endif

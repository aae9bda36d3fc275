/* ulpbench.h — the mode macros for kernels tested by ulpbench.
 *
 * Write the arithmetic whose rounding you care about with these macros.
 * In mode `rn` (compiled with -DUB_MODE_RN) they become the CUDA intrinsics
 * __fmul_rn/__fadd_rn/__fsub_rn/__fdiv_rn (__dmul_rn... for double, same
 * operand types required), which round every operation on
 * its own and are never fused into an FMA, whatever -fmad says; in every
 * other mode they are the plain operators, so the compiler's own choices
 * (contraction, approximate division) are what gets tested. */
#ifndef ULPBENCH_H
#define ULPBENCH_H

#ifdef UB_MODE_RN
/* float and double overloads; both operands must have the same type */
#define UB_RN_OP(name, f, d)                                                \
	static __device__ __forceinline__ float name(float a, float b)      \
	{ return f(a, b); }                                                 \
	static __device__ __forceinline__ double name(double a, double b)   \
	{ return d(a, b); }
UB_RN_OP(ub_mul_rn, __fmul_rn, __dmul_rn)
UB_RN_OP(ub_add_rn, __fadd_rn, __dadd_rn)
UB_RN_OP(ub_sub_rn, __fsub_rn, __dsub_rn)
UB_RN_OP(ub_div_rn, __fdiv_rn, __ddiv_rn)
#undef UB_RN_OP
#define UB_MUL(a, b) ub_mul_rn((a), (b))
#define UB_ADD(a, b) ub_add_rn((a), (b))
#define UB_SUB(a, b) ub_sub_rn((a), (b))
#define UB_DIV(a, b) ub_div_rn((a), (b))
#else
#define UB_MUL(a, b) ((a) * (b))
#define UB_ADD(a, b) ((a) + (b))
#define UB_SUB(a, b) ((a) - (b))
#define UB_DIV(a, b) ((a) / (b))
#endif

#endif

/* codegen.h — CUDA C for the torch plan (one elementwise kernel per step)
 * and for kernels under test generated from an op's math. */
#ifndef UB_CODEGEN_H
#define UB_CODEGEN_H

#include "catalog.h"

/* Entry name of every generated step kernel. */
#define UB_STEP_ENTRY "ub_torch_step"
/* Elements each thread of a step kernel computes, consecutive ones (as
 * PyTorch's vectorized elementwise kernels do four): a step is launched
 * with UB_BLOCK * UB_STEP_PER_THREAD elements a block.  The elements are
 * independent, so this changes no result, only the cost of a thread's
 * setup on the interpreter. */
#define UB_STEP_PER_THREAD 4
/* That launch, a struct ub_geom initializer (sim.h, where UB_BLOCK is):
 * what runs the steps and what the torch row's launch column says. */
#define UB_STEP_GEOM { .per_block = (unsigned long long)UB_BLOCK * UB_STEP_PER_THREAD }

/* Writes (malloc'd *src) the kernel of step k of op's torch plan for dtype
 * dt.  Parameters: one array per environment variable (the op's inputs,
 * then steps 0..k-1), then out, then n (long long).  The step loads each
 * operand into opmath (float; double for f64), evaluates its expression
 * there, and rounds once to dt on the store, as PyTorch's elementwise
 * kernels do; with :torch-rounding every-op, f16/bf16 round every
 * operator's result (c10::Half arithmetic).  Constants are
 * (float)strtod(literal), as PyTorch converts host doubles (every-op:
 * rounded to dt). */
int ub_codegen_step(const struct ub_op *op, int k, enum ub_dtype dt,
		    char **src, struct ub_error *err);

/* Entry name of a generated kernel under test. */
#define UB_KERNEL_ENTRY "ub_kernel"

/* The kernel under test of an op without :kernel, generated from its math:
 * parameters are the op's inputs, then out, then n; + - * / are written
 * with ulpbench.h's UB_ macros (so mode rn applies), functions as the CUDA
 * math library's (expf, ...); computed in float (double for f64), rounded
 * once to dt on the store.  :kernel-expr, when given, replaces the math.
 * For f16/bf16 the source also holds, under #ifdef UB_NATIVE16 (mode
 * native16), the same kernel computed in the 16-bit type itself. */
int ub_codegen_kernel(const struct ub_op *op, enum ub_dtype dt, char **src,
		      struct ub_error *err);

/* d rounded once to dtype dt (nearest even, subnormals, overflow to inf),
 * as its encoding; NaN gives the canonical quiet NaN.  How constants
 * (computed in double) become kernel operands. */
uint64_t ub_codegen_round(enum ub_dtype dt, double d);

#endif

/* prepare.h — the op as one dtype of a run sees it.
 *
 * :params are read as the dtype's opmath holds them, the value PyTorch
 * computes with (a Python float becomes a float for f32, f16 and bf16 and
 * stays a double for f64): the op's text is read again with each param
 * rounded so, and that one value is what the reference, the torch plan,
 * the generated kernel and a kernel's scalar parameter bound to it see.
 * When the run's kernel takes a :saved input, the saved inputs are inputs
 * of the run (after the sampled ones), computed per element as the
 * forward expression correctly rounded to the dtype; the math is then
 * :saved-math, the exact function of the inputs the kernel gets, and the
 * torch plan takes them in place of its own steps of those names.  A
 * dtype the op's :kernel file is not written for runs the kernel
 * generated from the math. */
#ifndef UB_PREPARE_H
#define UB_PREPARE_H

#include "result.h"

/* op (the run's, as set up) for dtype dt into *out, reading anything new
 * into *held (free it with ub_op_free after the last use of *out; it is
 * empty when op needs nothing new). */
int ub_op_for_dtype(const struct ub_op *op, enum ub_dtype dt, struct ub_op *out,
		    struct ub_op *held, struct ub_error *err);

/* The saved inputs of op (in[op->nsampled .. op->ninputs-1]) from the
 * sampled ones, n elements each (those whose data is NULL are allocated;
 * the others are written); fast: the reference's fast path may decide. */
int ub_saved_fill(const struct ub_op *op, enum ub_dtype dt, struct ub_array *in,
		  size_t n, int fast, struct ub_error *err);

#endif

/* written.h — output elements a kernel never wrote are an error, never
 * compared: the output array is filled with a sentinel before the launch
 * and checked after it.
 *
 * The sentinel is a NaN with a payload no arithmetic gives (GPUs and the
 * sim return the canonical NaN): an element still holding it was most
 * likely not written, but a kernel may copy such a value from an input.
 * So a launch that leaves any is run once more over a second sentinel, and
 * only an element that holds the first sentinel after the first launch
 * and the second after the second is unwritten.  (An output the kernel
 * accumulates into starts at +0: the simulator tracks its writes.) */
#ifndef UB_WRITTEN_H
#define UB_WRITTEN_H

#include "sim.h"

/* Runs run(ctx) (a launch that writes out) as above; *first gets the
 * index of the first element left unwritten and *count how many, or
 * SIZE_MAX and 0.  Returns run's status, or UB_RUNTIME out of memory.
 * An output bound with :acc (acc 1) starts at +0 instead, may be read,
 * and the run tracks its writes: one launch, whose chk (which run fills)
 * says which elements it never wrote. */
int ub_run_written(struct ub_array *out, int acc, const struct ub_checks *chk,
		   int (*run)(void *ctx, struct ub_error *err),
		   void *ctx, size_t *first, size_t *count, struct ub_error *err);

/* What a kernel that accumulates into an output starting at +0 does to
 * each value v it adds: 0 + v, which is v but for -0, which becomes +0
 * in round to nearest (IEEE 754, 6.3).  The reference and the torch plan
 * of such a kernel's op take the same step: a (its correctly rounded
 * results or the plan's) and exact (NULL: none) in place. */
void ub_acc_step(struct ub_array *a, struct ub_exact *exact);
/* Whether op's kernel (a --kernel file) binds its output with :acc. */
struct ub_op;
int ub_op_acc(const struct ub_op *op);

/* "output element 99998 of 100003 (the first of 5) was never written:
 * ..." into err, as UB_RUNTIME, with the launch that left it and the
 * options that set another (--launch; --grid and --constexpr for a
 * --triton kernel). */
int ub_unwritten_fail(struct ub_error *err, size_t first, size_t count, size_t n,
		      const struct ub_geom *geom, int triton);

#endif

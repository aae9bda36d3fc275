/* launcher.h — `--launcher NAME`: a host function of the user's file that
 * launches kernels (<<<...>>>, cudaLaunchKernel), copies and sets device
 * memory (cudaMemcpy between device buffers, cudaMemsetAsync), allocates
 * scratch (cudaMalloc) and uses streams, run as one op on the sim.
 *
 * The file is compiled twice by nvcc (nvcc.h): its device code per mode
 * to PTX, as a --kernel file is, with kernels/ulpbench_launcher.h's probe
 * of the launcher's parameter types; and its host code once, as a shared
 * object linked against no CUDA runtime, which ulpbench loads (dlopen) so
 * that the CUDA runtime calls it makes resolve to the stand-in of
 * launcher_rt.c: launches run on the interpreter, in order, one at a time
 * (every stream is the default stream), memory is host memory, every
 * access checked against the run's arrays and the live allocations. */
#ifndef UB_LAUNCHER_H
#define UB_LAUNCHER_H

#include "kernel_find.h"
#include "sim.h"

/* Finds host function name in the file of unit u (src its text): its
 * parameters' names from the source, their types from the compiler (the
 * probe), into k (entry empty; k->unit: what every mode compiles to PTX,
 * the file and the probe).  Errors as ub_kernel_find's. */
int ub_launcher_find(const struct ub_nvcc_unit *u, const char *src, const char *name,
		     const char *arch, struct ub_kfound *k, struct ub_error *err);

/* The launcher's host code, built and loaded. */
struct ub_launcher;

/* Builds u's file's host code with ULPBENCH_LAUNCHER(name) and loads it.
 * Errors: UB_COMPILE (nvcc), UB_USAGE (the host code calls a CUDA runtime
 * function the stand-in does not provide: named). */
int ub_launcher_load(const struct ub_nvcc_unit *u, const char *name,
		     struct ub_launcher **l, struct ub_error *err);
void ub_launcher_free(struct ub_launcher *l);

/* One call of the launcher: its parameters args (arrays: the pointer to
 * their data; values: their bits), its kernels from ptx (the mode's),
 * run on the interpreter as geom says of atomics; every launch checked
 * against the arrays of args and the allocations made meanwhile (freed at
 * the end).  *approx gets the approximate instructions executed.  Errors:
 * the first failure of a launch, copy or allocation (UB_RUNTIME, naming
 * the kernel and what it did), or UB_USAGE for what the stand-in does
 * not run (a grid of more than one dimension, ...). */
int ub_launcher_call(struct ub_launcher *l, const char *ptx, const struct ub_karg *args,
		     int nargs, const struct ub_geom *geom, uint64_t *approx,
		     struct ub_error *err);

#endif

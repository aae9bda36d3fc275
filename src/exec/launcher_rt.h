/* launcher_rt.h — the CUDA runtime stand-in a --launcher's host code runs
 * against (launcher.h): its kernels' launches on the interpreter, its
 * device memory on the host.  The runtime's own functions (cudaMalloc,
 * cudaMemcpy, __cudaRegisterFunction, __cudaLaunchKernel, ...) are
 * exported by the ulpbench binary (linked -rdynamic, as native code needs
 * too), and resolve the host code's references when it is loaded. */
#ifndef UB_LAUNCHER_RT_H
#define UB_LAUNCHER_RT_H

#include "sim.h"

/* Calls call(a) (the launcher's trampoline, ulpbench_launcher.h) with a[i]
 * the storage of args[i]'s value (an array's data pointer, a value's
 * bits), its launches taking their kernels from ptx; see
 * ub_launcher_call. */
int ub_lrt_call(int (*call)(void **a), const char *name, const char *ptx,
		const struct ub_karg *args, int nargs, const struct ub_geom *geom,
		uint64_t *approx, struct ub_error *err);

#endif

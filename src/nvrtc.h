/* nvrtc.h — CUDA C source to PTX with NVRTC (no GPU or driver needed). */
#ifndef UB_NVRTC_H
#define UB_NVRTC_H

#include "ub.h"

/* Compiles src (named `name` in messages) for virtual architecture arch
 * (e.g. "compute_90") with the space-separated extra options `opts`, the
 * kernels/ directory and the CUDA include directory on the include path.
 * *ptx is malloc'd.  Errors: UB_COMPILE with the first lines of NVRTC's
 * log ("atan_bwd.cu(12): error: ..."), the whole log in *log if non-NULL.
 * The same source, options and architecture compile once per process
 * (a cache of the last 64 results; not when a log is asked for). */
int ub_nvrtc_compile(const char *src, const char *name, const char *opts,
		     const char *arch, char **ptx, char **log,
		     struct ub_error *err);

/* "13.0" */
const char *ub_nvrtc_version(void);

#endif

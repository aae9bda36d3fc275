/* nvrtc.h — CUDA C source to PTX or CUBIN with NVRTC (no GPU or driver
 * needed). */
#ifndef UB_NVRTC_H
#define UB_NVRTC_H

#include "ub.h"

/* Compiles src (named `name` in messages) for virtual architecture arch
 * (e.g. "compute_90") with the space-separated extra options `opts`, the
 * kernels/ directory and the CUDA include directory on the include path.
 * *ptx is malloc'd.  Errors: UB_COMPILE with the first lines of NVRTC's
 * log ("atan_bwd.cu(12): error: ..."), the whole log in *log if non-NULL. */
int ub_nvrtc_compile(const char *src, const char *name, const char *opts,
		     const char *arch, char **ptx, char **log,
		     struct ub_error *err);

/* The same, to a CUBIN (machine code) for a real architecture arch
 * ("sm_90"), for the cuda backend; *cubin is malloc'd, *size bytes. */
int ub_nvrtc_compile_cubin(const char *src, const char *name, const char *opts,
			   const char *arch, void **cubin, size_t *size,
			   struct ub_error *err);

/* The newest architecture NVRTC can compile for that is not newer than sm
 * (e.g. 90 for 90; 121 for a future 130); 0 if none. */
int ub_nvrtc_best_arch(int sm);

/* The architectures NVRTC compiles for (75, 80, ..., 120) into archs,
 * in increasing order; how many (at most max; 0 if NVRTC cannot say). */
int ub_nvrtc_archs(int *archs, int max);

/* "13.0" */
const char *ub_nvrtc_version(void);

/* The same with the NVRTC of toolkit tk (toolkit.h); the functions above
 * use the default toolkit's.  tk's identity is in every cache key. */
struct ub_toolkit;
int ub_nvrtc_compile_tk(const struct ub_toolkit *tk, const char *src,
			const char *name, const char *opts, const char *arch,
			char **ptx, char **log, struct ub_error *err);
int ub_nvrtc_compile_cubin_tk(const struct ub_toolkit *tk, const char *src,
			      const char *name, const char *opts, const char *arch,
			      void **cubin, size_t *size, struct ub_error *err);
int ub_nvrtc_archs_tk(const struct ub_toolkit *tk, int *archs, int max);
/* src with tk's NVRTC, uncached, expr (NULL: none) added as a name expression (it
 * instantiates the template kernel it names): PTX (cubin 0; *size 0) or
 * a CUBIN (*size bytes) into *out, the entry expr names (its mangled
 * name) into lowered. */
int ub_nvrtc_compile_expr(const struct ub_toolkit *tk, const char *src,
			  const char *name, const char *opts, const char *arch,
			  int cubin, const char *expr, char *lowered, size_t lowlen,
			  char **out, size_t *size, struct ub_error *err);
const char *ub_nvrtc_version_tk(const struct ub_toolkit *tk);

/* The first `max` lines of a compiler's log, joined with "; ", into out:
 * only its error lines when it has any (NVRTC and nvcc follow each with
 * the source line and a caret line). */
void ub_compile_log_head(const char *log, char *out, size_t len, int max);

#endif

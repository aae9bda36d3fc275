/* nvcc.h — a --kernel file compiled as the user builds it: with the CUDA
 * toolkit's nvcc (nvcc -ptx; the toolkit NVRTC comes from, toolkit.h),
 * which takes a whole translation unit (host code, main, the toolkit's
 * and the C library's headers, M_PI, the file's own headers) where NVRTC
 * takes device code only.
 *
 * A unit is a translation unit (its text, compiled from a temporary file)
 * that #includes the user's file by its absolute path, so that the file's
 * own "" includes resolve beside it, as they do when nvcc compiles it;
 * messages name the file as the user gave it.  Mode options (modes.h) are
 * nvcc's own spellings; -I and -D go through as given.  The PTX is cached
 * (nvrtc_cache.h) under the unit's text, options, architecture and nvcc's
 * version, and checked on every use against the contents of every file
 * the compilation read (nvcc -MD): editing an included header compiles
 * again. */
#ifndef UB_NVCC_H
#define UB_NVCC_H

#include "ub.h"

#define UB_NVCC_MAX_FLAGS 32

/* The file name a unit's own lines take (#line), so that nvcc's messages
 * about them name what they are; no file of that name is read, and the
 * dependency list's mention of it is no dependency. */
#define UB_NVCC_UNIT_LINES "(the kernel --entry names)"

struct ub_nvcc_unit {
	const char *text;      /* the translation unit's source text */
	const char *file;      /* the user's file, as given (messages) */
	const char *abspath;   /* its absolute path (text #includes it) */
	int nflags;            /* -I DIR and -D NAME[=VALUE], in order: */
	const char *flags[UB_NVCC_MAX_FLAGS]; /* "-IDIR", "-DNAME=V" (not
				  owned) */
	/* the option strings of the modes a run compiles (NULL-ended; NULL:
	 * none): the kernel's probe compiles them side by side with its own
	 * (ub_nvcc_warm); and who hears of each compile done (NULL: none) */
	const char *const *warm;
	void (*progress)(void *ctx, int done, int total, size_t n, const char *what);
	void *progress_ctx;
};

/* cubin's value for a shared object of u's host code (device code for
 * arch embedded), linked against no CUDA runtime: a --launcher's (the
 * runtime is ulpbench's stand-in, launcher.h); not cached. */
#define UB_NVCC_SHARED 2

/* Compiles u with the mode's options opts (space-separated) for arch
 * (compute_NN: PTX, *size 0; sm_NN with cubin set: a CUBIN of *size
 * bytes; UB_NVCC_SHARED: a shared object of *size bytes) into *out
 * (malloc'd; NUL-terminated PTX).  Errors: UB_COMPILE
 * "FILE: compile failed (OPTS): " and nvcc's first error lines, naming
 * the file as given; UB_COMPILE when nvcc cannot be run, saying where it
 * was looked for. */
int ub_nvcc_compile(const struct ub_nvcc_unit *u, const char *opts,
		    const char *arch, int cubin, char **out, size_t *size,
		    struct ub_error *err);

/* Compiles u under opts[0..n-1] side by side, as many at a time as there
 * are CPUs, opts[0] first, into the compile cache, where ub_nvcc_compile
 * then finds them; when opts[0] fails, the compiles not yet started are
 * not.  Failures are left to each one's own ub_nvcc_compile, which says
 * them.  u->progress hears of each one done. */
void ub_nvcc_warm(const struct ub_nvcc_unit *u, const char *const *opts, int n,
		  const char *arch);

/* The nvcc that compiles --kernel files: $ULPBENCH_NVCC, else the default
 * toolkit's bin/nvcc (toolkit.h). */
const char *ub_nvcc_path(void);

/* nvcc's version line ("release 13.0, V13.0.88"), or NULL with err set
 * when nvcc cannot be run. */
const char *ub_nvcc_version(struct ub_error *err);

/* The same with the nvcc of toolkit tk (toolkit.h; ULPBENCH_NVCC is the
 * default toolkit's only); the functions above use the default
 * toolkit's.  The cache key holds tk's identity.  ub_nvcc_has: whether tk
 * has an nvcc (the 11.x and 12.x wheels have none): a unit compiled with
 * a toolkit without one goes through its NVRTC instead, the file's host
 * code set aside (host_aside.h), uncached. */
struct ub_toolkit;
int ub_nvcc_compile_tk(const struct ub_toolkit *tk, const struct ub_nvcc_unit *u,
		       const char *opts, const char *arch, int cubin, char **out,
		       size_t *size, struct ub_error *err);
const char *ub_nvcc_path_tk(const struct ub_toolkit *tk);
const char *ub_nvcc_version_tk(const struct ub_toolkit *tk, struct ub_error *err);
int ub_nvcc_has(const struct ub_toolkit *tk);

#endif

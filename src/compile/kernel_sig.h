/* kernel_sig.h — what ulpbench reads from a user's CUDA source: the
 * parameter list of a __global__ kernel, and whether the source uses
 * ulpbench.h's mode macros.
 *
 * PTX keeps no parameter names for extern "C" kernels (they become
 * ENTRY_param_0, ...), so `--args in=x,...` is resolved against the C
 * declaration.  The reader is a small tokenizer, not a C++ parser: it
 * skips comments, string and character literals and preprocessor lines,
 * finds `__global__` declarations (`__launch_bounds__(...)` and
 * `extern "C"`, alone or as a block, understood), and reads each
 * parameter's type words, `*`, `const`, `__restrict__` and name. */
#ifndef UB_KERNEL_SIG_H
#define UB_KERNEL_SIG_H

#include "ub.h"

#define UB_KSIG_MAX_PARAMS 32

enum ub_kparam_kind {
	UB_KP_ARRAY, /* a pointer (or T name[]) to one element type */
	UB_KP_INT,   /* an integer passed by value: the element count */
	UB_KP_OTHER  /* anything else: float scalars, structs, T**, T& */
};

struct ub_kparam {
	char name[64];
	char type[96];    /* the type as written, e.g. "const float *" */
	enum ub_kparam_kind kind;
	int dtype;        /* ARRAY: element dtype (enum ub_dtype), -1 if the
			     element is not float/double/__half/__nv_bfloat16 */
	int is_const;     /* ARRAY: the elements are const */
	int bits;         /* INT: width (32 or 64) */
};

struct ub_ksig {
	char entry[128];
	int line;         /* line of the kernel's name */
	int extern_c;     /* declared with C linkage */
	int nparams;
	struct ub_kparam params[UB_KSIG_MAX_PARAMS];
};

/* Finds kernel `entry` in src (NULL: the file's only __global__ kernel)
 * and reads its parameters; a definition wins over a prototype.  Errors:
 * UB_USAGE "FILE:LINE: ..." (no such kernel, listing the ones there;
 * several when entry is NULL; an unnamed parameter; a template). */
int ub_ksig_find(const char *src, const char *file, const char *entry,
		 struct ub_ksig *sig, struct ub_error *err);

/* Whether src #includes "ulpbench.h" and uses one of its UB_MUL, UB_ADD,
 * UB_SUB, UB_DIV macros: then mode rn means something for it. */
int ub_ksig_uses_macros(const char *src);

#endif

/* kernel_sig.h — what ulpbench reads from a user's CUDA source text: the
 * names of a __global__ kernel's parameters, and whether the source uses
 * ulpbench.h's mode macros.
 *
 * PTX keeps no parameter names (they become ENTRY_param_0, ...), so
 * `--args in=x,...` is resolved against the declaration in the source.
 * Only the names come from the text: the parameters' types come from the
 * compiler (kernel_find.h), which resolves typedefs, templates and
 * aliases exactly.  The reader is a small tokenizer, not a C++ parser: it
 * skips comments, string and character literals and preprocessor lines,
 * finds `__global__` declarations (`template <...>`, `__launch_bounds__
 * (...)` and `extern "C"`, alone or as a block, understood), and reads
 * each parameter's name (its last identifier) and its type as written. */
#ifndef UB_KERNEL_SIG_H
#define UB_KERNEL_SIG_H

#include "ub.h"

#define UB_KSIG_MAX_PARAMS 32
#define UB_KSIG_MAX_DECLS 64   /* declarations read from one file */

struct ub_kdecl_param {
	char name[64];    /* "" when the declaration gives none */
	char type[96];    /* as written, e.g. "const float*", "scalar_t*" */
};

/* One __global__ declaration (a prototype or a definition). */
struct ub_kdecl {
	char name[128];   /* as written (no namespace, no template args) */
	int line;         /* line of the name */
	int extern_c;     /* declared with C linkage */
	int is_template;
	int has_body;
	int nparams;
	int unnamed;      /* 1 + the first parameter without a name; 0: none */
	struct ub_kdecl_param params[UB_KSIG_MAX_PARAMS];
};

/* Every __global__ declaration of src, in order, into out (room for max;
 * *n of them).  Errors: UB_USAGE "FILE: ..." (a kernel of more than
 * UB_KSIG_MAX_PARAMS parameters). */
int ub_ksig_scan(const char *src, const char *file, struct ub_kdecl *out,
		 int max, int *n, struct ub_error *err);

/* The definition of host function `name` (a --launcher) at file scope
 * of src, its parameters' names and types as written, into *d.  Errors:
 * UB_USAGE "FILE: no host function ..." */
int ub_ksig_find_function(const char *src, const char *file, const char *name,
			  struct ub_kdecl *d, struct ub_error *err);

/* Whether src #includes "ulpbench.h" and uses one of its UB_MUL, UB_ADD,
 * UB_SUB, UB_DIV macros: then mode rn means something for it. */
int ub_ksig_uses_macros(const char *src);
/* Whether src names the macro name: as an identifier, or as a word of a
 * preprocessor line (#ifdef UB_NATIVE16). */
int ub_ksig_mentions(const char *src, const char *name);

#endif

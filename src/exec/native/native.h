/* native.h — native execution of PTX: every kernel of a decoded module
 * translated to C (native_gen.c), compiled with the host C compiler
 * ulpbench was built with into a shared object, cached beside the PTX
 * cache and loaded (native_cc.c); the interpreter's launch then runs the
 * translation instead of interpreting (ptx_native.h), with the same
 * results, the same checked memory and the same instruction budget.  A
 * kernel that cannot be translated, or a module whose code cannot be
 * built or loaded, runs on the interpreter. */
#ifndef UB_NATIVE_H
#define UB_NATIVE_H

#include <stdio.h>

#include "ptx_internal.h"

/* How kernels run, declared once: X(ID, --exec name, help). */
#define UB_EXECS(X)                                                          \
	X(UB_EXEC_NATIVE, "native", "translated to C and compiled (the default; " \
	  "the interpreter when that is not possible)")                       \
	X(UB_EXEC_INTERP, "interp", "the PTX interpreter")

enum ub_exec {
	UB_EXEC_DEFAULT,   /* as $ULPBENCH_EXEC says (native or interp), else native */
#define X(id, name, help) id,
	UB_EXECS(X)
#undef X
	UB_NEXECS
};

/* The --exec value name into *exec; -1 when it is not one. */
int ub_exec_parse(const char *name, int *exec);
/* "native, interp" */
const char *ub_exec_names(void);
/* exec, or for UB_EXEC_DEFAULT what $ULPBENCH_EXEC names, else native. */
int ub_exec_resolve(int exec);

/* Translates m's kernels, compiles (or finds in the cache) and loads the
 * code, and attaches it to m (m->native), so that ptx_run runs them
 * natively.  0 when attached, or when no kernel of m can be translated
 * (nothing to attach); else UB_RUNTIME with why in err ("no C compiler
 * 'cc'", "cc failed: ..."), m unchanged: the interpreter runs it. */
int ub_native_attach(struct ptx_module *m, struct ub_error *err);

/* ub_native_attach when exec resolves to UB_EXEC_NATIVE, with the first failure of
 * the process told in one line to ub_native_notices' stream: "ulpbench:
 * native code unavailable (WHY): running on the interpreter". */
void ub_native_use(struct ptx_module *m, int exec);

/* ub_native_use of the n modules ms (NULL entries skipped), up to threads
 * of them at once: building a kernel's code is a C compiler's run of
 * 0.3-0.4 s, a module's own; a run's modes and torch steps are built side
 * by side.  Two modules with the same code may both build it (each loads
 * the bytes it built or found). */
void ub_native_use_all(struct ptx_module **ms, int n, int exec, int threads);

/* Where the notice goes (NULL, the default: nowhere). */
void ub_native_notices(FILE *f);

/* Whether f can be translated (native_gen.c). */
int ub_native_eligible(const struct ptx_func *f);

/* The C unit of m's translatable kernels (malloc'd) into *out, which[k]
 * set for each function translated; *out NULL when none is.  0, or
 * UB_RUNTIME when out of memory. */
int ub_native_translate(const struct ptx_module *m, char **out,
			unsigned char *which);

/* native_rt.h with the headers it includes (native_prelude.c, generated). */
extern const char ub_native_prelude[];
/* The digest of the library's sources under src/exec and src/util, of
 * config.h and embed.awk (native_prelude.c, made with it): they make the
 * parse of PTX and its translation, so any change of either is a new
 * digest. */
extern const char ub_native_sources[];

#endif

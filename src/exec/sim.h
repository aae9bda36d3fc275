/* sim.h — the sim backend: run a kernel's PTX on the interpreter over
 * ulpbench arrays. */
#ifndef UB_SIM_H
#define UB_SIM_H

#include "ptx.h"

/* Launch geometry shared by every backend: 256 threads a block and one
 * thread per element (ceil(n/256) blocks, up to CUDA's grid limit), so
 * grid-stride kernels and one-thread-per-element kernels both work. */
#define UB_BLOCK 256
#define UB_MAX_GRID 2147483647u

/* One kernel parameter: an array (read-only or written) or a scalar. */
struct ub_karg {
	const struct ub_array *arr; /* NULL: scalar `value` */
	int writable;
	uint64_t value;
	const char *name;           /* the array's name in the op ("x"), for
				       messages; NULL: none */
};

/* Parses ptx, checks that `entry` exists and takes nargs parameters, and
 * runs it over n elements on the interpreter.  Errors: UB_RUNTIME naming
 * the entry. */
int ub_sim_run(const char *ptx, const char *entry, const struct ub_karg *args,
	       int nargs, size_t n, struct ptx_run_info *info,
	       struct ub_error *err);

/* The same, telling trace (NULL: nobody) of every floating-point
 * instruction executed (ptx.h: struct ptx_trace), for explain. */
int ub_sim_run_traced(const char *ptx, const char *entry,
		      const struct ub_karg *args, int nargs, size_t n,
		      const struct ptx_trace *trace, struct ptx_run_info *info,
		      struct ub_error *err);

/* The same, untraced runs as exec says (enum ub_exec, native.h: native
 * code when it can be built, else the interpreter). */
int ub_sim_run_exec(const char *ptx, const char *entry,
		    const struct ub_karg *args, int nargs, size_t n,
		    const struct ptx_trace *trace, int exec,
		    struct ptx_run_info *info, struct ub_error *err);

/* The same on a module parsed once (ptx_parse) and run many times, by
 * several threads at once (the module is only read). */
int ub_sim_run_module(const struct ptx_module *m, const char *entry,
		      const struct ub_karg *args, int nargs, size_t n,
		      struct ptx_run_info *info, struct ub_error *err);

#endif

/* kernel_find.h — which kernel of a --kernel file runs, and its parameter
 * types, as the compiler sees them.
 *
 *   1. The file is compiled as it is (nvcc.h); the PTX lists its kernels
 *      (.entry), C++ ones by their mangled names, which the toolchain's
 *      demangler (cu++filt, else binutils' c++filt) turns back into
 *      source names: scale<float>(float*, float const*, int).
 *   2. --entry picks one: a C name or a C++ name (namespace-qualified or
 *      not) when one kernel has it, a template instance
 *      ('scale<__nv_bfloat16>', instantiated for the run if the file does
 *      not), an overload by its parameter types ('scale(float*, const
 *      float*, int)'), or the mangled name.  Without --entry the file must
 *      hold one kernel.
 *   3. The unit that every mode compiles is the file followed by
 *      kernels/ulpbench_probe.h and ULPBENCH_PROBE((the kernel)), in
 *      parentheses so that a template of several arguments is one
 *      argument of the macro: its PTX
 *      names the kernel's entry and holds a code per parameter type
 *      (ulpbench_probe.h), read back here. */
#ifndef UB_KERNEL_FIND_H
#define UB_KERNEL_FIND_H

#include "kernel_sig.h"
#include "nvcc.h"

/* A parameter's type, from the probe's code. */
enum ub_kp_kind {
	UB_KP_ARRAY,  /* a pointer to float, double, __half or __nv_bfloat16
			 (or a one-member struct of one) */
	UB_KP_IARRAY, /* a pointer to integers (class indices), any width */
	UB_KP_INT,    /* an integer value, any width, signed or not */
	UB_KP_FLOAT,  /* a float, double, __half or __nv_bfloat16 value */
	UB_KP_BOOL,   /* a bool value */
	UB_KP_OTHER   /* anything else: structs by value, T**, pointers to
			 integers, ... */
};

struct ub_kparam {
	char name[64];     /* from the source text */
	char type[96];     /* as written there */
	enum ub_kp_kind kind;
	int dtype;         /* ARRAY, FLOAT: enum ub_dtype */
	int is_const;      /* ARRAY: const elements */
	int wrapped;       /* ARRAY: elements are a one-member struct */
	int bits;          /* INT, FLOAT, BOOL, IARRAY: width of the value */
	int is_signed;     /* INT, IARRAY */
	unsigned size;     /* sizeof the value, or of the pointee, bytes */
	uint64_t code;     /* the probe's code (ulpbench_probe.h) */
};

struct ub_kfound {
	char entry[1024];  /* the .entry to run (mangled for C++) */
	char shown[1024];  /* what messages call it: scale<float>(float*, ...) */
	char expr[1400];   /* the C++ expression that names it */
	char base[128];    /* its name alone (no namespace, no template) */
	char types[1024];  /* its parameter types as the demangler writes
			      them ("" for a C kernel) */
	int extern_c;
	int line;          /* of its declaration in the file */
	int nparams;
	struct ub_kparam params[UB_KSIG_MAX_PARAMS];
	char *unit;        /* the translation unit every mode compiles */
};

/* A kernel of a --kernel file as its PTX names it: the mangled name, the
 * demangled one, its name alone and its parameter types as the demangler
 * writes them ("float const*, float*, int"). */
struct ub_kinst {
	char mangled[1024], shown[1024], base[128], params[1024];
};

/* The kernels of u->file (compiled as it is, for arch) into out (room for
 * max; *n of them).  Errors: UB_COMPILE. */
int ub_kernel_instances(const struct ub_nvcc_unit *u, const char *arch,
			struct ub_kinst *out, int max, int *n, struct ub_error *err);

/* Finds the kernel `entry` (NULL: the only one) of u->file (u->abspath;
 * u->flags apply; src is the file's text) and its parameters, compiling
 * for arch.  Errors: UB_COMPILE (the file does not compile), UB_USAGE
 * "FILE: ..." (no such kernel, listing those there; several; a template
 * without its instance; parameters without names in the source). */
int ub_kernel_find(const struct ub_nvcc_unit *u, const char *src,
		   const char *entry, const char *arch, struct ub_kfound *k,
		   struct ub_error *err);
void ub_kfound_free(struct ub_kfound *k);

/* The value of ptx's `.global ... NAME = VALUE;` or NAME[N] = {...} into
 * vals (room for max; the bytes of a .b8 array assembled little-endian
 * into 64-bit values), or (sym not NULL) the text of a symbol initializer
 * into sym; -1 when there is none. */
int ub_ptx_read_var(const char *ptx, const char *name, uint64_t *vals, int max,
		    char *sym, size_t symlen);
/* A parameter from a probe's code (ulpbench_probe.h). */
void ub_kparam_decode(uint64_t c, struct ub_kparam *p);

/* The names of k's parameters (and their types as written) from its
 * declaration among d (the file's, nd of them), or in a header the file
 * #includes with "" (kernel_names.c); k->line.  Errors: UB_USAGE. */
int ub_kernel_names(const struct ub_kdecl *d, int nd,
		    const struct ub_nvcc_unit *u, struct ub_kfound *k,
		    struct ub_error *err);

#endif

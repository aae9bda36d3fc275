/* user_kernel.h — testing the user's own kernel file against an op:
 *
 *   ulpbench --op atan_bwd --kernel my.cu --entry atan_backward \
 *            --args 'in=x,dout=g,din=out,N=n,alpha=0.5'
 *
 * The file is compiled as nvcc compiles it (nvcc.h), its kernel found and
 * its parameter types read from the compiler (kernel_find.h), their names
 * from the source.  Each parameter is bound by --args, or by its own name
 * when that is a name it may take: an array to an input of the op or to
 * `out` (the result array), an integer to `n` (the element count) or a
 * number, a float or bool to a number or one of the op's :params. */
#ifndef UB_USER_KERNEL_H
#define UB_USER_KERNEL_H

#include "kernel_find.h"
#include "result.h"

/* What the command line (or a suite's run line) asks for. */
struct ub_kernel_req {
	const char *file, *entry, *args;  /* --kernel, --entry, --args */
	const char *launcher;             /* --launcher NAME, or NULL */
	int nflags;                       /* -I DIR, -D NAME[=VALUE] as */
	const char *flags[UB_NVCC_MAX_FLAGS]; /* "-IDIR", "-DNAME=VALUE" */
	const char *python;               /* --python: whose torch gives a
					     PyTorch extension's flags
					     (torch_ext.h); NULL: the default */
};

struct ub_kernel_dtypes;
struct ub_user_kernel {
	char *src;        /* the file's text */
	char *file, *abspath;
	struct ub_nvcc_unit *unit; /* what every mode compiles (its flags
				      are copies, owned here) */
	struct ub_kfound *kf;      /* its kernel (both on the heap: op and
				      cfg point into them, and a suite's
				      entries move) */
	int nargs;
	char **args;      /* per parameter: an input name, "out", "out:acc",
			     "n", or a value "=0xBITS" (catalog.h's :args) */
	char **pnames;    /* per parameter: its name (in kf) */
	int use_saved;    /* it takes a :saved input (catalog.h) */
	struct ub_triton *triton; /* --triton's kernel instead (triton.h), or
				     NULL; freed with the rest */
	struct ub_launcher *launcher; /* --launcher's host code, loaded
				     (launcher.h), or NULL */
	int is_launcher;  /* kf is a --launcher's, not a kernel's */
	struct ub_kernel_dtypes *dtypes; /* a run of several dtypes: each
				     one's kernel (kernel_dtypes.c), or NULL */
};

/* Reads req->file, finds its kernel req->entry (NULL: the only one),
 * binds its parameters by req->args ("PARAM=NAME,...", NULL for none) to
 * op's inputs, out, n, values and :params, and checks that the kernel's
 * arrays are of the dtype(s) cfg asks for.  Then points op->kernel,
 * entry, args, nargs and kernel_dtypes at the kernel (owned by uk) and
 * cfg->kernel_src, cfg->kernel_unit at its source and unit.  Errors:
 * UB_USAGE with one line naming the file, kernel and parameter at fault
 * and listing the valid names; UB_COMPILE when the file does not
 * compile. */
int ub_user_kernel_bind(const struct ub_kernel_req *req, struct ub_op *op,
			struct ub_config *cfg, struct ub_user_kernel *uk,
			struct ub_error *err);
void ub_user_kernel_free(struct ub_user_kernel *uk);

/* ub_user_kernel_bind for a run of several dtypes (cfg->ndtypes > 1):
 * each dtype's kernel is bound as for a run of that dtype alone, its
 * entry found per dtype (kernel_dtypes.c): the --entry as given for the
 * dtype of its arrays; else the file's own kernel of that name whose
 * arrays are of the dtype; else the --entry's template arguments with the
 * other dtype's C type in place of its own; else NAME<T>, T the dtype's
 * C type (float, __half, __nv_bfloat16, double).  cfg->kernel_inst[dt]
 * points at each (owned by uk); op and cfg take the first dtype's. */
int ub_user_kernel_bind_dtypes(const struct ub_kernel_req *req, struct ub_op *op,
			       struct ub_config *cfg, struct ub_user_kernel *uk,
			       struct ub_error *err);
void ub_kernel_dtypes_free(struct ub_kernel_dtypes *kd);
/* The one-dtype binding both use (user_kernel.c). */
int ub_user_kernel_bind_one(const struct ub_kernel_req *req, struct ub_op *op,
			    struct ub_config *cfg, struct ub_user_kernel *uk,
			    struct ub_error *err);

/* The value of parameter p for the text v ("0.5", "0x1.8p-3", "-3",
 * "true"), as the bits a launch passes (a float's encoding, an integer
 * in two's complement of p's width); UB_USAGE naming the parameter when v
 * is not one or does not fit. */
int ub_kparam_value(const struct ub_kparam *p, const char *v, uint64_t *bits,
		    struct ub_error *err);

/* The index of op's output called name (op->out_names; "out" is the
 * first), or -1; user_roles.c. */
int ub_op_output(const struct ub_op *op, const char *name);
/* Parameter p of uk bound to text, an output of op (op->nouts > 0) or a
 * role (kernel_roles.h), into *arg, its canonical binding: "OUT",
 * "OUT:inplace=IN", "OUT:acc=IN" or "scratch:size=EXPR".  UB_USAGE
 * naming the parameter when it does not fit. */
int ub_bind_role(const struct ub_user_kernel *uk, const struct ub_op *op,
		 const struct ub_kparam *p, const char *text, char **arg,
		 struct ub_error *err);

struct ub_triton_req;
/* The --triton kernel of req bound to op (ub_triton_bind), held in
 * uk->triton. */
int ub_user_kernel_triton(const struct ub_triton_req *req, struct ub_op *op,
			  struct ub_config *cfg, struct ub_user_kernel *uk,
			  struct ub_error *err);

#endif

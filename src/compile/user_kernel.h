/* user_kernel.h — testing the user's own kernel file against an op:
 *
 *   ulpbench --op atan_bwd --kernel my.cu --entry atan_backward \
 *            --args 'in=x,dout=g,din=out,N=n'
 *
 * The kernel's C parameters (read from the source, kernel_sig.h) are bound
 * by name: each to an input of the op, to `out` (the result array) or to
 * `n` (the element count).  A parameter that --args does not mention binds
 * to the op name it is spelled as, if there is one; --entry may be left
 * out when the file has one kernel. */
#ifndef UB_USER_KERNEL_H
#define UB_USER_KERNEL_H

#include "kernel_sig.h"
#include "result.h"

struct ub_user_kernel {
	char *src;        /* the file's text */
	char *file, *entry;
	int nargs;
	char **args;      /* per parameter: an input name, "out" or "n" */
	struct ub_ksig sig;
	struct ub_triton *triton; /* --triton's kernel instead (triton.h), or
				     NULL; freed with the rest */
};

/* Reads file, finds its kernel `entry` (NULL: the only one), binds its
 * parameters by `spec` ("PARAM=NAME,...", NULL for none) to op's inputs,
 * out and n, and checks that the kernel's arrays are of the dtype(s) cfg
 * asks for.  Then points op->kernel, entry, args, nargs and kernel_dtypes
 * at the kernel (owned by uk) and cfg->kernel_src at its source.  Errors:
 * UB_USAGE with one line naming the file, kernel and parameter at fault
 * and listing the valid names. */
int ub_user_kernel_bind(const char *file, const char *entry, const char *spec,
			struct ub_op *op, struct ub_config *cfg,
			struct ub_user_kernel *uk, struct ub_error *err);
void ub_user_kernel_free(struct ub_user_kernel *uk);

struct ub_triton_req;
/* The --triton kernel of req bound to op (ub_triton_bind), held in
 * uk->triton. */
int ub_user_kernel_triton(const struct ub_triton_req *req, struct ub_op *op,
			  struct ub_config *cfg, struct ub_user_kernel *uk,
			  struct ub_error *err);

#endif

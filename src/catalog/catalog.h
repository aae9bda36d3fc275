/* catalog.h — ops as data: the op catalog read from FPCore files.
 *
 * An op is one FPCore form:
 *
 *   (FPCore atan_bwd (x g)
 *     :name "atan backward: g / (x*x + 1)"
 *     :pre (and (<= -inf x inf) (<= -inf g inf))     ; sampling domain
 *     :torch (let* ([s (* x x)] [t (+ s 1)]) (/ g t)) ; PyTorch eager plan
 *     :torch-rounding ([out step])                   ; per step, optional
 *     :kernel "atan_bwd.cu" :entry "atan_bwd"        ; kernel under test
 *     :args (x g out n)                              ; kernel parameters
 *     :dtypes (f32)                                  ; what it is written for
 *     (/ g (+ (* x x) 1)))                           ; exact math
 *
 * The torch plan is a let* whose every binding, and its body, is one
 * separate elementwise kernel whose result is rounded to the tensor dtype
 * (R(.) in the shared torch-backward reference); inside one binding the
 * arithmetic is in float32 (opmath), as PyTorch's kernels do. */
#ifndef UB_CATALOG_H
#define UB_CATALOG_H

#include "expr.h"

struct ub_domain {
	double lo, hi; /* closed interval of values; -inf..inf by default */
};

struct ub_plan_step {
	char *name;            /* binding name; "out" for the body */
	struct ub_expr *e;     /* vars: inputs 0..ninputs-1, then earlier
				  steps ninputs.. in order */
	int every_op;          /* :torch-rounding ([name every-op]): in
				  f16/bf16 every operator of this step rounds
				  to the dtype (c10::Half arithmetic), not
				  only its result */
};

struct ub_op {
	char *name, *desc;
	int ninputs;
	char *inputs[UB_MAX_INPUTS];
	struct ub_domain dom[UB_MAX_INPUTS];
	struct ub_expr *math;  /* vars: inputs */
	struct ub_expr *kernel_expr; /* :kernel-expr: the generated kernel's
					formula when it is not the math; NULL */
	int nsteps;
	struct ub_plan_step *torch;
	char *kernel, *entry;  /* kernel file (relative to kernels/) */
	unsigned kernel_dtypes; /* bit dt: the kernel is written for dtype dt
				   (:dtypes, default f32 only) */
	int nargs;             /* kernel parameters, in order: an input name,
				  "out" or "n" */
	char **args;
	char *file;            /* where it was defined, for messages */
	int line;
};

struct ub_catalog {
	int nops;
	struct ub_op *ops;
};

/* Parses FPCore text; errors are "FILE:LINE:COL: message" (UB_USAGE). */
int ub_catalog_parse(const char *text, const char *file,
		     struct ub_catalog *cat, struct ub_error *err);
int ub_catalog_load(const char *path, struct ub_catalog *cat,
		    struct ub_error *err);
void ub_catalog_free(struct ub_catalog *cat);
/* Moves every op of src to the end of dst, leaving src empty (free it as
 * usual).  A name dst already has is UB_USAGE "FILE:LINE: op 'x' is
 * already defined at FILE:LINE", naming both places; dst is then
 * unchanged. */
int ub_catalog_merge(struct ub_catalog *dst, struct ub_catalog *src,
		     struct ub_error *err);
const struct ub_op *ub_catalog_find(const struct ub_catalog *cat,
				    const char *name);

#endif

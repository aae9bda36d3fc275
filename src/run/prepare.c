/* prepare.c — the op of one dtype (prepare.h). */
#include "prepare.h"
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ub_op_for_dtype(const struct ub_op *op, enum ub_dtype dt, struct ub_op *out,
		    struct ub_op *held, struct ub_error *err)
{
	char text[UB_MAX_PARAMS][48];
	const char *values[UB_MAX_PARAMS];
	memset(held, 0, sizeof *held);
	*out = *op;
	if (op->kernel && !(op->kernel_dtypes >> dt & 1)) {
		/* the op's kernel file is for other dtypes (atan_bwd.cu: f32):
		 * the kernel generated from the math runs in this one */
		out->kernel_skipped = op->kernel;
		out->kernel = out->entry = NULL;
		out->entry_shown = NULL;
		out->nargs = 0;
		out->args = NULL;
		out->kernel_dtypes = (1u << UB_NDTYPES) - 1;
	}
	if (!op->nparams && !op->use_saved)
		return 0;
	for (int k = 0; k < op->nparams; k++) {   /* exact, in hex */
		double v = op->params[k].value;
		if (dt == UB_F64)
			snprintf(text[k], sizeof text[k], "%a", v);
		else
			snprintf(text[k], sizeof text[k], "%a", (double)(float)v);
		values[k] = text[k];
	}
	struct ub_parse_env env = { values, op->use_saved };
	int s = ub_op_reparse(op, &env, held, err);
	if (s)
		return s;
	/* the run's fields stay (kernel, args, --domain, ...); what the new
	 * reading computes replaces the old */
	out->math = held->math;
	out->kernel_expr = held->kernel_expr;
	out->nsteps = held->nsteps;
	out->torch = held->torch;
	out->ninputs = held->ninputs;
	for (int k = op->nsampled; k < held->ninputs; k++) {
		out->inputs[k] = held->inputs[k];
		out->dom[k] = held->dom[k];
	}
	for (int k = 0; k < op->nsaved; k++)
		out->saved[k].e = held->saved[k].e;
	out->saved_math = held->saved_math;
	return 0;
}

int ub_saved_fill(const struct ub_op *op, enum ub_dtype dt, struct ub_array *in,
		  size_t n, int fast, struct ub_error *err)
{
	uint64_t x[UB_MAX_INPUTS], y;
	int ns = op->nsampled;
	for (int k = ns; k < op->ninputs; k++)
		if (!in[k].data && ub_array_alloc(&in[k], dt, n))
			return ub_fail(err, UB_RUNTIME, "out of memory");
	for (size_t i = 0; i < n; i++) {
		for (int k = 0; k < ns; k++)
			x[k] = ub_array_get(&in[k], i);
		for (int k = ns; k < op->ninputs; k++) {
			int s = ub_ref_eval_auto(op->saved[k - ns].e, dt, x, ns, fast, &y,
						 NULL, err);
			if (s)
				return ub_prefix(err, s, "%s: saved input %s: ", op->name,
						 op->inputs[k]);
			ub_array_set(&in[k], i, y);
		}
	}
	return 0;
}

/* inputs_exhaustive.c — exhaustive inputs (--exhaustive, inputs.h): every
 * encoding of a 16-bit format, 0x0000 to 0xffff in order (65,536 inputs:
 * both zeros, every subnormal, normal, infinity and NaN payload), for an op
 * of one input.  Wider formats (f32: 2^32 encodings) and several inputs are
 * refused for now. */
#include "inputs.h"

int ub_exhaustive_check(const struct ub_op *op, const enum ub_dtype *dts,
			int ndtypes, struct ub_error *err)
{
	if (op->ninputs != 1)
		return ub_fail(err, UB_USAGE, "%s: --exhaustive is for ops of one "
			       "input (f16 or bf16: 65,536 encodings); %s has %d",
			       op->name, op->name, op->ninputs);
	for (int t = 0; t < ndtypes; t++)
		if (ub_dtypes[dts[t]].bits != 16)
			return ub_fail(err, UB_USAGE, "%s: --exhaustive is for f16 and "
				       "bf16 only for now (65,536 encodings), not %s; "
				       "use -n", op->name, ub_dtypes[dts[t]].name);
	return 0;
}

int ub_inputs_exhaustive(enum ub_dtype dt, struct ub_array *out,
			 struct ub_error *err)
{
	if (ub_dtypes[dt].bits != 16)
		return ub_fail(err, UB_USAGE, "--exhaustive: not for %s",
			       ub_dtypes[dt].name);
	if (ub_array_alloc(out, dt, 65536))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (uint32_t u = 0; u < 65536; u++)
		ub_array_set(out, u, u);
	return 0;
}

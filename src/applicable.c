/* applicable.c — checks that modes, dtypes and --exhaustive fit the op
 * (applicable.h), and the exhaustive inputs. */
#include "applicable.h"

#include <stdio.h>
#include <string.h>

static int half(enum ub_dtype dt)
{
	return dt == UB_F16 || dt == UB_BF16;
}

static int check_exhaustive(const struct ub_config *cfg, struct ub_error *err)
{
	const struct ub_op *op = cfg->op;
	char names[256] = "";
	if (cfg->nfiles)
		return ub_fail(err, UB_USAGE, "--exhaustive and --input exclude "
			       "each other");
	if (op->ninputs != 1) {
		for (int k = 0; k < op->ninputs; k++)
			snprintf(names + strlen(names), sizeof names - strlen(names),
				 "%s%s", k ? ", " : "", op->inputs[k]);
		return ub_fail(err, UB_USAGE, "--exhaustive: %s has %d inputs (%s); "
			       "exhaustive runs cover one-input ops", op->name,
			       op->ninputs, names);
	}
	for (int t = 0; t < cfg->ndtypes; t++)
		if (!half(cfg->dtypes[t]))
			return ub_fail(err, UB_USAGE, "--exhaustive: %s has 2^%d values; "
				       "exhaustive runs cover f16 and bf16 (use -n "
				       "for samples)", ub_dtypes[cfg->dtypes[t]].name,
				       ub_dtypes[cfg->dtypes[t]].bits);
	return 0;
}

int ub_check_applicable(const struct ub_config *cfg, int modes_given,
			struct ub_error *err)
{
	int any16 = 0;
	for (int t = 0; t < cfg->ndtypes; t++)
		any16 |= half(cfg->dtypes[t]);
	for (int m = 0; modes_given && !any16 && m < cfg->nmodes; m++)
		if (!ub_mode_applies(cfg->modes[m], UB_F32))
			return ub_fail(err, UB_USAGE, "mode %s applies to f16 and bf16 "
				       "only (an f32 or f64 kernel is already native: "
				       "see mode fma); add --dtype f16 or bf16",
				       ub_modes[cfg->modes[m]].name);
	return cfg->exhaustive ? check_exhaustive(cfg, err) : 0;
}

int ub_exhaustive_inputs(enum ub_dtype dt, struct ub_array *out,
			 struct ub_error *err)
{
	if (!half(dt))
		return ub_fail(err, UB_USAGE, "--exhaustive: %s is not a 16-bit "
			       "dtype", ub_dtypes[dt].name);
	if (ub_array_alloc(out, dt, 65536))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (uint64_t b = 0; b < 65536; b++)
		ub_array_set(out, (size_t)b, b);
	return 0;
}

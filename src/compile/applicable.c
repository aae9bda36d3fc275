/* applicable.c — checks that the modes fit the dtypes (applicable.h). */
#include "applicable.h"

#include <stdio.h>
#include <string.h>

static int half(enum ub_dtype dt)
{
	return dt == UB_F16 || dt == UB_BF16;
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
	return 0;
}

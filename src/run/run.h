/* run.h — the pipeline: inputs, reference, torch plan, every mode, metrics.
 *
 * For one op and each requested dtype: make or read the inputs, evaluate
 * the MPFR reference (correctly rounded result and exact value per
 * element), run the torch plan's kernels, then the kernel under test in
 * each mode, all on the same backend, and measure every result. */
#ifndef UB_RUN_H
#define UB_RUN_H

#include "result.h"

int ub_run(const struct ub_config *cfg, struct ub_result *res,
	   struct ub_error *err);

/* What the reports say of cfg's inputs (their `inputs` column): "random",
 * "exhaustive", "exhaustive LO:HI" or "x=a.npy;g=b.npy". */
void ub_describe_inputs(const struct ub_config *cfg, char *buf, size_t len);

/* Pieces of the pipeline, for explain (a few elements, traced through
 * cfg->trace): the kernel under test of cfg->op in one mode over d's
 * inputs (d->dt, d->nin, d->in), and step k of the torch plan over env
 * (the op's inputs, then steps 0..k-1's results).  out is allocated here
 * (free with ub_array_free); approx gets the approximate instructions
 * executed (ptx.h).  ub_run_mode compiles what ub_run compiles
 * (ub_kernel_source); *na is why the mode does not apply to the kernel
 * (ub_run's row n/a; nothing ran, out stays empty), else NULL. */
int ub_run_mode(const struct ub_config *cfg, enum ub_mode mode,
		struct ub_data *d, struct ub_array *out, uint64_t *approx,
		const char **na, struct ub_error *err);
int ub_run_step(const struct ub_config *cfg, const struct ub_array *env,
		int k, struct ub_array *out, uint64_t *approx,
		struct ub_error *err);

/* The row of results y, which are d's array out (result.h), measured,
 * with its figures when res->cfg asks for them (a run of several
 * toolkits adds the rows of its further toolkits so, run_toolkits.c). */
int ub_run_add_row(struct ub_result *res, const struct ub_data *d, int out,
		   const char *mode, const char *opts,
		   const struct ub_array *y, uint64_t approx, struct ub_error *err);

#endif

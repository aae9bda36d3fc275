/* run.h — the pipeline: inputs, reference, torch plan, every mode, metrics.
 *
 * For one op and each requested dtype: make or read the inputs, evaluate
 * the MPFR reference (correctly rounded result and exact value per
 * element), run the torch plan's kernels, then the kernel under test in
 * each mode, all on the same backend, and measure every result. */
#ifndef UB_RUN_H
#define UB_RUN_H

#include "catalog.h"
#include "metrics.h"
#include "modes.h"
#include "npy.h"

struct ub_input_file {
	int input;         /* index into op->inputs */
	const char *path;
};

struct ub_config {
	const struct ub_op *op;
	int ndtypes;
	enum ub_dtype dtypes[UB_NDTYPES];
	int nmodes;
	enum ub_mode modes[UB_NMODES];
	size_t n;
	uint64_t seed;
	int nfiles;
	struct ub_input_file files[UB_MAX_INPUTS];
	const char *arch;    /* NVRTC virtual architecture, "compute_90" */
	int exhaustive;      /* every encoding (one-input op, f16/bf16) */
	const char *backend; /* "sim" */
};

/* One line of the report: a mode (or "torch") of one op and dtype. */
struct ub_row {
	const char *op;
	enum ub_dtype dt;
	const char *mode;    /* mode name or "torch" */
	const char *options; /* NVRTC options it was compiled with */
	const char *backend;
	struct ub_stats st;
	int nin;
	const char *in_names[UB_MAX_INPUTS];
	uint64_t worst_in[UB_MAX_INPUTS];
	int has_worst;
	int has_torch;       /* the op has a torch plan (else the torch_*
				fields are meaningless: "-" / empty) */
	int sim_exact;       /* no approximate instruction executed */
	uint64_t approx_mask;
};

/* The data behind the rows of one dtype, kept for --dump. */
struct ub_data {
	enum ub_dtype dt;
	struct ub_shape shape;
	int nin;
	struct ub_array in[UB_MAX_INPUTS];
	struct ub_array cr, torch;
	struct ub_exact *exact;
	int nmodes;
	struct ub_array out[UB_NMODES];
};

struct ub_result {
	const struct ub_config *cfg;
	char inputs[512];    /* "random" or "x=a.npy;g=b.npy" */
	int nrows;
	struct ub_row *rows;
	int ndata;
	struct ub_data data[UB_NDTYPES];
};

int ub_run(const struct ub_config *cfg, struct ub_result *res,
	   struct ub_error *err);
void ub_result_free(struct ub_result *res);

#endif

/* result.c — rows, results and a run's inputs (result.h). */
#include "result.h"
#include "backend.h"
#include "codegen.h"
#include "kernel_sig.h"
#include "paths.h"
#include "triton.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads every input from its file; all must agree in length. */
static int read_inputs(const struct ub_config *cfg, struct ub_data *d,
		       struct ub_error *err)
{
	const struct ub_op *op = cfg->op;
	const char *first = NULL;
	for (int k = 0; k < op->ninputs; k++) {
		const char *path = NULL;
		for (int f = 0; f < cfg->nfiles; f++)
			if (cfg->files[f].input == k)
				path = cfg->files[f].path;
		if (!path)
			return ub_fail(err, UB_USAGE, "%s needs input %s too: "
				       "add --input %s=FILE.npy", op->name,
				       op->inputs[k], op->inputs[k]);
		struct ub_shape shape;
		int s = ub_npy_read(path, d->dt, &d->in[k], &shape, err);
		if (s)
			return s;
		if (first && d->in[k].n != d->in[0].n)
			return ub_fail(err, UB_USAGE, "%s: %zu elements, but %s has %zu",
				       path, d->in[k].n, first, d->in[0].n);
		if (!first) {
			first = path;
			d->shape = shape;
		}
	}
	return 0;
}

int ub_run_inputs(const struct ub_config *cfg, struct ub_data *d,
		  struct ub_error *err)
{
	d->nin = cfg->op->ninputs;
	if (cfg->nfiles)
		return read_inputs(cfg, d, err);
	d->shape.ndim = 1;
	d->shape.dim[0] = cfg->n;
	if (cfg->exhaustive) {
		int s = ub_inputs_exhaustive(d->dt, &cfg->range, &d->in[0], err);
		d->shape.dim[0] = d->in[0].n;
		return s;
	}
	struct ub_sampling smp;
	int s = ub_sampling_init(cfg->op, d->dt, (enum ub_sample)cfg->sample, &smp, err);
	for (int k = 0; !s && k < d->nin; k++)
		if (ub_array_alloc(&d->in[k], d->dt, cfg->n))
			s = ub_fail(err, UB_RUNTIME, "out of memory for %zu inputs", cfg->n);
	if (!s)
		s = ub_inputs_sample_at(d->dt, d->nin, &smp, cfg->seed, 0, cfg->n,
					d->in, &d->rejected, err);
	if (s)
		ub_prefix(err, s, "%s: ", cfg->op->name);
	ub_sampling_free(&smp);
	return s;
}

int ub_kernel_source(const struct ub_config *cfg, enum ub_dtype dt,
		     char **src, struct ub_error *err)
{
	char path[4096], rel[512];
	*src = NULL;
	if (cfg->kernel_src) /* --kernel: never a shipped file of that name */
		return (*src = strdup(cfg->kernel_src)) ? 0 :
			ub_fail(err, UB_RUNTIME, "out of memory");
	if (!cfg->op->kernel)
		return ub_codegen_kernel(cfg->op, dt, src, err);
	snprintf(rel, sizeof rel, "kernels/%s", cfg->op->kernel);
	int s = ub_data_path(rel, path, sizeof path, err);
	return s ? s : ub_read_file(path, src, err);
}

const char *ub_kernel_name(const struct ub_config *cfg, char *buf, size_t len)
{
	if (cfg->op->kernel)
		return cfg->op->kernel;
	snprintf(buf, len, "%s.generated.cu", cfg->op->name);
	return buf;
}

const char *ub_mode_na(const struct ub_config *cfg, enum ub_mode mode,
		       const char *src)
{
	/* a kernel file without the UB_ macros compiled with -DUB_MODE_RN is
	 * the fma mode over again */
	if (cfg->triton)
		return ub_triton_mode_na(mode);
	if (mode == UB_MODE_RN && cfg->op->kernel && !ub_ksig_uses_macros(src))
		return UB_NA_NO_MACROS;
	return NULL;
}

const struct ub_backend *ub_config_backend(const struct ub_config *cfg)
{
	const struct ub_backend *be = &ub_backend_sim;
	ub_backend_get(cfg->backend, &be, NULL);
	return be;
}

struct ub_row *ub_row_new(struct ub_result *res, const struct ub_data *d,
			  int out, int has_torch, const char *mode,
			  const char *opts)
{
	const struct ub_config *cfg = res->cfg;
	struct ub_row *r = &res->rows[res->nrows++];
	memset(r, 0, sizeof *r);
	r->op = cfg->op->name;
	r->dt = d->dt;
	r->data = (int)(d - res->data);
	r->out = out;
	r->mode = mode;
	r->options = opts;
	r->backend = ub_config_backend(cfg)->name;
	r->arch = ub_config_backend(cfg)->arch(cfg->arch, cfg->arch_set);
	r->has_torch = has_torch;
	r->nin = cfg->op->ninputs;
	for (int k = 0; k < r->nin; k++)
		r->in_names[k] = cfg->op->inputs[k];
	r->sim_exact = 1;
	r->rejected = d->rejected;
	if (cfg->triton && strcmp(mode, "torch") != 0)
		ub_triton_row(cfg->triton, r);
	return r;
}

const struct ub_data *ub_row_data(const struct ub_result *res,
				  const struct ub_row *r)
{
	return r->data >= 0 && r->data < res->ndata ? &res->data[r->data] : NULL;
}

const struct ub_array *ub_row_output(const struct ub_result *res,
				     const struct ub_row *r)
{
	const struct ub_data *d = ub_row_data(res, r);
	const struct ub_array *y = !d ? NULL
		: r->out == UB_ROW_TORCH ? &d->torch
		: r->out >= 0 && r->out < d->nmodes ? &d->out[r->out] : NULL;
	return y && y->data ? y : NULL;
}

void ub_row_set_approx(struct ub_row *r, uint64_t approx)
{
	r->sim_exact = (approx & ~UB_APPROX_UNMARKED) == 0;
	r->approx_mask = approx;
}

void ub_result_free(struct ub_result *res)
{
	for (int t = 0; t < res->ndata; t++) {
		struct ub_data *d = &res->data[t];
		for (int k = 0; k < d->nin; k++)
			ub_array_free(&d->in[k]);
		ub_array_free(&d->cr);
		ub_array_free(&d->torch);
		for (int m = 0; m < d->nmodes; m++)
			ub_array_free(&d->out[m]);
		free(d->exact);
	}
	for (int i = 0; res->rows && i < res->nrows; i++)
		free(res->rows[i].fig);
	free(res->rows);
	memset(res, 0, sizeof *res);
}

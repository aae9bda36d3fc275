/* result.c — rows, results and a run's inputs (result.h). */
#include "result.h"
#include "ptx.h"
#include "backend.h"
#include "codegen.h"
#include "kernel_sig.h"
#include "nvcc.h"
#include "nvrtc.h"
#include "paths.h"
#include "prepare.h"
#include "triton.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ub_open_inputs(const struct ub_config *cfg, enum ub_dtype dt,
		   struct ub_npy_in *f, struct ub_shape *shape,
		   struct ub_error *err)
{
	const struct ub_op *op = cfg->op;
	int first = -1, s = 0;
	for (int k = 0; k < op->ninputs; k++)
		f[k] = (struct ub_npy_in){.dt = dt, .fd = -1, .mem = {.dt = dt}};
	for (int k = 0; !s && k < op->ninputs; k++) {
		const char *path = NULL;
		for (int i = 0; i < cfg->nfiles; i++)
			if (cfg->files[i].input == k)
				path = cfg->files[i].path;
		if (!path && k >= op->nsampled)
			continue;
		if (!path) {
			s = ub_fail(err, UB_USAGE, "%s needs input %s too: "
				    "add --input %s=FILE.npy", op->name,
				    op->inputs[k], op->inputs[k]);
			break;
		}
		s = ub_npy_open(path, dt, &f[k], err);
		if (!s && f[k].n == 0) /* figures over no element would hold of nothing */
			s = ub_fail(err, UB_USAGE, "%s: input %s holds no element: nothing "
				    "to compare", path, op->inputs[k]);
		if (!s && first >= 0 && f[k].n != f[first].n)
			s = ub_fail(err, UB_USAGE, "%s: %zu elements, but %s has %zu",
				    path, f[k].n, f[first].path, f[first].n);
		if (!s && first < 0) {
			first = k;
			*shape = f[k].shape;
		}
	}
	if (s)
		ub_close_inputs(op->ninputs, f);
	return s;
}

void ub_close_inputs(int nin, struct ub_npy_in *f)
{
	for (int k = 0; k < nin; k++)
		ub_npy_close(&f[k]);
}

/* Reads every input from its file, whole (a saved input may have none:
 * it is computed). */
static int read_inputs(const struct ub_config *cfg, struct ub_data *d,
		       struct ub_error *err)
{
	struct ub_npy_in f[UB_MAX_INPUTS];
	int s = ub_open_inputs(cfg, d->dt, f, &d->shape, err);
	if (s)
		return s;
	for (int k = 0; !s && k < cfg->op->ninputs; k++) {
		if (!f[k].path)
			continue;
		if (ub_array_alloc(&d->in[k], d->dt, f[k].n))
			s = ub_fail(err, UB_RUNTIME, "%s: out of memory for %zu "
				    "elements", f[k].path, f[k].n);
		else
			s = ub_npy_read_range(&f[k], 0, f[k].n, &d->in[k], err);
	}
	ub_close_inputs(cfg->op->ninputs, f);
	return s;
}

/* The sampled inputs of d: files, the exhaustive sweep or samples. */
static int sampled_inputs(const struct ub_config *cfg, struct ub_data *d,
			  struct ub_error *err)
{
	if (cfg->nfiles)
		return read_inputs(cfg, d, err);
	d->shape.ndim = 1;
	d->shape.dim[0] = cfg->n;
	if (cfg->exhaustive) {
		int s = ub_inputs_exhaustive(d->dt, d->nin, &cfg->range, d->in, err);
		d->shape.dim[0] = d->in[0].n;
		return s;
	}
	struct ub_sampling smp;
	int s = ub_sampling_init(cfg->op, d->dt, (enum ub_sample)cfg->sample, &smp, err);
	for (int k = 0; !s && k < cfg->op->nsampled; k++)
		if (ub_array_alloc(&d->in[k], d->dt, cfg->n))
			s = ub_fail(err, UB_RUNTIME, "out of memory for %zu inputs", cfg->n);
	if (!s)
		s = ub_inputs_sample_at(d->dt, cfg->op->nsampled, &smp, cfg->seed, 0, cfg->n,
					d->in, &d->rejected, err);
	if (s)
		ub_prefix(err, s, "%s: ", cfg->op->name);
	ub_sampling_free(&smp);
	return s;
}

int ub_run_inputs(const struct ub_config *cfg, struct ub_data *d,
		  struct ub_error *err)
{
	d->nin = cfg->op->ninputs;
	int s = sampled_inputs(cfg, d, err);
	if (!s && cfg->op->ninputs > cfg->op->nsampled)   /* saved inputs */
		s = ub_saved_fill(cfg->op, d->dt, d->in, d->in[0].n, !cfg->ref_mpfr, err);
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
	return cfg->op->kernel ? ub_kernel_mode_na(mode, src) : NULL;
}

const char *ub_kernel_mode_na(enum ub_mode mode, const char *src)
{
	if (mode == UB_MODE_RN && !ub_ksig_uses_macros(src))
		return UB_NA_NO_MACROS;
	/* and one without a UB_NATIVE16 variant under -DUB_NATIVE16 too */
	if (mode == UB_MODE_NATIVE16 && !ub_ksig_mentions(src, "UB_NATIVE16"))
		return UB_NA_NO_NATIVE16;
	return NULL;
}

const struct ub_backend *ub_config_backend(const struct ub_config *cfg)
{
	const struct ub_backend *be = &ub_backend_sim;
	ub_backend_get(cfg->backend, &be, NULL);
	return be;
}

void ub_row_kernel(const struct ub_config *cfg, int torch, struct ub_row *r)
{
	const struct ub_op *op = cfg->op;
	const struct ub_toolkit *tk = torch ? cfg->torch_toolkit : cfg->toolkit;
	if (!tk)
		tk = ub_toolkit_default();
	/* a kernel file: nvcc where the toolkit has it, else NVRTC (nvcc.h) */
	const char *v = cfg->kernel_unit && ub_nvcc_has(tk) ? ub_nvcc_version_tk(tk, NULL)
							     : NULL;
	struct ub_geom g = torch ? (struct ub_geom)UB_STEP_GEOM   /* codegen.h */
			 : op->kernel ? cfg->geom : (struct ub_geom){0};
	if (torch)
		snprintf(r->kernel, sizeof r->kernel, "torch plan");
	else if (cfg->kernel_src)
		snprintf(r->kernel, sizeof r->kernel, "%s %s", op->kernel,
			 op->entry_shown ? op->entry_shown : op->entry);
	else if (op->kernel)
		snprintf(r->kernel, sizeof r->kernel, "kernels/%s %s", op->kernel, op->entry);
	else
		snprintf(r->kernel, sizeof r->kernel, "generated%s%s%s",
			 op->kernel_skipped ? " (kernels/" : "",
			 op->kernel_skipped ? op->kernel_skipped : "",
			 op->kernel_skipped ? " is not written for this dtype)" : "");
	/* "release 13.0, V13.0.88" */
	if (v && !torch && strstr(v, ", V"))
		snprintf(r->toolkit, sizeof r->toolkit, "nvcc %s", strstr(v, ", V") + 3);
	else
		snprintf(r->toolkit, sizeof r->toolkit, "nvrtc %s", ub_nvrtc_version_tk(tk));
	ub_geom_format(&g, r->launch, sizeof r->launch);
	if (!torch && cfg->launcher)   /* the launcher's own launches */
		snprintf(r->launch, sizeof r->launch, "by --launcher %s", op->entry);
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
	ub_row_kernel(cfg, !strcmp(mode, "torch"), r);
	r->nin = cfg->op->ninputs;
	for (int k = 0; k < r->nin; k++)
		r->in_names[k] = cfg->op->inputs[k];
	r->sim_exact = 1;
	r->rejected = d->rejected;
	if (cfg->triton && strcmp(mode, "torch") != 0)
		ub_triton_row(cfg->triton, r);
	return r;
}

const struct ub_op *ub_data_op(const struct ub_result *res, const struct ub_data *d)
{
	int t = (int)(d - res->data);
	return t >= 0 && t < res->ndata && res->cfgs[t].op ? res->cfgs[t].op : res->cfg->op;
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
	/* the modelled kinds (below PTX_AX_MEASURED) make a row inexact */
	r->sim_exact = (approx & PTX_AX_MODELLED_BITS) == 0;
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
		ub_op_free(&res->held[t]);
	}
	for (int i = 0; res->rows && i < res->nrows; i++)
		free(res->rows[i].fig);
	free(res->rows);
	memset(res, 0, sizeof *res);
}

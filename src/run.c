/* run.c — the pipeline of one ulpbench run (see run.h). */
#include "run.h"
#include "applicable.h"
#include "codegen.h"
#include "inputs.h"
#include "nvrtc.h"
#include "paths.h"
#include "sim.h"
#include "../reference/reference.h"

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

static int make_inputs(const struct ub_config *cfg, struct ub_data *d,
		       struct ub_error *err)
{
	d->nin = cfg->op->ninputs;
	if (cfg->nfiles)
		return read_inputs(cfg, d, err);
	d->shape.ndim = 1;
	d->shape.dim[0] = cfg->n;
	if (cfg->exhaustive) {
		d->shape.dim[0] = 65536;
		return ub_exhaustive_inputs(d->dt, &d->in[0], err);
	}
	return ub_inputs_generate(d->dt, d->nin, cfg->op->dom, cfg->n,
				  cfg->seed, d->in, err);
}

/* Compiles src with opts and runs `entry` on the sim over args. */
static int compile_run(const struct ub_config *cfg, const char *src,
		       const char *name, const char *opts, const char *entry,
		       const struct ub_karg *args, int nargs, size_t n,
		       uint64_t *approx, struct ub_error *err)
{
	char *ptx = NULL;
	struct ptx_run_info info;
	int s = ub_nvrtc_compile(src, name, opts, cfg->arch, &ptx, NULL, err);
	if (!s)
		s = ub_sim_run(ptx, entry, args, nargs, n, &info, err);
	if (!s)
		*approx |= info.approx_mask;
	free(ptx);
	return s;
}

/* Runs the torch plan: one generated kernel per step, each step's output
 * an input of the later ones; the last is the plan's result. */
static int run_torch(const struct ub_config *cfg, struct ub_data *d,
		     uint64_t *approx, struct ub_error *err)
{
	const struct ub_op *op = cfg->op;
	size_t n = d->in[0].n;
	struct ub_array *env = calloc((size_t)(op->ninputs + op->nsteps), sizeof *env);
	struct ub_karg *args = calloc((size_t)(op->ninputs + op->nsteps + 2), sizeof *args);
	int s = env && args ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	for (int k = 0; k < op->ninputs; k++)
		env[k] = d->in[k];
	for (int k = 0; !s && k < op->nsteps; k++) {
		int nenv = op->ninputs + k;
		struct ub_array *out = k == op->nsteps - 1 ? &d->torch : &env[nenv];
		char *src = NULL, name[128];
		s = ub_array_alloc(out, d->dt, n);
		if (!s)
			s = ub_codegen_step(op, k, d->dt, &src, err);
		for (int v = 0; v < nenv; v++)
			args[v] = (struct ub_karg){.arr = &env[v]};
		args[nenv] = (struct ub_karg){.arr = out, .writable = 1};
		args[nenv + 1] = (struct ub_karg){.value = n};
		snprintf(name, sizeof name, "%s.torch.%s.cu", op->name, op->torch[k].name);
		if (!s)
			s = compile_run(cfg, src, name, UB_TORCH_OPTS, UB_STEP_ENTRY,
					args, nenv + 2, n, approx, err);
		free(src);
	}
	for (int k = op->ninputs; env && k < op->ninputs + op->nsteps - 1; k++)
		ub_array_free(&env[k]);
	free(env);
	free(args);
	return s;
}

/* Binds the kernel's parameters (:args) to the data and runs one mode. */
static int run_mode(const struct ub_config *cfg, const char *src,
		    enum ub_mode mode, struct ub_data *d, struct ub_array *out,
		    uint64_t *approx, struct ub_error *err)
{
	const struct ub_op *op = cfg->op;
	struct ub_karg args[32];
	size_t n = d->in[0].n;
	int s = ub_array_alloc(out, d->dt, n);
	if (!s && !op->kernel) { /* generated: inputs, out, n */
		for (int k = 0; k < op->ninputs; k++)
			args[k] = (struct ub_karg){.arr = &d->in[k]};
		args[op->ninputs] = (struct ub_karg){.arr = out, .writable = 1};
		args[op->ninputs + 1] = (struct ub_karg){.value = n};
		char name[128];
		snprintf(name, sizeof name, "%s.generated.cu", op->name);
		return compile_run(cfg, src, name, ub_modes[mode].opts,
				   UB_KERNEL_ENTRY, args, op->ninputs + 2, n,
				   approx, err);
	}
	for (int a = 0; !s && a < op->nargs && a < 32; a++) {
		const char *nm = op->args[a];
		if (strcmp(nm, "out") == 0)
			args[a] = (struct ub_karg){.arr = out, .writable = 1};
		else if (strcmp(nm, "n") == 0)
			args[a] = (struct ub_karg){.value = n};
		else
			for (int k = 0; k < op->ninputs; k++)
				if (strcmp(nm, op->inputs[k]) == 0)
					args[a] = (struct ub_karg){.arr = &d->in[k]};
	}
	if (s)
		return s;
	return compile_run(cfg, src, op->kernel, ub_modes[mode].opts, op->entry,
			   args, op->nargs, n, approx, err);
}

static void add_row(struct ub_result *res, const struct ub_data *d,
		    const char *mode, const char *opts,
		    const struct ub_array *y, uint64_t approx)
{
	const struct ub_config *cfg = res->cfg;
	struct ub_row *r = &res->rows[res->nrows++];
	memset(r, 0, sizeof *r);
	r->op = cfg->op->name;
	r->dt = d->dt;
	r->mode = mode;
	r->options = opts;
	r->backend = cfg->backend;
	r->has_torch = d->torch.data != NULL;
	ub_stats_compute(y, &d->cr, d->exact, r->has_torch ? &d->torch : NULL, &r->st);
	r->nin = d->nin;
	r->has_worst = r->st.ncomparable > 0;
	for (int k = 0; k < d->nin; k++) {
		r->in_names[k] = cfg->op->inputs[k];
		if (r->has_worst)
			r->worst_in[k] = ub_array_get(&d->in[k], r->st.worst);
	}
	r->sim_exact = approx == 0;
	r->approx_mask = approx;
}

static int run_dtype(struct ub_result *res, struct ub_data *d,
		     const char *file_src, struct ub_error *err)
{
	const struct ub_config *cfg = res->cfg;
	char *gen = NULL;
	const char *src = file_src;
	int s = make_inputs(cfg, d, err);
	if (!s && !cfg->op->kernel) {
		s = ub_codegen_kernel(cfg->op, d->dt, &gen, err);
		src = gen;
	}
	size_t n = s ? 0 : d->in[0].n;
	if (!s && !(d->exact = calloc(n ? n : 1, sizeof *d->exact)))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s)
		s = ub_ref_eval_array(cfg->op->math, d->dt, d->in, d->nin,
				      &d->cr, d->exact, err);
	uint64_t torch_approx = 0;
	if (!s && cfg->op->nsteps) /* an op without :torch has no torch row */
		s = run_torch(cfg, d, &torch_approx, err);
	for (int m = 0; !s && m < cfg->nmodes; m++) {
		uint64_t approx = 0;
		d->nmodes = m + 1;
		if (!ub_mode_applies(cfg->modes[m], d->dt))
			continue; /* no row; d->out[m] stays empty */
		s = run_mode(cfg, src, cfg->modes[m], d, &d->out[m], &approx, err);
		if (!s)
			add_row(res, d, ub_modes[cfg->modes[m]].name,
				ub_modes[cfg->modes[m]].opts, &d->out[m], approx);
	}
	if (!s && cfg->op->nsteps)
		add_row(res, d, "torch", UB_TORCH_OPTS, &d->torch, torch_approx);
	free(gen);
	return s;
}

static void describe_inputs(const struct ub_config *cfg, struct ub_result *res)
{
	size_t used = 0;
	if (!cfg->nfiles) {
		snprintf(res->inputs, sizeof res->inputs, "%s",
			 cfg->exhaustive ? "exhaustive" : "random");
		return;
	}
	for (int f = 0; f < cfg->nfiles && used < sizeof res->inputs; f++)
		used += (size_t)snprintf(res->inputs + used, sizeof res->inputs - used,
					 "%s%s=%s", f ? ";" : "",
					 cfg->op->inputs[cfg->files[f].input],
					 cfg->files[f].path);
}

int ub_run(const struct ub_config *cfg, struct ub_result *res,
	   struct ub_error *err)
{
	char path[4096], rel[512], *src = NULL;
	memset(res, 0, sizeof *res);
	res->cfg = cfg;
	describe_inputs(cfg, res);
	int s = 0;
	if (cfg->op->kernel) {
		snprintf(rel, sizeof rel, "kernels/%s", cfg->op->kernel);
		s = ub_data_path(rel, path, sizeof path, err);
		if (!s)
			s = ub_read_file(path, &src, err);
	}
	res->rows = calloc((size_t)cfg->ndtypes * (UB_NMODES + 1), sizeof *res->rows);
	if (!s && !res->rows)
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	for (int t = 0; !s && t < cfg->ndtypes; t++) {
		struct ub_data *d = &res->data[res->ndata++];
		d->dt = cfg->dtypes[t];
		s = run_dtype(res, d, src, err);
	}
	free(src);
	return s;
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
	free(res->rows);
	memset(res, 0, sizeof *res);
}

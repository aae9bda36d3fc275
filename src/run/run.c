/* run.c — the pipeline of one ulpbench run (see run.h). */
#include "run.h"
#include "backend.h"
#include "codegen.h"
#include "inputs.h"
#include "nvrtc.h"
#include "sim.h"
#include "stream.h"
#include "written.h"
#include "prepare.h"
#include "triton.h"
#include "reference.h"
#include "schedules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Compiles the job's source (src, or the user's unit) with opts and runs
 * its entry over args on cfg's backend; job->what ("mode fma", "torch
 * step 1") is for its messages. */
static int compile_run(const struct ub_config *cfg, struct ub_job *job,
		       uint64_t *approx, struct ub_error *err)
{
	const struct ub_backend *be = ub_config_backend(cfg);
	job->arch = be->arch(cfg->arch, cfg->arch_set);
	job->trace = cfg->trace;
	job->exec = cfg->exec;
	if (cfg->trace && be != &ub_backend_sim)
		return ub_fail(err, UB_USAGE, "tracing needs the sim backend");
	return be->run(job, approx, err);
}

static int run_step(const struct ub_config *cfg, const struct ub_array *env,
		    int k, struct ub_array *out, uint64_t *approx,
		    struct ub_checks *chk, struct ub_error *err);

/* Runs the torch plan: one generated kernel per step, each step's output
 * an input of the later ones; the last is the plan's result. */
static int run_torch(const struct ub_config *cfg, struct ub_data *d,
		     uint64_t *approx, struct ub_checks *chk, struct ub_error *err)
{
	const struct ub_op *op = cfg->op;
	struct ub_array *env = calloc((size_t)(op->ninputs + op->nsteps), sizeof *env);
	int s = env ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	for (int k = 0; env && k < op->ninputs; k++)
		env[k] = d->in[k];
	for (int k = 0; !s && k < op->nsteps; k++) {
		struct ub_array *out = k == op->nsteps - 1 ? &d->torch
							   : &env[op->ninputs + k];
		s = run_step(cfg, env, k, out, approx, chk, err);
	}
	for (int k = op->ninputs; env && k < op->ninputs + op->nsteps - 1; k++)
		ub_array_free(&env[k]);
	free(env);
	return s;
}

/* ub_run_step, what the checks saw into chk (NULL: nobody). */
static int run_step(const struct ub_config *cfg, const struct ub_array *env,
		    int k, struct ub_array *out, uint64_t *approx,
		    struct ub_checks *chk, struct ub_error *err)
{
	const struct ub_op *op = cfg->op;
	int nenv = op->ninputs + k;
	size_t n = env[0].n;
	char *src = NULL, name[128];
	struct ub_karg *args = calloc((size_t)nenv + 2, sizeof *args);
	int s = args && !ub_array_alloc(out, env[0].dt, n) ? 0 :
		ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s)
		s = ub_codegen_step(op, k, env[0].dt, &src, err);
	for (int v = 0; !s && v < nenv; v++)
		args[v] = (struct ub_karg){.arr = &env[v], .name = v < op->ninputs ?
			  op->inputs[v] : op->torch[v - op->ninputs].name};
	if (!s) {
		args[nenv] = (struct ub_karg){.arr = out, .writable = 1, .name = "out"};
		args[nenv + 1] = (struct ub_karg){.value = n};
		char what[32];
		snprintf(name, sizeof name, "%s.torch.%s.cu", op->name, op->torch[k].name);
		snprintf(what, sizeof what, "torch step %d", k + 1);
		struct ub_job job = { .src = src, .name = name, .opts = UB_TORCH_OPTS,
				      .entry = UB_STEP_ENTRY, .args = args,
				      .nargs = nenv + 2, .n = n, .what = what,
				      .geom = UB_STEP_GEOM, .checks = chk,
				      .toolkit = cfg->torch_toolkit };
		s = compile_run(cfg, &job, approx, err);
	}
	free(src);
	free(args);
	return s;
}

/* What a mode's row checked: the simulator's checks, its schedules. */
struct rowchk {
	struct ub_checks c;
	struct ub_stats sched;   /* schedules, sched_diff, sched_dist */
};

int ub_run_step(const struct ub_config *cfg, const struct ub_array *env,
		int k, struct ub_array *out, uint64_t *approx,
		struct ub_error *err)
{
	return run_step(cfg, env, k, out, approx, NULL, err);
}

/* One launch of the kernel under test, for ub_run_written. */
struct launch {
	const struct ub_config *cfg;
	struct ub_job *job;
	uint64_t *approx;
	struct ub_array *out;
};

static int launch(void *ctx, struct ub_error *err)
{
	struct launch *l = ctx;
	return compile_run(l->cfg, l->job, l->approx, err);
}

/* Schedule `seed` of the launch into y (schedules.h). */
static int launch_seeded(void *ctx, uint64_t seed, struct ub_array *y,
			 struct ub_error *err)
{
	struct launch *l = ctx;
	struct ub_job job = *l->job;
	struct ub_karg args[UB_MAX_KARGS];
	struct ub_checks c = { 0 };
	memcpy(args, job.args, (size_t)job.nargs * sizeof *args);
	for (int a = 0; a < job.nargs; a++)
		if (args[a].arr == l->out)
			args[a].arr = y;
	memset(y->data, 0, y->n * (size_t)(ub_dtypes[y->dt].bits / 8));
	job.args = args;
	job.checks = &c;
	job.geom.atomic_seeded = 1;
	job.geom.atomic_seed = seed;
	return compile_run(l->cfg, &job, l->approx, err);
}

/* Whether job's output is bound with :acc. */
static int job_acc(const struct ub_job *job)
{
	for (int a = 0; a < job->nargs; a++)
		if (job->args[a].acc)
			return 1;
	return 0;
}

/* Runs the kernel under test into out, which it must write whole; what
 * the checks saw into job->checks, its other schedules into sched. */
static int run_written(const struct ub_config *cfg, struct ub_job *job,
		       struct ub_array *out, uint64_t *approx,
		       struct ub_stats *sched, struct ub_error *err)
{
	struct launch l = { cfg, job, approx, out };
	size_t first, count;
	int acc = job_acc(job);
	if (acc && ub_config_backend(cfg) != &ub_backend_sim)
		return ub_fail(err, UB_USAGE, "%s: an output bound with :acc runs on "
			       "the sim backend only (it tracks which elements the "
			       "kernel writes): --backend sim", job->name);
	int s = ub_run_written(out, acc, job->checks, launch, &l, &first, &count, err);
	if (!s && count)
		return ub_prefix(err, ub_unwritten_fail(err, first, count, out->n, &job->geom,
							cfg->triton != NULL),
				 "%s: kernel %s, %s: ", job->name, job->shown ? job->shown
				 : job->entry, job->what);
	int k = s ? 1 : ub_schedules_for(cfg->schedules, job->checks);
	sched->schedules = ub_checks_kind(job->checks) ? (uint64_t)k : 0;
	if (!s && k > 1)
		s = ub_schedules_run(out, k, job->geom.atomic_seeded ? job->geom.atomic_seed
				     : 0, launch_seeded, &l, &sched->sched_diff,
				     &sched->sched_dist, err);
	return s;
}

/* What a kernel file's parameter bound to nm (:args) takes: an input of
 * the op, out, n, or a number "=0xBITS" (--triton). */
static struct ub_karg named_arg(const struct ub_op *op, const char *nm,
				const char *param, struct ub_data *d,
				struct ub_array *out)
{
	if (strcmp(nm, "out") == 0 || strcmp(nm, "out:acc") == 0)
		return (struct ub_karg){.arr = out, .writable = 1, .name = "out",
					.acc = nm[3] == ':', .param = param};
	if (strcmp(nm, "n") == 0)
		return (struct ub_karg){.value = out->n};
	if (nm[0] == '=')
		return (struct ub_karg){.value = strtoull(nm + 1, NULL, 16)};
	for (int k = 0; k < op->ninputs; k++)
		if (strcmp(nm, op->inputs[k]) == 0)
			return (struct ub_karg){.arr = &d->in[k], .name = op->inputs[k]};
	return (struct ub_karg){0};
}

/* A --triton kernel in one mode: its PTX from Triton (or the cache), its
 * parameters, then the ones Triton appends (null pointers), launched as
 * Triton's launcher would (ub_triton_geom). */
static int run_triton(const struct ub_config *cfg, enum ub_mode mode,
		      struct ub_data *d, struct ub_array *out,
		      uint64_t *approx, struct rowchk *rc, struct ub_error *err)
{
	const struct ub_triton *t = cfg->triton;
	const struct ub_backend *be = ub_config_backend(cfg);
	struct ub_karg args[UB_TRITON_MAX_PARAMS + 8] = {{0}};
	struct ub_triton_ptx p;
	char what[48];
	size_t n = out->n;
	struct ub_job job = { .name = t->file, .entry = t->kernel, .args = args,
			      .n = n, .trace = cfg->trace, .what = what,
			      .exec = cfg->exec, .checks = &rc->c };
	snprintf(what, sizeof what, "mode %s", ub_modes[mode].name);
	if (be != &ub_backend_sim)
		return ub_fail(err, UB_USAGE, "--triton: Triton kernels run on the "
			       "sim backend only");
	int s = ub_triton_compile(t, mode, d->dt, n > INT32_MAX, &p, err);
	if (!s)
		s = ub_triton_geom(t, &p, n, &job.geom, err);
	for (int a = 0; !s && a < t->nargs; a++)
		args[a] = named_arg(cfg->op, t->args[a], NULL, d, out);
	job.nargs = t->nargs + p.hidden;
	job.ptx = cfg->ptx ? cfg->ptx : p.ptx;
	if (!s)   /* every element written, as a kernel file must */
		s = run_written(cfg, &job, out, approx, &rc->sched, err);
	free(p.ptx);
	return s;
}

/* Binds the kernel's parameters (:args) to the data and runs one mode. */
static int run_mode(const struct ub_config *cfg, const char *src,
		    enum ub_mode mode, struct ub_data *d, struct ub_array *out,
		    uint64_t *approx, struct rowchk *rc, struct ub_error *err)
{
	const struct ub_op *op = cfg->op;
	struct ub_karg args[UB_MAX_KARGS];
	char what[48];
	size_t n = d->in[0].n;
	int s = ub_array_alloc(out, d->dt, n) ? ub_fail(err, UB_RUNTIME, "out of memory "
							 "for the output (%zu elements)", n) : 0;
	if (!s && cfg->triton)
		return run_triton(cfg, mode, d, out, approx, rc, err);
	if (!s && !op->kernel) { /* generated: inputs, out, n */
		for (int k = 0; k < op->ninputs; k++)
			args[k] = (struct ub_karg){.arr = &d->in[k], .name = op->inputs[k]};
		args[op->ninputs] = (struct ub_karg){.arr = out, .writable = 1,
						     .name = "out"};
		args[op->ninputs + 1] = (struct ub_karg){.value = n};
		char name[128];
		snprintf(what, sizeof what, "mode %s", ub_modes[mode].name);
		struct ub_job job = { .src = src, .name = ub_kernel_name(cfg, name, sizeof name),
				      .opts = ub_modes[mode].opts, .entry = UB_KERNEL_ENTRY,
				      .args = args, .nargs = op->ninputs + 2, .n = n,
				      .what = what, .ptx = cfg->ptx, .checks = &rc->c,
				      .toolkit = cfg->toolkit };
		return run_written(cfg, &job, out, approx, &rc->sched, err);
	}
	for (int a = 0; !s && a < op->nargs && a < UB_MAX_KARGS; a++)
		args[a] = named_arg(op, op->args[a],
				    op->arg_params ? op->arg_params[a] : NULL, d, out);
	if (s)
		return s;
	snprintf(what, sizeof what, "mode %s", ub_modes[mode].name);
	struct ub_job job = { .src = src, .unit = cfg->kernel_unit, .name = op->kernel,
			      .opts = ub_modes[mode].opts, .entry = op->entry,
			      .shown = op->entry_shown, .args = args, .nargs = op->nargs,
			      .n = n, .geom = cfg->geom, .what = what,
			      .launcher = cfg->launcher, .ptx = cfg->ptx, .checks = &rc->c,
			      .toolkit = cfg->toolkit };
	return run_written(cfg, &job, out, approx, &rc->sched, err);
}

static struct ub_row *new_row(struct ub_result *res, const struct ub_data *d,
			      int out, const char *mode, const char *opts)
{
	return ub_row_new(res, d, out, d->torch.data != NULL, mode, opts);
}

/* The row of results y, which are d's array out (result.h), and its
 * figures when cfg asks for them. */
static int add_row(struct ub_result *res, const struct ub_data *d, int out,
		   const char *mode, const char *opts, const struct ub_array *y,
		   uint64_t approx, const struct rowchk *rc, struct ub_error *err)
{
	struct ub_row *r = new_row(res, d, out, mode, opts);
	const struct ub_array *torch = r->has_torch ? &d->torch : NULL;
	struct ub_measure m = {.y = y, .cr = &d->cr, .exact = d->exact,
			       .torch = torch, .nin = d->nin, .in = d->in};
	if (ub_stats_measure(&m, &r->st))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	r->st.checks = (uint64_t)ub_checks_kind(&rc->c);
	r->st.hazards = rc->c.hazards;
	r->st.schedules = rc->sched.schedules;
	r->st.sched_diff = rc->sched.sched_diff;
	r->st.sched_dist = rc->sched.sched_dist;
	snprintf(r->hazard, sizeof r->hazard, "%s", rc->c.hazard);
	r->has_worst = r->st.ncomparable > 0;
	ub_row_set_approx(r, approx);
	if (!res->cfg->figures)
		return 0;
	if (!(r->fig = ub_figs_new(d->dt, d->nin, r->has_torch)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	ub_figs_add(r->fig, d->in, y, &d->cr, d->exact, torch, 0);
	return 0;
}

/* A row as add_row makes it, for a run of another toolkit
 * (run_toolkits.c), whose kernel ub_run_mode ran: no checks' figures. */
int ub_run_add_row(struct ub_result *res, const struct ub_data *d, int out,
		   const char *mode, const char *opts,
		   const struct ub_array *y, uint64_t approx, struct ub_error *err)
{
	struct rowchk rc = { .c = { 0 } };
	return add_row(res, d, out, mode, opts, y, approx, &rc, err);
}

/* Reports a finished stage to cfg->progress. */
static void stage_done(struct ub_result *res, const struct ub_data *d,
		       const char *what)
{
	const struct ub_config *cfg = res->cfg;
	char buf[128];
	if (!cfg->progress)
		return;
	snprintf(buf, sizeof buf, "%s %s %s", cfg->op->name,
		 ub_dtypes[d->dt].name, what);
	cfg->progress(cfg->progress_ctx, ++res->stages_done,
		      cfg->ndtypes * (1 + (cfg->op->nsteps > 0) + cfg->nmodes),
		      d->in[0].n, buf);
}

/* A row for mode m that does not apply to this kernel (why: na). */
static void add_na_row(struct ub_result *res, const struct ub_data *d, int m,
		       const char *na)
{
	struct ub_row *r = new_row(res, d, UB_ROW_NONE,
				   ub_modes[res->cfg->modes[m]].name,
				   ub_modes[res->cfg->modes[m]].opts);
	r->na = na;
}

static int run_dtype(struct ub_result *res, struct ub_data *d,
		     const char *src, struct ub_error *err)
{
	const struct ub_config *cfg = res->cfg;
	int s = ub_run_inputs(cfg, d, err);
	size_t n = d->n = s ? 0 : d->in[0].n;
	if (!s && !(d->exact = calloc(n ? n : 1, sizeof *d->exact)))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s) {
		ub_ref_set_budget(cfg->ref_budget);
		s = ub_ref_eval_array_auto(cfg->op->math, d->dt, d->in, d->nin,
					   !cfg->ref_mpfr, &d->cr, d->exact, err);
	}
	if (!s && ub_op_acc(cfg->op))   /* the kernel adds to +0 */
		ub_acc_step(&d->cr, d->exact);
	if (!s)
		stage_done(res, d, "reference");
	uint64_t torch_approx = 0;
	struct rowchk trc = { .sched.schedules = 1 };
	if (!s && cfg->op->nsteps) /* an op without :torch has no torch row */
		s = run_torch(cfg, d, &torch_approx, &trc.c, err);
	if (!s && cfg->op->nsteps && ub_op_acc(cfg->op))
		ub_acc_step(&d->torch, NULL);
	if (!s && cfg->op->nsteps)
		stage_done(res, d, "torch plan");
	for (int m = 0; !s && m < cfg->nmodes; m++) {
		uint64_t approx = 0;
		d->nmodes = m + 1;
		if (!ub_mode_applies(cfg->modes[m], d->dt))
			continue; /* no row; d->out[m] stays empty */
		const char *na = ub_mode_na(cfg, cfg->modes[m], src);
		if (na) {
			add_na_row(res, d, m, na);
			continue;
		}
		struct rowchk rc = { .c = { 0 } };
		s = run_mode(cfg, src, cfg->modes[m], d, &d->out[m], &approx, &rc, err);
		if (!s)
			s = add_row(res, d, m, ub_modes[cfg->modes[m]].name,
				    ub_modes[cfg->modes[m]].opts, &d->out[m], approx,
				    &rc, err);
		if (!s)
			stage_done(res, d, ub_modes[cfg->modes[m]].name);
	}
	if (!s && cfg->op->nsteps)
		s = add_row(res, d, UB_ROW_TORCH, "torch", UB_TORCH_OPTS, &d->torch,
			    torch_approx, &trc, err);
	return s;
}

void ub_describe_inputs(const struct ub_config *cfg, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	if (!cfg->nfiles) {
		snprintf(buf, len, "%s%s%s", cfg->exhaustive ? "exhaustive" : "random",
			 cfg->exhaustive && cfg->range.given ? " " : "",
			 cfg->exhaustive && cfg->range.given ? cfg->range.spec : "");
		return;
	}
	for (int f = 0; f < cfg->nfiles && used < len; f++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", f ? ";" : "",
					 cfg->op->inputs[cfg->files[f].input],
					 cfg->files[f].path);
}

int ub_result_init(const struct ub_config *cfg, struct ub_result *res,
		   struct ub_error *err)
{
	memset(res, 0, sizeof *res);
	res->cfg = cfg;
	ub_describe_inputs(cfg, res->inputs, sizeof res->inputs);
	res->rows = calloc((size_t)cfg->ndtypes * (UB_NMODES * UB_MAX_TOOLKITS + 1),
			   sizeof *res->rows);
	return res->rows ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
}

int ub_run(const struct ub_config *cfg, struct ub_result *res,
	   struct ub_error *err)
{
	char *src = NULL;
	int s = ub_result_init(cfg, res, err);
	const struct ub_backend *be = &ub_backend_sim;
	if (!s) /* no GPU: say so first */
		s = ub_backend_get(cfg->backend, &be, err);
	if (!s && cfg->exhaustive)
		s = ub_exhaustive_check(cfg->op, cfg->dtypes, cfg->ndtypes,
					&cfg->range, err);
	if (!s && cfg->nshards > 1 && !(cfg->stream && be == &ub_backend_sim))
		s = ub_fail(err, UB_USAGE, "--shard runs chunks on the sim backend "
			    "(here: %s; give --backend sim)", be->name);
	for (int t = 0; !s && t < cfg->ndtypes; t++) {
		struct ub_data *d = &res->data[res->ndata++];
		d->dt = cfg->dtypes[t];
		s = ub_op_for_dtype(cfg->op, d->dt, &res->ops[t], &res->held[t], err);
		res->cfgs[t] = *cfg;
		res->cfgs[t].op = &res->ops[t];
		ub_kernel_inst_apply(&res->cfgs[t], &res->ops[t], d->dt);
		res->cfg = &res->cfgs[t];
		if (!s)
			s = ub_kernel_source(res->cfg, d->dt, &src, err);
		/* the chunked driver runs the interpreter itself: sim only */
		if (!s)
			s = cfg->stream && be == &ub_backend_sim
				    ? ub_stream_dtype(res, d, src, err)
				    : run_dtype(res, d, src, err);
		free(src);
		src = NULL;
	}
	res->cfg = cfg;
	return s;
}

int ub_run_mode(const struct ub_config *cfg, enum ub_mode mode,
		struct ub_data *d, struct ub_array *out, uint64_t *approx,
		const char **na, struct ub_error *err)
{
	char *src = NULL;
	int s = ub_kernel_source(cfg, d->dt, &src, err);
	*na = s ? NULL : ub_mode_na(cfg, mode, src);
	struct rowchk rc = { .c = { 0 } };
	if (!s && !*na)
		s = run_mode(cfg, src, mode, d, out, approx, &rc, err);
	free(src);
	return s;
}

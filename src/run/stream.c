/* stream.c — the pipeline in chunks on several threads (stream.h).
 *
 * One job per dtype: the kernels compiled and parsed once (struct skern),
 * a counter of chunks that the threads take under a mutex, and one slot
 * per (chunk, row) for the chunk's statistics and worst inputs, in a
 * window of a few chunks per thread.  A chunk's work (stream_chunk.c)
 * depends only on its index, never on which thread ran it or when; slots
 * are merged in chunk order as soon as the chunks before them are, and a
 * thread does not start a chunk that is a whole window ahead of the
 * merge, so memory does not grow with the number of elements. */
#include "stream_internal.h"
#include "codegen.h"
#include "backend.h"
#include "native.h"
#include "reference.h"
#include "triton.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ub_stream_threads(const struct ub_config *cfg)
{
	long n = cfg->threads > 0 ? cfg->threads : sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > UB_MAX_THREADS ? UB_MAX_THREADS : (int)n;
}

/* Compiles (NVRTC, or nvcc for a --kernel unit) and parses one kernel
 * (k->ctx set: what it is). */
static int compile(const struct ub_config *cfg, const char *src,
		   const struct ub_nvcc_unit *unit, const char *name,
		   const char *opts, int torch, struct skern *k, struct ub_error *err)
{
	char *ptx = NULL;
	size_t size;
	/* the torch plan's steps with its toolkit, the kernel with the run's */
	struct ub_job job = { .src = src, .unit = unit, .name = name, .opts = opts,
			      .arch = cfg->arch,
			      .toolkit = torch ? cfg->torch_toolkit : cfg->toolkit };
	int s = ub_job_compile(&job, 0, &ptx, &size, err);
	if (!s && (s = ptx_parse_for(ptx, k->entry, &k->m, err)) != 0)
		ub_prefix(err, s, "%s: ", k->ctx);   /* the PTX the user never saw */
	free(ptx);
	return s;
}

/* Generated kernels take their inputs, then out, then n. */
static void bind_generated(struct skern *k, int nenv)
{
	for (int v = 0; v < nenv; v++)
		k->bind[v] = v;
	k->bind[nenv] = SK_OUT;
	k->bind[nenv + 1] = SK_N;
	k->nargs = nenv + 2;
}

/* A kernel file's parameters by name (:args), as run.c binds them. */
static void bind_named(struct skern *k, const struct ub_op *op)
{
	k->nargs = op->nargs < SK_MAX_ARGS ? op->nargs : SK_MAX_ARGS;
	for (int a = 0; a < k->nargs; a++) {
		const char *nm = op->args[a];
		k->bind[a] = SK_UNBOUND;
		k->param[a] = op->arg_params ? op->arg_params[a] : NULL;
		if (strcmp(nm, "out") == 0)
			k->bind[a] = SK_OUT;
		else if (strcmp(nm, "out:acc") == 0)
			k->bind[a] = SK_OUT_ACC;
		else if (strcmp(nm, "n") == 0)
			k->bind[a] = SK_N;
		else if (nm[0] == '=') {   /* a value given in --args */
			k->bind[a] = SK_VALUE;
			k->value[a] = strtoull(nm + 1, NULL, 16);
		} else
			for (int i = 0; i < op->ninputs; i++)
				if (strcmp(nm, op->inputs[i]) == 0)
					k->bind[a] = i;
	}
}

static int compile_steps(struct job *j, struct ub_error *err)
{
	const struct ub_op *op = j->cfg->op;
	int s = 0;
	for (int k = 0; !s && k < j->nsteps; k++) {
		char *src = NULL, name[128];
		s = ub_codegen_step(op, k, j->dt, &src, err);
		snprintf(name, sizeof name, "%s.torch.%s.cu", op->name, op->torch[k].name);
		j->step[k].entry = UB_STEP_ENTRY;
		snprintf(j->step[k].ctx, sizeof j->step[k].ctx, "%s: kernel %s, "
			 "torch step %d", name, UB_STEP_ENTRY, k + 1);
		bind_generated(&j->step[k], op->ninputs + k);
		j->step[k].geom = (struct ub_geom)UB_STEP_GEOM;
		if (!s)
			s = compile(j->cfg, src, NULL, name, UB_TORCH_OPTS, 1, &j->step[k], err);
		free(src);
	}
	return s;
}

/* A --triton kernel in one mode: Triton's PTX parsed, its parameters as
 * run.c binds them (numbers and the null pointers Triton appends as
 * values), the launch as Triton's launcher's. */
static int compile_triton(const struct job *j, enum ub_mode mode,
			  struct skern *k, struct ub_error *err)
{
	const struct ub_triton *t = j->cfg->triton;
	struct ub_triton_ptx p;
	size_t n = j->n;
	int s = ub_triton_compile(t, mode, j->dt, n > INT32_MAX, &p, err);
	if (!s)
		s = ub_triton_geom(t, &p, n, &k->geom, err);
	if (!s && t->nargs + p.hidden > SK_MAX_ARGS)
		s = ub_fail(err, UB_USAGE, "%s: %s has more than %d parameters",
			    t->file, t->kernel, SK_MAX_ARGS);
	k->entry = t->kernel;
	k->nargs = s ? 0 : t->nargs + p.hidden;
	for (int a = 0; a < k->nargs; a++) {
		const char *nm = a < t->nargs ? t->args[a] : "=0";
		k->bind[a] = SK_VALUE;
		if (!strcmp(nm, "out"))
			k->bind[a] = SK_OUT;
		else if (!strcmp(nm, "n"))
			k->bind[a] = SK_N;
		else if (nm[0] == '=')
			k->value[a] = strtoull(nm + 1, NULL, 16);
		else
			for (int i = 0; i < j->cfg->op->ninputs; i++)
				if (!strcmp(nm, j->cfg->op->inputs[i]))
					k->bind[a] = i;
	}
	if (!s && (s = ptx_parse(p.ptx, &k->m, err)) != 0)
		ub_prefix(err, s, "%s: ", k->ctx);
	free(p.ptx);
	return s;
}

static int compile_modes(struct job *j, const char *src,
			 struct ub_error *err)
{
	const struct ub_config *cfg = j->cfg;
	const struct ub_op *op = cfg->op;
	char name[128];
	int s = 0;
	for (int m = 0; !s && m < cfg->nmodes; m++) {
		struct skern *k = &j->mode[m];
		if (!ub_mode_applies(cfg->modes[m], j->dt)) {
			k->skip = 1;
			continue;
		}
		if ((k->na = ub_mode_na(cfg, cfg->modes[m], src)))
			continue;
		k->entry = op->kernel ? op->entry : UB_KERNEL_ENTRY;
		snprintf(k->ctx, sizeof k->ctx, "%s: kernel %s, mode %s",
			 op->kernel ? op->kernel : ub_kernel_name(cfg, name, sizeof name),
			 op->entry_shown ? op->entry_shown : k->entry,
			 ub_modes[cfg->modes[m]].name);
		if (cfg->triton) {
			s = compile_triton(j, cfg->modes[m], k, err);
			continue;
		}
		if (op->kernel) {
			k->geom = cfg->geom;   /* --launch: kernel files */
			bind_named(k, op);
		} else {
			bind_generated(k, op->ninputs);
		}
		s = compile(cfg, src, op->kernel ? cfg->kernel_unit : NULL,
			    ub_kernel_name(cfg, name, sizeof name),
			    ub_modes[cfg->modes[m]].opts, 0, k, err);
	}
	return s;
}

/* Merges the chunks done at the frontier, in chunk order (under mu). */
static void merge_ready(struct job *j)
{
	while (j->frontier < j->nchunks && j->ready[j->frontier % j->win]) {
		const struct slot *sl = &j->slots[(j->frontier % j->win) * (size_t)j->nrows];
		for (int r = 0; r < j->nrows; r++)
			ub_stats_merge(&j->acc[r].st, &sl[r].st);
		j->ready[j->frontier % j->win] = 0;
		j->frontier++;
	}
}

/* Tells cfg->progress that chunk c is done (under mu): "atan_bwd bf16:
 * 196608 of 16777216 pairs" (elements, for one input). */
static void progress(struct job *j, size_t c)
{
	size_t first, len;
	char what[160];
	ub_chunk_span(j, c, &first, &len);
	j->elems_done += len;
	snprintf(what, sizeof what, "%s: %llu of %llu %s", j->what,
		 (unsigned long long)j->elems_done,
		 (unsigned long long)j->elems_total,
		 j->nin == 2 && j->cfg->exhaustive ? "pairs" : "elements");
	j->cfg->progress(j->cfg->progress_ctx, (int)j->done, (int)j->nchunks,
			 UB_STATS_CHUNK, what);
}

/* Unit u's chunk, part and parts (struct job). */
static void unit_of(const struct job *j, size_t u, size_t *c, int *part, int *np)
{
	if (u < j->tail0) {
		*c = u;
		*part = 0;
		*np = 1;
		return;
	}
	*c = j->tail_c[u - j->tail0];
	*part = j->tail_p[u - j->tail0];
	*np = j->tail_np[u - j->tail0];
}

/* The units of j: the last UB_TAIL_CHUNKS chunks in parts when there are
 * more chunks than that and more threads than one (a shorter run, as
 * every other chunk, whole; one thread has no one to wait for). */
static void plan_units(struct job *j)
{
	size_t k = 0;
	j->tail0 = ub_stream_threads(j->cfg) > 1 && j->nchunks > UB_TAIL_CHUNKS
		   ? j->nchunks - UB_TAIL_CHUNKS : j->nchunks;
	for (size_t c = j->tail0; c < j->nchunks; c++) {
		size_t first, len;
		ub_chunk_span(j, c, &first, &len);
		int np = len >= (size_t)UB_TAIL_PARTS * 1024 ? UB_TAIL_PARTS : 1;
		for (int p = 0; p < np; p++, k++) {
			j->tail_c[k] = c;
			j->tail_p[k] = p;
			j->tail_np[k] = np;
		}
	}
	j->nunits = j->tail0 + k;
}

/* Part `part` of np of chunk c done, its rows' statistics in sl (under
 * mu): into the chunk's slot, the chunk merged when it was the last. */
static void part_done(struct job *j, size_t c, const struct slot *sl)
{
	struct slot *to = &j->slots[(c % j->win) * (size_t)j->nrows];
	for (int r = 0; r < j->nrows; r++)   /* exact: in any order */
		ub_stats_merge(&to[r].st, &sl[r].st);
	if (--j->left[c % j->win])
		return;
	j->ready[c % j->win] = 1;
	merge_ready(j);
	j->done++;
	if (j->cfg->progress)
		progress(j, c);
}

/* Takes units until none is left or one failed.  A chunk more than `win`
 * ahead of the merge frontier waits, so memory stays bounded.  A part
 * that fails has its whole chunk run again for the message: the one a
 * run of the chunk whole gives (the first kernel to fail over the whole
 * chunk, and its first thread of that launch). */
static void *worker(void *arg)
{
	struct job *j = arg;
	struct wbuf w;
	struct ub_error e = {{0}};
	uint64_t approx[SK_MAX_ROWS] = {0};
	struct slot sl[SK_MAX_ROWS];
	int s = ub_wbuf_init(j, &w, &e);
	pthread_mutex_lock(&j->mu);
	for (;;) {
		size_t c = 0;
		int part = 0, np = 1;
		if (j->next < j->nunits)
			unit_of(j, j->next, &c, &part, &np);
		if (s && j->next < j->nunits && j->bad_chunk > c) { /* no buffers: fail the next */
			j->bad_chunk = c;
			j->bad_status = s;
			j->bad_err = e;
		}
		if (s || j->next >= j->nunits || c > j->bad_chunk)
			break;
		if (c >= j->frontier + j->win) {
			pthread_cond_wait(&j->cv, &j->mu);
			continue;
		}
		j->next++;
		if (part == 0) {   /* its first part: a fresh slot */
			memset(&j->slots[(c % j->win) * (size_t)j->nrows], 0,
			       (size_t)j->nrows * sizeof *j->slots);
			j->left[c % j->win] = (unsigned char)np;
		}
		pthread_mutex_unlock(&j->mu);
		memset(sl, 0, (size_t)j->nrows * sizeof *sl);
		s = ub_chunk_run(j, &w, c, part, np, sl, approx, &e);
		if (s && np > 1) {
			struct ub_error whole = {{0}};
			int sw = ub_chunk_run(j, &w, c, 0, 1, sl, approx, &whole);
			if (sw) {
				s = sw;
				e = whole;
			}
		}
		pthread_mutex_lock(&j->mu);
		if (s && c < j->bad_chunk) {
			j->bad_chunk = c;
			j->bad_status = s;
			j->bad_err = e;
		}
		if (!s)
			part_done(j, c, sl);
		pthread_cond_broadcast(&j->cv);
		s = 0;
	}
	for (int r = 0; r < SK_MAX_ROWS; r++)
		j->approx[r] |= approx[r];
	j->rejected += w.rejected; /* a sum: the same in any thread order */
	for (int k = 0; k < UB_NSTAGES; k++)
		j->cpu[k] += w.cpu[k];
	pthread_cond_broadcast(&j->cv);
	pthread_mutex_unlock(&j->mu);
	ub_wbuf_free(j, &w);
	ub_ref_release();
	return NULL;
}

static int run_threads(struct job *j, struct ub_error *err)
{
	pthread_t tid[UB_MAX_THREADS];
	int nt = ub_stream_threads(j->cfg), started = 0;
	if ((size_t)nt > j->nunits)
		nt = (int)j->nunits;
	j->bad_chunk = SIZE_MAX;
	pthread_mutex_init(&j->mu, NULL);
	pthread_cond_init(&j->cv, NULL);
	for (int t = 1; t < nt; t++)
		if (pthread_create(&tid[started], NULL, worker, j) == 0)
			started++;
	worker(j); /* the calling thread works too */
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_cond_destroy(&j->cv);
	pthread_mutex_destroy(&j->mu);
	if (j->bad_chunk != SIZE_MAX) {
		*err = j->bad_err;
		return j->bad_status;
	}
	return 0;
}

/* Row r of j for d; a streamed run keeps no per-element results. */
static void fill_row(struct ub_result *res, const struct ub_data *d,
		     struct job *j, int r, const char *mode,
		     const char *opts, const char *na)
{
	struct ub_row *row = ub_row_new(res, d, UB_ROW_NONE, j->nsteps > 0,
					mode, opts);
	ub_row_set_approx(row, j->approx[r]);
	row->na = na;
	if (na)
		return;
	row->st = j->acc[r].st;   /* every chunk, merged in order */
	snprintf(row->hazard, sizeof row->hazard, "%s", j->hazard[r]);
	row->fig = j->fig[r];     /* the row owns them now */
	j->fig[r] = NULL;
	row->has_worst = row->st.ncomparable > 0;
}

static void add_rows(struct ub_result *res, const struct ub_data *d,
		     struct job *j)
{
	const struct ub_config *cfg = j->cfg;
	for (int m = 0; m < cfg->nmodes; m++)
		if (!j->mode[m].skip)
			fill_row(res, d, j, m, ub_modes[cfg->modes[m]].name,
				 ub_modes[cfg->modes[m]].opts, j->mode[m].na);
	if (j->nsteps)
		fill_row(res, d, j, cfg->nmodes, "torch", UB_TORCH_OPTS, NULL);
}

/* The elements of d: files (opened and checked here, each chunk reading
 * its own elements), the sweep, or samples. */
static int plan_inputs(struct job *j, struct ub_data *d, struct ub_error *err)
{
	const struct ub_config *cfg = j->cfg;
	int s = 0;
	d->nin = j->nin;
	d->shape.ndim = 1;
	if (cfg->nfiles) {   /* --times counts the headers as inputs too */
		double t0 = cfg->times ? ub_thread_cpu() : 0;
		s = ub_open_inputs(cfg, j->dt, j->file, &d->shape, err);
		if (cfg->times)
			j->cpu[UB_STAGE_inputs] += ub_thread_cpu() - t0;
		j->files = !s;
		for (int k = j->nin; !s && k-- > 0;)   /* the files agree */
			if (j->file[k].path)
				j->n = j->file[k].n;
		d->n = j->n;
		return s;
	}
	if (cfg->exhaustive) {
		s = ub_sweep_make(j->dt, j->nin, &cfg->range, &j->sw, err);
		j->n = (size_t)j->sw.count;
	} else {
		j->n = cfg->n;
		s = ub_sampling_init(cfg->op, j->dt, (enum ub_sample)cfg->sample,
				     &j->smp, err);
	}
	d->shape.dim[0] = j->n;
	d->n = j->n;
	return s;
}

int ub_stream_dtype(struct ub_result *res, struct ub_data *d,
		    const char *src, struct ub_error *err)
{
	const struct ub_config *cfg = res->cfg;
	struct job *j = calloc(1, sizeof *j);
	if (!j)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	j->cfg = cfg;
	j->dt = d->dt;
	j->nin = cfg->op->ninputs;
	j->nsteps = cfg->op->nsteps;
	j->nrows = cfg->nmodes + (j->nsteps > 0);
	snprintf(j->what, sizeof j->what, "%s %s", cfg->op->name,
		 ub_dtypes[d->dt].name);
	int s = j->nsteps > SK_MAX_STEPS ?
		ub_fail(err, UB_USAGE, "%s: more than %d torch steps",
			cfg->op->name, SK_MAX_STEPS) : plan_inputs(j, d, err);
	/* --shard K/N: the run's chunks K, K + N, K + 2N, ... (none when K
	 * is past the last) */
	size_t all = (j->n + UB_STATS_CHUNK - 1) / UB_STATS_CHUNK;
	j->nshards = cfg->nshards > 1 ? cfg->nshards : 1;
	j->shard = cfg->nshards > 1 ? cfg->shard : 0;
	j->nchunks = all > j->shard ? (all - j->shard + j->nshards - 1) / j->nshards : 0;
	j->elems_total = j->nchunks * (uint64_t)UB_STATS_CHUNK;
	if (j->nchunks && ub_chunk_index(j, j->nchunks - 1) == all - 1)
		j->elems_total -= all * (uint64_t)UB_STATS_CHUNK - j->n; /* the short last */
	/* a few chunks per thread in flight or waiting for the in-order
	 * merge: memory does not grow with n */
	j->win = 4 * (size_t)ub_stream_threads(cfg) + 4;
	for (int r = 0; r < SK_MAX_ROWS; r++)
		j->hazard_chunk[r] = SIZE_MAX;
	plan_units(j);
	if (!s && (!(j->slots = calloc(j->win * (size_t)j->nrows, sizeof *j->slots)) ||
		   !(j->ready = calloc(j->win, 1)) || !(j->left = calloc(j->win, 1))))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	for (int r = 0; !s && cfg->figures && r < j->nrows; r++)
		if (!(j->fig[r] = ub_figs_new(j->dt, j->nin, j->nsteps > 0)))
			s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s)
		s = compile_steps(j, err);
	if (!s)
		s = compile_modes(j, src, err);
	if (!s) { /* their native code, built side by side (native.h) */
		struct ptx_module *ms[SK_MAX_STEPS + UB_NMODES];
		int nm = 0;
		for (int k = 0; k < j->nsteps; k++)
			ms[nm++] = j->step[k].m;
		for (int m = 0; m < cfg->nmodes; m++)
			ms[nm++] = j->mode[m].m;
		ub_native_use_all(ms, nm, cfg->exec, ub_stream_threads(cfg));
	}
	if (!s)
		s = run_threads(j, err);
	d->rejected = j->rejected;
	memcpy(d->cpu, j->cpu, sizeof d->cpu);
	if (!s)
		add_rows(res, d, j);
	ub_sampling_free(&j->smp);
	if (j->files)
		ub_close_inputs(j->nin, j->file);
	for (int k = 0; k < SK_MAX_STEPS; k++)
		ptx_free(j->step[k].m);
	for (int m = 0; m < UB_NMODES; m++)
		ptx_free(j->mode[m].m);
	for (int r = 0; r < SK_MAX_ROWS; r++)
		free(j->fig[r]);
	free(j->slots);
	free(j->ready);
	free(j->left);
	free(j);
	return s;
}

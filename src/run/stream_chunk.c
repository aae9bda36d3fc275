/* stream_chunk.c — one chunk of a streamed run (stream_internal.h): its
 * inputs, reference, torch plan, each mode and their statistics.  What it
 * computes depends only on the chunk's index. */
#include "backend.h"
#include "report.h"
#include "stream_internal.h"
#include "ub_bits.h"
#include "reference.h"
#include "written.h"
#include "prepare.h"
#include "schedules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Array a of n elements of dt, a piece of ar. */
static int array_in(struct ub_array *a, enum ub_dtype dt, size_t n, struct ub_arena *ar)
{
	a->dt = dt;
	a->n = n;
	a->data = ub_arena_get(ar, n * (size_t)(ub_dtypes[dt].bits / 8));
	return a->data ? 0 : UB_RUNTIME;
}

int ub_wbuf_init(const struct job *j, struct wbuf *w, struct ub_error *err)
{
	const size_t n = UB_STATS_CHUNK, arr = n * (size_t)(ub_dtypes[j->dt].bits / 8);
	int narr = j->nin + j->nsteps + 3;   /* env, cr, out, last */
	int s = 0;
	memset(w, 0, sizeof *w);
	if (ub_arena_init(&w->arena, narr * ub_arena_size(arr) +
			  ub_arena_size(n * sizeof *w->exact) + ub_stats_prep_bytes(n)))
		s = UB_RUNTIME;
	for (int k = 0; !s && k < j->nin + j->nsteps; k++)
		s = array_in(&w->env[k], j->dt, n, &w->arena);
	if (!s)
		s = array_in(&w->cr, j->dt, n, &w->arena);
	if (!s)
		s = array_in(&w->out, j->dt, n, &w->arena);
	if (!s)
		s = array_in(&w->last, j->dt, n, &w->arena);
	if (!s && !(w->exact = ub_arena_get(&w->arena, n * sizeof *w->exact)))
		s = UB_RUNTIME;
	if (!s)
		s = ub_stats_prep_in(&w->prep, n, &w->arena);
	if (!s && j->cfg->figures &&
	    !(w->fig = ub_figs_new(j->dt, j->nin, j->nsteps > 0)))
		s = UB_RUNTIME;
	if (s) {
		ub_wbuf_free(j, w);
		return ub_fail(err, UB_RUNTIME, "out of memory for a chunk");
	}
	return 0;
}

void ub_wbuf_free(const struct job *j, struct wbuf *w)
{
	(void)j;
	ub_arena_free(&w->arena);   /* the arrays, exact and prep's */
	free(w->fig);
	memset(w, 0, sizeof *w);
}

/* The chunk's inputs into env[0..nin-1], len elements from first. */
static int chunk_inputs(const struct job *j, struct wbuf *w, size_t first,
			size_t len, struct ub_error *err)
{
	const struct ub_config *cfg = j->cfg;
	if (j->files) {   /* as ub_run_inputs: the files, then saved inputs */
		int s = 0;
		for (int k = 0; !s && k < j->nin; k++)
			if (j->file[k].path)
				s = ub_npy_read_range(&j->file[k], first, len,
						      &w->env[k], err);
		if (!s && j->nin > cfg->op->nsampled)
			s = ub_saved_fill(cfg->op, j->dt, w->env, len,
					  !cfg->ref_mpfr, err);
		return s;
	}
	if (cfg->exhaustive) {
		ub_sweep_fill(&j->sw, first, w->env); /* env[k].n is len */
		return 0;
	}
	int s = ub_inputs_sample_at(j->dt, cfg->op->nsampled, &j->smp, cfg->seed,
				    first, len, w->env, &w->rejected, err);
	if (!s && j->nin > cfg->op->nsampled)   /* saved inputs */
		s = ub_saved_fill(cfg->op, j->dt, w->env, len, !cfg->ref_mpfr, err);
	return s ? ub_prefix(err, s, "%s: ", cfg->op->name) : 0;
}

static int chunk_reference(const struct job *j, struct wbuf *w, size_t len,
			   struct ub_error *err)
{
	ub_ref_set_budget(j->cfg->ref_budget); /* this thread's (reference.h) */
	return ub_ref_eval_chunk(j->cfg->op->math, j->dt, w->env, j->nin, len,
				 !j->cfg->ref_mpfr, &w->cr, w->exact, err);
}

/* Adds to a thread's failure which kernel it was and the element's place
 * and inputs: "my.cu: kernel k, mode nofma: ...; element 131232 of the
 * run: x=0x3f8200a0". */
static void where(const struct job *j, const struct wbuf *w,
		  const struct skern *k, size_t first, uint64_t t,
		  struct ub_error *err)
{
	size_t l = strlen(err->msg);
	uint64_t in[UB_MAX_INPUTS];
	char text[256];
	if (t < UB_STATS_CHUNK) {
		for (int i = 0; i < j->nin; i++)
			in[i] = ub_array_get(&w->env[i], (size_t)t);
		ub_format_inputs(j->dt, (const char *const *)j->cfg->op->inputs,
				 in, j->nin, text, sizeof text);
		snprintf(err->msg + l, sizeof err->msg - l,
			 "; element %zu of the run: %s", first + (size_t)t, text);
	}
	ub_prefix(err, 0, "%s: ", k->ctx);
}

/* Runs kernel k over env into out (len elements), launched as geom (NULL:
 * k's own); what the checks saw into chk (NULL: nobody). */
static int run_kern(const struct skern *k, const struct ub_geom *geom,
		    struct ub_array *env, const char *const *names,
		    struct ub_array *out, size_t len, uint64_t *approx,
		    uint64_t *bad_thread, struct ub_checks *chk, struct ub_error *err)
{
	struct ub_karg a[SK_MAX_ARGS];
	struct ptx_run_info info;
	for (int i = 0; i < k->nargs; i++) {
		int b = k->bind[i];
		a[i] = b >= 0 ? (struct ub_karg){.arr = &env[b], .name = names[b]} :
		       b == SK_OUT || b == SK_OUT_ACC ?
		       (struct ub_karg){.arr = out, .writable = 1, .name = "out",
					.acc = b == SK_OUT_ACC, .param = k->param[i]} :
		       (struct ub_karg){.value = b == SK_N ? len :
					b == SK_VALUE ? k->value[i] : 0};
	}
	struct ub_geom g = geom ? *geom : k->geom;
	g.label = k->ctx;   /* device printf's lines say who they are */
	int s = ub_sim_run_module(k->m, k->entry, a, k->nargs, len, &g, &info, err);
	if (!s) /* as the sim backend reports it (backend_sim.c) */
		*approx |= info.approx_mask | (info.unmarked_fp ? UB_APPROX_UNMARKED : 0);
	if (!s && chk)
		ub_checks_add(chk, &info);
	*bad_thread = s ? info.bad_thread : UINT64_MAX;
	return s;
}

/* run_kern as one launch of ub_run_written or of a schedule. */
struct launch {
	const struct skern *k;
	struct ub_array *env, *out;
	const char *const *names;
	size_t len;
	uint64_t *approx, *bad_thread;
	struct ub_checks *chk;
};

static int launch(void *ctx, struct ub_error *err)
{
	struct launch *l = ctx;
	return run_kern(l->k, NULL, l->env, l->names, l->out, l->len, l->approx,
			l->bad_thread, l->chk, err);
}

/* Schedule `seed` of the kernel into y (an :acc output starting at +0). */
static int launch_seeded(void *ctx, uint64_t seed, struct ub_array *y,
			 struct ub_error *err)
{
	struct launch *l = ctx;
	struct ub_geom g = l->k->geom;
	struct ub_checks c = { 0 };
	g.atomic_seeded = 1;
	g.atomic_seed = seed;
	memset(y->data, 0, y->n * (size_t)(ub_dtypes[y->dt].bits / 8));
	return run_kern(l->k, &g, l->env, l->names, y, l->len, l->approx,
			l->bad_thread, &c, err);
}

/* Whether kernel k's output is bound with :acc. */
static int is_acc(const struct skern *k)
{
	for (int i = 0; i < k->nargs; i++)
		if (k->bind[i] == SK_OUT_ACC)
			return 1;
	return 0;
}

/* The kernel under test over the chunk (elements first.. of j's run),
 * which must write every element of out; *unwritten when it did not (err
 * says so in full).  Its checks into chk, and its schedules (the run's
 * own and the others, schedules.h) into st. */
static int run_mode_kern(const struct job *j, const struct skern *k,
			 struct ub_array *env, const char *const *names,
			 struct ub_array *out, size_t first, size_t len,
			 uint64_t *approx, uint64_t *bad_thread, int *unwritten,
			 struct ub_checks *chk, struct ub_stats *st,
			 struct ub_error *err)
{
	struct launch l = { k, env, out, names, len, approx, bad_thread, chk };
	size_t at, count;
	int s = ub_run_written(out, is_acc(k), chk, launch, &l, &at, &count, err);
	*unwritten = !s && count;
	if (*unwritten) {
		ub_unwritten_fail(err, first + at, count, j->n, &k->geom,
				  j->cfg->triton != NULL);
		s = ub_prefix(err, UB_RUNTIME, "%s: ", k->ctx);
	}
	int ks = s ? 1 : ub_schedules_for(j->cfg->schedules, chk);
	st->schedules = (uint64_t)ks;
	if (!s && ks > 1)
		s = ub_schedules_run(out, ks, k->geom.atomic_seeded ? k->geom.atomic_seed : 0,
				     launch_seeded, &l, &st->sched_diff, &st->sched_dist,
				     err);
	return s;
}

/* What row r's launches of a chunk checked, into its statistics (after
 * measure: they are the row's own), and its first hazard into the job's
 * when this is the lowest chunk that found one. */
static void checks_done(struct job *j, int r, size_t c, const struct ub_checks *chk,
			const struct ub_stats *sched, struct ub_stats *st)
{
	st->checks = (uint64_t)ub_checks_kind(chk);
	st->hazards = chk->hazards;
	st->schedules = sched->schedules;
	st->sched_diff = sched->sched_diff;
	st->sched_dist = sched->sched_dist;
	if (!chk->hazard[0])
		return;
	pthread_mutex_lock(&j->mu);
	if (c < j->hazard_chunk[r]) {
		j->hazard_chunk[r] = c;
		snprintf(j->hazard[r], sizeof j->hazard[r], "%s", chk->hazard);
	}
	pthread_mutex_unlock(&j->mu);
}

/* Row r's statistics of the chunk of elements first.. into its slot
 * sl[r], and its figures straight into the row's (their merge has no
 * order).  Statistics and figures are functions of the row's results and
 * of what every row shares (inputs, reference, torch plan): a row whose
 * results are those of a row measured before takes its figures as they
 * are.  That row is the one measured just before (modes often give the
 * same bits), or for the torch row (y is torch) a row whose results were
 * the torch plan's: both compare with the plan in no element. */
static void measure(struct job *j, struct wbuf *w, int r, size_t first,
		    const struct ub_array *y, const struct ub_array *torch,
		    struct slot *sl)
{
	size_t bytes = y->n * (size_t)(ub_dtypes[y->dt].bits / 8);
	int src = -1;
	if (w->last_row >= 0 && w->last.n == y->n && !memcmp(w->last.data, y->data, bytes))
		src = w->last_row;
	else if (y == torch && w->torch_like >= 0)
		src = w->torch_like;
	if (src >= 0) {
		sl[r].st = sl[src].st;
	} else {
		struct ub_measure m = {.y = y, .cr = &w->cr, .torch = torch,
				       .exact = w->exact, .nin = j->nin, .in = w->env,
				       .first = first};
		ub_stats_measure_prep(&m, &w->prep, &sl[r].st);
		if (torch && y != torch && w->torch_like < 0 &&
		    !memcmp(torch->data, y->data, bytes))
			w->torch_like = r;
	}
	int fresh = src < 0 || src != w->last_row; /* w->fig: last_row's */
	if (w->fig) {
		if (fresh) {
			ub_figs_reset(w->fig);
			ub_figs_add(w->fig, w->env, y, &w->cr, w->exact, torch, first);
		}
		pthread_mutex_lock(&j->mu);
		ub_figs_merge(j->fig[r], w->fig);
		pthread_mutex_unlock(&j->mu);
	}
	if (!fresh)
		return;
	if (y == &w->out) {   /* the next mode's results go to the other buffer */
		struct ub_array t = w->last;
		w->last = w->out;
		w->out = t;
	} else {
		memcpy(w->last.data, y->data, bytes);
		w->last.n = y->n;
	}
	w->last_row = r;
}

size_t ub_chunk_index(const struct job *j, size_t c)
{
	return j->shard + c * j->nshards;
}

void ub_chunk_span(const struct job *j, size_t c, size_t *first, size_t *len)
{
	*first = ub_chunk_index(j, c) * (size_t)UB_STATS_CHUNK;
	*len = j->n - *first < UB_STATS_CHUNK ? j->n - *first : UB_STATS_CHUNK;
}

void ub_chunk_part(const struct job *j, size_t c, int part, int np, size_t *first,
		   size_t *len)
{
	size_t f, n;
	ub_chunk_span(j, c, &f, &n);
	size_t step = n / (size_t)np / 1024 * 1024;
	size_t a = (size_t)part * step, b = part == np - 1 ? n : a + step;
	*first = f + a;
	*len = b - a;
}

double ub_thread_cpu(void)
{
	struct timespec t;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t))
		return 0;
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* --times: the thread's CPU seconds so far (0 when not asked: no call). */
static double cpu_now(const struct job *j)
{
	return j->cfg->times ? ub_thread_cpu() : 0;
}

/* Ends stage st of the thread's clock: its time since *t0 into w->cpu. */
static void stage_end(const struct job *j, struct wbuf *w, int st, double *t0)
{
	if (j->cfg->times) {
		double t = cpu_now(j);
		w->cpu[st] += t - *t0;
		*t0 = t;
	}
}

int ub_chunk_run(struct job *j, struct wbuf *w, size_t c, int part, int np,
		 struct slot *sl, uint64_t *approx, struct ub_error *err)
{
	double t0 = cpu_now(j);
	size_t first, len;
	ub_chunk_part(j, c, part, np, &first, &len);
	int nm = j->cfg->nmodes;
	for (int k = 0; k < j->nin + j->nsteps; k++)
		w->env[k].n = len;
	w->cr.n = w->out.n = w->last.n = len;
	int s = chunk_inputs(j, w, first, len, err);
	stage_end(j, w, UB_STAGE_inputs, &t0);
	if (!s)
		s = chunk_reference(j, w, len, err);
	if (!s && ub_op_acc(j->cfg->op))   /* the kernel adds to +0 */
		ub_acc_step(&w->cr, w->exact);
	stage_end(j, w, UB_STAGE_reference, &t0);
	if (!s)   /* what every row's statistics share */
		ub_stats_prepare(&w->cr, w->exact, 0, len, &w->prep);
	stage_end(j, w, UB_STAGE_metrics, &t0);
	w->last_row = w->torch_like = -1;
	uint64_t t;
	const char *names[UB_MAX_INPUTS + SK_MAX_STEPS]; /* of env's arrays */
	for (int k = 0; k < j->nin + j->nsteps; k++)
		names[k] = k < j->nin ? j->cfg->op->inputs[k]
				      : j->cfg->op->torch[k - j->nin].name;
	struct ub_checks tchk = { 0 };
	for (int k = 0; !s && k < j->nsteps; k++)
		if ((s = run_kern(&j->step[k], NULL, w->env, names, &w->env[j->nin + k],
				  len, &approx[nm], &t, &tchk, err)) != 0)
			where(j, w, &j->step[k], first, t, err);
	stage_end(j, w, UB_STAGE_kernels, &t0);
	const struct ub_array *torch = j->nsteps ? &w->env[j->nin + j->nsteps - 1]
						 : NULL;
	if (!s && torch && ub_op_acc(j->cfg->op))
		ub_acc_step(&w->env[j->nin + j->nsteps - 1], NULL);
	for (int m = 0; !s && m < nm; m++) {
		if (j->mode[m].na || j->mode[m].skip)
			continue;
		int unwritten;
		struct ub_checks chk = { 0 };
		struct ub_stats sched = { 0 };
		s = run_mode_kern(j, &j->mode[m], w->env, names, &w->out, first, len,
				  &approx[m], &t, &unwritten, &chk, &sched, err);
		stage_end(j, w, UB_STAGE_kernels, &t0);
		if (!s) {
			measure(j, w, m, first, &w->out, torch, sl);
			checks_done(j, m, ub_chunk_index(j, c), &chk, &sched, &sl[m].st);
		} else if (!unwritten)
			where(j, w, &j->mode[m], first, t, err);
		stage_end(j, w, UB_STAGE_metrics, &t0);
	}
	if (!s && torch) {
		struct ub_stats one = { .schedules = 1 };
		measure(j, w, nm, first, torch, torch, sl);
		checks_done(j, nm, ub_chunk_index(j, c), &tchk, &one, &sl[nm].st);
	}
	stage_end(j, w, UB_STAGE_metrics, &t0);
	return s;
}

/* shaped_run.c — one run of a shaped op (shaped.h): inputs, the exact
 * reference per row, the kernel under every mode, one report row per
 * (dtype, output, mode). */
#include "shaped.h"
#include "shaped_internal.h"
#include "shaped_mm.h"
#include "schedules.h"
#include "backend.h"
#include "modes.h"
#include "native.h"
#include "paths.h"
#include "rowop.h"
#include "triton.h"
#include "written.h"

#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why a torch row is n/a, per dtype and output: the rows point here, and
 * a process makes one shaped run. */
static char torch_na[UB_NDTYPES][UB_SHAPED_MAX_OUT][256];

static void sdata_free(struct sdata *d)
{
	if (d->has_ro)
		ub_rowop_free(&d->ro);
	for (int k = 0; k < UB_SHAPED_MAX_IN; k++)
		ub_array_free(&d->in[k]);
	for (int k = 0; k < UB_SHAPED_NORDERS; k++)
		ub_array_free(&d->ord[k]);
	for (int k = 0; k < UB_SHAPED_NSEEDS; k++)
		for (int o = 0; o < UB_SHAPED_MAX_OUT; o++)
			ub_array_free(&d->seed[k][o]);
	free(d->dotabs);
	ub_array_free(&d->tf32);
	for (int o = 0; o < UB_SHAPED_MAX_OUT; o++) {
		ub_array_free(&d->cr[o]);
		ub_array_free(&d->torch[o]);
		for (int m = 0; m < UB_NMODES; m++)
			ub_array_free(&d->y[m][o]);
		free(d->exact[o]);
	}
}

/* Input k from its .npy file: C elements of a broadcast input; R*C of a
 * full one (its shape as the run's). */
static int read_input(const struct ub_shaped_req *q, int k, struct sdata *d,
		      size_t rows, size_t cols, struct ub_error *err)
{
	const struct ub_shaped_arg *a = &q->op->in[k];
	struct ub_shape sh;
	int s = ub_npy_read(q->files[k], d->in[k].dt, &d->in[k], &sh, err);
	size_t want = ub_shaped_is_mm(q->op) ? ub_mm_count(q, a->ext, rows, cols)
					    : ub_arg_count(a, rows, cols);
	char shape[96];
	if (ub_shaped_is_mm(q->op))
		ub_mm_shape_text(q, rows, cols, shape, sizeof shape);
	else
		snprintf(shape, sizeof shape, "%zu,%zu", rows, cols);
	if (!s && d->in[k].n != want)
		s = ub_fail(err, UB_USAGE, "%s: input %s has %zu elements: the run's "
			    "shape %s needs %s%zu", q->files[k], a->name, d->in[k].n,
			    shape, a->ext == UB_EXT_COLS ? "one a column: " : "", want);
	return s;
}

/* The run's shape: --shape, else the file of the first (rows, cols) input
 * given one (2-D: its shape; 1-D: one row), else the default. */
int ub_shaped_shape(const struct ub_shaped_req *q, enum ub_dtype dt, size_t *rows,
		    size_t *cols, struct ub_error *err)
{
	struct ub_array a = {0};
	struct ub_shape sh = {0};
	*rows = q->rows;
	*cols = q->cols;
	int k = 0;
	while (k < q->op->nin && (q->op->in[k].ext != UB_EXT_FULL || !q->files[k]))
		k++;
	if (k == q->op->nin)
		return 0;
	int s = ub_npy_read(q->files[k], dt, &a, &sh, err);
	ub_array_free(&a);
	if (s)
		return s;
	size_t r = sh.ndim == 2 ? sh.dim[0] : 1, c = sh.ndim == 2 ? sh.dim[1] :
		   sh.ndim == 1 ? sh.dim[0] : 0;
	if ((sh.ndim != 1 && sh.ndim != 2) || !r || !c)
		return ub_fail(err, UB_USAGE, "%s: input %s must be 1-D (one row) or 2-D "
			       "(rows, cols) and not empty; it has %d dimensions",
			       q->files[k], q->op->in[k].name, sh.ndim);
	if (q->shape_given && (r != q->rows || c != q->cols))
		return ub_fail(err, UB_USAGE, "%s: shape %zu,%zu differs from --shape "
			       "%zu,%zu", q->files[k], r, c, q->rows, q->cols);
	*rows = r;
	*cols = c;
	return 0;
}

/* The forward statistics not given as files: the forward's values from x
 * (input 1 of the backward ops). */
static int stats(const struct ub_shaped_req *q, struct sdata *d, size_t rows,
		 size_t cols, struct ub_error *err)
{
	int rms = q->op->kind == UB_SH_RMS_NORM_BWD, km = rms ? -1 : 3, kr = rms ? 3 : 4;
	struct ub_array m = {0}, r = {0};
	if (q->files[kr] && (km < 0 || q->files[km]))
		return 0;
	int s = ub_shaped_ref_stats(rms, &d->in[1], rows, cols, rms ? NULL : &m, &r, err);
	if (!s && km >= 0 && !q->files[km]) {
		ub_array_free(&d->in[km]);
		d->in[km] = m;
		m = (struct ub_array){0};
	}
	if (!s && !q->files[kr]) {
		ub_array_free(&d->in[kr]);
		d->in[kr] = r;
		r = (struct ub_array){0};
	}
	ub_array_free(&m);
	ub_array_free(&r);
	return s;
}

/* splitmix64's step: the seeded class indices. */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Class-index input k: its file's integers (one a row, each a class in
 * [0, cols)), else seeded uniform in [0, cols) (the 64-bit draw modulo
 * cols: a bias below cols / 2^64). */
static int classes(const struct ub_shaped_req *q, int k, struct sdata *d, size_t rows,
		   size_t cols, struct ub_error *err)
{
	const char *file = q->files[k], *nm = q->op->in[k].name;
	int64_t *v = NULL;
	size_t n = rows;
	struct ub_shape sh = {.ndim = 1};
	uint64_t seed = q->cfg->seed + (uint64_t)k;
	int s = file ? ub_npy_read_int(file, &v, &n, &sh, err) : 0;
	if (!s && sh.ndim != 1)
		s = ub_fail(err, UB_USAGE, "%s: input %s must be 1-D (one class a row); it "
			    "has %d dimensions", file, nm, sh.ndim);
	if (!s && n != rows)
		s = ub_fail(err, UB_USAGE, "%s: input %s has %zu elements: the run's shape "
			    "%zu,%zu needs one a row: %zu", file, nm, n, rows, cols, rows);
	for (size_t i = 0; !s && file && i < n; i++)
		if (v[i] < 0 || (uint64_t)v[i] >= cols)
			s = ub_fail(err, UB_USAGE, "%s: %s %lld of row %zu is not a class in "
				    "[0, %zu)", file, nm, (long long)v[i], i, cols);
	if (!s && ub_array_alloc(&d->in[k], UB_F32, rows))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	for (size_t i = 0; !s && i < rows; i++)
		ub_array_set(&d->in[k], i, (uint32_t)(file ? v[i] : (int64_t)(mix(&seed) % cols)));
	free(v);
	return s;
}

/* Integer input k of an FPCore row op: its file's integers (as many as
 * the input has elements, each in its range [lo, hi)), else seeded
 * uniform in the range (as classes() draws). */
static int ints(const struct ub_shaped_req *q, int k, struct sdata *d, size_t rows,
		size_t cols, struct ub_error *err)
{
	const struct ub_shaped_arg *a = &q->op->in[k];
	const char *file = q->files[k];
	long long lo = a->ilo, hi = ub_arg_ihi(a, cols);
	size_t want = ub_arg_count(a, rows, cols), n = want;
	int64_t *v = NULL;
	uint64_t seed = q->cfg->seed + (uint64_t)k;
	int s = file ? ub_npy_read_int(file, &v, &n, NULL, err) : 0;
	if (!s && file && n != want)
		s = ub_fail(err, UB_USAGE, "%s: input %s has %zu elements: the run's shape "
			    "%zu,%zu needs %zu (%s)", file, a->name, n, rows, cols, want,
			    ub_extent_name(a->ext));
	for (size_t i = 0; !s && file && i < n; i++)
		if (v[i] < lo || v[i] >= hi)
			s = ub_fail(err, UB_USAGE, "%s: %s %lld of element %zu is not in "
				    "[%lld, %lld)", file, a->name, (long long)v[i], i, lo, hi);
	if (!s && ub_array_alloc(&d->in[k], UB_F32, want))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	for (size_t i = 0; !s && i < want; i++)
		ub_array_set(&d->in[k], i, (uint32_t)(file ? v[i] : lo + (long long)(mix(&seed) %
						      (uint64_t)(hi - lo))));
	free(v);
	return s;
}

static int inputs(const struct ub_shaped_req *q, struct sdata *d, size_t rows,
		  size_t cols, struct ub_error *err)
{
	int s = 0, stat = 0;
	for (int k = 0; !s && k < q->op->nin; k++) {
		const struct ub_shaped_arg *a = &q->op->in[k];
		struct ub_domain dom = {.lo = a->lo, .hi = a->hi, .no_nan = 1};
		stat |= a->role == UB_ARG_STAT;
		if (a->role == UB_ARG_CLASS)
			s = classes(q, k, d, rows, cols, err);
		else if (a->role == UB_ARG_INT)
			s = ints(q, k, d, rows, cols, err);
		else if (q->files[k])
			s = read_input(q, k, d, rows, cols, err);
		else if (a->role == UB_ARG_VALUE) /* input k: seed + k (docs/reductions.md) */
			s = ub_inputs_generate(d->dt, 1, &dom, ub_shaped_is_mm(q->op) ?
					       ub_mm_count(q, a->ext, rows, cols) :
					       ub_arg_count(a, rows, cols),
					       q->cfg->seed + (uint64_t)k, &d->in[k], err);
	}
	return s || !stat ? s : stats(q, d, rows, cols, err);
}

static int reference(const struct ub_shaped_req *q, struct sdata *d, size_t rows,
		     size_t cols, struct ub_error *err)
{
	int s = 0;
	for (int o = 0; !s && o < q->op->nout; o++) {
		size_t n = ub_extent_count(q->op->out[o].ext, rows, cols);
		s = ub_array_alloc(&d->cr[o], d->dt, n) ||
		    !(d->exact[o] = calloc(n, sizeof *d->exact[o])) ?
		    ub_fail(err, UB_RUNTIME, "out of memory for the reference of %s "
			    "(%zu elements)", q->op->out[o].name, n) : 0;
	}
	if (!s && ub_shaped_is_mm(q->op)) {   /* all rows at once */
		if (!(d->dotabs = calloc(rows * cols, sizeof *d->dotabs)))
			return ub_fail(err, UB_RUNTIME, "out of memory");
		return ub_mm_ref(q, d->dt, d->in, rows, cols, &d->cr[0], d->exact[0],
				 d->dotabs, &d->undecided, err);
	}
	int acc[UB_SHAPED_MAX_OUT];
	ub_shaped_acc_inputs(q, acc);
	if (!s && q->op->kind == UB_SH_FPCORE)
		return ub_shaped_fp_ref(q->op, &d->ro, d->dt, d->in, rows, cols, acc,
					!q->cfg->ref_mpfr, d->cr, d->exact, &d->undecided, err);
	for (size_t r = 0; !s && r < rows; r++)
		s = ub_shaped_ref_row(q->op, d->dt, d->in, rows, cols, r, d->cr, d->exact,
				      &d->undecided, err);
	if (!s && ub_shaped_has_cols_out(q->op)) /* the sums over the rows */
		s = ub_shaped_ref_cols(q->op, d->dt, d->in, rows, cols, d->cr, d->exact, err);
	return s;
}

/* The launches of one mode: every output checked for unwritten elements
 * (written.h), one output inside the other. */
struct launch {
	const struct ub_shaped_req *q;
	struct ub_job *job;
	struct ub_array *y; /* the mode's outputs */
	uint64_t *approx;
	int o;              /* the output this level checks */
	const struct ub_shaped_args *sa; /* what outputs start as */
};

/* "output element 4 of 6 (the first of 2) was never written; the launch:
 * ..." for a launch over job->n rows: what each block covers, and how to
 * give one warp or one block a row. */
static void unwritten(struct ub_error *err, size_t first, size_t count, size_t n,
		      const struct ub_job *job, int triton)
{
	unsigned grid, block;
	ub_geom_grid(&job->geom, job->n, &grid, &block);
	unsigned long long per = job->geom.per_block ? job->geom.per_block : block;
	char of[64] = "", each[64];
	if (count > 1)
		snprintf(of, sizeof of, " (the first of %zu)", count);
	if (job->geom.grid)
		snprintf(each, sizeof each, "a fixed grid");
	else
		snprintf(each, sizeof each, "%llu row%s a block", per, per == 1 ? "" : "s");
	ub_fail(err, UB_RUNTIME, "output element %zu of %zu%s was never written; the "
		"launch: %u block%s of %u threads, %s, for %zu rows (%s)", first, n,
		of, grid, grid == 1 ? "" : "s", block, each, job->n, triton ?
		"Triton's launcher: --grid N, or one program a row without it" :
		"one warp a row: --launch block=32*W,per-block=W; one block a row: "
		"per-block=1");
}

static int run_level(void *ctx, struct ub_error *err)
{
	struct launch *l = ctx;
	const struct ub_backend *be = ub_config_backend(l->q->cfg);
	if (l->o == l->q->op->nout)
		return be->run(l->job, l->approx, err);
	struct launch in = *l;
	in.o++;
	size_t first, count;
	const struct ub_array *pre = l->sa ? l->sa->pre[l->o] : NULL;
	if (pre) { /* in place or accumulated: it starts as the input, written */
		memcpy(l->y[l->o].data, pre->data, pre->n * (size_t)ub_dtypes[pre->dt].bits / 8);
		return run_level(&in, err);
	}
	int s = ub_run_written(&l->y[l->o], 0, NULL, run_level, &in, &first, &count,
			       err);
	if (!s && count) {
		unwritten(err, first, count, l->y[l->o].n, l->job, l->q->cfg->triton != NULL);
		s = ub_prefix(err, UB_RUNTIME, "%s: kernel %s, %s: output %s: ",
			      l->job->name, l->job->shown ? l->job->shown : l->job->entry,
			      l->job->what, l->q->op->out[l->o].name);
	}
	return s;
}

/* One thread per row, and per column for the sums over the rows. */
static size_t threads(const struct ub_shaped_op *op, size_t rows, size_t cols)
{
	if (op->fp && op->fp->elementwise) /* an elementwise op: one per element */
		return rows * cols;
	return ub_shaped_has_cols_out(op) && cols > rows ? cols : rows;
}

/* A --triton kernel in mode mi: its PTX from Triton (or the cache), its
 * parameters args, then the ones Triton appends (null pointers), launched
 * as Triton's launcher would over the rows (ub_triton_geom: one program a
 * row unless --grid says; the metadata's dynamic .shared bytes). */
static int run_triton(const struct ub_shaped_req *q, struct sdata *d,
		      struct ub_array *y, int mi, const struct ub_geom *geom,
		      struct ub_karg *args, int nargs, const struct ub_shaped_args *sa,
		      size_t rows, uint64_t *approx, struct ub_checks *chk,
		      struct ub_error *err)
{
	const struct ub_triton *t = q->cfg->triton;
	struct ub_triton_ptx p;
	char what[48];
	snprintf(what, sizeof what, "mode %s", ub_modes[q->cfg->modes[mi]].name);
	struct ub_job job = { .name = t->file, .entry = t->kernel, .args = args,
			      .n = rows, .what = what, .exec = q->cfg->exec,
			      .checks = chk };
	int s = ub_triton_compile(t, q->cfg->modes[mi], d->dt, 0, &p, err);
	if (!s)
		s = ub_triton_geom(t, &p, rows, &job.geom, err);
	for (int a = nargs; !s && a < nargs + p.hidden; a++)
		args[a] = (struct ub_karg){0};
	job.nargs = nargs + (s ? 0 : p.hidden);
	job.ptx = p.ptx;
	job.geom.atomic_seeded = geom->atomic_seeded;
	job.geom.atomic_seed = geom->atomic_seed;
	struct launch l = { q, &job, y, approx, 0, sa };
	if (!s)
		s = run_level(&l, err);
	free(p.ptx);
	return s;
}

/* The catalog kernel's parameters (kernels/rows.cu): the inputs, the
 * outputs, rows and cols; a matrix op's inner, and bmm's batch. */
static int catalog_args(const struct ub_shaped_req *q, struct sdata *d, struct ub_array *y,
			size_t rows, size_t cols, struct ub_karg *args)
{
	const struct ub_shaped_op *op = q->op;
	int n = 0;
	for (int k = 0; k < op->nin; k++)
		args[n++] = (struct ub_karg){.arr = &d->in[k], .name = op->in[k].name};
	for (int o = 0; o < op->nout; o++)
		args[n++] = (struct ub_karg){.arr = &y[o], .writable = 1, .name = op->out[o].name};
	args[n++] = (struct ub_karg){.value = rows};
	args[n++] = (struct ub_karg){.value = cols};
	if (ub_shaped_is_mm(op))
		args[n++] = (struct ub_karg){.value = q->inner};
	if (op->kind == UB_SH_BMM)
		args[n++] = (struct ub_karg){.value = q->batch};
	return n;
}

/* Mode mi's kernel into y (the mode's outputs), launched as geom says
 * (the run's, or another atomic order's). */
static int run_mode(const struct ub_shaped_req *q, struct sdata *d, int mi,
		    struct ub_array *y, const struct ub_geom *geom, const char *src,
		    size_t rows, size_t cols, uint64_t *approx, struct ub_checks *chk,
		    struct ub_error *err)
{
	enum ub_mode m = q->cfg->modes[mi];
	const struct ub_shaped_op *op = q->op;
	const struct ub_config *cfg = q->cfg;
	struct ub_karg args[UB_MAX_KARGS + 8];
	struct ub_shaped_args sa;
	int nargs = 0, s = 0;
	char what[48];
	memset(&sa, 0, sizeof sa);
	for (int o = 0; !s && o < op->nout; o++) {
		ub_array_free(&y[o]);
		size_t n = ub_extent_count(op->out[o].ext, rows, cols);
		if ((s = ub_array_alloc(&y[o], d->dt, n)) != 0)
			s = ub_fail(err, s, "out of memory for output %s (%zu elements)",
				    op->out[o].name, n);
	}
	for (int a = 0; q->kernel && a < q->nargs && !s; a++)
		s = ub_shaped_bind(q, d, y, a, rows, cols, &sa, &args[nargs++], err);
	if (!q->kernel)
		nargs = catalog_args(q, d, y, rows, cols, args);
	snprintf(what, sizeof what, "mode %s", ub_modes[m].name);
	if (cfg->triton) {
		s = s ? s : run_triton(q, d, y, mi, geom, args, nargs, &sa, rows, approx,
				       chk, err);
		ub_shaped_args_free(&sa);
		return s;
	}
	const struct ub_backend *be = ub_config_backend(cfg);
	struct ub_job job = { .src = src, .unit = cfg->kernel_unit,
			      .name = q->kernel ? q->kernel : "rows.cu", .opts = ub_modes[m].opts,
			      .entry = q->entry ? q->entry : op->entry, .shown = cfg->op->entry_shown,
			      .args = args, .nargs = nargs, .n = threads(op, rows, cols),
			      .geom = *geom,
			      .what = what, .exec = cfg->exec, .launcher = cfg->launcher,
			      .checks = chk };
	/* one thread per row is little to run: translating it to native code
	 * costs more than interpreting it, unless asked (--exec, $ULPBENCH_EXEC) */
	if (job.exec == UB_EXEC_DEFAULT && !getenv("ULPBENCH_EXEC"))
		job.exec = UB_EXEC_INTERP;
	job.arch = be->arch(cfg->arch, cfg->arch_set);
	struct launch l = { q, &job, y, approx, 0, &sa };
	s = s ? s : run_level(&l, err);
	ub_shaped_args_free(&sa);
	if (s == UB_RUNTIME && !q->kernel && strstr(err->msg, " instructions (line ")) {
		char msg[sizeof err->msg]; /* the budget of the shipped kernel's thread */
		snprintf(msg, sizeof msg, "%s", err->msg);
		s = ub_fail(err, s, "%.700s; rows.cu runs one thread a row, and a row of %zu "
			    "columns is more than one thread may run on the sim: give fewer "
			    "columns", msg, cols);
	}
	return s;
}

/* Mode mi under its other schedules (schedules.h), each output compared
 * across them into d->sched[mi]. */
static int schedules(const struct ub_shaped_req *q, struct sdata *d, int mi,
		     const char *src, size_t rows, size_t cols, struct ub_error *err)
{
	const struct ub_config *cfg = q->cfg;
	int k = ub_schedules_for(cfg->schedules, &d->chk[mi]), nout = q->op->nout, s = 0;
	struct ub_sched sc[UB_SHAPED_MAX_OUT] = { { 0 } };
	struct ub_array y[UB_SHAPED_MAX_OUT] = { { 0 } };
	for (int o = 0; o < nout; o++)
		d->sched[mi][o].schedules = ub_checks_kind(&d->chk[mi]) ? (uint64_t)k : 0;
	for (int o = 0; !s && k > 1 && o < nout; o++)
		s = ub_sched_init(&sc[o], &d->y[mi][o], err);
	for (int i = 1; !s && i < k; i++) {
		struct ub_geom g = cfg->geom;
		struct ub_checks c = { 0 };
		uint64_t ap = 0;
		g.atomic_seeded = 1;
		g.atomic_seed = (cfg->geom.atomic_seeded ? cfg->geom.atomic_seed : 0) +
				(uint64_t)i;
		s = run_mode(q, d, mi, y, &g, src, rows, cols, &ap, &c, err);
		for (int o = 0; !s && o < nout; o++)
			ub_sched_fold(&sc[o], &y[o]);
	}
	for (int o = 0; o < nout; o++) {
		ub_sched_end(&sc[o], &d->sched[mi][o].sched_diff, &d->sched[mi][o].sched_dist);
		ub_array_free(&y[o]);
	}
	return s;
}

/* The catalog kernel's source for dt: kernels/rows.cu after the dtype's
 * define. */
static int catalog_source(enum ub_dtype dt, char **src, struct ub_error *err)
{
	char path[4096], *text;
	const char *def = dt == UB_F16 ? "#define UB_DT_F16 1\n" :
			  dt == UB_BF16 ? "#define UB_DT_BF16 1\n" : "";
	int s = ub_data_path("kernels/rows.cu", path, sizeof path, err);
	if (!s)
		s = ub_read_file(path, &text, err);
	if (s)
		return s;
	*src = malloc(strlen(def) + strlen(text) + 1);
	if (*src)
		strcat(strcpy(*src, def), text);
	free(text);
	return *src ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
}

/* The n/a row of mode m for output o, saying why; NULL when out of
 * memory. */
static struct ub_row *na_row(struct ub_result *res, const struct ub_shaped_req *q,
			     int t, int o, enum ub_mode m, const char *why)
{
	struct ub_row *r = ub_shaped_new_row(res, q, t, o, ub_modes[m].name,
					     ub_modes[m].opts);
	if (!r->op)
		return NULL;
	r->na = why;
	return r;
}

/* A mode's row: what its checks and schedules found. */
static void checked_row(struct ub_row *r, const struct ub_checks *c,
			const struct ub_stats *sched)
{
	r->st.checks = (uint64_t)ub_checks_kind(c);
	r->st.hazards = c->hazards;
	r->st.schedules = sched->schedules;
	r->st.sched_diff = sched->sched_diff;
	r->st.sched_dist = sched->sched_dist;
	snprintf(r->hazard, sizeof r->hazard, "%s", c->hazard);
}

static int run_dtype(struct ub_result *res, const struct ub_shaped_req *q, int t,
		     struct ub_error *err)
{
	const struct ub_config *cfg = q->cfg;
	struct sdata d = {.dt = cfg->dtypes[t], .seed_mode = -1};
	for (int k = 0; k < UB_SHAPED_MAX_IN; k++)
		d.in[k].dt = k < q->op->nin ? ub_shaped_in_dtype(q->op, k, d.dt) : d.dt;
	size_t rows, cols;
	char *src = NULL;
	int s = ub_shaped_shape(q, d.dt, &rows, &cols, err);
	if (!s && q->op->kind == UB_SH_FPCORE) /* its params and sizes for this run */
		d.has_ro = !(s = ub_rowop_parse(q->op->fp->text, q->op->fp->file, d.dt,
						q->param_values, rows, cols, &d.ro, err));
	if (!s)
		s = inputs(q, &d, rows, cols, err);
	if (!s)
		s = reference(q, &d, rows, cols, err);
	if (!s && ub_shaped_is_mm(q->op)) {
		s = ub_mm_torch(q, d.dt, d.in, rows, cols, 0, &d.torch[0], torch_na[t][0],
				sizeof torch_na[t][0], &d.torch_approx, err);
		if (!s && d.dt == UB_F32)   /* and with allow_tf32 */
			s = ub_mm_torch(q, d.dt, d.in, rows, cols, 1, &d.tf32, torch_na[t][0],
					sizeof torch_na[t][0], &d.tf32_approx, err);
	} else if (!s && q->op->kind == UB_SH_FPCORE) {
		s = ub_shaped_fp_torch(q, &d.ro, d.dt, d.in, rows, cols, d.torch, torch_na[t],
				       &d.torch_approx, err);
	} else if (!s) {
		s = ub_shaped_torch(q->op, d.dt, d.in, rows, cols, d.torch, torch_na[t],
				    &d.torch_approx, err);
	}
	if (!s)
		s = q->kernel ? ((src = strdup(q->kernel_src)) ? 0 :
				 ub_fail(err, UB_RUNTIME, "out of memory"))
			      : catalog_source(d.dt, &src, err);
	res->data[t].dt = d.dt;
	res->data[t].n = rows * cols;

	uint64_t approx[UB_NMODES] = {0};
	int ran[UB_NMODES] = {0};
	const char *na[UB_NMODES] = {0};
	for (int m = 0; !s && m < cfg->nmodes; m++) {
		if (!ub_mode_applies(cfg->modes[m], d.dt) ||
		    (cfg->triton && ub_triton_mode_na(cfg->modes[m])) ||
		    (q->op->kind == UB_SH_FPCORE && !q->kernel))
			continue; /* no row, as elementwise runs do; Triton: fma, nofma;
				     an FPCore row op without a kernel: torch alone */
		/* a user's kernel without what the mode changes: an n/a row */
		if (q->kernel && !cfg->triton &&
		    (na[m] = ub_kernel_mode_na(cfg->modes[m], src)))
			continue;
		s = run_mode(q, &d, m, d.y[m], &cfg->geom, src, rows, cols, &approx[m],
			     &d.chk[m], err);
		if (!s)
			s = schedules(q, &d, m, src, rows, cols, err);
		ran[m] = !s;
		if (!s && d.seed_mode < 0)
			d.seed_mode = m;
	}
	/* --orders with a kernel: the first mode again in other atomic orders */
	for (int k = 0; !s && q->orders && q->kernel && d.seed_mode >= 0 &&
	     k < UB_SHAPED_NSEEDS; k++) {
		struct ub_geom g = cfg->geom;
		uint64_t ap;
		g.atomic_seeded = 1;
		g.atomic_seed = (unsigned long long)k + 1;
		struct ub_checks c = { 0 };
		s = run_mode(q, &d, d.seed_mode, d.seed[k], &g, src, rows, cols, &ap, &c,
			     err);
	}
	for (int o = 0; !s && o < q->op->nout; o++) {
		for (int m = 0; !s && m < cfg->nmodes; m++)
			if ((ran[m] && ub_shaped_measure(res, q, t, o, m, NULL, NULL, &d,
							 approx[m], cols)) ||
			    (na[m] && !na_row(res, q, t, o, cfg->modes[m], na[m])))
				s = ub_fail(err, UB_RUNTIME, "out of memory");
			else if (ran[m])
				checked_row(&res->rows[res->nrows - 1], &d.chk[m],
					    &d.sched[m][o]);
		for (int k = 0; !s && q->orders && k < UB_SHAPED_NORDERS; k++) {
			s = ub_shaped_order_sum(k, &d.in[0], rows, cols, &d.ord[k], err);
			if (!s && ub_shaped_measure(res, q, t, o, -1, ub_shaped_orders[k], &d.ord[k], &d,
					  0, cols))
				s = ub_fail(err, UB_RUNTIME, "out of memory");
		}
		for (int k = 0; !s && q->orders && k < UB_SHAPED_NSEEDS && d.seed[k][0].data; k++)
			s = ub_shaped_seed_row(res, q, t, o, k, &d, approx[d.seed_mode], cols, err);
		if (!s && d.torch[o].data) {
			if (ub_shaped_measure(res, q, t, o, -1, "torch", NULL, &d, d.torch_approx, cols))
				s = ub_fail(err, UB_RUNTIME, "out of memory");
			if (!s && d.tf32.data &&
			    ub_shaped_measure(res, q, t, o, -1, "torch-tf32", &d.tf32, &d,
					      d.tf32_approx, cols))
				s = ub_fail(err, UB_RUNTIME, "out of memory");
			continue;
		}
		struct ub_row *r = s ? NULL : ub_shaped_new_row(res, q, t, o, "torch", UB_TORCH_OPTS);
		if (r && !r->op)
			s = ub_fail(err, UB_RUNTIME, "out of memory");
		else if (r) {
			r->na = torch_na[t][o];
			r->st.n = d.cr[o].n;   /* the header's; nothing measured */
		}
	}
	if (!s && q->dumped)
		s = ub_shaped_dump_dtype(q, &d, ran, rows, cols, err);
	free(src);
	sdata_free(&d);
	return s;
}

int ub_shaped_run(const struct ub_shaped_req *q, struct ub_result *res,
		  struct ub_error *err)
{
	const struct ub_config *cfg = q->cfg;
	int s = ub_result_init(cfg, res, err);
	size_t nrows = (size_t)cfg->ndtypes * (size_t)q->op->nout *
		       (UB_NMODES + 1 + UB_SHAPED_NORDERS + UB_SHAPED_NSEEDS);
	struct ub_row *rows = s ? NULL : realloc(res->rows, nrows * sizeof *rows);
	if (!s && !rows)
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (rows)
		res->rows = rows;
	const struct ub_backend *be;
	if (!s)
		s = ub_backend_get(cfg->backend, &be, err);
	for (int t = 0; !s && t < cfg->ndtypes; t++) {
		res->ndata = t + 1;
		s = run_dtype(res, q, t, err);
	}
	mpfr_free_cache();
	return s;
}

void ub_shaped_result_free(struct ub_result *res)
{
	for (int i = 0; res->rows && i < res->nrows; i++) {
		free((char *)res->rows[i].op);
		free((char *)res->rows[i].note);
	}
	ub_result_free(res);
}

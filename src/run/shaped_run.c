/* shaped_run.c — one run of a shaped op (shaped.h): inputs, the exact
 * reference per row, the kernel under every mode, one report row per
 * (dtype, output, mode). */
#include "shaped.h"
#include "shaped_internal.h"
#include "backend.h"
#include "modes.h"
#include "native.h"
#include "paths.h"
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
	for (int k = 0; k < UB_SHAPED_MAX_IN; k++) {
		ub_array_free(&d->in[k]);
		ub_array_free(&d->wide[k]);
	}
	for (int k = 0; k < UB_SHAPED_NORDERS; k++)
		ub_array_free(&d->ord[k]);
	for (int k = 0; k < UB_SHAPED_NSEEDS; k++)
		for (int o = 0; o < UB_SHAPED_MAX_OUT; o++)
			ub_array_free(&d->seed[k][o]);
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
	size_t want = ub_extent_count(a->ext, rows, cols);
	if (!s && d->in[k].n != want)
		s = ub_fail(err, UB_USAGE, "%s: input %s has %zu elements: the run's "
			    "shape %zu,%zu needs %s%zu", q->files[k], a->name, d->in[k].n,
			    rows, cols, a->ext == UB_EXT_COLS ? "one a column: " : "", want);
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
		else if (q->files[k])
			s = read_input(q, k, d, rows, cols, err);
		else if (a->role == UB_ARG_VALUE) /* input k: seed + k (docs/reductions.md) */
			s = ub_inputs_generate(d->dt, 1, &dom, ub_extent_count(a->ext, rows, cols),
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
	int s = ub_run_written(&l->y[l->o], run_level, &in, &first, &count, err);
	if (!s && count) {
		unwritten(err, first, count, l->y[l->o].n, l->job, l->q->cfg->triton != NULL);
		s = ub_prefix(err, UB_RUNTIME, "%s: kernel %s, %s: output %s: ",
			      l->job->name, l->job->shown ? l->job->shown : l->job->entry,
			      l->job->what, l->q->op->out[l->o].name);
	}
	return s;
}

/* What kernel parameter named nm takes. */
static struct ub_karg bind(const struct ub_shaped_req *q, struct sdata *d,
			   struct ub_array *y, const char *nm, size_t rows, size_t cols)
{
	const struct ub_shaped_op *op = q->op;
	if (!strcmp(nm, "rows") || !strcmp(nm, "cols"))
		return (struct ub_karg){.value = nm[0] == 'r' ? rows : cols};
	if (nm[0] == '=')
		return (struct ub_karg){.value = strtoull(nm + 1, NULL, 16)};
	for (int k = 0; k < op->nin; k++)
		if (!strcmp(nm, op->in[k].name))
			return (struct ub_karg){.arr = &d->in[k], .name = op->in[k].name};
	for (int o = 0; o < op->nout; o++) /* the binder's "out" is output 0 */
		if (!strcmp(nm, op->out[o].name) || (!o && !strcmp(nm, "out")))
			return (struct ub_karg){.arr = &y[o], .writable = 1,
						.name = op->out[o].name};
	return (struct ub_karg){0};
}

/* A class input's argument as 64-bit integers (each class sign-extended
 * from its int32), kept in d until the run ends. */
static int widen(const struct ub_shaped_req *q, struct sdata *d,
		 struct ub_karg *a, struct ub_error *err)
{
	int k = (int)(a->arr - d->in);
	if (k < 0 || k >= q->op->nin)
		return 0; /* not an input (the binder lets only classes here) */
	if (!d->wide[k].data) {
		if (ub_array_alloc(&d->wide[k], UB_F64, d->in[k].n))
			return ub_fail(err, UB_RUNTIME, "out of memory");
		for (size_t i = 0; i < d->in[k].n; i++)
			ub_array_set(&d->wide[k], i, (uint64_t)(int64_t)(int32_t)
				     ub_array_get(&d->in[k], i));
	}
	a->arr = &d->wide[k];
	return 0;
}

/* One thread per row, and per column for the sums over the rows. */
static size_t threads(const struct ub_shaped_op *op, size_t rows, size_t cols)
{
	return ub_shaped_has_cols_out(op) && cols > rows ? cols : rows;
}

/* A --triton kernel in mode mi: its PTX from Triton (or the cache), its
 * parameters args, then the ones Triton appends (null pointers), launched
 * as Triton's launcher would over the rows (ub_triton_geom: one program a
 * row unless --grid says; the metadata's dynamic .shared bytes). */
static int run_triton(const struct ub_shaped_req *q, struct sdata *d,
		      struct ub_array *y, int mi, const struct ub_geom *geom,
		      struct ub_karg *args, int nargs,
		      size_t rows, uint64_t *approx, struct ub_error *err)
{
	const struct ub_triton *t = q->cfg->triton;
	struct ub_triton_ptx p;
	char what[48];
	snprintf(what, sizeof what, "mode %s", ub_modes[q->cfg->modes[mi]].name);
	struct ub_job job = { .name = t->file, .entry = t->kernel, .args = args,
			      .n = rows, .what = what, .exec = q->cfg->exec };
	int s = ub_triton_compile(t, q->cfg->modes[mi], d->dt, 0, &p, err);
	if (!s)
		s = ub_triton_geom(t, &p, rows, &job.geom, err);
	for (int a = nargs; !s && a < nargs + p.hidden; a++)
		args[a] = (struct ub_karg){0};
	job.nargs = nargs + (s ? 0 : p.hidden);
	job.ptx = p.ptx;
	job.geom.atomic_seeded = geom->atomic_seeded;
	job.geom.atomic_seed = geom->atomic_seed;
	struct launch l = { q, &job, y, approx, 0 };
	if (!s)
		s = run_level(&l, err);
	free(p.ptx);
	return s;
}

/* Mode mi's kernel into y (the mode's outputs), launched as geom says
 * (the run's, or another atomic order's). */
static int run_mode(const struct ub_shaped_req *q, struct sdata *d, int mi,
		    struct ub_array *y, const struct ub_geom *geom, const char *src,
		    size_t rows, size_t cols, uint64_t *approx, struct ub_error *err)
{
	enum ub_mode m = q->cfg->modes[mi];
	const struct ub_shaped_op *op = q->op;
	const struct ub_config *cfg = q->cfg;
	struct ub_karg args[UB_MAX_KARGS + 8];
	int nargs = 0, s = 0;
	char what[48];
	for (int o = 0; !s && o < op->nout; o++) {
		ub_array_free(&y[o]);
		size_t n = ub_extent_count(op->out[o].ext, rows, cols);
		if ((s = ub_array_alloc(&y[o], d->dt, n)) != 0)
			s = ub_fail(err, s, "out of memory for output %s (%zu elements)",
				    op->out[o].name, n);
	}
	if (q->kernel) {
		for (int a = 0; a < q->nargs && !s; a++) {
			args[nargs] = bind(q, d, y, q->args[a], rows, cols);
			if (q->wide[a])
				s = widen(q, d, &args[nargs], err);
			nargs++;
		}
	} else {
		for (int k = 0; k < op->nin; k++)
			args[nargs++] = bind(q, d, y, op->in[k].name, rows, cols);
		for (int o = 0; o < op->nout; o++)
			args[nargs++] = bind(q, d, y, op->out[o].name, rows, cols);
		args[nargs++] = bind(q, d, y, "rows", rows, cols);
		args[nargs++] = bind(q, d, y, "cols", rows, cols);
	}
	snprintf(what, sizeof what, "mode %s", ub_modes[m].name);
	if (cfg->triton)
		return s ? s : run_triton(q, d, y, mi, geom, args, nargs, rows, approx, err);
	const struct ub_backend *be = ub_config_backend(cfg);
	struct ub_job job = { .src = src, .unit = cfg->kernel_unit,
			      .name = q->kernel ? q->kernel : "rows.cu", .opts = ub_modes[m].opts,
			      .entry = q->entry ? q->entry : op->entry, .shown = cfg->op->entry_shown,
			      .args = args, .nargs = nargs, .n = threads(op, rows, cols),
			      .geom = *geom,
			      .what = what, .exec = cfg->exec };
	/* one thread per row is little to run: translating it to native code
	 * costs more than interpreting it, unless asked (--exec, $ULPBENCH_EXEC) */
	if (job.exec == UB_EXEC_DEFAULT && !getenv("ULPBENCH_EXEC"))
		job.exec = UB_EXEC_INTERP;
	job.arch = be->arch(cfg->arch, cfg->arch_set);
	struct launch l = { q, &job, y, approx, 0 };
	s = s ? s : run_level(&l, err);
	if (s == UB_RUNTIME && !q->kernel && strstr(err->msg, " instructions (line ")) {
		char msg[sizeof err->msg]; /* the budget of the shipped kernel's thread */
		snprintf(msg, sizeof msg, "%s", err->msg);
		s = ub_fail(err, s, "%.700s; rows.cu runs one thread a row, and a row of %zu "
			    "columns is more than one thread may run on the sim: give fewer "
			    "columns", msg, cols);
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
	if (!s)
		s = inputs(q, &d, rows, cols, err);
	if (!s)
		s = reference(q, &d, rows, cols, err);
	if (!s)
		s = ub_shaped_torch(q->op, d.dt, d.in, rows, cols, d.torch, torch_na[t],
				    &d.torch_approx, err);
	if (!s)
		s = q->kernel ? ((src = strdup(q->kernel_src)) ? 0 :
				 ub_fail(err, UB_RUNTIME, "out of memory"))
			      : catalog_source(d.dt, &src, err);
	res->data[t].dt = d.dt;
	res->data[t].n = rows * cols;
	uint64_t approx[UB_NMODES] = {0};
	int ran[UB_NMODES] = {0};
	for (int m = 0; !s && m < cfg->nmodes; m++) {
		if (!ub_mode_applies(cfg->modes[m], d.dt) ||
		    (cfg->triton && ub_triton_mode_na(cfg->modes[m])))
			continue; /* no row, as elementwise runs do; Triton: fma, nofma */
		s = run_mode(q, &d, m, d.y[m], &cfg->geom, src, rows, cols, &approx[m], err);
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
		s = run_mode(q, &d, d.seed_mode, d.seed[k], &g, src, rows, cols, &ap, err);
	}
	for (int o = 0; !s && o < q->op->nout; o++) {
		for (int m = 0; !s && m < cfg->nmodes; m++)
			if (ran[m] && ub_shaped_measure(res, q, t, o, m, NULL, NULL, &d, approx[m], cols))
				s = ub_fail(err, UB_RUNTIME, "out of memory");
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
			continue;
		}
		struct ub_row *r = s ? NULL : ub_shaped_new_row(res, q, t, o, "torch", UB_TORCH_OPTS);
		if (r && !r->op)
			s = ub_fail(err, UB_RUNTIME, "out of memory");
		else if (r)
			r->na = torch_na[t][o];
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

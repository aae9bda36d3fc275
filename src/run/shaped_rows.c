/* shaped_rows.c — the report rows of a shaped run (shaped.h), one per
 * (dtype, output, mode or torch or order), from the arrays shaped_run.c
 * filled, and their --dump. */
#include "shaped_internal.h"
#include "shaped_mm.h"
#include "modes.h"
#include "triton.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A row of output o in mode (or torch), of d's dtype. */
struct ub_row *ub_shaped_new_row(struct ub_result *res, const struct ub_shaped_req *q,
				 int t, int o, const char *mode, const char *opts)
{
	struct ub_row *r = ub_row_new(res, &res->data[t], UB_ROW_NONE, 0, mode, opts);
	char label[96];
	snprintf(label, sizeof label, q->op->nout > 1 ? "%s:%s" : "%s", q->op->name,
		 q->op->out[o].name);
	r->op = strdup(label);
	r->output = q->op->nout > 1 ? q->op->out[o].name : NULL;
	r->nin = 0;
	enum ub_extent e = q->op->out[o].ext;
	r->coords = e == UB_EXT_FULL ? 2 : e == UB_EXT_ROWS ? 1 : 3;
	snprintf(r->launch, sizeof r->launch, q->op->fp && q->op->fp->elementwise ?
		 "one thread per element" : ub_shaped_has_cols_out(q->op) ?
		 "one thread per row and per column" : "one thread per row");
	if (q->cfg->geom.block || q->cfg->geom.per_block || q->cfg->geom.grid)
		ub_geom_format(&q->cfg->geom, r->launch, sizeof r->launch);
	if (q->cfg->launcher && ub_mode_find(mode) >= 0) /* a mode row */
		snprintf(r->launch, sizeof r->launch, "by --launcher %s", q->entry);
	if (q->cfg->triton && ub_mode_find(mode) >= 0) /* a mode row, not torch or an order */
		ub_triton_row(q->cfg->triton, r);
	return r;
}

/* The element index i of an output as coordinates (row, col); of a
 * per-row or per-column output, c[0] = i. */
static void coords(uint64_t *c, size_t i, int full, size_t cols)
{
	c[0] = full ? i / cols : i;
	c[1] = full ? i % cols : 0;
}

/* A matrix op's row: the largest |y - exact| / sum |a_k b_k| over the
 * elements with a finite result and exact value (docs/tensor-cores.md),
 * into r and its note. */
static int dot_rel(struct ub_row *r, const struct ub_array *y, const struct sdata *d,
		   const struct ub_exact *ex, size_t cols)
{
	double worst = 0;
	size_t at = 0;
	for (size_t i = 0; i < y->n; i++) {
		double v = ub_bits_to_double(y->dt, ub_array_get(y, i)), e = ex[i].hi;
		if (!isfinite(v) || !isfinite(e) || ub_exact_undecided(&ex[i]))
			continue;
		double diff = fabs((v - e) - ex[i].lo);
		double rel = d->dotabs[i] > 0 ? diff / d->dotabs[i] : diff > 0 ? INFINITY : 0;
		if (rel > worst)
			worst = rel, at = i;
	}
	char note[160];
	r->has_dot_rel = 1;
	r->dot_rel = worst;
	snprintf(note, sizeof note, "max |y - exact| / sum |%s| = %.3g at row=%zu;col=%zu",
		 r->op && !strncmp(r->op, "sdpa", 4) ? "p v" : "a b", worst, at / cols,
		 at % cols);
	return (r->note = strdup(note)) ? 0 : -1;
}

/* The row of output o for results y: mode index mi's, or (mi < 0) the
 * torch plan's (y NULL) or an order's (--orders: mode its name). */
int ub_shaped_measure(struct ub_result *res, const struct ub_shaped_req *q, int t,
		      int o, int mi, const char *mode, const struct ub_array *y,
		      const struct sdata *d, uint64_t approx, size_t cols)
{
	enum ub_mode m = mi >= 0 ? q->cfg->modes[mi] : 0;
	struct ub_row *r = mi >= 0 ? ub_shaped_new_row(res, q, t, o, ub_modes[m].name, ub_modes[m].opts)
				   : ub_shaped_new_row(res, q, t, o, mode, UB_TORCH_OPTS);
	if (!r->op)
		return -1;
	const struct ub_array *torch = d->torch[o].data ? &d->torch[o] : NULL;
	struct ub_measure me = {.y = mi >= 0 ? &d->y[mi][o] : y ? y : torch,
				.cr = &d->cr[o], .exact = d->exact[o], .torch = torch};
	r->has_torch = torch != NULL;
	if (mi < 0 && !y)
		snprintf(r->kernel, sizeof r->kernel, "torch plan (PyTorch's CUDA kernel "
			 "modelled on the host, docs/reductions.md)");
	else if (mi < 0 && strncmp(mode, "seed=", 5))
		snprintf(r->kernel, sizeof r->kernel, "host: the row sum in float, %s "
			 "order (docs/reductions.md)", mode);
	if (mi < 0 && (!y || strncmp(mode, "seed=", 5))) { /* nothing compiled */
		snprintf(r->toolkit, sizeof r->toolkit, "host");
		r->arch = "";
	}
	if (ub_shaped_is_mm(q->op) && mi < 0 && !strncmp(mode, "torch", 5))
		snprintf(r->kernel, sizeof r->kernel, "torch plan: cuBLAS's contract modelled "
			 "on the host%s (docs/tensor-cores.md)", y ? ", allow_tf32" : "");
	ub_stats_measure(&me, &r->st);
	if (d->dotabs && dot_rel(r, me.y, d, me.exact, cols))
		return -1;
	r->has_worst = r->st.ncomparable > 0;
	coords(r->st.worst_in, r->st.worst, r->coords == 2, cols);
	coords(r->st.undecided_in, r->st.first_undecided, r->coords == 2, cols);
	ub_row_set_approx(r, approx);
	return 0;
}

/* The row of output o under atomic order seed k + 1 (the first mode's
 * kernel): measured as a mode's, and how far it moved from the default
 * order (ub_shaped_spread) as its note and kernel text. */
int ub_shaped_seed_row(struct ub_result *res, const struct ub_shaped_req *q, int t,
		       int o, int k, const struct sdata *d, uint64_t approx, size_t cols,
		       struct ub_error *err)
{
	static char names[UB_SHAPED_NSEEDS][24];
	struct ub_spread sp[UB_SHAPED_NSEEDS];
	const struct ub_array *y0 = &d->y[d->seed_mode][o];
	uint64_t all = 0;
	for (int j = 0; j < UB_SHAPED_NSEEDS; j++) {
		ub_shaped_spread(y0, &d->seed[j][o], &sp[j]);
		all = sp[j].max_dist > all ? sp[j].max_dist : all;
	}
	snprintf(names[k], sizeof names[k], "seed=%d", k + 1);
	if (ub_shaped_measure(res, q, t, o, -1, names[k], &d->seed[k][o], d, approx, cols))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	struct ub_row *r = &res->rows[res->nrows - 1];
	const char *mode = ub_modes[q->cfg->modes[d->seed_mode]].name;
	char where[64] = "";
	uint64_t c[2];
	coords(c, sp[k].worst, r->coords == 2, cols);
	if (sp[k].moved)
		snprintf(where, sizeof where, r->coords == 2 ? ", at row=%llu;col=%llu" :
			 ", at row=%llu", (unsigned long long)c[0], (unsigned long long)c[1]);
	snprintf(r->kernel, sizeof r->kernel, "the kernel in mode %s under "
		 "--atomic-order seed=%d: %zu of %zu elements move from the default "
		 "order, by up to %llu ulps%s; over seeds 1..%d: up to %llu ulps", mode,
		 k + 1, sp[k].moved, y0->n, (unsigned long long)sp[k].max_dist, where,
		 UB_SHAPED_NSEEDS, (unsigned long long)all);
	r->note = strdup(r->kernel);
	return r->note ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
}

/* --dump: d's inputs, reference, mode and torch outputs, staged. */
int ub_shaped_dump_dtype(const struct ub_shaped_req *q, const struct sdata *d,
			 const int *ran, size_t rows, size_t cols, struct ub_error *err)
{
	const struct ub_shaped_op *op = q->op;
	char what[160];
	int s = 0;
	for (int k = 0; !s && k < op->nin; k++) {
		enum ub_extent e = op->in[k].ext;
		size_t r = rows, c = cols;
		if (e == UB_EXT_TABLE)   /* (trows, cols) */
			r = op->in[k].trows, e = UB_EXT_FULL;
		else if (e >= UB_EXT_MK) /* a matrix op's operand: 2-D (shaped_mm.h) */
			ub_mm_dims(q, e, rows, cols, &r, &c), e = UB_EXT_FULL;
		snprintf(what, sizeof what, "input.%s", op->in[k].name);
		s = ub_shaped_dump_stage(q->dumped, op->name, d->dt, what, &d->in[k], e, r, c,
					 ub_shaped_is_int(&op->in[k]) ? "<i4" : NULL, err);
	}
	for (int o = 0; !s && o < op->nout; o++) {
		const char *on = op->out[o].name;
		enum ub_extent e = op->out[o].ext;
		snprintf(what, sizeof what, "%s.ref", on);
		s = ub_shaped_dump_stage(q->dumped, op->name, d->dt, what, &d->cr[o], e, rows,
					 cols, NULL, err);
		for (int m = 0; !s && m < q->cfg->nmodes; m++) {
			if (!ran[m])
				continue;
			snprintf(what, sizeof what, "%s.%s", on, ub_modes[q->cfg->modes[m]].name);
			s = ub_shaped_dump_stage(q->dumped, op->name, d->dt, what, &d->y[m][o], e,
						 rows, cols, NULL, err);
		}
		snprintf(what, sizeof what, "%s.torch", on);
		if (!s && d->torch[o].data)
			s = ub_shaped_dump_stage(q->dumped, op->name, d->dt, what, &d->torch[o], e,
						 rows, cols, NULL, err);
		snprintf(what, sizeof what, "%s.torch-tf32", on);
		if (!s && d->tf32.data)
			s = ub_shaped_dump_stage(q->dumped, op->name, d->dt, what, &d->tf32, e,
						 rows, cols, NULL, err);
	}
	return s;
}


/* run_toolkits.c — a run under several CUDA toolkits (--toolkit LIST,
 * run_toolkits.h).
 *
 * The first toolkit's run is ub_run's, its per-element results kept;
 * then each mode runs under each further toolkit over the same inputs,
 * reference and torch plan (compiled by cfg->torch_toolkit), a row each,
 * MODE@NAME, measured as ub_run measures its own.  Each further row is
 * compared element by element with the first toolkit's row of the same
 * mode: how many results differ in their bits, by how much at most
 * (ordered distance), and the first instruction where the two kernels'
 * PTX differ (ptx_diff.h).  The rows of a dtype come mode by mode, each
 * mode's toolkits in the order given, then the torch plan's. */
#include "run_toolkits.h"
#include "backend.h"
#include "ptx_diff.h"
#include "run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The label of mode m under toolkit k: "fma@11.8". */
static const char *label(struct ub_result *res, const struct ub_config *cfg,
			 int k, int m)
{
	char *l = res->tklabels[k * UB_NMODES + m];
	snprintf(l, sizeof res->tklabels[0], "%s@%s", ub_modes[cfg->modes[m]].name,
		 cfg->toolkits[k]->name);
	return l;
}

/* Elements a dtype of cfg runs over, as far as known before it runs (0:
 * not known, --input files). */
static uint64_t elements(const struct ub_config *cfg, enum ub_dtype dt)
{
	struct ub_sweep sw;
	if (cfg->nfiles)
		return 0;
	if (!cfg->exhaustive)
		return cfg->n;
	return ub_sweep_make(dt, cfg->op->nsampled, &cfg->range, &sw, NULL) ? 0 : sw.count;
}

int ub_toolkits_check(const struct ub_config *cfg, int partial,
		      struct ub_error *err)
{
	if (cfg->ntoolkits < 2)
		return 0;
	if (cfg->triton)
		return ub_fail(err, UB_USAGE, "--toolkit: a --triton kernel is compiled by "
			       "Triton, not by a CUDA toolkit (give one toolkit, for the "
			       "torch plan)");
	if (partial)
		return ub_fail(err, UB_USAGE, "--toolkit: a sharded run (--partial, "
			       "--shard) takes one toolkit");
	for (int t = 0; t < cfg->ndtypes; t++)
		if (elements(cfg, cfg->dtypes[t]) > UB_TK_MAX_ELEMS)
			return ub_fail(err, UB_USAGE, "--toolkit: several toolkits keep every "
				       "element to compare them: at most %llu elements a "
				       "dtype (give -n or --range, or run one toolkit at a "
				       "time and compare the reports: ulpbench compare)",
				       (unsigned long long)UB_TK_MAX_ELEMS);
	return 0;
}

char *ub_mode_ptx(const struct ub_config *cfg, enum ub_dtype dt, int m)
{
	char *src = NULL, *ptx = NULL, name[128], arch[64];
	size_t size;
	const char *a = ub_config_backend(cfg)->arch(cfg->arch, cfg->arch_set);
	/* the PTX of a CUBIN's architecture: its virtual one */
	snprintf(arch, sizeof arch, "%s%s", strncmp(a, "sm_", 3) ? "" : "compute_",
		 strncmp(a, "sm_", 3) ? a : a + 3);
	if (cfg->triton || ub_kernel_source(cfg, dt, &src, NULL))
		return NULL;
	struct ub_job job = { .src = src, .unit = cfg->op->kernel ? cfg->kernel_unit : NULL,
			      .name = ub_kernel_name(cfg, name, sizeof name),
			      .opts = ub_modes[cfg->modes[m]].opts, .arch = arch,
			      .toolkit = cfg->toolkit };
	if (ub_job_compile(&job, 0, &ptx, &size, NULL))
		ptx = NULL;
	free(src);
	return ptx;
}

/* Row r (results y) against the first toolkit's results x of its mode. */
static void compare(struct ub_row *r, const struct ub_array *x, const struct ub_array *y,
		    const struct ub_config *c0, const struct ub_config *ck, int m)
{
	r->has_tkdiff = 1;
	for (size_t i = 0; i < y->n && i < x->n; i++) {
		uint64_t a = ub_array_get(x, i), b = ub_array_get(y, i);
		if (a != b) {
			uint64_t d = ub_distance(y->dt, a, b);
			r->tk_mismatch++;
			r->tk_max_dist = d > r->tk_max_dist ? d : r->tk_max_dist;
		}
	}
	char *pa = ub_mode_ptx(c0, y->dt, m), *pb = ub_mode_ptx(ck, y->dt, m);
	if (!pa || !pb)
		snprintf(r->tk_ptxdiff, sizeof r->tk_ptxdiff, "(no PTX to compare)");
	else if (!ub_ptx_first_diff(pa, pb, r->tk_ptxdiff, sizeof r->tk_ptxdiff))
		r->tk_ptxdiff[0] = '\0';
	free(pa);
	free(pb);
}

/* Mode m of data d under toolkit k: its row, compared with toolkit 0's. */
static int toolkit_mode(struct ub_result *res, struct ub_data *d,
			const struct ub_config *c0, int k, int m, struct ub_error *err)
{
	struct ub_config ck = *c0;
	uint64_t approx = 0;
	const char *na;
	int o = k * c0->nmodes + m, base = -1;
	ck.toolkit = c0->toolkits[k];
	if (!ub_mode_applies(c0->modes[m], d->dt))
		return 0;
	if (d->nmodes < o + 1)
		d->nmodes = o + 1;
	res->cfg = &ck;
	int s = ub_run_mode(&ck, c0->modes[m], d, &d->out[o], &approx, &na, err);
	if (!s && na) {
		struct ub_row *r = ub_row_new(res, d, UB_ROW_NONE, d->torch.data != NULL,
					      label(res, c0, k, m), ub_modes[c0->modes[m]].opts);
		r->na = na;
	} else if (!s) {
		s = ub_run_add_row(res, d, o, label(res, c0, k, m),
				   ub_modes[c0->modes[m]].opts, &d->out[o], approx, err);
	}
	for (int i = 0; !s && !na && i < res->nrows; i++)
		if (res->rows[i].data == (int)(d - res->data) && res->rows[i].out == m)
			base = i;
	if (!s && !na && base >= 0)
		compare(&res->rows[res->nrows - 1], &d->out[m], &d->out[o], c0, &ck, m);
	res->cfg = c0;
	return s ? ub_prefix(err, s, "toolkit %s: ", c0->toolkits[k]->name) : 0;
}

/* The rows of each dtype mode by mode, each mode's toolkits in order,
 * then the torch row (labels are unique within a dtype). */
static int reorder(struct ub_result *res, const struct ub_config *cfg)
{
	struct ub_row *rows = malloc((size_t)(res->nrows ? res->nrows : 1) * sizeof *rows);
	int n = 0;
	if (!rows)
		return -1;
	for (int t = 0; t < res->ndata; t++) {
		for (int m = 0; m < cfg->nmodes; m++)
			for (int k = 0; k < cfg->ntoolkits; k++)
				for (int i = 0; i < res->nrows; i++)
					if (res->rows[i].data == t &&
					    !strcmp(res->rows[i].mode, res->tklabels[k * UB_NMODES + m]))
						rows[n++] = res->rows[i];
		for (int i = 0; i < res->nrows; i++)
			if (res->rows[i].data == t && !strcmp(res->rows[i].mode, "torch"))
				rows[n++] = res->rows[i];
	}
	if (n == res->nrows)
		memcpy(res->rows, rows, (size_t)n * sizeof *rows);
	free(rows);
	return n == res->nrows ? 0 : -1;
}

int ub_run_toolkits(struct ub_config *cfg, struct ub_result *res,
		    struct ub_error *err)
{
	if (cfg->ntoolkits < 2)
		return ub_run(cfg, res, err);
	int s = ub_toolkits_check(cfg, 0, err);
	if (s) {
		memset(res, 0, sizeof *res);
		return s;
	}
	cfg->stream = 0;   /* every element kept, to compare them */
	cfg->toolkit = cfg->toolkits[0];
	s = ub_run(cfg, res, err);
	for (int i = 0; !s && i < res->nrows; i++) { /* the first toolkit's rows */
		struct ub_row *r = &res->rows[i];
		for (int m = 0; m < cfg->nmodes; m++)
			if (!strcmp(r->mode, ub_modes[cfg->modes[m]].name))
				r->mode = label(res, cfg, 0, m);
	}
	for (int t = 0; !s && t < res->ndata; t++) {
		struct ub_config *ct = &res->cfgs[t];   /* the dtype's op */
		ct->toolkit = cfg->toolkits[0];
		for (int m = 0; !s && m < cfg->nmodes; m++)
			for (int k = 1; !s && k < cfg->ntoolkits; k++)
				s = toolkit_mode(res, &res->data[t], ct, k, m, err);
	}
	res->cfg = cfg;
	if (!s && reorder(res, cfg))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	return s;
}

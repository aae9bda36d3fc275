/* partial_write.c — a part from a run's result, and its file (partial.h).
 *
 * The text is made in memory, its checksum taken, and both written
 * through an outfile (outfile.h): under a temporary name that a signal
 * removes, renamed over FILE when complete, so FILE is always either the
 * previous complete part or the new one. */
#include "partial.h"
#include "outfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ub_partial_free(struct ub_partial *p)
{
	for (int i = 0; i < p->nargs; i++)
		free(p->args[i]);
	free(p->args);
	for (int r = 0; r < p->nrows; r++)
		free(p->rows[r].fig);
	memset(p, 0, sizeof *p);
}

void ub_partial_figsets(struct ub_figs *f, struct ub_figset *set)
{
	snprintf(set[0].name, sizeof set[0].name, "sample");
	set[0].e = f->sample, set[0].n = &f->nsample, set[0].cap = UB_FIG_SAMPLE;
	snprintf(set[1].name, sizeof set[1].name, "torch");
	set[1].e = f->torch, set[1].n = &f->ntorch, set[1].cap = UB_FIG_TORCH;
	snprintf(set[2].name, sizeof set[2].name, "nan");
	set[2].e = f->nan, set[2].n = &f->nnan, set[2].cap = UB_FIG_NANS;
	for (int b = 0; b < UB_FIG_BANDS; b++) {
		struct ub_figset *t = &set[3 + b];
		snprintf(t->name, sizeof t->name, "top%d", b);
		t->e = f->top[b], t->n = &f->ntop[b], t->cap = UB_FIG_TOP;
	}
}

/* A row of res as a part keeps it (its figures copied, in index order:
 * the file is then the same whatever order they came in). */
static int copy_row(const struct ub_row *r, struct ub_prow *pr,
		    struct ub_error *err)
{
	pr->dt = r->dt;
	snprintf(pr->mode, sizeof pr->mode, "%s", r->mode);
	snprintf(pr->na, sizeof pr->na, "%s", r->na ? r->na : "");
	pr->approx = r->approx_mask;
	pr->st = r->st;
	if (r->na)
		return 0;
	if (!r->fig) /* cfg->figures is set for a part (main.c) */
		return ub_fail(err, UB_RUNTIME, "row %s %s has no figures for its part",
			       ub_dtypes[r->dt].name, r->mode);
	return (pr->fig = ub_figs_sorted(r->fig)) ? 0
		: ub_fail(err, UB_RUNTIME, "out of memory");
}

int ub_partial_from_result(const struct ub_result *res,
			   const struct ub_run_id *id, const char *const *args,
			   int nargs, struct ub_partial *p, struct ub_error *err)
{
	const struct ub_config *cfg = res->cfg;
	int s = 0;
	memset(p, 0, sizeof *p);
	p->id = *id;
	p->nin = cfg->op->ninputs;
	p->nshards = cfg->nshards > 1 ? cfg->nshards : 1;
	p->shard = cfg->nshards > 1 ? cfg->shard : 0;
	if (nargs && !(p->args = calloc((size_t)nargs, sizeof *p->args)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (; p->nargs < nargs; p->nargs++)
		if (!(p->args[p->nargs] = strdup(args[p->nargs])))
			s = ub_fail(err, UB_RUNTIME, "out of memory");
	p->ndata = res->ndata;
	for (int t = 0; t < res->ndata; t++) {
		p->data[t].dt = res->data[t].dt;
		p->data[t].n = res->data[t].n;
		p->data[t].rejected = res->data[t].rejected;
	}
	for (int r = 0; !s && r < res->nrows; r++)
		s = copy_row(&res->rows[r], &p->rows[p->nrows++], err);
	if (s)
		ub_partial_free(p);
	return s;
}

/* s %-escaped: every byte outside '!'..'~', and '%', as %XX; "" as "-"
 * (and "-" itself as "%2D") */
static void text(FILE *f, const char *s)
{
	if (!*s || !strcmp(s, "-")) {
		fputs(*s ? "%2D" : "-", f);
		return;
	}
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c <= ' ' || c > '~' || c == '%')
			fprintf(f, "%%%02X", c);
		else
			fputc(c, f);
	}
}

static void elem(FILE *f, const struct ub_fig_elem *e, int nin)
{
	fprintf(f, "e %llu %a ", (unsigned long long)e->idx, e->err);
	for (int k = 0; k < nin; k++)
		fprintf(f, "%s%llx", k ? "," : "", (unsigned long long)e->in[k]);
	fprintf(f, "%s %llx %llx %llx %llx %a\n", nin ? "" : "-",
		(unsigned long long)e->y, (unsigned long long)e->cr,
		(unsigned long long)e->torch, (unsigned long long)e->dist, e->exact);
}

/* A row's figures (figures.h), sorted: the fine bins and cells that are
 * not empty, then every set. */
static void figs(FILE *f, struct ub_figs *g, int nin)
{
	struct ub_figset set[UB_PARTIAL_NSETS];
	fprintf(f, "figs %d\n", g->has_torch);
	for (int b = 0; b < UB_FINE_BINS; b++)
		if (g->fine[b])
			fprintf(f, "fine %d %llu\n", b, (unsigned long long)g->fine[b]);
	for (int k = 0; k < nin; k++)
		for (int c = 0; c < UB_FIG_COLS; c++) {
			const struct ub_fig_cell *x = &g->cell[k][c];
			if (x->n)
				fprintf(f, "cell %d %d %llu %llu %llu %llu %a\n", k, c,
					(unsigned long long)x->n, (unsigned long long)x->nan,
					(unsigned long long)x->torch,
					(unsigned long long)x->max_dist, x->max_ulp);
		}
	ub_partial_figsets(g, set);
	for (int i = 0; i < UB_PARTIAL_NSETS; i++) {
		fprintf(f, "set %s %zu\n", set[i].name, *set[i].n);
		for (size_t j = 0; j < *set[i].n; j++)
			elem(f, &set[i].e[j], nin);
	}
}

/* The figures of one kind (UB_STATS_FIELDS), count values. */
static void put_COUNT(FILE *f, const size_t *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		fprintf(f, " %zu", v[k]);
}

static void put_MAXU(FILE *f, const uint64_t *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		fprintf(f, " %llu", (unsigned long long)v[k]);
}

static void put_XSUM(FILE *f, const struct ub_xsum *v, size_t n)
{
	char buf[UB_XSUM_TEXT];
	for (size_t k = 0; k < n; k++) { /* one word: " inf" as "_inf" */
		ub_xsum_format(&v[k], buf, sizeof buf);
		for (char *c = buf; *c; c++)
			*c = *c == ' ' ? '_' : *c;
		fprintf(f, " %s", buf);
	}
}

static void row(FILE *f, const struct ub_prow *r, int nin)
{
	fprintf(f, "row %s ", ub_dtypes[r->dt].name);
	text(f, r->mode);
	fputs("\nna ", f);
	text(f, r->na);
	fprintf(f, "\napprox %llx\n", (unsigned long long)r->approx);
#define X(kind, name, dims)                                                    \
	fputs("stat " #name, f);                                               \
	put_##kind(f, (const ub_stats_##kind *)&r->st.name,                    \
		   sizeof r->st.name / sizeof(ub_stats_##kind));               \
	fputc('\n', f);
	UB_STATS_FIELDS(X)
#undef X
	fprintf(f, "worst %a %zu", r->st.max_ulp, r->st.worst);
	for (int k = 0; k < nin; k++)
		fprintf(f, " %llx", (unsigned long long)r->st.worst_in[k]);
	fprintf(f, "\nfirst_undecided %zu", r->st.first_undecided);
	for (int k = 0; k < nin; k++)
		fprintf(f, " %llx", (unsigned long long)r->st.undecided_in[k]);
	fputc('\n', f);
	if (r->fig)
		figs(f, r->fig, nin);
}

/* The text of p, without its checksum line. */
static void body(FILE *f, const struct ub_partial *p, int nin)
{
	fprintf(f, "%s %d\nshard %zu %zu\n", UB_PARTIAL_MAGIC, UB_PARTIAL_VERSION,
		p->shard, p->nshards);
	for (int i = 0; i < UB_NID; i++) {
		fprintf(f, "id %s ", ub_run_id_names[i]);
		text(f, p->id.v[i]);
		fputc('\n', f);
	}
	for (int i = 0; i < p->nargs; i++) {
		fputs("arg ", f);
		text(f, p->args[i]);
		fputc('\n', f);
	}
	fprintf(f, "inputs %d\n", nin);
	for (int t = 0; t < p->ndata; t++)
		fprintf(f, "data %s %zu %llu\n", ub_dtypes[p->data[t].dt].name, p->data[t].n,
			(unsigned long long)p->data[t].rejected);
	for (int r = 0; r < p->nrows; r++)
		row(f, &p->rows[r], nin);
	fputs("end\n", f);
}

int ub_partial_write(const char *path, const struct ub_partial *p,
		     struct ub_error *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	body(m, p, p->nin);
	if (fclose(m) != 0) {
		free(buf);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	struct ub_outfile o;
	int s = ub_outfile_open(&o, path, err);
	if (!s) {
		fwrite(buf, 1, len, o.f);
		fprintf(o.f, "checksum %016llx\n",
			(unsigned long long)ub_hash64(UB_HASH64_INIT, buf, len));
		s = ub_outfile_commit(&o, err);
	}
	free(buf);
	return s;
}

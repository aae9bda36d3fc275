/* html_worst.c — the worst inputs of a section, each once (html.h): every
 * row's own worst first, then each row's worst in every band of error
 * below it (figures.h keeps the worst of each band: a row whose worst is
 * an overflow still shows its worst rounding), then the largest errors
 * left, at most two inputs from the same binades; each with what every
 * row computed there (rows with the same bits grouped), the exact value,
 * and the `ulpbench explain` command that shows why, with a button that
 * copies it.  The table lists them by error, largest first. */
#include "html.h"

#include <stdlib.h>
#include <string.h>

enum { WORST_N = 16, SAME_PLACE = 2, PER_BAND = 3 };

struct cand {
	const struct ub_fig_elem *e;
	int si, band, rank;
};

static int cmp_elem(const struct ub_fig_elem *a, const struct ub_fig_elem *b)
{
	if (a->err != b->err)
		return a->err > b->err ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx ? 1 : 0;
}

static int cmp_cand(const void *pa, const void *pb)
{
	return cmp_elem(((const struct cand *)pa)->e, ((const struct cand *)pb)->e);
}

static int cmp_pick(const void *pa, const void *pb)
{
	return cmp_elem(*(const struct ub_fig_elem *const *)pa,
			*(const struct ub_fig_elem *const *)pb);
}

/* Element idx among what series s kept, or NULL. */
static const struct ub_fig_elem *find(const struct ub_hseries *s, uint64_t idx)
{
	const struct ub_figs *g = s->fig;
	for (int b = 0; b < UB_FIG_BANDS; b++)
		for (size_t i = 0; i < g->ntop[b]; i++)
			if (g->top[b][i].idx == idx)
				return &g->top[b][i];
	const struct { const struct ub_fig_elem *e; size_t n; } sets[] = {
		{ g->sample, g->nsample }, { g->nan, g->nnan }, { g->torch, g->ntorch } };
	for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++)
		for (size_t i = 0; i < sets[k].n; i++)
			if (sets[k].e[i].idx == idx)
				return &sets[k].e[i];
	return NULL;
}

static int same_place(const struct ub_hsec *sec, const struct ub_fig_elem *a,
		      const struct ub_fig_elem *b)
{
	for (int k = 0; k < sec->nin; k++)
		if (ub_fig_col(sec->dt, a->in[k]) != ub_fig_col(sec->dt, b->in[k]))
			return 0;
	return 1;
}

/* Takes element e unless it is there already or, when limit, too many
 * are from its binades or its band of error. */
static void take(const struct ub_hsec *sec, const struct ub_fig_elem **pick, int *np,
		 const struct ub_fig_elem *e, int limit)
{
	int near = 0, band = 0;
	for (int p = 0; p < *np; p++) {
		if (pick[p]->idx == e->idx)
			return;
		near += same_place(sec, pick[p], e);
		band += ub_fig_band(pick[p]->err) == ub_fig_band(e->err);
	}
	if (*np < WORST_N && (!limit || (near < SAME_PLACE && band < PER_BAND)))
		pick[(*np)++] = e;
}

/* The elements to show, into pick; returns how many. */
static int choose(const struct ub_hsec *sec, const struct ub_fig_elem **pick)
{
	size_t nc = 0;
	int np = 0;
	for (int i = 0; i < sec->ns; i++)
		for (int b = 0; b < UB_FIG_BANDS; b++)
			nc += sec->s[i].fig->ntop[b];
	struct cand *c = malloc((nc ? nc : 1) * sizeof *c);
	if (!c)
		return 0;
	nc = 0;
	for (int i = 0; i < sec->ns; i++)
		for (int b = 0; b < UB_FIG_BANDS; b++)
			for (size_t j = 0; j < sec->s[i].fig->ntop[b]; j++)
				c[nc++] = (struct cand){ &sec->s[i].fig->top[b][j], i, b, 0 };
	qsort(c, nc, sizeof *c, cmp_cand);
	int seen[UB_NMODES * UB_MAX_TOOLKITS + 1][UB_FIG_BANDS + 1]; /* a series a row */
	memset(seen, 0, sizeof seen);
	for (size_t j = 0; j < nc; j++) { /* 0: the row's worst, 1: its band's */
		int overall = seen[c[j].si][UB_FIG_BANDS]++, in_band = seen[c[j].si][c[j].band]++;
		c[j].rank = overall == 0 ? 0 : in_band == 0 ? 1 : 2;
	}
	for (size_t j = 0; j < nc; j++) /* each row's worst */
		if (c[j].rank == 0)
			take(sec, pick, &np, c[j].e, 0);
	for (size_t j = 0; j < nc; j++) /* each row's worst in each band */
		if (c[j].rank == 1)
			take(sec, pick, &np, c[j].e, 0);
	for (size_t j = 0; j < nc; j++) /* the rest, spread out */
		take(sec, pick, &np, c[j].e, 1);
	free(c);
	qsort(pick, (size_t)np, sizeof *pick, cmp_pick);
	return np;
}

/* "x=0x3f800001,g=0xbf000000" for --at. */
static void at_text(FILE *f, const struct ub_hsec *sec, const struct ub_fig_elem *e)
{
	for (int k = 0; k < sec->nin; k++) {
		fprintf(f, "%s", k ? "," : "");
		ub_html_text(f, sec->in_names[k]);
		fprintf(f, "=0x%0*llx", ub_dtypes[sec->dt].bits / 4,
			(unsigned long long)e->in[k]);
	}
}

/* The line under an entry: the explain command and its copy button. */
static void explain_row(FILE *f, const struct ub_hsec *sec, const struct ub_fig_elem *e,
			int ncols)
{
	const struct ub_config *cfg = sec->res->cfg;
	fprintf(f, "<tr class=\"why\"><td></td><td colspan=\"%d\">why: ", ncols - 1);
	if (!cfg->explain_opts) {
		fprintf(f, "<small>the explain command is not known for this run</small>"
			"</td></tr>\n");
		return;
	}
	fprintf(f, "<code>ulpbench explain ");
	if (cfg->explain_opts[0]) {
		ub_html_text(f, cfg->explain_opts);
		fputc(' ', f);
	}
	fprintf(f, "--op ");
	ub_html_text(f, cfg->op->name);
	fprintf(f, " --dtype %s --at ", ub_dtypes[sec->dt].name);
	at_text(f, sec, e);
	fprintf(f, "</code><button type=\"button\" class=\"copy\">copy</button></td></tr>\n");
}

/* What each row computed at e, rows with the same bits together. */
static void results_cell(FILE *f, const struct ub_hsec *sec, const struct ub_fig_elem *e)
{
	const struct ub_fig_elem *got[UB_NMODES * UB_MAX_TOOLKITS + 1];
	int done[UB_NMODES * UB_MAX_TOOLKITS + 1] = {0}, unknown = 0;
	fprintf(f, "<td class=\"res\">");
	for (int i = 0; i < sec->ns; i++)
		unknown += !(got[i] = find(&sec->s[i], e->idx));
	for (int i = 0; i < sec->ns; i++) {
		if (!got[i] || done[i])
			continue;
		fprintf(f, "<div>");
		for (int j = i, sep = 0; j < sec->ns; j++)
			if (got[j] && !done[j] && got[j]->y == got[i]->y) {
				done[j] = 1;
				fprintf(f, "%s<span style=\"color:%s\">", sep++ ? ", " : "",
					sec->s[j].color);
				ub_html_text(f, sec->s[j].row->mode);
				fprintf(f, "</span>");
			}
		fprintf(f, ": ");
		ub_html_bits(f, sec->dt, got[i]->y);
		fprintf(f, " <b>");
		if (got[i]->err < 0)
			fprintf(f, "NaN/inf disagreement");
		else {
			ub_html_num(f, got[i]->err);
			fprintf(f, " ulp");
		}
		fprintf(f, "</b></div>");
	}
	if (unknown)
		fprintf(f, "<div><small>%d other row%s: not kept (explain shows %s)"
			"</small></div>", unknown, unknown > 1 ? "s" : "",
			unknown > 1 ? "them" : "it");
	fprintf(f, "</td>");
}

void ub_html_worst(FILE *f, const struct ub_hsec *sec)
{
	const struct ub_fig_elem *pick[WORST_N];
	int np = choose(sec, pick), torch = sec->s[0].row->has_torch;
	int ncols = sec->nin + 4 + torch;
	if (!np)
		return;
	fprintf(f, "<h3>Worst inputs</h3>\n<table class=\"worst\"><tr><th>#</th>");
	for (int k = 0; k < sec->nin; k++) {
		fprintf(f, "<th>");
		ub_html_text(f, sec->in_names[k]);
		fprintf(f, "</th>");
	}
	fprintf(f, "<th>results (ULP error)</th><th>correctly rounded</th>%s<th>exact</th>"
		   "</tr>\n", torch ? "<th>torch plan</th>" : "");
	for (int p = 0; p < np; p++) {
		const struct ub_fig_elem *e = pick[p];
		fprintf(f, "<tr class=\"entry\"><td>%d</td>", p + 1);
		for (int k = 0; k < sec->nin; k++) {
			fprintf(f, "<td>");
			ub_html_bits(f, sec->dt, e->in[k]);
			fprintf(f, "</td>");
		}
		results_cell(f, sec, e);
		fprintf(f, "<td>");
		ub_html_bits(f, sec->dt, e->cr);
		fprintf(f, "</td>");
		if (torch) {
			fprintf(f, "<td>");
			ub_html_bits(f, sec->dt, e->torch);
			fprintf(f, "</td>");
		}
		/* the exact value to a few digits more than the format has */
		fprintf(f, "<td><small>%.*g</small></td></tr>\n",
			ub_dtypes[sec->dt].prec * 3 / 10 + 4, e->exact);
		explain_row(f, sec, e, ncols);
	}
	fprintf(f, "</table>\n<p class=\"note\">Each input once, largest error first: "
		   "every row's own worst, its worst in each band of error below that "
		   "(0.5, 1, 2, 4, 16, 256 ulp), then the largest errors left, at most %d "
		   "from the same binades of every input and %d from one band. \"copy\" "
		   "copies the command that traces, instruction by instruction, how each "
		   "mode and the torch plan computed the input.</p>\n", SAME_PLACE, PER_BAND);
}

/* report_html.c — the HTML report (--html FILE): one self-contained page
 * (inline CSS and SVG, no scripts, nothing fetched) with, per op and
 * dtype, the summary table, a plot of ULP error against each input (every
 * mode and the torch plan in its own colour; report_svg.c draws it), the
 * ULP histogram per mode, and the worst inputs with all their bits.
 *
 * Plots hold a subsample so pages stay small: SAMPLES evenly spaced
 * elements (ulpbench's random samples are in no particular order, so this
 * is a fair sample; the special values come first and are few) plus the
 * TOPK largest errors of each series and its first NANS NaN/inf
 * disagreements.  Ops with several inputs get one
 * plot per input, each against that input's value. */
#include "config.h"

#include "report.h"
#include "report_svg.h"
#include "modes.h"
#include "nvrtc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { SAMPLES = 1500, TOPK = 250, NANS = 100, WORST_ROWS = 8 };

struct elem {
	double err;
	size_t i;
};

struct series {
	const struct ub_row *row;
	const struct ub_array *y;
	struct elem *top;     /* the largest errors, worst first */
	size_t ntop;
	struct elem *pick;    /* plotted: the samples, then top */
	size_t npick;
	struct ub_plot_pt *pt;
};

/* Larger error first; the lower index first among equals. */
static int worse(const struct elem *a, const struct elem *b)
{
	return a->err > b->err || (a->err == b->err && a->i < b->i);
}

static int cmp_worst(const void *a, const void *b)
{
	return worse(a, b) ? -1 : worse(b, a) ? 1 : 0;
}

/* Keeps the TOPK worst in a heap whose root is the least bad. */
static void heap_add(struct elem *h, size_t *n, struct elem e)
{
	size_t i;
	if (*n == TOPK) {
		if (!worse(&e, &h[0]))
			return;
		for (i = 0;;) { /* sift e down from the root */
			size_t c = 2 * i + 1;
			if (c >= TOPK)
				break;
			if (c + 1 < TOPK && worse(&h[c], &h[c + 1]))
				c++;
			if (!worse(&e, &h[c]))
				break;
			h[i] = h[c];
			i = c;
		}
		h[i] = e;
		return;
	}
	for (i = (*n)++; i > 0 && worse(&h[(i - 1) / 2], &e); i = (i - 1) / 2)
		h[i] = h[(i - 1) / 2];
	h[i] = e;
}

/* Error of element i: its ULP error, or -1 for a NaN/inf disagreement. */
static double elem_err(const struct ub_data *d, const struct ub_array *y, size_t i)
{
	double e;
	if (ub_ulp_error(d->dt, ub_array_get(y, i), ub_array_get(&d->cr, i),
			 &d->exact[i], &e))
		return -1;
	return e;
}

static int scan(const struct ub_data *d, struct series *s)
{
	size_t n = d->cr.n, ns = n < SAMPLES ? n : SAMPLES;
	s->top = malloc(TOPK * sizeof *s->top);
	s->pick = malloc((ns + TOPK + NANS) * sizeof *s->pick);
	s->pt = malloc((ns + TOPK + NANS) * sizeof *s->pt);
	if (!s->top || !s->pick || !s->pt)
		return UB_RUNTIME;
	for (size_t i = 0; i < n; i++) {
		if (ub_exact_undecided(&d->exact[i]))
			continue; /* no reference value to plot against */
		double e = elem_err(d, s->y, i);
		if (e > 0)
			heap_add(s->top, &s->ntop, (struct elem){ e, i });
		else if (e < 0 && s->npick < NANS) /* the first NaN/inf ones */
			s->pick[s->npick++] = (struct elem){ e, i };
	}
	qsort(s->top, s->ntop, sizeof *s->top, cmp_worst);
	for (size_t j = 0; j < ns; j++) {
		size_t i = (size_t)((uint64_t)j * n / ns);
		s->pick[s->npick++] = (struct elem){ elem_err(d, s->y, i), i };
	}
	memcpy(s->pick + s->npick, s->top, s->ntop * sizeof *s->top);
	s->npick += s->ntop;
	return 0;
}

static void swatch(FILE *f, const char *color)
{
	fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>", color);
}

static const char *series_color(const struct series *s, int k)
{
	return strcmp(s->row->mode, "torch") ? ub_svg_color(k) : UB_SVG_TORCH_COLOR;
}

/* "0x3f800001" and, smaller, its decimal value. */
static void bits_cell(FILE *f, enum ub_dtype dt, uint64_t b)
{
	int digits = (int)ceil(ub_dtypes[dt].prec * 0.30102999566398120) + 1;
	fprintf(f, "<code>0x%0*llx</code> <small>%.*g</small>", ub_dtypes[dt].bits / 4,
		(unsigned long long)b, digits, ub_bits_to_double(dt, b));
}

/* The start of row r's line in the summary table, with an id naming
 * the row ("row-f32-fma") and its colour when it has a series. */
static void summary_start(FILE *f, const struct ub_row *r, const struct series *s,
			  int k)
{
	fprintf(f, "<tr id=\"row-%s-", ub_dtypes[r->dt].name);
	ub_html_text(f, r->mode);
	fprintf(f, "\"><td>");
	if (s)
		swatch(f, series_color(s, k));
	ub_html_text(f, r->mode);
	fprintf(f, "</td><td><code>");
	ub_html_text(f, r->options[0] ? r->options : "(defaults)");
	fprintf(f, "</code></td>");
}

/* Every row of the section, n/a ones too; s[k] are those with results. */
static void summary_table(FILE *f, const struct ub_row *const *rows, int nr,
			  const struct series *s)
{
	char worst[256], approx[256];
	fprintf(f, "<table><tr><th>mode</th><th>NVRTC options</th><th>max_ulp</th>"
		   "<th>mean_ulp</th><th>cr_mismatch</th><th>torch_mismatch</th>"
		   "<th>torch_max_dist</th><th>nan_mismatch</th><th>sim_exact</th>"
		   "<th>worst input</th></tr>\n");
	for (int i = 0, k = 0; i < nr; i++) {
		const struct ub_row *r = rows[i];
		if (r->na) {
			summary_start(f, r, NULL, 0);
			fprintf(f, "<td colspan=\"8\">n/a: ");
			ub_html_text(f, r->na);
			fprintf(f, "</td></tr>\n");
			continue;
		}
		summary_start(f, r, &s[k], k);
		k++;
		ub_format_worst(r, worst, sizeof worst);
		ub_format_approx(r->approx_mask, approx, sizeof approx);
		fprintf(f, "<td>%.4g</td><td>%.4g</td><td>%zu</td>",
			r->st.max_ulp, ub_stats_mean(&r->st), r->st.cr_mismatch);
		if (r->has_torch)
			fprintf(f, "<td>%zu</td><td>%llu</td>", r->st.torch_mismatch,
				(unsigned long long)r->st.torch_max_dist);
		else
			fprintf(f, "<td>-</td><td>-</td>");
		fprintf(f, "<td>%zu</td><td>%s", r->st.nan_mismatch, r->sim_exact ? "yes" : "no");
		if (!r->sim_exact) {
			fprintf(f, " <small>(modelled: ");
			ub_html_text(f, approx);
			fprintf(f, ")</small>");
		}
		fprintf(f, "</td><td><code>%s</code></td></tr>\n", worst[0] ? worst : "-");
	}
	fprintf(f, "</table>\n");
	for (int i = 0; i < nr; i++) { /* the reference's, the same in every row */
		const struct ub_row *r = rows[i];
		if (r->na || !r->st.undecided)
			continue;
		ub_format_inputs(r->dt, r->in_names, r->undecided_in, r->nin, worst,
				 sizeof worst);
		fprintf(f, "<p><strong>%zu element%s undecided by the reference</strong> "
			"(first: <code>%s</code>), left out of max_ulp, mean_ulp, cr_mismatch, "
			"nan_mismatch and the plot.</p>\n", r->st.undecided,
			r->st.undecided == 1 ? "" : "s", worst);
		break;
	}
}

static void worst_table(FILE *f, const struct ub_result *res, const struct ub_data *d,
			const struct series *s, int ns)
{
	const struct ub_op *op = ub_data_op(res, d);
	fprintf(f, "<table><tr><th>mode</th><th>#</th><th>ULP error</th>");
	for (int k = 0; k < d->nin; k++) {
		fprintf(f, "<th>");
		ub_html_text(f, op->inputs[k]);
		fprintf(f, "</th>");
	}
	fprintf(f, "<th>result</th><th>correctly rounded</th>%s<th>exact</th></tr>\n",
		d->torch.data ? "<th>torch</th>" : "");
	for (int k = 0; k < ns; k++)
		for (size_t j = 0; j < s[k].ntop && j < WORST_ROWS; j++) {
			size_t i = s[k].top[j].i;
			fprintf(f, "<tr><td>");
			swatch(f, series_color(&s[k], k));
			ub_html_text(f, s[k].row->mode);
			fprintf(f, "</td><td>%zu</td><td>%.4g</td>", j + 1, s[k].top[j].err);
			for (int in = 0; in < d->nin; in++) {
				fprintf(f, "<td>");
				bits_cell(f, d->dt, ub_array_get(&d->in[in], i));
				fprintf(f, "</td>");
			}
			fprintf(f, "<td>");
			bits_cell(f, d->dt, ub_array_get(s[k].y, i));
			fprintf(f, "</td><td>");
			bits_cell(f, d->dt, ub_array_get(&d->cr, i));
			if (d->torch.data) {
				fprintf(f, "</td><td>");
				bits_cell(f, d->dt, ub_array_get(&d->torch, i));
			}
			fprintf(f, "</td><td><small>%.17g</small></td></tr>\n", d->exact[i].hi);
		}
	fprintf(f, "</table>\n");
}

static void plots(FILE *f, const struct ub_result *res, const struct ub_data *d,
		  struct series *s, int ns, struct ub_plot_series *ps, int *id)
{
	for (int k = 0; k < ns; k++) {
		ps[k] = (struct ub_plot_series){ .name = s[k].row->mode,
			.color = series_color(&s[k], k), .n = s[k].npick, .pt = s[k].pt,
			.halo = !strcmp(s[k].row->mode, "torch"),
			.nan_mismatch = s[k].row->st.nan_mismatch };
		memcpy(ps[k].hist, s[k].row->st.hist, sizeof ps[k].hist);
	}
	for (int in = 0; in < d->nin; in++) {
		for (int k = 0; k < ns; k++)
			for (size_t j = 0; j < s[k].npick; j++)
				s[k].pt[j] = (struct ub_plot_pt){
					ub_bits_to_double(d->dt, ub_array_get(&d->in[in], s[k].pick[j].i)),
					s[k].pick[j].err };
		fprintf(f, "<h3>ULP error against ");
		ub_html_text(f, ub_data_op(res, d)->inputs[in]);
		fprintf(f, "</h3>\n<div class=\"plot\">");
		ub_svg_scatter(f, (*id)++, d->dt, ub_data_op(res, d)->inputs[in], ps, ns);
		fprintf(f, "</div>\n");
	}
	fprintf(f, "<p class=\"note\">Each dot is one element: %d evenly spaced ones of %zu, "
		   "the %d largest errors and the first %d NaN/inf disagreements of each "
		   "row. Exact results lie in the band below the axis, NaN/inf "
		   "disagreements in the band above it. Modes are drawn over each other "
		   "(the first listed on top) and over the torch plan's larger grey dots: "
		   "a grey ring marks agreement with torch. Click a name to hide or show "
		   "its dots.</p>\n",
		SAMPLES < d->cr.n ? SAMPLES : (int)d->cr.n, d->cr.n, TOPK, NANS);
	fprintf(f, "<h3>ULP histogram</h3>\n<div class=\"plot\">");
	ub_svg_histogram(f, (*id)++, ps, ns);
	fprintf(f, "</div>\n");
}

static void hist_table(FILE *f, const struct series *s, int ns)
{
	fprintf(f, "<table><tr><th>mode</th>");
	for (int b = 0; b < UB_HIST_BINS; b++) {
		fprintf(f, "<th>");
		ub_html_text(f, ub_hist_labels[b]);
		fprintf(f, "</th>");
	}
	fprintf(f, "<th>NaN/inf</th></tr>\n");
	for (int k = 0; k < ns; k++) {
		fprintf(f, "<tr><td>");
		swatch(f, series_color(&s[k], k));
		ub_html_text(f, s[k].row->mode);
		fprintf(f, "</td>");
		for (int b = 0; b < UB_HIST_BINS; b++)
			fprintf(f, "<td>%zu</td>", s[k].row->st.hist[b]);
		fprintf(f, "<td>%zu</td></tr>\n", s[k].row->st.nan_mismatch);
	}
	fprintf(f, "</table>\n");
}

/* The op's math and torch plan as FPCore text. */
static void op_text(FILE *f, const struct ub_op *op)
{
	const char *names[UB_MAX_INPUTS + 64];
	char buf[512];
	int nn = 0;
	for (int k = 0; k < op->ninputs; k++)
		names[nn++] = op->inputs[k];
	ub_expr_print(op->math, names, buf, sizeof buf);
	fprintf(f, "<p>math: <code>");
	ub_html_text(f, buf);
	fprintf(f, "</code><br>torch plan: ");
	if (!op->nsteps)
		fprintf(f, "none");
	for (int k = 0; k < op->nsteps && nn < UB_MAX_INPUTS + 64; k++) {
		ub_expr_print(op->torch[k].e, names, buf, sizeof buf);
		fprintf(f, "<code>");
		ub_html_text(f, op->torch[k].name);
		fprintf(f, " = R");
		ub_html_text(f, buf);
		fprintf(f, "</code>%s", k + 1 < op->nsteps ? "; " : "");
		names[nn++] = op->torch[k].name;
	}
	fprintf(f, "</p>\n");
}

/* The rows of data t, in order, and a series for each that has results
 * (all but the n/a ones), each found through the row's own link to its
 * data (ub_row_output), never by position. */
static int collect(const struct ub_result *res, int t, const struct ub_row **rows,
		   int *nr, struct series *s, int *ns)
{
	*nr = *ns = 0;
	for (int i = 0; i < res->nrows; i++) {
		const struct ub_row *r = &res->rows[i];
		if (r->data != t)
			continue;
		rows[(*nr)++] = r;
		if (r->na)
			continue;
		s[*ns].row = r;
		if (!(s[*ns].y = ub_row_output(res, r)))
			return -1; /* a measured row whose results were not kept */
		(*ns)++;
	}
	return 0;
}

static void section_body(FILE *f, const struct ub_result *res, const struct ub_data *d,
			 const struct ub_row *const *rows, int nr, struct series *s,
			 int ns, struct ub_plot_series *ps, int *id)
{
	fprintf(f, "<section>\n<h2>");
	ub_html_text(f, res->cfg->op->name);
	fprintf(f, " %s</h2>\n<p class=\"meta\">n=%zu &nbsp; seed=%llu &nbsp; inputs=",
		ub_dtypes[d->dt].name, d->cr.n, (unsigned long long)res->cfg->seed);
	ub_html_text(f, res->inputs);
	fprintf(f, " &nbsp; backend=%s &nbsp; nvrtc %s %s</p>\n", res->cfg->backend,
		ub_nvrtc_version(), res->cfg->arch);
	summary_table(f, rows, nr, s);
	if (ns) {
		plots(f, res, d, s, ns, ps, id);
		hist_table(f, s, ns);
		fprintf(f, "<h3>Worst inputs</h3>\n<p class=\"note\">The %d largest ULP "
			   "errors of each row, with the encodings (hex) and values of the "
			   "inputs and results.</p>\n", WORST_ROWS);
		worst_table(f, res, d, s, ns);
	}
	fprintf(f, "</section>\n");
}

static int section(FILE *f, const struct ub_result *res, int t, int *id,
		   struct ub_error *err)
{
	const struct ub_data *d = &res->data[t];
	size_t cap = (size_t)res->nrows + 1;
	const struct ub_row **rows = calloc(cap, sizeof *rows);
	struct series *s = calloc(cap, sizeof *s);
	struct ub_plot_series *ps = calloc(cap, sizeof *ps);
	int nr = 0, ns = 0, st = 0;
	if (!rows || !s || !ps)
		st = ub_fail(err, UB_RUNTIME, "out of memory");
	else if (collect(res, t, rows, &nr, s, &ns))
		st = ub_fail(err, UB_RUNTIME, "--html needs every element's "
			     "results, which this run did not keep");
	for (int k = 0; !st && k < ns; k++)
		if (scan(d, &s[k]))
			st = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!st)
		section_body(f, res, d, rows, nr, s, ns, ps, id);
	for (int k = 0; s && k < ns; k++) {
		free(s[k].top);
		free(s[k].pick);
		free(s[k].pt);
	}
	free(rows);
	free(s);
	free(ps);
	return st;
}

/* The most rows that one dtype's section plots. */
static int max_series(const struct ub_result *res)
{
	int most = 0;
	for (int t = 0; t < res->ndata; t++) {
		int n = 0;
		for (int i = 0; i < res->nrows; i++)
			n += res->rows[i].data == t && !res->rows[i].na;
		most = n > most ? n : most;
	}
	return most;
}

int ub_report_html(FILE *f, const struct ub_result *res, struct ub_error *err)
{
	const struct ub_op *op = res->cfg->op;
	int id = 0, s = 0;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<title>ulpbench: ");
	ub_html_text(f, op->name);
	fprintf(f, "</title>\n<style>\n"
		   "body{font:14px/1.45 sans-serif;margin:1.5em 2em;color:#222;max-width:1200px}\n"
		   "h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;"
		   "margin-top:1.6em}h3{font-size:1.05em;margin:1.3em 0 .3em}\n"
		   "table{border-collapse:collapse;margin:.4em 0}\n"
		   "th,td{border:1px solid #ddd;padding:.2em .55em;text-align:right;"
		   "vertical-align:top}\nth{background:#f4f4f4}\ntd:first-child{text-align:left;"
		   "white-space:nowrap}\ncode{font:12px monospace}\nsmall{color:#666}\n"
		   ".meta,.note{color:#555}\n.area{fill:#fcfcfc;stroke:#999}\n"
		   ".grid{stroke:#e3e3e3}\n.half{stroke:#888;stroke-dasharray:4 3}\n");
	ub_svg_style(f, max_series(res));
	fprintf(f, "</style>\n</head>\n<body>\n<h1>ulpbench: ");
	ub_html_text(f, op->name);
	if (op->desc) {
		fprintf(f, " &mdash; ");
		ub_html_text(f, op->desc);
	}
	fprintf(f, "</h1>\n");
	op_text(f, op);
	for (int t = 0; !s && t < res->ndata; t++)
		s = section(f, res, t, &id, err);
	fprintf(f, "<p class=\"note\">ULP error: |result &minus; exact| / ulp(exact); "
		   "see docs/metrics.md. Written by ulpbench %s.</p>\n</body>\n</html>\n",
		PACKAGE_VERSION);
	return s;
}

/* report_html.c — the HTML report (--html FILE): one self-contained page
 * (inline CSS, SVG and a small script; nothing fetched) that answers, per
 * op and dtype, where and by how much each mode leaves the exact answer
 * and PyTorch's result:
 *
 *  - the summary table (every row, n/a ones too) and a legend that hides
 *    or shows each row's figures;
 *  - the distribution of each row's ULP error: histogram, median, p99,
 *    p99.9, max (html_dist.c);
 *  - per input, a map of the largest ULP error per binade, rows by
 *    columns, NaN/inf disagreements in their own band (html_map.c);
 *  - per input, small multiples: one panel per row, never overlaid, for
 *    its error and one for its distance from the torch plan, on shared
 *    axes (html_panels.c, html_axis.c);
 *  - the worst inputs, each once, with the explain command (html_worst.c).
 *
 * Everything is drawn from the rows' statistics and figures (figures.h),
 * so a streamed run draws the same page as a whole-array one. */
#include "config.h"

#include "html.h"
#include "nvrtc.h"
#include "triton.h"

#include <stdlib.h>
#include <string.h>

/* The start of row r's line in the summary table, with an id naming
 * the row ("row-f32-fma") and its colour when it has figures. */
static void summary_start(FILE *f, const struct ub_row *r, const char *color)
{
	fprintf(f, "<tr id=\"row-%s-", ub_dtypes[r->dt].name);
	ub_html_text(f, r->mode);
	fprintf(f, "\"><td>");
	if (color)
		fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>", color);
	ub_html_text(f, r->mode);
	fprintf(f, "</td><td><code>");
	ub_html_text(f, r->options[0] ? r->options : "(defaults)");
	fprintf(f, "</code></td>");
}

/* What the simulator's checks found in the section's rows: racecheck's
 * hazards and the bits that move with the schedule, a paragraph each. */
static void checks_notes(FILE *f, const struct ub_hsec *sec)
{
	for (int i = 0; i < sec->nrows; i++) {
		const struct ub_row *r = sec->rows[i];
		if (r->na)
			continue;
		if (r->st.hazards) {
			fprintf(f, "<p class=\"hazard\"><strong>%s: racecheck found %llu "
				"hazard%s</strong>; the first: ", r->mode,
				(unsigned long long)r->st.hazards, r->st.hazards == 1 ? "" : "s");
			ub_html_text(f, r->hazard[0] ? r->hazard : "-");
			fprintf(f, "</p>\n");
		}
		if (r->st.schedules > 1 && r->st.sched_diff)
			fprintf(f, "<p class=\"hazard\"><strong>%s: the bits depend on the "
				"schedule</strong>: %zu of %zu elements differ across %llu "
				"schedules, by up to %llu units.</p>\n", r->mode,
				r->st.sched_diff, r->st.n, (unsigned long long)r->st.schedules,
				(unsigned long long)r->st.sched_dist);
	}
}

static void summary_table(FILE *f, const struct ub_hsec *sec)
{
	char worst[256], approx[256];
	/* a --triton run: Triton compiled the modes' kernel, NVRTC the torch plan */
	fprintf(f, "<table class=\"summary\"><tr><th>row</th><th>%s options</th>"
		   "<th>max_ulp</th><th>mean_ulp</th><th>cr_mismatch</th><th>torch_mismatch</th>"
		   "<th>torch_max_dist</th><th>nan_mismatch</th><th>sim_exact</th>"
		   "<th>worst input</th></tr>\n",
		sec->res->cfg->triton ? "Triton (torch: NVRTC)" : "NVRTC");
	for (int i = 0, k = 0; i < sec->nrows; i++) {
		const struct ub_row *r = sec->rows[i];
		if (r->na) {
			summary_start(f, r, NULL);
			fprintf(f, "<td colspan=\"8\">n/a: ");
			ub_html_text(f, r->na);
			fprintf(f, "</td></tr>\n");
			continue;
		}
		summary_start(f, r, sec->s[k++].color);
		ub_format_worst(r, worst, sizeof worst);
		ub_format_approx(r->approx_mask, approx, sizeof approx);
		if (ub_stats_no_number(&r->st))   /* nothing to measure */
			fprintf(f, "<td>- <small>(every result NaN or inf where the exact "
				"value is finite)</small></td><td>-</td><td>%zu</td>",
				r->st.cr_mismatch);
		else
			fprintf(f, "<td>%.4g</td><td>%.4g</td><td>%zu</td>",
				r->st.max_ulp, ub_stats_mean(&r->st), r->st.cr_mismatch);
		if (r->has_torch)
			fprintf(f, "<td>%zu</td><td>%llu</td>", r->st.torch_mismatch,
				(unsigned long long)r->st.torch_max_dist);
		else
			fprintf(f, "<td>-</td><td>-</td>");
		fprintf(f, "<td>%zu</td><td>%s", r->st.nan_mismatch, r->sim_exact ? "yes" : "no");
		if (approx[0]) { /* measured ones keep the row exact */
			fprintf(f, " <small>(%s: ", r->sim_exact ? "as measured on sm_90" : "modelled");
			ub_html_text(f, approx);
			fprintf(f, ")</small>");
		}
		fprintf(f, "</td><td><code>%s</code></td></tr>\n", worst[0] ? worst : "-");
	}
	fprintf(f, "</table>\n");
	checks_notes(f, sec);
	for (int i = 0; i < sec->nrows; i++) { /* the reference's, the same in every row */
		const struct ub_row *r = sec->rows[i];
		if (r->na || !r->st.undecided)
			continue;
		ub_format_inputs(r->dt, r->in_names, r->st.undecided_in, r->nin, worst,
				 sizeof worst);
		fprintf(f, "<p><strong>%zu element%s undecided by the reference</strong> "
			"(first: <code>%s</code>), left out of max_ulp, mean_ulp, cr_mismatch, "
			"nan_mismatch and the figures of error (they count in the distance "
			"from torch).</p>\n", r->st.undecided, r->st.undecided == 1 ? "" : "s",
			worst);
		break;
	}
}

static void legend(FILE *f, const struct ub_hsec *sec)
{
	fprintf(f, "<div class=\"legend\">Show: ");
	for (int i = 0; i < sec->ns; i++) {
		fprintf(f, "<label data-s=\"%d\"><input type=\"checkbox\" checked data-s=\"%d\">"
			"<span class=\"sw\" style=\"background:%s\"></span>", sec->s[i].k,
			sec->s[i].k, sec->s[i].color);
		ub_html_text(f, sec->s[i].row->mode);
		fprintf(f, "</label>");
	}
	fprintf(f, "</div>\n");
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

static void section_body(FILE *f, const struct ub_hsec *sec)
{
	const struct ub_result *res = sec->res;
	fprintf(f, "<section class=\"dtsec\" id=\"sec-%s\" data-dtype=\"%s\">\n<h2>",
		ub_dtypes[sec->dt].name, ub_dtypes[sec->dt].name);
	ub_html_text(f, res->cfg->op->name);
	fprintf(f, " %s</h2>\n<p class=\"meta\">n=%zu &nbsp; seed=%llu &nbsp; inputs=",
		ub_dtypes[sec->dt].name, sec->n, (unsigned long long)res->cfg->seed);
	ub_html_text(f, res->inputs);
	fprintf(f, " &nbsp; backend=%s &nbsp; nvrtc %s %s</p>\n",
		sec->nrows ? sec->rows[0]->backend : "-", ub_nvrtc_version(),
		sec->nrows && !res->cfg->triton ? sec->rows[0]->arch : res->cfg->arch);
	if (res->cfg->triton) { /* the modes' kernel; NVRTC compiled the torch plan */
		char about[1024];
		fprintf(f, "<p class=\"meta\">kernel: ");
		ub_html_text(f, ub_triton_about(res->cfg->triton, about, sizeof about));
		fprintf(f, "</p>\n");
	}
	if (sec->ns)
		legend(f, sec);
	summary_table(f, sec);
	if (sec->ns) {
		ub_html_dist(f, sec);
		for (int k = 0; k < sec->nin; k++)
			ub_html_map(f, sec, k);
		for (int k = 0; k < sec->nin; k++)
			ub_html_panels(f, sec, k, 0);
		for (int k = 0; k < sec->nin && sec->s[0].row->has_torch; k++)
			ub_html_panels(f, sec, k, 1);
		ub_html_worst(f, sec);
	}
	ub_html_why(f, sec);
	fprintf(f, "</section>\n");
}

/* The rows of data t, in order, and a series for each measured one; -1
 * when a measured row has no figures (the run did not keep them). */
static int collect(const struct ub_result *res, int t, struct ub_hsec *sec)
{
	int colors = 0;
	for (int i = 0; i < res->nrows; i++) {
		const struct ub_row *r = &res->rows[i];
		if (r->data != t)
			continue;
		sec->rows[sec->nrows++] = r;
		if (r->na)
			continue;
		if (!r->fig)
			return -1;
		struct ub_hseries *s = &sec->s[sec->ns];
		s->row = r;
		if (!(s->fig = ub_figs_sorted(r->fig))) /* drawn in a fixed order */
			return -2;
		s->k = sec->ns;
		s->torch = !strcmp(r->mode, "torch");
		s->color = s->torch ? UB_HTML_TORCH_COLOR : ub_html_color(colors++);
		sec->n = r->st.n;
		sec->ns++;
	}
	return 0;
}

static int section(FILE *f, const struct ub_result *res, int t, struct ub_error *err)
{
	struct ub_hsec *sec = calloc(1, sizeof *sec);
	size_t cap = (size_t)res->nrows + 1;
	int st = 0;
	if (sec) {
		sec->rows = calloc(cap, sizeof *sec->rows);
		sec->s = calloc(cap, sizeof *sec->s);
	}
	if (!sec || !sec->rows || !sec->s)
		st = ub_fail(err, UB_RUNTIME, "out of memory");
	else {
		sec->res = res;
		sec->dt = res->data[t].dt;
		sec->id = t;
		/* the dtype's op: its inputs are the data's (saved ones too) */
		const struct ub_op *op = ub_data_op(res, &res->data[t]);
		sec->nin = op->ninputs;
		sec->in_names = (const char *const *)op->inputs;
		int c = collect(res, t, sec);
		if (c == -1)
			st = ub_fail(err, UB_RUNTIME, "--html needs the rows' figures, "
				     "which this run did not keep");
		else if (c)
			st = ub_fail(err, UB_RUNTIME, "out of memory");
	}
	for (int k = 0; !st && k < sec->nin; k++) {
		ub_axis_build(&sec->axis[k], sec, k, UB_HTML_PLOT_W, 0);
		ub_axis_build(&sec->taxis[k], sec, k, UB_HTML_PLOT_W, 1);
	}
	if (!st)
		section_body(f, sec);
	if (sec) {
		for (int i = 0; sec->s && i < sec->ns; i++)
			free(sec->s[i].fig);
		free(sec->rows);
		free(sec->s);
	}
	free(sec);
	return st;
}

int ub_report_html(FILE *f, const struct ub_result *res, struct ub_error *err)
{
	const struct ub_op *op = res->cfg->op;
	int s = 0;
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		   "<title>ulpbench: ");
	ub_html_text(f, op->name);
	fprintf(f, "</title>\n<style>\n");
	ub_html_style(f);
	fprintf(f, "</style>\n</head>\n<body>\n<h1>ulpbench: ");
	ub_html_text(f, op->name);
	if (op->desc) {
		fprintf(f, " &mdash; ");
		ub_html_text(f, op->desc);
	}
	fprintf(f, "</h1>\n");
	op_text(f, op);
	if (res->ndata > 1) {
		fprintf(f, "<p>dtypes:");
		for (int t = 0; t < res->ndata; t++)
			fprintf(f, " <a href=\"#sec-%s\">%s</a>", ub_dtypes[res->data[t].dt].name,
				ub_dtypes[res->data[t].dt].name);
		fprintf(f, "</p>\n");
	}
	ub_html_glance(f, res);
	for (int t = 0; !s && t < res->ndata; t++)
		s = section(f, res, t, err);
	fprintf(f, "<p class=\"note\">ULP error: |result &minus; exact| / ulp(exact); "
		   "distance: how many encodings apart two results are; see docs/metrics.md "
		   "and docs/html.md. Written by ulpbench %s.</p>\n<script>\n", PACKAGE_VERSION);
	ub_html_script(f);
	fprintf(f, "</script>\n</body>\n</html>\n");
	return s;
}

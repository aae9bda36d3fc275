/* report_csv.c — the values of a report row (columns: UB_CSV_COLUMNS in
 * report.h, documented in docs/csv.md) and the CSV text.  Fields holding a
 * comma, quote or newline are quoted as RFC 4180 says. */
#include "config.h"

#include "nvrtc.h"
#include "report.h"
#include "why.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const struct ub_col_info ub_cols[UB_NCOLS] = {
#define X(name, kind) {#name, UB_##kind},
	UB_CSV_COLUMNS(X)
#undef X
};

int ub_col_find(const char *name)
{
	for (int c = 0; c < UB_NCOLS; c++)
		if (strcmp(ub_cols[c].name, name) == 0)
			return c;
	return -1;
}

static void field(FILE *f, const char *s, int last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', f);
		for (; *s; s++) {
			if (*s == '"')
				fputc('"', f);
			fputc(*s, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

size_t ub_format_real(char *buf, size_t len, double v)
{
	for (int digits = 15; digits <= 17; digits++) {
		snprintf(buf, len, "%.*g", digits, v);
		if (strtod(buf, NULL) == v || isnan(v))
			break;
	}
	return strlen(buf);
}

/* "x=LO:HI;g=LO:HI", the sampling domain of each input (as --domain takes
 * it); empty when the inputs were not sampled (files, --exhaustive). */
static void format_domain(const struct ub_config *cfg, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	if (cfg->nfiles || cfg->exhaustive)
		return;
	for (int k = 0; k < cfg->op->ninputs && used + 80 < len; k++) {
		used += (size_t)snprintf(buf + used, len - used, "%s%s=",
					 k ? ";" : "", cfg->op->inputs[k]);
		used += ub_format_real(buf + used, len - used, cfg->op->dom[k].lo);
		buf[used++] = ':';
		used += ub_format_real(buf + used, len - used, cfg->op->dom[k].hi);
	}
}

int ub_col_vs_reference(enum ub_col c)
{
	return c == UB_COL_max_ulp || c == UB_COL_mean_ulp ||
	       c == UB_COL_cr_mismatch || c == UB_COL_nan_mismatch;
}

/* --why (why.h): what explains the row, its fix and the fixed kernel's
 * figures, its blame; absent for a row without the analysis (or without
 * a fix: the fixed_* columns). */
static void why_values(const struct ub_why_row *w, struct ub_value *v)
{
	const struct ub_why_figs *g = w ? &w->fixed : NULL;
	for (int c = UB_COL_why_torch; c <= UB_COL_why_blame; c++)
		v[c].absent = !w || (c >= UB_COL_fixed_torch_mismatch &&
				     c <= UB_COL_fixed_max_ulp && !g->done);
	if (!w)
		return;
	if (w->na[0]) {
		snprintf(v[UB_COL_why_torch].text, sizeof v->text, "%s", w->na);
		return;
	}
	if (w->torch_n)
		ub_why_set_text(w, 1, v[UB_COL_why_torch].text, sizeof v->text);
	if (w->cr_n)
		ub_why_set_text(w, 0, v[UB_COL_why_cr].text, sizeof v->text);
	ub_why_fix_text(w, v[UB_COL_why_fix].text, sizeof v->text);
	v[UB_COL_fixed_torch_mismatch].i = g->torch_mismatch;
	v[UB_COL_fixed_cr_mismatch].i = g->cr_mismatch;
	v[UB_COL_fixed_max_ulp].r = g->max_ulp;
	ub_why_blame_text(w, v[UB_COL_why_blame].text, sizeof v->text);
}

/* What the simulator's checks said of row r (docs/csv.md): nothing
 * (empty) for a row that did not run on it; racecheck only where memory
 * was tracked; the schedules' figures where there were two or more. */
static void checks_values(const struct ub_row *r, struct ub_value *v)
{
	static const char *const kind[] = { "", "proved", "tracked" };
	uint64_t k = r->st.checks < 3 ? r->st.checks : 0;
	snprintf(v[UB_COL_initcheck].text, sizeof v->text, "%s", kind[k]);
	v[UB_COL_initcheck].absent = k == UB_CHECKS_NONE;
	v[UB_COL_racecheck].i = r->st.hazards;
	v[UB_COL_racecheck].absent = k != UB_CHECKS_TRACKED;
	snprintf(v[UB_COL_hazard].text, sizeof v->text, "%s", r->hazard);
	v[UB_COL_schedules].i = r->st.schedules;
	v[UB_COL_schedules].absent = k == UB_CHECKS_NONE;
	v[UB_COL_schedule_diff].i = r->st.sched_diff;
	v[UB_COL_schedule_dist].i = r->st.sched_dist;
	v[UB_COL_schedule_diff].absent = v[UB_COL_schedule_dist].absent =
		r->st.schedules < 2;
}

void ub_row_values(const struct ub_result *res, const struct ub_row *r,
		   struct ub_value *v)
{
	const struct ub_config *cfg = res->cfg;
	memset(v, 0, UB_NCOLS * sizeof *v);
#define T(col, ...) snprintf(v[UB_COL_##col].text, sizeof v->text, __VA_ARGS__)
#define I(col, val) (v[UB_COL_##col].i = (uint64_t)(val))
#define R(col, val) (v[UB_COL_##col].r = (val))
	T(op, "%s", r->op);
	T(dtype, "%s", ub_dtypes[r->dt].name);
	T(mode, "%s", r->mode);
	T(backend, "%s", r->backend);
	I(n, r->st.n);
	R(max_ulp, r->st.max_ulp);
	ub_format_worst(r, v[UB_COL_worst_input].text, sizeof v->text);
	R(mean_ulp, ub_stats_mean(&r->st));
	I(cr_mismatch, r->st.cr_mismatch);
	I(torch_mismatch, r->st.torch_mismatch);
	I(torch_max_dist, r->st.torch_max_dist);
	/* no torch plan: no value */
	v[UB_COL_torch_mismatch].absent = v[UB_COL_torch_max_dist].absent = !r->has_torch;
	I(nan_mismatch, r->st.nan_mismatch);
	I(sim_exact, r->sim_exact);
	ub_format_approx(r->approx_mask, v[UB_COL_approx].text, sizeof v->text);
	I(seed, cfg->seed);
	T(inputs, "%s", res->inputs);
	T(toolkit, "%s", r->toolkit);
	T(arch, "%s", r->arch ? r->arch : cfg->arch);
	T(options, "%s", r->options);
	format_domain(cfg, v[UB_COL_domain].text, sizeof v->text);
	T(catalog, "%s", cfg->op->file ? cfg->op->file : "");
	T(ulpbench_version, "%s", PACKAGE_VERSION);
	T(status, "%s", r->na ? "n/a" : ub_stats_no_number(&r->st) ? "nan-results"
			: r->st.undecided ? "undecided" : "ok");
	if (!r->na && ub_stats_no_number(&r->st)) {   /* no number measured */
		v[UB_COL_max_ulp].absent = v[UB_COL_mean_ulp].absent = 1;
		R(max_ulp, NAN);
		R(mean_ulp, NAN);
	}
	I(undecided, r->st.undecided);
	I(rejected, r->rejected);
	T(kernel, "%s", r->kernel);
	T(launch, "%s", r->launch);
	for (int k = 0; k < cfg->op->nparams; k++)
		snprintf(v[UB_COL_params].text + strlen(v[UB_COL_params].text),
			 sizeof v->text - strlen(v[UB_COL_params].text), "%s%s=%s",
			 k ? ";" : "", cfg->op->params[k].name, cfg->op->params[k].text);
	R(max_dot_rel, r->dot_rel);
	T(output, "%s", r->output ? r->output : "");
	checks_values(r, v);
	/* against the first toolkit's row of the mode (run_toolkits.h) */
	I(toolkit_mismatch, r->tk_mismatch);
	I(toolkit_max_dist, r->tk_max_dist);
	T(toolkit_ptxdiff, "%s", r->tk_ptxdiff);
	v[UB_COL_toolkit_mismatch].absent = v[UB_COL_toolkit_max_dist].absent =
		v[UB_COL_toolkit_ptxdiff].absent = !r->has_tkdiff;
	/* a mode that does not apply to the kernel measured nothing */
	for (int c = UB_COL_n; r->na && c <= UB_COL_approx; c++)
		v[c].absent = 1;
	v[UB_COL_undecided].absent = r->na != NULL;
	v[UB_COL_max_dot_rel].absent = r->na || !r->has_dot_rel;
	why_values(r->why, v);
	for (int c = UB_COL_initcheck; r->na && c <= UB_COL_schedule_dist; c++)
		v[c].absent = 1;
#undef T
#undef I
#undef R
}

const char *ub_value_csv(enum ub_col c, const struct ub_value *v,
			 char *buf, size_t len)
{
	if (v->absent)
		snprintf(buf, len, "%s", "");
	else if (ub_cols[c].kind == UB_INT)
		snprintf(buf, len, "%llu", (unsigned long long)v->i);
	else if (ub_cols[c].kind == UB_REAL)
		snprintf(buf, len, "%.6g", v->r);
	else
		snprintf(buf, len, "%s", v->text);
	return buf;
}

double ub_value_num(enum ub_col c, const struct ub_value *v)
{
	return ub_cols[c].kind == UB_INT ? (double)v->i : v->r;
}

void ub_report_csv_header(FILE *f)
{
	for (int c = 0; c < UB_NCOLS; c++)
		field(f, ub_cols[c].name, c == UB_NCOLS - 1);
}

void ub_report_csv_rows(FILE *f, const struct ub_result *res)
{
	for (int i = 0; i < res->nrows; i++) {
		struct ub_value v[UB_NCOLS];
		char buf[512];
		ub_row_values(res, &res->rows[i], v);
		for (int c = 0; c < UB_NCOLS; c++)
			field(f, ub_value_csv((enum ub_col)c, &v[c], buf, sizeof buf),
			      c == UB_NCOLS - 1);
	}
}

void ub_report_csv(FILE *f, const struct ub_result *res)
{
	ub_report_csv_header(f);
	ub_report_csv_rows(f, res);
}

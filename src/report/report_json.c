/* report_json.c — the JSON report (docs/json.md): the CSV's rows with
 * typed values, each row's ULP histogram, and each run's configuration.
 * Written by hand (no library): strings escaped as RFC 8259 says, reals
 * with 17 significant digits (they read back exactly), non-finite reals
 * and absent values as null. */
#include "config.h"

#include "nvrtc.h"
#include "report.h"
#include "triton.h"

#include <math.h>
#include <string.h>

static void jstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch == '\n')
			fputs("\\n", f);
		else if (ch == '\t')
			fputs("\\t", f);
		else if (ch < 0x20)
			fprintf(f, "\\u%04x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

static void jreal(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.17g", v);
	else
		fputs("null", f);
}

static void prologue(FILE *f)
{
	fputs("{\n  \"ulpbench_version\": ", f);
	jstr(f, PACKAGE_VERSION);
	fputs(",\n  \"columns\": [", f);
	for (int c = 0; c < UB_NCOLS; c++) {
		fputs(c ? ", " : "", f);
		jstr(f, ub_cols[c].name);
	}
	fputs("],\n  \"histogram_bins\": [", f);
	for (int b = 0; b < UB_HIST_BINS; b++) {
		fputs(b ? ", " : "", f);
		jstr(f, ub_hist_labels[b]);
	}
	fputs("],\n  \"runs\": [", f);
}

static void row(FILE *f, const struct ub_result *res, const struct ub_row *r)
{
	struct ub_value v[UB_NCOLS];
	ub_row_values(res, r, v);
	fputs("        {", f);
	for (int c = 0; c < UB_NCOLS; c++) {
		fputs(c ? ", " : "", f);
		jstr(f, ub_cols[c].name);
		fputs(": ", f);
		if (v[c].absent)
			fputs("null", f);
		else if (ub_cols[c].kind == UB_INT)
			fprintf(f, "%llu", (unsigned long long)v[c].i);
		else if (ub_cols[c].kind == UB_REAL)
			jreal(f, v[c].r);
		else
			jstr(f, v[c].text);
	}
	fputs(", \"histogram\": [", f);
	for (int b = 0; b < UB_HIST_BINS; b++)
		fprintf(f, "%s%zu", b ? ", " : "", r->st.hist[b]);
	fputs("], \"undecided_why\": {", f);   /* docs/reference.md's classes */
	for (int w = 0; w < UB_UND_N; w++) {
		fputs(w ? ", " : "", f);
		jstr(f, ub_undecided_names[w]);
		fprintf(f, ": %zu", r->na ? 0 : r->st.undecided_why[w]);
	}
	fputs("}}", f);
}

/* Whether every row of res has the text value in column c (a --kernel
 * run's rows say nvcc, its torch rows NVRTC: no shared toolkit). */
static int all_rows_share(const struct ub_result *res, enum ub_col c, const char *value)
{
	struct ub_value w[UB_NCOLS];
	for (int i = 1; i < res->nrows; i++) {
		ub_row_values(res, &res->rows[i], w);
		if (strcmp(w[c].text, value))
			return 0;
	}
	return 1;
}

/* The run's configuration: what was asked for, and where it ran. */
static void config(FILE *f, const struct ub_result *res)
{
	const struct ub_config *cfg = res->cfg;
	struct ub_value v[UB_NCOLS];
	fputs("      \"config\": {\"op\": ", f);
	jstr(f, cfg->op->name);
	fputs(", \"dtypes\": [", f);
	for (int t = 0; t < cfg->ndtypes; t++) {
		fputs(t ? ", " : "", f);
		jstr(f, ub_dtypes[cfg->dtypes[t]].name);
	}
	fputs("], \"modes\": [", f);
	for (int m = 0; m < cfg->nmodes; m++) {
		fputs(m ? ", " : "", f);
		jstr(f, ub_modes[cfg->modes[m]].name);
	}
	fputs("]", f);
	if (cfg->ntoolkits > 1) {   /* run_toolkits.h: rows MODE@NAME */
		fputs(", \"toolkits\": [", f);
		for (int k = 0; k < cfg->ntoolkits; k++) {
			fputs(k ? ", " : "", f);
			jstr(f, cfg->toolkits[k]->name);
		}
		fputs("]", f);
	}
	fprintf(f, ", \"n\": %zu, \"seed\": %llu, \"inputs\": ",
		res->nrows ? res->rows[0].st.n : cfg->n,
		(unsigned long long)cfg->seed);
	jstr(f, res->inputs);
	if (res->nrows) { /* the columns every row shares */
		static const enum ub_col shared[] = {UB_COL_domain, UB_COL_backend,
			UB_COL_arch, UB_COL_toolkit, UB_COL_catalog};
		ub_row_values(res, &res->rows[0], v);
		for (size_t i = 0; i < sizeof shared / sizeof shared[0]; i++) {
			/* Triton's rows and NVRTC's torch row differ: see each row */
			if (cfg->triton && (shared[i] == UB_COL_arch || shared[i] == UB_COL_toolkit))
				continue;
			if (all_rows_share(res, shared[i], v[shared[i]].text)) {
				fprintf(f, ", \"%s\": ", ub_cols[shared[i]].name);
				jstr(f, v[shared[i]].text);
			}
		}
	}
	if (cfg->triton) {
		char about[1024];
		fputs(", \"triton\": ", f);
		jstr(f, ub_triton_about(cfg->triton, about, sizeof about));
	}
	fputs("},\n", f);
}

int ub_json_open(struct ub_json *j, const char *path, struct ub_error *err)
{
	memset(j, 0, sizeof *j);
	return ub_outfile_open(&j->o, path, err);
}

void ub_json_add(struct ub_json *j, const struct ub_result *res,
		 const char *label)
{
	FILE *f = j->o.f;
	if (!j->nruns)
		prologue(f);
	fputs(j->nruns++ ? ",\n    {\n" : "\n    {\n", f);
	if (label) {
		fputs("      \"label\": ", f);
		jstr(f, label);
		fputs(",\n", f);
	}
	config(f, res);
	fputs("      \"rows\": [\n", f);
	for (int i = 0; i < res->nrows; i++) {
		row(f, res, &res->rows[i]);
		fputs(i + 1 < res->nrows ? ",\n" : "\n", f);
	}
	fputs("      ]\n    }", f);
}

int ub_json_commit(struct ub_json *j, struct ub_error *err)
{
	if (!j->nruns)
		prologue(j->o.f);
	fputs(j->nruns ? "\n  ]\n}\n" : "]\n}\n", j->o.f);
	return ub_outfile_commit(&j->o, err);
}

void ub_json_abort(struct ub_json *j)
{
	ub_outfile_abort(&j->o);
}

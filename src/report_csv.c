/* report_csv.c — the CSV report (columns: UB_CSV_COLUMNS in report.h,
 * documented in docs/csv.md).  Fields holding a comma, quote or newline
 * are quoted as RFC 4180 says. */
#include "nvrtc.h"
#include "report.h"

#include <string.h>

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

/* The value of every column of row r, as text. */
static void row_values(const struct ub_result *res, const struct ub_row *r,
		       char v[][512])
{
	int i = 0;
#define S(...) snprintf(v[i++], 512, __VA_ARGS__)
	S("%s", r->op);
	S("%s", ub_dtypes[r->dt].name);
	S("%s", r->mode);
	S("%s", r->backend);
	S("%zu", r->st.n);
	S("%.6g", r->st.max_ulp);
	ub_format_worst(r, v[i++], 512);
	S("%.6g", ub_stats_mean(&r->st));
	S("%zu", r->st.cr_mismatch);
	if (r->has_torch) {
		S("%zu", r->st.torch_mismatch);
		S("%llu", (unsigned long long)r->st.torch_max_dist);
	} else { /* no torch plan: empty fields */
		S("%s", "");
		S("%s", "");
	}
	S("%zu", r->st.nan_mismatch);
	S("%d", r->sim_exact);
	ub_format_approx(r->approx_mask, v[i++], 512);
	S("%llu", (unsigned long long)res->cfg->seed);
	S("%s", res->inputs);
	S("nvrtc %s", ub_nvrtc_version());
	S("%s", r->arch ? r->arch : res->cfg->arch);
	S("%s", r->options);
#undef S
}

static const char *const columns[] = {
#define X(name) #name,
	UB_CSV_COLUMNS(X)
#undef X
};
#define NCOLS (int)(sizeof columns / sizeof columns[0])

void ub_report_csv(FILE *f, const struct ub_result *res)
{
	for (int c = 0; c < NCOLS; c++)
		field(f, columns[c], c == NCOLS - 1);
	for (int i = 0; i < res->nrows; i++) {
		char v[NCOLS][512];
		row_values(res, &res->rows[i], v);
		for (int c = 0; c < NCOLS; c++)
			field(f, v[c], c == NCOLS - 1);
	}
}

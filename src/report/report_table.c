/* report_table.c — the aligned table printed on stdout. */
#include "report.h"
#include "triton.h"
#include "nvrtc.h"
#include "toolkit.h"
#include "ptx.h"
#include "why.h"

#include <string.h>

void ub_format_inputs(enum ub_dtype dt, const char *const *names,
		      const uint64_t *v, int n, char *buf, size_t len)
{
	size_t used = 0;
	int hex = ub_dtypes[dt].bits / 4;
	buf[0] = '\0';
	for (int k = 0; k < n && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s=0x%0*llx",
					 k ? ";" : "", names[k], hex,
					 (unsigned long long)v[k]);
}

/* A shaped op's element place: "row=3;col=17", "row=3" or "col=17"
 * (result.h: coords). */
static void format_coords(const uint64_t *c, int n, char *buf, size_t len)
{
	snprintf(buf, len, n == 2 ? "row=%llu;col=%llu" : n == 3 ? "col=%llu" : "row=%llu",
		 (unsigned long long)c[0], (unsigned long long)c[1]);
}

void ub_format_worst(const struct ub_row *row, char *buf, size_t len)
{
	buf[0] = '\0';
	if (ub_stats_no_number(&row->st))   /* its "worst" has error 0 */
		return;
	if (row->has_worst && row->coords)
		format_coords(row->st.worst_in, row->coords, buf, len);
	else if (row->has_worst)
		ub_format_inputs(row->dt, row->in_names, row->st.worst_in, row->nin,
				 buf, len);
}

void ub_format_approx(uint64_t mask, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < PTX_AX_COUNT && used < len; k++)
		if (mask >> k & 1)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "|" : "", ptx_approx_name(k));
	/* those that ran through the models measured on an sm_90 GPU */
	for (int k = 0; k < PTX_AX_COUNT && used < len; k++)
		if (mask >> (PTX_AX_MEASURED + k) & 1)
			used += (size_t)snprintf(buf + used, len - used, "%s%s@sm_90",
						 used ? "|" : "", ptx_approx_name(k));
}

/* Fixed notation while it fits the column, else 4 significant digits. */
static const char *num(char *buf, size_t len, double v, int decimals)
{
	if (v < 1e5)
		snprintf(buf, len, "%.*f", decimals, v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}

/* Whether a row of dtype block from row i on has undecided elements. */
static int block_undecided(const struct ub_result *res, int i)
{
	for (int k = i; k < res->nrows && res->rows[k].dt == res->rows[i].dt; k++)
		if (res->rows[k].st.undecided)
			return 1;
	return 0;
}

/* After a block with undecided elements: how many, and the first. */
static void undecided_note(FILE *f, const struct ub_row *r)
{
	char at[256];
	if (r->coords)
		format_coords(r->st.undecided_in, r->coords, at, sizeof at);
	else
		ub_format_inputs(r->dt, r->in_names, r->st.undecided_in, r->nin, at, sizeof at);
	char why[256] = "";
	size_t n = 0;
	for (int w = 0; w < UB_UND_N && n < sizeof why; w++)
		if (r->st.undecided_why[w])
			n += (size_t)snprintf(why + n, sizeof why - n, "%s%zu %s",
					      n ? ", " : "; ", r->st.undecided_why[w],
					      ub_undecided_names[w]);
	fprintf(f, "note: %zu element%s undecided by the reference (first: %s%s), left out "
		"of max_ulp, mean_ulp, cr_mismatch and nan_mismatch (docs/reference.md)\n",
		r->st.undecided, r->st.undecided == 1 ? "" : "s", at, why);
}

/* The width of the mode column: 10, or the longest row label (a run of
 * several toolkits: fastmath@11.8). */
static int mode_width(const struct ub_result *res)
{
	int w = 10;
	for (int i = 0; i < res->nrows; i++)
		if ((int)strlen(res->rows[i].mode) > w)
			w = (int)strlen(res->rows[i].mode);
	return w;
}

/* A run of several toolkits: "toolkits 13.0,11.8 (torch plan: nvrtc
 * 13.0)" into tk. */
static void toolkits(const struct ub_config *cfg, char *tk, size_t len)
{
	const struct ub_toolkit *t = cfg->torch_toolkit ? cfg->torch_toolkit
							: ub_toolkit_default();
	size_t used = (size_t)snprintf(tk, len, "toolkits ");
	for (int k = 0; k < cfg->ntoolkits && used < len; k++)
		used += (size_t)snprintf(tk + used, len - used, "%s%s", k ? "," : "",
					 cfg->toolkits[k]->name);
	if (used < len)
		snprintf(tk + used, len - used, " (torch plan: nvrtc %s)",
			 ub_nvrtc_version_tk(t));
}

/* Under a row of a further toolkit: how it differs from the first's. */
static void tkdiff_note(FILE *f, const struct ub_result *res, const struct ub_row *r,
			int w)
{
	const struct ub_config *cfg = res->cfg;
	const char *at = strrchr(r->mode, '@');
	int ml = at ? (int)(at - r->mode) : (int)strlen(r->mode);
	if (!r->tk_mismatch) {
		fprintf(f, "%-*s (the same bits as %.*s@%s in every element%s%s)\n", w, "",
			ml, r->mode, cfg->toolkits[0]->name,
			r->tk_ptxdiff[0] ? "; PTX differs from " : "", r->tk_ptxdiff);
		return;
	}
	fprintf(f, "%-*s (%llu of %zu elements differ from %.*s@%s, by %llu at most%s%s)\n",
		w, "", (unsigned long long)r->tk_mismatch, r->st.n, ml, r->mode,
		cfg->toolkits[0]->name, (unsigned long long)r->tk_max_dist,
		r->tk_ptxdiff[0] ? "; PTX from " : "; the same PTX", r->tk_ptxdiff);
}

static void header(FILE *f, const struct ub_result *res, const struct ub_row *r,
		   int first, int und)
{
	const struct ub_config *cfg = res->cfg;
	/* the kernel, when it is not the op's own: a --kernel file, or the
	 * generated one in a dtype the op's file is not written for */
	int say = cfg->kernel_src || !strncmp(r->kernel, "generated (", 11);
	char rej[48] = "", about[1024], tk[96];
	if (r->rejected) /* :pre's conditions beyond its bounds */
		snprintf(rej, sizeof rej, " (:pre rejected %llu)", (unsigned long long)r->rejected);
	/* --triton: its own line says the modes' kernel; NVRTC compiled the
	 * torch plan of an elementwise op (a shaped op's is on the host) */
	int plan_nvrtc = cfg->triton && !r->coords;
	if (plan_nvrtc)
		snprintf(tk, sizeof tk, "nvrtc %s", ub_nvrtc_version());
	else if (cfg->ntoolkits > 1)
		toolkits(cfg, tk, sizeof tk);
	else
		snprintf(tk, sizeof tk, "%s", r->toolkit);
	fprintf(f, "%s%s %s  n=%zu  seed=%llu  inputs=%s%s  backend=%s  "
		"%s %s%s%s\n", first ? "" : "\n", r->op,
		ub_dtypes[r->dt].name, r->st.n,
		(unsigned long long)cfg->seed, res->inputs, rej, r->backend, tk,
		r->arch && !plan_nvrtc ? r->arch : cfg->arch,
		say ? "  kernel: " : "", say ? r->kernel : "");
	if (cfg->triton)
		fprintf(f, "kernel: %s\n", ub_triton_about(cfg->triton, about, sizeof about));
	fprintf(f, "%-*s %10s %10s %11s %14s %14s %12s %s%9s  %s\n",
		mode_width(res), "mode", "max_ulp", "mean_ulp", "cr_mismatch",
		"torch_mismatch", "torch_max_dist", "nan_mismatch",
		und ? "undecided " : "", "sim_exact", "worst_input");
}

/* What the simulator's checks found in row r, a line each: racecheck's
 * hazards, the bits that move with the schedule. */
static void checks_notes(FILE *f, const struct ub_row *r)
{
	if (r->st.hazards)
		fprintf(f, "%-10s (racecheck: %llu hazard%s; the first: %s)\n", "",
			(unsigned long long)r->st.hazards, r->st.hazards == 1 ? "" : "s",
			r->hazard[0] ? r->hazard : "-");
	if (r->st.schedules > 1 && r->st.sched_diff)
		fprintf(f, "%-10s (the bits depend on the schedule: %zu of %zu elements "
			"differ across %llu schedules, by up to %llu units)\n", "",
			r->st.sched_diff, r->st.n, (unsigned long long)r->st.schedules,
			(unsigned long long)r->st.sched_dist);
}

void ub_report_table(FILE *f, const struct ub_result *res)
{
	const struct ub_row *noted = NULL;
	enum ub_dtype last = UB_NDTYPES;
	const char *lastop = NULL;
	int und = 0, w = mode_width(res);
	for (int i = 0; i < res->nrows; i++) {
		const struct ub_row *r = &res->rows[i];
		char worst[256], approx[256], nu[32] = "";
		/* a block per dtype, and per output of a shaped op */
		if (r->dt != last || !lastop || strcmp(r->op, lastop)) {
			lastop = r->op;
			if (noted)
				undecided_note(f, noted);
			last = r->dt;
			und = block_undecided(res, i);
			noted = NULL;
			header(f, res, r, i == 0, und);
		}
		if (r->na) {
			fprintf(f, "%-*s %10s  (%s)\n", w, r->mode, "n/a", r->na);
			continue;
		}
		if (r->st.undecided)
			noted = r;
		ub_format_worst(r, worst, sizeof worst);
		ub_format_approx(r->approx_mask, approx, sizeof approx);
		char mx[32], mean[32], tm[32] = "-", td[32] = "-";
		if (r->has_torch) {
			snprintf(tm, sizeof tm, "%zu", r->st.torch_mismatch);
			snprintf(td, sizeof td, "%llu", (unsigned long long)r->st.torch_max_dist);
		}
		if (und)
			snprintf(nu, sizeof nu, "%9zu ", r->st.undecided);
		int none = ub_stats_no_number(&r->st);
		fprintf(f, "%-*s %10s %10s %11zu %14s %14s %12zu %s%9s  %s\n",
			w, r->mode, none ? "-" : num(mx, sizeof mx, r->st.max_ulp, 3),
			none ? "-" : num(mean, sizeof mean, ub_stats_mean(&r->st), 4),
			r->st.cr_mismatch, tm, td, r->st.nan_mismatch, nu,
			r->sim_exact ? "yes" : "no", worst[0] ? worst : "-");
		if (!r->sim_exact)
			fprintf(f, "%-*s (modelled, not GPU bits: %s)\n", w, "", approx);
		else if (approx[0])
			fprintf(f, "%-*s (approximate, as measured on an sm_90 GPU: %s)\n", w, "",
				approx);
		if (r->note)
			fprintf(f, "%-*s (%s)\n", w, "", r->note);
		if (r->has_tkdiff)
			tkdiff_note(f, res, r, w);
		if (none)
			fprintf(f, "%-*s (no number to measure: every result is NaN or inf "
				"where the exact value is finite, nan_mismatch; status "
				"nan-results)\n", w, "");
		checks_notes(f, r);
		if (r->why) {
			char line[4096];
			fprintf(f, "%-*s %s\n", w, "", ub_why_line(r->why, line, sizeof line));
		}
	}
	if (noted)
		undecided_note(f, noted);
}

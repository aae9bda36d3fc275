/* compare.c — `ulpbench compare A.json B.json`: what changed between two
 * saved runs (another toolkit, another commit of a kernel, another
 * ulpbench): which rows, by how much, and their worst inputs; exit status
 * 1 when a change goes beyond the tolerance, for CI to gate on.
 *
 * Rows are matched by op, dtype and mode (a mode of a run of several
 * toolkits is MODE@NAME), the k-th such row of A with the k-th of B. */
#include "commands.h"
#include "json_read.h"
#include "paths.h"
#include "report.h"
#include "subopts.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE "usage: ulpbench compare A.json B.json [--tolerance ULP] [--count-tolerance N]\n" \
	"Compares the rows of two JSON reports (ulpbench --json, suite --json,\n" \
	"merge --json): each row of B against the row of A with the same op,\n" \
	"dtype and mode.  Exit status 1 when a row's max_ulp or mean_ulp moved by\n" \
	"more than ULP, a count (cr_mismatch, torch_mismatch, nan_mismatch,\n" \
	"undecided) or torch_max_dist by more than N, its status changed, or it\n" \
	"is in one report only; 0 otherwise (docs/toolkits.md)."

static const struct ub_subopt opts[] = {
	{"tolerance", 1, "ULP", "largest change of max_ulp and mean_ulp that passes (default 0)"},
	{"count-tolerance", 1, "N", "largest change of an element count or torch_max_dist that passes (default 0)"},
	{"help", 0, NULL, "show this help"},
};
#define NOPTS (int)(sizeof opts / sizeof opts[0])

struct cmp {
	double tol;
	uint64_t ntol;
};

static int option(void *ctx, const char *name, const char *arg, struct ub_error *err)
{
	struct cmp *c = ctx;
	char *end;
	if (!strcmp(name, "tolerance")) {
		errno = 0;
		c->tol = strtod(arg, &end);
		if (end == arg || *end || errno || !(c->tol >= 0) || isinf(c->tol))
			return ub_fail(err, UB_USAGE, "compare --tolerance: '%s' is not a "
				       "number of ulp >= 0", arg);
	} else if (!strcmp(name, "count-tolerance")) {
		return ub_subopt_count("count-tolerance", arg, 0, UINT64_MAX, &c->ntol, err);
	}
	return 0;
}

/* One row of a report: its key and every column it holds. */
struct crow {
	const char *op, *dtype, *mode;
	int occ;                 /* earlier rows of the same key */
	const struct ub_jval *col[UB_NCOLS]; /* NULL: absent */
	int matched;
};

struct report {
	const char *path;
	struct ub_jval root;
	int n;
	struct crow *rows;
};

/* The figures compared, and whether ULP (tolerance) or counts (ntol). */
static const struct { enum ub_col c; int ulp; } figures[] = {
	{UB_COL_n, 0}, {UB_COL_max_ulp, 1}, {UB_COL_mean_ulp, 1},
	{UB_COL_cr_mismatch, 0}, {UB_COL_torch_mismatch, 0},
	{UB_COL_torch_max_dist, 0}, {UB_COL_nan_mismatch, 0},
	{UB_COL_sim_exact, 0}, {UB_COL_undecided, 0},
};
#define NFIGURES (int)(sizeof figures / sizeof figures[0])

static const char *text_of(const struct crow *r, enum ub_col c)
{
	const struct ub_jval *v = r->col[c];
	return v && v->kind == UB_JSTR ? v->str : "";
}

/* Checks that column c of a row holds what docs/json.md says. */
static int check_col(const struct report *rp, int i, enum ub_col c,
		     const struct ub_jval *v, struct ub_error *err)
{
	int ok = v->kind == UB_JNULL ||
		 (ub_cols[c].kind == UB_TEXT ? v->kind == UB_JSTR : v->kind == UB_JNUM);
	return ok ? 0 : ub_fail(err, UB_USAGE, "%s: row %d: \"%s\" is not a %s", rp->path,
				i + 1, ub_cols[c].name,
				ub_cols[c].kind == UB_TEXT ? "string" : "number");
}

/* The rows of every run of the report at rp->path. */
static int read_report(struct report *rp, struct ub_error *err)
{
	char *text = NULL;
	int s = ub_read_file(rp->path, &text, err);
	if (!s)
		s = ub_json_parse(text, strlen(text), rp->path, &rp->root, err);
	free(text);
	if (s)
		return s;
	const struct ub_jval *runs = ub_json_get(&rp->root, "runs");
	if (!runs || runs->kind != UB_JARR)
		return ub_fail(err, UB_USAGE, "%s: no \"runs\" array: not an ulpbench JSON "
			       "report (docs/json.md)", rp->path);
	for (int pass = 0; pass < 2; pass++) {
		rp->n = 0;
		for (size_t r = 0; r < runs->n; r++) {
			const struct ub_jval *rows = ub_json_get(&runs->v[r], "rows");
			if (!rows || rows->kind != UB_JARR)
				return ub_fail(err, UB_USAGE, "%s: run %zu has no \"rows\" array",
					       rp->path, r + 1);
			for (size_t i = 0; i < rows->n; i++, rp->n++) {
				if (!pass)
					continue;
				struct crow *row = &rp->rows[rp->n];
				memset(row, 0, sizeof *row);
				for (int c = 0; c < UB_NCOLS; c++) {
					row->col[c] = ub_json_get(&rows->v[i], ub_cols[c].name);
					if (row->col[c] && (s = check_col(rp, rp->n, (enum ub_col)c,
									   row->col[c], err)))
						return s;
				}
				row->op = text_of(row, UB_COL_op);
				row->dtype = text_of(row, UB_COL_dtype);
				row->mode = text_of(row, UB_COL_mode);
				if (!row->op[0] || !row->dtype[0] || !row->mode[0])
					return ub_fail(err, UB_USAGE, "%s: row %d lacks op, dtype "
						       "or mode", rp->path, rp->n + 1);
				for (int k = 0; k < rp->n; k++)
					row->occ += !strcmp(rp->rows[k].op, row->op) &&
						    !strcmp(rp->rows[k].dtype, row->dtype) &&
						    !strcmp(rp->rows[k].mode, row->mode);
			}
		}
		if (!pass && !(rp->rows = calloc((size_t)rp->n + 1, sizeof *rp->rows)))
			return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	return 0;
}

static double num_of(const struct crow *r, enum ub_col c, int *absent)
{
	const struct ub_jval *v = r->col[c];
	*absent = !v || v->kind != UB_JNUM;
	return *absent ? 0 : v->num;
}

/* Appends one change "NAME A -> B (+D)" to line; whether it goes beyond
 * the tolerance. */
static int figure(const struct cmp *cm, const struct crow *a, const struct crow *b,
		  int f, char *line, size_t len)
{
	enum ub_col c = figures[f].c;
	int na, nb;
	double x = num_of(a, c, &na), y = num_of(b, c, &nb);
	if (na != nb || (!na && x != y && !(isnan(x) && isnan(y)))) {
		char sx[40] = "-", sy[40] = "-", sd[48] = "";
		const char *fmt = figures[f].ulp ? "%.6g" : "%.0f";
		if (!na)
			snprintf(sx, sizeof sx, fmt, x);
		if (!nb)
			snprintf(sy, sizeof sy, fmt, y);
		if (!na && !nb)
			snprintf(sd, sizeof sd, figures[f].ulp ? " (%+.3g)" : " (%+.0f)", y - x);
		snprintf(line + strlen(line), len - strlen(line), "%s%s %s -> %s%s",
			 line[0] ? ", " : "", ub_cols[c].name, sx, sy, sd);
		if (na || nb)
			return 1;
		double d = fabs(y - x);
		return figures[f].ulp ? d > cm->tol : d > (double)cm->ntol;
	}
	return 0;
}

/* Row b of B against row a of A: one line when something changed; 2 when
 * beyond the tolerance, 1 when within, 0 when nothing changed. */
static int compare_row(FILE *f, const struct cmp *cm, const struct crow *a,
		       const struct crow *b)
{
	char line[2048] = "";
	int beyond = 0;
	for (int i = 0; i < NFIGURES; i++)
		beyond |= figure(cm, a, b, i, line, sizeof line);
	static const enum ub_col texts[] = { UB_COL_status, UB_COL_toolkit,
					     UB_COL_worst_input, UB_COL_approx };
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
		if (strcmp(text_of(a, texts[i]), text_of(b, texts[i]))) {
			snprintf(line + strlen(line), sizeof line - strlen(line), "%s%s %s -> %s",
				 line[0] ? ", " : "", ub_cols[texts[i]].name,
				 text_of(a, texts[i])[0] ? text_of(a, texts[i]) : "-",
				 text_of(b, texts[i])[0] ? text_of(b, texts[i]) : "-");
			beyond |= texts[i] == UB_COL_status;
		}
	if (line[0])
		fprintf(f, "%s %s %s %s: %s\n", beyond ? "CHANGED" : "changed", a->op,
			a->dtype, a->mode, line);
	return beyond ? 2 : line[0] != '\0';
}

static void report_free(struct report *rp)
{
	ub_json_free(&rp->root);
	free(rp->rows);
}

int ub_cmd_compare(int argc, char **argv, struct ub_error *err)
{
	struct cmp cm = {0};
	struct report a = {0}, b = {0};
	int first = 0, beyond = 0, changed = 0;
	int s = ub_subopts_parse(argc, argv, opts, NOPTS, USAGE, option, &cm, &first, err);
	if (s < 0)
		return 0;   /* --help */
	if (!s && argc - first != 2)
		s = ub_fail(err, UB_USAGE, "compare: give two JSON reports, A and B (see "
			    "ulpbench compare --help)");
	a.path = s ? NULL : argv[first];
	b.path = s ? NULL : argv[first + 1];
	if (!s)
		s = read_report(&a, err);
	if (!s)
		s = read_report(&b, err);
	for (int j = 0; !s && j < b.n; j++) {
		struct crow *rb = &b.rows[j], *ra = NULL;
		for (int i = 0; i < a.n && !ra; i++)
			if (!a.rows[i].matched && !strcmp(a.rows[i].op, rb->op) &&
			    !strcmp(a.rows[i].dtype, rb->dtype) &&
			    !strcmp(a.rows[i].mode, rb->mode) && a.rows[i].occ == rb->occ)
				ra = &a.rows[i];
		if (!ra) {
			printf("CHANGED %s %s %s: only in %s\n", rb->op, rb->dtype, rb->mode, b.path);
			beyond++, changed++;
			continue;
		}
		ra->matched = rb->matched = 1;
		int c = compare_row(stdout, &cm, ra, rb);
		beyond += c == 2;
		changed += c > 0;
	}
	for (int i = 0; !s && i < a.n; i++)
		if (!a.rows[i].matched) {
			printf("CHANGED %s %s %s: only in %s\n", a.rows[i].op, a.rows[i].dtype,
			       a.rows[i].mode, a.path);
			beyond++, changed++;
		}
	if (!s)
		printf("ulpbench compare: %d rows of %s against %d of %s: %d changed, %d "
		       "beyond the tolerance (%g ulp, %llu elements)\n", b.n, b.path, a.n,
		       a.path, changed, beyond, cm.tol, (unsigned long long)cm.ntol);
	if (!s && beyond)
		s = ub_fail(err, UB_EXPECT_FAILED, "compare: %d row%s changed beyond the "
			    "tolerance", beyond, beyond == 1 ? "" : "s");
	report_free(&a);
	report_free(&b);
	return s;
}

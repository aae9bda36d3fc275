/* report.h — what a run produces: the table, the CSV, per-element dumps. */
#ifndef UB_REPORT_H
#define UB_REPORT_H

#include <stdio.h>

#include "outfile.h"
#include "result.h"

/* The aligned table for people. */
void ub_report_table(FILE *f, const struct ub_result *res);

/* CSV columns, declared once: X(name, kind), kind TEXT, INT (a count or
 * 0/1) or REAL.  The first 13 are the contract of docs/csv.md; more may
 * follow, never reordered.  The JSON report has the same fields, and
 * suite expectations may name any INT or REAL column. */
#define UB_CSV_COLUMNS(X)                                                \
	X(op, TEXT) X(dtype, TEXT) X(mode, TEXT) X(backend, TEXT)          \
	X(n, INT) X(max_ulp, REAL) X(worst_input, TEXT) X(mean_ulp, REAL)  \
	X(cr_mismatch, INT) X(torch_mismatch, INT) X(torch_max_dist, INT)  \
	X(nan_mismatch, INT) X(sim_exact, INT) X(approx, TEXT)             \
	X(seed, INT) X(inputs, TEXT) X(toolkit, TEXT) X(arch, TEXT)        \
	X(options, TEXT) X(domain, TEXT) X(catalog, TEXT)                  \
	X(ulpbench_version, TEXT) X(status, TEXT) X(undecided, INT)        \
	X(rejected, INT) X(kernel, TEXT) X(launch, TEXT) X(params, TEXT)   \
	X(max_dot_rel, REAL) X(output, TEXT)                               \
	X(why_torch, TEXT) X(why_cr, TEXT) X(why_fix, TEXT)                \
	X(fixed_torch_mismatch, INT) X(fixed_cr_mismatch, INT)             \
	X(fixed_max_ulp, REAL) X(why_blame, TEXT)                          \
	X(initcheck, TEXT) X(racecheck, INT) X(hazard, TEXT)                \
	X(schedules, INT) X(schedule_diff, INT) X(schedule_dist, INT)      \
	X(toolkit_mismatch, INT) X(toolkit_max_dist, INT) X(toolkit_ptxdiff, TEXT)

enum ub_col {
#define X(name, kind) UB_COL_##name,
	UB_CSV_COLUMNS(X)
#undef X
	UB_NCOLS
};
enum ub_kind { UB_TEXT, UB_INT, UB_REAL };
struct ub_col_info {
	const char *name;
	enum ub_kind kind;
};
extern const struct ub_col_info ub_cols[UB_NCOLS];
/* Column index by name; -1 if unknown. */
int ub_col_find(const char *name);
/* Whether column c is measured against the reference, so that it leaves
 * out the elements the reference could not decide (max_ulp, mean_ulp,
 * cr_mismatch, nan_mismatch: docs/reference.md). */
int ub_col_vs_reference(enum ub_col c);

/* One field of one row.  absent: no value (torch_* of an op without a
 * torch plan): empty in the CSV, null in JSON. */
struct ub_value {
	int absent;
	uint64_t i;      /* UB_INT */
	double r;        /* UB_REAL */
	char text[512];  /* UB_TEXT */
};
/* Every column's value for row r of res, v[UB_NCOLS]. */
void ub_row_values(const struct ub_result *res, const struct ub_row *r,
		   struct ub_value *v);
/* The shortest %g text that reads back as v ("-1e+18", "inf", "1.5");
 * returns its length. */
size_t ub_format_real(char *buf, size_t len, double v);
/* The value as CSV text (reals with 6 significant digits). */
const char *ub_value_csv(enum ub_col c, const struct ub_value *v,
			 char *buf, size_t len);
/* The value as a double for comparisons (exact for counts below 2^53). */
double ub_value_num(enum ub_col c, const struct ub_value *v);

/* Writes the CSV (header and one line per row) to f; main.c writes it
 * through a ub_outfile, so a failed run leaves no partial file. */
void ub_report_csv(FILE *f, const struct ub_result *res);
void ub_report_csv_header(FILE *f);
void ub_report_csv_rows(FILE *f, const struct ub_result *res);

/* A CSV output file, all-or-nothing (outfile.h), header written once.
 * With append, an existing non-empty file must start with this version's
 * header line (else UB_USAGE "PATH: ...", the file untouched), checked
 * when it is opened and again at the commit; the rows are kept in memory
 * and the commit adds them at the end of the report, in place, holding an
 * exclusive flock(2) on it, so that concurrent runs each add all their
 * rows and a link to the report (symbolic or hard) stays one.  A failed
 * run leaves the report as it was; a missing or empty file gets the
 * header. */
struct ub_csv {
	struct ub_outfile o;  /* without append: the new report; with
				 it, o.f collects the rows in memory */
	int need_header, append;
	char name[4096];      /* append: the report as given */
	char path[4200];      /* append: links followed */
	char *buf;            /* append: the rows (o.f's memory) */
	size_t len;
};
int ub_csv_open(struct ub_csv *c, const char *path, int append,
		struct ub_error *err);
void ub_csv_add(struct ub_csv *c, const struct ub_result *res);
int ub_csv_commit(struct ub_csv *c, struct ub_error *err);
void ub_csv_abort(struct ub_csv *c);

/* The JSON report (docs/json.md): the same rows as the CSV with typed
 * values and each row's ULP histogram, grouped in runs, each with its
 * configuration.  label names where a run came from (a suite's
 * "FILE:LINE") or is NULL. */
struct ub_json {
	struct ub_outfile o;
	int nruns;
};
int ub_json_open(struct ub_json *j, const char *path, struct ub_error *err);
void ub_json_add(struct ub_json *j, const struct ub_result *res,
		 const char *label);
int ub_json_commit(struct ub_json *j, struct ub_error *err);
void ub_json_abort(struct ub_json *j);

/* The machine-readable reports of a command (--csv, --append, --json),
 * opened before any work, filled with one result after another, and all
 * committed or all dropped. */
struct ub_outputs {
	int has_csv, has_json, has_html;
	struct ub_csv csv;
	struct ub_json json;
	struct ub_outfile html; /* one result only: the command's */
};
/* At most one of them may be "-" (stdout): ub_cli_check_outputs. */
int ub_outputs_open(struct ub_outputs *o, const char *csv, int append,
		    const char *json, const char *html, struct ub_error *err);
/* UB_RUNTIME when the HTML page runs out of memory. */
int ub_outputs_add(struct ub_outputs *o, const struct ub_result *res,
		   const char *label, struct ub_error *err);
/* Commits every report; on the first failure drops the others. */
int ub_outputs_commit(struct ub_outputs *o, struct ub_error *err);
void ub_outputs_abort(struct ub_outputs *o);
/* The end of a command with one result: when s is 0, adds res and
 * commits every report, else (or on their failure) drops them all.
 * Returns s, or the status of that failure. */
int ub_outputs_finish(struct ub_outputs *o, int s, const struct ub_result *res,
		      struct ub_error *err);
/* A report goes to stdout (so the table must not). */
int ub_outputs_on_stdout(const struct ub_outputs *o);

/* Writes DIR/OP.DTYPE.MODE.npy, DIR/OP.DTYPE.torch.npy, DIR/OP.DTYPE.ref.npy
 * for every dtype, in the inputs' shape; every file goes to a temporary
 * name first and all are renamed only when all were written. */
int ub_report_dump(const char *dir, const struct ub_result *res,
		   struct ub_error *err);

/* Writes the HTML report (report_html.c, docs/html.md): one
 * self-contained page drawn from the rows alone, their statistics and
 * figures (row->fig: cfg->figures), never from res->data's arrays, so a
 * streamed or merged result draws it too; res->data[t].dt names each
 * section, cfg->explain_opts the explain commands (NULL: none shown).
 * UB_RUNTIME when out of memory or a measured row has no figures. */
int ub_report_html(FILE *f, const struct ub_result *res, struct ub_error *err);

/* Formats n input encodings of dt, named, as "x=0x3f800001;g=0xbf000000". */
void ub_format_inputs(enum ub_dtype dt, const char *const *names,
		      const uint64_t *v, int n, char *buf, size_t len);
/* The row's worst input, so formatted ("" when it has none). */
void ub_format_worst(const struct ub_row *row, char *buf, size_t len);
/* Names of the approximate instructions in mask, joined by '|'. */
void ub_format_approx(uint64_t mask, char *buf, size_t len);

#endif

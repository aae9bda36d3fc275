/* suite_run.c — `ulpbench suite [OPTIONS] FILE...` (suite.h): reads every
 * file first (a bad one stops everything with exit 2, FILE:LINE), then
 * runs each entry through ub_run(), checks its expectations on the rows
 * and prints each one that failed with the measured value beside the
 * bound.  A run that fails (a compile error, a kernel fault) is reported
 * on its line and the suite goes on.  The rows of every run that ran can
 * go to one CSV and one JSON report, written whatever failed. */
#include "suite.h"
#include "run_toolkits.h"
#include "clash.h"
#include "nvrtc_cache.h"
#include "progress.h"
#include "subopts.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Options of the suite command, declared once:
 * X(long name, short letter or 0, has_arg, ARG, help) */
#define SUITE_OPTIONS(X)                                                     \
	X("csv", 0, 1, "FILE", "write the rows of every run as CSV to FILE ('-': stdout)") \
	X("append", 0, 0, NULL, "add them to the existing --csv FILE (same header only)") \
	X("json", 0, 1, "FILE", "write the JSON report of every run to FILE ('-': stdout)") \
	X("quiet", 'q', 0, NULL, "no progress line on stderr")                \
	X("verbose", 'v', 0, NULL, "progress when stderr is no terminal (every 30 s), damaged cache entries") \
	X("help", 'h', 0, NULL, "show this help")

static const struct option lopts[] = {
#define X(name, shrt, has_arg, arg, help) {name, has_arg, NULL, shrt ? shrt : 256},
	SUITE_OPTIONS(X)
#undef X
	{0}};

static void help(void)
{
	printf("usage: ulpbench suite [OPTIONS] FILE...\n"
	       "Runs accuracy suites (docs/suites.md) and checks their expectations.\n\n");
	static const struct {
		const char *name;
		int shrt;
		const char *arg, *help;
	} opts[] = {
#define X(name, shrt, has_arg, arg, help) {name, shrt, arg, help},
		SUITE_OPTIONS(X)
#undef X
	};
	for (size_t i = 0; i < sizeof opts / sizeof opts[0]; i++) {
		char lhs[64];
		snprintf(lhs, sizeof lhs, "%s%c%s--%s%s%s", opts[i].shrt ? "-" : "   ",
			 opts[i].shrt ? opts[i].shrt : ' ', opts[i].shrt ? ", " : "",
			 opts[i].name, opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		printf("  %-20s %s\n", lhs, opts[i].help);
	}
	printf("\nExit status: 0 every expectation held, 1 one failed, 2 a file cannot\n"
	       "be read or parsed (FILE:LINE), 3-5 as for ulpbench --op.\n");
}

/* Fills the report options of cli; files are left in argv[*first..]. */
static int parse_args(int argc, char **argv, struct ub_cli *cli, int *first,
		      int *want_help, struct ub_error *err)
{
	memset(cli, 0, sizeof *cli);
	ub_getopt_reset();
	for (;;) {
		char why[128];
		int li = -1, c = getopt_long(argc, argv, ":qvh", lopts, &li);
		if (c == -1)
			break;
		if (c == '?' || c == ':')
			return ub_fail(err, UB_USAGE, "suite: %s (see ulpbench suite --help)",
				       ub_getopt_error(c, argv, lopts, why, sizeof why));
		const char *name = li >= 0 ? lopts[li].name : c == 'q' ? "quiet" :
				   c == 'v' ? "verbose" : "help";
		if (!strcmp(name, "csv"))
			cli->csv = optarg;
		else if (!strcmp(name, "json"))
			cli->json = optarg;
		else if (!strcmp(name, "append"))
			cli->append = 1;
		else if (!strcmp(name, "quiet"))
			cli->quiet = 1;
		else if (!strcmp(name, "verbose"))
			cli->verbose = 1;
		else
			*want_help = 1;
	}
	*first = optind;
	if (!*want_help && optind == argc)
		return ub_fail(err, UB_USAGE, "suite: no suite file given (usage: "
			       "ulpbench suite [OPTIONS] FILE...)");
	return ub_cli_check_outputs(cli, err);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The row of res labelled name in dtype block t, or NULL. */
static const struct ub_row *row_named(const struct ub_result *res, int t,
				      const char *name)
{
	for (int i = 0; i < res->nrows; i++)
		if (res->rows[i].data == t && !strcmp(res->rows[i].mode, name))
			return &res->rows[i];
	return NULL;
}

/* ROW == ROW (or !=) on every dtype of res: 1 when it failed (printed). */
static int check_pair(const struct ub_entry *e, const struct ub_expect *ex,
		      const struct ub_result *res, FILE *f)
{
	int bad = 0;
	for (int t = 0; t < res->ndata; t++) {
		const struct ub_row *a = row_named(res, t, ex->rows[0]),
				    *b = row_named(res, t, ex->rows[1]);
		const struct ub_array *x = a ? ub_row_output(res, a) : NULL,
				      *y = b ? ub_row_output(res, b) : NULL;
		const char *dt = ub_dtypes[res->data[t].dt].name;
		uint64_t differ = 0, dist = 0;
		if (!x || !y || x->n != y->n) {
			fprintf(f, "%s:%d: FAIL %s %s %s %s %s: %s has no results to "
				"compare (n/a)\n", e->file, ex->line, res->cfg->op->name, dt,
				ex->rows[0], ub_cmp_names[ex->cmp], ex->rows[1],
				!x ? ex->rows[0] : ex->rows[1]);
			bad = 1;
			continue;
		}
		for (size_t i = 0; i < x->n; i++) {
			uint64_t p = ub_array_get(x, i), q = ub_array_get(y, i);
			if (p != q) {
				differ++;
				if (ub_distance(x->dt, p, q) > dist)
					dist = ub_distance(x->dt, p, q);
			}
		}
		if ((differ == 0) == (ex->cmp == UB_CMP_EQ))
			continue;
		bad = 1;
		if (differ)
			fprintf(f, "%s:%d: FAIL %s %s %s == %s: %llu of %zu elements differ "
				"(by %llu at most)\n", e->file, ex->line, res->cfg->op->name, dt,
				ex->rows[0], ex->rows[1], (unsigned long long)differ, x->n,
				(unsigned long long)dist);
		else
			fprintf(f, "%s:%d: FAIL %s %s %s != %s: the same bits in every "
				"element\n", e->file, ex->line, res->cfg->op->name, dt,
				ex->rows[0], ex->rows[1]);
	}
	return bad;
}

/* Checks e's expectations on res, printing each failure on f; returns
 * how many expectation lines failed. */
static int check(const struct ub_entry *e, const struct ub_result *res, FILE *f)
{
	int failed = 0;
	struct ub_value (*v)[UB_NCOLS] = calloc((size_t)res->nrows + 1, sizeof *v);
	for (int i = 0; v && i < res->nrows; i++)
		ub_row_values(res, &res->rows[i], v[i]);
	for (int x = 0; x < e->nexpect; x++) {
		const struct ub_expect *ex = &e->expect[x];
		int bad = !v;
		if (ex->pair) {
			failed += check_pair(e, ex, res, f);
			continue;
		}
		for (int i = 0; v && i < res->nrows; i++) {
			const struct ub_row *r = &res->rows[i];
			char got[64];
			if (!ub_expect_selects(ex, &e->cfg, r))
				continue;
			if (r->st.undecided && ub_col_vs_reference(ex->col)) {
				/* the figures leave those elements out */
				fprintf(f, "%s:%d: FAIL %s %s %s: %zu element%s undecided by "
					"the reference, left out of %s (docs/reference.md)\n",
					e->file, ex->line, r->op, ub_dtypes[r->dt].name,
					r->mode, r->st.undecided, r->st.undecided == 1 ? "" : "s",
					ub_cols[ex->col].name);
				bad = 1;
				continue;
			}
			if (ub_expect_holds(ex, ub_value_num(ex->col, &v[i][ex->col])))
				continue;
			bad = 1;
			if (ub_cols[ex->col].kind == UB_INT)
				snprintf(got, sizeof got, "%llu", (unsigned long long)v[i][ex->col].i);
			else
				ub_format_real(got, sizeof got, v[i][ex->col].r);
			fprintf(f, "%s:%d: FAIL %s %s %s: %s = %s, expected %s %s\n",
				e->file, ex->line, r->op, ub_dtypes[r->dt].name, r->mode,
				ub_cols[ex->col].name, got, ub_cmp_names[ex->cmp],
				ex->bound_text);
		}
		failed += bad;
	}
	free(v);
	return failed;
}

struct tally {
	int runs, expects, failed;
	int errors, unchecked;  /* runs that failed, their expectations */
	int status;             /* the first failed run's */
	char first[400];        /* its FILE:LINE: message */
};

/* One run and its expectations; a run that fails is reported on its
 * line and counted, and the suite goes on. */
static int run_entry(struct ub_entry *e, int idx, int total, struct ub_progress *prog,
		     struct ub_outputs *out, FILE *f, struct tally *t,
		     struct ub_error *err)
{
	struct ub_config cfg = e->cfg;
	struct ub_result res;
	char prefix[32], label[4200];
	cfg.op = &e->op;
	cfg.progress = ub_progress_stage;
	cfg.progress_ctx = prog;
	cfg.stream = 1; /* expectations read the rows only, */
	for (int x = 0; x < e->nexpect; x++) /* but ROW == ROW their elements */
		cfg.stream &= !e->expect[x].pair;
	snprintf(prefix, sizeof prefix, "[%d/%d] ", idx + 1, total);
	ub_progress_run(prog, prefix);
	double t0 = now();
	int s = ub_run_toolkits(&cfg, &res, err);
	ub_progress_clear(prog);
	if (s) {
		fprintf(f, "%s:%d: ERROR  %s  (exit status %d: %s)\n", e->file, e->line,
			e->text, s, err->msg[0] ? err->msg : "no message");
		fflush(f);
		if (!t->errors++) {
			t->status = s;
			snprintf(t->first, sizeof t->first, "%s:%d: %.300s", e->file,
				 e->line, err->msg);
		}
		t->runs++;
		t->unchecked += e->nexpect;
		ub_result_free(&res); /* what the run had made before it failed */
		return 0;
	}
	int bad = check(e, &res, f);
	if (bad)
		fprintf(f, "%s:%d: FAILED  %s  (%d of %d expectations failed)\n",
			e->file, e->line, e->text, bad, e->nexpect);
	else
		fprintf(f, "%s:%d: ok  %s  (%d expectation%s held, %.1f s)\n",
			e->file, e->line, e->text, e->nexpect, e->nexpect == 1 ? "" : "s",
			now() - t0);
	fflush(f);
	snprintf(label, sizeof label, "%s:%d", e->file, e->line);
	s = ub_outputs_add(out, &res, label, err); /* no HTML here: cannot fail */
	t->runs++;
	t->expects += e->nexpect;
	t->failed += bad;
	ub_result_free(&res);
	return s;
}

/* The summary line, and the command's status: the first failed run's,
 * else 1 when an expectation failed. */
static int summary(const struct tally *t, FILE *f, struct ub_error *err)
{
	fprintf(f, "ulpbench suite: %d runs, %d expectations, %d failed", t->runs,
		t->expects + t->unchecked, t->failed);
	if (t->errors)
		fprintf(f, "; %d run%s failed to run (%d expectation%s not checked)",
			t->errors, t->errors == 1 ? "" : "s", t->unchecked,
			t->unchecked == 1 ? "" : "s");
	fprintf(f, "\n");
	fflush(f); /* before the error line on stderr */
	if (t->errors)
		return ub_fail(err, t->status, "suite: %d of %d runs failed to run, "
			       "the first: %s", t->errors, t->runs, t->first);
	if (t->failed)
		return ub_fail(err, UB_EXPECT_FAILED, "suite: %d of %d expectations failed",
			       t->failed, t->expects);
	return 0;
}

static int run_all(struct ub_suite *su, const struct ub_cli *cli, struct ub_error *err)
{
	struct ub_outputs out;
	struct ub_progress prog;
	struct tally t = {0};
	int s = ub_outputs_open(&out, cli->csv, cli->append, cli->json, NULL, err);
	if (s)
		return s;
	/* a report on stdout keeps it clean: the suite's lines go to stderr */
	FILE *f = ub_outputs_on_stdout(&out) ? stderr : stdout;
	ub_progress_init(&prog, stderr,
			 ub_progress_mode(stderr, cli->quiet, cli->verbose));
	for (int i = 0; !s && i < su->nentries; i++)
		s = run_entry(&su->entries[i], i, su->nentries, &prog, &out, f, &t, err);
	ub_progress_end(&prog);
	if (s) { /* not a run's failure: the reports' */
		ub_outputs_abort(&out);
		return s;
	}
	int r = summary(&t, f, err);
	/* the rows of every run that ran, whatever failed */
	s = ub_outputs_commit(&out, err);
	return s ? s : r;
}

/* The reports against each other and every file the suites read. */
static int check_clashes(const struct ub_suite *su, const struct ub_cli *cli,
			 struct ub_error *err)
{
	struct ub_clash c = {0};
	int r = ub_clash_outputs(&c, cli, "the suite's lines");
	for (int i = 0; i < su->nfiles; i++)
		r |= ub_clash_add(&c, 0, "suite file", su->files[i], su->files[i]);
	for (int i = 0; i < su->nentries; i++)
		r |= ub_clash_inputs(&c, &su->entries[i].cli, &su->entries[i].op);
	int s = r ? ub_fail(err, UB_RUNTIME, "out of memory") : ub_clash_check(&c, err);
	ub_clash_free(&c);
	return s;
}

int ub_cmd_suite(int argc, char **argv, struct ub_error *err)
{
	struct ub_cli cli;
	struct ub_suite su = {0};
	int first = argc, want_help = 0;
	int s = parse_args(argc, argv, &cli, &first, &want_help, err);
	if (!s && want_help) {
		help();
		return 0;
	}
	if (!s && cli.verbose)
		ub_cache_notices(stderr);
	for (int i = first; !s && i < argc; i++)
		s = ub_suite_load(&su, argv[i], err);
	if (!s)
		s = check_clashes(&su, &cli, err);
	if (!s)
		s = run_all(&su, &cli, err);
	ub_suite_free(&su);
	return s;
}

/* suite_parse.c — reading suite files (suite.h, docs/suites.md).
 *
 *   # comment                         ('#' at a word's start, to the end)
 *   run OP [OPTIONS]                  (ulpbench's own options)
 *       [ROWS:] METRIC CMP VALUE      (an expectation on the run above)
 *
 * Every problem is one line "FILE:LINE: ..." (UB_USAGE), found before
 * any run starts: the run line is parsed by the command's own option
 * parser, the op looked up in its catalog, the dtypes, domains and
 * inputs applied as the command does, and each expectation checked
 * against the run it belongs to. */
#include "setup.h"
#include "suite.h"
#include "run_toolkits.h"
#include "inputs.h"
#include "paths.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 64

const char *const ub_cmp_names[UB_NCMPS] = {
#define X(id, text) text,
	UB_CMPS(X)
#undef X
};

/* Prefixes err's message with "FILE:LINE: ". */
static int at(struct ub_error *err, int s, const char *file, int line)
{
	char msg[sizeof err->msg];
	snprintf(msg, sizeof msg, "%s", err->msg);
	return ub_fail(err, s, "%s:%d: %.900s", file, line, msg);
}

/* Splits line (modified) into words; a word starting with '#' ends it. */
static int split(char *line, char **w)
{
	int n = 0;
	for (char *save, *t = strtok_r(line, " \t\r", &save); t && *t != '#';
	     t = strtok_r(NULL, " \t\r", &save)) {
		if (n == MAX_WORDS)
			return -1;
		w[n++] = t;
	}
	return n;
}

/* "CATALOG\nFPCORE\n..." for the run's --catalog and --fpcore files. */
static char *catalog_key(const struct ub_cli *cli)
{
	size_t len = strlen(cli->catalog ? cli->catalog : "") + 2;
	for (int i = 0; i < cli->nfpcore; i++)
		len += strlen(cli->fpcore[i]) + 1;
	char *key = malloc(len);
	if (!key)
		return NULL;
	snprintf(key, len, "%s\n", cli->catalog ? cli->catalog : "");
	for (int i = 0; i < cli->nfpcore; i++)
		snprintf(key + strlen(key), len - strlen(key), "%s\n", cli->fpcore[i]);
	return key;
}

/* The catalog of the run (--catalog, or the shipped one, with its
 * --fpcore files' ops beside), loaded once per suite. */
static int catalog(struct ub_suite *s, const struct ub_cli *cli,
		   const struct ub_catalog **cat, struct ub_error *err)
{
	char *key = catalog_key(cli);
	if (!key)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (int i = 0; i < s->ncats; i++)
		if (!strcmp(key, s->cats[i].key)) {
			*cat = &s->cats[i].cat;
			free(key);
			return 0;
		}
	struct ub_suite_catalog *c = realloc(s->cats, (size_t)(s->ncats + 1) * sizeof *c);
	if (!c) {
		free(key);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	s->cats = c;
	c = &s->cats[s->ncats];
	memset(c, 0, sizeof *c);
	int st = ub_load_catalogs(cli, &c->cat, err);
	if (st) {
		ub_catalog_free(&c->cat);
		free(key);
		return st;
	}
	c->key = key;
	s->ncats++;
	*cat = &c->cat;
	return 0;
}

/* The op of the run: as the command does (main.c), the op exists, the
 * --kernel file binds to it, the kernel is written for the dtypes,
 * --domain and --input apply. */
static int setup_op(struct ub_entry *e, const struct ub_catalog *cat,
		    struct ub_error *err)
{
	int s = ub_setup_op(&e->cli, cat, &e->op, &e->cfg, &e->uk, err);
	if (!s)
		s = ub_toolkits_check(&e->cfg, 0, err);
	if (!s && e->cli.cfg.exhaustive)
		s = ub_exhaustive_check(&e->op, e->cli.cfg.dtypes, e->cli.cfg.ndtypes,
					&e->cli.cfg.range, err);
	return s;
}

/* The first n characters of a, then b and c, in a malloc'd string. */
static char *join(int n, const char *a, const char *b, const char *c)
{
	size_t len = (size_t)n + strlen(b) + strlen(c) + 1;
	char *out = malloc(len);
	if (out)
		snprintf(out, len, "%.*s%s%s", n, a, b, c);
	return out;
}

/* A path relative to the suite file's directory. */
static char *relative_to(const char *suite, const char *path)
{
	const char *slash = strrchr(suite, '/');
	if (path[0] == '/' || !slash)
		return strdup(path);
	return join((int)(slash - suite), suite, "/", path);
}

/* --catalog, --fpcore, --kernel (or --triton: never both) and --input
 * files, and -I directories, are found beside the suite file. */
static int resolve_paths(struct ub_entry *e, struct ub_error *err)
{
	int np = 0;
	if (e->cli.catalog && !(e->cli.catalog = e->paths[np++] =
				relative_to(e->file, e->cli.catalog)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	if (e->cli.kernel && !(e->cli.kernel = e->paths[np++] =
			       relative_to(e->file, e->cli.kernel)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	if (e->cli.triton && !(e->cli.triton = e->paths[np++] =
			       relative_to(e->file, e->cli.triton)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (int i = 0; i < e->cli.nfpcore; i++)
		if (!(e->cli.fpcore[i] = e->paths[np++] =
		      relative_to(e->file, e->cli.fpcore[i])))
			return ub_fail(err, UB_RUNTIME, "out of memory");
	for (int i = 0; i < e->cli.nflags; i++)
		if (e->cli.flag_kind[i] == 'I' &&
		    !(e->cli.flag_arg[i] = e->paths[np++] =
		      relative_to(e->file, e->cli.flag_arg[i])))
			return ub_fail(err, UB_RUNTIME, "out of memory");
	for (int i = 0; i < e->cli.ninputs; i++) {
		const char *spec = e->cli.input_spec[i], *eq = strchr(spec, '=');
		char *file = relative_to(e->file, eq + 1);
		char *full = file ? join((int)(eq - spec), spec, "=", file) : NULL;
		free(file);
		if (!(e->cli.input_spec[i] = e->paths[np++] = full))
			return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	return 0;
}

/* The options a run line may not carry: reports go on the suite command. */
static int check_options(const struct ub_cli *c, struct ub_error *err)
{
	const char *bad = c->action != UB_ACT_RUN ? "--help, --version and --list-*"
			: c->csv ? "--csv" : c->json ? "--json" : c->append ? "--append"
			: c->dump ? "--dump" : c->quiet ? "--quiet"
			: c->verbose ? "--verbose" : NULL;
	if (bad)
		return ub_fail(err, UB_USAGE, "%s: not in a run line (reports are "
			       "options of `ulpbench suite`)", bad);
	for (int i = 0; i < c->ngiven; i++) {
		enum ub_opt_role role = ub_opts[c->given[i].opt].role;
		if (role == UB_ROLE_SHARD || role == UB_ROLE_SBATCH)
			return ub_fail(err, UB_USAGE, "--%s: not in a run line (a suite "
				       "runs each line whole)", ub_opts[c->given[i].opt].name);
	}
	return 0;
}

static int parse_run(struct ub_suite *s, struct ub_entry *e, char **w, int nw,
		     struct ub_error *err)
{
	const struct ub_catalog *cat = NULL;
	if (nw < 2 || w[1][0] == '-')
		return ub_fail(err, UB_USAGE, "expected 'run OP [OPTIONS]' (the op "
			       "name first, then ulpbench's options)");
	e->argc = nw + 1;
	e->argv = calloc((size_t)e->argc + 1, sizeof *e->argv);
	if (!e->argv)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	e->argv[0] = strdup("ulpbench");
	e->argv[1] = strdup("--op");
	for (int i = 1; i < nw; i++)
		e->argv[i + 1] = strdup(w[i]);
	for (int i = 0; i < e->argc; i++)
		if (!e->argv[i])
			return ub_fail(err, UB_RUNTIME, "out of memory");
	char **copy = malloc((size_t)e->argc * sizeof *copy); /* getopt permutes */
	if (!copy)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	memcpy(copy, e->argv, (size_t)e->argc * sizeof *copy);
	int st = ub_cli_parse(e->argc, copy, &e->cli, err);
	free(copy);
	if (!st)
		st = check_options(&e->cli, err);
	if (!st)
		st = resolve_paths(e, err);
	if (!st)
		st = catalog(s, &e->cli, &cat, err);
	return st ? st : setup_op(e, cat, err);
}

/* The toolkit of the run named NAME (MODE@NAME), its index into *k. */
static int run_toolkit(const struct ub_entry *e, const char *row, const char *name,
		       int *k, struct ub_error *err)
{
	char valid[200] = "";
	if (e->cfg.ntoolkits < 2)
		return ub_fail(err, UB_USAGE, "%s: rows MODE@NAME are those of a run of "
			       "several toolkits (--toolkit A,B)", row);
	for (*k = 0; *k < e->cfg.ntoolkits; (*k)++) {
		if (!strcmp(e->cfg.toolkits[*k]->name, name))
			return 0;
		snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%.23s",
			 *k ? ", " : "", e->cfg.toolkits[*k]->name);
	}
	return ub_fail(err, UB_USAGE, "%s: %s is not one of this run's toolkits (%s)",
		       row, name, valid);
}

/* "fma,torch:" -> the modes and dtypes it names, each one of the run's;
 * "fma@11.8": mode fma under toolkit 11.8 of the run. */
static int parse_rows(const struct ub_entry *e, char *sel, struct ub_expect *x,
		      struct ub_error *err)
{
	sel[strlen(sel) - 1] = '\0';
	for (char *save, *t = strtok_r(sel, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		char *at = strchr(t, '@');
		int k = -1;
		if (at) {
			*at = '\0';
			if (ub_mode_find(t) < 0) {
				*at = '@';
				return ub_fail(err, UB_USAGE, "'%s' is not MODE@TOOLKIT (see "
					       "--list-modes)", t);
			}
			if (run_toolkit(e, t, at + 1, &k, err))
				return UB_USAGE;
		}
		int m = ub_mode_find(t), d = at ? -1 : ub_dtype_find(t), in = 0;
		if (!strcmp(t, "torch")) {
			if (!e->op.nsteps)
				return ub_fail(err, UB_USAGE, "%s has no torch plan, "
					       "so no torch row", e->op.name);
			x->modes |= 1u << UB_NMODES;
			continue;
		}
		for (int i = 0; i < e->cfg.nmodes; i++)
			in |= m >= 0 && e->cfg.modes[i] == (enum ub_mode)m;
		for (int i = 0; i < e->cfg.ndtypes; i++)
			in |= d >= 0 && e->cfg.dtypes[i] == (enum ub_dtype)d;
		if (m < 0 && d < 0)
			return ub_fail(err, UB_USAGE, "'%s' is neither a mode, a dtype "
				       "nor torch (see --list-modes, --list-dtypes)", t);
		if (!in)
			return ub_fail(err, UB_USAGE, "%s is not one of this run's %ss "
				       "(the run line's --%s)", t, m >= 0 ? "mode" : "dtype",
				       m >= 0 ? "mode" : "dtype");
		if (m >= 0)
			x->modes |= 1u << m;
		else
			x->dtypes |= 1u << d;
		if (k >= 0)
			x->tks[m] |= 1u << k;
	}
	return 0;
}

/* A row of the run by its label: MODE, MODE@NAME or torch. */
static int run_row(const struct ub_entry *e, const char *w, struct ub_error *err)
{
	char mode[40];
	int k = 0, m;
	snprintf(mode, sizeof mode, "%.*s", (int)strcspn(w, "@"), w);
	if (!strcmp(w, "torch"))
		return e->op.nsteps ? 0 : ub_fail(err, UB_USAGE, "%s has no torch plan, so "
						  "no torch row", e->op.name);
	if ((m = ub_mode_find(mode)) < 0)
		return ub_fail(err, UB_USAGE, "'%s' is not a row (MODE, MODE@TOOLKIT or "
			       "torch; see --list-modes)", w);
	int in = 0;
	for (int i = 0; i < e->cfg.nmodes; i++)
		in |= e->cfg.modes[i] == (enum ub_mode)m;
	if (!in)
		return ub_fail(err, UB_USAGE, "%s is not one of this run's modes (the run "
			       "line's --mode)", mode);
	if (strchr(w, '@'))
		return run_toolkit(e, w, strchr(w, '@') + 1, &k, err);
	return e->cfg.ntoolkits > 1 ? ub_fail(err, UB_USAGE, "%s: name its toolkit "
					      "(%s@%s)", w, w, e->cfg.toolkits[0]->name) : 0;
}

/* ROW == ROW, ROW != ROW: the same bits in every element, or not. */
static int parse_pair(struct ub_entry *e, char **w, struct ub_expect *x,
		      struct ub_error *err)
{
	int s = run_row(e, w[0], err);
	if (!s)
		s = run_row(e, w[2], err);
	if (!s && (strlen(w[0]) >= sizeof x->rows[0] || strlen(w[2]) >= sizeof x->rows[0]))
		s = ub_fail(err, UB_USAGE, "a row name too long");
	if (s)
		return s;
	x->pair = 1;
	x->cmp = !strcmp(w[1], "==") ? UB_CMP_EQ : UB_CMP_NE;
	snprintf(x->rows[0], sizeof x->rows[0], "%s", w[0]);
	snprintf(x->rows[1], sizeof x->rows[1], "%s", w[2]);
	snprintf(x->bound_text, sizeof x->bound_text, "%s", w[2]);
	/* the rows' elements are kept to compare them (run_toolkits.h) */
	if (e->cfg.exhaustive || (!e->cfg.nfiles && e->cfg.n > UB_TK_MAX_ELEMS))
		return ub_fail(err, UB_USAGE, "%s %s %s: the rows' elements are kept to "
			       "compare them: at most %llu elements, no --exhaustive",
			       w[0], w[1], w[2], (unsigned long long)UB_TK_MAX_ELEMS);
	return 0;
}

static int metric(const char *name, const struct ub_op *op, enum ub_col *col,
		  struct ub_error *err)
{
	char valid[512] = "";
	int c = ub_col_find(name);
	if (c >= 0 && ub_cols[c].kind != UB_TEXT) {
		*col = (enum ub_col)c;
		if (!op->nsteps && (c == UB_COL_torch_mismatch || c == UB_COL_torch_max_dist))
			return ub_fail(err, UB_USAGE, "%s: %s has no torch plan", name,
				       op->name);
		return 0;
	}
	for (int i = 0; i < UB_NCOLS; i++)
		if (ub_cols[i].kind != UB_TEXT)
			snprintf(valid + strlen(valid), sizeof valid - strlen(valid),
				 "%s%s", valid[0] ? ", " : "", ub_cols[i].name);
	return ub_fail(err, UB_USAGE, "unknown metric '%s' (valid: %s)", name, valid);
}

static int parse_expect(struct ub_entry *e, char **w, int nw, struct ub_expect *x,
			struct ub_error *err)
{
	int k = nw && w[0][strlen(w[0]) - 1] == ':';
	if (nw == 3 && (!strcmp(w[1], "==") || !strcmp(w[1], "!=")) &&
	    ub_col_find(w[0]) < 0 && !k && (strchr(w[0], '@') || ub_mode_find(w[0]) >= 0 ||
					   !strcmp(w[0], "torch")))
		return parse_pair(e, w, x, err);
	if (nw - k != 3)
		return ub_fail(err, UB_USAGE, "expected '[ROWS:] METRIC CMP VALUE', "
			       "e.g. 'fma: max_ulp < 2' or 'torch_mismatch == 0'");
	int s = k ? parse_rows(e, w[0], x, err) : 0;
	if (!s)
		s = metric(w[k], &e->op, &x->col, err);
	if (s)
		return s;
	x->cmp = UB_NCMPS;
	for (int c = 0; c < UB_NCMPS; c++)
		if (!strcmp(w[k + 1], ub_cmp_names[c]))
			x->cmp = (enum ub_cmp)c;
	if (x->cmp == UB_NCMPS)
		return ub_fail(err, UB_USAGE, "unknown comparison '%s' (valid: ==, !=, "
			       "<=, <, >=, >)", w[k + 1]);
	char *end;
	errno = 0;
	x->bound = strtod(w[k + 2], &end);
	if (end == w[k + 2] || *end || isnan(x->bound) || errno == ERANGE)
		return ub_fail(err, UB_USAGE, "'%s' is not a number", w[k + 2]);
	snprintf(x->bound_text, sizeof x->bound_text, "%s", w[k + 2]);
	return 0;
}

static int add_expect(struct ub_entry *e, char **w, int nw, int line,
		      struct ub_error *err)
{
	struct ub_expect *x = realloc(e->expect, (size_t)(e->nexpect + 1) * sizeof *x);
	if (!x)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	e->expect = x;
	x = &e->expect[e->nexpect];
	memset(x, 0, sizeof *x);
	x->line = line;
	int s = parse_expect(e, w, nw, x, err);
	e->nexpect += !s;
	return s;
}

static int add_entry(struct ub_suite *s, const char *file, int line,
		     const char *text, char **w, int nw, struct ub_error *err)
{
	struct ub_entry *e = realloc(s->entries, (size_t)(s->nentries + 1) * sizeof *e);
	if (!e)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	s->entries = e;
	e = &s->entries[s->nentries++];
	memset(e, 0, sizeof *e);
	e->file = file;
	e->line = line;
	if (!(e->text = strdup(text)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	return parse_run(s, e, w, nw, err);
}

/* One line: a run, an expectation of the last run, or nothing. */
static int parse_line(struct ub_suite *s, const char *file, int line,
		      char *text, int first, struct ub_error *err)
{
	char *w[MAX_WORDS], copy[4096];
	int nw;
	snprintf(copy, sizeof copy, "%s", text);
	if ((nw = split(text, w)) < 0)
		return ub_fail(err, UB_USAGE, "more than %d words", MAX_WORDS);
	if (nw && !strcmp(w[0], "run")) {
		for (char *c = copy; *c; c++) /* the run line as written */
			if (*c == '#' && (c == copy || c[-1] == ' ' || c[-1] == '\t')) {
				*c = '\0';
				break;
			}
		for (size_t n = strlen(copy); n && strchr(" \t\r", copy[n - 1]); n--)
			copy[n - 1] = '\0';
		return add_entry(s, file, line, copy + strspn(copy, " \t"), w, nw, err);
	}
	if (nw && s->nentries == first)
		return ub_fail(err, UB_USAGE, "an expectation before any 'run OP "
			       "[OPTIONS]' line");
	return nw ? add_expect(&s->entries[s->nentries - 1], w, nw, line, err) : 0;
}

/* Every run has an expectation; the file has a run. */
static int check_complete(const struct ub_suite *s, const char *file, int first,
			  struct ub_error *err)
{
	if (s->nentries == first)
		return at(err, ub_fail(err, UB_USAGE, "no 'run OP [OPTIONS]' line "
				       "in this suite"), file, 1);
	for (int i = first; i < s->nentries; i++)
		if (!s->entries[i].nexpect)
			return at(err, ub_fail(err, UB_USAGE, "this run expects nothing "
					       "(add lines such as 'max_ulp <= 1')"),
				  file, s->entries[i].line);
	return 0;
}

int ub_suite_load(struct ub_suite *s, const char *path, struct ub_error *err)
{
	char **files = realloc(s->files, (size_t)(s->nfiles + 1) * sizeof *files);
	if (!files)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	s->files = files;
	if (!(files[s->nfiles] = strdup(path)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	const char *file = files[s->nfiles++];
	char *text = NULL;
	int st = ub_read_file(path, &text, err), line = 0, first = s->nentries;
	for (char *l = st ? NULL : text, *next; l && !st; l = next) {
		next = strchr(l, '\n');
		if (next)
			*next++ = '\0';
		line++;
		st = strlen(l) >= 4000 ? ub_fail(err, UB_USAGE, "line too long")
				       : parse_line(s, file, line, l, first, err);
		if (st)
			st = at(err, st, file, line);
	}
	free(text);
	return st ? st : check_complete(s, file, first, err);
}

void ub_suite_free(struct ub_suite *s)
{
	for (int i = 0; i < s->nentries; i++) {
		struct ub_entry *e = &s->entries[i];
		for (int a = 0; e->argv && a < e->argc; a++)
			free(e->argv[a]);
		for (size_t p = 0; p < sizeof e->paths / sizeof e->paths[0]; p++)
			free(e->paths[p]);
		ub_user_kernel_free(&e->uk);
		free(e->argv);
		free(e->text);
		free(e->expect);
	}
	for (int c = 0; c < s->ncats; c++) {
		ub_catalog_free(&s->cats[c].cat);
		free(s->cats[c].key);
	}
	for (int f = 0; f < s->nfiles; f++)
		free(s->files[f]);
	free(s->entries);
	free(s->cats);
	free(s->files);
	memset(s, 0, sizeof *s);
}

int ub_expect_holds(const struct ub_expect *e, double v)
{
	switch (e->cmp) {
	case UB_CMP_EQ: return v == e->bound;
	case UB_CMP_NE: return v != e->bound;
	case UB_CMP_LE: return v <= e->bound;
	case UB_CMP_LT: return v < e->bound;
	case UB_CMP_GE: return v >= e->bound;
	default: return v > e->bound;
	}
}

int ub_expect_selects(const struct ub_expect *e, const struct ub_config *cfg,
		      const struct ub_row *row)
{
	char mode[40];
	const char *at = strchr(row->mode, '@');
	int k = -1;
	snprintf(mode, sizeof mode, "%.*s", (int)strcspn(row->mode, "@"), row->mode);
	for (int i = 0; at && i < cfg->ntoolkits; i++)
		if (!strcmp(cfg->toolkits[i]->name, at + 1))
			k = i;
	int m = strcmp(mode, "torch") ? ub_mode_find(mode) : UB_NMODES;
	if (e->pair || m < 0)
		return 0;
	int mode_ok = e->modes ? (int)(e->modes >> m & 1) : m != UB_NMODES;
	int tk_ok = !e->tks[m] || (k >= 0 && (e->tks[m] >> k & 1));
	return mode_ok && tk_ok && (!e->dtypes || (e->dtypes >> row->dt & 1));
}

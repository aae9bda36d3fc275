/* merge.c — `ulpbench merge PART... [--csv F] [--json F] [--html F]`:
 * the parts of a sharded run (partial.h) added into the reports that one
 * process running the whole would have written, byte for byte.
 *
 * Each part is read, checked against the first (the same run: every
 * field of UB_RUN_ID, the same rows) and added in, then dropped, so
 * memory does not grow with the number of parts.  Every shard 0..N-1
 * must be there exactly once.  The run is then set up again from the
 * options the parts recorded (catalog, op, kernel), and its identity made
 * again must be the parts' (the catalog or kernel files have not changed
 * since); the reports are made from that configuration and the merged
 * rows.  A directory given stands for its part.K files. */
#include "clash.h"
#include "commands.h"
#include "fileid.h"
#include "partial.h"
#include "report.h"
#include "setup.h"
#include "subopts.h"
#include "user_kernel.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define USAGE "usage: ulpbench merge PART|DIR... [--csv FILE] [--json FILE] [--html FILE] [-q]\n" \
	"Adds the partial files of a sharded run (--shard K/N --partial FILE) into\n" \
	"the reports of the whole run, the same as one process running it gives;\n" \
	"a directory stands for its files part.0, part.1, ... (ulpbench sbatch's)."

static const struct ub_subopt opts[] = {
	{"csv", 1, "FILE", "write the CSV report to FILE ('-': stdout)"},
	{"json", 1, "FILE", "write the JSON report to FILE ('-': stdout)"},
	{"html", 1, "FILE", "write the HTML report to FILE ('-': stdout)"},
	{"quiet", 0, NULL, "no table on stdout"},
	{"q", 0, NULL, "the same as --quiet"},
	{"help", 0, NULL, "show this help"},
};
#define NOPTS (int)(sizeof opts / sizeof opts[0])

struct merge {
	const char *csv, *json, *html;
	int quiet;
};

static int option(void *ctx, const char *name, const char *arg, struct ub_error *err)
{
	struct merge *m = ctx;
	if (arg && !arg[0]) /* else found out only after the merge */
		return ub_fail(err, UB_USAGE, "merge: --%s: an empty file name", name);
	if (!strcmp(name, "csv"))
		m->csv = arg;
	else if (!strcmp(name, "json"))
		m->json = arg;
	else if (!strcmp(name, "html"))
		m->html = arg;
	else if (!strcmp(name, "quiet") || !strcmp(name, "q"))
		m->quiet = 1;
	return 0;
}

/* The reports against each other and stdout's table (clash.h), and,
 * once the run is set up (cli), against the files it reads: the
 * catalog, --fpcore files, the kernel.  "merge: " before the message. */
static int check_clash(const struct merge *m, const struct ub_cli *cli,
		       const struct ub_op *op, struct ub_error *err)
{
	const char *const name[] = {"--csv", "--json", "--html"};
	const char *const file[] = {m->csv, m->json, m->html};
	struct ub_clash c = {0};
	int r = 0, on_stdout = 0;
	for (int o = 0; o < 3; o++)
		if (file[o]) {
			r |= ub_clash_add(&c, 1, name[o], file[o], file[o]);
			on_stdout += !strcmp(file[o], "-");
		}
	if (!on_stdout && !m->quiet)
		r |= ub_clash_add(&c, 1, "stdout", "the table", "-");
	if (cli)
		r |= ub_clash_inputs(&c, cli, op);
	int s = r ? ub_fail(err, UB_RUNTIME, "out of memory") :
		on_stdout > 1 ? ub_fail(err, UB_USAGE, "only one of --csv, --json and "
					"--html can be '-' (stdout)") :
		ub_clash_check(&c, err);
	ub_clash_free(&c);
	if (s)
		ub_prefix(err, s, "merge: ");
	return s;
}

/* No report is written over a part. */
static int check_outputs(const struct merge *m, char **parts, int nparts,
			 struct ub_error *err)
{
	const char *out[] = {m->csv, m->json, m->html};
	const char *name[] = {"--csv", "--json", "--html"};
	struct ub_fileid id[3], p;
	int s = check_clash(m, NULL, NULL, err);
	for (int o = 0; !s && o < 3; o++)
		if (out[o])
			ub_fileid_get(out[o], &id[o]);
	for (int i = 0; !s && i < nparts; i++) {
		ub_fileid_get(parts[i], &p);
		for (int o = 0; o < 3; o++)
			if (out[o] && strcmp(out[o], "-") && ub_fileid_same(&id[o], &p))
				return ub_fail(err, UB_USAGE, "merge: %s %s is the part %s: "
					       "the report would overwrite it", name[o],
					       out[o], parts[i]);
	}
	return s;
}

/* "merge: shards 2, 5 of 7 are missing" (the first ten named). */
static int missing(const unsigned char *seen, size_t n, struct ub_error *err)
{
	char list[256] = "";
	size_t used = 0, count = 0;
	for (size_t k = 0; k < n; k++)
		if (!seen[k] && count++ < 10 && used < sizeof list)
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%zu",
						 count > 1 ? ", " : "", k);
	if (!count)
		return 0;
	if (count > 10)
		return ub_fail(err, UB_USAGE, "merge: %zu of the %zu shards are missing: "
			       "%s, ...", count, n, list);
	return ub_fail(err, UB_USAGE, "merge: %s %s of %zu %s missing",
		       count > 1 ? "shards" : "shard", list, n, count > 1 ? "are" : "is");
}

/* Every part, read and added into acc (acc: the first). */
static int add_parts(char **parts, int nparts, struct ub_partial *acc,
		     struct ub_error *err)
{
	struct ub_partial p;
	int s = ub_partial_read(parts[0], acc, err);
	unsigned char *seen = s ? NULL : calloc(acc->nshards, 1);
	int *who = seen ? calloc(acc->nshards, sizeof *who) : NULL;
	if (!s && !who)
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s)
		seen[acc->shard] = 1;
	for (int i = 1; !s && i < nparts; i++) {
		if ((s = ub_partial_read(parts[i], &p, err)))
			break;
		s = ub_partial_compatible(acc, parts[0], &p, parts[i], err);
		if (!s && seen[p.shard])
			s = ub_fail(err, UB_USAGE, "merge: %s and %s are both shard %zu/%zu",
				    parts[who[p.shard]], parts[i], p.shard, p.nshards);
		if (!s) {
			seen[p.shard] = 1;
			who[p.shard] = i;
			s = ub_partial_merge(acc, &p, err);
			if (s)
				ub_prefix(err, s, "merge: %s: ", parts[i]);
		}
		ub_partial_free(&p);
	}
	if (!s)
		s = missing(seen, acc->nshards, err);
	free(seen);
	free(who);
	return s;
}

/* The rows of the merged run into res, as the run made them. */
static int rows(const struct ub_config *cfg, struct ub_partial *acc,
		struct ub_result *res, struct ub_error *err)
{
	int s = 0;
	for (int t = 0; t < acc->ndata; t++) {
		struct ub_data *d = &res->data[res->ndata++];
		d->dt = acc->data[t].dt;
		d->n = acc->data[t].n;
		d->rejected = acc->data[t].rejected;
		d->nin = cfg->op->ninputs;
		d->shape.ndim = 1;
		d->shape.dim[0] = d->n;
	}
	for (int i = 0; !s && i < acc->nrows; i++) {
		struct ub_prow *pr = &acc->rows[i];
		int m = ub_mode_find(pr->mode), t = 0;
		while (t < res->ndata && res->data[t].dt != pr->dt)
			t++;
		char *src = NULL;
		const char *na = NULL;
		if (t == res->ndata || (m < 0 && strcmp(pr->mode, "torch")))
			return ub_fail(err, UB_USAGE, "merge: a row of the parts (%s %s) "
				       "is not one of the run", ub_dtypes[pr->dt].name, pr->mode);
		if (m >= 0 && !(s = ub_kernel_source(cfg, pr->dt, &src, err)))
			na = ub_mode_na(cfg, (enum ub_mode)m, src);
		free(src);
		if (!s && strcmp(na ? na : "", pr->na))
			s = ub_fail(err, UB_USAGE, "merge: mode %s of the parts %s, here "
				    "it %s", pr->mode, pr->na[0] ? "did not apply" : "applied",
				    na ? "does not" : "does");
		if (s)
			break;
		struct ub_row *r = ub_row_new(res, &res->data[t], UB_ROW_NONE,
					      cfg->op->nsteps > 0,
					      m >= 0 ? ub_modes[m].name : "torch",
					      m >= 0 ? ub_modes[m].opts : UB_TORCH_OPTS);
		ub_row_set_approx(r, pr->approx);
		r->na = na;
		if (na)
			continue;
		if (pr->st.n != res->data[t].n)
			return ub_fail(err, UB_USAGE, "merge: the parts hold %zu of the "
				       "%zu elements of %s %s", pr->st.n, res->data[t].n,
				       ub_dtypes[pr->dt].name, pr->mode);
		r->st = pr->st;
		r->fig = pr->fig; /* the row owns them now */
		pr->fig = NULL;
		r->has_worst = r->st.ncomparable > 0;
	}
	return s;
}

/* The run as the parts' options set it up here, checked to be theirs. */
static int setup(struct ub_partial *acc, const char *first, struct ub_cli *cli,
		 struct ub_catalog *cat, struct ub_op *op, struct ub_config *cfg,
		 struct ub_user_kernel *uk, struct ub_error *err)
{
	static struct ub_run_id id;
	char **argv = calloc((size_t)acc->nargs + 2, sizeof *argv);
	if (!argv)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	argv[0] = "ulpbench";
	for (int i = 0; i < acc->nargs; i++)
		argv[i + 1] = acc->args[i];
	int s = ub_cli_parse(acc->nargs + 1, argv, cli, err);
	free(argv);
	if (!s)
		s = ub_load_catalogs(cli, cat, err);
	if (!s)
		s = ub_setup_op(cli, cat, op, cfg, uk, err);
	cfg->nshards = acc->nshards;
	if (!s)
		s = ub_run_id_make(cli, cfg, &id, err);
	int f = s ? -1 : ub_run_id_diff(&acc->id, &id);
	if (f >= 0)
		s = ub_fail(err, UB_USAGE, "merge: the parts' %s is '%.300s', but their "
			    "run set up here gives '%.300s' (did a file change since "
			    "the shards ran?)", ub_run_id_names[f], acc->id.v[f], id.v[f]);
	if (s)
		ub_prefix(err, s, "%s: ", first);
	return s;
}

static int merge(const struct merge *m, char **parts, int nparts,
		 struct ub_error *err)
{
	static struct ub_partial acc;
	struct ub_cli cli;
	struct ub_catalog cat = {0};
	struct ub_op op;
	struct ub_config cfg;
	struct ub_user_kernel uk = {0};
	struct ub_result res = {0};
	struct ub_outputs out;
	char explain[8192];
	int s = check_outputs(m, parts, nparts, err);
	if (!s)
		s = ub_outputs_open(&out, m->csv, 0, m->json, m->html, err);
	if (s)
		return s;
	s = add_parts(parts, nparts, &acc, err);
	if (!s)
		s = setup(&acc, parts[0], &cli, &cat, &op, &cfg, &uk, err);
	if (!s) /* no report over a file the run reads */
		s = check_clash(m, &cli, &op, err);
	/* the page as the single run's: its figures, its explain commands */
	cfg.figures = 1;
	cfg.explain_opts = s || ub_explain_opts(&cli, explain, sizeof explain) ? NULL
									       : explain;
	if (!s)
		s = ub_result_init(&cfg, &res, err);
	if (!s)
		s = rows(&cfg, &acc, &res, err);
	if (!s && !m->quiet && !ub_outputs_on_stdout(&out))
		ub_report_table(stdout, &res);
	s = ub_outputs_finish(&out, s, &res, err);
	ub_result_free(&res);
	ub_partial_free(&acc);
	ub_user_kernel_free(&uk);
	ub_catalog_free(&cat);
	return s;
}

/* The parts named: a file, or a directory's DIR/part.K files (K digits
 * only: a temporary part.K.tmpPID.N is no part), in the order of K. */
struct parts {
	char **v;
	int n, cap;
};

static int add_path(struct parts *p, const char *dir, const char *name)
{
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 64;
		char **v = realloc(p->v, (size_t)cap * sizeof *v);
		if (!v)
			return -1;
		p->v = v;
		p->cap = cap;
	}
	size_t len = strlen(dir) + strlen(name) + 2;
	if (!(p->v[p->n] = malloc(len)))
		return -1;
	snprintf(p->v[p->n++], len, "%s%s%s", dir, dir[0] ? "/" : "", name);
	return 0;
}

static int part_number(const char *name, unsigned long *k)
{
	char *end;
	if (strncmp(name, "part.", 5) || name[5] < '0' || name[5] > '9')
		return 0;
	*k = strtoul(name + 5, &end, 10);
	return !*end;
}

static int by_number(const void *a, const void *b)
{
	unsigned long x, y;
	const char *p = strrchr(*(char *const *)a, '/'), *q = strrchr(*(char *const *)b, '/');
	part_number(p + 1, &x);
	part_number(q + 1, &y);
	return x < y ? -1 : x > y;
}

static int list_dir(struct parts *p, const char *dir, struct ub_error *err)
{
	DIR *d = opendir(dir);
	unsigned long k;
	int before = p->n;
	if (!d)
		return ub_fail(err, UB_USAGE, "merge: %s: cannot read: %s", dir, strerror(errno));
	for (struct dirent *e; (e = readdir(d));)
		if (part_number(e->d_name, &k) && add_path(p, dir, e->d_name)) {
			closedir(d);
			return ub_fail(err, UB_RUNTIME, "out of memory");
		}
	closedir(d);
	if (p->n == before)
		return ub_fail(err, UB_USAGE, "merge: %s holds no part.K file", dir);
	qsort(p->v + before, (size_t)(p->n - before), sizeof *p->v, by_number);
	return 0;
}

int ub_cmd_merge(int argc, char **argv, struct ub_error *err)
{
	struct merge m = {0};
	struct parts p = {0};
	struct stat st;
	int first = 0;
	int s = ub_subopts_parse(argc, argv, opts, NOPTS, USAGE, option, &m, &first, err);
	if (s < 0)
		return 0; /* --help */
	if (!s && first >= argc)
		s = ub_fail(err, UB_USAGE, "merge: no partial files given (see "
			    "ulpbench merge --help)");
	for (int i = first; !s && i < argc; i++)
		if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
			s = list_dir(&p, argv[i], err);
		else if (add_path(&p, "", argv[i]))
			s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s)
		s = merge(&m, p.v, p.n, err);
	for (int i = 0; i < p.n; i++)
		free(p.v[i]);
	free(p.v);
	return s;
}

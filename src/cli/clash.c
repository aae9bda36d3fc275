/* clash.c — outputs against outputs and inputs (clash.h). */
#include "clash.h"
#include "fileid.h"
#include "paths.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int ub_clash_add(struct ub_clash *c, int output, const char *opt,
		 const char *arg, const char *path)
{
	if (c->n == c->cap) {
		int cap = c->cap ? 2 * c->cap : 16;
		struct ub_named *v = realloc(c->v, (size_t)cap * sizeof *v);
		if (!v)
			return -1;
		c->v = v;
		c->cap = cap;
	}
	struct ub_named *e = &c->v[c->n++];
	e->output = output;
	e->opt = opt;
	snprintf(e->arg, sizeof e->arg, "%s", arg);
	snprintf(e->path, sizeof e->path, "%s", path);
	return 0;
}

int ub_clash_outputs(struct ub_clash *c, const struct ub_cli *cli,
		     const char *on_stdout_what)
{
	int r = 0, on_stdout = 0;
	const char *const opts[] = {"--csv", "--json", "--html"};
	const char *const paths[] = {cli->csv, cli->json, cli->html};
	for (int i = 0; i < 3; i++)
		if (paths[i]) {
			r |= ub_clash_add(c, 1, opts[i], paths[i], paths[i]);
			on_stdout |= strcmp(paths[i], "-") == 0;
		}
	if (!on_stdout)
		r |= ub_clash_add(c, 1, "stdout", on_stdout_what, "-");
	if (cli->dump) {
		r |= ub_clash_add(c, 1, "--dump", cli->dump, cli->dump);
		c->dump = cli->dump;
		c->op = cli->op;
		c->ndtypes = cli->cfg.ndtypes;
		memcpy(c->dtypes, cli->cfg.dtypes, sizeof c->dtypes);
	}
	return r;
}

int ub_clash_inputs(struct ub_clash *c, const struct ub_cli *cli,
		    const struct ub_op *op)
{
	char buf[4096], rel[512];
	struct ub_error ignored;
	int r = 0;
	for (int i = 0; i < cli->ninputs; i++) {
		const char *eq = strchr(cli->input_spec[i], '=');
		if (eq)
			r |= ub_clash_add(c, 0, "--input", cli->input_spec[i], eq + 1);
	}
	if (cli->kernel)
		r |= ub_clash_add(c, 0, "--kernel", cli->kernel, cli->kernel);
	for (int i = 0; i < cli->nfpcore; i++)
		r |= ub_clash_add(c, 0, "--fpcore", cli->fpcore[i], cli->fpcore[i]);
	if (cli->catalog)
		r |= ub_clash_add(c, 0, "--catalog", cli->catalog, cli->catalog);
	else if (!ub_data_path("suites/ops.fpcore", buf, sizeof buf, &ignored))
		r |= ub_clash_add(c, 0, "the shipped catalog", buf, buf);
	snprintf(rel, sizeof rel, "kernels/%s", op && op->kernel ? op->kernel : "");
	if (op && op->kernel && !cli->kernel &&
	    !ub_data_path(rel, buf, sizeof buf, &ignored))
		r |= ub_clash_add(c, 0, "the op's kernel", buf, buf);
	return r;
}

/* Whether id names a file that --dump writes: DIR/OP.DTYPE.*.npy for a
 * dtype of the run, DIR being dump (its identity). */
static int dumped(const struct ub_clash *c, const struct ub_fileid *dump,
		  const struct ub_fileid *id)
{
	char dir[4200];
	const char *slash = strrchr(id->path, '/');
	if (!slash)
		return 0;
	snprintf(dir, sizeof dir, "%.*s", (int)(slash - id->path), id->path);
	struct ub_fileid d;
	ub_fileid_get(dir[0] ? dir : "/", &d);
	size_t ol = strlen(c->op), bl = strlen(slash + 1);
	if (!ub_fileid_same(&d, dump) || strncmp(slash + 1, c->op, ol) != 0 ||
	    slash[1 + ol] != '.' || bl < 4 || strcmp(slash + 1 + bl - 4, ".npy") != 0)
		return 0;
	for (int t = 0; t < c->ndtypes; t++) {
		const char *dt = ub_dtypes[c->dtypes[t]].name;
		size_t dl = strlen(dt);
		if (!strncmp(slash + 2 + ol, dt, dl) && slash[2 + ol + dl] == '.')
			return 1;
	}
	return 0;
}

/* Which of the command's files a --dump file would overwrite. */
static int check_dump(const struct ub_clash *c, const struct ub_fileid *ids,
		      struct ub_error *err)
{
	struct ub_fileid dump;
	ub_fileid_get(c->dump, &dump);
	for (int i = 0; i < c->n; i++) {
		const struct ub_named *e = &c->v[i];
		if (strcmp(e->opt, "--dump") && strcmp(e->path, "-") && dumped(c, &dump, &ids[i]))
			return ub_fail(err, UB_USAGE, "%s %s is a file that --dump %s "
				       "writes (%s.DTYPE.*.npy): %s", e->opt, e->arg,
				       c->dump, c->op, e->output ? "give each output a place "
				       "of its own" : "the dump would overwrite it");
	}
	return 0;
}

static int clash(const struct ub_named *a, const struct ub_named *b,
		 struct ub_error *err)
{
	if (!strcmp(a->opt, "stdout")) { /* name the option first */
		const struct ub_named *t = a;
		a = b;
		b = t;
	}
	if (!b->output)
		return ub_fail(err, UB_USAGE, "%s %s is the same file as %s %s: "
			       "the %s would overwrite it", a->opt, a->arg, b->opt,
			       b->arg, strcmp(a->opt, "--dump") ? "report" : "dump");
	if (!strcmp(b->opt, "stdout")) {
		size_t n = strlen(b->arg);
		return ub_fail(err, UB_USAGE, "%s %s is the same file as stdout, where "
			       "%s go%s: %s%s%s", a->opt, a->arg, b->arg,
			       n && b->arg[n - 1] == 's' ? "" : "es",
			       strncmp(a->opt, "--", 2) ? "give it a file of its own" :
			       "write it to stdout with ", strncmp(a->opt, "--", 2) ? "" :
			       a->opt, strncmp(a->opt, "--", 2) ? "" : " - instead");
	}
	return ub_fail(err, UB_USAGE, "%s %s and %s %s are the same file: each "
		       "output needs one of its own", b->opt, b->arg, a->opt, a->arg);
}

int ub_clash_check(const struct ub_clash *c, struct ub_error *err)
{
	struct ub_fileid *ids = calloc((size_t)c->n + 1, sizeof *ids);
	if (!ids)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (int i = 0; i < c->n; i++)
		ub_fileid_get(c->v[i].path, &ids[i]);
	int s = 0;
	/* outputs first in each pair, the earlier output first */
	for (int i = 0; !s && i < c->n; i++)
		for (int j = 0; !s && j < c->n; j++) {
			const struct ub_named *a = &c->v[i], *b = &c->v[j];
			if (i == j || !a->output || (b->output && j > i) ||
			    (ids[i].exists && S_ISCHR(ids[i].mode)))
				continue;
			if (ub_fileid_same(&ids[i], &ids[j]))
				s = clash(a, b, err);
		}
	if (!s && c->dump)
		s = check_dump(c, ids, err);
	free(ids);
	return s;
}

void ub_clash_free(struct ub_clash *c)
{
	free(c->v);
	memset(c, 0, sizeof *c);
}

int ub_clash_check_cli(const struct ub_cli *cli, const struct ub_op *op,
		       struct ub_error *err)
{
	struct ub_clash c = {0};
	int s = ub_clash_outputs(&c, cli, "the table") | ub_clash_inputs(&c, cli, op)
		? ub_fail(err, UB_RUNTIME, "out of memory") : 0;
	if (!s)
		s = ub_clash_check(&c, err);
	ub_clash_free(&c);
	return s;
}

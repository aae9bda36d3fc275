/* main.c — the ulpbench command: parse options, run, report, exit.
 * The only place that prints errors ("ulpbench: MSG") and exits. */
#include "config.h"

#include "applicable.h"
#include "cli.h"
#include "commands.h"
#include "nvrtc.h"
#include "outfile.h"
#include "paths.h"
#include "report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int die(const struct ub_error *err, int status)
{
	fprintf(stderr, "ulpbench: %s\n", err->msg);
	return status;
}

static int load_catalog(const struct ub_cli *cli, struct ub_catalog *cat,
			struct ub_error *err)
{
	char path[4096];
	if (cli->catalog)
		return ub_catalog_load(cli->catalog, cat, err);
	int s = ub_data_path("suites/ops.fpcore", path, sizeof path, err);
	return s ? s : ub_catalog_load(path, cat, err);
}

static void list_ops(const struct ub_catalog *cat)
{
	for (int i = 0; i < cat->nops; i++) {
		const struct ub_op *op = &cat->ops[i];
		const char *names[UB_MAX_INPUTS + 64];
		char math[4096], step[4096];
		int nn = 0;
		for (int k = 0; k < op->ninputs; k++)
			names[nn++] = op->inputs[k];
		ub_expr_print(op->math, names, math, sizeof math);
		printf("%-12s (", op->name);
		for (int k = 0; k < op->ninputs; k++)
			printf("%s%s", k ? " " : "", op->inputs[k]);
		printf(")  math: %s", math);
		if (op->kernel_expr) {
			ub_expr_print(op->kernel_expr, names, math, sizeof math);
			printf("  kernel: %s", math);
		}
		printf("  torch:");
		for (int k = 0; k < op->nsteps && nn < UB_MAX_INPUTS + 64; k++) {
			ub_expr_print(op->torch[k].e, names, step, sizeof step);
			printf(" %s=R%s%s%s", op->torch[k].name,
			       op->torch[k].every_op ? "op" : "", step,
			       k + 1 < op->nsteps ? ";" : "");
			names[nn++] = op->torch[k].name;
		}
		printf("\n");
	}
}

static int find_op(const struct ub_catalog *cat, const char *name,
		   const struct ub_op **op, struct ub_error *err)
{
	char valid[1024] = "";
	*op = ub_catalog_find(cat, name);
	if (*op)
		return 0;
	for (int i = 0; i < cat->nops; i++)
		snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
			 i ? ", " : "", cat->ops[i].name);
	return ub_fail(err, UB_USAGE, "unknown op '%s' (valid: %s)", name, valid);
}

/* Every requested dtype must be one the kernel under test is written for. */
static int check_dtypes(const struct ub_config *cfg, const struct ub_op *op,
			struct ub_error *err)
{
	char valid[64] = "";
	for (int t = 0; t < UB_NDTYPES; t++)
		if (op->kernel_dtypes >> t & 1)
			snprintf(valid + strlen(valid), sizeof valid - strlen(valid),
				 "%s%s", valid[0] ? ", " : "", ub_dtypes[t].name);
	for (int t = 0; t < cfg->ndtypes; t++)
		if (!(op->kernel_dtypes >> cfg->dtypes[t] & 1))
			return ub_fail(err, UB_USAGE, "%s: kernel %s is written for %s "
				       "only (its :dtypes in the catalog), not %s",
				       op->name, op->kernel ? op->kernel : "(generated)", valid,
				       ub_dtypes[cfg->dtypes[t]].name);
	return 0;
}

/* Fails before any work if the dump directory cannot be written. */
static int check_dump_dir(const char *dir, struct ub_error *err)
{
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return ub_fail(err, UB_IO, "%s: cannot create directory: %s", dir,
			       strerror(errno));
	if (access(dir, W_OK | X_OK) != 0)
		return ub_fail(err, UB_IO, "%s: cannot write: %s", dir, strerror(errno));
	return 0;
}

static int run(struct ub_cli *cli, const struct ub_catalog *cat,
	       struct ub_error *err)
{
	const struct ub_op *found;
	struct ub_op op;
	struct ub_outfile csv = {0};
	struct ub_result res;
	int s = find_op(cat, cli->op, &found, err);
	if (s)
		return s;
	op = *found; /* a copy: --domain changes it for this run only */
	s = check_dtypes(&cli->cfg, &op, err);
	if (!s)
		s = ub_cli_apply_domains(cli, &op, err);
	if (!s)
		s = ub_cli_bind_inputs(cli, &op, err);
	cli->cfg.op = &op;
	if (!s)
		s = ub_check_applicable(&cli->cfg, cli->modes_given, err);
	if (!s && cli->dump)
		s = check_dump_dir(cli->dump, err);
	if (!s && cli->csv)
		s = ub_outfile_open(&csv, cli->csv, err);
	if (s)
		return s;
	s = ub_run(&cli->cfg, &res, err);
	if (!s && !(cli->csv && csv.is_stdout))
		ub_report_table(stdout, &res);
	if (!s && cli->dump)
		s = ub_report_dump(cli->dump, &res, err);
	if (cli->csv) {
		if (!s) {
			ub_report_csv(csv.f, &res);
			s = ub_outfile_commit(&csv, err);
		} else {
			ub_outfile_abort(&csv);
		}
	}
	ub_result_free(&res);
	return s;
}

/* `ulpbench NAME ...` for a subcommand of commands.h: its status, or -1
 * when argv[1] names none. */
static int subcommand(int argc, char **argv, struct ub_error *err)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **, struct ub_error *);
	} cmds[] = {
#define X(name, fn, help) {name, fn},
		UB_COMMANDS(X)
#undef X
		{NULL, NULL}};
	for (int i = 0; argc > 1 && cmds[i].name; i++)
		if (strcmp(argv[1], cmds[i].name) == 0)
			return cmds[i].fn(argc - 1, argv + 1, err);
	return -1;
}

int main(int argc, char **argv)
{
	struct ub_cli cli;
	struct ub_catalog cat = {0};
	struct ub_error err = {{0}};
	char buf[256];
	int s = subcommand(argc, argv, &err);
	if (s >= 0)
		return s ? die(&err, s) : 0;
	s = ub_cli_parse(argc, argv, &cli, &err);
	if (s)
		return die(&err, s);
	switch (cli.action) {
	case UB_ACT_HELP:
		ub_cli_help(stdout);
		return 0;
	case UB_ACT_VERSION:
		printf("ulpbench %s (NVRTC %s)\n", PACKAGE_VERSION, ub_nvrtc_version());
		return 0;
	case UB_ACT_LIST_MODES:
		for (int m = 0; m < UB_NMODES; m++)
			printf("%-11s %-18s %s\n", ub_modes[m].name,
			       ub_modes[m].opts[0] ? ub_modes[m].opts : "(defaults)",
			       ub_modes[m].desc);
		return 0;
	case UB_ACT_LIST_DTYPES:
		printf("%s\n", ub_dtype_names(buf, sizeof buf));
		return 0;
	default:
		break;
	}
	s = load_catalog(&cli, &cat, &err);
	if (!s && cli.action == UB_ACT_LIST_OPS)
		list_ops(&cat);
	else if (!s)
		s = run(&cli, &cat, &err);
	ub_catalog_free(&cat);
	return s ? die(&err, s) : 0;
}

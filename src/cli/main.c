/* main.c — the ulpbench command: parse options, run, report, exit.
 * The only place that prints errors ("ulpbench: MSG") and exits. */
#include "config.h"

#include "applicable.h"
#include "clash.h"
#include "cli.h"
#include "commands.h"
#include "mufu.h"
#include "native.h"
#include "nvrtc.h"
#include "outfile.h"
#include "partial.h"
#include "paths.h"
#include "ref_llvm.h"
#include "progress.h"
#include "nvrtc_cache.h"
#include "report.h"
#include "run_toolkits.h"
#include "setup.h"
#include "shaped.h"
#include "tmpfiles.h"
#include "user_kernel.h"
#include "why.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int die(const struct ub_error *err, int status)
{
	if (err->msg[0])
		fprintf(stderr, "ulpbench: %s\n", err->msg);
	else /* never an empty "ulpbench: " */
		fprintf(stderr, "ulpbench: failed without a message (exit status %d): "
			"an internal error\n", status);
	return status;
}

/* The exit status of a command that ended with status s: what it wrote
 * to stdout (the table, a list, a report on '-') must have reached it,
 * else UB_IO with the cause ("stdout: cannot write: No space left on
 * device"). */
static int finish(int s, struct ub_error *err)
{
	errno = 0;
	if (!s && (fflush(stdout) != 0 || ferror(stdout)))
		s = ub_fail(err, UB_IO, "stdout: cannot write: %s",
			    strerror(errno ? errno : EIO));
	return s ? die(err, s) : 0;
}

/* Fails before any work if the dump directory cannot be written, or is
 * something else than a directory. */
int ub_check_dump_dir(const char *dir, struct ub_error *err)
{
	struct stat st;
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		return ub_fail(err, UB_USAGE, "%s: --dump needs a directory, found %s", dir,
			       S_ISREG(st.st_mode) ? "a regular file" :
			       S_ISFIFO(st.st_mode) ? "a FIFO" :
			       S_ISSOCK(st.st_mode) ? "a socket" : "a device");
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return ub_fail(err, UB_IO, "%s: cannot create directory: %s", dir,
			       strerror(errno));
	if (access(dir, W_OK | X_OK) != 0)
		return ub_fail(err, UB_IO, "%s: cannot write: %s", dir, strerror(errno));
	return 0;
}

/* --partial FILE: the run's part, written whole. */
static int write_partial(const struct ub_cli *cli, const struct ub_result *res,
			 const struct ub_run_id *id, struct ub_error *err)
{
	const char *args[2 * UB_MAX_GIVEN];
	struct ub_partial p;
	int n = ub_cli_args(cli, UB_ROLE_RUN, args, 2 * UB_MAX_GIVEN);
	int s = ub_partial_from_result(res, id, args, n, &p, err);
	if (!s)
		s = ub_partial_write(cli->partial, &p, err);
	ub_partial_free(&p);
	return s;
}

/* --times: a line per dtype, the CPU seconds of each stage over every
 * thread (result.h's UB_STAGES). */
static void print_times(FILE *f, const struct ub_result *res)
{
	static const char *const names[] = {
#define X(name) #name,
		UB_STAGES(X)
#undef X
	};
	for (int t = 0; t < res->ndata; t++) {
		const struct ub_data *d = &res->data[t];
		double all = 0;
		fprintf(f, "ulpbench: --times: %s %s, CPU s:", res->cfg->op->name,
			ub_dtypes[d->dt].name);
		for (int k = 0; k < UB_NSTAGES; k++) {
			fprintf(f, " %s %.3f", names[k], d->cpu[k]);
			all += d->cpu[k];
		}
		fprintf(f, " (all %.3f)\n", all);
	}
}

/* --resume: cli->partial is already this shard's complete part. */
static int partial_done(const struct ub_cli *cli, const struct ub_run_id *id)
{
	struct ub_partial p;
	struct ub_error e;
	if (access(cli->partial, F_OK) != 0 || ub_partial_read(cli->partial, &p, &e))
		return 0;
	int done = ub_run_id_diff(&p.id, id) < 0 && p.shard == cli->shard &&
		   p.nshards == (cli->nshards ? cli->nshards : 1);
	ub_partial_free(&p);
	return done;
}

/* --why: the analysis of each row that differs (why.h), attached to the
 * rows for the reports. */
static int why(const struct ub_cli *cli, struct ub_result *res, struct ub_why *w,
	       struct ub_error *err)
{
	w->fix_dir = cli->fix_dir;
	int s = ub_why_run(res, w, err);
	for (int k = 0; !s && k < w->nrows; k++)
		res->rows[w->rows[k].row].why = &w->rows[k];
	return s;
}

int ub_run_command(struct ub_cli *cli, const struct ub_catalog *cat,
		   struct ub_error *err)
{
	struct ub_op op;
	struct ub_outputs out;
	struct ub_progress prog;
	struct ub_result res;
	struct ub_config cfg;
	struct ub_user_kernel uk = {0};
	static struct ub_run_id id; /* large */
	char explain[8192];
	int s = cli->at ? ub_fail(err, UB_USAGE, "--at belongs to `ulpbench explain` "
				  "(see ulpbench explain --help)") : 0;
	for (int i = 0; !s && i < cli->ngiven; i++)
		if (ub_opts[cli->given[i].opt].role == UB_ROLE_SBATCH)
			s = ub_fail(err, UB_USAGE, "--%s belongs to `ulpbench sbatch` "
				    "(see ulpbench sbatch --help)",
				    ub_opts[cli->given[i].opt].name);
	/* progress from the start: a --kernel file's modes compile while
	 * the op is set up (nvcc.h) */
	ub_progress_init(&prog, stderr,
			 ub_progress_mode(stderr, cli->quiet, cli->verbose));
	cli->cfg.progress = ub_progress_stage;
	cli->cfg.progress_ctx = &prog;
	if (!s)
		s = ub_setup_op(cli, cat, &op, &cfg, &uk, err);
	if (!s && (cli->shape || cli->orders)) /* shaped ops run elsewhere */
		s = ub_fail(err, UB_USAGE, "--%s: %s is not a shaped op (docs/reductions.md)",
			    cli->shape ? "shape" : "orders", cli->op);
	if (!s) /* several toolkits: what they refuse, before any work */
		s = ub_toolkits_check(&cfg, cli->partial || cli->nshards, err);
	ub_progress_clear(&prog);
	cfg.shard = cli->shard;
	cfg.nshards = cli->nshards;
	if (!s && cli->partial)
		s = ub_run_id_make(cli, &cfg, &id, err);
	if (!s && cli->resume && partial_done(cli, &id)) {
		fprintf(stderr, "ulpbench: %s: shard %zu/%zu is complete already "
			"(--resume)\n", cli->partial, cli->shard,
			cli->nshards ? cli->nshards : 1);
		ub_user_kernel_free(&uk);
		ub_progress_end(&prog);
		return 0;
	}
	if (!s) /* no output over another, or over an input */
		s = ub_clash_check_cli(cli, &op, err);
	if (!s && cli->cfg.times && cli->dump)
		s = ub_fail(err, UB_USAGE, "--times: not with --dump (a run that keeps "
			    "every element is not timed by stage)");
	if (!s && cli->dump)
		s = ub_check_dump_dir(cli->dump, err);
	if (!s && cli->fix_dir)
		s = ub_why_check_dir(cli->fix_dir, err);
	if (!s && cli->why && cli->cfg.times)
		s = ub_fail(err, UB_USAGE, "--times: not with --why (a run that keeps "
			    "every element is not timed by stage)");
	if (!s)
		s = ub_outputs_open(&out, cli->csv, cli->append, cli->json, cli->html, err);
	if (s) {
		ub_user_kernel_free(&uk);
		ub_progress_end(&prog);
		return s;
	}
	ub_progress_run(&prog, "");
	cfg.progress = ub_progress_stage;
	cfg.stream = !cli->dump && !cli->launcher && !cli->why; /* they keep every
			element; a launcher's host code runs in this process, one
			call at a time */
	if (cli->why && cfg.exec == UB_EXEC_DEFAULT && !getenv("ULPBENCH_EXEC"))
		cfg.exec = UB_EXEC_INTERP; /* its kernels run once: no native build */
	/* the page's figures; a part keeps them for the merge's page */
	cfg.figures = cli->html != NULL || cli->partial != NULL;
	/* NULL (no explain command on the page) rather than one cut short */
	cfg.explain_opts = ub_explain_opts(cli, explain, sizeof explain) ? NULL : explain;
	cfg.progress_ctx = &prog;
	s = ub_run_toolkits(&cfg, &res, err);
	ub_progress_end(&prog);
	struct ub_why w = {0};
	if (!s && cli->why)
		s = why(cli, &res, &w, err);
	if (!s && cfg.times)
		print_times(stderr, &res);
	if (!s && cli->partial) /* a part of the run: its figures go there */
		s = write_partial(cli, &res, &id, err);
	else if (!s && !ub_outputs_on_stdout(&out))
		ub_report_table(stdout, &res);
	if (!s && cli->why == 2 && !ub_outputs_on_stdout(&out))
		ub_why_print(stdout, &res, &w);
	if (!s && cli->dump)
		s = ub_report_dump(cli->dump, &res, err);
	s = ub_outputs_finish(&out, s, &res, err);
	ub_result_free(&res);
	ub_why_free(&w);
	ub_user_kernel_free(&uk);
	return s;
}

/* `ulpbench NAME ...` for a subcommand of commands.h: 1 with its status
 * in *s, or 0 when argv[1] names none. */
static int subcommand(int argc, char **argv, int *s, struct ub_error *err)
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
		if (strcmp(argv[1], cmds[i].name) == 0) {
			err->msg[0] = '\0';
			*s = cmds[i].fn(argc - 1, argv + 1, err);
			if (*s < 0 || *s > UB_IO) { /* never a status of its own */
				char msg[sizeof err->msg];
				snprintf(msg, sizeof msg, "%s", err->msg[0] ? err->msg : "no message");
				*s = ub_fail(err, UB_RUNTIME, "%s: internal error (status "
					     "%d): %s", argv[1], *s, msg);
			}
			return 1;
		}
	return 0;
}

int main(int argc, char **argv)
{
	struct ub_cli cli;
	struct ub_catalog cat = {0};
	struct ub_error err = {{0}};
	char buf[256];
	ub_tmp_handle_signals(); /* a signal leaves no temporary file */
	int s = 0;
	if (subcommand(argc, argv, &s, &err))
		return finish(s, &err);
	s = ub_cli_parse(argc, argv, &cli, &err);
	if (s)
		return die(&err, s);
	if (cli.verbose)
		ub_cache_notices(stderr);
	ub_native_notices(stderr);
	switch (cli.action) {
	case UB_ACT_HELP:
		ub_cli_help(stdout);
		return finish(0, &err);
	case UB_ACT_VERSION:
		printf("ulpbench %s (NVRTC %s)\n", PACKAGE_VERSION, ub_nvrtc_version());
		printf("reference: %s\n", ub_llvm_reference_name());
		printf("sm_90 approximate instructions: %s (%s)\n",
		       ub_mufu_ready() ? "measured" : "modelled", ub_mufu_where());
		return finish(0, &err);
	case UB_ACT_LIST_MODES:
		for (int m = 0; m < UB_NMODES; m++)
			printf("%-11s %-18s %s\n", ub_modes[m].name,
			       ub_modes[m].opts[0] ? ub_modes[m].opts : "(defaults)",
			       ub_modes[m].desc);
		return finish(0, &err);
	case UB_ACT_LIST_DTYPES:
		printf("%s\n", ub_dtype_names(buf, sizeof buf));
		return finish(0, &err);
	default:
		break;
	}
	s = ub_load_catalogs(&cli, &cat, &err);
	/* a shaped op (docs/reductions.md), unless a catalog defines the name;
	 * a catalog's row op (docs/rowops.md) first */
	static struct ub_shaped_op fp;
	const struct ub_rowop *ro = s || !cli.op ? NULL : ub_catalog_find_rowop(&cat, cli.op);
	if (ro)
		ub_shaped_of_rowop(ro, &fp);
	const struct ub_shaped_op *sop = s || !cli.op || ub_catalog_find(&cat, cli.op) ? NULL
					 : ro ? &fp : ub_shaped_find(cli.op);
	if (sop && cli.why && cli.action != UB_ACT_LIST_OPS)
		s = ub_fail(&err, UB_USAGE, "--why: %s is an op over rows; why explains "
			    "elementwise ops (docs/why.md)", cli.op);
	else if (sop && (cli.toolkit || cli.torch_toolkit))
		s = ub_fail(&err, UB_USAGE, "--%s: %s is a shaped op, compiled with the "
			    "default toolkit (docs/reductions.md)",
			    cli.toolkit ? "toolkit" : "torch-toolkit", cli.op);
	else if (sop && cli.action == UB_ACT_LIST_OPS)
		s = ub_shaped_list(stdout, sop);
	else if (sop)
		s = ub_shaped_main(&cli, sop, &err);
	else if (!s && cli.action == UB_ACT_LIST_OPS) {
		s = ub_list_ops(stdout, &cat, cli.op, &err);
		if (!s && !cli.op)
			ub_shaped_list_all(stdout, &cat);
	}
	else if (!s)
		s = ub_run_command(&cli, &cat, &err);
	ub_catalog_free(&cat);
	if (getenv("ULPBENCH_CACHE_DEBUG")) { /* nvrtc_cache.h; for the tests */
		int hits, misses;
		ub_cache_counts(&hits, &misses);
		fprintf(stderr, "ulpbench: compile cache: %d hits, %d misses\n",
			hits, misses);
	}
	return finish(s, &err);
}

/* why_cmd.c — `ulpbench why --op NAME [RUN OPTIONS]`: the run with --why,
 * its table, then the full report of each mode that differs (why.h). */
#include "why.h"
#include "cli.h"
#include "commands.h"
#include "setup.h"
#include "shaped.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: ulpbench why --op NAME [--mode LIST] [--dtype T] [-n N] [--seed S]\n"
		   "       [--kernel FILE.cu [--entry NAME] [--args P=NAME,...] | --triton FILE.py:KERNEL ...]\n"
		   "       [--domain NAME=LO:HI] [--input NAME=FILE.npy] [--fix-dir DIR]\n"
		   "       [--csv FILE] [--json FILE] [--html FILE]\n"
		   "Runs the op as `ulpbench --op NAME` does, then for each mode that differs from\n"
		   "the torch plan or from the correctly rounded result: the instructions that\n"
		   "explain it (variants run on the sim: contractions split, approximate\n"
		   "instructions in their IEEE form, flush-to-zero removed), their source lines,\n"
		   "the source change that repairs it (applied to a copy, compiled and run again),\n"
		   "and where accuracy is lost (docs/why.md).  The options are the run's (--help).\n");
}

int ub_why_check_dir(const char *dir, struct ub_error *err)
{
	struct stat st;
	if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
		return ub_fail(err, UB_USAGE, "%s: --fix-dir needs a directory", dir);
	if (mkdir(dir, 0777) != 0 && errno != EEXIST)
		return ub_fail(err, UB_IO, "%s: cannot create directory: %s", dir,
			       strerror(errno));
	if (access(dir, W_OK | X_OK) != 0)
		return ub_fail(err, UB_IO, "%s: cannot write: %s", dir, strerror(errno));
	return 0;
}

int ub_cmd_why(int argc, char **argv, struct ub_error *err)
{
	struct ub_cli cli;
	struct ub_catalog cat = {0};
	char **av = calloc((size_t)argc + 2, sizeof *av);
	if (!av)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	memcpy(av, argv, (size_t)argc * sizeof *av);
	av[argc] = (char *)"--why";   /* `why ARGS` is `ARGS --why` */
	int s = ub_cli_parse(argc + 1, av, &cli, err);
	if (!s && cli.action == UB_ACT_HELP) {
		usage(stdout);
		free(av);
		return 0;
	}
	if (!s && cli.action != UB_ACT_RUN)
		s = ub_fail(err, UB_USAGE, "why: --list-ops, --list-modes, "
			    "--list-dtypes and --version are not why options");
	if (!s && cli.at)
		s = ub_fail(err, UB_USAGE, "why: --at belongs to `ulpbench explain`");
	cli.why = 2;
	if (!s)
		s = ub_load_catalogs(&cli, &cat, err);
	if (!s && cli.op && !ub_catalog_find(&cat, cli.op) && ub_shaped_find(cli.op))
		s = ub_fail(err, UB_USAGE, "why: %s is a shaped op; why explains "
			    "elementwise ops (docs/why.md)", cli.op);
	if (!s)
		s = ub_run_command(&cli, &cat, err);
	ub_catalog_free(&cat);
	free(av);
	return s;
}

/* commands.h — ulpbench's subcommands, declared once: `ulpbench NAME ...`
 * calls the function with argv[0] = NAME.  Without a subcommand, ulpbench
 * runs an op (`ulpbench --op ...`, main.c).  Each function returns an exit
 * status (ub.h) and fills err; only main.c prints and exits.
 * X(name, function, one-line help) */
#ifndef UB_COMMANDS_H
#define UB_COMMANDS_H

#include "ub.h"

#define UB_COMMANDS(X) \
	X("suite", ub_cmd_suite, "run accuracy suites and check their expectations") \
	X("explain", ub_cmd_explain, "trace each mode and the torch plan on one input (--at)") \
	X("why", ub_cmd_why, "which instructions and source lines make each mode differ, and the fix, verified") \
	X("selftest", ub_cmd_selftest, "the sim against the GPU, bit for bit, on every op and mode") \
	X("capture-approx", ub_cmd_capture_approx, "record the GPU's approximate instructions into a file") \
	X("merge", ub_cmd_merge, "add the partial files of a sharded run into its reports") \
	X("sbatch", ub_cmd_sbatch, "a run as a Slurm job array of shards and the job that merges them") \
	X("toolkits", ub_cmd_toolkits, "the CUDA toolkits found (--toolkit NAME) and how to install more") \
	X("compare", ub_cmd_compare, "what changed between two JSON reports; exit 1 beyond a tolerance")

#define X(name, fn, help) int fn(int argc, char **argv, struct ub_error *err);
UB_COMMANDS(X)
#undef X

struct ub_catalog;
#include <stdio.h>
/* --list-ops (list_ops.c): every op of cat with a line per input, then
 * the cores that did not load and why; with opname (--op), that op in
 * full (an unknown name: UB_USAGE listing the valid ones). */
int ub_list_ops(FILE *f, const struct ub_catalog *cat, const char *opname,
		struct ub_error *err);

/* `ulpbench --op NAME ...` for a shaped op (shaped_cli.c,
 * docs/reductions.md), and --list-ops --op NAME for one. */
struct ub_cli;
struct ub_shaped_op;
int ub_shaped_main(struct ub_cli *cli, const struct ub_shaped_op *op,
		   struct ub_error *err);
int ub_shaped_list(FILE *f, const struct ub_shaped_op *op);
/* `ulpbench --op NAME ...` (main.c): runs the op as cli says and writes
 * its reports; `ulpbench why` is this with cli->why 2. */
struct ub_cli;
int ub_run_command(struct ub_cli *cli, const struct ub_catalog *cat,
		   struct ub_error *err);
/* --dump DIR: fails before any work if DIR cannot be written or is not a
 * directory (main.c; made when missing). */
int ub_check_dump_dir(const char *dir, struct ub_error *err);
/* One line per shaped op that cat does not shadow (a catalog op of the
 * same name wins), after the catalog's in --list-ops. */
void ub_shaped_list_all(FILE *f, const struct ub_catalog *cat);

#endif

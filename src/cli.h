/* cli.h — command-line options of ulpbench (one table drives both
 * getopt_long and --help). */
#ifndef UB_CLI_H
#define UB_CLI_H

#include <stdio.h>

#include "run.h"

/* X(long name, short letter or 0, has_arg, ARG, help) */
#define UB_OPTIONS(X)                                                         \
	X("op", 0, 1, "NAME", "op to test (see --list-ops)")                  \
	X("mode", 'm', 1, "LIST", "comma-separated compile modes (default: all; see --list-modes)") \
	X("dtype", 't', 1, "LIST", "comma-separated dtypes (default: f32; see --list-dtypes)") \
	X("n", 'n', 1, "N", "random samples per dtype, special values first (default: 1000000)") \
	X("seed", 0, 1, "S", "random seed (default: 1); printed with every report") \
	X("input", 'i', 1, "NAME=FILE.npy", "take input NAME from a .npy file instead (repeatable)") \
	X("domain", 0, 1, "NAME=LO:HI", "sample input NAME in [LO, HI] instead of the op's domain (repeatable)") \
	X("exhaustive", 0, 0, NULL, "every encoding of a one-input op's f16/bf16 input (65,536; -n ignored)") \
	X("csv", 0, 1, "FILE", "write the CSV report to FILE ('-': stdout)") \
	X("dump", 0, 1, "DIR", "write per-element results as .npy files into DIR") \
	X("backend", 0, 1, "NAME", "where kernels run: sim (PTX interpreter) or auto (default: auto = sim)") \
	X("arch", 0, 1, "ARCH", "NVRTC virtual architecture (default: compute_90)") \
	X("catalog", 0, 1, "FILE", "op catalog in FPCore syntax (default: the shipped suites/ops.fpcore)") \
	X("list-ops", 0, 0, NULL, "list the ops: name, inputs, math and torch plan")  \
	X("list-modes", 0, 0, NULL, "list the compile modes and their NVRTC options") \
	X("list-dtypes", 0, 0, NULL, "list the dtypes")                      \
	X("help", 'h', 0, NULL, "show this help")                             \
	X("version", 'V', 0, NULL, "show the version")

enum ub_cli_action {
	UB_ACT_RUN, UB_ACT_HELP, UB_ACT_VERSION, UB_ACT_LIST_OPS,
	UB_ACT_LIST_MODES, UB_ACT_LIST_DTYPES
};

struct ub_cli {
	enum ub_cli_action action;
	struct ub_config cfg;
	const char *op, *csv, *dump, *catalog;
	const char *input_spec[UB_MAX_INPUTS]; /* "NAME=FILE" as given */
	int ninputs;
	const char *domain_spec[UB_MAX_INPUTS]; /* "NAME=LO:HI" as given */
	int ndomains;
	int modes_given;                   /* --mode was given */
};

/* Parses argv.  Errors: UB_USAGE with one line. */
int ub_cli_parse(int argc, char **argv, struct ub_cli *cli,
		 struct ub_error *err);
void ub_cli_help(FILE *f);

/* Binds the --input NAME=FILE specs to op's inputs (unknown names list the
 * valid ones). */
int ub_cli_bind_inputs(struct ub_cli *cli, const struct ub_op *op,
		       struct ub_error *err);

/* Applies the --domain NAME=LO:HI specs to op's sampling domain. */
int ub_cli_apply_domains(const struct ub_cli *cli, struct ub_op *op,
			 struct ub_error *err);

#endif

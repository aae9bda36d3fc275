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
	X("dtype", 't', 1, "LIST", "comma-separated dtypes (default: the op's :precision, else f32; see --list-dtypes)") \
	X("n", 'n', 1, "N", "random samples per dtype, special values first (default: 1000000)") \
	X("seed", 0, 1, "S", "random seed (default: 1); printed with every report") \
	X("input", 'i', 1, "NAME=FILE.npy", "take input NAME from a .npy file instead (repeatable)") \
	X("domain", 0, 1, "NAME=LO:HI", "sample input NAME in [LO, HI] instead of the op's domain (repeatable)") \
	X("sample", 0, 1, "encoding|value", "draw samples uniformly over the encodings (default) or in value between the domain's ends") \
	X("exhaustive", 0, 0, NULL, "every encoding as input instead of samples (one-input ops; f16/bf16: 65,536, f32: 2^32)") \
	X("range", 0, 1, "LO:HI", "--exhaustive over values LO..HI (-1:0x1p3) or encodings LO..HI (0x3f800000:0x3fffffff)") \
	X("reference", 0, 1, "fast|mpfr", "reference: decide in double with an error bound when safe, else MPFR (fast, default), or MPFR always") \
	X("exec", 0, 1, "native|interp", "how kernels run on the sim: translated to C and compiled (native, the default; the interpreter where that is not possible) or interpreted") \
	X("threads", 0, 1, "N", "worker threads (default: one per online CPU); results do not depend on N") \
	X("csv", 0, 1, "FILE", "write the CSV report to FILE ('-': stdout)") \
	X("append", 0, 0, NULL, "add the rows to the existing --csv FILE (same header only)") \
	X("json", 0, 1, "FILE", "write the JSON report (rows, histograms, configuration) to FILE ('-': stdout)") \
	X("dump", 0, 1, "DIR", "write per-element results as .npy files into DIR") \
	X("html", 0, 1, "FILE", "write an HTML report with plots to FILE (self-contained)") \
	X("at", 0, 1, "NAME=0xBITS,...|worst", "explain: the input to explain, or the worst input of a run") \
	X("backend", 0, 1, "NAME", "where kernels run: sim (PTX interpreter), cuda (the GPU) or auto (default: the GPU when usable, else sim)") \
	X("arch", 0, 1, "ARCH", "compile for ARCH (default: compute_90 on sim, the GPU's own sm_NN on cuda)") \
	X("catalog", 0, 1, "FILE", "op catalog in FPCore syntax (default: the shipped suites/ops.fpcore)") \
	X("quiet", 'q', 0, NULL, "no progress line on stderr") \
	X("verbose", 'v', 0, NULL, "say more on stderr: progress also when it is not a terminal (a line every 30 s), compile cache entries found damaged") \
	X("fpcore", 0, 1, "FILE", "add the ops of an FPCore file to the catalog (repeatable)") \
	X("kernel", 0, 1, "FILE.cu", "test your own kernel file instead of the op's kernel") \
	X("entry", 0, 1, "NAME", "the --kernel's extern \"C\" __global__ function (default: the only one)") \
	X("args", 0, 1, "P=NAME,...", "bind --kernel's or --triton's parameters to the op's inputs, out, n or a number (default: by name)") \
	X("triton", 0, 1, "FILE.py:KERNEL", "test your own @triton.jit kernel instead (compiled by your Triton, run on sim; docs/triton.md)") \
	X("constexpr", 0, 1, "NAME=V,...", "values of the --triton kernel's tl.constexpr parameters (default: their defaults)") \
	X("grid", 0, 1, "N|n/NAME", "--triton's programs: N, or ceil(n / constexpr NAME) (default: the constexpr named like BLOCK)") \
	X("num-warps", 0, 1, "W", "--triton's num_warps: 32*W threads a program (default: 4)") \
	X("python", 0, 1, "PATH", "the Python whose Triton compiles --triton (default: $ULPBENCH_PYTHON, else python3)") \
	X("list-ops", 0, 0, NULL, "list the ops: name, inputs, math and torch plan")  \
	X("list-modes", 0, 0, NULL, "list the compile modes and their NVRTC options") \
	X("list-dtypes", 0, 0, NULL, "list the dtypes")                      \
	X("help", 'h', 0, NULL, "show this help")                             \
	X("version", 'V', 0, NULL, "show the version")

#define UB_MAX_FPCORE 16

enum ub_cli_action {
	UB_ACT_RUN, UB_ACT_HELP, UB_ACT_VERSION, UB_ACT_LIST_OPS,
	UB_ACT_LIST_MODES, UB_ACT_LIST_DTYPES
};

struct ub_cli {
	enum ub_cli_action action;
	struct ub_config cfg;
	const char *op, *csv, *dump, *catalog;
	const char *json;
	int append, quiet, verbose;
	const char *html, *at;
	const char *input_spec[UB_MAX_INPUTS]; /* "NAME=FILE" as given */
	int ninputs;
	const char *domain_spec[UB_MAX_INPUTS]; /* "NAME=LO:HI" as given */
	int ndomains;
	const char *fpcore[UB_MAX_FPCORE]; /* --fpcore files, in order */
	int nfpcore;
	const char *kernel, *entry, *args; /* --kernel, --entry, --args */
	const char *triton, *constexprs, *grid, *python; /* --triton ... */
	unsigned num_warps;                /* --num-warps (0: not given) */
	int modes_given;                   /* --mode was given */
	int dtypes_given;                  /* --dtype was given */
};

/* Parses argv.  Errors: UB_USAGE with one line. */
int ub_cli_parse(int argc, char **argv, struct ub_cli *cli,
		 struct ub_error *err);
void ub_cli_help(FILE *f);
/* The output and input options agree (--append with a --csv file, at most
 * one report on stdout, --exhaustive alone); ub_cli_parse calls it. */
int ub_cli_check_outputs(const struct ub_cli *cli, struct ub_error *err);

/* Binds the --input NAME=FILE specs to op's inputs (unknown names list the
 * valid ones). */
int ub_cli_bind_inputs(struct ub_cli *cli, const struct ub_op *op,
		       struct ub_error *err);

/* Applies the --domain NAME=LO:HI specs to op's sampling domain. */
int ub_cli_apply_domains(const struct ub_cli *cli, struct ub_op *op,
			 struct ub_error *err);

#endif

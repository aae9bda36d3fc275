/* cli.h — command-line options of ulpbench (one table drives both
 * getopt_long and --help). */
#ifndef UB_CLI_H
#define UB_CLI_H

#include <stdio.h>

#include "nvcc.h"
#include "run.h"

/* X(long name, short letter or 0, has_arg, ARG, role, help).  The role
 * says where an option belongs (enum ub_opt_role): RUN options define
 * what a run measures (a shard's partial file records them, `ulpbench
 * sbatch` gives them to every shard and `ulpbench merge` reads them
 * back), LOCAL ones how one process runs it, REPORT ones its outputs. */
#define UB_OPTIONS(X)                                                         \
	X("op", 0, 1, "NAME", RUN, "op to test (see --list-ops)")                  \
	X("mode", 'm', 1, "LIST", RUN, "comma-separated compile modes (default: all; see --list-modes)") \
	X("dtype", 't', 1, "LIST", RUN, "comma-separated dtypes (default: the op's :precision, else f32; see --list-dtypes)") \
	X("n", 'n', 1, "N", RUN, "random samples per dtype, special values first (default: 1000000)") \
	X("seed", 0, 1, "S", RUN, "random seed (default: 1); printed with every report") \
	X("input", 'i', 1, "NAME=FILE.npy", RUN, "take input NAME from a .npy file instead (repeatable)") \
	X("domain", 0, 1, "NAME=LO:HI", RUN, "sample input NAME in [LO, HI] instead of the op's domain (repeatable)") \
	X("param", 0, 1, "NAME=V", RUN, "set the op's named constant NAME (its :params) for the reference, the torch plan and the kernel (repeatable)") \
	X("shape", 0, 1, "R,C", RUN, "a shaped op's rows and columns (docs/reductions.md; default: 64,128, or its x input's .npy shape)") \
	X("orders", 0, 0, NULL, RUN, "shaped sum: also the row sums in other orders (sequential, pairwise, warp tree), computed on the host; with a kernel of your own, also its results under --atomic-order seed=1..4") \
	X("sample", 0, 1, "encoding|value", RUN, "draw samples uniformly over the encodings (default) or in value between the domain's ends") \
	X("exhaustive", 0, 0, NULL, RUN, "every encoding as input instead of samples (one input: f16/bf16 65,536, f32 2^32; two f16/bf16 inputs: 2^32 pairs)") \
	X("range", 0, 1, "LO:HI", RUN, "--exhaustive over values LO..HI (-1:0x1p3), encodings LO..HI (0x3f800000:0x3fffffff) or pair indices") \
	X("reference", 0, 1, "fast|mpfr", RUN, "reference: decide in double with an error bound when safe, else MPFR (fast, default), or MPFR always") \
	X("exec", 0, 1, "native|interp", LOCAL, "how kernels run on the sim: translated to C and compiled (native, the default; the interpreter where that is not possible) or interpreted") \
	X("threads", 0, 1, "N", LOCAL, "worker threads (default: one per online CPU); results do not depend on N") \
	X("csv", 0, 1, "FILE", REPORT, "write the CSV report to FILE ('-': stdout)") \
	X("append", 0, 0, NULL, REPORT, "add the rows to the existing --csv FILE (same header only)") \
	X("json", 0, 1, "FILE", REPORT, "write the JSON report (rows, histograms, configuration) to FILE ('-': stdout)") \
	X("dump", 0, 1, "DIR", REPORT, "write per-element results as .npy files into DIR") \
	X("html", 0, 1, "FILE", REPORT, "write an HTML report with plots to FILE (self-contained)") \
	X("shard", 0, 1, "K/N", SHARD, "run only chunks K, K+N, K+2N, ... of the run (0 <= K < N); needs --partial") \
	X("partial", 0, 1, "FILE", SHARD, "write the run's (or shard's) complete statistics to FILE for `ulpbench merge`") \
	X("resume", 0, 0, NULL, SHARD, "with --partial: do nothing when FILE is already this shard's complete partial file") \
	X("shards", 0, 1, "N", SBATCH, "sbatch: split the run into N shards, one Slurm array task each") \
	X("out", 0, 1, "DIR", SBATCH, "sbatch: the directory of the job scripts, partial files and logs") \
	X("submit", 0, 0, NULL, SBATCH, "sbatch: submit the job array and its merge job (sbatch) too") \
	X("sbatch", 0, 1, "OPTION", SBATCH, "sbatch: add #SBATCH OPTION to both job scripts (repeatable)") \
	X("at", 0, 1, "NAME=0xBITS,...|worst", EXPLAIN, "explain: the input to explain, or the worst input of a run") \
	X("backend", 0, 1, "NAME", RUN, "where kernels run: sim (PTX interpreter), cuda (the GPU) or auto (default: the GPU when usable, else sim)") \
	X("arch", 0, 1, "ARCH", RUN, "compile for ARCH (default: compute_90 on sim, the GPU's own sm_NN on cuda)") \
	X("toolkit", 0, 1, "LIST", RUN, "compile with each CUDA toolkit of LIST (12.9, 13.0, a directory, default): a row per toolkit and mode, each compared with the first's (default: the default toolkit; see ulpbench toolkits)") \
	X("torch-toolkit", 0, 1, "NAME", RUN, "compile the torch plan with toolkit NAME, e.g. the one your PyTorch was built with (default: the first of --toolkit)") \
	X("catalog", 0, 1, "FILE", RUN, "op catalog in FPCore syntax (default: the shipped suites/ops.fpcore)") \
	X("quiet", 'q', 0, NULL, LOCAL, "no progress line on stderr") \
	X("times", 0, 0, NULL, LOCAL, "say on stderr the CPU seconds of each stage (inputs, reference, kernels, metrics), per dtype") \
	X("verbose", 'v', 0, NULL, LOCAL, "say more on stderr: progress also when it is not a terminal (a line every 30 s), compile cache entries found damaged") \
	X("fpcore", 0, 1, "FILE", RUN, "add the ops of an FPCore file to the catalog (repeatable)") \
	X("kernel", 0, 1, "FILE.cu", RUN, "test your own kernel file instead of the op's kernel") \
	X("entry", 0, 1, "NAME", RUN, "the --kernel's kernel: NAME, 'NAME<TYPE>' (a template instance) or 'NAME(TYPES)' (an overload) (default: the only one)") \
	X("args", 0, 1, "P=NAME,...", RUN, "bind --kernel's or --triton's parameters to the op's inputs, out, n, numbers and :params (default: by name)") \
	X("include-path", 'I', 1, "DIR", RUN, "--kernel: nvcc's -I DIR (repeatable)") \
	X("launch", 0, 1, "block=B,per-thread=K", RUN, "launch the kernel file in blocks of B threads, each doing K elements: ceil(n/K) threads; or per-block=E elements a block, or grid=G blocks; shared=BYTES of dynamic shared memory a block (default: block=256,per-thread=1)") \
	X("atomic-order", 0, 1, "seed=S", RUN, "--kernel: run the atomics in another order a GPU may give, picked by S (default: blocks, warps and lanes in order; docs/block-kernels.md)") \
	X("schedules", 0, 1, "K", RUN, "run a kernel whose memory the simulator tracks (shared memory, atomics, an output it reads) under K legal schedules and report how far its bits move (default: 4 when a float atomic add ran or racecheck found a hazard, else 1; docs/block-kernels.md)") \
	X("define-macro", 'D', 1, "NAME[=VALUE]", RUN, "--kernel: nvcc's -D NAME[=VALUE] (repeatable)") \
	X("triton", 0, 1, "FILE.py:KERNEL", RUN, "test your own @triton.jit kernel instead (compiled by your Triton, run on sim; docs/triton.md)") \
	X("constexpr", 0, 1, "NAME=V,...", RUN, "values of the --triton kernel's tl.constexpr parameters (default: their defaults)") \
	X("grid", 0, 1, "N|n/NAME", RUN, "--triton's programs: N, or ceil(n / constexpr NAME) (default: the constexpr named like BLOCK)") \
	X("num-warps", 0, 1, "W", RUN, "--triton's num_warps: 32*W threads a program (default: 4)") \
	X("num-stages", 0, 1, "S", RUN, "--triton's num_stages: the stages its pipelined loops load ahead (default: Triton's own, 3)") \
	X("python", 0, 1, "PATH", RUN, "the Python whose Triton compiles --triton, or whose torch gives a --kernel PyTorch extension file its flags (default: $ULPBENCH_PYTHON, else python3)") \
	X("ref-budget", 0, 1, "SECONDS", RUN, "the reference's time for one element, in CPU seconds (default: 0.25; 0: none); an element past it is counted undecided (time)") \
	X("launcher", 0, 1, "NAME", RUN, "--kernel: run host function NAME of the file, which launches its kernels, as one op on the sim (docs/user-kernels.md)") \
	X("why", 0, 0, NULL, REPORT, "for each mode that differs: the instructions and source lines responsible, the fix verified by a rerun, where accuracy is lost (docs/why.md)") \
	X("fix-dir", 0, 1, "DIR", REPORT, "why: save the fixed copy of the kernel's source for each mode in DIR") \
	X("list-ops", 0, 0, NULL, ACTION, "list the ops: name, inputs, math and torch plan")  \
	X("list-modes", 0, 0, NULL, ACTION, "list the compile modes and their NVRTC options") \
	X("list-dtypes", 0, 0, NULL, ACTION, "list the dtypes")                      \
	X("help", 'h', 0, NULL, ACTION, "show this help")                             \
	X("version", 'V', 0, NULL, ACTION, "show the version")

enum ub_opt_role { UB_ROLE_RUN, UB_ROLE_LOCAL, UB_ROLE_REPORT, UB_ROLE_SHARD,
		   UB_ROLE_SBATCH, UB_ROLE_EXPLAIN, UB_ROLE_ACTION };

struct ub_opt_info {
	const char *name;
	int shrt, has_arg;
	const char *arg;
	enum ub_opt_role role;
	const char *help;
};
/* The table, in its order; UB_NOPTS entries. */
extern const struct ub_opt_info ub_opts[];
extern const int ub_nopts;

/* An option as given on the command line: its index in ub_opts and its
 * argument (NULL for a flag), in the order given. */
struct ub_given {
	int opt;
	const char *arg;
};
#define UB_MAX_GIVEN 128

#define UB_MAX_FPCORE 16
#define UB_MAX_SHARDS 1000000

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
	const char *param_spec[UB_MAX_PARAMS];  /* "NAME=V" as given */
	int nparams;
	const char *fpcore[UB_MAX_FPCORE]; /* --fpcore files, in order */
	int nfpcore;
	const char *kernel, *entry, *args; /* --kernel, --entry, --args */
	const char *launcher;              /* --launcher NAME */
	int nflags;                        /* -I and -D, in order: */
	char flag_kind[UB_NVCC_MAX_FLAGS];   /* 'I' or 'D' */
	const char *flag_arg[UB_NVCC_MAX_FLAGS]; /* DIR or NAME[=VALUE] */
	const char *triton, *constexprs, *grid, *python; /* --triton ... */
	unsigned num_warps;                /* --num-warps (0: not given) */
	unsigned num_stages;               /* --num-stages (0: not given) */
	int modes_given;                   /* --mode was given */
	size_t shard, nshards;             /* --shard K/N (nshards 0: none) */
	const char *partial;               /* --partial FILE */
	int resume;                        /* --resume */
	size_t shards;                     /* sbatch --shards N */
	const char *out;                   /* sbatch --out DIR */
	int submit;                        /* sbatch --submit */
	const char *sbatch[UB_MAX_FPCORE]; /* sbatch --sbatch OPTION, in order */
	int nsbatch;
	struct ub_given given[UB_MAX_GIVEN]; /* every option, in order */
	int ngiven;
	int dtypes_given;                  /* --dtype was given */
	const char *shape;                 /* --shape R,C (shaped ops) */
	const char *toolkit, *torch_toolkit; /* --toolkit LIST, --torch-toolkit
					      NAME, as given (setup.c) */
	int orders;                        /* --orders (the shaped sum) */
	int why;                           /* --why (docs/why.md); 2: the
					      `ulpbench why` report too */
	const char *fix_dir;               /* --fix-dir DIR */
};

/* The options of cli of role `role`, as arguments ("--mode", "fma,rn",
 * "--exhaustive", ...) in the order given, into out (at most max
 * pointers: each option gives one or two, pointing into cli's argv);
 * returns how many, or -1 when max is too small. */
int ub_cli_args(const struct ub_cli *cli, enum ub_opt_role role,
		const char **out, int max);

/* Parses argv.  Errors: UB_USAGE with one line. */
int ub_cli_parse(int argc, char **argv, struct ub_cli *cli,
		 struct ub_error *err);
void ub_cli_help(FILE *f);
/* The output and input options agree (--append with a --csv file, at most
 * one report on stdout, --exhaustive alone); ub_cli_parse calls it. */
int ub_cli_check_outputs(const struct ub_cli *cli, struct ub_error *err);

/* --shard, --partial and --resume go together, without --input or any
 * report (ub_cli_check_outputs calls it). */
int ub_cli_check_shard(const struct ub_cli *cli, struct ub_error *err);

/* Binds the --input NAME=FILE specs to op's inputs (unknown names list the
 * valid ones). */
int ub_cli_bind_inputs(struct ub_cli *cli, const struct ub_op *op,
		       struct ub_error *err);

/* Applies the --domain NAME=LO:HI specs to op's sampling domain. */
int ub_cli_apply_domains(const struct ub_cli *cli, struct ub_op *op,
			 struct ub_error *err);
/* Applies the --param NAME=V specs to op's :params. */
int ub_cli_apply_params(const struct ub_cli *cli, struct ub_op *op,
			struct ub_error *err);

#endif

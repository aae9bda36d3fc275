/* cli.c — option parsing; the table in cli.h drives getopt_long and
 * --help alike. */
#include "cli.h"
#include "backend.h"
#include "commands.h"
#include "native.h"
#include "reference.h"
#include "subopts.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LONG_ONLY = 256 };

const struct ub_opt_info ub_opts[] = {
#define X(name, shrt, has_arg, arg, role, help) {name, shrt, has_arg, arg, UB_ROLE_##role, help},
	UB_OPTIONS(X)
#undef X
};
#define NOPTS (int)(sizeof ub_opts / sizeof ub_opts[0])
const int ub_nopts = NOPTS;
#define opts ub_opts

/* "--NAME" of each option, for argument lists made from cli->given */
static const char *const dashed[] = {
#define X(name, shrt, has_arg, arg, role, help) "--" name,
	UB_OPTIONS(X)
#undef X
};

int ub_cli_args(const struct ub_cli *cli, enum ub_opt_role role,
		const char **out, int max)
{
	int n = 0;
	for (int i = 0; i < cli->ngiven; i++) {
		const struct ub_given *g = &cli->given[i];
		if (opts[g->opt].role != role)
			continue;
		if (n + 1 + (g->arg != NULL) > max)
			return -1;
		out[n++] = dashed[g->opt];
		if (g->arg)
			out[n++] = g->arg;
	}
	return n;
}

/* "K/N" with 0 <= K < N <= UB_MAX_SHARDS. */
static int parse_shard(const char *arg, size_t *k, size_t *n, struct ub_error *err)
{
	char *slash, *end;
	unsigned long long a, b;
	errno = 0;
	a = strtoull(arg, &slash, 10);
	if (slash != arg && *slash == '/' && slash[1] >= '0' && slash[1] <= '9' && arg[0] != '-') {
		b = strtoull(slash + 1, &end, 10);
		if (!*end && !errno && b >= 1 && b <= UB_MAX_SHARDS && a < b) {
			*k = (size_t)a;
			*n = (size_t)b;
			return 0;
		}
	}
	return ub_fail(err, UB_USAGE, "--shard: '%s' is not K/N with 0 <= K < N <= %d "
		       "(e.g. 3/8)", arg, UB_MAX_SHARDS);
}

void ub_cli_help(FILE *f)
{
	fprintf(f, "usage: ulpbench --op NAME [options]\n"
		   "Tests a GPU kernel under every compile mode against a correctly rounded\n"
		   "MPFR reference and against PyTorch's own way of computing it.\n\n");
	for (int i = 0; i < NOPTS; i++) {
		char lhs[64];
		snprintf(lhs, sizeof lhs, "%s%c%s--%s%s%s", opts[i].shrt ? "-" : "   ",
			 opts[i].shrt ? opts[i].shrt : ' ', opts[i].shrt ? ", " : "",
			 opts[i].name, opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
		fprintf(f, "  %-28s %s\n", lhs, opts[i].help);
	}
	static const char *const cmds[][2] = {
#define X(name, fn, help) {name, help},
		UB_COMMANDS(X)
#undef X
	};
	if (sizeof cmds / sizeof cmds[0])
		fprintf(f, "\nCommands (ulpbench NAME --help):\n");
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		fprintf(f, "  %-28s %s\n", cmds[i][0], cmds[i][1]);
	fprintf(f, "\nExit status: 0 success, 1 an accuracy expectation failed, 2 usage or\n"
		   "input error, 3 compile (NVRTC) failure, 4 kernel execution failed or no\n"
		   "usable GPU, 5 an output file could not be written.\n");
}

/* Parses a comma-separated list of names with find(); unknown names list
 * the valid ones. */
static int parse_list(const char *what, const char *arg, int (*find)(const char *),
		      const char *valid, int *out, int max, int *n,
		      struct ub_error *err)
{
	char buf[512];
	snprintf(buf, sizeof buf, "%s", arg);
	*n = 0;
	for (char *save, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		int id = find(tok);
		if (id < 0)
			return ub_fail(err, UB_USAGE, "unknown %s '%s' (valid: %s)",
				       what, tok, valid);
		for (int i = 0; i < *n; i++)
			if (out[i] == id)
				return ub_fail(err, UB_USAGE, "%s '%s' given twice", what, tok);
		if (*n == max)
			return ub_fail(err, UB_USAGE, "too many %ss", what);
		out[(*n)++] = id;
	}
	return *n ? 0 : ub_fail(err, UB_USAGE, "empty %s list (valid: %s)", what, valid);
}


static int find_dtype(const char *s) { return ub_dtype_find(s); }
static int find_mode(const char *s) { return ub_mode_find(s); }

static int option(struct ub_cli *cli, const char *name, const char *arg,
		  struct ub_error *err)
{
	struct ub_config *c = &cli->cfg;
	char valid[256];
	uint64_t v;
	int ids[(int)UB_NMODES + (int)UB_NDTYPES], s = 0;
	if (!strcmp(name, "op")) {
		cli->op = arg;
	} else if (!strcmp(name, "mode")) {
		cli->modes_given = 1;
		s = parse_list("mode", arg, find_mode, ub_mode_names(valid, sizeof valid),
			       ids, UB_NMODES, &c->nmodes, err);
		for (int i = 0; !s && i < c->nmodes; i++)
			c->modes[i] = (enum ub_mode)ids[i];
	} else if (!strcmp(name, "dtype")) {
		cli->dtypes_given = 1;
		s = parse_list("dtype", arg, find_dtype, ub_dtype_names(valid, sizeof valid),
			       ids, UB_NDTYPES, &c->ndtypes, err);
		for (int i = 0; !s && i < c->ndtypes; i++)
			c->dtypes[i] = (enum ub_dtype)ids[i];
	} else if (!strcmp(name, "n")) {
		s = ub_subopt_count("n", arg, 1, UINT64_C(1) << 32, &v, err);
		c->n = (size_t)v;
	} else if (!strcmp(name, "seed")) {
		s = ub_subopt_count("seed", arg, 0, UINT64_MAX >> 11, &c->seed, err);
	} else if (!strcmp(name, "input")) {
		if (cli->ninputs == UB_MAX_INPUTS)
			return ub_fail(err, UB_USAGE, "--input: at most %d", UB_MAX_INPUTS);
		if (!strchr(arg, '=') || arg[0] == '=' || !strchr(arg, '=')[1])
			return ub_fail(err, UB_USAGE, "--input: '%s' is not NAME=FILE.npy", arg);
		cli->input_spec[cli->ninputs++] = arg;
	} else if (!strcmp(name, "domain")) {
		if (cli->ndomains == UB_MAX_INPUTS)
			return ub_fail(err, UB_USAGE, "--domain: at most %d", UB_MAX_INPUTS);
		cli->domain_spec[cli->ndomains++] = arg;
	} else if (!strcmp(name, "param")) {
		if (cli->nparams == UB_MAX_PARAMS)
			return ub_fail(err, UB_USAGE, "--param: at most %d", UB_MAX_PARAMS);
		cli->param_spec[cli->nparams++] = arg;
	} else if (!strcmp(name, "csv")) {
		cli->csv = arg;
	} else if (!strcmp(name, "dump")) {
		cli->dump = arg;
	} else if (!strcmp(name, "json")) {
		cli->json = arg;
	} else if (!strcmp(name, "append")) {
		cli->append = 1;
	} else if (!strcmp(name, "quiet")) {
		cli->quiet = 1;
	} else if (!strcmp(name, "times")) {
		c->times = 1;
	} else if (!strcmp(name, "verbose")) {
		cli->verbose = 1;
	} else if (!strcmp(name, "exhaustive")) {
		c->exhaustive = 1;
	} else if (!strcmp(name, "range")) {
		s = ub_range_parse(arg, &c->range, err);
	} else if (!strcmp(name, "ref-budget")) {
		char *end;
		errno = 0;
		double b = strtod(arg, &end);
		if (!*arg || *end || errno || !(b >= 0) || b > 1e6)
			return ub_fail(err, UB_USAGE, "--ref-budget: '%s' is not a number of "
				       "seconds from 0 (none) to 1e6", arg);
		c->ref_budget = b;
	} else if (!strcmp(name, "reference")) {
		if (strcmp(arg, "fast") && strcmp(arg, "mpfr"))
			return ub_fail(err, UB_USAGE, "unknown reference '%s' (valid: fast, mpfr)", arg);
		c->ref_mpfr = !strcmp(arg, "mpfr");
	} else if (!strcmp(name, "exec")) {
		if (ub_exec_parse(arg, &c->exec))
			return ub_fail(err, UB_USAGE, "unknown executor '%s' (valid: %s)",
				       arg, ub_exec_names());
	} else if (!strcmp(name, "sample")) {
		if (strcmp(arg, "encoding") && strcmp(arg, "value"))
			return ub_fail(err, UB_USAGE, "unknown sampling '%s' (valid: "
				       "encoding, value)", arg);
		c->sample = !strcmp(arg, "value") ? UB_SAMPLE_VALUE : UB_SAMPLE_ENCODING;
	} else if (!strcmp(name, "threads")) {
		s = ub_subopt_count("threads", arg, 1, 256, &v, err);
		c->threads = (int)v;
	} else if (!strcmp(name, "html")) {
		cli->html = arg;
	} else if (!strcmp(name, "shape")) {
		cli->shape = arg;
	} else if (!strcmp(name, "orders")) {
		cli->orders = 1;
	} else if (!strcmp(name, "why")) {
		cli->why = cli->why ? cli->why : 1;
	} else if (!strcmp(name, "fix-dir")) {
		cli->fix_dir = arg;
	} else if (!strcmp(name, "at")) {
		cli->at = arg;
	} else if (!strcmp(name, "backend")) {
		if (!ub_backend_valid(arg))
			return ub_fail(err, UB_USAGE, "unknown backend '%s' (valid: %s)",
				       arg, ub_backend_names(valid, sizeof valid));
		c->backend = arg;
	} else if (!strcmp(name, "arch")) {
		return ub_arch_parse(arg, &c->arch, &c->arch_set, err);
	} else if (!strcmp(name, "toolkit")) {
		cli->toolkit = arg;
	} else if (!strcmp(name, "torch-toolkit")) {
		cli->torch_toolkit = arg;
	} else if (!strcmp(name, "catalog")) {
		cli->catalog = arg;
	} else if (!strcmp(name, "fpcore")) {
		if (cli->nfpcore == UB_MAX_FPCORE)
			return ub_fail(err, UB_USAGE, "--fpcore: at most %d files", UB_MAX_FPCORE);
		cli->fpcore[cli->nfpcore++] = arg;
	} else if (!strcmp(name, "kernel")) {
		cli->kernel = arg;
	} else if (!strcmp(name, "entry")) {
		cli->entry = arg;
	} else if (!strcmp(name, "launcher")) {
		cli->launcher = arg;
	} else if (!strcmp(name, "args")) {
		cli->args = arg;
	} else if (!strcmp(name, "shard")) {
		s = parse_shard(arg, &cli->shard, &cli->nshards, err);
	} else if (!strcmp(name, "partial")) {
		cli->partial = arg;
	} else if (!strcmp(name, "resume")) {
		cli->resume = 1;
	} else if (!strcmp(name, "shards")) {
		s = ub_subopt_count("shards", arg, 1, UB_MAX_SHARDS, &v, err);
		cli->shards = (size_t)v;
	} else if (!strcmp(name, "out")) {
		cli->out = arg;
	} else if (!strcmp(name, "submit")) {
		cli->submit = 1;
	} else if (!strcmp(name, "sbatch")) {
		if (cli->nsbatch == UB_MAX_FPCORE)
			return ub_fail(err, UB_USAGE, "--sbatch: at most %d", UB_MAX_FPCORE);
		cli->sbatch[cli->nsbatch++] = arg;
	} else if (!strcmp(name, "launch")) {
		s = ub_geom_parse("--launch", arg, &c->geom, err);
	} else if (!strcmp(name, "atomic-order")) {
		s = ub_atomic_order_parse(arg, &c->geom, err);
	} else if (!strcmp(name, "schedules")) {
		s = ub_subopt_count("schedules", arg, 1, 64, &v, err);
		c->schedules = (int)v;
	} else if (!strcmp(name, "include-path") || !strcmp(name, "define-macro")) {
		if (cli->nflags == UB_NVCC_MAX_FLAGS)
			return ub_fail(err, UB_USAGE, "-I/-D: at most %d", UB_NVCC_MAX_FLAGS);
		if (!arg[0] || (name[0] == 'd' && arg[0] == '='))
			return ub_fail(err, UB_USAGE, "-%c: '%s' is not %s", name[0] == 'd' ? 'D' : 'I',
				       arg, name[0] == 'd' ? "NAME[=VALUE]" : "a directory");
		if (strlen(arg) > 4000)
			return ub_fail(err, UB_USAGE, "-%c: too long", name[0] == 'd' ? 'D' : 'I');
		cli->flag_kind[cli->nflags] = name[0] == 'd' ? 'D' : 'I';
		cli->flag_arg[cli->nflags++] = arg;
	} else if (!strcmp(name, "triton")) {
		cli->triton = arg;
	} else if (!strcmp(name, "constexpr")) {
		cli->constexprs = arg;
	} else if (!strcmp(name, "grid")) {
		cli->grid = arg;
	} else if (!strcmp(name, "python")) {
		cli->python = arg;
	} else if (!strcmp(name, "num-warps")) {
		s = ub_subopt_count("num-warps", arg, 1, 32, &v, err);
		if (!s && (v & (v - 1)))
			return ub_fail(err, UB_USAGE, "--num-warps: %s is not a power of "
				       "two (1, 2, 4, 8, 16 or 32)", arg);
		cli->num_warps = (unsigned)v;
	} else if (!strcmp(name, "num-stages")) {
		s = ub_subopt_count("num-stages", arg, 1, 16, &v, err);
		cli->num_stages = (unsigned)v;
	} else {
		static const struct { const char *n; enum ub_cli_action a; } acts[] = {
			{"list-ops", UB_ACT_LIST_OPS}, {"list-modes", UB_ACT_LIST_MODES},
			{"list-dtypes", UB_ACT_LIST_DTYPES}, {"help", UB_ACT_HELP},
			{"version", UB_ACT_VERSION}};
		for (size_t i = 0; i < sizeof acts / sizeof acts[0]; i++)
			if (!strcmp(name, acts[i].n))
				cli->action = acts[i].a;
	}
	return s;
}

static void defaults(struct ub_cli *cli)
{
	memset(cli, 0, sizeof *cli);
	cli->cfg.n = 1000000;
	cli->cfg.seed = 1;
	cli->cfg.ref_budget = UB_REF_BUDGET_DEFAULT;
	cli->cfg.arch = "compute_90";
	cli->cfg.backend = "auto";
	cli->cfg.ndtypes = 1;
	cli->cfg.dtypes[0] = UB_F32;
	cli->cfg.nmodes = UB_NMODES;
	for (int m = 0; m < UB_NMODES; m++)
		cli->cfg.modes[m] = (enum ub_mode)m;
}

int ub_cli_parse(int argc, char **argv, struct ub_cli *cli, struct ub_error *err)
{
	struct option lopts[NOPTS + 1];
	char sopts[2 * NOPTS + 2] = ":";
	size_t sl = 1;
	defaults(cli);
	for (int i = 0; i < NOPTS; i++) {
		lopts[i] = (struct option){opts[i].name, opts[i].has_arg, NULL,
					   opts[i].shrt ? opts[i].shrt : LONG_ONLY + i};
		if (opts[i].shrt) {
			sopts[sl++] = (char)opts[i].shrt;
			if (opts[i].has_arg)
				sopts[sl++] = ':';
		}
	}
	sopts[sl] = '\0';
	lopts[NOPTS] = (struct option){0};
	ub_getopt_reset();
	for (;;) {
		char why[128];
		int li = -1, c = getopt_long(argc, argv, sopts, lopts, &li);
		if (c == -1)
			break;
		if (c == '?' || c == ':')
			return ub_fail(err, UB_USAGE, "%s (see --help)",
				       ub_getopt_error(c, argv, lopts, why, sizeof why));
		int idx = c >= LONG_ONLY ? c - LONG_ONLY : -1;
		for (int i = 0; idx < 0 && i < NOPTS; i++)
			if (opts[i].shrt == c)
				idx = i;
		if (cli->ngiven == UB_MAX_GIVEN)
			return ub_fail(err, UB_USAGE, "more than %d options", UB_MAX_GIVEN);
		cli->given[cli->ngiven++] = (struct ub_given){idx, opts[idx].has_arg ? optarg : NULL};
		int s = option(cli, opts[idx].name, optarg, err);
		if (s)
			return s;
	}
	if (optind < argc)
		return ub_fail(err, UB_USAGE, "unexpected argument '%s' (see --help)",
			       argv[optind]);
	if (cli->action == UB_ACT_RUN && !cli->op)
		return ub_fail(err, UB_USAGE, "no --op given (see --list-ops, --help)");
	if (cli->kernel && cli->triton)
		return ub_fail(err, UB_USAGE, "--kernel and --triton: test one kernel at a time");
	if (!cli->kernel && (cli->entry || (cli->args && !cli->triton) || cli->nflags ||
			     cli->launcher))
		return ub_fail(err, UB_USAGE, "%s needs --kernel FILE.cu",
			       cli->entry ? "--entry" : cli->args ? "--args" : cli->launcher ?
			       "--launcher" : cli->flag_kind[0] == 'I' ? "-I" : "-D");
	if (cli->launcher && cli->entry)
		return ub_fail(err, UB_USAGE, "--launcher and --entry: the launcher picks "
			       "its kernels itself");
	if (cli->launcher && (cli->nshards || cli->partial))
		return ub_fail(err, UB_USAGE, "--launcher runs whole, in this process: not "
			       "in shards (--shard, --partial)");
	if (!cli->triton && (cli->constexprs || cli->grid || cli->num_warps ||
			     (cli->python && !cli->kernel) || cli->num_stages))
		return ub_fail(err, UB_USAGE, "--%s needs --triton FILE.py:KERNEL",
			       cli->constexprs ? "constexpr" : cli->grid ? "grid" :
			       cli->num_warps ? "num-warps" : cli->num_stages ? "num-stages"
			       : "python");
	return ub_cli_check_outputs(cli, err);
}

int ub_cli_check_outputs(const struct ub_cli *cli, struct ub_error *err)
{
	const struct ub_config *c = &cli->cfg;
	const char *const name[] = {"csv", "json", "html", "dump", "partial", "out"};
	const char *const file[] = {cli->csv, cli->json, cli->html, cli->dump,
				    cli->partial, cli->out};
	for (int i = 0; i < 6; i++) /* else found out only after the run */
		if (file[i] && !file[i][0])
			return ub_fail(err, UB_USAGE, "--%s: an empty file name", name[i]);
	if (cli->append && (!cli->csv || !strcmp(cli->csv, "-")))
		return ub_fail(err, UB_USAGE, "--append needs --csv FILE (a file, not '-')");
	if ((cli->csv && !strcmp(cli->csv, "-")) + (cli->json && !strcmp(cli->json, "-")) +
	    (cli->html && !strcmp(cli->html, "-")) > 1)
		return ub_fail(err, UB_USAGE, "only one of --csv, --json and --html "
			       "can be '-' (stdout)");
	if (c->range.given && !c->exhaustive)
		return ub_fail(err, UB_USAGE, "--range goes with --exhaustive");
	if (c->exhaustive && (cli->ninputs || cli->ndomains))
		return ub_fail(err, UB_USAGE, "--exhaustive takes every encoding: "
			       "it goes with neither --input nor --domain");
	if (cli->fix_dir && !cli->why)
		return ub_fail(err, UB_USAGE, "--fix-dir goes with --why (or `ulpbench why`)");
	return ub_cli_check_shard(cli, err);
}

int ub_cli_check_shard(const struct ub_cli *cli, struct ub_error *err)
{
	if (cli->nshards && !cli->partial)
		return ub_fail(err, UB_USAGE, "--shard needs --partial FILE (a shard's "
			       "figures are one part of the run's: merge the parts)");
	if (cli->resume && !cli->partial)
		return ub_fail(err, UB_USAGE, "--resume goes with --partial FILE");
	if (cli->partial && !strcmp(cli->partial, "-"))
		return ub_fail(err, UB_USAGE, "--partial: a file, not '-'");
	if (cli->partial && cli->ninputs)
		return ub_fail(err, UB_USAGE, "--partial splits sampled and --exhaustive "
			       "runs; a part names --input files, not what they hold (run "
			       "them in one process)");
	if (cli->partial && cli->triton)
		return ub_fail(err, UB_USAGE, "--partial: not with --triton (a part "
			       "does not identify a Triton kernel; run it in one process)");
	for (int i = 0; cli->partial && i < cli->ngiven; i++)
		if (opts[cli->given[i].opt].role == UB_ROLE_REPORT)
			return ub_fail(err, UB_USAGE, "--%s: a run with --partial writes its "
				       "figures there only; `ulpbench merge` writes the "
				       "reports", opts[cli->given[i].opt].name);
	return 0;
}

/* Index of the input named by spec up to its '=', or a message listing
 * the valid names. */
static int input_index(const char *opt, const char *spec, const struct ub_op *op,
		       int *k, struct ub_error *err)
{
	const char *eq = strchr(spec, '=');
	char valid[256] = "";
	if (!eq || eq == spec)
		return ub_fail(err, UB_USAGE, "--%s: '%s' is not NAME=...", opt, spec);
	for (int j = 0; j < op->ninputs; j++)
		if (strlen(op->inputs[j]) == (size_t)(eq - spec) &&
		    !strncmp(op->inputs[j], spec, (size_t)(eq - spec))) {
			*k = j;
			return 0;
		}
	for (int j = 0; j < op->ninputs; j++)
		snprintf(valid + strlen(valid), sizeof valid - strlen(valid),
			 "%s%s", j ? ", " : "", op->inputs[j]);
	return ub_fail(err, UB_USAGE, "--%s: %s has no input '%.*s' (valid: %s)",
		       opt, op->name, (int)(eq - spec), spec, valid);
}

int ub_cli_apply_domains(const struct ub_cli *cli, struct ub_op *op,
			 struct ub_error *err)
{
	for (int i = 0; i < cli->ndomains; i++) {
		const char *spec = cli->domain_spec[i];
		char *colon, *end;
		int k, s = input_index("domain", spec, op, &k, err);
		if (s)
			return s;
		const char *lo = strchr(spec, '=') + 1;
		for (int j = 0; j < i; j++) /* else the last would win unsaid */
			if (!strncmp(cli->domain_spec[j], spec, (size_t)(lo - spec)))
				return ub_fail(err, UB_USAGE, "--domain: %s given twice (%s, "
					       "%s)", op->inputs[k], cli->domain_spec[j], spec);
		errno = 0;
		double a = strtod(lo, &colon), b = 0;
		int good = colon != lo && *colon == ':', over = errno == ERANGE && isinf(a);
		if (good) {
			errno = 0;
			b = strtod(colon + 1, &end);
			good = end != colon + 1 && !*end && a <= b;
			over |= errno == ERANGE && isinf(b);
		}
		if (good && over) /* 1e400 would become inf unsaid */
			return ub_fail(err, UB_USAGE, "--domain: '%s': a bound beyond the "
				       "largest double (about 1.8e308); write inf for none", spec);
		if (!good)
			return ub_fail(err, UB_USAGE, "--domain: '%s' is not NAME=LO:HI "
				       "with LO <= HI (e.g. x=-1:1, x=0:inf)", spec);
		op->dom[k] = (struct ub_domain){a, b, 0, 1}; /* :pre bounds of k untested */
	}
	return 0;
}

int ub_cli_bind_inputs(struct ub_cli *cli, const struct ub_op *op,
		       struct ub_error *err)
{
	struct ub_config *c = &cli->cfg;
	c->nfiles = 0;
	for (int i = 0; i < cli->ninputs; i++) {
		const char *spec = cli->input_spec[i], *eq = strchr(spec, '=');
		int k, s = input_index("input", spec, op, &k, err);
		if (s)
			return s;
		for (int f = 0; f < c->nfiles; f++)
			if (c->files[f].input == k)
				return ub_fail(err, UB_USAGE, "--input: %s given twice",
					       op->inputs[k]);
		c->files[c->nfiles++] = (struct ub_input_file){k, eq + 1};
	}
	return 0;
}

int ub_cli_apply_params(const struct ub_cli *cli, struct ub_op *op,
			struct ub_error *err)
{
	char valid[256] = "";
	for (int k = 0; k < op->nparams; k++)
		snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
			 k ? ", " : "", op->params[k].name);
	for (int i = 0; i < cli->nparams; i++) {
		const char *spec = cli->param_spec[i], *eq = strchr(spec, '=');
		char *end;
		int k = -1;
		for (int j = 0; eq && j < op->nparams; j++)
			if (strlen(op->params[j].name) == (size_t)(eq - spec) &&
			    !strncmp(op->params[j].name, spec, (size_t)(eq - spec)))
				k = j;
		if (!eq || eq == spec)
			return ub_fail(err, UB_USAGE, "--param: '%s' is not NAME=VALUE", spec);
		if (k < 0)
			return ub_fail(err, UB_USAGE, "--param: %s has no :params '%.*s' "
				       "(valid: %s)", op->name, (int)(eq - spec), spec,
				       op->nparams ? valid : "none");
		double v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || v != v)
			return ub_fail(err, UB_USAGE, "--param: '%s': %s is not a number "
				       "(0.25, 1e-3, 0x1.8p-3)", spec, eq + 1);
		/* the run's op is a copy: its params point at the option */
		op->params[k].text = (char *)(eq + 1);
		op->params[k].value = v;
	}
	return 0;
}

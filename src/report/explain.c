/* explain.c — `ulpbench explain --op OP --at x=0x...,g=0x...`: parses the
 * command (the run's option table, plus --at), finds the input (given in
 * hex, or the worst input of a run with the same options), and runs each
 * kernel on it alone (one element) with the interpreter's trace switched
 * on, keeping thread 0's floating-point instructions. */
#include "cli.h"
#include "commands.h"
#include "explain.h"
#include "report.h"
#include "setup.h"
#include "prepare.h"
#include "user_kernel.h"
#include "reference.h"
#include "ptx.h"
#include "nvrtc_cache.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void collect(void *user, const struct ptx_trace_event *ev)
{
	struct ub_trace_log *log = user;
	if (ev->thread != 0)
		return;
	if (log->n == UB_TRACE_MAX) {
		log->dropped++;
		return;
	}
	if (log->n == log->cap) {
		size_t cap = log->cap ? 2 * log->cap : 64;
		struct ub_trace_line *v = realloc(log->v, cap * sizeof *v);
		if (!v) {
			log->dropped++;
			return;
		}
		log->v = v;
		log->cap = cap;
	}
	struct ub_trace_line *l = &log->v[log->n++];
	snprintf(l->text, sizeof l->text, "%s", ev->text ? ev->text : "?");
	l->line = ev->line;
	l->nsrc = ev->nsrc;
	memcpy(l->src, ev->src, sizeof l->src);
	memcpy(l->src_bits, ev->src_bits, sizeof l->src_bits);
	l->dst = ev->dst;
	l->dst_bits = ev->dst_bits;
	l->measured = ev->measured;
}

/* The torch plan, one traced step at a time; env holds the inputs, then
 * each step's one-element result. */
static int run_steps(struct ub_explain *x, struct ub_config *c,
		     struct ub_array *env, struct ub_error *err)
{
	const struct ub_op *op = x->cfg->op;
	int s = 0;
	for (int k = 0; !s && k < op->nsteps; k++) {
		struct ub_explained *e = &x->steps[k];
		struct ptx_trace tr = { collect, &e->log };
		c->trace = &tr;
		s = ub_run_step(c, env, k, &env[op->ninputs + k], &e->approx, err);
		if (!s)
			e->result = ub_array_get(&env[op->ninputs + k], 0);
	}
	return s;
}

static int run_modes(struct ub_explain *x, struct ub_config *c,
		     struct ub_data *d, struct ub_error *err)
{
	int s = 0;
	for (int m = 0; !s && m < x->cfg->nmodes; m++) {
		struct ub_explained *e = &x->modes[m];
		struct ptx_trace tr = { collect, &e->log };
		struct ub_array out = {0};
		c->trace = &tr;
		s = ub_run_mode(c, x->cfg->modes[m], d, &out, &e->approx, &e->na, err);
		if (!s && !e->na)
			e->result = ub_array_get(&out, 0);
		ub_array_free(&out);
		struct ub_error perr; /* source places are a gloss: none on failure */
		if (!s && !e->na)
			ub_why_places(x->cfg, x->dt, x->cfg->modes[m], &e->places, &perr);
	}
	return s;
}

int ub_explain_run(struct ub_explain *x, struct ub_error *err)
{
	const struct ub_op *op = x->cfg->op;
	struct ub_config c = *x->cfg;
	struct ub_data d = { .dt = x->dt, .nin = op->ninputs };
	int nenv = op->ninputs + op->nsteps;
	struct ub_array *env = calloc((size_t)nenv, sizeof *env);
	x->steps = calloc((size_t)op->nsteps + 1, sizeof *x->steps);
	int s = env && x->steps ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	for (int k = 0; !s && k < op->ninputs; k++) {
		if (ub_array_alloc(&d.in[k], x->dt, 1))
			s = ub_fail(err, UB_RUNTIME, "out of memory");
		else
			ub_array_set(&d.in[k], 0, x->in[k]);
		env[k] = d.in[k];
	}
	x->undecided[0] = '\0';
	ub_ref_set_budget(x->cfg->ref_budget);
	if (!s)
		s = ub_ref_eval(op->math, x->dt, x->in, op->ninputs, &x->cr,
				&x->exact, err);
	if (s == UB_REF_UNDECIDED) { /* shown, and the kernels still run */
		snprintf(x->undecided, sizeof x->undecided, "%s", err->msg);
		s = 0;
	}
	if (!s)
		s = run_steps(x, &c, env, err);
	if (!s)
		s = run_modes(x, &c, &d, err);
	for (int k = 0; env && k < nenv; k++)
		ub_array_free(&env[k]); /* the inputs are d.in's */
	free(env);
	return s;
}

void ub_explain_free(struct ub_explain *x)
{
	for (int k = 0; x->steps && k < x->cfg->op->nsteps; k++)
		free(x->steps[k].log.v);
	for (int m = 0; m < x->cfg->nmodes; m++) {
		free(x->modes[m].log.v);
		ub_why_places_free(&x->modes[m].places);
	}
	free(x->steps);
	x->steps = NULL;
}

/* --at NAME=0xBITS,...: every input exactly once, in hex, fitting dt. */
static int parse_at(const char *spec, const struct ub_op *op, enum ub_dtype dt,
		    uint64_t *in, struct ub_error *err)
{
	char buf[512], valid[256] = "";
	int seen[UB_MAX_INPUTS] = {0}, bits = ub_dtypes[dt].bits;
	for (int k = 0; k < op->nsampled; k++)
		snprintf(valid + strlen(valid), sizeof valid - strlen(valid),
			 "%s%s=0x...", k ? "," : "", op->inputs[k]);
	snprintf(buf, sizeof buf, "%s", spec);
	for (char *save, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '='), *end;
		int k = -1;
		for (int j = 0; eq && j < op->nsampled; j++)   /* saved: computed */
			if ((size_t)(eq - tok) == strlen(op->inputs[j]) &&
			    !strncmp(tok, op->inputs[j], (size_t)(eq - tok)))
				k = j;
		if (k < 0)
			return ub_fail(err, UB_USAGE, "--at: '%s' names no input of %s "
				       "(expected %s, or worst)", tok, op->name, valid);
		errno = 0;
		unsigned long long v = strtoull(eq + 1, &end, 16);
		if (strncmp(eq + 1, "0x", 2) || end == eq + 3 || *end || errno ||
		    (bits < 64 && v >> bits))
			return ub_fail(err, UB_USAGE, "--at: '%s': give the %s encoding "
				       "in hex, at most %d bits (e.g. %s=0x%0*llx)", tok,
				       ub_dtypes[dt].name, bits, op->inputs[k], bits / 4,
				       /* 1.0: the biased exponent emax, fraction 0 */
				       (unsigned long long)ub_dtypes[dt].emax
					       << (ub_dtypes[dt].prec - 1));
		if (seen[k]++)
			return ub_fail(err, UB_USAGE, "--at: %s given twice", op->inputs[k]);
		in[k] = v;
	}
	for (int k = 0; k < op->nsampled; k++)
		if (!seen[k])
			return ub_fail(err, UB_USAGE, "--at: no value for %s (expected %s)",
				       op->inputs[k], valid);
	return 0;
}

/* The saved inputs of the element (x->in beyond the sampled ones), as a
 * run computes them. */
static int saved_of(struct ub_explain *x, struct ub_error *err)
{
	const struct ub_op *op = x->cfg->op;
	struct ub_array in[UB_MAX_INPUTS] = {{0}};
	int s = 0;
	for (int k = 0; !s && k < op->nsampled; k++)
		if (ub_array_alloc(&in[k], x->dt, 1))
			s = ub_fail(err, UB_RUNTIME, "out of memory");
		else
			ub_array_set(&in[k], 0, x->in[k]);
	if (!s)
		s = ub_saved_fill(op, x->dt, in, 1, !x->cfg->ref_mpfr, err);
	for (int k = op->nsampled; !s && k < op->ninputs; k++)
		x->in[k] = ub_array_get(&in[k], 0);
	for (int k = 0; k < op->ninputs; k++)
		ub_array_free(&in[k]);
	return s;
}

/* --at worst: runs the pipeline with the command's options and takes the
 * worst input (largest ULP error) of the first mode. */
static int find_worst(struct ub_explain *x, struct ub_error *err)
{
	struct ub_result res;
	int s = ub_run(x->cfg, &res, err);
	const struct ub_row *r = s ? NULL : &res.rows[0];
	if (!s && !r->has_worst)
		s = ub_fail(err, UB_USAGE, "--at worst: mode %s has no result with a "
			    "ULP error to explain", r->mode);
	if (!s) {
		char worst[256];
		memcpy(x->in, r->st.worst_in, sizeof x->in);
		ub_format_worst(r, worst, sizeof worst);
		snprintf(x->origin, sizeof x->origin, "the worst input of mode %s "
			 "(%.4g ulp) over n=%zu, seed=%llu, inputs=%s: %s", r->mode,
			 r->st.max_ulp, r->st.n, (unsigned long long)x->cfg->seed,
			 res.inputs, worst);
	}
	ub_result_free(&res);
	return s;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: ulpbench explain --op NAME --at NAME=0xBITS,...|worst "
		   "[--dtype T] [--mode LIST]\n"
		   "       [--kernel FILE.cu [--entry NAME] [--args P=NAME,...]]\n"
		   "       [-n N] [--seed S] [--domain NAME=LO:HI] [--input NAME=FILE.npy] "
		   "(for --at worst)\n"
		   "For each mode and for each step of the torch plan: every floating-point\n"
		   "PTX instruction the kernel executed for this input (operands -> result,\n"
		   "in hex), its result and ULP error; then the MPFR reference.  --at worst\n"
		   "explains the worst input of the first mode in a run with the given options.\n");
}

/* Rejects what explain does not use, and needs one dtype (and --at,
 * but for a core without arguments: explain() checks). */
static int check_cli(const struct ub_cli *cli, struct ub_error *err)
{
	const char *unused = cli->csv ? "--csv" : cli->dump ? "--dump" :
			     cli->html ? "--html" : cli->why ? "--why" :
			     cli->fix_dir ? "--fix-dir" : NULL;
	if (unused)
		return ub_fail(err, UB_USAGE, "explain: %s is not used by explain "
			       "(see ulpbench explain --help)", unused);
	if (cli->cfg.ndtypes != 1)
		return ub_fail(err, UB_USAGE, "explain: one dtype at a time (--dtype T)");
	return 0;
}

static int explain(struct ub_cli *cli, const struct ub_catalog *cat,
		   struct ub_error *err)
{
	struct ub_op op, opd, held = {0};
	struct ub_config cfg, cfgd;
	struct ub_user_kernel uk = {0};
	struct ub_explain x = { .cfg = &cfg };
	int s = ub_setup_op(cli, cat, &op, &cfg, &uk, err);
	x.dt = cfg.dtypes[0]; /* the op's :precision unless --dtype */
	if (!s && !cli->at && !op.noargs)
		s = ub_fail(err, UB_USAGE, "explain: no --at given "
			    "(--at x=0x3f800000,... or --at worst)");
	else if (!s && op.noargs)
		x.in[0] = 0;   /* a core without arguments: its one element */
	else if (!s && strcmp(cli->at, "worst") == 0)
		s = find_worst(&x, err);
	else if (!s)
		s = parse_at(cli->at, &op, x.dt, x.in, err);
	/* the op as the run's dtype has it (prepare.h: params, saved inputs,
	 * the generated kernel where the op's file is not for the dtype) */
	if (!s)
		s = ub_op_for_dtype(&op, x.dt, &opd, &held, err);
	cfgd = cfg;
	cfgd.op = &opd;
	ub_kernel_inst_apply(&cfgd, &opd, x.dt);
	x.cfg = &cfgd;
	if (!s && opd.ninputs > opd.nsampled)
		s = saved_of(&x, err);
	if (!s)
		s = ub_explain_run(&x, err);
	if (!s)
		ub_explain_print(stdout, &x);
	for (int k = 1; !s && k < cfgd.ntoolkits; k++) { /* --toolkit A,B,... */
		struct ub_config ck = cfgd;
		struct ub_explain xk = x;
		ck.toolkit = cfgd.toolkits[k];
		xk.cfg = &ck;
		xk.steps = NULL;
		memset(xk.modes, 0, sizeof xk.modes);
		s = ub_explain_run(&xk, err);
		if (!s) {
			fprintf(stdout, "\n");
			ub_explain_print(stdout, &xk);
			ub_explain_toolkits(stdout, &x, &xk);
		}
		ub_explain_free(&xk);
	}
	ub_explain_free(&x);
	ub_user_kernel_free(&uk);
	ub_op_free(&held);
	return s;
}

int ub_cmd_explain(int argc, char **argv, struct ub_error *err)
{
	struct ub_cli cli;
	struct ub_catalog cat = {0};
	int s = ub_cli_parse(argc, argv, &cli, err);
	if (!s && cli.action == UB_ACT_HELP) {
		usage(stdout);
		return 0;
	}
	if (!s && cli.action != UB_ACT_RUN)
		s = ub_fail(err, UB_USAGE, "explain: --list-ops, --list-modes, "
			    "--list-dtypes and --version are not explain options");
	if (!s)
		s = check_cli(&cli, err);
	if (!s && cli.verbose)
		ub_cache_notices(stderr);
	if (!s)
		s = ub_load_catalogs(&cli, &cat, err);
	if (!s)
		s = explain(&cli, &cat, err);
	ub_catalog_free(&cat);
	return s;
}

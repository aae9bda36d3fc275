/* shaped_cli.c — `ulpbench --op NAME` for a shaped op (shaped.h,
 * docs/reductions.md): the command line into a run, its report rows into
 * the table and the CSV/JSON reports, and --list-ops --op NAME. */
#include "cli.h"
#include "commands.h"
#include "report.h"
#include "shaped.h"
#include "triton.h"
#include "user_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options that mean nothing (yet) for a shaped run: refused, named. */
static int refuse(const struct ub_cli *cli, struct ub_error *err)
{
	static const char *const no[] = {"n", "exhaustive", "range", "domain", "param",
		"html", "shard", "partial", "resume", "sample",
		"reference", "at", "times", NULL};
	for (int i = 0; i < cli->ngiven; i++)
		for (int k = 0; no[k]; k++)
			if (!strcmp(ub_opts[cli->given[i].opt].name, no[k]))
				return ub_fail(err, UB_USAGE, "--%s: not supported for "
					       "the shaped op %s (docs/reductions.md)%s", no[k],
					       cli->op, no[k][0] == 'n' && !no[k][1] ?
					       "; give its size as --shape ROWS,COLS" : "");
	return 0;
}

/* --input NAME=FILE for the op's inputs. */
static int files(const struct ub_cli *cli, const struct ub_shaped_op *op,
		 struct ub_shaped_req *q, struct ub_error *err)
{
	for (int i = 0; i < cli->ninputs; i++) {
		const char *spec = cli->input_spec[i], *eq = strchr(spec, '=');
		int k = 0;
		while (eq && k < op->nin && (strncmp(spec, op->in[k].name, (size_t)(eq - spec)) ||
					    op->in[k].name[eq - spec]))
			k++;
		if (!eq || k == op->nin) {
			char names[128] = "";
			for (int j = 0; j < op->nin; j++)
				snprintf(names + strlen(names), sizeof names - strlen(names),
					 "%s%s", j ? ", " : "", op->in[j].name);
			return ub_fail(err, UB_USAGE, "--input %s: expected NAME=FILE.npy "
				       "with NAME an input of %s (valid: %s)", spec, op->name,
				       names);
		}
		q->files[k] = eq + 1;
	}
	return 0;
}

/* What the header says of the inputs: "random" when every input is drawn,
 * else NAME=FILE for each file given (";" between, the others drawn), and
 * the shape. */
static void describe_inputs(const struct ub_shaped_op *op, const struct ub_shaped_req *q,
			    size_t rows, size_t cols, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int k = 0; k < op->nin; k++)
		if (q->files[k] && at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s=%s", at ? ";" : "",
					       op->in[k].name, q->files[k]);
	if (at < len)
		snprintf(buf + at, len - at, "%s, shape %zu,%zu", at ? "" : "random", rows, cols);
}

/* The stand-ins: rep (what reports name: the op, its inputs and their
 * domains, its kernel) and, for --kernel, bop: what a kernel file's
 * parameters may bind to (the inputs, the outputs but out as inputs,
 * rows and cols as :params). */
struct standin {
	struct ub_op rep, bop;
	char rowsv[24], colsv[24];
};

static void standins(const struct ub_shaped_op *op, size_t rows, size_t cols,
		     struct standin *s)
{
	memset(s, 0, sizeof *s);
	s->rep.name = (char *)op->name;
	s->rep.desc = (char *)op->desc;
	s->rep.ninputs = s->rep.nsampled = op->nin;
	for (int k = 0; k < op->nin; k++) {
		s->rep.inputs[k] = (char *)op->in[k].name;
		s->rep.dom[k] = (struct ub_domain){.lo = op->in[k].lo, .hi = op->in[k].hi};
		s->rep.in_f32 |= (unsigned)(op->in[k].role == UB_ARG_STAT) << k;
		s->rep.in_class |= (unsigned)(op->in[k].role == UB_ARG_CLASS) << k;
	}
	s->rep.kernel = "rows.cu";
	s->rep.entry = (char *)op->entry;
	s->rep.precision = -1;
	s->bop = s->rep;
	for (int o = 1; o < op->nout; o++) /* out is out; the others as inputs */
		s->bop.inputs[s->bop.ninputs++] = (char *)op->out[o].name;
	s->bop.nsampled = s->bop.ninputs;
	snprintf(s->rowsv, sizeof s->rowsv, "%zu", rows);
	snprintf(s->colsv, sizeof s->colsv, "%zu", cols);
	s->bop.nparams = 2;
	s->bop.params[0] = (struct ub_param){"rows", s->rowsv, (double)rows};
	s->bop.params[1] = (struct ub_param){"cols", s->colsv, (double)cols};
}

/* --triton FILE.py:KERNEL: one program a row unless --grid says, its
 * parameters bound to the op's inputs, outputs, rows and cols. */
static int triton(struct ub_cli *cli, struct standin *si, struct ub_shaped_req *q,
		  struct ub_config *cfg, struct ub_user_kernel *uk, struct ub_error *err)
{
	struct ub_triton_req req = { cli->triton, cli->args, cli->constexprs, cli->grid,
				     cli->python, cli->num_warps, 1, cli->num_stages };
	if (cfg->geom.block || cfg->geom.per_block || cfg->geom.grid || cfg->geom.shared)
		return ub_fail(err, UB_USAGE, "--launch is for --kernel files: a --triton "
			       "kernel is launched as Triton does (one program a row, "
			       "--grid, --num-warps)");
	int s = ub_user_kernel_triton(&req, &si->bop, cfg, uk, err);
	const struct ub_triton *t = uk->triton;
	for (int a = 0; !s && a < t->nargs; a++)
		if (!strcmp(t->args[a], "n"))
			s = ub_fail(err, UB_USAGE, "--args: %s: a parameter is bound to n, "
				    "which a shaped op does not have: bind rows or cols",
				    t->kernel);
	if (s)
		return s;
	q->kernel = t->file;
	q->kernel_src = t->src;
	q->entry = t->kernel;
	q->nargs = t->nargs;
	for (int a = 0; a < q->nargs; a++)
		q->args[a] = t->args[a];
	si->rep.kernel = t->file;
	si->rep.entry = t->kernel;
	return 0;
}

/* --args for the binder, whose result is "out": an op's first output of
 * another name (dx) as out, in --args (P=dx) or, not bound there, by the
 * parameter's name (dx=out). */
static const char *first_out(const char *given, const char *first, char *buf, size_t len)
{
	size_t used = 0, fl = strlen(first);
	int bound = 0;
	buf[0] = '\0';
	for (const char *p = given; p && *p && used < len;) {
		const char *comma = strchr(p, ','), *eq = strchr(p, '=');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		int is_first = eq && eq < p + n && (size_t)(p + n - eq - 1) == fl &&
			       !strncmp(eq + 1, first, fl);
		bound |= is_first || (eq && eq < p + n && !strncmp(eq + 1, "out", 3) &&
				      p + n - eq - 1 == 3);
		used += (size_t)snprintf(buf + used, len - used, "%s%.*s%s", used ? "," : "",
					 is_first ? (int)(eq + 1 - p) : (int)n, p,
					 is_first ? "out" : "");
		p += n + (comma != NULL);
	}
	if (!bound && used < len)
		snprintf(buf + used, len - used, "%s%s=out", used ? "," : "", first);
	return buf;
}

static int kernel(struct ub_cli *cli, struct standin *si, struct ub_shaped_req *q,
		  struct ub_config *cfg, struct ub_user_kernel *uk, struct ub_error *err)
{
	if (cli->triton)
		return triton(cli, si, q, cfg, uk, err);
	static char flags[UB_NVCC_MAX_FLAGS][4100], args[4200];
	struct ub_kernel_req req = { cli->kernel, cli->entry, cli->args, cli->nflags, {0},
				     cli->python };
	if (strcmp(q->op->out[0].name, "out"))
		req.args = first_out(cli->args, q->op->out[0].name, args, sizeof args);
	for (int i = 0; i < cli->nflags; i++) {
		snprintf(flags[i], sizeof flags[i], "-%c%s", cli->flag_kind[i], cli->flag_arg[i]);
		req.flags[i] = flags[i];
	}
	int s = ub_user_kernel_bind(&req, &si->bop, cfg, uk, err);
	if (s)
		return s;
	q->kernel = uk->file;
	q->kernel_src = uk->src;
	q->entry = si->bop.entry;
	q->nargs = si->bop.nargs;
	for (int a = 0; a < q->nargs; a++) {
		q->args[a] = si->bop.args[a];
		q->wide[a] = uk->kf->params[a].kind == UB_KP_IARRAY && uk->kf->params[a].bits == 64;
	}
	si->rep.kernel = uk->file;
	si->rep.entry = si->bop.entry;
	si->rep.entry_shown = si->bop.entry_shown;
	return 0;
}

int ub_shaped_main(struct ub_cli *cli, const struct ub_shaped_op *op,
		   struct ub_error *err)
{
	static struct standin si;
	static struct ub_shaped_req q;
	struct ub_config cfg = cli->cfg;
	struct ub_user_kernel uk = {0};
	struct ub_result res = {0};
	memset(&q, 0, sizeof q);
	q.op = op;
	q.rows = 64;
	q.cols = 128;
	q.shape_given = cli->shape != NULL;
	q.orders = cli->orders;
	q.dump = cli->dump;
	int s = refuse(cli, err);
	if (!s && q.dump)
		s = ub_check_dump_dir(q.dump, err);
	if (!s && cli->orders && op->kind != UB_SH_SUM)
		s = ub_fail(err, UB_USAGE, "--orders: only for sum (a row sum in other "
			    "orders), not %s", op->name);
	if (!s && cli->shape)
		s = ub_shape_parse(cli->shape, &q.rows, &q.cols, err);
	if (!s)
		s = files(cli, op, &q, err);
	size_t rows = 0, cols = 0;
	if (!s) /* the shape the kernel's rows and cols take */
		s = ub_shaped_shape(&q, cfg.dtypes[0], &rows, &cols, err);
	standins(op, rows, cols, &si);
	cfg.op = &si.rep;
	q.cfg = &cfg;
	if (!s && (cli->kernel || cli->triton))
		s = kernel(cli, &si, &q, &cfg, &uk, err);
	struct ub_outputs out;
	int opened = !s && !(s = ub_outputs_open(&out, cli->csv, cli->append, cli->json,
						  NULL, err)); /* before the work */
	if (!s && q.dump && !(q.dumped = ub_shaped_dump_new(q.dump)))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s)
		s = ub_shaped_run(&q, &res, err);
	if (q.dumped) /* renamed into place only after a whole run */
		s = ub_shaped_dump_finish(q.dumped, s, err);
	if (!s) {
		describe_inputs(op, &q, rows, cols, res.inputs, sizeof res.inputs);
		if (!ub_outputs_on_stdout(&out))
			ub_report_table(stdout, &res);
	}
	if (opened)
		s = ub_outputs_finish(&out, s, &res, err);
	ub_shaped_result_free(&res);
	ub_user_kernel_free(&uk);
	return s;
}

void ub_shaped_list_all(FILE *f, const struct ub_catalog *cat)
{
	for (int i = 0; i < ub_nshaped_ops; i++) {
		const struct ub_shaped_op *op = &ub_shaped_ops[i];
		if (ub_catalog_find(cat, op->name))
			continue;
		fprintf(f, "%-12s (shaped)  (", op->name);
		for (int k = 0; k < op->nin; k++)
			fprintf(f, "%s%s", k ? " " : "", op->in[k].name);
		fprintf(f, ") -> (");
		for (int o = 0; o < op->nout; o++)
			fprintf(f, "%s%s", o ? " " : "", op->out[o].name);
		fprintf(f, ")  %s; --list-ops --op %s\n", op->desc, op->name);
	}
}

int ub_shaped_list(FILE *f, const struct ub_shaped_op *op)
{
	fprintf(f, "%s (shaped)  %s\n", op->name, op->desc);
	for (int k = 0; k < op->nin; k++)
		if (op->in[k].role == UB_ARG_CLASS)
			fprintf(f, "  input %s (%s, integer): %s\n", op->in[k].name,
				ub_extent_name(op->in[k].ext), op->in[k].doc);
		else if (op->in[k].role == UB_ARG_STAT)
			fprintf(f, "  input %s (%s, f32): %s\n", op->in[k].name,
				ub_extent_name(op->in[k].ext), op->in[k].doc);
		else
			fprintf(f, "  input %s (%s) in [%g, %g]: %s\n", op->in[k].name,
				ub_extent_name(op->in[k].ext), op->in[k].lo, op->in[k].hi,
				op->in[k].doc);
	for (int o = 0; o < op->nout; o++)
		fprintf(f, "  output %s (%s): %s\n", op->out[o].name,
			ub_extent_name(op->out[o].ext), op->out[o].doc);
	fprintf(f, "  kernel: kernels/rows.cu %s\n  torch: PyTorch's CUDA kernel modelled "
		"on the host (docs/reductions.md)\n  math:\n", op->entry);
	for (const char *p = op->math; *p;) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		fprintf(f, "    %.*s\n", len, p);
		p += len + (nl != NULL);
	}
	return 0;
}

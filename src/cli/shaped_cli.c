/* shaped_cli.c — `ulpbench --op NAME` for a shaped op (shaped.h,
 * docs/reductions.md): the command line into a run, its report rows into
 * the table and the CSV/JSON reports, and --list-ops --op NAME. */
#include "clash.h"
#include "cli.h"
#include "commands.h"
#include "report.h"
#include "rowop.h"
#include "shaped.h"
#include "shaped_mm.h"
#include "triton.h"
#include "user_kernel.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Options that mean nothing (yet) for a shaped run: refused, named
 * (--param is an FPCore row op's). */
static int refuse(const struct ub_cli *cli, const struct ub_shaped_op *op,
		  struct ub_error *err)
{
	static const char *const no[] = {"n", "exhaustive", "range", "domain", "param",
		"html", "shard", "partial", "resume", "sample",
		"reference", "at", "times", NULL};
	for (int i = 0; i < cli->ngiven; i++)
		for (int k = 0; no[k]; k++)
			if (!strcmp(ub_opts[cli->given[i].opt].name, no[k]) &&
			    !(op->kind == UB_SH_FPCORE && !strcmp(no[k], "param")))
				return ub_fail(err, UB_USAGE, "%s%s: not supported for "
					       "the shaped op %s (docs/reductions.md)%s",
					       no[k][1] ? "--" : "-", no[k],
					       cli->op, no[k][0] == 'n' && !no[k][1] ?
					       "; give its size as --shape ROWS,COLS" : "");
	return 0;
}

/* --param NAME=V of an FPCore row op: values[k] for its k-th :params. */
static int row_params(const struct ub_cli *cli, const struct ub_rowop *ro,
		      const char **values, struct ub_error *err)
{
	char valid[256] = "";
	for (int k = 0; k < ro->nparams; k++)
		snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
			 k ? ", " : "", ro->param_name[k]);
	for (int i = 0; i < cli->nparams; i++) {
		const char *spec = cli->param_spec[i], *eq = strchr(spec, '=');
		char *end;
		int k = -1;
		for (int j = 0; eq && j < ro->nparams; j++)
			if (strlen(ro->param_name[j]) == (size_t)(eq - spec) &&
			    !strncmp(ro->param_name[j], spec, (size_t)(eq - spec)))
				k = j;
		if (!eq || eq == spec)
			return ub_fail(err, UB_USAGE, "--param: '%s' is not NAME=VALUE", spec);
		if (k < 0)
			return ub_fail(err, UB_USAGE, "--param: %s has no :params '%.*s' "
				       "(valid: %s)", ro->name, (int)(eq - spec), spec,
				       ro->nparams ? valid : "none");
		double v = strtod(eq + 1, &end);
		if (end == eq + 1 || *end || v != v)
			return ub_fail(err, UB_USAGE, "--param: '%s': %s is not a number "
				       "(0.25, 1e-3, 0x1.8p-3)", spec, eq + 1);
		values[k] = eq + 1;
	}
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
	char shape[96];
	if (ub_shaped_is_mm(op))
		ub_mm_shape_text(q, rows, cols, shape, sizeof shape);
	else
		snprintf(shape, sizeof shape, "%zu,%zu", rows, cols);
	if (at < len)
		snprintf(buf + at, len - at, "%s, shape %s", at ? "" : "random", shape);
}

/* The stand-ins: rep (what reports name: the op, its inputs and their
 * domains, its kernel) and, for --kernel, bop: what a kernel file's
 * parameters may bind to (the inputs, the outputs but out as inputs,
 * rows and cols as :params). */
struct standin {
	struct ub_op rep, bop, tbop; /* tbop: --triton's binder, which takes
					the outputs but out as inputs */
	/* sizev: a matrix op's 7 sizes (mm_params), or an FPCore row op's */
	char rowsv[24], colsv[24], nv[24], sizev[UB_RO_MAX_SIZES > 7 ? UB_RO_MAX_SIZES : 7][24];
	const char *outs[UB_SHAPED_MAX_OUT];
};

/* A matrix op's sizes as :params too (shaped_mm.h): M, N, K (bmm: and
 * batch; sdpa: L, S, D), for a kernel's parameters to bind to. */
static void mm_params(const struct ub_shaped_req *q, size_t rows, size_t cols,
		      struct standin *s)
{
	static const char *const names[] = { "M", "N", "K", "batch", "L", "S", "D" };
	size_t v[] = { rows / q->batch, cols, q->inner, q->batch, rows, q->inner, cols };
	int sdpa = q->op->kind == UB_SH_SDPA || q->op->kind == UB_SH_SDPA_CAUSAL;
	int from = sdpa ? 4 : 0, to = sdpa ? 7 : q->op->kind == UB_SH_BMM ? 4 : 3;
	for (int z = from; z < to; z++) {
		snprintf(s->sizev[z], sizeof s->sizev[z], "%zu", v[z]);
		s->bop.params[s->bop.nparams++] = (struct ub_param){(char *)names[z],
								    s->sizev[z], (double)v[z]};
	}
}

static void standins(const struct ub_shaped_op *op, size_t rows, size_t cols,
		     const char *const *values, struct standin *s)
{
	memset(s, 0, sizeof *s);
	s->rep.name = (char *)op->name;
	s->rep.desc = (char *)op->desc;
	s->rep.ninputs = s->rep.nsampled = op->nin;
	for (int k = 0; k < op->nin && k < UB_SHAPED_MAX_IN; k++) {
		s->rep.inputs[k] = (char *)op->in[k].name;
		s->rep.dom[k] = (struct ub_domain){.lo = op->in[k].lo, .hi = op->in[k].hi};
		s->rep.in_f32 |= (unsigned)(op->in[k].role == UB_ARG_STAT) << k;
		s->rep.in_class |= (unsigned)ub_shaped_is_int(&op->in[k]) << k;
	}
	s->rep.kernel = "rows.cu";
	s->rep.entry = (char *)op->entry;
	s->rep.precision = -1;
	s->bop = s->rep;
	for (int o = 0; o < op->nout; o++) /* by name; out is the first */
		s->outs[o] = op->out[o].name;
	s->bop.nouts = op->nout;
	s->bop.out_names = s->outs;
	for (int k = 0; op->fp && k < op->fp->nparams && k < UB_MAX_PARAMS; k++)
		s->rep.params[s->rep.nparams++] = (struct ub_param){op->fp->param_name[k],
			values && values[k] ? (char *)values[k] : op->fp->param_text[k], 0};
	s->rep.file = op->fp ? (char *)op->fp->file : NULL;
	s->tbop = s->rep;
	s->tbop.nparams = 0;
	for (int o = 1; o < op->nout; o++)
		s->tbop.inputs[s->tbop.ninputs++] = (char *)op->out[o].name;
	s->tbop.nsampled = s->tbop.ninputs;
	snprintf(s->rowsv, sizeof s->rowsv, "%zu", rows);
	snprintf(s->colsv, sizeof s->colsv, "%zu", cols);
	s->bop.nparams = 2;
	s->bop.params[0] = (struct ub_param){"rows", s->rowsv, (double)rows};
	s->bop.params[1] = (struct ub_param){"cols", s->colsv, (double)cols};
	for (int k = 0; op->fp && k < op->fp->nparams && s->bop.nparams < UB_MAX_PARAMS; k++)
		s->bop.params[s->bop.nparams++] = (struct ub_param){op->fp->param_name[k],
			values && values[k] ? (char *)values[k] : op->fp->param_text[k], 0};
	for (int k = 0; op->fp && op->fp->nsizes > 0 && k < op->fp->nsizes &&
	     s->bop.nparams < UB_MAX_PARAMS; k++) {
		snprintf(s->sizev[k], sizeof s->sizev[k], "%lld", op->fp->size_val[k]);
		s->bop.params[s->bop.nparams++] = (struct ub_param){op->fp->size_name[k],
			s->sizev[k], (double)op->fp->size_val[k]};
	}
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
	memcpy(si->tbop.params, si->bop.params, sizeof si->bop.params);
	si->tbop.nparams = si->bop.nparams;
	int s = ub_user_kernel_triton(&req, &si->tbop, cfg, uk, err);
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

static int kernel(struct ub_cli *cli, struct standin *si, struct ub_shaped_req *q,
		  struct ub_config *cfg, struct ub_user_kernel *uk, struct ub_error *err)
{
	if (cli->triton)
		return triton(cli, si, q, cfg, uk, err);
	static char flags[UB_NVCC_MAX_FLAGS][4100];
	struct ub_kernel_req req = { cli->kernel, cli->entry, cli->args, cli->launcher,
				     cli->nflags, {0}, cli->python };
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
		q->iw[a] = uk->kf->params[a].kind == UB_KP_IARRAY ? uk->kf->params[a].bits / 8 : 0;
		q->esize[a] = uk->kf->params[a].size;
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
	static const char *values[UB_RO_MAX_PARAMS];
	memset(&q, 0, sizeof q);
	memset(values, 0, sizeof values);
	q.op = op;
	q.param_values = values;
	q.rows = 64;
	q.cols = 128;
	q.batch = 1;
	if (ub_shaped_is_mm(op))
		ub_mm_default(op, &q);
	q.shape_given = cli->shape != NULL;
	q.orders = cli->orders;
	q.dump = cli->dump;
	int s = refuse(cli, op, err);
	if (!s && q.dump)
		s = ub_check_dump_dir(q.dump, err);
	if (!s && cli->orders && op->kind != UB_SH_SUM)
		s = ub_fail(err, UB_USAGE, "--orders: only for sum (a row sum in other "
			    "orders), not %s", op->name);
	if (!s && cli->shape)
		s = ub_shaped_is_mm(op) ? ub_mm_shape_parse(op, cli->shape, &q, err)
					: ub_shape_parse(cli->shape, &q.rows, &q.cols, err);
	if (!s && op->fp)
		s = row_params(cli, op->fp, values, err);
	if (!s)
		s = files(cli, op, &q, err);
	size_t rows = 0, cols = 0;
	if (!s) /* the shape the kernel's rows and cols take */
		s = ub_shaped_shape(&q, cfg.dtypes[0], &rows, &cols, err);
	standins(op, rows, cols, values, &si);
	if (ub_shaped_is_mm(op))
		mm_params(&q, rows, cols, &si);
	cfg.op = &si.rep;
	q.cfg = &cfg;
	for (int t = 0; !s && t < cfg.ndtypes; t++) /* before any work */
		s = ub_shaped_fits(&q, cfg.dtypes[t], rows, cols, err);
	if (!s && (cli->kernel || cli->triton))
		s = kernel(cli, &si, &q, &cfg, &uk, err);
	if (!s) /* no output over another, or over an input */
		s = ub_clash_check_cli(cli, NULL, err);
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

/* One line of --list-ops for op. */
static void list_line(FILE *f, const struct ub_shaped_op *op, const char *kind)
{
	fprintf(f, "%-12s (%s)  (", op->name, kind);
	for (int k = 0; k < op->nin; k++)
		fprintf(f, "%s%s", k ? " " : "", op->in[k].name);
	fprintf(f, ") -> (");
	for (int o = 0; o < op->nout; o++)
		fprintf(f, "%s%s", o ? " " : "", op->out[o].name);
	fprintf(f, ")  %s; --list-ops --op %s\n", op->desc, op->name);
}

void ub_shaped_list_all(FILE *f, const struct ub_catalog *cat)
{
	for (int i = 0; i < ub_nshaped_ops; i++)
		if (!ub_catalog_find(cat, ub_shaped_ops[i].name) &&
		    !ub_catalog_find_rowop(cat, ub_shaped_ops[i].name))
			list_line(f, &ub_shaped_ops[i], "shaped");
	for (int i = 0; i < cat->nrowops; i++) {
		struct ub_shaped_op op;
		ub_shaped_of_rowop(&cat->rowops[i], &op);
		list_line(f, &op, "rows");
	}
}

/* An input's line: its shape, and what it holds. */
static void list_input(FILE *f, const struct ub_shaped_arg *a)
{
	char ext[64];
	snprintf(ext, sizeof ext, "%s", ub_extent_name(a->ext));
	if (a->ext == UB_EXT_TABLE)
		snprintf(ext, sizeof ext, "%zu, cols", a->trows);
	if (a->role == UB_ARG_CLASS)
		fprintf(f, "  input %s (%s, integer): %s\n", a->name, ext, a->doc);
	else if (a->role == UB_ARG_INT && a->ihi < 0)
		fprintf(f, "  input %s (%s, integer) in [%lld, cols): %s\n", a->name, ext,
			a->ilo, a->doc);
	else if (a->role == UB_ARG_INT)
		fprintf(f, "  input %s (%s, integer) in [%lld, %lld): %s\n", a->name, ext,
			a->ilo, a->ihi, a->doc);
	else if (a->role == UB_ARG_STAT)
		fprintf(f, "  input %s (%s, f32): %s\n", a->name, ext, a->doc);
	else
		fprintf(f, "  input %s (%s) in [%g, %g]: %s\n", a->name, ext, a->lo, a->hi,
			a->doc);
}

int ub_shaped_list(FILE *f, const struct ub_shaped_op *op)
{
	fprintf(f, "%s (%s)  %s\n", op->name, op->fp ? "rows" : "shaped", op->desc);
	for (int k = 0; k < op->nin; k++)
		list_input(f, &op->in[k]);
	for (int o = 0; o < op->nout; o++)
		fprintf(f, "  output %s (%s)%s%s\n", op->out[o].name,
			ub_extent_name(op->out[o].ext), op->out[o].doc[0] ? ": " : "",
			op->out[o].doc);
	for (int k = 0; op->fp && k < op->fp->nparams; k++)
		fprintf(f, "  param %s = %s\n", op->fp->param_name[k], op->fp->param_text[k]);
	if (op->fp)
		fprintf(f, "  kernel: none of its own (test yours: --kernel FILE.cu, "
			"docs/rowops.md)\n  torch: %s\n  defined at %s:%d\n  math:\n",
			op->fp->nsteps ? "its :torch, each binding one PyTorch kernel "
			"(docs/rowops.md)" : "none (no :torch)", op->fp->file, op->fp->line);
	else
		fprintf(f, "  kernel: kernels/rows.cu %s\n  torch: %s\n  math:\n", op->entry,
			op->kind == UB_SH_SDPA || op->kind == UB_SH_SDPA_CAUSAL ? "not modelled "
			"(docs/tensor-cores.md)" : ub_shaped_is_mm(op) ? "cuBLAS's contract "
			"modelled on the host (docs/tensor-cores.md)" : "PyTorch's CUDA kernel "
			"modelled on the host (docs/reductions.md)");
	const char *p = op->math;
	while (op->fp && *p == '\n')   /* the form's text starts on its line */
		p++;
	while (*p) {
		const char *nl = strchr(p, '\n');
		int len = nl ? (int)(nl - p) : (int)strlen(p);
		fprintf(f, "    %.*s\n", len, p);
		p += len + (nl != NULL);
	}
	return 0;
}

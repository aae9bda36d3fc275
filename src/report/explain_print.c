/* explain_print.c — what `ulpbench explain` prints: the input, then for
 * each mode the trace of floating-point PTX instructions (operands ->
 * result, in hex; a decimal gloss of float results) and the result with
 * its ULP error, whether it is correctly rounded and whether it equals the
 * torch plan's; then the torch plan step by step; then the MPFR reference;
 * then which modes differ from torch.  For a mode that differs, the first
 * value it computes that no torch step computes shows where it departed
 * (a heuristic: equal values may come from different arithmetic). */
#include "backend.h"
#include "triton.h"
#include "explain.h"
#include "modes.h"
#include "nvrtc.h"
#include "ptx.h"
#include "report.h"

#include <math.h>
#include <string.h>

/* Significant decimal digits that identify a value of dt. */
static int digits(enum ub_dtype dt)
{
	return (int)ceil(ub_dtypes[dt].prec * 0.30102999566398120) + 1;
}

/* "0xbdeb9cee  -0x1.d739dcp-4  -0.115045041" */
static const char *value(enum ub_dtype dt, uint64_t bits, char *buf, size_t len)
{
	double v = ub_bits_to_double(dt, bits);
	snprintf(buf, len, "0x%0*llx  %a  %.*g", ub_dtypes[dt].bits / 4,
		 (unsigned long long)bits, v, digits(dt), v);
	return buf;
}

/* The dtype of a float result: the first type part of the mnemonic (the
 * destination's, for cvt) when it names a float type of that width; -1
 * when it is not a float (setp's predicate, cvt to an integer). */
static int result_dtype(const char *text, unsigned bits)
{
	static const char *const types[] = { "pred", "b", "u", "s", "f", NULL };
	for (const char *p = strchr(text, '.'); p; p = strchr(p, '.')) {
		size_t len = strcspn(++p, ".");
		char part[16];
		snprintf(part, sizeof part, "%.*s", (int)len, p);
		int dt = ub_dtype_find(part);
		if (dt >= 0)
			return (unsigned)ub_dtypes[dt].bits == bits ? dt : -1;
		for (int k = 0; types[k]; k++)
			if (!strncmp(part, types[k], strlen(types[k])) &&
			    (!strcmp(types[k], "pred") ||
			     strspn(part + 1, "0123456789x") == strlen(part + 1)))
				return -1;
	}
	return -1;
}

static void opd(FILE *f, uint64_t v, unsigned bits)
{
	if (bits <= 1)
		fprintf(f, " %llu", (unsigned long long)v);
	else
		fprintf(f, " 0x%0*llx", (int)(bits + 3) / 4, (unsigned long long)v);
}

static void print_log(FILE *f, const struct ub_trace_log *log,
		      const struct ub_why_places *pl, const char *indent)
{
	for (size_t i = 0; i < log->n; i++) {
		const struct ub_trace_line *l = &log->v[i];
		fprintf(f, "%sptx:%-5u %-22s", indent, l->line, l->text);
		for (int k = 0; k < l->nsrc; k++)
			opd(f, l->src[k], l->src_bits[k]);
		fprintf(f, " ->");
		opd(f, l->dst, l->dst_bits);
		int dt = result_dtype(l->text, l->dst_bits);
		if (dt >= 0)
			fprintf(f, "   %.*g", digits((enum ub_dtype)dt),
				ub_bits_to_double((enum ub_dtype)dt, l->dst));
		if (l->measured)
			fprintf(f, "   [measured sm_90]");
		else if (strstr(l->text, ".approx") || strstr(l->text, ".full"))
			fprintf(f, "   [modelled]");
		if (pl && l->line < pl->n && pl->place[l->line][0])
			fprintf(f, "   %s", pl->place[l->line]);
		fprintf(f, "\n");
	}
	if (!log->n)
		fprintf(f, "%s(no floating-point instruction)\n", indent);
	if (log->dropped)
		fprintf(f, "%s... and %zu more instructions (not kept)\n", indent,
			log->dropped);
}

/* The source lines the traced instructions come from, each once, in the
 * order first met. */
static void print_sources(FILE *f, const struct ub_trace_log *log,
			  const struct ub_why_places *pl)
{
	int any = 0;
	for (size_t i = 0; pl->n && i < log->n; i++) {
		uint32_t k = log->v[i].line;
		int seen = 0;
		if (k >= pl->n || !pl->code[k][0])
			continue;
		for (size_t j = 0; j < i && !seen; j++)
			seen = log->v[j].line < pl->n &&
			       !strcmp(pl->place[log->v[j].line], pl->place[k]) &&
			       pl->code[log->v[j].line][0];
		if (!seen)
			fprintf(f, "%s  %s  %s\n", any++ ? "        " : "  source:", pl->place[k],
				pl->code[k]);
	}
}

static int has_torch(const struct ub_explain *x)
{
	return x->cfg->op->nsteps > 0;
}

static uint64_t torch_result(const struct ub_explain *x)
{
	return x->steps[x->cfg->op->nsteps - 1].result;
}

/* "result  0x...  ...  0.312 ulp  correctly rounded  = torch" */
static void print_result(FILE *f, const struct ub_explain *x, uint64_t y,
			 int is_torch)
{
	char buf[128];
	double e;
	fprintf(f, "  result  %s\n          ", value(x->dt, y, buf, sizeof buf));
	int u = ub_ulp_error(x->dt, y, x->cr, &x->exact, &e);
	if (u == 2)
		fprintf(f, "no exact value to compare with (the reference is undecided)");
	else if (u)
		fprintf(f, "NaN/inf disagreement with the exact value");
	else
		fprintf(f, e == 0 || e >= 1e-3 ? "%.3f ulp from the exact value" :
			   "%.3g ulp from the exact value", e);
	if (u != 2 && ub_same(x->dt, y, x->cr))
		fprintf(f, "; correctly rounded");
	else if (u != 2)
		fprintf(f, "; not correctly rounded (that is 0x%0*llx)",
			ub_dtypes[x->dt].bits / 4, (unsigned long long)x->cr);
	if (has_torch(x) && !is_torch) {
		uint64_t t = torch_result(x), d = ub_distance(x->dt, y, t);
		if (ub_same(x->dt, y, t))
			fprintf(f, "; equals torch");
		else if (d == UINT64_MAX)
			fprintf(f, "; differs from torch (NaN against a number)");
		else
			fprintf(f, "; differs from torch by %llu unit%s",
				(unsigned long long)d, d == 1 ? "" : "s");
	}
	fprintf(f, "\n");
}

/* Does a torch step compute v (an input counts too)? */
static int torch_has(const struct ub_explain *x, uint64_t v, unsigned bits)
{
	const struct ub_op *op = x->cfg->op;
	for (int k = 0; k < op->ninputs; k++)
		if (x->in[k] == v && (unsigned)ub_dtypes[x->dt].bits == bits)
			return 1;
	for (int k = 0; k < op->nsteps; k++)
		for (size_t i = 0; i < x->steps[k].log.n; i++)
			if (x->steps[k].log.v[i].dst == v &&
			    x->steps[k].log.v[i].dst_bits == bits)
				return 1;
	return 0;
}

/* For a mode whose result differs from torch: its first float value that
 * no torch step computes. */
static void print_departure(FILE *f, const struct ub_explain *x,
			    const struct ub_trace_log *log)
{
	for (size_t i = 0; i < log->n; i++) {
		const struct ub_trace_line *l = &log->v[i];
		if (result_dtype(l->text, l->dst_bits) < 0 ||
		    torch_has(x, l->dst, l->dst_bits))
			continue;
		fprintf(f, "  departs from torch at ptx:%u %s -> 0x%0*llx, a value no "
			"torch step computes\n", l->line, l->text,
			(int)(l->dst_bits + 3) / 4, (unsigned long long)l->dst);
		return;
	}
}

static void print_approx(FILE *f, uint64_t approx)
{
	char buf[256];
	if (!(approx & ~UB_APPROX_UNMARKED)) /* unmarked mul/add alone: exact */
		return;
	ub_format_approx(approx, buf, sizeof buf);
	if (approx & PTX_AX_MODELLED_BITS)
		fprintf(f, "  (modelled, not GPU bits: %s)\n", buf);
	else /* only measured ones: the GPU's bits */
		fprintf(f, "  (approximate, as measured on an sm_90 GPU: %s)\n", buf);
}

static void print_modes(FILE *f, const struct ub_explain *x)
{
	for (int m = 0; m < x->cfg->nmodes; m++) {
		const struct ub_mode_info *mi = &ub_modes[x->cfg->modes[m]];
		const struct ub_explained *e = &x->modes[m];
		const struct ub_triton *t = x->cfg->triton;
		if (t) /* Triton's knobs, not NVRTC's options */
			fprintf(f, "\nmode %s  [%s%s%s]\n", mi->name, t->toolkit,
				t->options[x->cfg->modes[m]][0] ? " " : "",
				t->options[x->cfg->modes[m]]);
		else
			fprintf(f, "\nmode %s  [%s %s]  %s\n", mi->name,
				x->cfg->kernel_unit ? "nvcc" : "nvrtc",
				(x->cfg->kernel_unit ? mi->nvcc : mi->opts)[0] ?
				(x->cfg->kernel_unit ? mi->nvcc : mi->opts) : "(defaults)", mi->desc);
		if (e->na) {
			fprintf(f, "  n/a (%s)\n", e->na);
			continue;
		}
		print_log(f, &e->log, &e->places, "  ");
		print_sources(f, &e->log, &e->places);
		print_result(f, x, e->result, 0);
		print_approx(f, e->approx);
		if (has_torch(x) && !ub_same(x->dt, e->result, torch_result(x)))
			print_departure(f, x, &e->log);
	}
}

static void print_torch(FILE *f, const struct ub_explain *x)
{
	const struct ub_op *op = x->cfg->op;
	const char *names[UB_MAX_INPUTS + 64];
	char buf[512];
	uint64_t approx = 0;
	int nn = 0;
	if (!has_torch(x)) {
		fprintf(f, "\ntorch plan: none (the op has no :torch)\n");
		return;
	}
	fprintf(f, "\ntorch plan  [nvrtc (defaults), as PyTorch is built]  each step "
		"its own kernel, its result rounded to %s\n", ub_dtypes[x->dt].name);
	for (int k = 0; k < op->ninputs; k++)
		names[nn++] = op->inputs[k];
	for (int k = 0; k < op->nsteps; k++) {
		const struct ub_explained *e = &x->steps[k];
		ub_expr_print(op->torch[k].e, names, buf, sizeof buf);
		fprintf(f, "  step %s = R%s\n", op->torch[k].name, buf);
		print_log(f, &e->log, NULL, "    ");
		if (k + 1 < op->nsteps)
			fprintf(f, "    %s = %s\n", op->torch[k].name,
				value(x->dt, e->result, buf, sizeof buf));
		if (nn < UB_MAX_INPUTS + 64)
			names[nn++] = op->torch[k].name;
	}
	print_result(f, x, torch_result(x), 1);
	for (int k = 0; k < op->nsteps; k++)
		approx |= x->steps[k].approx;
	print_approx(f, approx);
}

static void print_reference(FILE *f, const struct ub_explain *x)
{
	char buf[512];
	ub_expr_print(x->cfg->op->math, (const char *const *)x->cfg->op->inputs,
		      buf, sizeof buf);
	fprintf(f, "\nreference (MPFR)  %s\n", buf);
	if (x->undecided[0]) {
		const char *why = x->undecided;
		why += strncmp(why, "reference: ", 11) ? 0 : 11;
		fprintf(f, "  undecided          %s\n", why);
		fprintf(f, "  (near              %a  %.17g; docs/reference.md)\n",
			x->exact.hi, x->exact.hi);
		return;
	}
	fprintf(f, "  exact              %a  %.17g", x->exact.hi, x->exact.hi);
	if (x->exact.lo != 0)
		fprintf(f, "  (+ %.3g)", x->exact.lo);
	fprintf(f, "\n  correctly rounded  %s\n", value(x->dt, x->cr, buf, sizeof buf));
}

static void print_summary(FILE *f, const struct ub_explain *x)
{
	char buf[128];
	if (!has_torch(x))
		return;
	fprintf(f, "\ntorch gives %s\n", value(x->dt, torch_result(x), buf, sizeof buf));
	for (int pass = 0; pass < 2; pass++) {
		int first = 1;
		for (int m = 0; m < x->cfg->nmodes; m++) {
			uint64_t y = x->modes[m].result;
			if (x->modes[m].na)
				continue;
			if (ub_same(x->dt, y, torch_result(x)) != (pass == 0))
				continue;
			fprintf(f, "%s%s", first ? (pass ? "  differ from torch: " :
						  "  equal to torch:    ") : ", ",
				ub_modes[x->cfg->modes[m]].name);
			if (pass)
				fprintf(f, " (0x%0*llx)", ub_dtypes[x->dt].bits / 4,
					(unsigned long long)y);
			first = 0;
		}
		if (!first)
			fprintf(f, "\n");
	}
}

void ub_explain_print(FILE *f, const struct ub_explain *x)
{
	const struct ub_op *op = x->cfg->op;
	char buf[1024];
	struct ub_row r;   /* what compiled which kernel (result.h) */
	ub_row_kernel(x->cfg, 0, &r);
	fprintf(f, "explain %s %s  backend=%s  %s %s\n", op->name,
		ub_dtypes[x->dt].name, x->cfg->backend, r.toolkit, x->cfg->arch);
	/* the file every mode compiled: the user's own for --kernel */
	if (x->cfg->triton)
		fprintf(f, "kernel: %s\n", ub_triton_about(x->cfg->triton, buf, sizeof buf));
	else
		fprintf(f, "kernel: %s%s\n", op->kernel ? op->kernel : "generated from the math",
			x->cfg->kernel_src ? "" : op->kernel ? " (shipped, kernels/)" : "");
	if (op->entry_shown)
		fprintf(f, "entry: %s\n", op->entry_shown);
	if (x->origin[0])
		fprintf(f, "input: %s\n", x->origin);
	for (int k = 0; k < op->ninputs; k++)
		fprintf(f, "  %s = %s\n", op->inputs[k], value(x->dt, x->in[k], buf, sizeof buf));
	print_modes(f, x);
	print_torch(f, x);
	print_reference(f, x);
	print_summary(f, x);
}

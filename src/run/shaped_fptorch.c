/* shaped_fptorch.c — the torch rows of an FPCore row op (rowop.h): its
 * :torch plan run step by step.  An elementwise step is a kernel
 * generated as an elementwise op's torch step is (codegen.h: the operands
 * in float, one rounding to the dtype at the store, PyTorch's nvcc flags)
 * and run on the run's backend, its operands broadcast to its shape
 * first; the row sums are PyTorch's generic reduction, softmax and
 * log_softmax its kernels, modelled on the host (torch_reduce.h); pick
 * and onehot move values exactly.  A step the models do not cover makes
 * the torch rows of the outputs it leads to n/a, saying why. */
#include "shaped.h"
#include "backend.h"
#include "codegen.h"
#include "ptx.h"
#include "rowop.h"
#include "run.h"
#include "torch_reduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct plan {
	const struct ub_shaped_req *q;
	const struct ub_rowop *ro;
	enum ub_dtype dt;
	size_t rows, cols;
	struct ub_array *env;    /* inputs, then steps */
	enum ub_ro_ext *ext;
	char *na;                /* the step's: why it has no value (256) */
	uint64_t *approx;
	struct ub_error *err;
};

static size_t count(const struct plan *p, enum ub_ro_ext e)
{
	return e == UB_RO_FULL ? p->rows * p->cols : e == UB_RO_ROWS ? p->rows : p->cols;
}

/* Value v broadcast to extent e, into b (a copy, or v itself: *own 0). */
static int broadcast(const struct plan *p, int v, enum ub_ro_ext e, struct ub_array *b)
{
	const struct ub_array *a = &p->env[v];
	if (p->ext[v] == e) {
		*b = *a;
		return 0;
	}
	if (ub_array_alloc(b, a->dt, count(p, e)))
		return ub_fail(p->err, UB_RUNTIME, "out of memory");
	for (size_t i = 0; i < b->n; i++)
		ub_array_set(b, i, ub_array_get(a, p->ext[v] == UB_RO_ROWS ? i / p->cols
						      : i % p->cols));
	return 0;
}

/* An elementwise step: one generated kernel over its operands. */
static int elem(const struct plan *p, const struct ub_ro_step *st, struct ub_array *out)
{
	struct ub_array a[UB_RO_MAX_VARS] = {{0}};
	struct ub_plan_step one = {.name = (char *)st->name, .e = st->e};
	char *names[UB_RO_MAX_VARS] = {0};
	char name[200];
	snprintf(name, sizeof name, "%s", p->ro->name);
	struct ub_op op = {.name = name, .ninputs = st->nvar, .nsampled = st->nvar,
			   .nsteps = 1, .torch = &one, .precision = -1};
	int s = 0;
	for (int k = 0; !s && k < st->nvar; k++) {
		s = broadcast(p, st->var[k], st->ext, &a[k]);
		names[k] = (char *)(st->var[k] < p->ro->nin ? p->ro->in[st->var[k]].name
				   : p->ro->steps[st->var[k] - p->ro->nin].name);
		op.inputs[k] = names[k];
	}
	struct ub_config cfg = *p->q->cfg;
	cfg.op = &op;
	cfg.trace = NULL;
	if (!s)
		s = ub_run_step(&cfg, a, 0, out, p->approx, p->err);
	for (int k = 0; k < st->nvar; k++)
		if (a[k].data != p->env[st->var[k]].data)
			ub_array_free(&a[k]);
	return s;
}

static uint64_t *bits(const struct ub_array *a)
{
	uint64_t *b = malloc((a->n ? a->n : 1) * sizeof *b);
	for (size_t i = 0; b && i < a->n; i++)
		b[i] = ub_array_get(a, i);
	return b;
}

/* PyTorch's layer norm of the step's X, W, B: the output the step names
 * into o; its mean and rstd are float32 whatever the dtype (n/a but in
 * f32, as the built-in layer_norm's). */
static enum tp_status layer_norm(const struct plan *p, const struct ub_ro_step *st,
				 const struct tp_device *dev, const struct tp_tensor *t,
				 uint64_t *o, struct tp_why *why)
{
	size_t n = p->rows * p->cols;
	uint64_t *w = bits(&p->env[st->var[1]]), *b = bits(&p->env[st->var[2]]);
	uint64_t *out = malloc(n * sizeof *out + 1), *mean = malloc(p->rows * sizeof *mean + 1),
		 *rstd = malloc(p->rows * sizeof *rstd + 1);
	enum ub_dtype stat = p->dt;
	enum tp_status ts = TP_NA;
	snprintf(why->msg, sizeof why->msg, "out of memory");
	if (w && b && out && mean && rstd)
		ts = tp_layer_norm_fwd(dev, NULL, t, w, b, st->eps, out, mean, rstd, &stat, why);
	if (ts != TP_NA && st->kind != UB_RS_LN && stat != p->dt) {
		snprintf(why->msg, sizeof why->msg, "PyTorch's layer_norm returns its mean and "
			 "rstd in %s for %s inputs, not in the dtype", ub_dtypes[stat].name,
			 ub_dtypes[p->dt].name);
		ts = TP_NA;
	}
	if (ts != TP_NA)
		memcpy(o, st->kind == UB_RS_LN ? out : st->kind == UB_RS_LN_MEAN ? mean : rstd,
		       (st->kind == UB_RS_LN ? n : p->rows) * sizeof *o);
	if (ts == TP_ORDER)
		*p->approx |= 1ull << PTX_AX_RSQRT_APPROX;
	free(w);
	free(b);
	free(out);
	free(mean);
	free(rstd);
	return ts;
}

/* A step PyTorch's reduction or softmax kernel computes (the host model). */
static int model(const struct plan *p, const struct ub_ro_step *st, struct ub_array *out)
{
	struct tp_device dev;
	struct tp_why why = {{0}};
	tp_device_default(&dev);
	uint64_t *x = bits(&p->env[st->var[0]]);
	uint64_t *o = malloc(count(p, st->ext) * sizeof *o + 1);
	struct tp_tensor t = {p->dt, p->rows, p->cols, x};
	enum tp_status ts = TP_NA;
	if (x && o && st->kind == UB_RS_SUM)
		ts = tp_sum_lastdim(&dev, &t, o, &why);
	else if (x && o && (st->kind == UB_RS_LN || st->kind == UB_RS_LN_MEAN ||
			    st->kind == UB_RS_LN_RSTD))
		ts = layer_norm(p, st, &dev, &t, o, &why);
	else if (x && o) {
		ts = tp_softmax(&dev, NULL, &t, st->kind == UB_RS_LOG_SOFTMAX, o, &why);
		if (ts == TP_ORDER)
			*p->approx |= 1ull << PTX_AX_EX2_APPROX |
				      (st->kind == UB_RS_LOG_SOFTMAX ? 1ull << PTX_AX_LG2_APPROX : 0);
	}
	int s = x && o ? 0 : ub_fail(p->err, UB_RUNTIME, "out of memory");
	if (!s && ts == TP_NA)
		snprintf(p->na, 256, "torch plan: step %s: %s", st->name, why.msg);
	if (!s && ts != TP_NA && !(s = ub_array_alloc(out, p->dt, count(p, st->ext))))
		for (size_t i = 0; i < out->n; i++)
			ub_array_set(out, i, o[i]);
	free(x);
	free(o);
	return s;
}

/* pick and onehot: values moved, not computed. */
static int move(const struct plan *p, const struct ub_ro_step *st, struct ub_array *out)
{
	const struct ub_array *cls = &p->env[st->var[st->kind == UB_RS_PICK ? 1 : 0]];
	uint64_t one = ub_codegen_round(p->dt, 1.0);
	int s = ub_array_alloc(out, p->dt, count(p, st->ext));
	for (size_t r = 0; !s && r < p->rows; r++) {
		int64_t c = (int32_t)(uint32_t)ub_array_get(cls, r);
		if (c < 0 || (size_t)c >= p->cols) {
			snprintf(p->na, 256, "torch plan: step %s: class %lld of row %zu is "
				 "not in [0, %zu)", st->name, (long long)c, r, p->cols);
			return 0;
		}
		if (st->kind == UB_RS_PICK)
			ub_array_set(out, r, ub_array_get(&p->env[st->var[0]], r * p->cols + (size_t)c));
		else
			ub_array_set(out, r * p->cols + (size_t)c, one);
	}
	return s ? ub_fail(p->err, UB_RUNTIME, "out of memory") : 0;
}

/* t += a, as PyTorch's add kernel: in float (double for f64), rounded
 * once to the dtype. */
static void accumulate(struct ub_array *t, const struct ub_array *a)
{
	for (size_t i = 0; i < t->n; i++) {
		uint64_t x = ub_array_get(t, i), y = ub_array_get(a, i);
		if (t->dt == UB_F64) {
			double u, v, w;
			memcpy(&u, &x, 8);
			memcpy(&v, &y, 8);
			w = u + v;
			memcpy(&x, &w, 8);
		} else {
			/* f32, f16, bf16 values are floats exactly */
			float u = (float)ub_bits_to_double(t->dt, x), v = (float)ub_bits_to_double(t->dt, y),
			      w = u + v;
			x = ub_codegen_round(t->dt, (double)w);
		}
		ub_array_set(t, i, x);
	}
}

int ub_shaped_fp_torch(const struct ub_shaped_req *q, const struct ub_rowop *ro,
		       enum ub_dtype dt, const struct ub_array *in, size_t rows, size_t cols,
		       struct ub_array *torch, char (*na)[256], uint64_t *approx,
		       struct ub_error *err)
{
	int n = ro->nin + ro->nsteps, s = 0;
	char why[256] = "";
	struct ub_array *env = calloc((size_t)n + 1, sizeof *env);
	enum ub_ro_ext *ext = calloc((size_t)n + 1, sizeof *ext);
	char (*vna)[256] = calloc((size_t)n + 1, sizeof *vna); /* per value */
	struct plan p = {q, ro, dt, rows, cols, env, ext, why, approx, err};
	*approx = 0;
	if (!env || !ext || !vna)
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s && !ro->nsteps)
		snprintf(why, sizeof why, "the op has no :torch plan");
	for (int k = 0; !s && k < ro->nin; k++) {
		env[k] = in[k];
		ext[k] = ro->in[k].ext;
	}
	for (int k = 0; !s && !why[0] && k < ro->nsteps; k++) {
		const struct ub_ro_step *st = &ro->steps[k];
		struct ub_array *out = &env[ro->nin + k];
		ext[ro->nin + k] = st->ext;
		p.na = vna[ro->nin + k];
		for (int v = 0; v < st->nvar && !p.na[0]; v++)   /* it reads one */
			memcpy(p.na, vna[st->var[v]], sizeof vna[0]);
		if (p.na[0])
			continue;
		if (st->kind == UB_RS_ELEM)
			s = elem(&p, st, out);
		else if (st->kind == UB_RS_PICK || st->kind == UB_RS_ONEHOT)
			s = move(&p, st, out);
		else
			s = model(&p, st, out);
		if (s)
			ub_prefix(err, s, "%s: torch step %s: ", ro->name, st->name);
	}
	int acc[UB_SHAPED_MAX_OUT];
	ub_shaped_acc_inputs(q, acc);
	for (int o = 0; o < ro->nout; o++) {
		snprintf(na[o], sizeof na[o], "%s", why[0] || !vna ? why : vna[ro->out_value[o]]);
		const struct ub_array *v = env ? &env[ro->out_value[o]] : NULL;
		if (s || na[o][0] || !v->data)
			continue;
		if ((s = ub_array_alloc(&torch[o], dt, v->n)) != 0)
			break;
		memcpy(torch[o].data, v->data, v->n * (size_t)ub_dtypes[dt].bits / 8);
		if (acc[o] >= 0)
			accumulate(&torch[o], &in[acc[o]]);
	}
	for (int k = ro->nin; env && k < n; k++)
		ub_array_free(&env[k]);
	free(env);
	free(ext);
	free(vna);
	return s;
}

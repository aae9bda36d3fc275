/* shaped_torch.c — a shaped op's torch rows: what PyTorch's CUDA kernel
 * writes for the same inputs, from the host models of its reduction
 * orders (torch_reduce.h, on the default device), per output. */
#include "shaped.h"
#include "torch_reduce.h"
#include "ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The encodings of a (a malloc'd copy), or NULL out of memory. */
static uint64_t *bits_of(const struct ub_array *a)
{
	uint64_t *b = malloc((a->n ? a->n : 1) * sizeof *b);
	for (size_t i = 0; b && i < a->n; i++)
		b[i] = ub_array_get(a, i);
	return b;
}

/* The modelled elementary functions behind a TP_ORDER result, as the
 * sim's approximate instructions say them. */
static uint64_t stand_ins(enum ub_shaped_kind k)
{
	switch (k) {
	case UB_SH_SOFTMAX: return 1ull << PTX_AX_EX2_APPROX;
	case UB_SH_LOG_SOFTMAX: case UB_SH_CROSS_ENTROPY:
		return 1ull << PTX_AX_EX2_APPROX | 1ull << PTX_AX_LG2_APPROX;
	case UB_SH_RMS_NORM: case UB_SH_LAYER_NORM: return 1ull << PTX_AX_RSQRT_APPROX;
	default: return 0;
	}
}

/* Runs the model of op's kind into out[o] (encodings), *st its status. */
static enum tp_status model(const struct ub_shaped_op *op, const struct tp_tensor *x,
			    uint64_t *const *in, uint64_t **out, enum ub_dtype *stat,
			    struct tp_why *why)
{
	struct tp_device dev;
	tp_device_default(&dev);
	*stat = x->dt;
	switch (op->kind) {
	case UB_SH_SUM:
		return tp_sum_lastdim(&dev, x, out[0], why);
	case UB_SH_SOFTMAX: case UB_SH_LOG_SOFTMAX:
		return tp_softmax(&dev, NULL, x, op->kind == UB_SH_LOG_SOFTMAX, out[0], why);
	case UB_SH_RMS_NORM:
		return tp_rms_norm_fwd(&dev, NULL, x, in[1], UB_SHAPED_EPS, out[0], why);
	case UB_SH_LAYER_NORM:
		return tp_layer_norm_fwd(&dev, NULL, x, in[1], in[2], UB_SHAPED_EPS, out[0],
					 out[1], out[2], stat, why);
	case UB_SH_LAYER_NORM_BWD: { /* x: dout; mean, rstd: float32 */
		struct tp_tensor xx = *x;
		xx.bits = in[1];
		return tp_layer_norm_bwd(&dev, x, &xx, in[3], in[4], in[2], out[0], out[1],
					 out[2], why);
	}
	case UB_SH_CROSS_ENTROPY: { /* in[1]: the classes as int32 */
		int64_t *t = malloc((x->rows ? x->rows : 1) * sizeof *t);
		if (!t) {
			snprintf(why->msg, sizeof why->msg, "out of memory");
			return TP_NA;
		}
		for (size_t i = 0; i < x->rows; i++)
			t[i] = (int32_t)(uint32_t)in[1][i];
		enum tp_status st = tp_cross_entropy(&dev, NULL, x, t, 0, out[0], why);
		free(t);
		return st;
	}
	case UB_SH_FPCORE: /* its own :torch (shaped_fptorch.c) */
		snprintf(why->msg, sizeof why->msg, "the op's :torch runs elsewhere");
		return TP_NA;
	case UB_SH_RMS_NORM_BWD:
		snprintf(why->msg, sizeof why->msg, "no torch plan for rms_norm_bwd: PyTorch "
			 "has no fused rms_norm kernel in the modelled versions; its backward "
			 "is autograd through the chain pow, mean, add, rsqrt, mul, whose "
			 "reductions' order is not modelled");
		return TP_NA;
	default:   /* the matrix ops: shaped_mm_torch.c */
		return TP_NA;
	}
}

int ub_shaped_torch(const struct ub_shaped_op *op, enum ub_dtype dt,
		    const struct ub_array *in, size_t rows, size_t cols,
		    struct ub_array *torch, char (*na)[256], uint64_t *approx,
		    struct ub_error *err)
{
	uint64_t *ib[UB_SHAPED_MAX_IN] = {0}, *ob[UB_SHAPED_MAX_OUT] = {0};
	int s = 0;
	for (int k = 0; k < op->nin; k++)
		if (!(ib[k] = bits_of(&in[k])))
			s = ub_fail(err, UB_RUNTIME, "out of memory");
	for (int o = 0; o < op->nout; o++) {
		na[o][0] = '\0';
		if (!(ob[o] = calloc(ub_extent_count(op->out[o].ext, rows, cols), sizeof **ob)))
			s = ub_fail(err, UB_RUNTIME, "out of memory");
	}
	struct tp_tensor x = {.dt = dt, .rows = rows, .cols = cols, .bits = ib[0]};
	struct tp_why why = {{0}};
	enum ub_dtype stat = dt;
	enum tp_status st = s ? TP_NA : model(op, &x, ib, ob, &stat, &why);
	*approx = st == TP_ORDER ? stand_ins(op->kind) : 0;
	for (int o = 0; !s && o < op->nout; o++) {
		size_t n = ub_extent_count(op->out[o].ext, rows, cols);
		if (st == TP_NA)
			snprintf(na[o], sizeof na[o], "torch plan: %s", why.msg);
		else if (o > 0 && stat != dt) /* layer norm's mean and rstd */
			snprintf(na[o], sizeof na[o], "PyTorch returns %s in %s for %s "
				 "inputs, not in the dtype", op->out[o].name,
				 ub_dtypes[stat].name, ub_dtypes[dt].name);
		else if ((s = ub_array_alloc(&torch[o], dt, n)) != 0)
			s = ub_fail(err, s, "out of memory for the torch plan's %s (%zu "
				    "elements)", op->out[o].name, n);
		else
			for (size_t i = 0; i < n; i++)
				ub_array_set(&torch[o], i, ob[o][i]);
	}
	for (int k = 0; k < UB_SHAPED_MAX_IN; k++)
		free(ib[k]);
	for (int o = 0; o < UB_SHAPED_MAX_OUT; o++)
		free(ob[o]);
	return s;
}

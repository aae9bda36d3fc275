/* shaped_bind.c — what each parameter of a kernel file takes in a shaped
 * run (shaped.h), from the binder's canonical bindings (user_kernel.h,
 * kernel_roles.h): an input, an output (by name; out is the first), an
 * output that starts as an input (OUT:inplace=IN, OUT:acc=IN), a scratch
 * buffer (scratch:size=EXPR), rows, cols, n (rows * cols), or a value
 * (=0xBITS).  Integer inputs, held as int32, are passed at the width the
 * parameter takes (8, 32 or 64 bits). */
#include "shaped_internal.h"
#include "shaped_mm.h"
#include "kernel_roles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int output_of(const struct ub_shaped_op *op, const char *nm, size_t len)
{
	for (int o = 0; o < op->nout; o++)
		if (strlen(op->out[o].name) == len && !strncmp(nm, op->out[o].name, len))
			return o;
	return len == 3 && !strncmp(nm, "out", 3) ? 0 : -1;
}

static int input_of(const struct ub_shaped_op *op, const char *nm)
{
	for (int k = 0; k < op->nin; k++)
		if (!strcmp(nm, op->in[k].name))
			return k;
	return -1;
}

/* Integer input k at the width of parameter a (bytes 1, 4 or 8): a copy
 * in sa, its values checked to fit. */
static int width(const struct ub_shaped_req *q, struct sdata *d, int k, int a,
		 struct ub_shaped_args *sa, struct ub_karg *arg, struct ub_error *err)
{
	const struct ub_array *v = &d->in[k];
	int w = q->iw[a];
	if (!w || w == 4)
		return 0;
	struct ub_array *b = &sa->own[sa->nown++];
	if (ub_array_alloc(b, UB_F64, w == 8 ? v->n : (v->n + 7) / 8))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	for (size_t i = 0; i < v->n; i++) {
		int64_t x = (int32_t)(uint32_t)ub_array_get(v, i);
		if (w == 1 && (x < 0 || x > 255))
			return ub_fail(err, UB_USAGE, "%s: input %s: element %zu is %lld, which "
				       "its kernel parameter (uint8_t) cannot hold", q->kernel,
				       q->op->in[k].name, i, (long long)x);
		if (w == 8)
			ub_array_set(b, i, (uint64_t)x);
		else
			((unsigned char *)b->data)[i] = (unsigned char)x;
	}
	arg->arr = b;
	arg->bytes = v->n * (size_t)w;
	return 0;
}

/* OUT:inplace=IN or OUT:acc=IN: output o starts as input IN. */
static int starts_as(const struct ub_shaped_req *q, struct sdata *d, int o, const char *in,
		     struct ub_shaped_args *sa, struct ub_error *err)
{
	int k = input_of(q->op, in);
	if (k < 0 || ub_shaped_is_int(&q->op->in[k]) || q->op->in[k].ext != q->op->out[o].ext ||
	    d->in[k].dt != d->dt)
		return ub_fail(err, UB_USAGE, "--args: output %s cannot start as %s: an input "
			       "of the output's shape (%s) and dtype", q->op->out[o].name, in,
			       ub_extent_name(q->op->out[o].ext));
	sa->pre[o] = &d->in[k];
	return 0;
}

/* A scratch buffer of EXPR elements of parameter a's size, zeroed. */
static int scratch(const struct ub_shaped_req *q, int a, const char *expr, size_t rows,
		   size_t cols, struct ub_shaped_args *sa, struct ub_karg *arg,
		   struct ub_error *err)
{
	unsigned long long n, es = q->esize[a] ? q->esize[a] : 1;
	int s = ub_role_size(expr, (unsigned long long)(rows * cols), rows, cols, &n, err);
	if (s)
		return s;
	struct ub_array *b = &sa->own[sa->nown++];
	if (ub_array_alloc(b, UB_F64, (size_t)((n * es + 7) / 8)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	*arg = (struct ub_karg){.arr = b, .writable = 1, .name = "scratch",
				.bytes = (size_t)(n * es)};
	return 0;
}

int ub_shaped_bind(const struct ub_shaped_req *q, struct sdata *d, struct ub_array *y,
		   int a, size_t rows, size_t cols, struct ub_shaped_args *sa,
		   struct ub_karg *arg, struct ub_error *err)
{
	const struct ub_shaped_op *op = q->op;
	const char *nm = q->args[a], *colon = strchr(nm, ':');
	int k, o;
	*arg = (struct ub_karg){0};
	if (!strcmp(nm, "rows") || !strcmp(nm, "cols"))
		return arg->value = nm[0] == 'r' ? rows : cols, 0;
	if (!strcmp(nm, "n"))   /* the elements of a (rows, cols) tensor */
		return arg->value = rows * cols, 0;
	/* a matrix op's sizes (shaped_mm.h): inner = K (sdpa: S), batch;
	 * M N K, and sdpa's L S D */
	static const char *const sizes[] = { "inner", "batch", "M", "N", "K", "L", "S", "D" };
	size_t v[] = { q->inner, q->batch, rows / (q->batch ? q->batch : 1), cols, q->inner,
		       rows, q->inner, cols };
	for (size_t z = 0; ub_shaped_is_mm(op) && z < sizeof sizes / sizeof *sizes; z++)
		if (!strcmp(nm, sizes[z]))
			return arg->value = v[z], 0;
	if (nm[0] == '=')
		return arg->value = strtoull(nm + 1, NULL, 16), 0;
	if (!strncmp(nm, "scratch:size=", 13))
		return scratch(q, a, nm + 13, rows, cols, sa, arg, err);
	if ((k = input_of(op, nm)) >= 0) {
		*arg = (struct ub_karg){.arr = &d->in[k], .name = op->in[k].name};
		return ub_shaped_is_int(&op->in[k]) ? width(q, d, k, a, sa, arg, err) : 0;
	}
	if ((o = output_of(op, nm, colon ? (size_t)(colon - nm) : strlen(nm))) < 0)
		return ub_fail(err, UB_USAGE, "--args: '%s' is nothing %s has", nm, op->name);
	*arg = (struct ub_karg){.arr = &y[o], .writable = 1, .name = op->out[o].name};
	if (colon && !strncmp(colon, ":acc=", 5) && op->kind != UB_SH_FPCORE)
		return ub_fail(err, UB_USAGE, "--args: %s: :acc=INPUT is for FPCore row ops, "
			       "whose reference adds the input exactly; %s's reference is its "
			       "own (docs/rowops.md)", nm, op->name);
	if (colon && !strncmp(colon, ":acc=", 5))
		sa->acc[o] = 1;
	if (!colon)
		return 0;
	arg->acc = 1;   /* it starts with values: the checks let it be read */
	return starts_as(q, d, o, strchr(colon, '=') + 1, sa, err);
}

void ub_shaped_args_free(struct ub_shaped_args *sa)
{
	for (int i = 0; i < sa->nown; i++)
		ub_array_free(&sa->own[i]);
	memset(sa, 0, sizeof *sa);
}

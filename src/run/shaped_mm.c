/* shaped_mm.c — the matrix ops' sizes (shaped_mm.h): their operands'
 * extents, --shape, the defaults. */
#include "shaped_mm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ub_shaped_is_mm(const struct ub_shaped_op *op)
{
	return op->kind >= UB_SH_MATMUL && op->kind <= UB_SH_SDPA_CAUSAL;
}

static int is_sdpa(const struct ub_shaped_op *op)
{
	return op->kind == UB_SH_SDPA || op->kind == UB_SH_SDPA_CAUSAL;
}

size_t ub_mm_count(const struct ub_shaped_req *q, enum ub_extent e, size_t rows,
		   size_t cols)
{
	switch (e) {
	case UB_EXT_MK: return rows * q->inner;
	case UB_EXT_KN: case UB_EXT_NK: return q->inner * cols;
	case UB_EXT_BKN: return q->batch * q->inner * cols;
	default: return ub_extent_count(e, rows, cols);
	}
}

void ub_mm_dims(const struct ub_shaped_req *q, enum ub_extent e, size_t rows,
		size_t cols, size_t *r, size_t *c)
{
	*r = e == UB_EXT_MK ? rows : e == UB_EXT_KN ? q->inner : e == UB_EXT_NK ? cols :
	     e == UB_EXT_BKN ? q->batch * q->inner : rows;
	*c = e == UB_EXT_MK || e == UB_EXT_NK ? q->inner : cols;
}

void ub_mm_default(const struct ub_shaped_op *op, struct ub_shaped_req *q)
{
	q->batch = op->kind == UB_SH_BMM ? 2 : 1;
	q->rows = q->batch * (is_sdpa(op) ? 32 : 64);
	q->cols = is_sdpa(op) ? 32 : 64;
	q->inner = 64;
}

/* One size of --shape: a decimal integer >= 1, below 2^31. */
static int dim(const char *s, char **end, size_t *v)
{
	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long x = strtoull(s, end, 10);
	if (errno || x < 1 || x > INT32_MAX)
		return -1;
	*v = (size_t)x;
	return 0;
}

int ub_mm_shape_parse(const struct ub_shaped_op *op, const char *spec,
		      struct ub_shaped_req *q, struct ub_error *err)
{
	int n = op->kind == UB_SH_BMM ? 4 : 3, ok = 1;
	size_t v[4] = { 1, 1, 1, 1 };
	const char *p = spec;
	char *end = NULL;
	for (int i = 0; i < n && ok; i++) {
		ok = !dim(p, &end, &v[i]) && *end == (i + 1 < n ? ',' : '\0');
		if (ok)
			p = end + 1;
	}
	const char *form = op->kind == UB_SH_BMM ? "B,M,N,K" : is_sdpa(op) ? "L,S,D" : "M,N,K";
	if (ok) {
		size_t b = n == 4 ? v[0] : 1, *s = v + (n == 4);
		q->batch = b;
		if (is_sdpa(op))   /* L, S, D: rows L, inner S, cols D */
			q->rows = s[0], q->inner = s[1], q->cols = s[2];
		else
			q->rows = s[0], q->cols = s[1], q->inner = s[2];
		/* every operand below 2^31 elements (b * m first) */
		size_t lim = INT32_MAX;
		ok = q->rows <= lim / b && (q->rows *= b, 1) && q->rows <= lim / q->cols &&
		     q->rows <= lim / q->inner && q->inner <= lim / q->cols &&
		     b * q->inner <= lim / q->cols;
	}
	if (!ok)
		return ub_fail(err, UB_USAGE, "--shape %s: expected %s for %s, integers >= 1 "
			       "with every operand below 2^31 elements", spec, form, op->name);
	return 0;
}

const char *ub_mm_shape_text(const struct ub_shaped_req *q, size_t rows, size_t cols,
			     char *buf, size_t len)
{
	const struct ub_shaped_op *op = q->op;
	if (op->kind == UB_SH_BMM)
		snprintf(buf, len, "%zu,%zu,%zu,%zu", q->batch, rows / q->batch, cols, q->inner);
	else if (is_sdpa(op))
		snprintf(buf, len, "%zu,%zu,%zu", rows, q->inner, cols);
	else
		snprintf(buf, len, "%zu,%zu,%zu", rows, cols, q->inner);
	return buf;
}

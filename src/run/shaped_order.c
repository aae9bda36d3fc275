/* shaped_order.c — the sum of each row in other valid orders, on the host
 * (shaped.h, --orders): how much of a difference between two kernels, or
 * from PyTorch, the order of the additions alone makes.  Each order adds
 * in float (f16/bf16 elements widened exactly), as the kernels do, and
 * rounds the row's sum once to the dtype:
 *   sequential  columns 0, 1, ..., cols-1 into one accumulator;
 *   pairwise    the sum of the first half (cols/2 columns) plus the sum of
 *               the rest, each the same way, down to single elements;
 *   warp-tree   32 lanes, lane l adding columns l, l+32, l+64, ... in
 *               turn, then lane l += lane l+16, +8, +4, +2, +1 (the
 *               __shfl_down_sync tree), lane 0's value the sum.
 * Host float arithmetic is IEEE binary32 here (SSE, -ffp-contract=off has
 * no product to contract). */
#include "shaped.h"
#include "ub_bits.h"

#include <stdlib.h>
#include <string.h>

const char *const ub_shaped_orders[UB_SHAPED_NORDERS] = {"sequential", "pairwise",
							  "warp-tree"};

static float f32_of(float d)
{
	volatile float v = d; /* no excess precision */
	return v;
}

static float pairwise(const float *v, size_t n)
{
	if (n == 1)
		return v[0];
	size_t h = n / 2;
	return f32_of(pairwise(v, h) + pairwise(v + h, n - h));
}

static float warp_tree(const float *v, size_t n)
{
	float lane[32] = {0};
	for (size_t j = 0; j < n; j++)
		lane[j % 32] = f32_of(lane[j % 32] + v[j]);
	for (int off = 16; off; off /= 2)
		for (int l = 0; l < off; l++)
			lane[l] = f32_of(lane[l] + lane[l + off]);
	return lane[0];
}


int ub_shaped_order_sum(int order, const struct ub_array *x, size_t rows,
			size_t cols, struct ub_array *out, struct ub_error *err)
{
	float *v = malloc(cols * sizeof *v);
	int s = v && !ub_array_alloc(out, x->dt, rows) ? 0 :
		ub_fail(err, UB_RUNTIME, "out of memory");
	for (size_t r = 0; !s && r < rows; r++) {
		for (size_t j = 0; j < cols; j++)
			v[j] = (float)ub_bits_to_double(x->dt, ub_array_get(x, r * cols + j));
		float acc = 0.f;
		if (order == 0)
			for (size_t j = 0; j < cols; j++)
				acc = f32_of(acc + v[j]);
		else
			acc = order == 1 ? pairwise(v, cols) : warp_tree(v, cols);
		ub_array_set(out, r, ub_shaped_round(x->dt, acc));
	}
	free(v);
	return s;
}

void ub_shaped_spread(const struct ub_array *a, const struct ub_array *b,
		      struct ub_spread *sp)
{
	memset(sp, 0, sizeof *sp);
	for (size_t i = 0; i < a->n && i < b->n; i++) {
		uint64_t x = ub_array_get(a, i), y = ub_array_get(b, i);
		if (ub_same(a->dt, x, y))
			continue;
		uint64_t dist = ub_distance(a->dt, x, y);
		if (!sp->moved++ || dist > sp->max_dist) {
			sp->max_dist = dist;
			sp->worst = i;
		}
	}
}

/* written.c — the check that a kernel wrote every output element
 * (written.h). */
#include "written.h"
#include "catalog.h"
#include "ub_bits.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Two NaNs per dtype, of payloads a computation does not give. */
static uint64_t sentinel(enum ub_dtype dt, int k)
{
	static const uint64_t s[UB_NDTYPES][2] = {
		[UB_F32] = { 0x7fbadbad, 0xffa5a5a5 },
		[UB_F16] = { 0x7dad, 0xfd5a },
		[UB_BF16] = { 0x7fad, 0xff5a },
		[UB_F64] = { 0x7ff4badbadbadbadull, 0xfff5a5a5a5a5a5a5ull },
	};
	return s[dt][k];
}

/* Every element of a set to v, and the index of the first element from i
 * on that is v (a->n when none is): loops per width over blocks of 256
 * elements (loops of a constant count, which the compiler vectorizes:
 * the output of every launch passes through both), then element by
 * element. */
#define FILL(type)                                                         \
	do {                                                               \
		type *d = a->data, w = (type)v;                            \
		size_t i = 0;                                              \
		for (; i + 256 <= n; i += 256)                             \
			for (size_t k = 0; k < 256; k++)                   \
				d[i + k] = w;                              \
		for (; i < n; i++)                                         \
			d[i] = w;                                          \
	} while (0)

static void fill(struct ub_array *a, uint64_t v)
{
	size_t n = a->n;
	switch (ub_dt_bits(a->dt)) {
	case 16: FILL(uint16_t); break;
	case 32: FILL(uint32_t); break;
	default: FILL(uint64_t); break;
	}
}

/* first_equal: blocks tested whole (no exit inside), then the block that
 * holds v element by element. */
#define FIRST_EQUAL(type)                                                  \
	do {                                                               \
		const type *d = a->data, w = (type)v;                      \
		for (; i + 256 <= n; i += 256) {                           \
			int any = 0;                                       \
			for (size_t k = 0; k < 256; k++)                   \
				any |= d[i + k] == w;                      \
			if (any)                                           \
				break;                                     \
		}                                                          \
		while (i < n && d[i] != w)                                 \
			i++;                                               \
	} while (0)

static size_t first_equal(const struct ub_array *a, size_t i, uint64_t v)
{
	size_t n = a->n;
	switch (ub_dt_bits(a->dt)) {
	case 16: FIRST_EQUAL(uint16_t); break;
	case 32: FIRST_EQUAL(uint32_t); break;
	default: FIRST_EQUAL(uint64_t); break;
	}
	return i;
}

int ub_run_written(struct ub_array *out, int acc, const struct ub_checks *chk,
		   int (*run)(void *ctx, struct ub_error *err),
		   void *ctx, size_t *first, size_t *count, struct ub_error *err)
{
	uint64_t s0 = sentinel(out->dt, 0), s1 = sentinel(out->dt, 1);
	size_t bytes = out->n * (size_t)ub_dtypes[out->dt].bits / 8;
	*first = SIZE_MAX;
	*count = 0;
	if (acc) {   /* +0 in every format is all zero bits */
		fill(out, 0);
		int s = run(ctx, err);
		if (!s && chk->unwritten) {
			*first = (size_t)chk->unwritten_at;
			*count = (size_t)chk->unwritten;
		}
		return s;
	}
	fill(out, s0);
	int s = run(ctx, err);
	size_t i = s ? 0 : first_equal(out, 0, s0);
	if (s || i == out->n)
		return s;
	unsigned char *was = malloc(bytes ? bytes : 1);   /* the first launch's */
	if (!was)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	memcpy(was, out->data, bytes);
	fill(out, s1);
	s = run(ctx, err);
	for (; !s && i < out->n; i++)
		if (ub_load(out->dt, was, i) == s0 && ub_load(out->dt, out->data, i) == s1) {
			*first = *first == SIZE_MAX ? i : *first;
			++*count;
		}
	free(was);
	return s;
}

int ub_unwritten_fail(struct ub_error *err, size_t first, size_t count, size_t n,
		      const struct ub_geom *geom, int triton)
{
	char of[64] = "", each[96], gs[48] = "", bs[48] = "";
	unsigned grid, block, gd[3], bd[3];
	ub_geom_grid(geom, n, &grid, &block);
	ub_geom_dims(geom, n, gd, bd);
	if (gd[1] * gd[2] > 1)   /* a grid or block of several dimensions */
		snprintf(gs, sizeof gs, " (%u x %u x %u)", gd[0], gd[1], gd[2]);
	if (bd[1] * bd[2] > 1)
		snprintf(bs, sizeof bs, " (%u x %u x %u)", bd[0], bd[1], bd[2]);
	grid *= gd[1] * gd[2];
	unsigned long long per = geom && geom->per_block ? geom->per_block : block;
	if (triton) /* Triton's launcher, which --launch does not set */
		snprintf(each, sizeof each, "%s (--grid N; the elements of a program: "
			 "its --constexpr)", geom && geom->grid ? "a fixed grid" :
			 "one program a block");
	else if (geom && geom->grid)
		snprintf(each, sizeof each, "a fixed grid (--grid N, --launch grid=G)");
	else if (per % block == 0)
		snprintf(each, sizeof each, "%llu element%s a thread (--launch "
			 "block=B,per-thread=K)", per / block, per == block ? "" : "s");
	else
		snprintf(each, sizeof each, "%llu elements a block", per);
	if (count > 1)
		snprintf(of, sizeof of, " (the first of %zu)", count);
	return ub_fail(err, UB_RUNTIME, "output element %zu of %zu%s was never "
		       "written; the launch: %u block%s%s of %u threads%s, %s", first, n,
		       of, grid, grid == 1 ? "" : "s", gs, block, bs, each);
}

void ub_acc_step(struct ub_array *a, struct ub_exact *exact)
{
	uint64_t neg0 = (uint64_t)1 << (ub_dtypes[a->dt].bits - 1);
	for (size_t i = 0; i < a->n; i++) {
		if (ub_load(a->dt, a->data, i) == neg0)
			ub_array_set(a, i, 0);
		if (exact && exact[i].hi == 0 && exact[i].lo == 0)
			exact[i].hi = exact[i].lo = 0.0;   /* +0 */
	}
}

int ub_op_acc(const struct ub_op *op)
{
	for (int a = 0; op->kernel && a < op->nargs; a++)
		if (!strcmp(op->args[a], "out:acc"))
			return 1;
	return 0;
}

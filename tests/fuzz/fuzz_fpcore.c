/* fuzz_fpcore.c — FPCore text (src/catalog: sexp.c, catalog.c and the
 * expressions it builds): the input is an --fpcore file; the ops it
 * defines then have their kernel and torch plan generated as a run would
 * (codegen.c), and their reference evaluated at a few inputs (reference/:
 * the fast path, Ziv's loop, the exact evaluation).  To keep executions
 * fast (each op's generation in every dtype and the reference at eight
 * points ran 13 to 19 inputs a second under libFuzzer), an input does the
 * first four ops it defines, in one dtype and at two of the points, both
 * picked by a hash of the input: the same input always does the same
 * work, and the inputs together cover every dtype and point.  The first
 * op over rows it defines (rowop.h) is read again as a run reads it, for
 * a 2 x 3 shape in f32 and f16, and each element of its outputs unrolled
 * (rowop_build.c) and decided by the reference, its inputs 0 and small
 * numbers, its integers the ends of their ranges. */
#include "fuzz.h"
#include "catalog.h"
#include "codegen.h"
#include "reference.h"
#include "rowop.h"
#include "sexp.h"

#include <stdlib.h>

enum { MAX_OPS = 4, NPOINTS = 2 };

static void generate(const struct ub_op *op, enum ub_dtype dt)
{
	struct ub_error err;
	char *src = NULL;
	if (!op->kernel && ub_codegen_kernel(op, dt, &src, &err) == 0)
		free(src);
	for (int k = 0; k < op->nsteps; k++) {
		src = NULL;
		if (ub_codegen_step(op, k, dt, &src, &err) == 0)
			free(src);
	}
}

/* Every input of op at one of a few f32 values (0, -0, 1, 3, -0.5, a
 * subnormal, the largest finite), or f16 at 3: zeros, ties and the ends
 * of the range are where the reference's rules branch. */
static void reference(const struct ub_op *op, unsigned v)
{
	static const uint64_t f32[] = {0, 0x80000000, 0x3f800000, 0x40400000,
				       0xbf000000, 0x00000005, 0x7f7fffff};
	uint64_t in[UB_MAX_INPUTS], cr;
	struct ub_exact x;
	struct ub_error err;
	int half = v == sizeof f32 / sizeof f32[0];
	for (int k = 0; k < op->ninputs; k++)
		in[k] = half ? 0x4200 : f32[v];
	ub_ref_eval_auto(op->math, half ? UB_F16 : UB_F32, in, op->ninputs, 1, &cr, &x, &err);
}

/* Input k's element i: an integer input's range ends, else a few f32 or
 * f16 values by position. */
struct rows { const struct ub_rowop *op; int dt; };

static uint64_t element(void *ctx, int k, size_t i)
{
	const struct rows *r = ctx;
	static const uint64_t f32[] = {0, 0x3f800000, 0xc0400000, 0x00000001};
	static const uint64_t f16[] = {0, 0x3c00, 0xc200, 0x0001};
	const struct ub_ro_in *a = &r->op->in[k];
	if (a->is_int)
		return (uint64_t)(i % 2 ? ub_rowop_ihi(r->op, k, 3) - 1 : a->ilo);
	return r->dt == UB_F16 ? f16[(i + (size_t)k) % 4] : f32[(i + (size_t)k) % 4];
}

static void rows(const struct ub_rowop *cat_op)
{
	for (int t = 0; t < 2; t++) {
		struct ub_rowop op;
		struct ub_error err;
		int dt = t ? UB_F16 : UB_F32;
		if (ub_rowop_parse(cat_op->text, cat_op->file, dt, NULL, 2, 3, &op, &err) == 0) {
			struct rows ctx = {&op, dt};
			struct ub_ro_data d = {2, 3, element, &ctx, dt};
			for (size_t r = 0; r < 2; r++) {
				struct ub_ro_row *rb;
				int s = ub_ro_row_begin(&op, &d, r, &rb, &err);
				for (int o = 0; !s && o < op.nout; o++)
					for (size_t j = 0; !s && j < (op.out[o].ext == UB_RO_FULL ? 3u : 1u); j++) {
						struct ub_expr *e;
						int nv;
						uint64_t cr;
						struct ub_exact x;
						if ((s = ub_ro_row_elem(rb, o, j, &e, &err)))
							break;
						const uint64_t *v = ub_ro_row_vars(rb, &nv);
						ub_ref_eval_auto(e, (enum ub_dtype)dt, v, nv, 1, &cr, &x, &err);
						ub_expr_free(e);
					}
				ub_ro_row_end(rb);
			}
		}
		ub_rowop_free(&op);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	uint64_t h = ub_hash64(UB_HASH64_INIT, data, size);
	struct ub_error err;
	struct ub_sx top;
	if (ub_sx_read(text, "in.fpcore", &top, &err) == 0)
		ub_sx_free(&top);
	struct ub_catalog cat = {0};
	if (ub_catalog_parse(text, "in.fpcore", &cat, &err) == 0) {
		for (int i = 0; i < cat.nops && i < MAX_OPS; i++) {
			generate(&cat.ops[i], (enum ub_dtype)((h >> (8 * i)) % UB_NDTYPES));
			for (int p = 0; p < NPOINTS; p++)
				reference(&cat.ops[i], (unsigned)((h >> (32 + 8 * p + i)) % 8));
		}
		if (cat.nrowops)
			rows(&cat.rowops[0]);
	}
	ub_catalog_free(&cat);
	ub_ref_release();
	free(text);
	return 0;
}

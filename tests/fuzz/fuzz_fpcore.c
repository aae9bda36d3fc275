/* fuzz_fpcore.c — FPCore text (src/catalog: sexp.c, catalog.c and the
 * expressions it builds): the input is an --fpcore file; every op it
 * defines then has its kernel and torch plan generated in every dtype, as
 * a run would (codegen.c). */
#include "fuzz.h"
#include "catalog.h"
#include "codegen.h"
#include "sexp.h"

#include <stdlib.h>

static void generate(const struct ub_op *op)
{
	for (int dt = 0; dt < UB_NDTYPES; dt++) {
		struct ub_error err;
		char *src = NULL;
		if (!op->kernel && ub_codegen_kernel(op, (enum ub_dtype)dt, &src, &err) == 0)
			free(src);
		for (int k = 0; k < op->nsteps; k++) {
			src = NULL;
			if (ub_codegen_step(op, k, (enum ub_dtype)dt, &src, &err) == 0)
				free(src);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	struct ub_error err;
	struct ub_sx top;
	if (ub_sx_read(text, "in.fpcore", &top, &err) == 0)
		ub_sx_free(&top);
	struct ub_catalog cat = {0};
	if (ub_catalog_parse(text, "in.fpcore", &cat, &err) == 0)
		for (int i = 0; i < cat.nops; i++)
			generate(&cat.ops[i]);
	ub_catalog_free(&cat);
	free(text);
	return 0;
}

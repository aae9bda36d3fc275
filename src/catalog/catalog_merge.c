/* catalog_merge.c — user ops next to the shipped ones: `--fpcore FILE`
 * adds the ops of FILE to the catalog already loaded (the shipped one, or
 * --catalog's), refusing a name that is already taken. */
#include "catalog.h"

#include <stdlib.h>
#include <string.h>

int ub_catalog_merge(struct ub_catalog *dst, struct ub_catalog *src,
		     struct ub_error *err)
{
	for (int i = 0; i < src->nops; i++) {
		const struct ub_op *op = &src->ops[i];
		const struct ub_op *old = ub_catalog_find(dst, op->name);
		if (old)
			return ub_fail(err, UB_USAGE, "%s:%d: op '%s' is already "
				       "defined at %s:%d (op names must be unique)",
				       op->file, op->line, op->name, old->file,
				       old->line);
	}
	struct ub_op *ops = realloc(dst->ops, ((size_t)dst->nops + (size_t)src->nops + 1) *
				    sizeof *ops);
	if (!ops)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	if (src->nops)
		memcpy(ops + dst->nops, src->ops, (size_t)src->nops * sizeof *ops);
	dst->ops = ops;
	dst->nops += src->nops;
	free(src->ops);
	src->ops = NULL;
	src->nops = 0;
	return 0;
}

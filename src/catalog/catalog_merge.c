/* catalog_merge.c — user ops next to the shipped ones: `--fpcore FILE`
 * adds the ops of FILE to the catalog already loaded (the shipped one, or
 * --catalog's), refusing a name that is already taken; an anonymous core
 * whose :name is taken keeps its FILE#K, as within one file.  The cores
 * that did not load come along, for --list-ops and their messages. */
#include "catalog.h"

#include <stdlib.h>
#include <string.h>

/* Whether some op of cat answers to name by its name or identifier. */
static int taken(const struct ub_catalog *cat, const char *name)
{
	for (int i = 0; i < cat->nops; i++)
		if (!strcmp(cat->ops[i].name, name) ||
		    (cat->ops[i].ident && !strcmp(cat->ops[i].ident, name)))
			return 1;
	return 0;
}

/* An anonymous op of src that clashes with dst gives way: FILE#K, and no
 * identifier where that is taken. */
static int give_way(const struct ub_catalog *dst, struct ub_op *op)
{
	if (op->ident && taken(dst, op->ident)) {
		free(op->ident);
		op->ident = NULL;
	}
	if (!taken(dst, op->name))
		return 0;
	char *alias = strdup(op->alias);
	if (!alias)
		return -1;
	free(op->name);
	op->name = alias;
	return 0;
}

int ub_catalog_merge(struct ub_catalog *dst, struct ub_catalog *src,
		     struct ub_error *err)
{
	for (int i = 0; i < src->nops; i++) {
		struct ub_op *op = &src->ops[i];
		const struct ub_op *old = ub_catalog_find(dst, op->name);
		if (op->anonymous && give_way(dst, op))
			return ub_fail(err, UB_RUNTIME, "out of memory");
		if (old && !op->anonymous)
			return ub_fail(err, UB_USAGE, "%s:%d: op '%s' is already "
				       "defined at %s:%d (op names must be unique)",
				       op->file, op->line, op->name, old->file,
				       old->line);
	}
	int st = ub_cat_rowops_merge(dst, src, err);
	if (st)
		return st;
	struct ub_op *ops = realloc(dst->ops, ((size_t)dst->nops + (size_t)src->nops + 1) *
				    sizeof *ops);
	if (ops)
		dst->ops = ops;
	struct ub_broken *b = realloc(dst->broken, ((size_t)dst->nbroken +
				      (size_t)src->nbroken + 1) * sizeof *b);
	if (b)
		dst->broken = b;
	if (!ops || !b)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	if (src->nops)
		memcpy(ops + dst->nops, src->ops, (size_t)src->nops * sizeof *ops);
	if (src->nbroken)
		memcpy(b + dst->nbroken, src->broken, (size_t)src->nbroken * sizeof *b);
	dst->nops += src->nops;
	dst->nbroken += src->nbroken;
	free(src->ops);
	free(src->broken);
	ub_cat_rowops_free(src);
	memset(src, 0, sizeof *src);
	return 0;
}

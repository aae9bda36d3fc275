/* catalog_rowops.c — the catalog's ops over rows (rowop.h): read as the
 * catalog loads them, found by name, moved by --fpcore's merge.  A row op
 * answers to its name only (it must have one), which no other op of the
 * catalog may take. */
#include "catalog.h"
#include "rowop.h"

#include <stdlib.h>
#include <string.h>

const struct ub_rowop *ub_catalog_find_rowop(const struct ub_catalog *cat,
					     const char *name)
{
	for (int i = 0; name && i < cat->nrowops; i++)
		if (!strcmp(cat->rowops[i].name, name))
			return &cat->rowops[i];
	return NULL;
}

/* Where name is defined in cat already (an op or a row op): its file and
 * line, or 0. */
static int defined(const struct ub_catalog *cat, const char *name, const char **file)
{
	const struct ub_op *op = ub_catalog_find(cat, name);
	const struct ub_rowop *ro = ub_catalog_find_rowop(cat, name);
	*file = op ? op->file : ro ? ro->file : NULL;
	return op ? op->line : ro ? ro->line : 0;
}

int ub_cat_rowop(struct ub_catalog *cat, const char *form, const char *file,
		 struct ub_error *err)
{
	struct ub_rowop *ro = &cat->rowops[cat->nrowops];
	int st = ub_rowop_parse(form, file, -1, NULL, 0, 0, ro, err);
	const char *where;
	int line = st ? 0 : defined(cat, ro->name, &where);
	if (line)
		st = ub_sx_fail(err, file, ro->line, ro->form->col, "duplicate op '%s' "
				"(first defined on line %d)", ro->name, line);
	if (st)
		ub_rowop_free(ro);
	else
		cat->nrowops++;
	return st;
}

int ub_cat_rowops_merge(struct ub_catalog *dst, struct ub_catalog *src,
			struct ub_error *err)
{
	const char *where;
	int line;
	for (int i = 0; i < src->nrowops; i++)
		if ((line = defined(dst, src->rowops[i].name, &where)))
			return ub_fail(err, UB_USAGE, "%s:%d: op '%s' is already defined "
				       "at %s:%d (op names must be unique)", src->rowops[i].file,
				       src->rowops[i].line, src->rowops[i].name, where, line);
	for (int i = 0; i < src->nops; i++) {
		const struct ub_rowop *ro = ub_catalog_find_rowop(dst, src->ops[i].name);
		if (ro && !src->ops[i].anonymous)
			return ub_fail(err, UB_USAGE, "%s:%d: op '%s' is already defined "
				       "at %s:%d (op names must be unique)", src->ops[i].file,
				       src->ops[i].line, src->ops[i].name, ro->file, ro->line);
	}
	if (!src->nrowops)
		return 0;
	struct ub_rowop *r = realloc(dst->rowops, ((size_t)dst->nrowops +
				     (size_t)src->nrowops) * sizeof *r);
	if (!r)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	dst->rowops = r;
	/* moved whole: a row op holds pointers into its own s-expression tree,
	 * which is on the heap, so the structs move as they are */
	memcpy(r + dst->nrowops, src->rowops, (size_t)src->nrowops * sizeof *r);
	dst->nrowops += src->nrowops;
	src->nrowops = 0;
	return 0;
}

void ub_cat_rowops_free(struct ub_catalog *cat)
{
	for (int i = 0; i < cat->nrowops; i++)
		ub_rowop_free(&cat->rowops[i]);
	free(cat->rowops);
	cat->rowops = NULL;
	cat->nrowops = 0;
}

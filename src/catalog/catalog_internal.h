/* catalog_internal.h — what catalog.c and catalog_expr.c share: the parse
 * context and the scope of names an expression may use. */
#ifndef UB_CATALOG_INTERNAL_H
#define UB_CATALOG_INTERNAL_H

#include "catalog.h"
#include "sexp.h"

struct ub_cat_ctx {
	const char *file;
	struct ub_error *err;
	const struct ub_parse_env *env; /* NULL: the op as written */
};

/* Scope entries an op may need: inputs, params, saved inputs. */
#define UB_CAT_MAX_SCOPE (2 * UB_MAX_INPUTS + UB_MAX_PARAMS)

/* A name in scope: a variable (val NULL) or a let binding, whose node is
 * shared by every use of the name.  Innermost first, linked outward. */
struct ub_scope {
	const char *name;
	int var;
	struct ub_expr *val;
	const struct ub_scope *up;
};

/* x as an expression over the names of sc; *out is NULL on error. */
int ub_cat_expr(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out);

/* As ub_cat_expr, for a place that needs a number (an op's body, a plan
 * step): a condition there is an error naming `what`. */
int ub_cat_real(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, const char *what, struct ub_expr **out);

/* The :torch plan x into op->torch / op->nsteps; inputs is the scope of
 * op's inputs. */
int ub_cat_plan(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *inputs, struct ub_op *op);

/* A short description of x for messages: "symbol 'y'", "a string", ... */
const char *ub_cat_what(const struct ub_sx *x, char *buf, size_t len);

int ub_cat_oom(const struct ub_cat_ctx *c);

/* :params (values from c->env) and :saved into op, the params added to
 * the scope *top (entries from sc[op->ninputs]); catalog_saved.c. */
int ub_cat_props_early(const struct ub_cat_ctx *c, const struct ub_sx *par,
		       const struct ub_sx *sav, struct ub_op *op,
		       struct ub_scope *sc, const struct ub_scope **top);
/* :saved-math (its saved inputs added to the scope top, unless they are
 * inputs already) and :input-docs. */
int ub_cat_props_late(const struct ub_cat_ctx *c, const struct ub_sx *smath,
		      const struct ub_sx *idocs, struct ub_op *op,
		      struct ub_scope *sc, const struct ub_scope *top);

#endif

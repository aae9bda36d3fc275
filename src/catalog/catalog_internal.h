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
	int prec;            /* the rounding context being read: expr.h's
				UB_PREC_INHERIT, UB_PREC_REAL, UB_PREC_INTEGER
				or a dtype */
	int rnd;             /* its direction (enum ub_rnd) */
	const struct ub_sx *forms; /* the file's forms, whose named cores a
				call inlines (catalog_call.c); NULL: none */
	struct ub_cat_inline *inl; /* the calls being inlined; NULL: none */
};

/* What inlining calls to named cores keeps while one core is read: the
 * cores it uses (used[k]: form k, transitively) and how many calls were
 * inlined, and the chain of calls being read now (innermost first), so
 * that a core that calls itself is refused with its cycle named. */
struct ub_cat_chain {
	const char *name;
	const struct ub_cat_chain *up;
};
struct ub_cat_inline {
	int ncalls;
	unsigned char *used;       /* per form of ub_cat_ctx's forms */
	const struct ub_cat_chain *chain;
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

/* The properties ulpbench reads, declared once (catalog_props.c). */
#define UB_PROPS(X)                                                          \
	X(P_NAME, ":name") X(P_PRE, ":pre") X(P_TORCH, ":torch")             \
	X(P_KERNEL, ":kernel") X(P_ENTRY, ":entry") X(P_ARGS, ":args")      \
	X(P_DTYPES, ":dtypes") X(P_KEXPR, ":kernel-expr")                  \
	X(P_TROUND, ":torch-rounding") X(P_PRECISION, ":precision")        \
	X(P_SPEC, ":spec") X(P_DESCRIPTION, ":description")               \
	X(P_CITE, ":cite") X(P_ALT, ":alt") X(P_EXAMPLE, ":example")       \
	X(P_PARAMS, ":params") X(P_SAVED, ":saved")                        \
	X(P_SMATH, ":saved-math") X(P_IDOCS, ":input-docs")              \
	X(P_LAUNCH, ":launch") X(P_ROUND, ":round")

enum ub_prop {
#define X(id, key) id,
	UB_PROPS(X)
#undef X
	UB_NPROPS
};

/* Splits the :key value pairs off the front of form f's elements from *i,
 * leaving *i at the body: p[P_x] the value of each property ulpbench
 * reads (NULL when absent), *nalt how many :alt there are. */
int ub_cat_props(const struct ub_cat_ctx *c, const struct ub_sx *f, int *i,
		 const struct ub_sx *p[UB_NPROPS], int *nalt);
/* Applies them to op, whose inputs (scope sc) and body (op->math) are
 * read. */
int ub_cat_apply(const struct ub_cat_ctx *c, const struct ub_sx *f,
		 const struct ub_sx *p[UB_NPROPS], int nalt,
		 const struct ub_scope *sc, struct ub_op *op);
/* :pre x into op->pre, op->npre, op->pre_expr and the domains op->dom
 * (catalog_pre.c). */
int ub_cat_pre(const struct ub_cat_ctx *c, const struct ub_sx *x,
	       const struct ub_scope *sc, struct ub_op *op);
/* The index of op's input called name, or -1. */
int ub_cat_input(const struct ub_op *op, const char *name);

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

/* FPCore's forms other than operators (catalog_forms.c): x is a list
 * whose head is `!`, cast, digits, while or while*, or a tensor form
 * (refused); 1 with *st the status when it is one, else 0. */
int ub_cat_form(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out, int *st);

/* A :precision value (binary32, (float 8 32), bfloat16, real, ...) into
 * *prec (a dtype or UB_PREC_REAL); `what` names the place in messages. */
int ub_cat_precision(const struct ub_cat_ctx *c, const struct ub_sx *x,
		     const char *what, int *prec);

/* x, a list whose head names a core of c->forms (FPCore 2.0: a call of
 * another core of the file), inlined: its body read with its arguments
 * bound to x's (catalog_call.c).  1 with *st the status when it is one,
 * else 0. */
int ub_cat_call(const struct ub_cat_ctx *c, const struct ub_sx *x,
		const struct ub_scope *sc, struct ub_expr **out, int *st);

/* A :round value (nearestEven toPositive toNegative toZero) into *rnd
 * (enum ub_rnd); `what` names the place in messages. */
int ub_cat_round(const struct ub_cat_ctx *c, const struct ub_sx *v,
		 const char *what, int *rnd);

/* x checked to be of type want where `head` takes it (messages name
 * head's operator); e is x as read. */
int ub_cat_typed(const struct ub_cat_ctx *c, const struct ub_sx *head,
		 const struct ub_sx *x, enum ub_expr_type want,
		 const struct ub_expr *e);

/* e, just built, nested no deeper than UB_EXPR_MAX_DEPTH (else freed,
 * *out NULL, an error at x). */
int ub_cat_depth(const struct ub_cat_ctx *c, const struct ub_sx *x,
		 struct ub_expr **out);

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

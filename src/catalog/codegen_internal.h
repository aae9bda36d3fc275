/* codegen_internal.h — what codegen.c (the kernel around an expression)
 * and codegen_expr.c (the expression, loops included) share. */
#ifndef UB_CODEGEN_INTERNAL_H
#define UB_CODEGEN_INTERNAL_H

#include "codegen.h"
#include "dag.h"

struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
};

void ub_cg_put(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* How the expression computes (codegen.c's file comment). */
enum ub_cg_style { UB_CG_ONCE, UB_CG_EVERY_OP, UB_CG_NATIVE, UB_CG_PER_OP };

/* The C type of a value in the generated code. */
enum ub_cg_type { UB_CT_BOOL, UB_CT_FLOAT, UB_CT_DOUBLE, UB_CT_NATIVE };

struct ub_cg {
	struct sbuf *b;
	enum ub_dtype dt;
	enum ub_cg_style style;
	int macros;      /* + - * / through ulpbench.h's UB_ macros */
	const struct ub_dag *d;
	int body;        /* the node being defined: a temporary's own text */
	int scope;       /* the loop whose code is being written (-1: none) */
	unsigned char *stale; /* a loop whose temporaries are stale here (its
			    variables changed since they were computed), so
			    written out inline */
	int *owner;      /* node i depends on the variables of this loop, the
			    innermost such (-1: of none) */
	int *loop_of;    /* a loop variable: its loop (else -1) */
	int *index_of;   /* a loop variable: its place k */
	int size_cap;    /* more text than this: give up (too large) */
};

/* g's tables for dag d (freed by ub_cg_free); 0 or -1 (out of memory). */
int ub_cg_init(struct ub_cg *g, const struct ub_dag *d);
void ub_cg_free(struct ub_cg *g);

/* Whether node i is computed once into a temporary t<i>. */
int ub_cg_temp(const struct ub_cg *g, int i);
enum ub_cg_type ub_cg_type(const struct ub_cg *g, int i);
const char *ub_cg_type_name(const struct ub_cg *g, enum ub_cg_type t);

/* The text of node n (its temporary's name where it has one). */
void ub_cg_expr(struct ub_cg *g, int n);

/* The declarations and helpers the expression's code needs before the
 * kernel (half headers, ub_r16, ub_cast16, ...). */
void ub_cg_helpers(struct sbuf *b, const struct ub_dag *d, enum ub_dtype dt,
		   enum ub_cg_style st);
/* Whether d has a node in an explicit rounding context (the native 16-bit
 * kernel then stays the float one). */
int ub_cg_mixed(const struct ub_dag *d);

#endif

/* rowop_internal.h — what the files that unroll a row op's math share
 * (rowop_build.c: names, refs, lets, sharing; rowop_loop.c: for). */
#ifndef UB_ROWOP_INTERNAL_H
#define UB_ROWOP_INTERNAL_H

#include "rowop.h"

#include <stdint.h>

enum bind { B_INDEX, B_SCALAR, B_TENSOR };

struct env {
	const char *name;
	enum bind kind;
	long long ix;              /* B_INDEX */
	struct ub_expr *e;         /* B_SCALAR (held by the row) */
	const struct ub_sx *tx;    /* B_TENSOR: its (tensor ...) form */
	const struct env *tenv;    /*   and the names it was bound among */
	const struct env *up;
};

struct memo {
	const struct ub_sx *x;
	int nk;
	uintptr_t key[8];
	struct ub_expr *e;
};

struct ub_ro_row {
	const struct ub_rowop *op;
	const struct ub_ro_data *d;
	size_t r;
	struct ub_error *err;
	int nvar, vcap;
	uint64_t *val;
	/* variables by (input, element): open addressing, cap a power of 2 */
	size_t hcap;
	long long *hkey;           /* k * 2^40 + i + 1; 0: empty */
	int *hvar;
	struct ub_expr **vnode;
	int nmemo, mcap;
	struct memo *memo;
	int nkeep, kcap;
	struct ub_expr **keep;
};

typedef int (*ub_ro_maker)(struct ub_ro_row *, const struct ub_sx *, const struct env *,
			   struct ub_expr **);

/* "FILE:LINE:COL: ..." at x, UB_USAGE; UB_RUNTIME out of memory. */
int ub_ro_fail(struct ub_ro_row *rb, const struct ub_sx *x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ub_ro_oom(struct ub_ro_row *rb);
/* Keeps a reference to e until the row ends (its address names it). */
int ub_ro_keep(struct ub_ro_row *rb, struct ub_expr *e);
/* Whether symbol name appears anywhere in x. */
int ub_ro_appears(const struct ub_sx *x, const char *name);
/* The count a size name or number stands for. */
int ub_ro_extent(struct ub_ro_row *rb, const struct ub_sx *x, long long *n);
/* x in env as a scalar expression (a new reference). */
int ub_ro_build(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
		struct ub_expr **out);
/* make(x), once per row for each value of what x reads. */
int ub_ro_shared_by(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
		    struct ub_expr **out, ub_ro_maker make);
/* (for ...) or (for* ...), unrolled (rowop_loop.c). */
int ub_ro_loop(struct ub_ro_row *rb, const struct ub_sx *x, const struct env *env,
	       struct ub_expr **out);

#endif

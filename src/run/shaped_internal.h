/* shaped_internal.h — what the files of a shaped run share (shaped.h):
 * the arrays of one dtype (shaped_run.c fills them), and the report rows
 * and dumps made from them (shaped_rows.c). */
#ifndef UB_SHAPED_INTERNAL_H
#define UB_SHAPED_INTERNAL_H

#include "shaped.h"
#include "rowop.h"

/* The arrays of one dtype. */
struct sdata {
	enum ub_dtype dt;
	struct ub_array in[UB_SHAPED_MAX_IN];
	struct ub_array cr[UB_SHAPED_MAX_OUT];
	struct ub_array y[UB_NMODES][UB_SHAPED_MAX_OUT]; /* per mode index */
	struct ub_exact *exact[UB_SHAPED_MAX_OUT];
	struct ub_array torch[UB_SHAPED_MAX_OUT]; /* empty: no torch values */
	uint64_t torch_approx;
	struct ub_array ord[UB_SHAPED_NORDERS]; /* --orders: sum's other orders */
	struct ub_array seed[UB_SHAPED_NSEEDS][UB_SHAPED_MAX_OUT]; /* --orders
				with a kernel: the first mode's outputs under
				--atomic-order seed=1.. */
	int seed_mode;          /* that mode's index, -1: none ran */
	size_t undecided;
	double *dotabs;         /* a matrix op's dot absolute sums, per
				   output element (shaped_mm.h); else NULL */
	struct ub_array tf32;   /* f32 matrix ops: the torch row with
				   allow_tf32 (shaped_mm_torch.c) */
	uint64_t tf32_approx;
	struct ub_rowop ro;     /* an FPCore row op read for this dtype and
				   shape (has_ro) */
	int has_ro;
	struct ub_checks chk[UB_NMODES];   /* what each mode's checks saw */
	struct ub_stats sched[UB_NMODES][UB_SHAPED_MAX_OUT]; /* its schedules
				(schedules, sched_diff, sched_dist) */
};

/* The arguments of one launch (shaped_bind.c): what the outputs start
 * as, and the buffers made for it. */
struct ub_shaped_args {
	const struct ub_array *pre[UB_SHAPED_MAX_OUT]; /* output o starts as
				this input (in place, accumulated), or NULL:
				it must be written whole (written.h) */
	int acc[UB_SHAPED_MAX_OUT];      /* output o accumulates (:acc) */
	int nown;
	struct ub_array own[UB_MAX_KARGS]; /* scratch, integers at a width */
};
/* Parameter a of q's kernel (q->args[a]) for the mode's outputs y into
 * *arg; UB_USAGE when the binding does not fit the run. */
int ub_shaped_bind(const struct ub_shaped_req *q, struct sdata *d, struct ub_array *y,
		   int a, size_t rows, size_t cols, struct ub_shaped_args *sa,
		   struct ub_karg *arg, struct ub_error *err);
void ub_shaped_args_free(struct ub_shaped_args *sa);

/* The row of output o for results y, of dtype index t: mode index mi's,
 * or (mi < 0) the torch plan's (y NULL) or an order's (--orders: mode its
 * name); 0, or -1 when out of memory. */
int ub_shaped_measure(struct ub_result *res, const struct ub_shaped_req *q, int t,
		      int o, int mi, const char *mode, const struct ub_array *y,
		      const struct sdata *d, uint64_t approx, size_t cols);
/* The row of output o under atomic order seed k + 1 (the first mode's
 * kernel): measured as a mode's, and how far it moved from the default
 * order (ub_shaped_spread) as its note and kernel text. */
int ub_shaped_seed_row(struct ub_result *res, const struct ub_shaped_req *q, int t,
		       int o, int k, const struct sdata *d, uint64_t approx, size_t cols,
		       struct ub_error *err);
/* A bare row of output o (an n/a torch row), NULL when out of memory
 * (then r->op is NULL: the caller checks r && !r->op). */
struct ub_row *ub_shaped_new_row(struct ub_result *res, const struct ub_shaped_req *q,
				 int t, int o, const char *mode, const char *opts);
/* --dump: d's inputs, reference, mode and torch outputs (those of ran[m]),
 * staged. */
int ub_shaped_dump_dtype(const struct ub_shaped_req *q, const struct sdata *d,
			 const int *ran, size_t rows, size_t cols, struct ub_error *err);

#endif

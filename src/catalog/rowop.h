/* rowop.h — ops over rows defined in FPCore (docs/rowops.md): cores whose
 * arguments have dimensions, (x R C) a tensor of the run's shape, (w C)
 * one value a column, (t R) one a row, (e V C) a table of V rows (V a
 * size of :sizes), or whose body gives several results (array ...).
 *
 *   (FPCore rms_rstd ((x R C) (weight C))
 *     :pre (and (<= -100 x 100) (<= -2 weight 2))
 *     :params ([eps 1e-5])
 *     :outputs (out rstd)
 *     :torch (let* ([s (* x x)] [m (sum s)] [v (/ m C)] [r (rsqrt (+ v eps))])
 *              (array (* (* x r) weight) r))
 *     (let ([r (tensor ([i R]) (rsqrt (+ (/ (for ([k C]) ([s 0 (+ s (* (ref x i k)
 *                                           (ref x i k)))]) s) C) eps)))])
 *       (array (tensor ([i R] [j C]) (* (ref x i j) (ref r i) (ref weight j))) r)))
 *
 * A core of plain (scalar) arguments whose body is (array ...) is an
 * elementwise op of several outputs: every argument is a (R C) tensor,
 * read element by element.
 *
 * The body is FPCore 2.0's tensor language, its exact math: tensor, for,
 * for*, ref, array, let, let*, if and the scalar operators of expr.h.  It
 * is never interpreted per row as a loop: rowop_build.c unrolls it, for
 * one row of given inputs, into scalar expressions (expr.h) whose
 * variables are that row's elements, which the MPFR reference decides as
 * it decides any expression (reference.h).  :torch is PyTorch eager's way,
 * over whole tensors (rowop_torch.c): each let* binding one kernel, its
 * result rounded to the dtype; `sum` reduces over the last dimension in
 * PyTorch's order (torch_reduce.h); `pick` gathers one element a row by class
 * index, `onehot` makes the one-hot rows of a class index, `softmax`,
 * `log_softmax` and `layer_norm` (with `layer_norm_mean`, `layer_norm_rstd`)
 * are PyTorch's kernels (torch_reduce.h); (host E) is a scalar Python
 * computes in double before passing it to a kernel. */
#ifndef UB_ROWOP_H
#define UB_ROWOP_H

#include "expr.h"
#include "sexp.h"

#define UB_RO_MAX_IN 8
#define UB_RO_MAX_OUT 6
#define UB_RO_MAX_SIZES 4
#define UB_RO_MAX_PARAMS 16
#define UB_RO_MAX_STEPS 64
#define UB_RO_MAX_VARS 16   /* tensors one torch step reads */

/* The shape of an input, output or torch value. */
enum ub_ro_ext {
	UB_RO_FULL,   /* (rows, cols) */
	UB_RO_ROWS,   /* one a row */
	UB_RO_COLS,   /* one a column, broadcast along the rows */
	UB_RO_TABLE   /* (V, cols), V a size: read by index */
};

struct ub_ro_in {
	char *name;
	enum ub_ro_ext ext;
	int table;          /* UB_RO_TABLE: its rows, a size (index) */
	int is_int;         /* :integers: class indices, ids, masks */
	long long ilo;      /* an integer input's range [ilo, ihi) */
	long long ihi;      /*   ihi as a number, or (ihi_size >= 0) a size */
	int ihi_size;       /*   -1: ihi; -2: the columns; >= 0: sizes[k] */
	double lo, hi;      /* :pre's bounds: where it is sampled */
	char *doc;          /* :input-docs, or NULL */
};

struct ub_ro_out {
	char *name;
	enum ub_ro_ext ext; /* FULL or ROWS */
};

/* A torch step: one PyTorch kernel over whole tensors.  Its result is
 * value nin + k of the plan's environment (the inputs come first). */
enum ub_ro_step_kind {
	UB_RS_ELEM,        /* e over var[0..nvar-1], broadcast: one kernel */
	UB_RS_SUM,         /* the row sums of var[0] (torch.sum(dim=-1)) */
	UB_RS_PICK,        /* var[0][r, var[1][r]]: a gather by class */
	UB_RS_ONEHOT,      /* 1 at var[0][r] of row r, else 0: (rows, cols) */
	UB_RS_SOFTMAX,     /* PyTorch's softmax of var[0] over the rows */
	UB_RS_LOG_SOFTMAX,
	UB_RS_LN,          /* PyTorch's layer_norm of var[0] (var[1] weight,
			      var[2] bias, eps): its out, */
	UB_RS_LN_MEAN,     /* its mean, */
	UB_RS_LN_RSTD      /* its rstd */
};

struct ub_ro_step {
	char name[48];
	enum ub_ro_step_kind kind;
	enum ub_ro_ext ext;
	int nvar;
	int var[UB_RO_MAX_VARS];  /* environment indices */
	struct ub_expr *e;        /* UB_RS_ELEM: vars 0..nvar-1 */
	double eps;               /* UB_RS_LN*: PyTorch's eps (a double) */
};

struct ub_rowop {
	char *name, *desc, *file;
	int line;
	char *text;             /* the form, its lines where they were */
	int elementwise;        /* plain arguments: every input (rows, cols) */
	char *rname, *cname;    /* the names of the two sizes (R, C) */
	long long rows, cols;   /* their values in the run (1 when not known:
				   the form checked as it loads) */
	int nsizes;
	char *size_name[UB_RO_MAX_SIZES];
	long long size_val[UB_RO_MAX_SIZES];
	int nin;
	struct ub_ro_in in[UB_RO_MAX_IN];
	int nout;
	struct ub_ro_out out[UB_RO_MAX_OUT];
	int nparams;
	char *param_name[UB_RO_MAX_PARAMS];
	char *param_text[UB_RO_MAX_PARAMS]; /* as written, or --param's */
	char *param_used[UB_RO_MAX_PARAMS]; /* the value the math takes: the
					 dtype's arithmetic's (ub_rowop_parse) */
	int nsteps;             /* 0: no :torch */
	struct ub_ro_step steps[UB_RO_MAX_STEPS];
	int out_value[UB_RO_MAX_OUT]; /* the plan's value of each output */
	struct ub_sx top;       /* the form read again (owned) */
	const struct ub_sx *form, *body, *outs[UB_RO_MAX_OUT];
	const struct ub_sx *torch_sx;
};

/* Whether form f is a row op's: an argument with dimensions, :outputs, or
 * a body that is (array ...). */
int ub_rowop_is(const struct ub_sx *f);

/* Reads text (one FPCore form, lines where they were in file) into *op:
 * its arguments, properties, outputs and torch plan, for a run of dtype
 * dt (its :params rounded as that dtype's arithmetic holds them; -1: as
 * written) and shape rows x cols (0: not known yet).  values[k], when not
 * NULL, replaces the k-th :params entry (--param).  Errors: UB_USAGE
 * "FILE:LINE:COL: message".  Free with ub_rowop_free. */
int ub_rowop_parse(const char *text, const char *file, int dt,
		   const char *const *values, size_t rows, size_t cols,
		   struct ub_rowop *op, struct ub_error *err);
void ub_rowop_free(struct ub_rowop *op);

/* The torch plan of op (:torch at op->torch_sx) into op->steps
 * (rowop_torch.c); called by ub_rowop_parse. */
int ub_rowop_torch(struct ub_rowop *op, struct ub_error *err);

/* (HEAD a[0] ... a[n-1]) as x writes it, a[] owned (freed on failure):
 * an operator of expr.h by its FPCore name, (- x) negation, + * and or
 * folded left, each argument of its type (rowop_expr.c).  Errors:
 * UB_USAGE "FILE:LINE:COL: ..." at x. */
int ub_rowop_apply(const char *file, const struct ub_sx *x, struct ub_expr **a, int n,
		   struct ub_expr **out, struct ub_error *err);

/* The index of op's input, size or param called name, or -1. */
int ub_rowop_input(const struct ub_rowop *op, const char *name);
int ub_rowop_size(const struct ub_rowop *op, const char *name);
int ub_rowop_param(const struct ub_rowop *op, const char *name);
/* The extent a size name stands for in an argument: 0 rows, 1 cols, 2+k
 * sizes[k]; -1 none. */
int ub_rowop_dim(const struct ub_rowop *op, const char *name);
/* An integer input's range end for a run of cols columns. */
long long ub_rowop_ihi(const struct ub_rowop *op, int k, long long cols);
/* "(rows, cols)", "(rows)", "(cols)", "(V, cols)". */
const char *ub_rowop_ext_name(const struct ub_rowop *op, int k_in, char *buf,
			      size_t len);

/* The exact math of one row, unrolled (rowop_build.c).  The run gives the
 * inputs' elements through get(): input k's element at flat index i (its
 * own shape's, row-major), the encoding of the run's dtype, or an integer
 * input's value (two's complement). */
struct ub_ro_data {
	size_t rows, cols;
	uint64_t (*get)(void *ctx, int k, size_t i);
	void *ctx;
	int dt;
};
struct ub_ro_row;
/* Begins row r: the variables and shared subexpressions it will hold. */
int ub_ro_row_begin(const struct ub_rowop *op, const struct ub_ro_data *d,
		    size_t r, struct ub_ro_row **rb, struct ub_error *err);
/* Output o's element j of the row (j = 0 for a per-row output) as a
 * scalar expression over the row's variables (a new reference); UB_USAGE
 * "FILE:LINE:COL: ..." when the body is not what it may be, or an index
 * is out of range. */
int ub_ro_row_elem(struct ub_ro_row *rb, int o, size_t j, struct ub_expr **e,
		   struct ub_error *err);
/* Element i of float input k as a variable of the row (a new reference):
 * what an output that accumulates from that input adds (kernel_roles.h). */
int ub_ro_row_input(struct ub_ro_row *rb, int k, size_t i, struct ub_expr **e);
/* The variables' values (the encodings ub_ref_eval takes) and count. */
const uint64_t *ub_ro_row_vars(const struct ub_ro_row *rb, int *n);
void ub_ro_row_end(struct ub_ro_row *rb);

#endif

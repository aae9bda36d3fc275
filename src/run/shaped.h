/* shaped.h — ops over tensors of shape (rows, cols): reductions along the
 * last dimension (sum, softmax, log_softmax, rms_norm, layer_norm, and the
 * norms' backward passes, whose weight gradients sum over the rows), whose
 * inputs may be broadcast along the rows and whose several outputs are
 * each measured on their own (docs/reductions.md).
 *
 * The catalog of these ops is built in (shaped_ops.c); the exact
 * reference of each is a routine of reference/ref_shaped.c; the run
 * (shaped_run.c) samples or reads the inputs, computes the reference per
 * row, compiles kernels/rows.cu (or the user's --kernel) under every mode,
 * runs it with one thread per row and gives one report row per (dtype,
 * output, mode), for the reports of report.h. */
#ifndef UB_SHAPED_H
#define UB_SHAPED_H

#include "result.h"

#define UB_SHAPED_MAX_IN 8
#define UB_SHAPED_MAX_OUT 6

/* The shape of an input or output: the whole (rows, cols), one value a
 * row (rows), or one a column, broadcast along the rows (cols); the
 * matrix ops' operands (shaped_mm.h): (rows, inner), (inner, cols),
 * (cols, inner), (batch, inner, cols); an FPCore row op's table (trows,
 * cols), read by index (rowop.h). */
enum ub_extent { UB_EXT_FULL, UB_EXT_ROWS, UB_EXT_COLS, UB_EXT_MK, UB_EXT_KN,
		 UB_EXT_NK, UB_EXT_BKN, UB_EXT_TABLE };
/* What an input holds: values of the dtype, a forward statistic, classes,
 * or (FPCore row ops) integers in a range. */
enum ub_arg_role { UB_ARG_VALUE, UB_ARG_STAT, UB_ARG_CLASS, UB_ARG_INT };

struct ub_shaped_arg {
	const char *name;
	enum ub_extent ext;
	double lo, hi;         /* inputs: the domain they are sampled in */
	enum ub_arg_role role; /* UB_ARG_STAT: the forward's statistic (mean,
				  rstd): float32 whatever the dtype, as
				  PyTorch saves it, and by default the
				  forward's value from x (ub_shaped_ref_stats);
				  UB_ARG_CLASS: class indices (cross_entropy's
				  target), one integer a row in [0, cols),
				  held as int32 in an f32-sized array
				  (ub_shaped_class); UB_ARG_INT: integers
				  in [ilo, ihi), held alike */
	const char *doc;
	size_t trows;          /* UB_EXT_TABLE: its rows */
	long long ilo, ihi;    /* UB_ARG_INT: the range; ihi < 0: the
				  columns */
};

enum ub_shaped_kind {
	UB_SH_SUM, UB_SH_SOFTMAX, UB_SH_LOG_SOFTMAX, UB_SH_RMS_NORM,
	UB_SH_LAYER_NORM, UB_SH_LAYER_NORM_BWD, UB_SH_RMS_NORM_BWD,
	UB_SH_CROSS_ENTROPY,
	/* the matrix ops (shaped_mm.h, docs/tensor-cores.md) */
	UB_SH_MATMUL, UB_SH_LINEAR, UB_SH_BMM, UB_SH_SDPA, UB_SH_SDPA_CAUSAL,
	UB_SH_FPCORE           /* an FPCore row op (rowop.h), op->fp */
};

struct ub_rowop;

struct ub_shaped_op {
	const char *name, *desc;
	enum ub_shaped_kind kind;
	int nin, nout;
	struct ub_shaped_arg in[UB_SHAPED_MAX_IN], out[UB_SHAPED_MAX_OUT];
	const char *entry;     /* its kernel in kernels/rows.cu */
	const char *math;      /* FPCore 2.0 tensor forms: the specification */
	const struct ub_rowop *fp; /* UB_SH_FPCORE: the catalog's op (its
				  params as written, shape unknown) */
};

extern const struct ub_shaped_op ub_shaped_ops[];
extern const int ub_nshaped_ops;

/* The shaped op called name, or NULL. */
const struct ub_shaped_op *ub_shaped_find(const char *name);
/* "sum, softmax, ..." into buf. */
const char *ub_shaped_names(char *buf, size_t len);
/* Elements of an input or output of extent e in a rows x cols run (not a
 * table: ub_arg_count). */
size_t ub_extent_count(enum ub_extent e, size_t rows, size_t cols);
/* Elements of input or output a in a rows x cols run. */
size_t ub_arg_count(const struct ub_shaped_arg *a, size_t rows, size_t cols);
/* An integer input's range end in a run of cols columns. */
long long ub_arg_ihi(const struct ub_shaped_arg *a, size_t cols);
/* "rows, cols", "rows", "cols". */
const char *ub_extent_name(enum ub_extent e);
/* The dtype of input k in a run of dtype dt (float32 for a statistic). */
enum ub_dtype ub_shaped_in_dtype(const struct ub_shaped_op *op, int k, enum ub_dtype dt);
/* Whether input a holds integers (classes, or UB_ARG_INT). */
int ub_shaped_is_int(const struct ub_shaped_arg *a);

struct ub_shaped_req;
/* The bytes a run of q in dtype dt over rows x cols keeps at the least
 * (shaped_size.c: inputs, reference, exact values, each mode's outputs,
 * the torch plan's), and UB_USAGE with both figures when that is more
 * than the memory this process may use (the machine's, ulimit -v or -d,
 * the cgroup's memory.max): refused before the run. */
double ub_shaped_floor_bytes(const struct ub_shaped_req *q, enum ub_dtype dt,
			     size_t rows, size_t cols);
int ub_shaped_fits(const struct ub_shaped_req *q, enum ub_dtype dt, size_t rows,
		   size_t cols, struct ub_error *err);
/* Element i of a class-index input (its int32). */
static inline int64_t ub_shaped_class(const struct ub_array *a, size_t i)
{
	return (int32_t)(uint32_t)ub_array_get(a, i);
}
/* Whether op has an output of one value a column (a sum over the rows):
 * its kernel then runs max(rows, cols) threads. */
int ub_shaped_has_cols_out(const struct ub_shaped_op *op);

/* --shape R,C: both integers >= 1, rows*cols at most 2^31 - 1. */
int ub_shape_parse(const char *spec, size_t *rows, size_t *cols,
		   struct ub_error *err);

/* The float nearest 1e-5: the norms' eps (docs/reductions.md). */
#define UB_SHAPED_EPS 0x1.4f8b58p-17

/* The exact reference of row r (reference/ref_shaped.c): in[k] holds
 * input k of the whole run (dtype dt, of extent op->in[k].ext); the
 * correctly rounded result of each output element of row r goes to
 * cr[o] and its exact value to exact[o], at the output's own index
 * (row r of a per-row output; r*cols .. r*cols+cols-1 of a full one).
 * Returns 0, or UB_RUNTIME out of memory; an element it cannot decide
 * within UB_REF_SHAPED_PREC_MAX bits is marked undecided (ub_exact_undecided)
 * with the canonical NaN as cr, and *undecided counts it. */
int ub_shaped_ref_row(const struct ub_shaped_op *op, enum ub_dtype dt,
		      const struct ub_array *in, size_t rows, size_t cols,
		      size_t r, struct ub_array *cr, struct ub_exact **exact,
		      size_t *undecided, struct ub_error *err);

/* The backward ops' (rows, cols) output dx of row r, exact and rounded
 * once (reference/ref_shaped_bwd.c: ub_shaped_ref_row's for these). */
int ub_shaped_ref_bwd_row(const struct ub_shaped_op *op, enum ub_dtype dt,
			  const struct ub_array *in, size_t cols, size_t r,
			  struct ub_array *cr, struct ub_exact **exact);

/* The outputs of extent (cols) of a backward op (reference/ref_shaped_bwd.c):
 * each a sum over all rows, exact, correctly rounded into cr[o] and
 * exact[o] (the outputs of other extents are left alone). */
int ub_shaped_ref_cols(const struct ub_shaped_op *op, enum ub_dtype dt,
		       const struct ub_array *in, size_t rows, size_t cols,
		       struct ub_array *cr, struct ub_exact **exact,
		       struct ub_error *err);

/* The forward's statistics of x (rows x cols, any dtype) as the default
 * mean and rstd inputs of a backward op (ref_shaped_bwd.c), float32
 * encodings rounded to nearest: layer norm's mean (exact, rounded once)
 * and rstd, or (rms) rms_norm's rstd alone (mean NULL).  rstd rounds a
 * 160-bit MPFR value: within half an ulp and a hair of the exact one. */
int ub_shaped_ref_stats(int rms, const struct ub_array *x, size_t rows, size_t cols,
			struct ub_array *mean, struct ub_array *rstd,
			struct ub_error *err);

/* The torch plan of op at the inputs in (shaped_torch.c: PyTorch's CUDA
 * kernel modelled on the host, torch_reduce.h, default device): torch[o]
 * allocated with output o's values, or left empty with na[o] saying why
 * (not modelled, or not in the dtype); *approx the elementary functions
 * the model took as correctly rounded stand-ins (ptx.h kinds: such a
 * row's bits follow PyTorch's order, not the GPU's exp/log/rsqrt). */
int ub_shaped_torch(const struct ub_shaped_op *op, enum ub_dtype dt,
		    const struct ub_array *in, size_t rows, size_t cols,
		    struct ub_array *torch, char (*na)[256], uint64_t *approx,
		    struct ub_error *err);

/* The encoding of dt nearest to d, ties to even (ref_shaped.c). */
uint64_t ub_shaped_round(enum ub_dtype dt, double d);

/* --orders (shaped_order.c): the row sums of x (rows x cols) in order k
 * of ub_shaped_orders, in float, each rounded once to x's dtype, into out
 * (allocated, rows elements). */
#define UB_SHAPED_NORDERS 3
extern const char *const ub_shaped_orders[UB_SHAPED_NORDERS];
int ub_shaped_order_sum(int order, const struct ub_array *x, size_t rows,
			size_t cols, struct ub_array *out, struct ub_error *err);

/* --dump DIR (shaped_dump.c): files staged per dtype, renamed into place
 * by ub_shaped_dump_finish when the run succeeded (s == 0), else removed;
 * it frees dp and returns s or its own failure.  descr NULL: a's dtype. */
struct ub_shaped_dump;
struct ub_shaped_dump *ub_shaped_dump_new(const char *dir);
int ub_shaped_dump_stage(struct ub_shaped_dump *dp, const char *op, enum ub_dtype dt,
			 const char *what, const struct ub_array *a, enum ub_extent e,
			 size_t rows, size_t cols, const char *descr, struct ub_error *err);
int ub_shaped_dump_finish(struct ub_shaped_dump *dp, int s, struct ub_error *err);

/* --orders with --kernel or --triton: the first mode's kernel again under
 * --atomic-order seed=1..UB_SHAPED_NSEEDS (docs/reductions.md), and how
 * far each output moves from the default order (shaped_order.c): the
 * elements whose bits differ, the largest distance in ulps (encodings
 * apart; NaN against a number counts as UINT64_MAX), and the first such
 * element. */
#define UB_SHAPED_NSEEDS 4
struct ub_spread {
	size_t moved, worst;
	uint64_t max_dist;
};
void ub_shaped_spread(const struct ub_array *a, const struct ub_array *b,
		      struct ub_spread *sp);

/* What one shaped run is asked. */
struct ub_shaped_req {
	const struct ub_shaped_op *op;
	const struct ub_config *cfg; /* dtypes, modes, seed, backend, arch,
					geom; cfg->op is a stand-in naming
					the op and its inputs (reports) */
	size_t rows, cols;
	int shape_given;
	const char *files[UB_SHAPED_MAX_IN]; /* --input per input, or NULL */
	const char *kernel;          /* --kernel FILE, or NULL: kernels/rows.cu */
	const char *kernel_src;      /* its text */
	const char *entry;           /* its kernel (NULL: op->entry) */
	int nargs;                   /* per kernel parameter, what it takes: */
	const char *args[UB_MAX_KARGS]; /* an input, output, "rows", "cols" */
	int iw[UB_MAX_KARGS];        /* it takes integers of this many bytes
					(1, 4, 8; 0: 4, Triton's int32) */
	unsigned esize[UB_MAX_KARGS]; /* sizeof its pointee (scratch) */
	int orders;                  /* --orders: sum's rows in other orders */
	size_t inner, batch;         /* a matrix op's K (sdpa: S) and batch
					(shaped_mm.h); rows is batch * M */
	const char *const *param_values; /* an FPCore row op's :params from
					    --param (per entry; NULL: as
					    written), or NULL */
	const char *dump;            /* --dump DIR, or NULL */
	struct ub_shaped_dump *dumped; /* its staged files (ub_shaped_run's) */
};

/* The run's shape in dtype dt: --shape (req->rows, cols), else input x's
 * .npy file (2-D: its shape; 1-D: one row); UB_USAGE naming the file when
 * they disagree or it is not 1-D or 2-D. */
int ub_shaped_shape(const struct ub_shaped_req *req, enum ub_dtype dt,
		    size_t *rows, size_t *cols, struct ub_error *err);

/* An FPCore row op (rowop.h) as a shaped op: names and text point into
 * ro (shaped_fpcore.c). */
void ub_shaped_of_rowop(const struct ub_rowop *ro, struct ub_shaped_op *sop);
/* Its exact reference over the whole run: each output element decided by
 * the MPFR reference (fast: its double path first), an undecided one
 * marked and counted in *undecided.  ro is op->fp read for dt and the
 * shape. */
int ub_shaped_fp_ref(const struct ub_shaped_op *op, const struct ub_rowop *ro,
		     enum ub_dtype dt, const struct ub_array *in, size_t rows, size_t cols,
		     const int *acc, int fast, struct ub_array *cr, struct ub_exact **exact,
		     size_t *undecided, struct ub_error *err);
/* For each output (UB_SHAPED_MAX_OUT), the input a kernel parameter
 * accumulates it from (OUT:acc=IN in q->args), or -1: its reference is
 * IN + the op's output, its torch row one more add kernel. */
void ub_shaped_acc_inputs(const struct ub_shaped_req *q, int *acc);
/* Its torch rows: ro's :torch run (shaped_fptorch.c) into torch[o], or
 * na[o] saying why there is none; *approx as ub_shaped_torch's. */
int ub_shaped_fp_torch(const struct ub_shaped_req *q, const struct ub_rowop *ro,
		       enum ub_dtype dt, const struct ub_array *in, size_t rows, size_t cols,
		       struct ub_array *torch, char (*na)[256], uint64_t *approx,
		       struct ub_error *err);

/* Runs req into res (rows and their statistics; per-element arrays are
 * not kept: res->data's arrays are empty).  Free res with
 * ub_shaped_result_free. */
int ub_shaped_run(const struct ub_shaped_req *req, struct ub_result *res,
		  struct ub_error *err);
void ub_shaped_result_free(struct ub_result *res);

#endif

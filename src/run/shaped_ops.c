/* shaped_ops.c — the built-in catalog of shaped ops (shaped.h): inputs
 * and outputs with their extents, sampling domains, kernels, and the exact
 * math as FPCore 2.0 tensor forms (for, ref, tensor, array). */
#include "shaped.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define X_ARG(nm, e, l, h, r, d) {.name = nm, .ext = e, .lo = l, .hi = h, .role = r, .doc = d}
#define X_FULL(nm, lo, hi, doc) X_ARG(nm, UB_EXT_FULL, lo, hi, 0, doc)
#define X_COLS(nm, lo, hi, doc) X_ARG(nm, UB_EXT_COLS, lo, hi, 0, doc)
/* A forward statistic (float32, rows): its domain is not sampled. */
#define X_STAT(nm, doc) X_ARG(nm, UB_EXT_ROWS, 0, 0, UB_ARG_STAT, doc)
#define X_DOUT X_FULL("dout", -2, 2, "the gradient of the forward's out")

/* Shared pieces of the math: the row maximum and the sums; eps, the
 * float nearest 1e-5 (PyTorch's default, a float in its kernels), as the
 * exact decimal of that float. */
#define EPS "(let ([eps 0.00000999999974737875163555145263671875])\n"
#define MAXROW "(for ([k C]) ([m -inf (fmax m (ref x i k))]) m)"
#define SUMEXP "(for ([k C]) ([s 0 (+ s (exp (- (ref x i k) m)))]) s)"
#define SUMX "(for ([k C]) ([s 0 (+ s (ref x i k))]) s)"
/* The backward passes' pieces: g = weight * dout, x normalized. */
#define G(k) "(* (ref weight " k ") (ref dout i " k "))"
#define XHAT(i, k) "(* (- (ref x " i " " k ") (ref mean " i ")) (ref rstd " i "))"

/* The matrix ops' pieces: a dot product over k, and sdpa's scores. */
#define X_MAT(nm, e, doc) X_ARG(nm, e, -2, 2, 0, doc)
#define DOT(a, b) "(for ([k K]) ([s 0 (+ s (* " a " " b "))]) s)"
#define SCORE "(/ (for ([d D]) ([u 0 (+ u (* (ref q i d) (ref k t d)))]) u) (sqrt D))"
#define SDPA_MATH(name, keep)                                                  \
	"(FPCore " name " ((q L D) (k S D) (v S D))\n"                         \
	"  (tensor ([i L] [c D])\n"                                            \
	"    (let ([m (for ([t S]) ([m -inf (if " keep " (fmax m " SCORE ") m)]) m)])\n" \
	"      (/ (for ([t S]) ([s 0 (if " keep " (+ s (* (exp (- " SCORE " m)) (ref v t c))) s)]) s)\n" \
	"         (for ([t S]) ([s 0 (if " keep " (+ s (exp (- " SCORE " m))) s)]) s)))))"

const struct ub_shaped_op ub_shaped_ops[] = {
	{"sum", "sum over the last dimension: out[i] = sum_j x[i,j]", UB_SH_SUM,
	 1, 1, {X_FULL("x", -1000, 1000, "the rows summed")},
	 {X_ARG("out", UB_EXT_ROWS, 0, 0, 0, "the sum of each row")}, "ub_rows_sum",
	 "(FPCore sum ((x R C))\n"
	 "  (tensor ([i R]) " SUMX "))", NULL},
	{"softmax", "softmax over the last dimension", UB_SH_SOFTMAX,
	 1, 1, {X_FULL("x", -30, 30, "the logits")},
	 {X_ARG("out", UB_EXT_FULL, 0, 0, 0, "exp(x - max) / sum exp(x - max), per row")},
	 "ub_rows_softmax",
	 "(FPCore softmax ((x R C))\n"
	 "  (tensor ([i R] [j C])\n"
	 "    (let ([m " MAXROW "])\n"
	 "      (/ (exp (- (ref x i j) m)) " SUMEXP "))))", NULL},
	{"log_softmax", "log_softmax over the last dimension", UB_SH_LOG_SOFTMAX,
	 1, 1, {X_FULL("x", -30, 30, "the logits")},
	 {X_ARG("out", UB_EXT_FULL, 0, 0, 0, "x - max - log(sum exp(x - max)), per row")},
	 "ub_rows_log_softmax",
	 "(FPCore log_softmax ((x R C))\n"
	 "  (tensor ([i R] [j C])\n"
	 "    (let ([m " MAXROW "])\n"
	 "      (- (- (ref x i j) m) (log " SUMEXP ")))))", NULL},
	{"rms_norm", "RMS norm forward over the last dimension (eps = float(1e-5))",
	 UB_SH_RMS_NORM, 2, 1,
	 {X_FULL("x", -100, 100, "the rows normalized"),
	  X_COLS("weight", -2, 2, "the scale, one per column")},
	 {X_ARG("out", UB_EXT_FULL, 0, 0, 0, "x / sqrt(mean(x^2) + eps) * weight")},
	 "ub_rows_rms_norm",
	 "(FPCore rms_norm ((x R C) (weight C))\n"
	 "  " EPS
	 "  (tensor ([i R] [j C])\n"
	 "    (* (ref x i j) (ref weight j)\n"
	 "       (/ 1 (sqrt (+ (/ (for ([k C]) ([s 0 (+ s (* (ref x i k) (ref x i k)))]) s) C)\n"
	 "                     eps)))))))", NULL},
	{"layer_norm", "layer norm forward over the last dimension (eps = float(1e-5))",
	 UB_SH_LAYER_NORM, 3, 3,
	 {X_FULL("x", -100, 100, "the rows normalized"),
	  X_COLS("weight", -2, 2, "the scale, one per column"),
	  X_COLS("bias", -2, 2, "the shift, one per column")},
	 {X_ARG("out", UB_EXT_FULL, 0, 0, 0, "(x - mean) * rstd * weight + bias"),
	  X_ARG("mean", UB_EXT_ROWS, 0, 0, 0, "the mean of each row"),
	  X_ARG("rstd", UB_EXT_ROWS, 0, 0, 0, "1 / sqrt(biased variance + eps), per row")},
	 "ub_rows_layer_norm",
	 "(FPCore layer_norm ((x R C) (weight C) (bias C))\n"
	 "  " EPS
	 "  (let ([mean (tensor ([i R]) (/ " SUMX " C))])\n"
	 "    (let ([rstd (tensor ([i R])\n"
	 "                  (/ 1 (sqrt (+ (/ (for ([k C]) ([s 0 (+ s (pow (- (ref x i k) (ref mean i)) 2))]) s) C)\n"
	 "                                eps))))])\n"
	 "      (array (tensor ([i R] [j C])\n"
	 "               (+ (* (- (ref x i j) (ref mean i)) (ref rstd i) (ref weight j)) (ref bias j)))\n"
	 "             mean rstd)))))", NULL},
	{"layer_norm_bwd", "layer norm backward over the last dimension, from the forward's "
	 "mean and rstd (dx, dweight, dbias)", UB_SH_LAYER_NORM_BWD, 5, 3,
	 {X_DOUT, X_FULL("x", -100, 100, "the forward's input"),
	  X_COLS("weight", -2, 2, "the forward's scale, one per column"),
	  X_STAT("mean", "the forward's mean (float32; default: from x)"),
	  X_STAT("rstd", "the forward's rstd (float32; default: from x)")},
	 {X_ARG("dx", UB_EXT_FULL, 0, 0, 0, "rstd/C * (C*g - sum g - xhat * sum g*xhat), "
	   "g = weight*dout, xhat = (x - mean)*rstd"),
	  X_ARG("dweight", UB_EXT_COLS, 0, 0, 0, "sum over the rows of dout * xhat"),
	  X_ARG("dbias", UB_EXT_COLS, 0, 0, 0, "sum over the rows of dout")},
	 "ub_rows_layer_norm_bwd",
	 "(FPCore layer_norm_bwd ((dout R C) (x R C) (weight C) (mean R) (rstd R))\n"
	 "  (array\n"
	 "    (tensor ([i R] [j C])\n"
	 "      (* (/ (ref rstd i) C)\n"
	 "         (- (* C " G("j") ")\n"
	 "            (for ([k C]) ([s 0 (+ s " G("k") ")]) s)\n"
	 "            (* " XHAT("i", "j") "\n"
	 "               (for ([k C]) ([s 0 (+ s (* " G("k") " " XHAT("i", "k") "))]) s)))))\n"
	 "    (tensor ([j C]) (for ([i R]) ([s 0 (+ s (* (ref dout i j) " XHAT("i", "j") "))]) s))\n"
	 "    (tensor ([j C]) (for ([i R]) ([s 0 (+ s (ref dout i j))]) s))))", NULL},
	{"rms_norm_bwd", "RMS norm backward over the last dimension, from the forward's "
	 "rstd (dx, dweight)", UB_SH_RMS_NORM_BWD, 4, 2,
	 {X_DOUT, X_FULL("x", -100, 100, "the forward's input"),
	  X_COLS("weight", -2, 2, "the forward's scale, one per column"),
	  X_STAT("rstd", "the forward's rstd (float32; default: from x)")},
	 {X_ARG("dx", UB_EXT_FULL, 0, 0, 0, "rstd*g - x * rstd^3/C * sum g*x, g = weight*dout"),
	  X_ARG("dweight", UB_EXT_COLS, 0, 0, 0, "sum over the rows of dout * x * rstd")},
	 "ub_rows_rms_norm_bwd",
	 "(FPCore rms_norm_bwd ((dout R C) (x R C) (weight C) (rstd R))\n"
	 "  (array\n"
	 "    (tensor ([i R] [j C])\n"
	 "      (- (* (ref rstd i) " G("j") ")\n"
	 "         (* (ref x i j) (/ (pow (ref rstd i) 3) C)\n"
	 "            (for ([k C]) ([s 0 (+ s (* " G("k") " (ref x i k)))]) s))))\n"
	 "    (tensor ([j C])\n"
	 "      (for ([i R]) ([s 0 (+ s (* (ref dout i j) (ref x i j) (ref rstd i)))]) s))))", NULL},
	{"cross_entropy", "cross-entropy of logits with class-index targets, per row "
	 "(reduction='none')", UB_SH_CROSS_ENTROPY, 2, 1,
	 {X_FULL("x", -30, 30, "the logits, classes along the row"),
	  X_ARG("target", UB_EXT_ROWS, 0, 0, UB_ARG_CLASS, "the class of each row (integer; "
	   "default: seeded uniform in [0, cols))")},
	 {X_ARG("out", UB_EXT_ROWS, 0, 0, 0, "log(sum exp(x - max)) - (x[target] - max), per row")},
	 "ub_rows_cross_entropy",
	 "(FPCore cross_entropy ((x R C) (target R))\n"
	 "  (tensor ([i R])\n"
	 "    (let ([m " MAXROW "])\n"
	 "      (- (log " SUMEXP ") (- (ref x i (ref target i)) m)))))", NULL},
	{"matmul", "matrix product: out = a b (--shape M,N,K)", UB_SH_MATMUL, 2, 1,
	 {X_MAT("a", UB_EXT_MK, "the left matrix (M, K)"),
	  X_MAT("b", UB_EXT_KN, "the right matrix (K, N)")},
	 {X_ARG("out", UB_EXT_FULL, 0, 0, 0, "sum over k of a[i,k] b[k,j], (M, N)")},
	 "ub_rows_matmul",
	 "(FPCore matmul ((a M K) (b K N))\n"
	 "  (tensor ([i M] [j N]) " DOT("(ref a i k)", "(ref b k j)") "))", NULL},
	{"linear", "linear layer: out = x weight^T + bias, as torch.nn.functional.linear "
	 "(--shape M,N,K)", UB_SH_LINEAR, 3, 1,
	 {X_MAT("x", UB_EXT_MK, "the input (M, K)"),
	  X_MAT("weight", UB_EXT_NK, "the weight (N, K)"),
	  X_MAT("bias", UB_EXT_COLS, "the bias, one per column (N)")},
	 {X_ARG("out", UB_EXT_FULL, 0, 0, 0, "sum over k of x[i,k] weight[j,k], plus bias[j]")},
	 "ub_rows_linear",
	 "(FPCore linear ((x M K) (weight N K) (bias N))\n"
	 "  (tensor ([i M] [j N])\n"
	 "    (+ " DOT("(ref x i k)", "(ref weight j k)") " (ref bias j))))", NULL},
	{"bmm", "batched matrix product: out[h] = a[h] b[h] (--shape B,M,N,K)", UB_SH_BMM,
	 2, 1,
	 {X_MAT("a", UB_EXT_MK, "the left matrices (B, M, K), as (B*M, K)"),
	  X_MAT("b", UB_EXT_BKN, "the right matrices (B, K, N)")},
	 {X_ARG("out", UB_EXT_FULL, 0, 0, 0, "out[h,i,j] = sum over k of a[h,i,k] b[h,k,j], "
	   "as (B*M, N)")},
	 "ub_rows_bmm",
	 "(FPCore bmm ((a B M K) (b B K N))\n"
	 "  (tensor ([h B] [i M] [j N]) " DOT("(ref a h i k)", "(ref b h k j)") "))", NULL},
	{"sdpa", "scaled-dot-product attention forward: softmax(q k^T / sqrt(D)) v "
	 "(--shape L,S,D)", UB_SH_SDPA, 3, 1,
	 {X_ARG("q", UB_EXT_FULL, -3, 3, 0, "the queries (L, D)"),
	  X_ARG("k", UB_EXT_KN, -3, 3, 0, "the keys (S, D)"),
	  X_MAT("v", UB_EXT_KN, "the values (S, D)")},
	 {X_ARG("out", UB_EXT_FULL, 0, 0, 0, "sum over t of softmax_t(q[i] . k[t] / sqrt(D)) "
	   "v[t,c], (L, D)")},
	 "ub_rows_sdpa", SDPA_MATH("sdpa", "TRUE"), NULL},
	{"sdpa_causal", "causal scaled-dot-product attention forward: key t <= query i "
	 "(torch's is_causal) (--shape L,S,D)", UB_SH_SDPA_CAUSAL, 3, 1,
	 {X_ARG("q", UB_EXT_FULL, -3, 3, 0, "the queries (L, D)"),
	  X_ARG("k", UB_EXT_KN, -3, 3, 0, "the keys (S, D)"),
	  X_MAT("v", UB_EXT_KN, "the values (S, D)")},
	 {X_ARG("out", UB_EXT_FULL, 0, 0, 0, "as sdpa over the keys t <= i")},
	 "ub_rows_sdpa_causal", SDPA_MATH("sdpa_causal", "(<= t i)"), NULL},
};
const int ub_nshaped_ops = (int)(sizeof ub_shaped_ops / sizeof ub_shaped_ops[0]);

const struct ub_shaped_op *ub_shaped_find(const char *name)
{
	for (int i = 0; name && i < ub_nshaped_ops; i++)
		if (strcmp(ub_shaped_ops[i].name, name) == 0)
			return &ub_shaped_ops[i];
	return NULL;
}

const char *ub_shaped_names(char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < ub_nshaped_ops && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
					 ub_shaped_ops[i].name);
	return buf;
}

size_t ub_extent_count(enum ub_extent e, size_t rows, size_t cols)
{
	return e == UB_EXT_FULL ? rows * cols : e == UB_EXT_ROWS ? rows : cols;
}

size_t ub_arg_count(const struct ub_shaped_arg *a, size_t rows, size_t cols)
{
	return a->ext == UB_EXT_TABLE ? a->trows * cols : ub_extent_count(a->ext, rows, cols);
}

long long ub_arg_ihi(const struct ub_shaped_arg *a, size_t cols)
{
	return a->ihi < 0 ? (long long)cols : a->ihi;
}

const char *ub_extent_name(enum ub_extent e)
{
	static const char *const names[] = { "rows, cols", "rows", "cols", "rows, inner",
					     "inner, cols", "cols, inner",
					     "batch, inner, cols", "table, cols" };
	return names[e];
}

enum ub_dtype ub_shaped_in_dtype(const struct ub_shaped_op *op, int k, enum ub_dtype dt)
{
	return op->in[k].role != UB_ARG_VALUE ? UB_F32 : dt;
}

int ub_shaped_is_int(const struct ub_shaped_arg *a)
{
	return a->role == UB_ARG_CLASS || a->role == UB_ARG_INT;
}

int ub_shaped_has_cols_out(const struct ub_shaped_op *op)
{
	for (int o = 0; o < op->nout; o++)
		if (op->out[o].ext == UB_EXT_COLS)
			return 1;
	return 0;
}

/* One size of --shape: a decimal integer >= 1. */
static int dim(const char *s, char **end, size_t *v)
{
	errno = 0;
	if (*s < '0' || *s > '9')
		return -1;
	unsigned long long x = strtoull(s, end, 10);
	if (errno || x < 1 || x > INT32_MAX)
		return -1;
	*v = (size_t)x;
	return 0;
}

int ub_shape_parse(const char *spec, size_t *rows, size_t *cols,
		   struct ub_error *err)
{
	char *end;
	if (dim(spec, &end, rows) || *end != ',' || dim(end + 1, &end, cols) || *end ||
	    *rows > INT32_MAX / *cols)
		return ub_fail(err, UB_USAGE, "--shape %s: expected ROWS,COLS, two integers "
			       ">= 1 with ROWS*COLS below 2^31", spec);
	return 0;
}

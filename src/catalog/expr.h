/* expr.h — expressions over real numbers, as read from FPCore text.
 *
 * One node type serves the exact math (evaluated by the MPFR reference),
 * the torch plan (generated into CUDA kernels) and user ops.  Nodes may be
 * shared: a let binding is one node that every use of its name refers to,
 * so an expression is a directed acyclic graph, never copied out into a
 * tree.  Nodes are immutable once built and reference counted (each
 * parent, and whoever holds a root, owns one reference); dag.h lists the
 * distinct nodes of an expression for the evaluators, each of which
 * computes a shared node once. */
#ifndef UB_EXPR_H
#define UB_EXPR_H

#include "ub.h"

/* Operators, declared once: X(ID, FPCore name, arity, CUDA float function
 * or NULL for infix/special handling).  Arity -1 means variadic. */
#define UB_EXPR_OPS(X)                           \
	X(UB_ADD, "+", 2, NULL)                  \
	X(UB_SUB, "-", 2, NULL)                  \
	X(UB_MUL, "*", 2, NULL)                  \
	X(UB_DIV, "/", 2, NULL)                  \
	X(UB_NEG, "neg", 1, NULL) /* (- x) */    \
	X(UB_FMA, "fma", 3, "fmaf")              \
	X(UB_SQRT, "sqrt", 1, "sqrtf")           \
	X(UB_RSQRT, "rsqrt", 1, "rsqrtf")        \
	X(UB_FABS, "fabs", 1, "fabsf")           \
	X(UB_EXP, "exp", 1, "expf")              \
	X(UB_EXPM1, "expm1", 1, "expm1f")        \
	X(UB_LOG, "log", 1, "logf")              \
	X(UB_LOG1P, "log1p", 1, "log1pf")        \
	X(UB_SIN, "sin", 1, "sinf")              \
	X(UB_COS, "cos", 1, "cosf")              \
	X(UB_TAN, "tan", 1, "tanf")              \
	X(UB_ASIN, "asin", 1, "asinf")           \
	X(UB_ACOS, "acos", 1, "acosf")           \
	X(UB_ATAN, "atan", 1, "atanf")           \
	X(UB_TANH, "tanh", 1, "tanhf")           \
	X(UB_ERF, "erf", 1, "erff")              \
	X(UB_POW, "pow", 2, "powf")              \
	X(UB_FMIN, "fmin", 2, "fminf")           \
	X(UB_FMAX, "fmax", 2, "fmaxf")          \
	X(UB_EXP2, "exp2", 1, "exp2f")           \
	X(UB_LOG2, "log2", 1, "log2f")           \
	X(UB_LOG10, "log10", 1, "log10f")        \
	X(UB_CBRT, "cbrt", 1, "cbrtf")           \
	X(UB_SINH, "sinh", 1, "sinhf")           \
	X(UB_COSH, "cosh", 1, "coshf")           \
	X(UB_ASINH, "asinh", 1, "asinhf")        \
	X(UB_ACOSH, "acosh", 1, "acoshf")        \
	X(UB_ATANH, "atanh", 1, "atanhf")        \
	X(UB_ERFC, "erfc", 1, "erfcf")           \
	X(UB_FLOOR, "floor", 1, "floorf")        \
	X(UB_CEIL, "ceil", 1, "ceilf")           \
	X(UB_TRUNC, "trunc", 1, "truncf")        \
	X(UB_ROUND, "round", 1, "roundf")        \
	X(UB_NEARBYINT, "nearbyint", 1, "nearbyintf") \
	X(UB_HYPOT, "hypot", 2, "hypotf")        \
	X(UB_ATAN2, "atan2", 2, "atan2f")        \
	/* conditions (FPCore's booleans; see ub_expr_kind_of) */ \
	X(UB_LT, "<", 2, NULL)                   \
	X(UB_GT, ">", 2, NULL)                   \
	X(UB_LE, "<=", 2, NULL)                  \
	X(UB_GE, ">=", 2, NULL)                  \
	X(UB_EQ, "==", 2, NULL)                  \
	X(UB_NE, "!=", 2, NULL)                  \
	X(UB_AND, "and", 2, NULL)                \
	X(UB_OR, "or", 2, NULL)                  \
	X(UB_NOT, "not", 1, NULL)                \
	X(UB_IF, "if", 3, NULL) /* (if c a b) */

enum ub_expr_op {
#define X(id, name, arity, cfun) id,
	UB_EXPR_OPS(X)
#undef X
	UB_NOPS
};

/* A condition (comparison, and, or, not): a truth value, not a number. */
#define UB_EXPR_IS_BOOL(op) ((op) >= UB_LT && (op) <= UB_NOT)

struct ub_expr_op_info {
	const char *name;
	int arity;
	const char *cfun;
};
extern const struct ub_expr_op_info ub_expr_ops[UB_NOPS];

enum ub_expr_kind { UB_E_NUM, UB_E_VAR, UB_E_OP };

struct ub_dag;

struct ub_expr {
	enum ub_expr_kind kind;
	enum ub_expr_op op;     /* UB_E_OP */
	int nargs;
	struct ub_expr *args[3];
	char *num;              /* UB_E_NUM: the literal as written ("1",
				   "1.1283791670955126", "-0.5", "1e-3") */
	double num_d;           /* UB_E_NUM: strtod's value of num (correctly
				   rounded to double; NaN if num is not all
				   a number), kept so that no evaluation
				   parses text per element */
	int num_int;            /* UB_E_NUM: num is written as an integer
				   (an optional '-', then digits only) */
	int var;                /* UB_E_VAR: index into the environment */
	int refs;               /* owners: parents, and whoever holds it */
	int depth;              /* nodes on the longest path down to a leaf
				   (a leaf: 1); bounded by UB_EXPR_MAX_DEPTH
				   where expressions are read (dag.h) */
	struct ub_expr *gc;     /* ub_expr_free's list of nodes to free */
	struct ub_dag *_Atomic dag; /* the node as a root, built on first use
				   (ub_expr_dag) and freed with the node */
};

/* Constructors; each returns a node holding one reference, or NULL when
 * out of memory.  ub_expr_new_op takes over the references of args
 * (released on failure too). */
struct ub_expr *ub_expr_new_num(const char *text);
struct ub_expr *ub_expr_new_var(int var);
struct ub_expr *ub_expr_new_op(enum ub_expr_op op, int nargs,
			       struct ub_expr *const *args);
/* One more reference to e (shared, not copied); returns e. */
struct ub_expr *ub_expr_ref(struct ub_expr *e);
/* Releases one reference; the node and the nodes only it held are freed
 * when none is left (without recursion: any depth).  NULL is allowed. */
void ub_expr_free(struct ub_expr *e);

/* Prints the expression back as FPCore text, shared nodes written out at
 * each use (variables named by `names`, or v0, v1, ... when names is NULL;
 * UB_NEG as (- x)).  Returns the length of the text as snprintf does, a
 * result >= len meaning truncated; printing stops once len is reached, so
 * the cost is bounded by len, not by the size of the expanded tree. */
int ub_expr_print(const struct ub_expr *e, const char *const *names,
		  char *buf, size_t len);

/* FPCore's named constants, declared once: X(name, value as a C double
 * expression).  Trees keep them as number nodes spelled by name; the
 * reference encloses each exactly (ref_mpfr.c), generated kernels use
 * (float)value as PyTorch converts host doubles. */
#define UB_EXPR_CONSTS(X)                                              \
	X("PI", M_PI) X("E", M_E) X("INFINITY", INFINITY) X("NAN", NAN)   \
	X("LOG2E", M_LOG2E) X("LOG10E", M_LOG10E) X("LN2", M_LN2)        \
	X("LN10", M_LN10) X("PI_2", M_PI_2) X("PI_4", M_PI_4)            \
	X("M_1_PI", M_1_PI) X("M_2_PI", M_2_PI)                          \
	X("M_2_SQRTPI", M_2_SQRTPI) X("SQRT2", M_SQRT2)                  \
	X("SQRT1_2", M_SQRT1_2) X("TRUE", 1) X("FALSE", 0)

/* Whether text names a constant of UB_EXPR_CONSTS; its value in *v. */
int ub_expr_const(const char *text, double *v);

/* What an expression yields: a real number, or a condition (comparisons,
 * and/or/not, the constants TRUE and FALSE).  An if takes a condition and
 * yields one of its two real branches. */
enum ub_expr_type { UB_T_REAL, UB_T_BOOL };
enum ub_expr_type ub_expr_type_of(const struct ub_expr *e);
/* The type op wants of its argument i. */
enum ub_expr_type ub_expr_arg_type(enum ub_expr_op op, int i);

#endif

/* expr.h — expressions over real numbers, as read from FPCore text.
 *
 * One node type serves the exact math (evaluated by the MPFR reference),
 * the torch plan (generated into CUDA kernels) and user ops.  Nodes may be
 * shared: a let binding is one node that every use of its name refers to,
 * so an expression is a directed acyclic graph, never copied out into a
 * tree.  Nodes are immutable once built and reference counted (each
 * parent, and whoever holds a root, owns one reference); dag.h lists the
 * distinct nodes of an expression for the evaluators, each of which
 * computes a shared node once.  A node takes any number of arguments. */
#ifndef UB_EXPR_H
#define UB_EXPR_H

#include "ub.h"

/* What kind of operator, for reading, typing and generating code. */
enum ub_op_class {
	UB_C_ARITH,   /* + - * / neg fma: numbers to a number */
	UB_C_FN,      /* a C math library function: numbers to a number */
	UB_C_CMP,     /* < > <= >= == !=: two numbers to a condition */
	UB_C_LOGIC,   /* and or not: conditions to a condition */
	UB_C_PRED,    /* isfinite isinf isnan isnormal signbit: a number to
			 a condition */
	UB_C_SPECIAL, /* if, cast, while, while* (below) */
};

/* Operators, declared once: X(ID, FPCore name, arity (-1: as the form
 * says), CUDA float function or NULL, class). */
#define UB_EXPR_OPS(X)                                            \
	X(UB_ADD, "+", 2, NULL, UB_C_ARITH)                        \
	X(UB_SUB, "-", 2, NULL, UB_C_ARITH)                        \
	X(UB_MUL, "*", 2, NULL, UB_C_ARITH)                        \
	X(UB_DIV, "/", 2, NULL, UB_C_ARITH)                        \
	X(UB_NEG, "neg", 1, NULL, UB_C_ARITH) /* (- x) */           \
	X(UB_FMA, "fma", 3, "fmaf", UB_C_FN)                       \
	X(UB_SQRT, "sqrt", 1, "sqrtf", UB_C_FN)                    \
	X(UB_RSQRT, "rsqrt", 1, "rsqrtf", UB_C_FN)                 \
	X(UB_FABS, "fabs", 1, "fabsf", UB_C_FN)                    \
	X(UB_EXP, "exp", 1, "expf", UB_C_FN)                       \
	X(UB_EXPM1, "expm1", 1, "expm1f", UB_C_FN)                 \
	X(UB_LOG, "log", 1, "logf", UB_C_FN)                       \
	X(UB_LOG1P, "log1p", 1, "log1pf", UB_C_FN)                 \
	X(UB_SIN, "sin", 1, "sinf", UB_C_FN)                       \
	X(UB_COS, "cos", 1, "cosf", UB_C_FN)                       \
	X(UB_TAN, "tan", 1, "tanf", UB_C_FN)                       \
	X(UB_ASIN, "asin", 1, "asinf", UB_C_FN)                    \
	X(UB_ACOS, "acos", 1, "acosf", UB_C_FN)                    \
	X(UB_ATAN, "atan", 1, "atanf", UB_C_FN)                    \
	X(UB_TANH, "tanh", 1, "tanhf", UB_C_FN)                    \
	X(UB_ERF, "erf", 1, "erff", UB_C_FN)                       \
	X(UB_POW, "pow", 2, "powf", UB_C_FN)                       \
	X(UB_FMIN, "fmin", 2, "fminf", UB_C_FN)                    \
	X(UB_FMAX, "fmax", 2, "fmaxf", UB_C_FN)                    \
	X(UB_EXP2, "exp2", 1, "exp2f", UB_C_FN)                    \
	X(UB_LOG2, "log2", 1, "log2f", UB_C_FN)                    \
	X(UB_LOG10, "log10", 1, "log10f", UB_C_FN)                 \
	X(UB_CBRT, "cbrt", 1, "cbrtf", UB_C_FN)                    \
	X(UB_SINH, "sinh", 1, "sinhf", UB_C_FN)                    \
	X(UB_COSH, "cosh", 1, "coshf", UB_C_FN)                    \
	X(UB_ASINH, "asinh", 1, "asinhf", UB_C_FN)                 \
	X(UB_ACOSH, "acosh", 1, "acoshf", UB_C_FN)                 \
	X(UB_ATANH, "atanh", 1, "atanhf", UB_C_FN)                 \
	X(UB_ERFC, "erfc", 1, "erfcf", UB_C_FN)                    \
	X(UB_FLOOR, "floor", 1, "floorf", UB_C_FN)                 \
	X(UB_CEIL, "ceil", 1, "ceilf", UB_C_FN)                    \
	X(UB_TRUNC, "trunc", 1, "truncf", UB_C_FN)                 \
	X(UB_ROUND, "round", 1, "roundf", UB_C_FN)                 \
	X(UB_NEARBYINT, "nearbyint", 1, "nearbyintf", UB_C_FN)     \
	X(UB_HYPOT, "hypot", 2, "hypotf", UB_C_FN)                 \
	X(UB_ATAN2, "atan2", 2, "atan2f", UB_C_FN)                 \
	X(UB_FMOD, "fmod", 2, "fmodf", UB_C_FN)                    \
	X(UB_REMAINDER, "remainder", 2, "remainderf", UB_C_FN)     \
	X(UB_FDIM, "fdim", 2, "fdimf", UB_C_FN)                    \
	X(UB_COPYSIGN, "copysign", 2, "copysignf", UB_C_FN)        \
	X(UB_TGAMMA, "tgamma", 1, "tgammaf", UB_C_FN)              \
	X(UB_LGAMMA, "lgamma", 1, "lgammaf", UB_C_FN)              \
	/* conditions (FPCore's booleans; see ub_expr_type_of) */    \
	X(UB_LT, "<", 2, NULL, UB_C_CMP)                           \
	X(UB_GT, ">", 2, NULL, UB_C_CMP)                           \
	X(UB_LE, "<=", 2, NULL, UB_C_CMP)                          \
	X(UB_GE, ">=", 2, NULL, UB_C_CMP)                          \
	X(UB_EQ, "==", 2, NULL, UB_C_CMP)                          \
	X(UB_NE, "!=", 2, NULL, UB_C_CMP)                          \
	X(UB_AND, "and", 2, NULL, UB_C_LOGIC)                      \
	X(UB_OR, "or", 2, NULL, UB_C_LOGIC)                        \
	X(UB_NOT, "not", 1, NULL, UB_C_LOGIC)                      \
	X(UB_ISFINITE, "isfinite", 1, NULL, UB_C_PRED)             \
	X(UB_ISINF, "isinf", 1, NULL, UB_C_PRED)                   \
	X(UB_ISNAN, "isnan", 1, NULL, UB_C_PRED)                   \
	X(UB_ISNORMAL, "isnormal", 1, NULL, UB_C_PRED)             \
	X(UB_SIGNBIT, "signbit", 1, NULL, UB_C_PRED)               \
	/* (if c a b); (cast x): x rounded in its context (prec) */  \
	X(UB_IF, "if", 3, NULL, UB_C_SPECIAL)                      \
	X(UB_CAST, "cast", 1, NULL, UB_C_SPECIAL)                  \
	/* loops: the layout of their arguments is below */          \
	X(UB_WHILE, "while", -1, NULL, UB_C_SPECIAL)               \
	X(UB_WHILES, "while*", -1, NULL, UB_C_SPECIAL)

enum ub_expr_op {
#define X(id, name, arity, cfun, cls) id,
	UB_EXPR_OPS(X)
#undef X
	UB_NOPS
};

struct ub_expr_op_info {
	const char *name;
	int arity;
	const char *cfun;
	enum ub_op_class cls;
};
extern const struct ub_expr_op_info ub_expr_ops[UB_NOPS];

/* A condition (comparison, and, or, not, predicate): a truth value, not a
 * number. */
#define UB_EXPR_IS_BOOL(op) (ub_expr_ops[op].cls == UB_C_CMP ||  \
			     ub_expr_ops[op].cls == UB_C_LOGIC || \
			     ub_expr_ops[op].cls == UB_C_PRED)

/* UB_E_LVAR: a variable of a while loop (its value is set by the loop
 * that lists it, below), or a loop's hidden staging slot. */
enum ub_expr_kind { UB_E_NUM, UB_E_VAR, UB_E_OP, UB_E_LVAR };

/* The rounding context of a node (FPCore's `!` :precision): where none
 * was given, the one of the whole computation (the run's dtype for a
 * kernel; exact for the reference, as FPCore's :spec); real; integer
 * (FPCore's integer precision, #e: the result rounded to an integer); or
 * a dtype (>= 0): the node's result is rounded to it (operations,
 * literals and cast alike). */
enum { UB_PREC_INHERIT = -1, UB_PREC_REAL = -2, UB_PREC_INTEGER = -3 };

/* Whether a node of context prec has its result rounded (to a format or
 * to an integer) wherever it is evaluated, the reference included. */
static inline int ub_prec_rounds(int prec)
{
	return prec >= 0 || prec == UB_PREC_INTEGER;
}

/* The direction of a context's rounding (FPCore's :round): ties to even
 * (the default), toward +inf, toward -inf, toward zero.  FPCore's
 * nearestAway is refused where it is read (no GPU instruction rounds so). */
enum ub_rnd { UB_RND_NE, UB_RND_UP, UB_RND_DOWN, UB_RND_ZERO };
extern const char *const ub_rnd_names[4]; /* nearestEven toPositive ... */

struct ub_dag;

/* A loop (while ...) over n variables has its arguments in this order:
 *   init[0..n-1]   the initial values (while*: init k sees variables < k)
 *   var[0..n-1]    the variables (UB_E_LVAR leaves)
 *   cond           evaluated before each iteration
 *   upd[0..n-1]    the updates (while*: upd k sees the new variables < k)
 *   body           the loop's value, once cond is false
 *   shadow[0..n-1] while only: hidden leaves that hold the new values
 *                  while every update still reads the old ones
 * so nargs is 4n + 2 (while) or 3n + 2 (while*). */
static inline int ub_loop_nvars(int op, int nargs)
{
	return (nargs - 2) / (op == UB_WHILE ? 4 : 3);
}
#define UB_LOOP_INIT(n, k) (k)
#define UB_LOOP_VAR(n, k) ((n) + (k))
#define UB_LOOP_COND(n) (2 * (n))
#define UB_LOOP_UPD(n, k) (2 * (n) + 1 + (k))
#define UB_LOOP_BODY(n) (3 * (n) + 1)
#define UB_LOOP_SHADOW(n, k) (3 * (n) + 2 + (k))
/* The most iterations a loop may take in one evaluation; beyond, the
 * evaluation stops (the reference: the element is undecided, and its time
 * budget usually stops it first; a generated kernel: NaN). */
#define UB_LOOP_MAX 100000000

struct ub_expr {
	enum ub_expr_kind kind;
	enum ub_expr_op op;     /* UB_E_OP */
	int nargs;
	char *num;              /* UB_E_NUM: the literal as written ("1",
				   "1.1283791670955126", "-0.5", "1e-3",
				   "1/3"); UB_E_LVAR: the variable's name */
	double num_d;           /* UB_E_NUM: strtod's value of num (correctly
				   rounded to double; NaN if num is not all
				   a number), kept so that no evaluation
				   parses text per element */
	int num_int;            /* UB_E_NUM: num is written as an integer
				   (an optional '-', then digits only) */
	int var;                /* UB_E_VAR: index into the environment */
	int prec;               /* UB_E_OP, UB_E_NUM: rounding context */
	int rnd;                /* its direction (enum ub_rnd): where prec
				   rounds, and a kernel's operations in a
				   context of its own */
	int is_bool;            /* UB_E_LVAR: holds a condition */
	int refs;               /* owners: parents, and whoever holds it */
	int depth;              /* nodes on the longest path down to a leaf
				   (a leaf: 1); bounded by UB_EXPR_MAX_DEPTH
				   where expressions are read (dag.h) */
	struct ub_expr *gc;     /* ub_expr_free's list of nodes to free */
	struct ub_dag *_Atomic dag; /* the node as a root, built on first use
				   (ub_expr_dag) and freed with the node */
	struct ub_expr *args[]; /* nargs of them */
};

/* Constructors; each returns a node holding one reference, or NULL when
 * out of memory.  ub_expr_new_op takes over the references of args
 * (released on failure too); its prec is UB_PREC_INHERIT. */
struct ub_expr *ub_expr_new_num(const char *text);
struct ub_expr *ub_expr_new_var(int var);
struct ub_expr *ub_expr_new_lvar(const char *name, int is_bool);
struct ub_expr *ub_expr_new_op(enum ub_expr_op op, int nargs,
			       struct ub_expr *const *args);
/* One more reference to e (shared, not copied); returns e. */
struct ub_expr *ub_expr_ref(struct ub_expr *e);
/* Releases one reference; the node and the nodes only it held are freed
 * when none is left (without recursion: any depth).  NULL is allowed. */
void ub_expr_free(struct ub_expr *e);

/* Prints the expression back as FPCore text, shared nodes written out at
 * each use (variables named by `names`, or v0, v1, ... when names is NULL;
 * UB_NEG as (- x); a change of rounding context as (! :precision P ...)).
 * Returns the length of the text as snprintf does, a result >= len
 * meaning truncated; printing stops once len is reached, so the cost is
 * bounded by len, not by the size of the expanded tree. */
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
 * and/or/not, predicates, the constants TRUE and FALSE, a loop variable
 * that holds one).  An if yields one of its two branches, of the same
 * type; a loop its body's. */
enum ub_expr_type { UB_T_REAL, UB_T_BOOL };
enum ub_expr_type ub_expr_type_of(const struct ub_expr *e);
/* The type op wants of its argument i (loops: their condition; the other
 * places of a loop, and the branches of if, take either). */
enum ub_expr_type ub_expr_arg_type(enum ub_expr_op op, int nargs, int i);

/* The FPCore name of a rounding context's precision ("binary32", "real"),
 * for messages and printing. */
const char *ub_prec_name(int prec);

#endif

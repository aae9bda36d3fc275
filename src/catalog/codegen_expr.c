/* codegen_expr.c — the CUDA C text of an expression (codegen.c puts it in
 * a kernel).
 *
 * Types: a condition is bool; a number is float, or double where its
 * rounding context is binary64 or real, or, in no context of its own, in
 * an f64 kernel (style NATIVE: the 16-bit type itself).  An argument of
 * another type is converted to its operation's ((double) exactly,
 * (float) rounding); a comparison takes the wider of its two.
 *
 * A loop is an expression too, an immediately called lambda:
 *   ([&]() -> T { T l5 = init; ...
 *       T t9; ...                   temporaries of nodes that depend on
 *                                   the loop's variables
 *       for (long it = 0;; it++) {
 *           t9 = ...;               at each iteration's start
 *           if (!(cond)) break;
 *           if (it == UB_LOOP_MAX) return NaN;
 *           T n5 = upd; ...  l5 = n5; ...   (while*: l5 = upd; in turn)
 *       }
 *       return body; }())
 * so that only a branch an if takes runs its loops.  The temporaries are
 * computed at the start of each iteration, where every variable has its
 * value for the condition, the updates of while and the body; where
 * while* has changed a variable since (its later updates and initial
 * values), the loop's temporaries are written out inline instead. */
#include "codegen_internal.h"

#include <math.h>
#include <mpfr.h>
#include <stdlib.h>
#include <string.h>

#define put ub_cg_put

static int half(enum ub_dtype dt)
{
	return dt == UB_F16 || dt == UB_BF16;
}

static int is_loop(const struct ub_expr *e)
{
	return e->kind == UB_E_OP && (e->op == UB_WHILE || e->op == UB_WHILES);
}

int ub_cg_init(struct ub_cg *g, const struct ub_dag *d)
{
	size_t n = (size_t)d->n + 1;
	g->d = d;
	g->owner = malloc(n * sizeof *g->owner);
	g->loop_of = malloc(n * sizeof *g->loop_of);
	g->index_of = calloc(n, sizeof *g->index_of);
	g->stale = calloc(n, 1);
	if (!g->owner || !g->loop_of || !g->index_of || !g->stale)
		return -1;
	for (int i = 0; i < d->n; i++)
		g->owner[i] = g->loop_of[i] = -1;
	/* loops come after what they contain: the first loop listing a node
	 * as its dependent is its innermost */
	for (int w = 0; w < d->n; w++) {
		for (int j = d->dep_first[w]; j < d->dep_first[w + 1]; j++)
			if (g->owner[d->dep[j]] < 0)
				g->owner[d->dep[j]] = w;
		if (!is_loop(d->node[w]))
			continue;
		int nv = ub_loop_nvars(d->node[w]->op, d->node[w]->nargs);
		for (int k = 0; k < nv; k++) {
			int v = ub_dag_arg(d, w, UB_LOOP_VAR(nv, k));
			g->loop_of[v] = w;
			g->index_of[v] = k;
		}
	}
	return 0;
}

void ub_cg_free(struct ub_cg *g)
{
	free(g->owner);
	free(g->loop_of);
	free(g->index_of);
	free(g->stale);
}

int ub_cg_temp(const struct ub_cg *g, int i)
{
	return g->d->node[i]->kind == UB_E_OP && g->d->uses[i] > 1;
}

static enum ub_cg_type prec_type(const struct ub_cg *g, int prec)
{
	if (g->style == UB_CG_NATIVE)
		return UB_CT_NATIVE;
	if (prec == UB_PREC_INHERIT)
		return g->dt == UB_F64 ? UB_CT_DOUBLE : UB_CT_FLOAT;
	return prec == UB_PREC_REAL || prec == UB_PREC_INTEGER || prec == UB_F64
	       ? UB_CT_DOUBLE : UB_CT_FLOAT;
}

enum ub_cg_type ub_cg_type(const struct ub_cg *g, int i)
{
	const struct ub_expr *e = g->d->node[i];
	if (ub_expr_type_of(e) == UB_T_BOOL)
		return UB_CT_BOOL;
	if (e->kind == UB_E_VAR)
		return prec_type(g, UB_PREC_INHERIT);
	if (e->kind == UB_E_LVAR) {
		int w = g->loop_of[i]; /* its type: its initial value's */
		if (w < 0)
			return prec_type(g, UB_PREC_INHERIT);
		return ub_cg_type(g, ub_dag_arg(g->d, w, g->index_of[i]));
	}
	if (is_loop(e))
		return ub_cg_type(g, ub_dag_arg(g->d, i, UB_LOOP_BODY(ub_loop_nvars(e->op, e->nargs))));
	if (e->kind == UB_E_OP && e->op == UB_IF)
		return ub_cg_type(g, ub_dag_arg(g->d, i, 1));
	return prec_type(g, e->prec);
}

const char *ub_cg_type_name(const struct ub_cg *g, enum ub_cg_type t)
{
	static const char *const names[] = {"bool", "float", "double", NULL};
	return t == UB_CT_NATIVE ? ub_dtypes[g->dt].ctype : names[t];
}

/* ---- constants ---------------------------------------------------------- */

/* An FPCore literal's value rounded once to double (named constants: the
 * C double of UB_EXPR_CONSTS). */
static double literal(const char *t)
{
	double v;
	if (ub_expr_const(t, &v))
		return v;
	mpfr_t x;
	mpfr_init2(x, 53);
	if (strchr(t, '/')) {
		mpq_t q;
		mpq_init(q);
		mpq_set_str(q, t + (t[0] == '+'), 10);
		mpq_canonicalize(q);
		mpfr_set_q(x, q, MPFR_RNDN);
		mpq_clear(q);
		if (mpfr_zero_p(x) && t[0] == '-')
			mpfr_neg(x, x, MPFR_RNDN);
	} else {
		mpfr_strtofr(x, t, NULL, 0, MPFR_RNDN);
	}
	v = mpfr_get_d(x, MPFR_RNDN); /* exact: 53 bits, and MPFR's exponent
					 range is wider, so overflow is inf */
	mpfr_clear(x);
	return v;
}

static void bits_of(const struct ub_cg *g, enum ub_cg_type t, double d)
{
	if (t == UB_CT_DOUBLE) {
		uint64_t u;
		memcpy(&u, &d, sizeof u);
		put(g->b, "__longlong_as_double(0x%016llxLL)", (unsigned long long)u);
	} else if (t == UB_CT_NATIVE) {
		put(g->b, "%s((unsigned short)0x%04x)", g->dt == UB_F16 ?
		    "__ushort_as_half" : "__ushort_as_bfloat16",
		    (unsigned)ub_codegen_round(g->dt, d));
	} else {
		put(g->b, "__int_as_float(0x%08x)", (unsigned)ub_codegen_round(UB_F32, d));
	}
}

/* The exact value of literal t at x's precision, in direction m, with
 * MPFR's ternary value (named constants from MPFR's own). */
static int literal_mpfr(mpfr_ptr x, const char *t, mpfr_rnd_t m)
{
	static const struct {
		const char *name;
		int what, num, den;    /* what: 0 pi, 1 e, 2 ln2, 3 ln10, 4 sqrt2,
					  5 sqrt(pi); value num/den * it^(+-1) */
		int inv;
	} named[] = {
		{"PI", 0, 1, 1, 0}, {"PI_2", 0, 1, 2, 0}, {"PI_4", 0, 1, 4, 0},
		{"M_1_PI", 0, 1, 1, 1}, {"M_2_PI", 0, 2, 1, 1}, {"E", 1, 1, 1, 0},
		{"LN2", 2, 1, 1, 0}, {"LOG2E", 2, 1, 1, 1}, {"LN10", 3, 1, 1, 0},
		{"LOG10E", 3, 1, 1, 1}, {"SQRT2", 4, 1, 1, 0}, {"SQRT1_2", 4, 1, 2, 0},
		{"M_2_SQRTPI", 5, 2, 1, 1},
	};
	for (size_t i = 0; i < sizeof named / sizeof named[0]; i++) {
		if (strcmp(t, named[i].name))
			continue;
		mpfr_t c; /* 300 bits, then one rounding: every format's value is
			     decided far from a tie (these are irrational) */
		mpfr_init2(c, 300);
		switch (named[i].what) {
		case 0: mpfr_const_pi(c, MPFR_RNDN); break;
		case 1: mpfr_set_ui(c, 1, MPFR_RNDN); mpfr_exp(c, c, MPFR_RNDN); break;
		case 2: mpfr_const_log2(c, MPFR_RNDN); break;
		case 3: mpfr_set_ui(c, 10, MPFR_RNDN); mpfr_log(c, c, MPFR_RNDN); break;
		case 4: mpfr_sqrt_ui(c, 2, MPFR_RNDN); break;
		default: mpfr_const_pi(c, MPFR_RNDN); mpfr_sqrt(c, c, MPFR_RNDN); break;
		}
		if (named[i].inv)
			mpfr_ui_div(c, 1, c, MPFR_RNDN);
		mpfr_mul_ui(c, c, (unsigned long)named[i].num, MPFR_RNDN);
		mpfr_div_ui(c, c, (unsigned long)named[i].den, MPFR_RNDN);
		int tern = mpfr_set(x, c, m);
		mpfr_clear(c);
		return tern ? tern : 1; /* irrational: never exact */
	}
	double v;
	if (ub_expr_const(t, &v)) /* INFINITY, NAN, TRUE, FALSE */
		return mpfr_set_d(x, v, m);
	if (strchr(t, '/')) {
		mpq_t q;
		mpq_init(q);
		mpq_set_str(q, t + (t[0] == '+'), 10);
		mpq_canonicalize(q);
		int tern = mpfr_set_q(x, q, m);
		mpq_clear(q);
		return tern;
	}
	return mpfr_strtofr(x, t, NULL, 0, m);
}

/* The literal t rounded once to format fmt in direction rnd (a directed
 * context's literal, FPCore), as a double (exact: every format fits). */
static double literal_dir(const char *t, int fmt, int rnd)
{
	static const mpfr_rnd_t m[4] = {MPFR_RNDN, MPFR_RNDU, MPFR_RNDD, MPFR_RNDZ};
	const struct ub_dtype_info *f = &ub_dtypes[fmt];
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_t x;
	mpfr_init2(x, f->prec);
	mpfr_set_emin(f->emin - f->prec + 2);
	mpfr_set_emax(f->emax + 1);
	int tern = literal_mpfr(x, t, m[rnd]);
	tern = mpfr_check_range(x, tern, m[rnd]);
	mpfr_subnormalize(x, tern, m[rnd]);
	double v = mpfr_get_d(x, MPFR_RNDN);
	if (v == 0 && t[0] == '-')
		v = -0.0;
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	mpfr_clear(x);
	return v;
}

/* The literal t rounded to an integer in direction rnd (an integer
 * context's literal): from a 1100-bit lower bound lo <= v < next(lo), in
 * which no integer lies past lo for any literal below 2^1000 (larger ones
 * are infinite in every format anyway). */
static double literal_int(const char *t, int rnd)
{
	mpfr_t lo;
	mpfr_init2(lo, 1100);
	int exact = literal_mpfr(lo, t, MPFR_RNDD) == 0;
	double f = floor(mpfr_get_d(lo, MPFR_RNDD)), v;
	int whole = mpfr_integer_p(lo) != 0;
	mpfr_sub_d(lo, lo, f, MPFR_RNDN);   /* the fraction, exact */
	int half = mpfr_cmp_d(lo, 0.5), pos = f >= 0;
	if (rnd == UB_RND_DOWN || (rnd == UB_RND_ZERO && pos))
		v = f;
	else if (rnd == UB_RND_UP || rnd == UB_RND_ZERO)
		v = whole && exact ? f : f + 1;
	else /* nearest, ties to even: a tie only when exact */
		v = half < 0 || (half == 0 && exact && fmod(f, 2) == 0) ? f : f + 1;
	mpfr_clear(lo);
	return v == 0 && t[0] == '-' ? -0.0 : v;
}

static void constant(const struct ub_cg *g, int n)
{
	const char *text = g->d->node[n]->num;
	enum ub_cg_type t = ub_cg_type(g, n);
	double d = literal(text);
	if (t == UB_CT_BOOL) {
		put(g->b, "%s", d != 0 ? "true" : "false");
		return;
	}
	int p = g->d->node[n]->prec, r = g->d->node[n]->rnd;
	int fmt = p == UB_PREC_INHERIT ? (int)g->dt : p;
	if (p == UB_PREC_INTEGER && isfinite(d)) { /* the integer of its direction */
		bits_of(g, t, literal_int(text, r));
		return;
	}
	if (r != UB_RND_NE && fmt >= 0 && g->style != UB_CG_PER_OP) {
		bits_of(g, t, literal_dir(text, fmt, r));
		return;
	}
	if (t != UB_CT_NATIVE && (p == UB_F16 || p == UB_BF16)) /* a 16-bit context's value */
		d = ub_bits_to_double((enum ub_dtype)p, ub_codegen_round((enum ub_dtype)p, d));
	else if (t == UB_CT_FLOAT && g->style == UB_CG_EVERY_OP && half(g->dt))
		d = ub_bits_to_double(g->dt, ub_codegen_round(g->dt, d)); /* the dtype's value */
	bits_of(g, t, d);
}

static void nan_of(const struct ub_cg *g, enum ub_cg_type t)
{
	if (t == UB_CT_BOOL)
		put(g->b, "false");
	else
		bits_of(g, t, NAN);
}

/* ---- operations --------------------------------------------------------- */

static const char *const infix[UB_NOPS] = {
	[UB_ADD] = "+", [UB_SUB] = "-", [UB_MUL] = "*", [UB_DIV] = "/",
	[UB_LT] = "<", [UB_GT] = ">", [UB_LE] = "<=", [UB_GE] = ">=",
	[UB_EQ] = "==", [UB_NE] = "!=", [UB_AND] = "&&", [UB_OR] = "||",
};
/* The kernel under test writes + - * / through ulpbench.h's macros, so
 * mode rn turns them into __fmul_rn and friends. */
static const char *const macro[UB_NOPS] = {
	[UB_ADD] = "UB_ADD", [UB_SUB] = "UB_SUB", [UB_MUL] = "UB_MUL",
	[UB_DIV] = "UB_DIV",
};
/* The derived torch plan rounds each of them on its own, never fused. */
static const char *const rn[UB_NOPS] = {
	[UB_ADD] = "add", [UB_SUB] = "sub", [UB_MUL] = "mul", [UB_DIV] = "div",
};
/* Native 16-bit functions (cuda_fp16.h and cuda_bf16.h name them alike). */
static const char *const native_fn[UB_NOPS] = {
	[UB_SQRT] = "hsqrt", [UB_RSQRT] = "hrsqrt", [UB_EXP] = "hexp",
	[UB_LOG] = "hlog", [UB_SIN] = "hsin", [UB_COS] = "hcos",
	[UB_TANH] = "htanh", [UB_FABS] = "__habs", [UB_FMA] = "__hfma",
	[UB_FMIN] = "__hmin", [UB_FMAX] = "__hmax",
};

/* Node n's text converted to type want. */
static void as(struct ub_cg *g, int n, enum ub_cg_type want)
{
	enum ub_cg_type t = ub_cg_type(g, n);
	int conv = t != want && want != UB_CT_BOOL && t != UB_CT_BOOL &&
		   t != UB_CT_NATIVE && want != UB_CT_NATIVE;
	if (conv)
		put(g->b, "(%s)(", want == UB_CT_DOUBLE ? "double" : "float");
	ub_cg_expr(g, n);
	if (conv)
		put(g->b, ")");
}

static void arg(struct ub_cg *g, int n, int k, enum ub_cg_type want)
{
	as(g, ub_dag_arg(g->d, n, k), want);
}

static void args(struct ub_cg *g, int n, const char *wrap, enum ub_cg_type want)
{
	const struct ub_expr *e = g->d->node[n];
	for (int i = 0; i < e->nargs; i++) {
		put(g->b, i ? ", %s" : "%s", wrap);
		arg(g, n, i, want);
		put(g->b, "%s", wrap[0] ? ")" : "");
	}
}

/* A function call: float (double) math library, a native 16-bit
 * intrinsic, or the float function between conversions. */
static void call(struct ub_cg *g, int n)
{
	const struct ub_expr *e = g->d->node[n];
	const char *f = ub_expr_ops[e->op].cfun;
	enum ub_cg_type t = ub_cg_type(g, n);
	if (t == UB_CT_NATIVE && native_fn[e->op]) {
		put(g->b, "%s(", native_fn[e->op]);
		args(g, n, "", t);
	} else if (t == UB_CT_NATIVE) {
		int bf = g->dt == UB_BF16;
		put(g->b, "%s(%s(", bf ? "__float2bfloat16_rn" : "__float2half_rn", f);
		args(g, n, bf ? "__bfloat162float(" : "__half2float(", t);
		put(g->b, ")");
	} else { /* the double function drops the trailing 'f' */
		put(g->b, "%.*s(", (int)(strlen(f) - (t == UB_CT_DOUBLE)), f);
		args(g, n, "", t);
	}
	put(g->b, ")");
}

/* The format a value of node n is rounded to where the torch plan rounds
 * every operation, or -1 (none beyond its type's own). */
static int per_op_format(const struct ub_cg *g, int n)
{
	int p = g->d->node[n]->prec;
	int fmt = p == UB_PREC_INHERIT ? (int)g->dt : p;
	return fmt == UB_F16 || fmt == UB_BF16 ? fmt : -1;
}

/* (c ? a : b), comparisons, and/or/not, predicates. */
static void condition(struct ub_cg *g, int n)
{
	const struct ub_expr *e = g->d->node[n];
	if (ub_expr_ops[e->op].cls == UB_C_PRED) {
		int a = ub_dag_arg(g->d, n, 0), fmt = e->prec >= 0 ? e->prec : (int)g->dt;
		enum ub_cg_type t = ub_cg_type(g, a) == UB_CT_NATIVE ? UB_CT_FLOAT : ub_cg_type(g, a);
		put(g->b, e->op == UB_ISNORMAL ? "ub_isnormal(" : "%s(", ub_expr_ops[e->op].name);
		if (ub_cg_type(g, a) == UB_CT_NATIVE)
			put(g->b, "%s(", g->dt == UB_BF16 ? "__bfloat162float" : "__half2float");
		ub_cg_expr(g, a);
		put(g->b, ub_cg_type(g, a) == UB_CT_NATIVE ? ")" : "");
		if (e->op == UB_ISNORMAL) { /* the smallest normal of the format */
			put(g->b, ", ");
			bits_of(g, t, ldexp(1, ub_dtypes[fmt].emin));
		}
		put(g->b, ")");
	} else if (e->op == UB_NOT) {
		put(g->b, "(!");
		ub_cg_expr(g, ub_dag_arg(g->d, n, 0));
		put(g->b, ")");
	} else {
		enum ub_cg_type ta = ub_cg_type(g, ub_dag_arg(g->d, n, 0));
		enum ub_cg_type tb = ub_cg_type(g, ub_dag_arg(g->d, n, 1));
		enum ub_cg_type w = ta == UB_CT_DOUBLE || tb == UB_CT_DOUBLE ? UB_CT_DOUBLE : ta;
		put(g->b, "(");
		arg(g, n, 0, w);
		put(g->b, " %s ", infix[e->op]);
		arg(g, n, 1, w);
		put(g->b, ")");
	}
}

/* The IEEE operations with a CUDA intrinsic for each rounding direction:
 * __fadd_ru (float), __dadd_ru (double), ...; sqrt and fma by their own
 * names. */
static const char *const dir_op[UB_NOPS] = {
	[UB_ADD] = "add", [UB_SUB] = "sub", [UB_MUL] = "mul", [UB_DIV] = "div",
	[UB_SQRT] = "sqrt", [UB_FMA] = "fma",
};

/* Whether node n's operation rounds in a direction of its own (FPCore's
 * :round): the torch plan never does (PyTorch rounds to nearest). */
static int directed(const struct ub_cg *g, int n)
{
	const struct ub_expr *e = g->d->node[n];
	return e->rnd != UB_RND_NE && g->style != UB_CG_PER_OP &&
	       e->prec != UB_PREC_REAL && e->prec != UB_PREC_INTEGER;
}

/* (cast x): x rounded to the context's format, in the cast's type. */
static void cast(struct ub_cg *g, int n)
{
	const struct ub_expr *e = g->d->node[n];
	int a = ub_dag_arg(g->d, n, 0);
	int fmt = e->prec == UB_PREC_INHERIT ? (int)g->dt : e->prec;
	enum ub_cg_type t = ub_cg_type(g, n);
	if (t == UB_CT_NATIVE || fmt == UB_PREC_REAL) { /* already the dtype; real: none */
		as(g, a, t);
		return;
	}
	if (fmt == UB_PREC_INTEGER) {
		static const char *const to_int[4] = {"rint", "ceil", "floor", "trunc"};
		put(g->b, "%s(", to_int[e->rnd]);
		as(g, a, UB_CT_DOUBLE);
		put(g->b, ")");
		return;
	}
	if ((fmt == UB_F16 || fmt == UB_BF16) && directed(g, n)) {
		put(g->b, "ub_cast%s_r%c(", fmt == UB_F16 ? "h" : "b", "nudz"[e->rnd]);
		ub_cg_expr(g, a);
		put(g->b, ")");
		return;
	}
	if (fmt == UB_F16 || fmt == UB_BF16) {
		put(g->b, "ub_cast%s(", fmt == UB_F16 ? "h" : "b");
		ub_cg_expr(g, a); /* float or double: one rounding either way */
		put(g->b, ")");
		return;
	}
	if (fmt == UB_F32 && directed(g, n) && ub_cg_type(g, a) == UB_CT_DOUBLE) {
		put(g->b, "(%s)__double2float_r%c(", ub_cg_type_name(g, t), "nudz"[e->rnd]);
		ub_cg_expr(g, a);
		put(g->b, ")");
		return;
	}
	enum ub_cg_type ft = fmt == UB_F64 ? UB_CT_DOUBLE : UB_CT_FLOAT;
	put(g->b, "(%s)((%s)(", ub_cg_type_name(g, t), ub_cg_type_name(g, ft));
	ub_cg_expr(g, a);
	put(g->b, "))");
}

static void arith(struct ub_cg *g, int n)
{
	static const char dir[4] = {'n', 'u', 'd', 'z'};
	const struct ub_expr *e = g->d->node[n];
	enum ub_cg_type t = ub_cg_type(g, n);
	if (directed(g, n) && dir_op[e->op] && t != UB_CT_NATIVE) {
		int d = t == UB_CT_DOUBLE;
		if (e->op == UB_FMA)
			put(g->b, "%s_r%c(", d ? "__fma" : "__fmaf", dir[e->rnd]);
		else
			put(g->b, "__%c%s_r%c(", d ? 'd' : 'f', dir_op[e->op], dir[e->rnd]);
		args(g, n, "", t);
		put(g->b, ")");
	} else if (g->style == UB_CG_PER_OP && rn[e->op] && t != UB_CT_NATIVE) {
		put(g->b, "__%c%s_rn(", t == UB_CT_DOUBLE ? 'd' : 'f', rn[e->op]);
		args(g, n, "", t);
		put(g->b, ")");
	} else if (g->macros && macro[e->op]) {
		put(g->b, "%s(", macro[e->op]);
		args(g, n, "", t);
		put(g->b, ")");
	} else if (infix[e->op]) {
		put(g->b, "(");
		arg(g, n, 0, t);
		put(g->b, " %s ", infix[e->op]);
		arg(g, n, 1, t);
		put(g->b, ")");
	} else if (e->op == UB_NEG) {
		put(g->b, "(-");
		arg(g, n, 0, t);
		put(g->b, ")");
	} else {
		call(g, n);
	}
}

/* ---- loops -------------------------------------------------------------- */

static void temps_of(struct ub_cg *g, int w, int assign)
{
	for (int i = 0; i < w; i++) {
		if (g->owner[i] != w || !ub_cg_temp(g, i))
			continue;
		if (!assign) {
			put(g->b, " %s t%d;", ub_cg_type_name(g, ub_cg_type(g, i)), i);
			continue;
		}
		int body = g->body;
		g->body = i;
		put(g->b, " t%d = ", i);
		ub_cg_expr(g, i);
		put(g->b, ";");
		g->body = body;
	}
}

static void loop(struct ub_cg *g, int w)
{
	const struct ub_expr *e = g->d->node[w];
	int nv = ub_loop_nvars(e->op, e->nargs), seq = e->op == UB_WHILES;
	int scope = g->scope;
	enum ub_cg_type t = ub_cg_type(g, w);
	g->scope = w;
	put(g->b, "([&]() -> %s {", ub_cg_type_name(g, t));
	g->stale[w] = 1; /* while*: the initial values see the earlier ones */
	for (int k = 0; k < nv; k++) {
		int v = ub_dag_arg(g->d, w, UB_LOOP_VAR(nv, k));
		put(g->b, " %s l%d = ", ub_cg_type_name(g, ub_cg_type(g, v)), v);
		ub_cg_expr(g, ub_dag_arg(g->d, w, UB_LOOP_INIT(nv, k)));
		put(g->b, ";");
	}
	g->stale[w] = 0;
	temps_of(g, w, 0);
	put(g->b, " for (long it = 0;; it++) {");
	temps_of(g, w, 1);
	put(g->b, " if (!(");
	ub_cg_expr(g, ub_dag_arg(g->d, w, UB_LOOP_COND(nv)));
	put(g->b, ")) break; if (it == %d) return ", UB_LOOP_MAX);
	nan_of(g, t);
	put(g->b, ";");
	for (int k = 0; k < nv; k++) {
		int v = ub_dag_arg(g->d, w, UB_LOOP_VAR(nv, k));
		if (seq)
			put(g->b, " l%d = ", v);
		else
			put(g->b, " %s n%d = ", ub_cg_type_name(g, ub_cg_type(g, v)), v);
		g->stale[w] = seq && k > 0; /* while*: variables before k changed */
		as(g, ub_dag_arg(g->d, w, UB_LOOP_UPD(nv, k)), ub_cg_type(g, v));
		g->stale[w] = 0;
		put(g->b, ";");
	}
	for (int k = 0; !seq && k < nv; k++) {
		int v = ub_dag_arg(g->d, w, UB_LOOP_VAR(nv, k));
		put(g->b, " l%d = n%d;", v, v);
	}
	put(g->b, " } return ");
	ub_cg_expr(g, ub_dag_arg(g->d, w, UB_LOOP_BODY(nv)));
	put(g->b, "; }())");
	g->scope = scope;
}

/* ---- nodes -------------------------------------------------------------- */

void ub_cg_expr(struct ub_cg *g, int n)
{
	const struct ub_expr *e = g->d->node[n];
	if (n != g->body && ub_cg_temp(g, n) && !(g->owner[n] >= 0 && g->stale[g->owner[n]])) {
		put(g->b, "t%d", n);
		return;
	}
	if (g->b->len > (size_t)g->size_cap) /* written out, it would not end */
		return (void)(g->b->oom = 2);
	switch (e->kind) {
	case UB_E_NUM: constant(g, n); return;
	case UB_E_VAR: put(g->b, "a%d", e->var); return;
	case UB_E_LVAR: put(g->b, "l%d", n); return;
	case UB_E_OP: break;
	}
	if (is_loop(e))
		return loop(g, n);
	int fmt = -1;
	if (!UB_EXPR_IS_BOOL(e->op) && e->op != UB_IF && ub_cg_type(g, n) != UB_CT_NATIVE) {
		if (g->style == UB_CG_PER_OP)
			fmt = per_op_format(g, n);
		else if (e->op != UB_CAST && (e->prec == UB_F16 || e->prec == UB_BF16))
			fmt = e->prec; /* (! :precision binary16 ...): every style rounds there */
	}
	int value = !UB_EXPR_IS_BOOL(e->op) && e->op != UB_IF && e->op != UB_CAST;
	if (value && directed(g, n) && ub_cg_type(g, n) != UB_CT_NATIVE) {
		/* a directed context of a 16-bit format: each result rounded
		 * there in its direction (after the float operation's own, in
		 * the same direction: two directed roundings to nested grids
		 * are one) */
		int f16 = e->prec == UB_PREC_INHERIT ? (int)g->dt : e->prec;
		fmt = f16 == UB_F16 || f16 == UB_BF16 ? f16 : -1;
	}
	if (value && e->prec == UB_PREC_INTEGER) {
		/* an integer context: the result rounded to an integer */
		static const char *const to_int[4] = {"rint", "ceil", "floor", "trunc"};
		put(g->b, "%s(", to_int[e->rnd]);
		arith(g, n);
		put(g->b, ")");
		return;
	}
	int round = fmt >= 0 || (g->style == UB_CG_EVERY_OP && e->op != UB_IF &&
				 e->op != UB_CAST && !UB_EXPR_IS_BOOL(e->op) && half(g->dt));
	if (round && fmt >= 0 && directed(g, n)) /* a 16-bit context, directed */
		put(g->b, "ub_cast%s_r%c(", fmt == UB_F16 ? "h" : "b", "nudz"[e->rnd]);
	else if (round && fmt >= 0 && fmt != (int)g->dt) /* an explicit 16-bit context */
		put(g->b, "ub_cast%s(", fmt == UB_F16 ? "h" : "b");
	else if (round) /* every operator's result rounded to the dtype */
		put(g->b, "ub_r16(");
	if (e->op == UB_IF) {
		enum ub_cg_type t = ub_cg_type(g, n);
		put(g->b, "(");
		ub_cg_expr(g, ub_dag_arg(g->d, n, 0));
		put(g->b, " ? ");
		arg(g, n, 1, t);
		put(g->b, " : ");
		arg(g, n, 2, t);
		put(g->b, ")");
	} else if (UB_EXPR_IS_BOOL(e->op)) {
		condition(g, n);
	} else if (e->op == UB_CAST) {
		cast(g, n);
	} else {
		arith(g, n);
	}
	if (round)
		put(g->b, ")");
}

/* ---- helpers ------------------------------------------------------------ */

int ub_cg_mixed(const struct ub_dag *d)
{
	for (int i = 0; i < d->n; i++)
		if ((d->node[i]->kind == UB_E_OP || d->node[i]->kind == UB_E_NUM) &&
		    (d->node[i]->prec != UB_PREC_INHERIT || d->node[i]->rnd != UB_RND_NE))
			return 1;
	return 0;
}

/* Whether d rounds somewhere in a direction of its own. */
static int any_directed(const struct ub_dag *d)
{
	for (int i = 0; i < d->n; i++)
		if ((d->node[i]->kind == UB_E_OP || d->node[i]->kind == UB_E_NUM) &&
		    d->node[i]->rnd != UB_RND_NE)
			return 1;
	return 0;
}

static int uses_op(const struct ub_dag *d, enum ub_expr_op op)
{
	for (int i = 0; i < d->n; i++)
		if (d->node[i]->kind == UB_E_OP && d->node[i]->op == op)
			return 1;
	return 0;
}

void ub_cg_helpers(struct sbuf *b, const struct ub_dag *d, enum ub_dtype dt,
		   enum ub_cg_style st)
{
	/* 16-bit conversions: the dtype's own, casts and contexts */
	int h = dt == UB_F16 || ub_cg_mixed(d) || uses_op(d, UB_CAST);
	int bf = dt == UB_BF16 || ub_cg_mixed(d) || uses_op(d, UB_CAST);
	if (h)
		put(b, "#include <cuda_fp16.h>\n");
	if (bf)
		put(b, "#include <cuda_bf16.h>\n");
	if (st == UB_CG_EVERY_OP || st == UB_CG_PER_OP)
		put(b, "static __device__ __forceinline__ float ub_r16(float x)\n"
		       "{ return %s; }\n", dt == UB_F16 ? "__half2float(__float2half_rn(x))"
		       : dt == UB_BF16 ? "__bfloat162float(__float2bfloat16_rn(x))" : "x");
	if (h)
		put(b, "static __device__ __forceinline__ float ub_casth(float x)\n"
		       "{ return __half2float(__float2half_rn(x)); }\n"
		       "static __device__ __forceinline__ float ub_casth(double x)\n"
		       "{ return __half2float(__double2half(x)); }\n");
	if (bf)
		put(b, "static __device__ __forceinline__ float ub_castb(float x)\n"
		       "{ return __bfloat162float(__float2bfloat16_rn(x)); }\n"
		       "static __device__ __forceinline__ float ub_castb(double x)\n"
		       "{ return __bfloat162float(__double2bfloat16(x)); }\n");
	for (int k = 1; k < 4 && any_directed(d) && st != UB_CG_PER_OP; k++) {
		char r = "nudz"[k];
		put(b, "static __device__ __forceinline__ float ub_casth_r%c(float x)\n"
		       "{ return __half2float(__float2half_r%c(x)); }\n"
		       "static __device__ __forceinline__ float ub_casth_r%c(double x)\n"
		       "{ return ub_casth_r%c(__double2float_r%c(x)); }\n"
		       "static __device__ __forceinline__ float ub_castb_r%c(float x)\n"
		       "{ return __bfloat162float(__float2bfloat16_r%c(x)); }\n"
		       "static __device__ __forceinline__ float ub_castb_r%c(double x)\n"
		       "{ return ub_castb_r%c(__double2float_r%c(x)); }\n",
		    r, r, r, r, r, r, r, r, r, r);
	}
	if (uses_op(d, UB_ISNORMAL))
		put(b, "static __device__ __forceinline__ bool ub_isnormal(float x, float m)\n"
		       "{ return fabsf(x) >= m && isfinite(x); }\n"
		       "static __device__ __forceinline__ bool ub_isnormal(double x, double m)\n"
		       "{ return fabs(x) >= m && isfinite(x); }\n");
}

/* codegen.c — generate elementwise CUDA C kernels: one per torch plan
 * step, and the kernel under test of ops that have no hand-written one.
 *
 * Example (atan_bwd, step t = s + 1, f32):
 *   extern "C" __global__ void ub_torch_step(const float *v0, const float *v1,
 *       const float *v2, float *out, long long n)
 *   { long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
 *     if (i < n) {
 *       float a2 = v2[i];
 *       out[i] = (a2 + __int_as_float(0x3f800000));  } }
 * Constants are written as bit patterns so no decimal-to-binary
 * conversion by the CUDA front end can differ from ours.  An operation
 * used in several places (a let binding, dag.h) is computed once into a
 * temporary (float t3 = ...;) before the store; the rest is written
 * inline.
 *
 * Three ways to compute (enum style):
 *   ONCE      operands widened to float (double for f64), one rounding to
 *             the dtype at the store: PyTorch's opmath kernels, and the
 *             default kernel under test;
 *   EVERY_OP  f16/bf16 only: every operator's float result rounded to the
 *             dtype at once, constants too (c10::Half / c10::BFloat16
 *             arithmetic, as PyTorch's tanh and sigmoid backward kernels
 *             do: :torch-rounding every-op); f32/f64 as ONCE;
 *   NATIVE    f16/bf16 only, mode native16 (under #ifdef UB_NATIVE16 in
 *             the kernel under test): values stay __half/__nv_bfloat16,
 *             + - * / are their operators (add.f16, mul.bf16, ...; __hdiv),
 *             sqrt rsqrt exp log sin cos tanh fabs fma fmin fmax their
 *             intrinsics (hsqrt, ...), other functions go through float and
 *             round back; constants are rounded once from double. */
#include "codegen.h"
#include "dag.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sbuf {
	char *s;
	size_t len, cap;
	int oom;
};

static void put(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void put(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	for (;;) {
		va_start(ap, fmt);
		int n = vsnprintf(b->s ? b->s + b->len : NULL,
				  b->s ? b->cap - b->len : 0, fmt, ap);
		va_end(ap);
		if (n < 0 || b->oom)
			return;
		if (b->s && b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = (b->cap + (size_t)n + 256) * 2;
		char *ns = realloc(b->s, cap);
		if (!ns) {
			b->oom = 1;
			return;
		}
		b->s = ns;
		b->cap = cap;
	}
}

enum style { ONCE, EVERY_OP, NATIVE };

struct gen {
	struct sbuf *b;
	enum ub_dtype dt;
	enum style style;
	int macros;   /* + - * / through ulpbench.h's UB_ macros */
	const struct ub_dag *d;
	int body;     /* the node being defined: a temporary's own text */
};

/* Whether node i of the dag is computed once into a temporary t<i>: an
 * operation used in more than one place (a let binding's node).  Every
 * other node is written inline where it is used, as before sharing
 * existed, so that the compiler sees the same expressions. */
static int temp(const struct gen *g, int i)
{
	return g->d->node[i]->kind == UB_E_OP && g->d->uses[i] > 1;
}

/* Value of an FPCore constant literal, as a double. */
static double literal(const char *t)
{
	double v;
	if (ub_expr_const(t, &v))
		return v;
	const char *slash = strchr(t, '/');
	if (slash)
		return strtod(t, NULL) / strtod(slash + 1, NULL);
	return strtod(t, NULL);
}

uint64_t ub_codegen_round(enum ub_dtype dt, double d)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	int p = f->prec, e;
	uint64_t sign = (uint64_t)(signbit(d) != 0) << (f->bits - 1);
	uint64_t hidden = (uint64_t)1 << (p - 1);
	uint64_t inf = (uint64_t)(2 * f->emax + 1) << (p - 1);
	if (isnan(d))
		return ((uint64_t)1 << (f->bits - 1)) - 1;
	if (isinf(d) || d == 0)
		return sign | (d == 0 ? 0 : inf);
	frexp(fabs(d), &e);
	e = e - 1 < f->emin ? f->emin : e - 1;   /* |d| in [2^e, 2^(e+1)) */
	/* scaling by a power of two is exact; nearbyint rounds to nearest
	 * even (the mode is round-to-nearest here) */
	uint64_t m = (uint64_t)nearbyint(ldexp(fabs(d), p - 1 - e));
	if (m == 2 * hidden)
		m = hidden, e++;
	if (e > f->emax)
		return sign | inf;
	if (m < hidden)                          /* subnormal */
		return sign | m;
	return sign | (uint64_t)(e - f->emin + 1) << (p - 1) | (m - hidden);
}

static int half(enum ub_dtype dt)
{
	return dt == UB_F16 || dt == UB_BF16;
}

static void constant(const struct gen *g, const char *text)
{
	double d = literal(text);
	if (!strcmp(text, "TRUE") || !strcmp(text, "FALSE")) {
		put(g->b, "%s", d != 0 ? "true" : "false");
		return;
	}
	if (g->dt == UB_F64) {
		uint64_t u;
		memcpy(&u, &d, sizeof u);
		put(g->b, "__longlong_as_double(0x%016llxLL)", (unsigned long long)u);
	} else if (g->style == NATIVE) {
		put(g->b, "%s((unsigned short)0x%04x)", g->dt == UB_F16 ?
		    "__ushort_as_half" : "__ushort_as_bfloat16",
		    (unsigned)ub_codegen_round(g->dt, d));
	} else {
		if (g->style == EVERY_OP) /* the dtype's value, widened exactly */
			d = ub_bits_to_double(g->dt, ub_codegen_round(g->dt, d));
		put(g->b, "__int_as_float(0x%08x)",
		    (unsigned)ub_codegen_round(UB_F32, d));
	}
}

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
/* Native 16-bit functions (cuda_fp16.h and cuda_bf16.h name them alike). */
static const char *const native_fn[UB_NOPS] = {
	[UB_SQRT] = "hsqrt", [UB_RSQRT] = "hrsqrt", [UB_EXP] = "hexp",
	[UB_LOG] = "hlog", [UB_SIN] = "hsin", [UB_COS] = "hcos",
	[UB_TANH] = "htanh", [UB_FABS] = "__habs", [UB_FMA] = "__hfma",
	[UB_FMIN] = "__hmin", [UB_FMAX] = "__hmax",
};

static void expr(const struct gen *g, int i);

static void arg(const struct gen *g, int i, int k)
{
	expr(g, ub_dag_arg(g->d, i, k));
}

static void args(const struct gen *g, int n, const char *wrap)
{
	const struct ub_expr *e = g->d->node[n];
	for (int i = 0; i < e->nargs; i++) {
		put(g->b, i ? ", %s" : "%s", wrap);
		arg(g, n, i);
		put(g->b, "%s", wrap[0] ? ")" : "");
	}
}

/* A function call: float (double) math library, a native 16-bit
 * intrinsic, or the float function between conversions. */
static void call(const struct gen *g, int n)
{
	const struct ub_expr *e = g->d->node[n];
	const char *f = ub_expr_ops[e->op].cfun;
	if (g->style == NATIVE && native_fn[e->op]) {
		put(g->b, "%s(", native_fn[e->op]);
		args(g, n, "");
	} else if (g->style == NATIVE) {
		int bf = g->dt == UB_BF16;
		put(g->b, "%s(%s(", bf ? "__float2bfloat16_rn" : "__float2half_rn", f);
		args(g, n, bf ? "__bfloat162float(" : "__half2float(");
		put(g->b, ")");
	} else { /* the double function drops the trailing 'f' */
		put(g->b, "%.*s(", (int)(strlen(f) - (g->dt == UB_F64)), f);
		args(g, n, "");
	}
	put(g->b, ")");
}

/* The text of node n: its temporary's name, or the expression itself.
 * Recursion is bounded by the expression's depth (dag.h). */
static void expr(const struct gen *g, int n)
{
	const struct ub_expr *e = g->d->node[n];
	if (n != g->body && temp(g, n)) {
		put(g->b, "t%d", n);
		return;
	}
	switch (e->kind) {
	case UB_E_NUM: constant(g, e->num); return;
	case UB_E_VAR: put(g->b, "a%d", e->var); return;
	case UB_E_OP: break;
	}
	int round = g->style == EVERY_OP && e->op != UB_IF && !UB_EXPR_IS_BOOL(e->op);
	if (round) /* every operator's result rounded to the dtype */
		put(g->b, "ub_r16(");
	if (e->op == UB_IF) {
		put(g->b, "(");
		for (int i = 0; i < 3; i++) {
			put(g->b, i == 1 ? " ? " : i == 2 ? " : " : "");
			arg(g, n, i);
		}
		put(g->b, ")");
	} else if (infix[e->op] && g->macros && macro[e->op]) {
		put(g->b, "%s(", macro[e->op]);
		args(g, n, "");
		put(g->b, ")");
	} else if (infix[e->op]) {
		put(g->b, "(");
		arg(g, n, 0);
		put(g->b, " %s ", infix[e->op]);
		arg(g, n, 1);
		put(g->b, ")");
	} else if (e->op == UB_NEG || e->op == UB_NOT) {
		put(g->b, e->op == UB_NEG ? "(-" : "(!");
		arg(g, n, 0);
		put(g->b, ")");
	} else {
		call(g, n);
	}
	if (round)
		put(g->b, ")");
}

/* Load of element i of array v<k> into opmath, and the rounding store. */
static const char *const load_fmt[UB_NDTYPES] = {
	[UB_F32] = "v%d[i]", [UB_F64] = "v%d[i]",
	[UB_F16] = "__half2float(v%d[i])", [UB_BF16] = "__bfloat162float(v%d[i])",
};
static const char *const store_fmt[UB_NDTYPES] = {
	[UB_F32] = "%s", [UB_F64] = "%s",
	[UB_F16] = "__float2half_rn(%s)", [UB_BF16] = "__float2bfloat16_rn(%s)",
};

static void uses(const struct ub_dag *d, int *used, int nenv)
{
	for (int i = 0; i < d->n; i++)
		if (d->node[i]->kind == UB_E_VAR && d->node[i]->var < nenv)
			used[d->node[i]->var] = 1;
}

#define MAX_ENV (UB_MAX_INPUTS + 64)

/* The loads, the temporaries (in dag order: each after what it uses) and
 * the store of one element in style st. */
static void body(struct sbuf *b, int nenv, const int *used,
		 const struct ub_dag *d, enum ub_dtype dt, enum style st,
		 int macros)
{
	struct sbuf x = {0};
	struct gen g = {b, dt, st, macros, d, -1};
	const char *T = st == NATIVE ? ub_dtypes[dt].ctype
				     : dt == UB_F64 ? "double" : "float";
	for (int v = 0; v < nenv; v++) {
		if (!used[v])
			continue;
		put(b, "        %s a%d = ", T, v);
		put(b, st == NATIVE ? "v%d[i]" : load_fmt[dt], v);
		put(b, ";\n");
	}
	for (int i = 0; i < d->n - 1; i++) {
		if (!temp(&g, i))
			continue;
		g.body = i;
		put(b, "        %s t%d = ", ub_expr_type_of(d->node[i]) == UB_T_BOOL
						? "bool" : T, i);
		expr(&g, i);
		put(b, ";\n");
	}
	g.b = &x;
	g.body = d->n - 1;
	expr(&g, d->n - 1);
	put(b, "        out[i] = ");
	put(b, st == NATIVE ? "%s" : store_fmt[dt], x.s ? x.s : "");
	put(b, ";\n");
	b->oom |= x.oom;
	free(x.s);
}

/* The helper EVERY_OP calls: a float rounded to the dtype and back. */
static void r16_helper(struct sbuf *b, enum ub_dtype dt)
{
	put(b, "static __device__ __forceinline__ float ub_r16(float x)\n"
	       "{ return %s; }\n", dt == UB_F16 ? "__half2float(__float2half_rn(x))"
					    : "__bfloat162float(__float2bfloat16_rn(x))");
}

/* One elementwise kernel: out[i] = e(v0[i], ..., v<nenv-1>[i]) over a
 * grid-stride loop, in style st; with `native`, the kernel under test of a
 * 16-bit dtype, which also holds the NATIVE style under UB_NATIVE16. */
static int elementwise(const char *comment, const char *entry, int nenv,
		       const struct ub_expr *e, enum ub_dtype dt, enum style st,
		       int macros, int native, char **src, struct ub_error *err)
{
	const char *T = ub_dtypes[dt].ctype;
	int used[MAX_ENV] = {0};
	const struct ub_dag *d;
	if (nenv > MAX_ENV)
		return ub_fail(err, UB_USAGE, "%s: too many operands", comment);
	int s = ub_expr_dag(e, &d, err);
	if (s)
		return s;
	if (!half(dt))
		st = ONCE, native = 0;
	uses(d, used, nenv);
	struct sbuf b = {0};
	put(&b, "/* %s (%s) */\n", comment, ub_dtypes[dt].name);
	if (macros)
		put(&b, "#include \"ulpbench.h\"\n");
	if (dt == UB_F16)
		put(&b, "#include <cuda_fp16.h>\n");
	if (dt == UB_BF16)
		put(&b, "#include <cuda_bf16.h>\n");
	if (st == EVERY_OP)
		r16_helper(&b, dt);
	put(&b, "extern \"C\" __global__ void %s(", entry);
	for (int v = 0; v < nenv; v++)
		put(&b, "const %s *v%d, ", T, v);
	put(&b, "%s *out, long long n)\n{\n", T);
	/* one thread per element, as every launch is (sim.h): a grid-stride
	 * loop would cost the interpreter its setup (a division, ~30
	 * instructions) per thread for nothing */
	put(&b, "    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
		"    if (i < n) {\n");
	if (native) {
		put(&b, "#ifdef UB_NATIVE16\n");
		body(&b, nenv, used, d, dt, NATIVE, macros);
		put(&b, "#else\n");
	}
	body(&b, nenv, used, d, dt, st, macros);
	if (native)
		put(&b, "#endif\n");
	put(&b, "    }\n}\n");
	if (b.oom) {
		free(b.s);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	*src = b.s;
	return 0;
}

int ub_codegen_step(const struct ub_op *op, int k, enum ub_dtype dt,
		    char **src, struct ub_error *err)
{
	char comment[256];
	snprintf(comment, sizeof comment, "torch plan of %s, step %s: one "
		 "PyTorch elementwise kernel%s", op->name, op->torch[k].name,
		 op->torch[k].every_op && half(dt) ? ", every operator rounded "
		 "to the dtype" : "");
	return elementwise(comment, UB_STEP_ENTRY, op->ninputs + k,
			   op->torch[k].e, dt, op->torch[k].every_op ? EVERY_OP : ONCE,
			   0, 0, src, err);
}

int ub_codegen_kernel(const struct ub_op *op, enum ub_dtype dt, char **src,
		      struct ub_error *err)
{
	char comment[256];
	snprintf(comment, sizeof comment, "%s: kernel generated from the op's "
		 "%s, computed in float (double for f64), rounded once%s",
		 op->name, op->kernel_expr ? ":kernel-expr" : "math",
		 half(dt) ? "; with UB_NATIVE16 in the 16-bit type itself" : "");
	return elementwise(comment, UB_KERNEL_ENTRY, op->ninputs,
			   op->kernel_expr ? op->kernel_expr : op->math, dt, ONCE,
			   1, 1, src, err);
}

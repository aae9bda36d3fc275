/* codegen.c — generate elementwise CUDA C kernels: one per torch plan
 * step, and the kernel under test of ops that have no hand-written one.
 *
 * Example (atan_bwd, step t = s + 1, f32):
 *   extern "C" __global__ void ub_torch_step(const float *v0, const float *v1,
 *       const float *v2, float *out, long long n)
 *   { for (long long i = ...; i < n; i += ...) {
 *       float a2 = v2[i];
 *       out[i] = (a2 + __int_as_float(0x3f800000));  } }
 * Constants are written as bit patterns so no decimal-to-binary
 * conversion by the CUDA front end can differ from ours. */
#include "codegen.h"

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

static void constant(struct sbuf *b, const char *text, int dbl)
{
	double d = literal(text);
	if (!strcmp(text, "TRUE") || !strcmp(text, "FALSE")) {
		put(b, "%s", d != 0 ? "true" : "false");
		return;
	}
	if (dbl) {
		uint64_t u;
		memcpy(&u, &d, sizeof u);
		put(b, "__longlong_as_double(0x%016llxLL)", (unsigned long long)u);
	} else {
		float f = (float)d;
		uint32_t u;
		memcpy(&u, &f, sizeof u);
		put(b, "__int_as_float(0x%08x)", u);
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

static void expr(struct sbuf *b, const struct ub_expr *e, int dbl, int macros)
{
	switch (e->kind) {
	case UB_E_NUM: constant(b, e->num, dbl); return;
	case UB_E_VAR: put(b, "a%d", e->var); return;
	case UB_E_OP: break;
	}
	if (e->op == UB_IF) { /* (c ? a : b) */
		put(b, "(");
		for (int i = 0; i < 3; i++) {
			expr(b, e->args[i], dbl, macros);
			put(b, i == 0 ? " ? " : i == 1 ? " : " : ")");
		}
		return;
	}
	if (infix[e->op]) {
		int m = macros && macro[e->op];
		put(b, m ? "%s(" : "(", macro[e->op]);
		expr(b, e->args[0], dbl, macros);
		put(b, m ? ", " : " %s ", infix[e->op]);
		expr(b, e->args[1], dbl, macros);
		put(b, ")");
		return;
	}
	if (e->op == UB_NEG || e->op == UB_NOT) {
		put(b, e->op == UB_NEG ? "(-" : "(!");
		expr(b, e->args[0], dbl, macros);
		put(b, ")");
		return;
	}
	/* float function name; the double one drops the trailing 'f' */
	const char *f = ub_expr_ops[e->op].cfun;
	put(b, "%.*s(", (int)(strlen(f) - (size_t)dbl), f);
	for (int i = 0; i < e->nargs; i++) {
		if (i)
			put(b, ", ");
		expr(b, e->args[i], dbl, macros);
	}
	put(b, ")");
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

static void uses(const struct ub_expr *e, int *used)
{
	if (e->kind == UB_E_VAR)
		used[e->var] = 1;
	for (int i = 0; e->kind == UB_E_OP && i < e->nargs; i++)
		uses(e->args[i], used);
}

#define MAX_ENV (UB_MAX_INPUTS + 64)

/* One elementwise kernel: out[i] = e(v0[i], ..., v<nenv-1>[i]), operands
 * widened to opmath, one rounding to dt at the store, grid-stride loop. */
static int elementwise(const char *comment, const char *entry, int nenv,
		       const struct ub_expr *e, enum ub_dtype dt, int macros,
		       char **src, struct ub_error *err)
{
	const char *T = ub_dtypes[dt].ctype;
	int dbl = dt == UB_F64, used[MAX_ENV] = {0};
	if (nenv > MAX_ENV)
		return ub_fail(err, UB_USAGE, "%s: too many operands", comment);
	uses(e, used);
	struct sbuf b = {0}, body = {0};
	put(&b, "/* %s (%s) */\n", comment, ub_dtypes[dt].name);
	if (macros)
		put(&b, "#include \"ulpbench.h\"\n");
	if (dt == UB_F16)
		put(&b, "#include <cuda_fp16.h>\n");
	if (dt == UB_BF16)
		put(&b, "#include <cuda_bf16.h>\n");
	put(&b, "extern \"C\" __global__ void %s(", entry);
	for (int v = 0; v < nenv; v++)
		put(&b, "const %s *v%d, ", T, v);
	put(&b, "%s *out, long long n)\n{\n", T);
	put(&b, "    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
		"         i < n; i += (long long)blockDim.x * gridDim.x) {\n");
	for (int v = 0; v < nenv; v++) {
		if (!used[v])
			continue;
		put(&b, "        %s a%d = ", dbl ? "double" : "float", v);
		put(&b, load_fmt[dt], v);
		put(&b, ";\n");
	}
	expr(&body, e, dbl, macros);
	put(&b, "        out[i] = ");
	put(&b, store_fmt[dt], body.s ? body.s : "");
	put(&b, ";\n    }\n}\n");
	free(body.s);
	if (b.oom || body.oom) {
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
		 "PyTorch elementwise kernel", op->name, op->torch[k].name);
	return elementwise(comment, UB_STEP_ENTRY, op->ninputs + k,
			   op->torch[k].e, dt, 0, src, err);
}

int ub_codegen_kernel(const struct ub_op *op, enum ub_dtype dt, char **src,
		      struct ub_error *err)
{
	char comment[256];
	snprintf(comment, sizeof comment, "%s: kernel generated from the op's "
		 "math, computed in float (double for f64), rounded once", op->name);
	return elementwise(comment, UB_KERNEL_ENTRY, op->ninputs, op->math, dt,
			   1, src, err);
}

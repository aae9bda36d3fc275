/* codegen.c — generate elementwise CUDA C kernels: one per torch plan
 * step, and the kernel under test of ops that have no hand-written one.
 *
 * Example (atan_bwd, step t = s + 1, f32):
 *   extern "C" __global__ void ub_torch_step(const float *v0, const float *v1,
 *       const float *v2, float *out, long long n)
 *   { long long i0 = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * 4;
 *     if (i0 + 4 <= n) {
 *   #pragma unroll
 *       for (int j = 0; j < 4; j++) {
 *         long long i = i0 + j;
 *         float a2 = v2[i];
 *         out[i] = (a2 + __int_as_float(0x3f800000)); }
 *     } else {
 *       for (int j = 0; j < 4; j++) {
 *         long long i = i0 + j;
 *         if (i >= n) break;
 *         float a2 = v2[i];
 *         out[i] = (a2 + __int_as_float(0x3f800000)); } } }
 * (UB_STEP_PER_THREAD elements a thread, tested against n only in the
 * thread that holds the last one, as PyTorch's vectorized kernels test
 * only a partial block; a generated kernel under test does one, its
 * launch being the default, one thread per element).
 * Constants are written as bit patterns so no decimal-to-binary
 * conversion by the CUDA front end can differ from ours.  An operation
 * used in several places (a let binding, dag.h) is computed once into a
 * temporary (float t3 = ...;) before the store; the rest is written
 * inline.
 *
 * Four ways to compute (enum ub_cg_style):
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
 *             round back; constants are rounded once from double (an
 *             expression with rounding contexts of its own stays ONCE);
 *   PER_OP    the torch plan derived without :torch: every operation is
 *             one PyTorch kernel, computed in opmath and rounded to the
 *             dtype (f16/bf16: ub_r16; a context of its own: its format),
 *             + - * / as __fadd_rn ... (__dadd_rn in double) so that no two
 *             fuse: the chain of kernels' bits in one kernel.
 * Expressions, loops and types are codegen_expr.c's. */
#include "codegen_internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ub_cg_put(struct sbuf *b, const char *fmt, ...)
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

/* Load of element i of array v<k> into opmath, and the rounding store
 * (from float, or from double where the expression's value is one). */
static const char *const load_fmt[UB_NDTYPES] = {
	[UB_F32] = "v%d[i]", [UB_F64] = "v%d[i]",
	[UB_F16] = "__half2float(v%d[i])", [UB_BF16] = "__bfloat162float(v%d[i])",
};
static const char *const store_fmt[UB_NDTYPES] = {
	[UB_F32] = "%s", [UB_F64] = "%s",
	[UB_F16] = "__float2half_rn(%s)", [UB_BF16] = "__float2bfloat16_rn(%s)",
};
static const char *const store_double_fmt[UB_NDTYPES] = {
	[UB_F32] = "(float)(%s)", [UB_F64] = "%s",
	[UB_F16] = "__double2half(%s)", [UB_BF16] = "__double2bfloat16(%s)",
};

static void uses(const struct ub_dag *d, int *used, int nenv)
{
	for (int i = 0; i < d->n; i++)
		if (d->node[i]->kind == UB_E_VAR && d->node[i]->var < nenv)
			used[d->node[i]->var] = 1;
}

#define MAX_ENV (UB_MAX_INPUTS + 64)
/* Generated text beyond this (an expression written out inline): too
 * large to compile. */
#define SIZE_CAP (8 << 20)

/* The loads, the temporaries (in dag order: each after what it uses) and
 * the store of one element in style st. */
static int body(struct sbuf *b, int nenv, const int *used,
		const struct ub_dag *d, enum ub_dtype dt, enum ub_cg_style st,
		int macros)
{
	struct sbuf x = {0};
	struct ub_cg g = {b, dt, st, macros, d, -1, -1, NULL, NULL, NULL, NULL, SIZE_CAP};
	if (ub_cg_init(&g, d)) {
		ub_cg_free(&g);
		return b->oom = 1;
	}
	const char *T = st == UB_CG_NATIVE ? ub_dtypes[dt].ctype
					   : dt == UB_F64 ? "double" : "float";
	for (int v = 0; v < nenv; v++) {
		if (!used[v])
			continue;
		ub_cg_put(b, "        %s a%d = ", T, v);
		ub_cg_put(b, st == UB_CG_NATIVE ? "v%d[i]" : load_fmt[dt], v);
		ub_cg_put(b, ";\n");
	}
	for (int i = 0; i < d->n - 1; i++) {
		if (!ub_cg_temp(&g, i) || g.owner[i] >= 0)
			continue; /* the loops' own are inside them */
		g.body = i;
		ub_cg_put(b, "        %s t%d = ", ub_cg_type_name(&g, ub_cg_type(&g, i)), i);
		ub_cg_expr(&g, i);
		ub_cg_put(b, ";\n");
	}
	g.b = &x;
	g.body = d->n - 1;
	ub_cg_expr(&g, d->n - 1);
	ub_cg_put(b, "        out[i] = ");
	ub_cg_put(b, st == UB_CG_NATIVE ? "%s" : ub_cg_type(&g, d->n - 1) == UB_CT_DOUBLE
		  ? store_double_fmt[dt] : store_fmt[dt], x.s ? x.s : "");
	ub_cg_put(b, ";\n");
	if (x.oom > b->oom)
		b->oom = x.oom;
	free(x.s);
	ub_cg_free(&g);
	return b->oom;
}

/* One elementwise kernel: out[i] = e(v0[i], ..., v<nenv-1>[i]), `per`
 * consecutive elements a thread, in style st; with `native`, the kernel
 * under test of a 16-bit dtype, which also holds the NATIVE style under
 * UB_NATIVE16. */
static int elementwise(const char *comment, const char *entry, int nenv,
		       const struct ub_expr *e, enum ub_dtype dt, enum ub_cg_style st,
		       int macros, int native, int per, char **src, struct ub_error *err)
{
	const char *T = ub_dtypes[dt].ctype;
	int used[MAX_ENV] = {0};
	const struct ub_dag *d;
	if (nenv > MAX_ENV)
		return ub_fail(err, UB_USAGE, "%s: too many operands", comment);
	int s = ub_expr_dag(e, &d, err);
	if (s)
		return s;
	if (!half(dt) && st == UB_CG_EVERY_OP)
		st = UB_CG_ONCE;
	if (!half(dt) || ub_cg_mixed(d))
		native = 0;
	uses(d, used, nenv);
	struct sbuf b = {0};
	ub_cg_put(&b, "/* %s (%s) */\n", comment, ub_dtypes[dt].name);
	if (macros)
		ub_cg_put(&b, "#include \"ulpbench.h\"\n");
	ub_cg_helpers(&b, d, dt, st);
	ub_cg_put(&b, "extern \"C\" __global__ void %s(", entry);
	for (int v = 0; v < nenv; v++)
		ub_cg_put(&b, "const %s *v%d, ", T, v);
	ub_cg_put(&b, "%s *out, long long n)\n{\n", T);
	/* per > 1: the elements of a thread whose last one is inside n
	 * without a test each (every thread's but the last's), the others
	 * each tested; the same element's same code either way */
	for (int pass = per > 1 ? 0 : 1; pass < 2; pass++) {
		if (per == 1)
			ub_cg_put(&b, "    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
				  "    if (i < n) {\n");
		else if (pass == 0)
			ub_cg_put(&b, "    long long i0 = (blockIdx.x * (long long)blockDim.x + threadIdx.x) * %d;\n"
				  "    if (i0 + %d <= n) {\n"
				  "#pragma unroll\n"
				  "      for (int j = 0; j < %d; j++) {\n"
				  "        long long i = i0 + j;\n", per, per, per);
		else
			ub_cg_put(&b, "    } else {\n"
				  "      for (int j = 0; j < %d; j++) {\n"
				  "        long long i = i0 + j;\n"
				  "        if (i >= n) break;\n", per);
		if (native) {
			ub_cg_put(&b, "#ifdef UB_NATIVE16\n");
			body(&b, nenv, used, d, dt, UB_CG_NATIVE, macros);
			ub_cg_put(&b, "#else\n");
		}
		body(&b, nenv, used, d, dt, st, macros);
		if (native)
			ub_cg_put(&b, "#endif\n");
		if (per > 1)
			ub_cg_put(&b, "      }\n");
	}
	ub_cg_put(&b, "    }\n}\n");
	if (b.oom) {
		free(b.s);
		return b.oom == 2 ? ub_fail(err, UB_USAGE, "%s: the generated kernel "
					    "would exceed %d MB", comment, SIZE_CAP >> 20)
				  : ub_fail(err, UB_RUNTIME, "out of memory");
	}
	*src = b.s;
	return 0;
}

int ub_codegen_step(const struct ub_op *op, int k, enum ub_dtype dt,
		    char **src, struct ub_error *err)
{
	char comment[256];
	const struct ub_plan_step *s = &op->torch[k];
	snprintf(comment, sizeof comment, "torch plan of %s, step %s: %s",
		 op->name, s->name, s->per_op ? "every operation one PyTorch "
		 "kernel, rounded to the dtype, none fused" : s->every_op && half(dt)
		 ? "one PyTorch elementwise kernel, every operator rounded to the "
		 "dtype" : "one PyTorch elementwise kernel");
	return elementwise(comment, UB_STEP_ENTRY, op->ninputs + k, s->e, dt,
			   s->per_op ? UB_CG_PER_OP : s->every_op ? UB_CG_EVERY_OP
			   : UB_CG_ONCE, 0, 0, UB_STEP_PER_THREAD, src, err);
}

int ub_codegen_kernel(const struct ub_op *op, enum ub_dtype dt, char **src,
		      struct ub_error *err)
{
	char comment[256];
	snprintf(comment, sizeof comment, "%s: kernel generated from the op's "
		 "%s, computed in float (double for f64), rounded once%s",
		 op->name, op->has_spec ? "body" : op->kernel_expr ? ":kernel-expr" : "math",
		 half(dt) ? "; with UB_NATIVE16 in the 16-bit type itself" : "");
	return elementwise(comment, UB_KERNEL_ENTRY, op->ninputs,
			   op->kernel_expr ? op->kernel_expr : op->math, dt, UB_CG_ONCE,
			   1, 1, 1, src, err);
}

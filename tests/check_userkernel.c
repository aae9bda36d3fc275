/* check_userkernel.c — testing the user's own kernel: the signature reader
 * (src/compile/kernel_sig.c), the binding rules (src/compile/user_kernel.c), and a kernel
 * that is not in the catalog (tests/data/user/acosh_bwd.cu, for an op
 * defined in tests/data/user/acosh_bwd.fpcore) run through every mode.
 *
 * The oracle for the IEEE-exact modes is host C built with
 * -ffp-contract=off: fmaf() where the PTX has fma.rn.f32, separate float
 * operations through volatile where it rounds each step, sqrtf (correctly
 * rounded), and .ftz modelled by flushing subnormal operands and results.
 * The PTX each mode produces was read with nvcc -ptx (CUDA 13.0, see the
 * kernel's header comment): fma: fma.rn(x, x, -1), sqrt.rn, div.rn;
 * nofma: mul.rn, add.rn(p, -1), sqrt.rn, div.rn; rn: mul.rn, sub.rn(p, 1),
 * sqrt.rn, div.rn; ftz: the fma forms with .ftz; approxdiv: div.full;
 * approxsqrt: sqrt.approx; fastmath: sqrt.approx.ftz, div.approx.ftz.
 * Host NaNs differ in bits from the GPU's canonical 0x7fffffff, so a NaN
 * is expected as exactly that encoding. */
#include "suites.h"
#include "check_bits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_sig.h"
#include "report.h"
#include "run.h"
#include "user_kernel.h"

/* --- the signature reader ------------------------------------------- */

/* "C|" or "C++|", "T|" for a template, then per parameter "name:type"
 * (the type as written, blanks squeezed). */
static const char *summary(const struct ub_kdecl *d, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "%s|%s", d->extern_c ? "C" : "C++",
				       d->is_template ? "T|" : "");
	for (int i = 0; i < d->nparams && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s:%s", i ? " " : "",
					 d->params[i].name, d->params[i].type);
	return buf;
}

/* Expected summaries by hand from each source. */
static const struct {
	const char *src;
	int n;             /* declarations found */
	int pick;          /* the one summarized */
	const char *want_name, *want;
} sigs[] = {
	{"extern \"C\" __global__ void k(const float *x, float *__restrict__ out, long long n) {}",
	 1, 0, "k", "C|x:const float* out:float* __restrict__ n:long long"},
	{"extern \"C\" {\n__global__ void __launch_bounds__(128, 2)\nk(float const* a, double *b,\n"
	 "  unsigned int n, size_t m) { }\n}", 1, 0, "k",
	 "C|a:float const* b:double* n:unsigned int m:size_t"},
	/* kernels in comments, strings and #define lines do not count;
	 * T name[] is a pointer; a default value is ignored */
	{"// __global__ void fake(int a)\n/* __global__ void fake2() */\n"
	 "#define K \"__global__ void fake3(\"\nconst char *s = \"__global__ void fake4(\";\n"
	 "extern \"C\" __global__ void real(float x[], int n = 0) {}",
	 1, 0, "real", "C|x:float* n:int"},
	/* a prototype without names, then the definition */
	{"extern \"C\" __global__ void k(float *, int);\n"
	 "extern \"C\" __global__ void k(float *p, int n) { }", 2, 1, "k", "C|p:float* n:int"},
	{"extern \"C\" __global__ void k(void) {}", 1, 0, "k", "C|"},
	{"__global__ void cpp(float *p) {}\nextern \"C\" __global__ void c(float *q) {}",
	 2, 0, "cpp", "C++|p:float*"},
	{"void __global__ after(double *d, long n) {}", 1, 0, "after", "C++|d:double* n:long"},
	/* templates, their parameter types and defaults as written */
	{"template <typename scalar_t, int N = 4>\n__global__ void t(scalar_t *p, "
	 "std::map<int, float> m, int64_t n = N) {}", 1, 0, "t",
	 "C++|T|p:scalar_t* m:std::map<int, float> n:int64_t"},
	{"namespace ns {\ntemplate <class T> __global__ void __launch_bounds__(256)\n"
	 "k(const T* __restrict__ x, T *y, float alpha) {}\n}", 1, 0, "k",
	 "C++|T|x:const T* __restrict__ y:T* alpha:float"},
};

START_TEST(test_signatures)
{
	struct ub_kdecl d[8];
	struct ub_error err = {""};
	char buf[512];
	int n = 0;
	int st = ub_ksig_scan(sigs[_i].src, "k.cu", d, 8, &n, &err);
	ck_assert_msg(st == 0, "%s: %s", sigs[_i].src, err.msg);
	ck_assert_int_eq(n, sigs[_i].n);
	ck_assert_str_eq(d[sigs[_i].pick].name, sigs[_i].want_name);
	ck_assert_str_eq(summary(&d[sigs[_i].pick], buf, sizeof buf), sigs[_i].want);
}
END_TEST

START_TEST(test_signature_details)
{
	struct ub_kdecl d[8];
	struct ub_error err;
	int n;
	ck_assert_int_eq(ub_ksig_scan(sigs[1].src, "k.cu", d, 8, &n, &err), 0);
	ck_assert_int_eq(d[0].line, 3); /* the line of the name */
	ck_assert_int_eq(d[0].has_body, 1);
	ck_assert_int_eq(ub_ksig_scan(sigs[3].src, "k.cu", d, 8, &n, &err), 0);
	ck_assert_int_eq(d[0].unnamed, 1);  /* the prototype's first parameter */
	ck_assert_int_eq(d[0].has_body, 0);
	ck_assert_int_eq(d[1].unnamed, 0);
}
END_TEST

START_TEST(test_uses_macros)
{
	const char *k = "extern \"C\" __global__ void k(float *p) { p[0] = ";
	char src[512];
	const struct { const char *pre, *body; int want; } t[] = {
		{"#include \"ulpbench.h\"\n", "UB_MUL(p[0], 2.f); }", 1},
		{"#  include <ulpbench.h>\n", "UB_DIV(p[0], 2.f); }", 1},
		{"#include \"ulpbench.h\"\n", "p[0] * 2.f; }", 0},        /* unused */
		{"", "UB_MUL(p[0], 2.f); }", 0},     /* its own UB_MUL, not ours */
		{"// #include \"ulpbench.h\"\n", "UB_ADD(p[0], 2.f); }", 0},
		{"#include \"ulpbench.h\"\n", "p[0]; /* UB_SUB */ }", 0},
	};
	for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
		snprintf(src, sizeof src, "%s%s%s", t[i].pre, k, t[i].body);
		ck_assert_msg(ub_ksig_uses_macros(src) == t[i].want, "%s", src);
	}
}
END_TEST

/* --- binding, and the kernel through every mode ------------------------ */

static struct ub_catalog cat;

static void load(void)
{
	struct ub_error err;
	int s = ub_catalog_load(SRCDIR "/tests/data/user/acosh_bwd.fpcore", &cat, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
}

static void unload(void)
{
	ub_catalog_free(&cat);
}

/* din = dout / sqrt(in*in - 1) as each mode's PTX computes it. */
static float host_acosh_bwd(enum ub_mode mode, float x, float g)
{
	volatile float p, t, s, q;
	switch (mode) {
	case UB_MODE_FMA:
		t = fmaf(x, x, -1.0f);
		s = sqrtf(t);
		return q = g / s;
	case UB_MODE_FTZ:
		x = flush(x);
		t = flush(fmaf(x, x, -1.0f));
		s = flush(sqrtf(t));
		return flush(q = flush(g) / s);
	default: /* nofma, rn, and the torch plan's four kernels */
		p = x * x;
		t = p - 1.0f;
		s = sqrtf(t);
		return q = g / s;
	}
}

/* Ordered-integer distance of two finite floats. */
static int64_t dist(uint32_t a, uint32_t b)
{
	int64_t oa = a >> 31 ? -(int64_t)(a & 0x7fffffff) : (int64_t)a;
	int64_t ob = b >> 31 ? -(int64_t)(b & 0x7fffffff) : (int64_t)b;
	return oa > ob ? oa - ob : ob - oa;
}

static void expect_host(const struct ub_array *out, const struct ub_data *d,
			enum ub_mode mode, const char *what)
{
	for (size_t i = 0; i < out->n; i++) {
		float x = f32((uint32_t)ub_array_get(&d->in[0], i));
		float g = f32((uint32_t)ub_array_get(&d->in[1], i));
		float want = host_acosh_bwd(mode, x, g);
		uint32_t got = (uint32_t)ub_array_get(out, i);
		uint32_t w = isnan(want) ? 0x7fffffffu : bits(want);
		UB_ASSERT(got == w, "%s: x=%a (0x%08x) g=%a (0x%08x): sim 0x%08x, "
			  "host 0x%08x", what, x, bits(x), g, bits(g), got, w);
	}
}

/* The approximate modes: within the documented error of the IEEE result
 * (div.full 2 ulp, sqrt.approx 2^-23 relative: the quotient moves by at
 * most about 1 ulp more) where everything stays normal and the divisor is
 * in [2^-126, 2^126] (div.approx's range). */
static void expect_near(const struct ub_array *out, const struct ub_data *d,
			const char *what)
{
	size_t checked = 0;
	for (size_t i = 0; i < out->n; i++) {
		float x = f32((uint32_t)ub_array_get(&d->in[0], i));
		float g = f32((uint32_t)ub_array_get(&d->in[1], i));
		float s = sqrtf(fmaf(x, x, -1.0f)), want = host_acosh_bwd(UB_MODE_FMA, x, g);
		if (!isnormal(x) || !isnormal(g) || !isnormal(want) ||
		    !(fabsf(s) >= 0x1p-126f && fabsf(s) <= 0x1p126f))
			continue;
		uint32_t got = (uint32_t)ub_array_get(out, i);
		ck_assert_msg(dist(got, bits(want)) <= 3, "%s: x=%a g=%a: sim 0x%08x, "
			      "IEEE 0x%08x", what, x, g, got, bits(want));
		checked++;
	}
	ck_assert_msg(checked > out->n / 10, "%s: only %zu checked", what, checked);
}

static const struct {
	const char *file, *spec;
	int rn_applies;
} kernels[] = {
	/* grid-stride, UB_ macros, params (in, dout, din, long long N) */
	{"acosh_bwd.cu", "in=x,dout=g,din=out,N=n", 1},
	/* one thread per element, no macros, (din, in, int N, dout) */
	{"acosh_bwd_plain.cu", "N=n, din=out, in=x, dout=g", 0},
};

/* Loop index: kernel _i / 2, compiled for compute_90 (even: the sim runs
 * the approximate instructions through their models measured on an sm_90
 * GPU, exact there) or compute_80 (odd: modelled, rows flagged). */
START_TEST(test_every_mode)
{
	struct ub_op op = *ub_catalog_find(&cat, "user_acosh_bwd");
	int measured = _i % 2 == 0;
	struct ub_config cfg = {
		.op = &op, .ndtypes = 1, .dtypes = {UB_F32}, .nmodes = UB_NMODES,
		.n = 20000, .seed = 11, .arch = measured ? "compute_90" : "compute_80",
		.backend = "sim",
	};
	struct ub_user_kernel uk;
	struct ub_result res;
	struct ub_error err = {""};
	char path[512], approx[128];
	for (int m = 0; m < UB_NMODES; m++)
		cfg.modes[m] = (enum ub_mode)m;
	for (int k = 0; k < 2; k++) /* every value: NaN results, overflow too */
		op.dom[k] = (struct ub_domain){.lo = -INFINITY, .hi = INFINITY};
	snprintf(path, sizeof path, "%s/tests/data/user/%s", SRCDIR, kernels[_i / 2].file);
	struct ub_kernel_req req = { path, NULL, kernels[_i / 2].spec, NULL, 0, {0}, NULL };
	int s = ub_user_kernel_bind(&req, &op, &cfg, &uk, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	s = ub_run(&cfg, &res, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	const struct ub_data *d = &res.data[0];
	int applicable = 0; /* native16 gives no f32 row */
	for (int m = 0; m < UB_NMODES; m++)
		applicable += ub_mode_applies((enum ub_mode)m, UB_F32);
	ck_assert_int_eq(res.nrows, applicable + 1);
	for (int m = 0; m < UB_NMODES; m++) {
		if (!ub_mode_applies((enum ub_mode)m, UB_F32))
			continue; /* no row; such modes come last (modes.h) */
		const struct ub_row *r = &res.rows[m];
		const char *name = ub_modes[m].name;
		ub_format_approx(r->approx_mask, approx, sizeof approx);
		if (m == UB_MODE_RN && !kernels[_i / 2].rn_applies) {
			ck_assert_msg(r->na && !d->out[m].data, "rn should be n/a");
			continue;
		}
		ck_assert_ptr_null(r->na);
		if (m == UB_MODE_FASTMATH || m == UB_MODE_APPROXDIV || m == UB_MODE_APPROXSQRT) {
			ck_assert_msg(r->sim_exact == measured, "%s: sim_exact %d", name, r->sim_exact);
			if (measured)
				ck_assert_str_eq(approx, m == UB_MODE_FASTMATH
						 ? "div.approx@sm_90|sqrt.approx@sm_90"
						 : m == UB_MODE_APPROXDIV ? "div.full@sm_90" : "sqrt.approx@sm_90");
			else
				ck_assert_str_eq(approx, m == UB_MODE_FASTMATH ? "div.approx|sqrt.approx"
						 : m == UB_MODE_APPROXDIV ? "div.full" : "sqrt.approx");
			if (m != UB_MODE_FASTMATH) /* fastmath also flushes: not comparable */
				expect_near(&d->out[m], d, name);
			continue;
		}
		ck_assert_msg(r->sim_exact, "%s ran %s", name, approx);
		expect_host(&d->out[m], d, (enum ub_mode)m, name);
	}
	expect_host(&d->torch, d, UB_MODE_NOFMA, "torch");
	/* the point of the example: fma differs from torch, nofma does not */
	ck_assert_uint_gt(res.rows[UB_MODE_FMA].st.torch_mismatch, 0);
	ck_assert_uint_eq(res.rows[UB_MODE_NOFMA].st.torch_mismatch, 0);
	ub_result_free(&res);
	ub_user_kernel_free(&uk);
}
END_TEST

/* The rules of binding, one message each (user_kernel.c). */
static const struct {
	const char *spec;
	enum ub_dtype dt;
	const char *msg;
} bind_errors[] = {
	{"in=x,dout=g,N=n", UB_F32, "acosh_bwd.cu:15: parameter 'din' of "
	 "acosh_backward is not bound: add din=NAME to --args (NAME: x, g, out, n)"},
	{"in=x,dout=g,din=out,N=g", UB_F32, "parameter 'N' (long long) is an integer: "
	 "bind it to n or a number, not g"},
	{"in=x,dout=out,din=g,N=n", UB_F32, "parameter 'dout' (const float*) is const: "
	 "it cannot be the output out"},
	{"in=x,dout=x,din=out,N=n", UB_F32, "input 'g' of user_acosh_bwd is bound to "
	 "no parameter"},
	{"in=x,dout=g,din=out,N=n", UB_F16, "acosh_backward takes float arrays (f32), "
	 "not f16: run it with --dtype f32"},
};

START_TEST(test_bind_errors)
{
	struct ub_op op = *ub_catalog_find(&cat, "user_acosh_bwd");
	struct ub_config cfg = {.op = &op, .ndtypes = 1, .dtypes = {bind_errors[_i].dt},
				.n = 100, .arch = "compute_90"};
	struct ub_user_kernel uk;
	struct ub_error err = {""};
	struct ub_kernel_req req = { SRCDIR "/tests/data/user/acosh_bwd.cu", "acosh_backward",
				     bind_errors[_i].spec, NULL, 0, {0}, NULL };
	int s = ub_user_kernel_bind(&req, &op, &cfg, &uk, &err);
	ck_assert_int_eq(s, UB_USAGE);
	ck_assert_msg(strstr(err.msg, bind_errors[_i].msg), "%s", err.msg);
	ck_assert_ptr_null(op.kernel); /* the op is left as it was */
	ub_user_kernel_free(&uk);
}
END_TEST

Suite *ub_userkernel_suite(void)
{
	Suite *s = suite_create("userkernel");
	TCase *tc = tcase_create("signatures");
	tcase_add_loop_test(tc, test_signatures, 0, sizeof sigs / sizeof sigs[0]);
	tcase_add_test(tc, test_signature_details);
	tcase_add_test(tc, test_uses_macros);
	suite_add_tcase(s, tc);
	tc = tcase_create("kernels");
	tcase_set_timeout(tc, 120);
	tcase_add_unchecked_fixture(tc, load, unload);
	tcase_add_loop_test(tc, test_every_mode, 0, 2 * (int)(sizeof kernels / sizeof kernels[0]));
	tcase_add_loop_test(tc, test_bind_errors, 0, sizeof bind_errors / sizeof bind_errors[0]);
	suite_add_tcase(s, tc);
	return s;
}

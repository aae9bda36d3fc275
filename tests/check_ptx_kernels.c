/* check_ptx_kernels.c — whole kernels compiled by nvcc (CUDA 13.0,
 * -arch=sm_90 -ptx, tests/data/ptx/README) run on the interpreter:
 * atan_bwd in six compile modes against a host computation of the same
 * IEEE operations, the elementwise kernels torch plans use, sinf (local
 * memory, a .global table, f64), a 3-D launch, and run-time errors (bad
 * stores, a runaway loop, a wrong launch).
 *
 * Host references are computed with the same operations rounded the same
 * way: fmaf(x, x, 1) then g / y for the default mode, x*x, +1 and / each
 * rounded through volatile floats for nofma and rn (this file is built
 * with -ffp-contract=off as well), flushing subnormals for -ftz=true.  A
 * NaN result must be the GPU's 0x7fffffff. */
#include "check_ptx.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SEED 0x5eed2024u
#define N 700

static uint64_t rng = SEED;
static uint32_t next32(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;   /* xorshift64 */
	return (uint32_t)(rng >> 16);
}

static float f32(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

/* The encoding of f as a GPU would produce it (NaN canonical). */
static uint32_t bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return f != f ? 0x7fffffffu : u;
}

/* The encoding itself. */
static uint32_t raw(float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	return u;
}

static uint32_t ulps(float a, float b)
{
	int64_t ia = raw(a) >> 31 ? -(int64_t)(raw(a) & 0x7fffffff) : raw(a);
	int64_t ib = raw(b) >> 31 ? -(int64_t)(raw(b) & 0x7fffffff) : raw(b);
	return (uint32_t)(ia > ib ? ia - ib : ib - ia);
}

static float ftz(float x)
{
	return fabsf(x) < 0x1p-126f ? copysignf(0.0f, x) : x;
}

/* Special values first (zeros, subnormals, 1 + 2^-12 where fma and two
 * roundings differ, 2^63 where x*x + 1 passes 2^126, overflow, inf, NaN),
 * then random encodings. */
static void inputs(float *x, float *g)
{
	static const uint32_t sp[] = {
		0, 0x80000000, 1, 0x807fffff, 0x00800000, 0x3f800000, 0xbf800800,
		0x3f800800, 0x3f800801, 0x5f000000, 0x5f000001, 0x5effffff,
		0x7f7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0x3fb504f3,
		0x1f800000, 0x20000000, 0x3a000000,
	};
	int nsp = (int)(sizeof sp / sizeof *sp);
	rng = SEED;
	for (int i = 0; i < N; i++) {
		x[i] = f32(i < nsp ? sp[i] : next32());
		g[i] = f32(i < nsp ? 0x3f800000 + (uint32_t)i : next32());
	}
	g[3] = f32(0x00000003);       /* a subnormal gradient */
	g[4] = f32(0x7f800000);       /* an infinite one */
}

enum mode { FMA, NOFMA, RN, FTZ, APPROXDIV, FASTMATH };
static const struct {
	const char *file;
	uint64_t mask;
} modes[] = {
	{ "atan_bwd_fma.ptx", 0 },
	{ "atan_bwd_nofma.ptx", 0 },
	{ "atan_bwd_rn.ptx", 0 },
	{ "atan_bwd_ftz.ptx", 0 },
	/* .target sm_90: the approximate division runs through its model
	 * measured on that GPU (ptx.h's PTX_AX_MEASURED) */
	{ "atan_bwd_approxdiv.ptx", 1ull << (PTX_AX_MEASURED + PTX_AX_DIV_FULL) },
	{ "atan_bwd_fastmath.ptx", 1ull << (PTX_AX_MEASURED + PTX_AX_DIV_APPROX) },
};

static float host_atan_bwd(int mode, float x, float g)
{
	volatile float s, t;
	switch (mode) {
	case NOFMA: case RN:
		s = x * x;
		t = s + 1.0f;
		return g / t;
	case FTZ:
		t = ftz(fmaf(ftz(x), ftz(x), 1.0f));
		return ftz(ftz(g) / t);
	default:
		return g / fmaf(x, x, 1.0f);
	}
}

/* Runs `entry` of the PTX file over n floats: out[i] from in0 (and in1). */
static int run_ew(const char *file, const char *entry, const float *in0,
		  const float *in1, float *out, long long n, unsigned grid,
		  unsigned block, struct ptx_run_info *info, struct ub_error *err)
{
	char *text = ptx_read_data(file);
	struct ptx_module *m;
	int rc = ptx_parse(text, &m, err);
	free(text);
	ck_assert_msg(rc == 0, "%s: %s", file, err->msg);
	struct ptx_buffer bufs[3] = { { (void *)in0, (size_t)n * 4, 0, NULL },
				      { out, (size_t)n * 4, 1, NULL },
				      { (void *)in1, (size_t)n * 4, 0, NULL } };
	uint64_t args[4] = { (uint64_t)(uintptr_t)in0, (uint64_t)(uintptr_t)out,
			     (uint64_t)n, 0 };
	int nargs = ptx_entry_nparams(m, entry);
	if (nargs == 4) {    /* (in0, in1, out, n) */
		args[1] = (uint64_t)(uintptr_t)in1;
		args[2] = (uint64_t)(uintptr_t)out;
		args[3] = (uint64_t)n;
	}
	struct ptx_launch l = { { grid, 1, 1 }, { block, 1, 1 }, args, nargs,
				bufs, 3, 0, 0, 0, 0, 0 };
	rc = ptx_run(m, entry, &l, info, err);
	ptx_free(m);
	return rc;
}

START_TEST(atan_bwd_modes)
{
	static float x[N], g[N], out[N];
	struct ptx_run_info info;
	struct ub_error err;
	inputs(x, g);
	memset(out, 0xff, sizeof out);
	int rc = run_ew(modes[_i].file, "atan_bwd", x, g, out, N, (N + 255) / 256,
			256, &info, &err);
	ck_assert_msg(rc == 0, "%s: %s", modes[_i].file, err.msg);
	ck_assert_msg(info.approx_mask == modes[_i].mask, "%s: approx_mask 0x%"
		      PRIx64, modes[_i].file, info.approx_mask);
	ck_assert_uint_eq(info.unmarked_fp, 0);
	for (int i = 0; i < N && _i < APPROXDIV; i++) {
		uint32_t want = bits(host_atan_bwd(_i, x[i], g[i]));
		ck_assert_msg(raw(out[i]) == want, "%s seed 0x%x i=%d: x=%a (0x%08x) "
			      "g=%a (0x%08x): got %a (0x%08x), want %a (0x%08x)",
			      modes[_i].file, SEED, i, x[i], raw(x[i]), g[i],
			      raw(g[i]), out[i], raw(out[i]), f32(want), want);
	}
	/* div.full (2 ulp documented) and div.approx.ftz (2 ulp for |b| in
	 * [2^-126, 2^126]): only the documented bound is checked, on
	 * ordinary values (normal gradient and result). */
	for (int i = 0; i < N && _i >= APPROXDIV; i++) {
		float want = _i == FASTMATH ? host_atan_bwd(FTZ, x[i], g[i])
					    : host_atan_bwd(FMA, x[i], g[i]);
		float t = fmaf(x[i], x[i], 1.0f);
		if (!isnormal(want) || !isnormal(g[i]) || !(t <= 0x1p126f))
			continue;
		ck_assert_msg(ulps(out[i], want) <= 2, "%s i=%d: x=%a g=%a: got %a, "
			      "want %a within 2 ulp", modes[_i].file, i, x[i], g[i],
			      out[i], want);
	}
}
END_TEST

/* A grid smaller than the data: every thread walks the grid-stride loop
 * (the unrolled body included) and the result is the same. */
START_TEST(atan_bwd_grid_stride)
{
	static float x[N], g[N], a[N], b[N];
	struct ptx_run_info info;
	struct ub_error err;
	inputs(x, g);
	int rc = run_ew("atan_bwd_fma.ptx", "atan_bwd", x, g, a, N, 3, 256, &info, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	rc = run_ew("atan_bwd_fma.ptx", "atan_bwd", x, g, b, N, 2, 5, &info, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	ck_assert_msg(memcmp(a, b, sizeof a) == 0, "grid-stride results differ");
}
END_TEST

/* The elementwise kernels of torch plans: mul and div are IEEE (.rn);
 * add of a constant is `add.f32`, unmarked: counted, one per element. */
START_TEST(elementwise)
{
	static float a[N], b[N], out[N];
	struct ptx_run_info info;
	struct ub_error err;
	inputs(a, b);
	int rc = run_ew("ew.ptx", "mul_k", a, b, out, N, 2, 128, &info, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	for (int i = 0; i < N; i++) {
		volatile float p = a[i] * b[i];
		ck_assert_msg(raw(out[i]) == bits(p), "mul i=%d: %a * %a: got %a "
			      "(0x%08x)", i, a[i], b[i], out[i], raw(out[i]));
	}
	ck_assert_uint_eq(info.unmarked_fp, N);   /* mul.f32 */
	rc = run_ew("ew.ptx", "div_k", a, b, out, N, 3, 256, &info, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	for (int i = 0; i < N; i++) {
		volatile float q = a[i] / b[i];
		ck_assert_msg(raw(out[i]) == bits(q), "div i=%d: %a / %a: got %a "
			      "(0x%08x)", i, a[i], b[i], out[i], raw(out[i]));
	}
	ck_assert_uint_eq(info.unmarked_fp, 0);   /* div.rn.f32 */
	rc = run_ew("ew.ptx", "add1_k", a, NULL, out, N, 3, 256, &info, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	for (int i = 0; i < N; i++) {
		volatile float s = a[i] + 1.0f;
		ck_assert_msg(raw(out[i]) == bits(s), "add i=%d: %a + 1: got %a", i,
			      a[i], out[i]);
	}
	ck_assert_uint_eq(info.unmarked_fp, N);
	ck_assert_uint_eq(info.approx_mask, 0);
}
END_TEST

/* sinf (CUDA: 2 ulp documented, 1 measured) is all IEEE instructions: its
 * Payne-Hanek path for huge arguments uses .local memory, the .global
 * table __cudart_i2opi_f and f64.  Checked within 2 ulp of sin(). */
START_TEST(sinf_kernel)
{
	static float a[N], out[N], dummy[N];
	struct ptx_run_info info;
	struct ub_error err;
	inputs(a, dummy);
	for (int i = 0; i < N; i++)
		if (!(fabsf(a[i]) < 0x1p100f))
			a[i] = (float)i * 1e4f + 1e30f * (float)(i & 1);
	int rc = run_ew("sinf.ptx", "sin_k", a, NULL, out, N, 3, 256, &info, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	ck_assert_uint_eq(info.approx_mask, 0);
	/* every lane used its own .local array: no batch fell back */
	ck_assert_uint_eq(info.batch_reruns, 0);
	for (int i = 0; i < N; i++) {
		float want = (float)sin((double)a[i]);
		ck_assert_msg(ulps(out[i], want) <= 2, "sinf(%a): got %a, want %a",
			      a[i], out[i], want);
	}
	rc = run_ew("sinf.ptx", "exp_k", a, NULL, out, N, 3, 256, &info, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	ck_assert_uint_eq(info.approx_mask, 1ull << (PTX_AX_MEASURED + PTX_AX_EX2_APPROX));
}
END_TEST

/* Every thread of a 3-D launch runs once, with its own %tid/%ctaid. */
static const char grid3d[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry g3(.param .u64 out)\n{\n"
	".reg .pred %p<2>;\n.reg .b32 %r<20>;\n.reg .b64 %rd<4>;\n"
	"ld.param.u64 %rd1, [out];\ncvta.to.global.u64 %rd1, %rd1;\n"
	"mov.u32 %r1, %tid.x;\nmov.u32 %r2, %tid.y;\nmov.u32 %r3, %tid.z;\n"
	"mov.u32 %r4, %ntid.x;\nmov.u32 %r5, %ntid.y;\nmov.u32 %r6, %ntid.z;\n"
	"mov.u32 %r7, %ctaid.x;\nmov.u32 %r8, %ctaid.y;\nmov.u32 %r9, %ctaid.z;\n"
	"mov.u32 %r10, %nctaid.x;\nmov.u32 %r11, %nctaid.y;\n"
	"mad.lo.s32 %r12, %r9, %r11, %r8;\nmad.lo.s32 %r12, %r12, %r10, %r7;\n"
	"mul.lo.s32 %r13, %r4, %r5;\nmul.lo.s32 %r13, %r13, %r6;\n"
	"mad.lo.s32 %r14, %r3, %r5, %r2;\nmad.lo.s32 %r14, %r14, %r4, %r1;\n"
	"mad.lo.s32 %r15, %r12, %r13, %r14;\n"
	"mul.wide.u32 %rd2, %r15, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"ld.global.u32 %r16, [%rd3];\nadd.s32 %r16, %r16, 1;\n"
	"st.global.u32 [%rd3], %r16;\n"
	"mov.u32 %r17, %laneid;\nmov.u32 %r18, %warpid;\n"
	"mad.lo.s32 %r19, %r18, 32, %r17;\nsetp.ne.s32 %p1, %r19, %r14;\n"
	"@%p1 st.global.u32 [%rd1], 999;\nret;\n}\n";

START_TEST(launch_3d)
{
	enum { T = 4 * 3 * 5 * 2 * 3 * 2 };
	static uint32_t out[T];
	struct ub_error err;
	struct ptx_module *m;
	int rc = ptx_parse(grid3d, &m, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	struct ptx_buffer buf = { out, sizeof out, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)out;
	struct ptx_launch l = { { 2, 3, 2 }, { 4, 3, 5 }, &arg, 1, &buf, 1, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	rc = ptx_run(m, "g3", &l, &info, &err);
	ptx_free(m);
	ck_assert_msg(rc == 0, "%s", err.msg);
	for (int i = 0; i < T; i++)
		ck_assert_msg(out[i] == 1, "element %d written %u times", i, out[i]);
}
END_TEST

/* Triton's way of writing a kernel: pointer parameters with .ptr .global
 * .align attributes (spaced or as one word), .reqntid, an unused trailing
 * pointer (its scratch memory), programs of 64 threads, braced load/store
 * operands.  Elements 0..149 of 192 are incremented once, the rest kept;
 * a launch with another block size than .reqntid says is refused. */
static const char triton_ptx[] =
	"//\n// Generated by LLVM NVPTX Back-End\n//\n\n.version 9.4\n.target sm_90a\n"
	".address_size 64\n\n\t// .globl\ttk\n.visible .entry tk(\n"
	"\t.param .u64 .ptr .global .align 16 tk_param_0,\n"
	"\t.param .u32 tk_param_1,\n\t.param .u64 .ptr.global.align 1 tk_param_2\n)\n"
	".reqntid 64\n{\n\t.reg .pred %p<2>;\n\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<4>;\n"
	"\t.loc\t1 3 0\n\tld.param.b64 %rd1, [tk_param_0];\n\tld.param.b32 %r1, [tk_param_1];\n"
	"\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %tid.x;\n\tshl.b32 %r4, %r2, 6;\n"
	"\tor.b32 %r4, %r4, %r3;\n\tsetp.lt.s32 %p1, %r4, %r1;\n"
	"\tmul.wide.s32 %rd2, %r4, 4;\n\tadd.s64 %rd3, %rd1, %rd2;\n"
	"\t// begin inline asm\n\tmov.u32 %r5, 0x0;\n\t@%p1 ld.global.b32 { %r5 }, [ %rd3 + 0 ];\n"
	"\t// end inline asm\n\tadd.s32 %r5, %r5, 1;\n"
	"\t@%p1 st.global.b32 [ %rd3 + 0 ], { %r5 };\n\tret;\n}\n"
	"\t.file\t1 \"/tmp/k.py\"\n\t.section\t.debug_abbrev\n\t{\n.b8 1\n.b8 17\n\t}\n";

START_TEST(triton_shaped)
{
	static uint32_t out[192];
	struct ub_error err;
	struct ptx_module *m;
	int rc = ptx_parse(triton_ptx, &m, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	ck_assert_int_eq(ptx_entry_nparams(m, "tk"), 3);
	for (int i = 0; i < 192; i++)
		out[i] = 10u * (unsigned)i;
	struct ptx_buffer buf = { out, sizeof out, 1, NULL };
	uint64_t args[3] = { (uint64_t)(uintptr_t)out, 150, 0 };
	struct ptx_launch l = { { 3, 1, 1 }, { 64, 1, 1 }, args, 3, &buf, 1, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	rc = ptx_run(m, "tk", &l, &info, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	for (int i = 0; i < 192; i++)
		ck_assert_uint_eq(out[i], 10u * (unsigned)i + (i < 150));
	l.block[0] = 128;
	rc = ptx_run(m, "tk", &l, &info, &err);
	ptx_free(m);
	ck_assert_int_eq(rc, UB_RUNTIME);
	ck_assert_str_eq(err.msg, "ptx: kernel 'tk' requires blocks of 64 x 1 x 1 "
			 "threads (.reqntid), launched with 128 x 1 x 1");
}
END_TEST

/* Run-time errors stop the run with one line, never a crash. */
START_TEST(bad_store)
{
	static float a[64], b[64], out[64];
	struct ptx_run_info info;
	struct ub_error err;
	/* The launch says 64 elements but the output buffer is declared 63
	 * long: the last store is out of bounds. */
	char *text = ptx_read_data("ew.ptx");
	struct ptx_module *m;
	ck_assert_int_eq(ptx_parse(text, &m, &err), 0);
	free(text);
	struct ptx_buffer bufs[3] = { { a, sizeof a, 0, NULL }, { b, sizeof b, 0, NULL },
				      { out, sizeof out - 4, 1, NULL } };
	uint64_t args[4] = { (uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b,
			     (uint64_t)(uintptr_t)out, 64 };
	struct ptx_launch l = { { 1, 1, 1 }, { 64, 1, 1 }, args, 4, bufs, 3, 0, 0, 0, 0, 0 };
	int rc = ptx_run(m, "mul_k", &l, &info, &err);
	ck_assert_int_eq(rc, UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "ptx: out-of-bounds st.global.f32 at 0x") &&
		      strstr(err.msg, "(line "), "%s", err.msg);
	/* A read-only destination: the message names the parameter that
	 * points at it (out is mul_k's third) and the buffer's name. */
	bufs[2].size = sizeof out;
	bufs[2].writable = 0;
	rc = ptx_run(m, "mul_k", &l, &info, &err);
	ck_assert_msg(rc == UB_RUNTIME && strstr(err.msg, "ptx: store through the "
		      "3rd parameter of 'mul_k' (an array: read-only): st.global.f32 "
		      "at 0x"), "%s", err.msg);
	bufs[2].name = "input 'y'";
	rc = ptx_run(m, "mul_k", &l, &info, &err);
	ck_assert_msg(rc == UB_RUNTIME && strstr(err.msg, "ptx: store through the "
		      "3rd parameter of 'mul_k' (input 'y': read-only)"), "%s", err.msg);
	bufs[2].name = NULL;
	/* An input buffer not given at all. */
	rc = ptx_run(m, "mul_k", &(struct ptx_launch){ { 1, 1, 1 }, { 64, 1, 1 },
		     args, 4, bufs + 1, 2, 0, 0, 0, 0, 0 }, &info, &err);
	ck_assert_msg(rc == UB_RUNTIME && strstr(err.msg, "out-of-bounds ld.global.f32"),
		      "%s", err.msg);
	/* Wrong argument count, unknown kernel. */
	l.nargs = 3;
	rc = ptx_run(m, "mul_k", &l, &info, &err);
	ck_assert_msg(rc == UB_RUNTIME && strstr(err.msg, "takes 4 parameters"),
		      "%s", err.msg);
	rc = ptx_run(m, "nope", &l, &info, &err);
	ck_assert_msg(rc == UB_RUNTIME && strstr(err.msg, "no kernel 'nope'") &&
		      strstr(err.msg, "mul_k, add1_k, div_k"), "%s", err.msg);
	ck_assert_int_eq(ptx_entry_nparams(m, "add1_k"), 3);
	ck_assert_int_eq(ptx_entry_nparams(m, "nope"), -1);
	ptx_free(m);
}
END_TEST

/* Addresses whose end wraps 64 bits: a 4-byte load at 2^64 - 2 (global)
 * and one 2 bytes before the thread's .local buffer; each is out of
 * bounds, in both executors (the checks compare a - lo with size - n,
 * never a + n). */
static const char wrap_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry w(.param .u64 p)\n{\n"
	"\t.local .align 4 .b8 buf[8];\n"
	"\t.reg .pred %p<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<3>;\n"
	"\tld.param.u64 %rd1, [p];\n"
	"\tsetp.eq.u64 %p1, %rd1, 0;\n"
	"\tmov.u64 %rd2, buf;\n"
	"\t@%p1 ld.global.u32 %r1, [%rd1+-2];\n"
	"\t@!%p1 ld.local.u32 %r1, [%rd2+-2];\n"
	"\tret;\n}\n";

START_TEST(wrapping_address)
{
	static const char *const want[] = { "out-of-bounds ld.global.u32 at "
		"0xfffffffffffffffe (line 13", "out-of-bounds ld.local.u32 at 0x" };
	struct ub_error err;
	struct ptx_module *m;
	ck_assert_msg(ptx_parse(wrap_ptx, &m, &err) == 0, "%s", err.msg);
	for (int k = 0; k < 2; k++)
		for (int s = 0; s < 2; s++) {
			uint64_t arg = k;   /* 0: the global load; else the local */
			struct ptx_launch l = { { 1, 1, 1 }, { 64, 1, 1 }, &arg, 1,
						NULL, 0, 0, s, 0, 0, 0 };
			struct ptx_run_info info;
			ck_assert_int_eq(ptx_run(m, "w", &l, &info, &err), UB_RUNTIME);
			ck_assert_msg(strstr(err.msg, want[k]), "%s", err.msg);
		}
	ptx_free(m);
}
END_TEST

START_TEST(runaway)
{
	static const char spin[] = ".version 9.0\n.target sm_90\n.entry s()\n{\n"
				   "$L0:\n\tbra.uni $L0;\n}\n";
	struct ub_error err;
	struct ptx_module *m;
	ck_assert_int_eq(ptx_parse(spin, &m, &err), 0);
	struct ptx_launch l = { { 1, 1, 1 }, { 2, 1, 1 }, NULL, 0, NULL, 0, 10000, 0, 0, 0, 0 };
	struct ptx_run_info info;
	int rc = ptx_run(m, "s", &l, &info, &err);
	ptx_free(m);
	ck_assert_msg(rc == UB_RUNTIME && strstr(err.msg, "ran more than 10000 "
		      "instructions (line 6)"), "%s", err.msg);
}
END_TEST

TCase *ptx_kernel_tcase(void)
{
	TCase *tc = tcase_create("kernels");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, atan_bwd_modes, 0, (int)(sizeof modes / sizeof *modes));
	tcase_add_test(tc, atan_bwd_grid_stride);
	tcase_add_test(tc, elementwise);
	tcase_add_test(tc, sinf_kernel);
	tcase_add_test(tc, launch_3d);
	tcase_add_test(tc, triton_shaped);
	tcase_add_test(tc, bad_store);
	tcase_add_test(tc, runaway);
	tcase_add_test(tc, wrapping_address);
	return tc;
}

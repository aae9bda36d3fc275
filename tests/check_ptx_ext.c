/* check_ptx_ext.c — what the elementwise family's kernels added to the
 * interpreter: extended-precision carry arithmetic, set, the f64
 * approximate forms, registers named without '%' (inline asm), .func and
 * call, and the ptxas fusion model's values.  Expected values are derived
 * by hand from the PTX ISA definitions, stated beside each case. */
#include "check_ptx.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define AX(k) (1ull << (k))

static const struct ptx_case carry[] = {
	/* 0xffffffff + 1 = 2^32: low word 0, CF = 1; then c + 0 + CF. */
	{ "add.cc.u32 %x4, %x0, %x1; addc.u32 %x3, %x2, 0", 0xffffffff, 1, 5, 'x', 6, 0, 0 },
	{ "add.cc.u32 %x4, %x0, %x1; addc.u32 %x3, %x2, 0", 1, 1, 5, 'x', 5, 0, 0 },
	{ "add.cc.u32 %x3, %x0, %x1", 0xffffffff, 1, 5, 'x', 0, 0, 0 },
	/* addc.cc propagates: 1 + 0xffffffff + CF(1) = 2^32 + 1 -> carry. */
	{ "add.cc.u32 %x4, %x0, %x1; addc.cc.u32 %x4, %x2, 0xffffffff; addc.u32 %x3, 0, 0",
	  0xffffffff, 1, 0, 'x', 1, 0, 0 },
	{ "add.cc.u32 %x4, %x0, %x1; addc.cc.u32 %x4, %x2, 0xfffffffe; addc.u32 %x3, 0, 0",
	  0xffffffff, 1, 0, 'x', 0, 0, 0 },
	/* 64-bit: ~0 + 1 carries into the next word. */
	{ "add.cc.u64 %y4, %y0, %y1; addc.u64 %y3, %y2, 0", ~0ull, 1, 7, 'y', 8, 0, 0 },
	/* sub.cc: 0 - 1 borrows (CF = 1); subc: c - (0 + CF). */
	{ "sub.cc.u32 %x4, %x0, %x1; subc.u32 %x3, %x2, 0", 0, 1, 5, 'x', 4, 0, 0 },
	{ "sub.cc.u32 %x4, %x0, %x1; subc.u32 %x3, %x2, 0", 5, 1, 5, 'x', 5, 0, 0 },
	{ "sub.cc.u32 %x3, %x0, %x1", 0, 1, 5, 'x', 0xffffffff, 0, 0 },
	/* (2^32-1)^2 = 0xfffffffe_00000001: lo 1 + c 0xffffffff carries, so
	 * madc.hi gives hi + 0 + 1. */
	{ "mad.lo.cc.u32 %x4, %x0, %x1, %x2; madc.hi.u32 %x3, %x0, %x1, 0",
	  0xffffffff, 0xffffffff, 0xffffffff, 'x', 0xffffffff, 0, 0 },
	{ "mad.lo.cc.u32 %x4, %x0, %x1, %x2; madc.hi.u32 %x3, %x0, %x1, 0",
	  0xffffffff, 0xffffffff, 0, 'x', 0xfffffffe, 0, 0 },
	{ "mad.lo.cc.u32 %x3, %x0, %x1, %x2", 0xffffffff, 0xffffffff, 0xffffffff, 'x', 0, 0, 0 },
	/* mad.hi.cc: hi(a*b) + c; madc.lo: lo(a*b) + c + CF. */
	{ "mad.hi.cc.u32 %x4, %x0, %x1, %x2; madc.lo.u32 %x3, %x0, %x1, 0",
	  0xffffffff, 0xffffffff, 2, 'x', 2, 0, 0 },
	/* mad.hi.s32: -1 * -1 = 1, high word 0; + c. */
	{ "mad.hi.cc.s32 %x3, %x0, %x1, %x2", 0xffffffff, 0xffffffff, 3, 'x', 3, 0, 0 },
};

static const struct ptx_case set[] = {
	/* set: 1.0 in a float destination, all ones in an integer one. */
	{ "set.lt.f16.f16 %h3, %h0, %h1", 0x3c00, 0x4000, 0, 'h', 0x3c00, 0, 0 },
	{ "set.lt.f16.f16 %h3, %h0, %h1", 0x4000, 0x3c00, 0, 'h', 0, 0, 0 },
	{ "set.eq.f16.f16 %h3, %h0, %h1", 0x7e00, 0x7e00, 0, 'h', 0, 0, 0 },
	{ "set.neu.f16.f16 %h3, %h0, %h1", 0x7e00, 0x3c00, 0, 'h', 0x3c00, 0, 0 },
	{ "set.eq.bf16.bf16 %h3, %h0, %h1", 0x3f80, 0x3f80, 0, 'h', 0x3f80, 0, 0 },
	{ "set.gt.u32.f32 %x3, %x0, %x1", 0x40000000, 0x3f800000, 0, 'x', 0xffffffff, 0, 0 },
	{ "set.lt.f32.s32 %x3, %x0, %x1", 0xffffffff, 0, 0, 'x', 0x3f800000, 0, 0 },
	{ "set.lt.f32.u32 %x3, %x0, %x1", 0xffffffff, 0, 0, 'x', 0, 0, 0 },
	/* -0 == +0; .ftz: the smallest subnormal equals 0. */
	{ "set.eq.f32.f32 %x3, %x0, %x1", 0x80000000, 0, 0, 'x', 0x3f800000, 0, 0 },
	{ "set.eq.f32.f32 %x3, %x0, %x1", 1, 0, 0, 'x', 0, 0, 0 },
	{ "set.eq.ftz.f32.f32 %x3, %x0, %x1", 1, 0, 0, 'x', 0x3f800000, 0, 0 },
	/* f16x2: each half on its own, low half first. */
	{ "set.eq.f16x2.f16x2 %x3, %x0, %x1", 0x3c004000, 0x3c003c00, 0, 'x', 0x3c000000, 0, 0 },
	{ "set.eq.u32.f16x2 %x3, %x0, %x1", 0x3c004000, 0x3c003c00, 0, 'x', 0xffff0000, 0, 0 },
	/* the cuda_fp16.h idiom: fma.rn.f16 r, p, ulp, r adds ulp when p */
	{ "set.eq.f16.f16 %h4, %h0, %h1; fma.rn.f16 %h3, %h4, %h2, %h0", 0x3c00, 0x3c00,
	  0x1400, 'h', 0x3c01, 0, 0 },   /* 1 + 2^-10: one ulp up */
	{ "set.eq.f16.f16 %h4, %h0, %h1; fma.rn.f16 %h3, %h4, %h2, %h0", 0x3c00, 0x4000,
	  0x1400, 'h', 0x3c00, 0, 0 },
};

static const struct ptx_case f64_approx[] = {
	/* model: RN(1/3) = 0x3fd5555555555555; flagged rcp.approx */
	{ "rcp.approx.ftz.f64 %y3, %y0", 0x4008000000000000, 0, 0, 'y',
	  0x3fd5555555555555, 0, AX(PTX_AX_RCP_APPROX) },
	/* .ftz: the smallest subnormal is 0, 1/0 = inf */
	{ "rcp.approx.ftz.f64 %y3, %y0", 1, 0, 0, 'y', 0x7ff0000000000000, 0,
	  AX(PTX_AX_RCP_APPROX) },
	/* 1/sqrt(4) = 0.5; rsqrt(-0) = -inf */
	{ "rsqrt.approx.f64 %y3, %y0", 0x4010000000000000, 0, 0, 'y',
	  0x3fe0000000000000, 0, AX(PTX_AX_RSQRT_APPROX) },
	{ "rsqrt.approx.ftz.f64 %y3, %y0", 0x8000000000000000, 0, 0, 'y',
	  0xfff0000000000000, 0, AX(PTX_AX_RSQRT_APPROX) },
};

static const struct ptx_case names[] = {
	/* inline asm: registers without '%', .reg.TYPE as one token */
	{ ".reg.b32 r; mov.b32 r, %x0; add.u32 %x3, r, 1", 41, 0, 0, 'x', 42, 0, 0 },
	{ ".reg .pred __$t; setp.gt.u32 __$t, %x0, 1; selp.u32 %x3, 7, 9, __$t",
	  2, 0, 0, 'x', 7, 0, 0 },
	{ ".reg .b16 spc, ulp; mov.b16 spc, 0X3C00U; mov.b16 ulp, spc; mov.b16 %h3, ulp",
	  0, 0, 0, 'h', 0x3c00, 0, 0 },
};

/* ptxas fuses an unmarked mul into the add that alone reads it
 * (src/exec/ptx/ptx_fuse.c).  f16: a = 1 + 2^-10, b = 1 + 3*2^-10, so
 * a*b = 1 + 2^-8 + 3*2^-20; with c = -1 the exact 2^-8 (1 + 3*2^-12)
 * rounds to 0x1c01 (3*2^-12 > half an ulp of 2^-10), while the rounded
 * product 1 + 2^-8 (0x3c04) gives 2^-8 = 0x1c00.  f32: a = b = 1 + 2^-12:
 * a*b = 1 + 2^-11 + 2^-24; minus 1 exactly 2^-11 (1 + 2^-13) = 0x3a000400,
 * while the rounded product (a tie, to even: 1 + 2^-11) gives 0x3a000000. */
static const struct ptx_case fusion[] = {
	{ "mul.f16 %h4, %h0, %h1; add.f16 %h3, %h4, %h2", 0x3c01, 0x3c03, 0xbc00, 'h', 0x1c01, 0, 0 },
	{ "mul.f16 %h4, %h0, %h1; add.f16 %h3, %h2, %h4", 0x3c01, 0x3c03, 0xbc00, 'h', 0x1c01, 0, 0 },
	{ "mul.rn.f16 %h4, %h0, %h1; add.f16 %h3, %h4, %h2", 0x3c01, 0x3c03, 0xbc00, 'h', 0x1c00, 0, 0 },
	{ "mul.f16 %h4, %h0, %h1; add.rn.f16 %h3, %h4, %h2", 0x3c01, 0x3c03, 0xbc00, 'h', 0x1c00, 0, 0 },
	/* c - a*b and a*b - c with c = 1 */
	{ "mul.f16 %h4, %h0, %h1; sub.f16 %h3, %h2, %h4", 0x3c01, 0x3c03, 0x3c00, 'h', 0x9c01, 0, 0 },
	{ "mul.f16 %h4, %h0, %h1; sub.f16 %h3, %h4, %h2", 0x3c01, 0x3c03, 0x3c00, 'h', 0x1c01, 0, 0 },
	{ "mul.bf16 %h4, %h0, %h1; add.bf16 %h3, %h4, %h2", 0x3f81, 0x3f83, 0xbf80, 'h',
	  /* bf16: 1 + 2^-7 + 3 2^-7 + 3 2^-14 - 1 = 2^-5 (1 + 3 2^-9): 0x3d01 */
	  0x3d01, 0, 0 },
	/* (the harness writes %x4 again later: f32 cases use a register t of
	 * their own, written once, as NVRTC's are) */
	{ ".reg .f32 t; mul.f32 t, %x0, %x1; add.f32 %x3, t, %x2", 0x3f800800, 0x3f800800,
	  0xbf800000, 'x', 0x3a000400, 0, 0 },
	{ ".reg .f32 t; mul.f32 t, %x0, %x1; sub.f32 %x3, %x2, t", 0x3f800800, 0x3f800800,
	  0x3f800000, 'x', 0xba000400, 0, 0 },
	/* a register written twice: not fused */
	{ "mul.f32 %x4, %x0, %x1; add.f32 %x3, %x4, %x2", 0x3f800800, 0x3f800800, 0xbf800000,
	  'x', 0x3a000000, 0, 0 },
	/* the product is also stored: not fused */
	{ ".reg .f32 t; mul.f32 t, %x0, %x1; add.f32 %x3, t, %x2; st.global.b32 [%a1+12], t",
	  0x3f800800, 0x3f800800, 0xbf800000, 'x', 0x3a000000, 0, 0 },
	/* through a neg: -(a*b) + 1 = 1 - a*b */
	{ ".reg .f32 t<2>; mul.f32 t0, %x0, %x1; neg.f32 t1, t0; add.f32 %x3, t1, %x2",
	  0x3f800800, 0x3f800800, 0x3f800000, 'x', 0xba000400, 0, 0 },
	/* two products: the model fuses operand a's, a guess it reports */
	{ ".reg .f32 t<2>; mul.f32 t0, %x0, %x1; mul.f32 t1, %x2, %x2; sub.f32 %x3, t0, t1",
	  0x3f800800, 0x3f800800, 0x3f800000, 'x', 0x3a000400, 0, AX(PTX_AX_FMA_CHOICE) },
	/* .ftz on both, c = 2^-149 flushed: RN(a*b + 0), a tie to even,
	 * 1 + 2^-11 */
	{ ".reg .f32 t; mul.ftz.f32 t, %x0, %x1; add.ftz.f32 %x3, t, %x2", 0x3f800800,
	  0x3f800800, 1, 'x', 0x3f801000, 0, 0 },
};

#define CASES(name)                                                     \
	START_TEST(test_##name) { ptx_check_case(&name[_i]); } END_TEST

CASES(carry)
CASES(set)
CASES(f64_approx)
CASES(names)
CASES(fusion)

/* A kernel calling a .func declared before and defined after it: two
 * arguments, a return value, the callee reading %tid.x, a .local array in
 * the callee; each of 4 threads stores 21 * 2 + tid. */
static const char call_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".func (.param .b64 ret) twice(.param .b64 a, .param .b32 b);\n"
	".visible .entry k(.param .u64 out)\n{\n"
	".reg .b64 %rd<5>;\n.reg .b32 %r<3>;\n"
	"ld.param.u64 %rd1, [out];\nmov.u32 %r1, %tid.x;\n"
	"mul.wide.u32 %rd3, %r1, 8;\nadd.s64 %rd4, %rd1, %rd3;\n"
	"{ // callseq 0\n.param .b64 p0;\n.param .b32 p1;\n"
	"st.param.b64 [p0+0], 21;\nst.param.b32 [p1+0], 2;\n"
	".param .align 8 .b8 rv[8];\n"
	"call.uni (rv), \ntwice, \n(\np0, \np1\n);\n"
	"ld.param.b64 %rd2, [rv+0];\n} // callseq 0\n"
	"st.global.u64 [%rd4], %rd2;\nret;\n}\n"
	".func (.param .b64 ret) twice(.param .b64 a, .param .b32 b)\n{\n"
	".local .align 8 .b8 depot[16];\n"
	".reg .b64 %rd<5>;\n.reg .b32 %r<3>;\n"
	"ld.param.b64 %rd1, [a];\nld.param.b32 %r1, [b];\n"
	"mov.u64 %rd4, depot;\nst.local.u64 [%rd4+8], %rd1;\nld.local.u64 %rd1, [%rd4+8];\n"
	"cvt.u64.u32 %rd2, %r1;\nmul.lo.u64 %rd1, %rd1, %rd2;\n"
	"mov.u32 %r2, %tid.x;\ncvt.u64.u32 %rd3, %r2;\nadd.u64 %rd1, %rd1, %rd3;\n"
	"st.param.b64 [ret+0], %rd1;\nret;\n}\n";

START_TEST(call_func)
{
	uint64_t out[4] = { 0 };
	struct ub_error err;
	struct ptx_module *m;
	ck_assert_msg(ptx_parse(call_ptx, &m, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ptx_entry_nparams(m, "k"), 1);
	ck_assert_int_eq(ptx_entry_nparams(m, "twice"), -1);  /* not a kernel */
	struct ptx_buffer buf = { out, sizeof out, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)out;
	struct ptx_launch l = { { 1, 1, 1 }, { 4, 1, 1 }, &arg, 1, &buf, 1, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	int rc = ptx_run(m, "k", &l, &info, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	for (int t = 0; t < 4; t++)
		ck_assert_uint_eq(out[t], 42 + (uint64_t)t);
	rc = ptx_run(m, "twice", &l, &info, &err);
	ck_assert_msg(rc == UB_RUNTIME && strstr(err.msg, "no kernel 'twice'") &&
		      strstr(err.msg, "(kernels: k)"), "%s", err.msg);
	ptx_free(m);
}
END_TEST

static const struct {
	const char *ptx, *msg;
} bad_calls[] = {
	{ ".entry k()\n{\n.param .b32 p;\ncall.uni nothere, (p);\nret;\n}\n",
	  "ptx:4: call of undefined function 'nothere'" },
	{ ".func f(.param .b32 a)\n{\nret;\n}\n.entry k()\n{\ncall.uni f;\nret;\n}\n",
	  "ptx:7: call of 'f' with 0 arguments and no return value" },
	{ ".entry k()\n{\n.reg .b32 %r<2>;\nmad.cc.lo.u16 %r0, %r1, %r1, %r1;\n}\n",
	  "extended precision needs a 32 or 64-bit type" },
	{ ".entry k()\n{\n.reg .b32 %r<2>;\nmul.lo.cc.u32 %r0, %r1, %r1;\n}\n",
	  ".cc not allowed" },
};

START_TEST(call_errors)
{
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_int_eq(ptx_parse(bad_calls[_i].ptx, &m, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, bad_calls[_i].msg) != NULL,
		      "message '%s' lacks '%s'", err.msg, bad_calls[_i].msg);
}
END_TEST

/* A .func calling itself stops the run with a message. */
START_TEST(call_recursion)
{
	static const char rec[] =
		".func f()\n{\ncall.uni f;\nret;\n}\n"
		".entry k()\n{\ncall.uni f;\nret;\n}\n";
	struct ub_error err;
	struct ptx_module *m;
	ck_assert_msg(ptx_parse(rec, &m, &err) == 0, "%s", err.msg);
	struct ptx_launch l = { { 1, 1, 1 }, { 1, 1, 1 }, NULL, 0, NULL, 0, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	int rc = ptx_run(m, "k", &l, &info, &err);
	ptx_free(m);
	ck_assert_msg(rc == UB_RUNTIME && strstr(err.msg, "recursive call (line 3)"),
		      "%s", err.msg);
}
END_TEST

/* The model's count, and fused adds counted at run time. */
START_TEST(fusion_counts)
{
	static const char k[] =
		".entry k(.param .u64 p)\n{\n.reg .f32 %f<8>;\n.reg .b64 %rd<2>;\n"
		"ld.param.u64 %rd1, [p];\nld.global.f32 %f1, [%rd1];\n"
		"mul.f32 %f2, %f1, %f1;\nadd.f32 %f3, %f2, %f1;\n"   /* fused */
		"mul.f32 %f4, %f1, %f1;\nst.global.f32 [%rd1+4], %f4;\n" /* stored */
		"add.f32 %f5, %f4, %f1;\n"                            /* so not */
		"st.global.f32 [%rd1+8], %f3;\nst.global.f32 [%rd1+12], %f5;\nret;\n}\n";
	struct ub_error err;
	struct ptx_module *m;
	float buf[4] = { 3.0f, 0, 0, 0 };
	ck_assert_msg(ptx_parse(k, &m, &err) == 0, "%s", err.msg);
	ck_assert_int_eq(ptx_fusions(m), 1);
	struct ptx_buffer b = { buf, sizeof buf, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)buf;
	struct ptx_launch l = { { 1, 1, 1 }, { 1, 1, 1 }, &arg, 1, &b, 1, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(m, "k", &l, &info, &err) == 0, "%s", err.msg);
	ptx_free(m);
	ck_assert_uint_eq(info.fused, 1);
	ck_assert_uint_eq(info.unmarked_fp, 2);    /* the kept mul and its add */
	ck_assert(buf[2] == 12.0f && buf[3] == 12.0f);
}
END_TEST

#define LOOP(tc, name) \
	tcase_add_loop_test(tc, test_##name, 0, (int)(sizeof name / sizeof *name))

/* The budget is per thread, calls included.  k loops 40 times (inc adds
 * 10 per call, up to 400); per trip k runs 5 instructions (st.param,
 * call, ld.param, setp, bra) and inc 13 (ld.param, 10 adds, st.param,
 * ret): 520 in inc, and 199 in k's loop (the last bra, its guard false,
 * does not count), 721 with k's first mov and last ret.
 * A budget of 500 stops it (k alone stays under, which once passed); one
 * of 1000 does not. */
static const char loop_call[] =
	".func (.param .b32 r) inc(.param .b32 a)\n{\n.reg .b32 %r<2>;\n"
	"ld.param.b32 %r1, [a];\n"
	"add.s32 %r1, %r1, 1;\nadd.s32 %r1, %r1, 1;\nadd.s32 %r1, %r1, 1;\n"
	"add.s32 %r1, %r1, 1;\nadd.s32 %r1, %r1, 1;\nadd.s32 %r1, %r1, 1;\n"
	"add.s32 %r1, %r1, 1;\nadd.s32 %r1, %r1, 1;\nadd.s32 %r1, %r1, 1;\n"
	"add.s32 %r1, %r1, 1;\nst.param.b32 [r+0], %r1;\nret;\n}\n"
	".entry k()\n{\n.reg .b32 %r<2>;\n.reg .pred %p<2>;\n"
	".param .b32 a;\n.param .b32 rv;\nmov.u32 %r1, 0;\n"
	"$L:\nst.param.b32 [a+0], %r1;\ncall.uni (rv), inc, (a);\n"
	"ld.param.b32 %r1, [rv+0];\nsetp.lt.u32 %p1, %r1, 400;\n@%p1 bra $L;\n"
	"ret;\n}\n";

START_TEST(budget_counts_calls)
{
	struct ub_error err;
	struct ptx_module *m;
	ck_assert_msg(ptx_parse(loop_call, &m, &err) == 0, "%s", err.msg);
	struct ptx_run_info info;
	struct ptx_launch l = { { 1, 1, 1 }, { 1, 1, 1 }, NULL, 0, NULL, 0, 500, 0, 0, 0, 0 };
	int rc = ptx_run(m, "k", &l, &info, &err);
	ck_assert_msg(rc == UB_RUNTIME && strstr(err.msg, "ran more than 500 "
		      "instructions"), "%s", err.msg);
	l.budget = 1000;
	ck_assert_msg(ptx_run(m, "k", &l, &info, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(info.insns, 721);
	/* Without a budget: 2^28 + 2^16 per decoded instruction: inc's 13
	 * and k's 7 above, each body with the ret that ends it (22). */
	ck_assert_uint_eq(ptx_budget(m), (1ull << 28) + 22 * (1ull << 16));
	ptx_free(m);
}
END_TEST

TCase *ptx_ext_tcase(void)
{
	TCase *tc = tcase_create("ext");
	LOOP(tc, carry);
	LOOP(tc, set);
	LOOP(tc, f64_approx);
	LOOP(tc, names);
	LOOP(tc, fusion);
	tcase_add_test(tc, call_func);
	tcase_add_loop_test(tc, call_errors, 0, (int)(sizeof bad_calls / sizeof *bad_calls));
	tcase_add_test(tc, call_recursion);
	tcase_add_test(tc, budget_counts_calls);
	tcase_add_test(tc, fusion_counts);
	return tc;
}

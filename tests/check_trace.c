/* check_trace.c — the interpreter's trace switch (ptx_run_traced), which
 * `ulpbench explain` prints.  Expected values: host fmaf and separately
 * rounded float operations (built with -ffp-contract=off), IEEE 754 for
 * the conversions, and the line numbers of tests/data/ptx/atan_bwd_*.ptx
 * as read in those files (grep -n fma.rn.f32 atan_bwd_fma.ptx: 84). */
#include "check_ptx.h"
#include "check_bits.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXEV 64

struct log {
	struct ptx_trace_event ev[MAXEV];
	char text[MAXEV][32];
	int n;
};

static void keep(void *user, const struct ptx_trace_event *ev)
{
	struct log *l = user;
	ck_assert_int_lt(l->n, MAXEV);
	l->ev[l->n] = *ev;
	snprintf(l->text[l->n], sizeof l->text[0], "%s", ev->text);
	l->ev[l->n].text = l->text[l->n];
	l->n++;
}

/* atan_bwd(in, dout, din, n) of a PTX file over n elements, block 4. */
static void run_atan(const char *file, const uint32_t *x, const uint32_t *g,
		     uint32_t *out, long long n, struct log *log)
{
	struct ub_error err;
	struct ptx_module *m;
	struct ptx_run_info info;
	char *text = ptx_read_data(file);
	int rc = ptx_parse(text, &m, &err);
	free(text);
	ck_assert_msg(rc == 0, "%s", err.msg);
	struct ptx_buffer bufs[3] = { { (void *)x, (size_t)n * 4, 0, NULL },
				      { (void *)g, (size_t)n * 4, 0, NULL },
				      { out, (size_t)n * 4, 1, NULL } };
	uint64_t args[4] = { (uint64_t)(uintptr_t)x, (uint64_t)(uintptr_t)g,
			     (uint64_t)(uintptr_t)out, (uint64_t)n };
	struct ptx_launch l = { { 1, 1, 1 }, { 4, 1, 1 }, args, 4, bufs, 3, 0, 0, 0, 0, 0 };
	struct ptx_trace tr = { keep, log };
	rc = ptx_run_traced(m, "atan_bwd", &l, log ? &tr : NULL, &info, &err);
	ptx_free(m);
	ck_assert_msg(rc == 0, "%s", err.msg);
}

static void check_event(const struct ptx_trace_event *e, const char *text,
			uint32_t line, int nsrc, const uint32_t *src, uint32_t dst)
{
	ck_assert_str_eq(e->text, text);
	ck_assert_uint_eq(e->line, line);
	ck_assert_int_eq(e->nsrc, nsrc);
	for (int k = 0; k < nsrc; k++) {
		ck_assert_msg(e->src[k] == src[k] && e->src_bits[k] == 32,
			      "%s operand %d: 0x%llx (%u bits), want 0x%08x", text, k,
			      (unsigned long long)e->src[k], e->src_bits[k], src[k]);
	}
	ck_assert_msg(e->dst == dst && e->dst_bits == 32, "%s: result 0x%llx, "
		      "want 0x%08x", text, (unsigned long long)e->dst, dst);
}

/* The case: fma fuses x*x+1 (host fmaf: 0x3f9a6277) and the
 * quotient is 0xbdeb9cee; each instruction is reported once, nothing
 * else (ld/st/mov and the integer index arithmetic are not). */
START_TEST(fused_instruction)
{
	uint32_t x = 0xbee874b0, g = 0xbe0e1707, out = 0;
	struct log log = { .n = 0 };
	run_atan("atan_bwd_fma.ptx", &x, &g, &out, 1, &log);
	uint32_t t = bits(fmaf(f32(x), f32(x), 1.0f));
	uint32_t q = bits(f32(g) / f32(t));
	ck_assert_uint_eq(t, 0x3f9a6277);
	ck_assert_uint_eq(q, 0xbdeb9cee);
	ck_assert_int_eq(log.n, 2);
	check_event(&log.ev[0], "fma.rn.f32", 84, 3,
		    (uint32_t[]){ x, x, 0x3f800000 }, t);
	check_event(&log.ev[1], "div.rn.f32", 86, 2, (uint32_t[]){ g, t }, q);
	ck_assert_uint_eq(log.ev[0].thread, 0);
	ck_assert_uint_eq(out, q);
}
END_TEST

/* nofma: three roundings, the same as torch's three kernels. */
START_TEST(separate_roundings)
{
	uint32_t x = 0xbee874b0, g = 0xbe0e1707, out = 0;
	struct log log = { .n = 0 };
	volatile float s = f32(x) * f32(x), t = s + 1.0f, q = f32(g) / t;
	run_atan("atan_bwd_nofma.ptx", &x, &g, &out, 1, &log);
	ck_assert_int_eq(log.n, 3);
	check_event(&log.ev[0], "mul.rn.f32", 84, 2, (uint32_t[]){ x, x }, bits(s));
	check_event(&log.ev[1], "add.rn.f32", 85, 2,
		    (uint32_t[]){ bits(s), 0x3f800000 }, bits(t));
	check_event(&log.ev[2], "div.rn.f32", 87, 2, (uint32_t[]){ g, bits(t) }, bits(q));
	ck_assert_uint_eq(out, 0xbdeb9cf0); /* tests/check_pipeline.c */
}
END_TEST

/* Several threads: each event says whose it is; threads past n run no
 * float instruction; the traced run computes what the untraced one does. */
START_TEST(threads_and_no_effect)
{
	uint32_t x[3] = { 0x3f800000, 0x40000000, 0xbee874b0 };
	uint32_t g[3] = { 0x3f800000, 0x40a00000, 0xbe0e1707 };
	uint32_t traced[3], plain[3];
	struct log log = { .n = 0 };
	run_atan("atan_bwd_fma.ptx", x, g, traced, 3, &log);
	run_atan("atan_bwd_fma.ptx", x, g, plain, 3, NULL);
	ck_assert_int_eq(log.n, 6);
	for (int i = 0; i < 3; i++) {
		ck_assert_uint_eq(log.ev[2 * i].thread, (uint64_t)i);
		ck_assert_uint_eq(log.ev[2 * i + 1].thread, (uint64_t)i);
		ck_assert_uint_eq(log.ev[2 * i + 1].dst, traced[i]);
		ck_assert_uint_eq(traced[i], plain[i]);
	}
	/* x = 1, g = 1: 1/(1+1) = 0.5; x = 2, g = 5: 5/(4+1) = 1 (exact). */
	ck_assert_uint_eq(traced[0], 0x3f000000);
	ck_assert_uint_eq(traced[1], 0x3f800000);
}
END_TEST

/* Which instructions count: setp/cvt on floats do (predicate result 1
 * bit, f16 result 16 bits), ld/st/mov and integer ones do not. */
static const char kinds_ptx[] =
	".version 9.0\n.target sm_90\n.address_size 64\n"
	".visible .entry k(.param .u64 p)\n{\n"
	"\t.reg .f32 %f<4>;\n\t.reg .b16 %h<2>;\n\t.reg .pred %p<2>;\n"
	"\t.reg .b64 %rd<2>;\n\t.reg .b32 %r<2>;\n"
	"\tld.param.u64 %rd1, [p];\n"
	"\tld.global.f32 %f1, [%rd1];\n"
	"\tmov.f32 %f2, 0f40000000;\n"
	"\tsetp.lt.f32 %p1, %f1, %f2;\n"
	"\tcvt.rn.f16.f32 %h1, %f1;\n"
	"\tadd.s32 %r1, %r1, 1;\n"
	"\tmul.rn.f32 %f3, %f1, %f2;\n"
	"\tst.global.f32 [%rd1], %f3;\n"
	"\tret;\n}\n";

START_TEST(which_instructions)
{
	struct ub_error err;
	struct ptx_module *m;
	struct ptx_run_info info;
	struct log log = { .n = 0 };
	uint32_t v = 0x3f800000; /* 1.0 */
	int rc = ptx_parse(kinds_ptx, &m, &err);
	ck_assert_msg(rc == 0, "%s", err.msg);
	struct ptx_buffer buf = { &v, 4, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)&v;
	struct ptx_launch l = { { 1, 1, 1 }, { 1, 1, 1 }, &arg, 1, &buf, 1, 0, 0, 0, 0, 0 };
	struct ptx_trace tr = { keep, &log };
	rc = ptx_run_traced(m, "k", &l, &tr, &info, &err);
	ptx_free(m);
	ck_assert_msg(rc == 0, "%s", err.msg);
	ck_assert_int_eq(log.n, 3);
	ck_assert_str_eq(log.ev[0].text, "setp.lt.f32");   /* 1 < 2: true */
	ck_assert_uint_eq(log.ev[0].dst, 1);
	ck_assert_uint_eq(log.ev[0].dst_bits, 1);
	ck_assert_str_eq(log.ev[1].text, "cvt.rn.f16.f32"); /* f16 1.0 = 0x3c00 */
	ck_assert_int_eq(log.ev[1].nsrc, 1);
	ck_assert_uint_eq(log.ev[1].src[0], 0x3f800000);
	ck_assert_uint_eq(log.ev[1].dst, 0x3c00);
	ck_assert_uint_eq(log.ev[1].dst_bits, 16);
	ck_assert_str_eq(log.ev[2].text, "mul.rn.f32");     /* 1 * 2 = 2 */
	ck_assert_uint_eq(log.ev[2].src[1], 0x40000000);
	ck_assert_uint_eq(log.ev[2].dst, 0x40000000);
	ck_assert_uint_eq(v, 0x40000000);
}
END_TEST

Suite *ub_trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");
	tcase_add_test(tc, fused_instruction);
	tcase_add_test(tc, separate_roundings);
	tcase_add_test(tc, threads_and_no_effect);
	tcase_add_test(tc, which_instructions);
	suite_add_tcase(s, tc);
	return s;
}

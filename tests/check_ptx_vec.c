/* check_ptx_vec.c — vector loads and stores (ld/st .v2/.v4 of every
 * element width, brace operand lists) and the cache and eviction
 * qualifiers nvcc and Triton put on them (.nc .ca .cg .cs .lu .cv, .wb .wt,
 * .L1::evict_last, .L1::no_allocate, .L2::256B, .L2::cache_hint with its
 * policy operand), on both executors.
 *
 * Each case is a kernel in which thread t loads one vector from
 * in + t * BYTES and stores it to out + t * BYTES (the element registers
 * in the order the PTX ISA gives, element i at address + i * size, section
 * 9.7.9.8 "ld"), run over 70 threads: a batch of 64 lanes and a partial
 * one.  A copy leaves out equal to in byte for byte (the expected value is
 * the input itself), so any misordered element, wrong width, lost
 * sign or zero extension of a narrow element, or dropped qualifier shows;
 * the bytes past the last thread stay at their sentinel. */
#include "check_ptx.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 70

struct vcase {
	const char *ld, *st; /* mnemonics, without the operands */
	const char *reg;     /* register prefix of the elements */
	int n, bytes;        /* elements, bytes per element */
};

/* Registers: %h b16, %r b32, %rd b64, %f f32, %fd f64 (elements 1..4);
 * .b8/.s8/.u8 elements go through 16- or 32-bit registers, as nvcc
 * declares them (a narrow load widens, a narrow store keeps the low
 * bits). */
static const struct vcase vcases[] = {
	{ "ld.global.v4.u8", "st.global.v4.u8", "%h", 4, 1 },
	{ "ld.global.cs.v4.s8", "st.global.cs.v4.s8", "%h", 4, 1 },
	{ "ld.global.nc.v4.s8", "st.global.v4.b8", "%r", 4, 1 },
	{ "ld.global.v2.u8", "st.global.v2.u8", "%h", 2, 1 },
	{ "ld.global.nc.v4.s16", "st.global.v4.u16", "%h", 4, 2 },
	{ "ld.global.v2.b16", "st.global.wb.v2.b16", "%h", 2, 2 },
	{ "ld.global.nc.v4.u32", "st.global.cs.v4.s32", "%r", 4, 4 },
	{ "ld.global.lu.v4.b32", "st.global.wt.v4.b32", "%r", 4, 4 },
	{ "ld.global.cv.v2.u32", "st.global.v2.u32", "%r", 2, 4 },
	{ "ld.global.nc.v4.f32", "st.global.cs.v4.f32", "%f", 4, 4 },
	{ "ld.global.ca.v2.f32", "st.global.cg.v2.f32", "%f", 2, 4 },
	{ "ld.global.cg.v2.f64", "st.global.cg.v2.f64", "%fd", 2, 8 },
	{ "ld.global.nc.v2.s64", "st.global.v2.u64", "%rd", 2, 8 },
	{ "ld.global.v2.b64", "st.global.wt.v2.b64", "%rd", 2, 8 },
	{ "ld.global.L1::evict_last.v4.f32", "st.global.L1::no_allocate.v4.f32", "%f", 4, 4 },
	{ "ld.global.nc.L1::no_allocate.L2::256B.v4.u32", "st.global.L1::evict_first.v4.u32",
	  "%r", 4, 4 },
	{ "ld.global.L2::128B.v2.f64", "st.global.L1::evict_normal.v2.f64", "%fd", 2, 8 },
	{ "ld.global.nc.b32", "st.global.cs.b32", "%r", 1, 4 },
	{ "ld.global.lu.f64", "st.global.wb.f64", "%fd", 1, 8 },
	{ "ld.global.cs.b16", "st.global.cs.b16", "%h", 1, 2 },
	{ "ld.global.ca.u8", "st.global.u8", "%r", 1, 1 },
	{ "ld.global.relaxed.gpu.b32", "st.global.relaxed.gpu.b32", "%r", 1, 4 },
	{ "ld.global.acquire.gpu.b64", "st.global.release.gpu.b64", "%rd", 1, 8 },
	{ "ld.global.volatile.v2.f32", "st.global.volatile.v2.f32", "%f", 2, 4 },
};

/* The kernel of case k; `hint` adds .L2::cache_hint with a policy made by
 * createpolicy (an opaque 64-bit value: only the cache sees it).  `space`
 * spaces the operands as Triton does ("{ %r1, %r2 }", "[ %rd4 + 0 ]"). */
static void vkernel(const struct vcase *k, int hint, int space, char *buf, size_t len)
{
	char regs[64] = "";
	const char *sp = space ? " " : "";
	for (int i = 0; i < k->n; i++)
		snprintf(regs + strlen(regs), sizeof regs - strlen(regs), "%s%s%d",
			 i ? ", " : "", k->reg, i + 1);
	char ldm[96], stm[96];
	snprintf(ldm, sizeof ldm, "%s", k->ld);
	snprintf(stm, sizeof stm, "%s", k->st);
	if (hint) {   /* ld.global.L2::cache_hint.nc... : after the space */
		snprintf(ldm, sizeof ldm, "ld.global.L2::cache_hint%s", k->ld + 9);
		snprintf(stm, sizeof stm, "st.global.L2::cache_hint%s", k->st + 9);
	}
	int vec = k->n > 1 || space;
	snprintf(buf, len,
		 ".version 8.0\n.target sm_90\n.address_size 64\n"
		 ".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
		 "\t.reg .b16 %%h<5>;\n\t.reg .b32 %%r<5>;\n\t.reg .b64 %%rd<8>;\n"
		 "\t.reg .f32 %%f<5>;\n\t.reg .f64 %%fd<5>;\n"
		 "\tld.param.u64 %%rd1, [pin];\n\tld.param.u64 %%rd2, [pout];\n"
		 "\tcreatepolicy.fractional.L2::evict_last.b64 %%rd7, 1.0;\n"
		 "\tmov.u32 %%r1, %%tid.x;\n\tmul.wide.u32 %%rd3, %%r1, %d;\n"
		 "\tadd.s64 %%rd4, %%rd1, %%rd3;\n\tadd.s64 %%rd5, %%rd2, %%rd3;\n"
		 "\t%s %s%s%s%s, [%s%%rd4%s]%s;\n"
		 "\t%s [%s%%rd5%s], %s%s%s%s%s;\n\tret;\n}\n",
		 k->n * k->bytes,
		 ldm, vec ? "{" : "", sp, regs, vec ? (space ? " }" : "}") : "",
		 sp, space ? " + 0 " : "", hint ? ", %rd7" : "",
		 stm, sp, space ? " + 0 " : "", vec ? "{" : "", sp, regs,
		 vec ? (space ? " }" : "}") : "", hint ? ", %rd7" : "");
}

static void vrun(const struct vcase *k, int hint, int space, int scalar)
{
	char src[2048];
	struct ub_error err = { "" };
	struct ptx_module *m;
	vkernel(k, hint, space, src, sizeof src);
	ck_assert_msg(ptx_parse(src, &m, &err) == 0, "%s: %s\n%s", k->ld, err.msg, src);
	size_t used = (size_t)THREADS * (size_t)(k->n * k->bytes), size = used + 64;
	unsigned char *in = malloc(size), *out = malloc(size);
	ck_assert(in && out);
	for (size_t i = 0; i < size; i++)   /* bytes with the top bit set and not */
		in[i] = (unsigned char)(i * 151 + 7), out[i] = 0xa5;
	struct ptx_buffer bufs[2] = { { in, size, 0, "in" }, { out, size, 1, "out" } };
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	struct ptx_launch l = { { 1, 1, 1 }, { THREADS, 1, 1 }, args, 2, bufs, 2, 0,
				scalar, 0, 0, 0 };
	struct ptx_run_info info;
	int rc = ptx_run(m, "k", &l, &info, &err);
	ck_assert_msg(rc == 0, "%s / %s: %s", k->ld, k->st, err.msg);
	for (size_t i = 0; i < size; i++)
		UB_ASSERT(out[i] == (i < used ? in[i] : 0xa5), "%s / %s%s%s%s: byte %zu "
			  "is 0x%02x, want 0x%02x", k->ld, k->st, hint ? " (cache_hint)" : "",
			  space ? " (spaced)" : "", scalar ? " thread by thread" : "",
			  i, out[i], i < used ? in[i] : 0xa5);
	ptx_free(m);
	free(in);
	free(out);
}

#define NV ((int)(sizeof vcases / sizeof *vcases))

/* _i: case, then hint and spacing, each on both executors */
START_TEST(vector_copy)
{
	const struct vcase *k = &vcases[_i % NV];
	int form = _i / NV;   /* 0 plain, 1 cache_hint, 2 spaced */
	vrun(k, form == 1, form == 2, 0);
	vrun(k, form == 1, form == 2, 1);
}
END_TEST

/* A vector access is checked as a whole: the last element of a .v4 one
 * element past the end of its buffer is an out-of-bounds error naming the
 * instruction. */
START_TEST(vector_bounds)
{
	static const char src[] =
		".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
		"\t.reg .f32 %f<5>;\n\t.reg .b64 %rd<3>;\n"
		"\tld.param.u64 %rd1, [pin];\n\tld.param.u64 %rd2, [pout];\n"
		"\tld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+4];\n"
		"\tst.global.v4.f32 [%rd2], {%f1, %f2, %f3, %f4};\n\tret;\n}\n";
	struct ub_error err = { "" };
	struct ptx_module *m;
	float in[4] = { 1, 2, 3, 4 }, out[4] = { 0 };
	ck_assert_msg(ptx_parse(src, &m, &err) == 0, "%s", err.msg);
	struct ptx_buffer bufs[2] = { { in, sizeof in, 0, "input 'x'" },
				      { out, sizeof out, 1, "output 'out'" } };
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	struct ptx_launch l = { { 1, 1, 1 }, { 1, 1, 1 }, args, 2, bufs, 2, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_int_eq(ptx_run(m, "k", &l, &info, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "ld.global.nc.v4.f32") != NULL, "%s", err.msg);
	ck_assert_msg(out[0] == 0, "nothing stored");
	ptx_free(m);
}
END_TEST

TCase *ptx_vec_tcase(void)
{
	TCase *tc = tcase_create("vector_memory");
	tcase_add_loop_test(tc, vector_copy, 0, 3 * NV);
	tcase_add_test(tc, vector_bounds);
	return tc;
}

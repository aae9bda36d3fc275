/* check_ptx_ldmatrix.c — ldmatrix, stmatrix and movmatrix on hand-written
 * PTX, one warp.  Every expected word is derived from the PTX ISA's
 * description (9.7.14.5.15-.17), not from the interpreter: an 8x8 b16
 * matrix F as a fragment puts F[l/4][2(l%4)] in the low half and
 * F[l/4][2(l%4)+1] in the high half of lane l's register; row r of
 * matrix i is at the address lane 8i + r gives; .trans transposes. */
#include "check_ptx.h"

#include <stdio.h>
#include <string.h>

/* The .shared buffer holds in[0..255] (b16); lane l addresses row
 * 7 - (l % 8) of matrix l / 8 (rows reversed), then ldmatrix .x4 and
 * .x4.trans, and .x1 with every lane from 8 on pointing past the buffer
 * (their addresses are not used). */
static const char ld_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry ldm(.param .u64 pin, .param .u64 pout)\n{\n"
	".shared .align 16 .b8 sm[512];\n"
	".reg .b32 %r<24>;\n.reg .b64 %rd<8>;\n.reg .pred %p<2>;\n"
	"ld.param.u64 %rd1, [pin];\nld.param.u64 %rd2, [pout];\n"
	"mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd3, %r1, 16;\nadd.s64 %rd4, %rd1, %rd3;\n"
	"ld.global.v4.b32 {%r2, %r3, %r4, %r5}, [%rd4];\n"
	"mov.u32 %r6, sm;\nshl.b32 %r7, %r1, 4;\nadd.u32 %r8, %r6, %r7;\n"
	"st.shared.v4.b32 [%r8], {%r2, %r3, %r4, %r5};\nbar.sync 0;\n"
	"and.b32 %r9, %r1, 7;\nxor.b32 %r10, %r9, 7;\nand.b32 %r11, %r1, 24;\n"
	"or.b32 %r12, %r11, %r10;\nshl.b32 %r13, %r12, 4;\nadd.u32 %r14, %r6, %r13;\n"
	"add.s64 %rd5, %rd2, %rd3;\n"
	"ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r15, %r16, %r17, %r18}, [%r14];\n"
	"st.global.v4.b32 [%rd5], {%r15, %r16, %r17, %r18};\n"
	"ldmatrix.sync.aligned.m8n8.x4.trans.shared::cta.b16 {%r15, %r16, %r17, %r18}, [%r14];\n"
	"st.global.v4.b32 [%rd5+512], {%r15, %r16, %r17, %r18};\n"
	"setp.ge.u32 %p1, %r1, 8;\nselp.b32 %r19, 4096, %r14, %p1;\n"
	"ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%r19];\n"
	"st.global.b32 [%rd5+1024], %r20;\n"
	"ret;\n}\n";

/* The fragment word of lane l of matrix F (f(r, c) its element). */
static uint32_t frag(unsigned l, unsigned (*f)(unsigned, unsigned, unsigned),
		    unsigned i)
{
	return f(i, l / 4, 2 * (l % 4)) | f(i, l / 4, 2 * (l % 4) + 1) << 16;
}

/* Element (r, c) of matrix i as ldmatrix sees it: its row r comes from
 * the address of lane 8i + r, memory row 8i + 7 - r; in[x] = x. */
static unsigned loaded(unsigned i, unsigned r, unsigned c)
{
	return (8 * i + 7 - r) * 8 + c;
}

static unsigned loaded_t(unsigned i, unsigned r, unsigned c)
{
	return loaded(i, c, r);
}

START_TEST(ldmatrix)
{
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(ld_ptx, &m, &err) == 0, "%s", err.msg);
	static uint16_t in[512];
	static uint32_t out[32 * 4 * 3];
	for (int x = 0; x < 256; x++)
		in[x] = (uint16_t)x;
	memset(out, 0, sizeof out);
	struct ptx_buffer bufs[2] = { { in, sizeof in, 0, NULL }, { out, sizeof out, 1, NULL } };
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	struct ptx_launch l = { { 1, 1, 1 }, { 32, 1, 1 }, args, 2, bufs, 2, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(m, "ldm", &l, &info, &err) == 0, "%s", err.msg);
	for (unsigned ln = 0; ln < 32; ln++) {
		for (unsigned i = 0; i < 4; i++) {
			ck_assert_msg(out[ln * 4 + i] == frag(ln, loaded, i), "lane %u reg %u: "
				      "0x%08x, want 0x%08x", ln, i, out[ln * 4 + i],
				      frag(ln, loaded, i));
			ck_assert_msg(out[128 + ln * 4 + i] == frag(ln, loaded_t, i), "trans "
				      "lane %u reg %u: 0x%08x, want 0x%08x", ln, i,
				      out[128 + ln * 4 + i], frag(ln, loaded_t, i));
		}
		ck_assert_uint_eq(out[256 + ln * 4], frag(ln, loaded, 0));
	}
	ck_assert_uint_eq(info.approx_mask, 0);
	ptx_free(m);
}
END_TEST

/* stmatrix .x2 (.trans too): lane l's registers hold (l << 8 | 2i) in the
 * low half and (l << 8 | 2i + 1) in the high one; lane l addresses row
 * 7 - (l % 8) of matrix l / 8 in a zeroed .shared buffer, copied out
 * whole.  movmatrix of lane l's word (2l | (2l + 1) << 16: F[r][c] =
 * 8r + c) is the transposed fragment. */
static const char st_ptx[] =
	".version 8.0\n.target sm_90\n.address_size 64\n"
	".visible .entry stm(.param .u64 pout)\n{\n"
	".shared .align 16 .b8 sm[256];\n"
	".reg .b32 %r<32>;\n.reg .b64 %rd<8>;\n"
	"ld.param.u64 %rd1, [pout];\nmov.u32 %r1, %tid.x;\nmov.u32 %r6, sm;\n"
	"shl.b32 %r2, %r1, 8;\nshl.b32 %r5, %r1, 24;\nor.b32 %r3, %r2, %r5;\n"
	"or.b32 %r3, %r3, 0x10000;\n"                  /* reg 0: 0, 1 */
	"or.b32 %r4, %r3, 0x00020002;\n"                /* reg 1: 2, 3 */
	"and.b32 %r9, %r1, 7;\nxor.b32 %r10, %r9, 7;\nand.b32 %r11, %r1, 24;\n"
	"or.b32 %r12, %r11, %r10;\nshl.b32 %r13, %r12, 4;\nadd.u32 %r14, %r6, %r13;\n"
	"stmatrix.sync.aligned.m8n8.x2.shared.b16 [%r14], {%r3, %r4};\n"
	"bar.sync 0;\nshl.b32 %r7, %r1, 2;\nadd.u32 %r8, %r6, %r7;\n"
	"ld.shared.b32 %r15, [%r8];\nld.shared.b32 %r16, [%r8+128];\n"
	"mul.wide.u32 %rd2, %r1, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
	"st.global.b32 [%rd3], %r15;\nst.global.b32 [%rd3+128], %r16;\n"
	"bar.sync 0;\n"
	"stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%r14], {%r3, %r4};\n"
	"bar.sync 0;\nld.shared.b32 %r15, [%r8];\nld.shared.b32 %r16, [%r8+128];\n"
	"st.global.b32 [%rd3+256], %r15;\nst.global.b32 [%rd3+384], %r16;\n"
	"shl.b32 %r17, %r1, 1;\nadd.u32 %r18, %r17, 1;\nshl.b32 %r19, %r18, 16;\n"
	"or.b32 %r20, %r17, %r19;\n"
	"movmatrix.sync.aligned.m8n8.trans.b16 %r21, %r20;\n"
	"st.global.b32 [%rd3+512], %r21;\n"
	"ret;\n}\n";

/* The fragment element (r, c) of register i: lane r*4 + c/2's half c%2. */
static unsigned held(unsigned i, unsigned r, unsigned c)
{
	unsigned lane = r * 4 + c / 2;
	return lane << 8 | (2 * i + c % 2);
}

START_TEST(stmatrix_movmatrix)
{
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(st_ptx, &m, &err) == 0, "%s", err.msg);
	static uint32_t out[32 * 5];
	memset(out, 0, sizeof out);
	struct ptx_buffer b = { out, sizeof out, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)out;
	struct ptx_launch l = { { 1, 1, 1 }, { 32, 1, 1 }, &arg, 1, &b, 1, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(m, "stm", &l, &info, &err) == 0, "%s", err.msg);
	const uint16_t *h = (const uint16_t *)out;   /* little-endian */
	for (int t = 0; t < 2; t++)
		for (unsigned i = 0; i < 2; i++)
			for (unsigned row = 0; row < 8; row++)
				for (unsigned c = 0; c < 8; c++) {
					/* memory row 8i + 7 - r holds matrix i's row r */
					unsigned r = 7 - row, want = t ? held(i, c, r) : held(i, r, c);
					unsigned got = h[t * 128 + (8 * i + row) * 8 + c];
					ck_assert_msg(got == want, "%s matrix %u row %u col %u: "
						      "0x%04x, want 0x%04x", t ? "trans" : "plain",
						      i, row, c, got, want);
				}
	for (unsigned ln = 0; ln < 32; ln++) {
		uint32_t want = (2 * (ln % 4) * 8 + ln / 4) |
				((2 * (ln % 4) + 1) * 8 + ln / 4) << 16;
		ck_assert_msg(out[128 + ln] == want, "movmatrix lane %u: 0x%08x, want "
			      "0x%08x", ln, out[128 + ln], want);
	}
	ptx_free(m);
}
END_TEST

/* A run of kernel `name` in one block of `threads`: the error. */
static void fails(const char *ptx, const char *name, unsigned threads,
		  const char *msg)
{
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_msg(ptx_parse(ptx, &m, &err) == 0, "%s", err.msg);
	struct ptx_launch l = { { 1, 1, 1 }, { threads, 1, 1 }, NULL, 0, NULL, 0, 0, 0,
				0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_int_eq(ptx_run(m, name, &l, &info, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, msg), "%s: %s", name, err.msg);
	ptx_free(m);
}

START_TEST(errors)
{
	/* half of the warp skips it */
	fails(".target sm_90\n.entry half()\n{\n.shared .align 16 .b8 s[128];\n"
	      ".reg .b32 %r<8>;\n.reg .pred %p<2>;\nmov.u32 %r1, %tid.x;\n"
	      "setp.lt.u32 %p1, %r1, 16;\nmov.u32 %r2, s;\n"
	      "@%p1 ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%r2];\nret;\n}\n",
	      "half", 32, "ldmatrix.sync.aligned.m8n8.x1.shared.b16 at line 10: lane "
	      "16 of warp 0 skips it (its guard is false): every lane of the warp "
	      "must run it together (.sync.aligned)");
	/* a row 8 bytes into the buffer */
	fails(".target sm_90\n.entry mis()\n{\n.shared .align 16 .b8 s[256];\n"
	      ".reg .b32 %r<8>;\nmov.u32 %r2, s;\nadd.u32 %r2, %r2, 8;\n"
	      "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r3}, [%r2];\nret;\n}\n",
	      "mis", 32, "row 0 of matrix 0 (lane 0): .shared offset 0x8 is not "
	      "16-byte aligned");
	/* a block of 16 threads: lanes 16..31 are not there */
	fails(".target sm_90\n.entry small()\n{\n.reg .b32 %r<8>;\n"
	      "movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r2;\nret;\n}\n", "small", 16,
	      "lane 16 of warp 0 has exited or is not in the block");
	/* the parser refuses what it does not run */
	static const char *const bad[][2] = {
		{ "ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8 {%r1}, [%r2];",
		  "only .m8n8 with .b16" },
		{ "ldmatrix.sync.aligned.m8n8.x3.shared.b16 {%r1}, [%r2];",
		  "needs .x1, .x2 or .x4" },
		{ "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r1}, [%r2];",
		  "vector length mismatch" },
		{ "movmatrix.sync.aligned.m8n8.b16 %r1, %r2;", "movmatrix needs .trans" },
	};
	for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
		char text[400];
		struct ub_error err = { "" };
		struct ptx_module *m = NULL;
		snprintf(text, sizeof text, ".target sm_90\n.entry k()\n{\n"
			 ".reg .b32 %%r<4>;\n%s\nret;\n}\n", bad[k][0]);
		ck_assert_int_eq(ptx_parse(text, &m, &err), UB_RUNTIME);
		ck_assert_msg(strstr(err.msg, bad[k][1]), "%s: %s", bad[k][0], err.msg);
	}
}
END_TEST

TCase *ptx_ldmatrix_tcase(void)
{
	TCase *tc = tcase_create("ldmatrix");
	tcase_add_test(tc, ldmatrix);
	tcase_add_test(tc, stmatrix_movmatrix);
	tcase_add_test(tc, errors);
	return tc;
}

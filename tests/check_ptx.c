/* check_ptx.c — the ptx suite: the one-instruction kernel harness used by
 * check_ptx_fp.c and check_ptx_int.c, parse errors, memory checks and the
 * instruction budget.  Expected values are stated with their source next
 * to each table. */
#include "check_ptx.h"
#include "ptx_batch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cases of a documented-error model (they expect a modelled kind,
 * below PTX_AX_MEASURED) run as sm_80 PTX, where no measured model
 * applies (src/exec/mufu.h); all others as sm_90's. */
static const char harness_target[2][24] = { ".target sm_90\n", ".target sm_80\n" };
static const char harness_head[] =
	".address_size 64\n"
	".visible .entry k(.param .u64 pin, .param .u64 pout)\n{\n"
	"\t.reg .pred %p<5>;\n\t.reg .pred %q<5>;\n\t.reg .b16 %h<5>;\n"
	"\t.reg .b32 %x<5>;\n\t.reg .b64 %y<5>;\n\t.reg .b64 %a<2>;\n"
	"\tld.param.u64 %a0, [pin];\n\tld.param.u64 %a1, [pout];\n"
	"\tld.global.b64 %y0, [%a0];\n\tld.global.b64 %y1, [%a0+8];\n"
	"\tld.global.b64 %y2, [%a0+16];\n\tld.global.b32 %x0, [%a0];\n"
	"\tld.global.b32 %x1, [%a0+8];\n\tld.global.b32 %x2, [%a0+16];\n"
	"\tld.global.b16 %h0, [%a0];\n\tld.global.b16 %h1, [%a0+8];\n"
	"\tld.global.b16 %h2, [%a0+16];\n\tsetp.ne.b64 %p0, %y0, 0;\n"
	"\tsetp.ne.b64 %p1, %y1, 0;\n\tsetp.ne.b64 %p2, %y2, 0;\n"
	"\tmov.b64 %y3, 0;\n\tmov.b32 %x3, 0;\n\tmov.b16 %h3, 0;\n"
	"\tmov.pred %p3, 0;\n\tmov.pred %q3, 0;\n";
static const char harness_tail[] =
	";\n\tst.global.b64 [%a1], %y3;\n\tst.global.b32 [%a1+8], %x3;\n"
	"\tst.global.b16 [%a1+16], %h3;\n\tselp.b32 %x4, 1, 0, %p3;\n"
	"\tst.global.b32 [%a1+24], %x4;\n\tselp.b32 %x4, 1, 0, %q3;\n"
	"\tst.global.b32 [%a1+28], %x4;\n\tret;\n}\n";

/* Distance between two f32 encodings in ulps (ordered integers). */
static uint64_t ulp_dist32(uint32_t a, uint32_t b)
{
	int64_t ia = a >> 31 ? -(int64_t)(a & 0x7fffffff) : (int64_t)a;
	int64_t ib = b >> 31 ? -(int64_t)(b & 0x7fffffff) : (int64_t)b;
	return (uint64_t)(ia > ib ? ia - ib : ib - ia);
}

void ptx_check_case(const struct ptx_case *k)
{
	char src[4096];
	struct ub_error err;
	struct ptx_module *m;
	int modelled = (k->mask & ((1ull << PTX_AX_MEASURED) - 1)) != 0;
	snprintf(src, sizeof src, ".version 9.0\n%s%s\t%s%s", harness_target[modelled],
		 harness_head, k->insn, harness_tail);
	int rc = ptx_parse(src, &m, &err);
	ck_assert_msg(rc == 0, "%s: parse failed: %s", k->insn, err.msg);
	uint64_t in[3] = { k->a, k->b, k->c };
	unsigned char out[32] = { 0 };
	struct ptx_buffer bufs[2] = { { in, sizeof in, 0, NULL }, { out, sizeof out, 1, NULL } };
	uint64_t args[2] = { (uint64_t)(uintptr_t)in, (uint64_t)(uintptr_t)out };
	struct ptx_launch l = { { 1, 1, 1 }, { 1, 1, 1 }, args, 2, bufs, 2, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	rc = ptx_run(m, "k", &l, &info, &err);
	ptx_free(m);
	ck_assert_msg(rc == 0, "%s: run failed: %s", k->insn, err.msg);
	uint64_t y = 0, got;
	uint32_t x = 0, p = 0, q = 0;
	uint16_t h = 0;
	memcpy(&y, out, 8), memcpy(&x, out + 8, 4), memcpy(&h, out + 16, 2);
	memcpy(&p, out + 24, 4), memcpy(&q, out + 28, 4);
	switch (k->out) {
	case 'x': got = x; break;
	case 'y': got = y; break;
	case 'h': got = h; break;
	case 'p': got = p; break;
	default: got = q; break;
	}
	int ok = k->ulps ? ulp_dist32((uint32_t)got, (uint32_t)k->want) <= k->ulps
			 : got == k->want;
	ck_assert_msg(ok, "%s (a=0x%" PRIx64 " b=0x%" PRIx64 " c=0x%" PRIx64
		      "): got 0x%" PRIx64 ", want 0x%" PRIx64 " (%u ulps)",
		      k->insn, k->a, k->b, k->c, got, k->want, k->ulps);
	ck_assert_msg(info.approx_mask == k->mask, "%s: approx_mask 0x%" PRIx64
		      ", want 0x%" PRIx64, k->insn, info.approx_mask, k->mask);
}

char *ptx_read_data(const char *name)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/tests/data/ptx/%s", SRCDIR, name);
	FILE *f = fopen(path, "rb");
	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	char *s = malloc((size_t)n + 1);
	ck_assert(s != NULL);
	ck_assert(fread(s, 1, (size_t)n, f) == (size_t)n);
	s[n] = 0;
	fclose(f);
	return s;
}

/* Parse errors: each PTX text and a part its one-line message must hold. */
static const struct {
	const char *ptx, *msg;
} bad_ptx[] = {
	{ ".version 9.0\n.target sm_90\n.entry k()\n{\n.reg .b32 %r<2>;\n"
	  "frobnicate.b32 %r0, %r1;\n}\n",
	  "ptx:6: unsupported instruction 'frobnicate.b32'" },
	{ ".entry k()\n{\n.reg .f32 %f<2>;\nadd.rn.f32 %f0, %f1, %f2;\n}\n",
	  "ptx:4: undeclared register '%f2'" },
	{ ".entry k()\n{\n.reg .pred %p<2>;\n@%p0 bra $L__nowhere;\nret;\n}\n",
	  "ptx:4: unknown label '$L__nowhere'" },
	{ ".entry k()\n{\n.reg .b32 %r<2>;\natom.global.cas.f32 %r0, [%r1], 1;\n}\n",
	  "ptx:4: unsupported instruction 'atom.global.cas.f32': an operation and "
	  "type the interpreter does not model" },
	{ ".entry k()\n{\n.reg .b32 %r<2>;\nbar.sync 0, 64;\n}\n",
	  "ptx:4: a barrier with a thread count is not supported" },
	{ ".entry k()\n{\n.reg .b32 %r<2>;\nshfl.sync.down.b16 %r0, %r1, 1, 31, -1;\n}\n",
	  "ptx:4: unsupported instruction 'shfl.sync.down.b16': needs .up, .down, "
	  ".bfly or .idx and .b32" },
	{ ".entry k()\n{\n.reg .f32 %f<2>;\ndiv.f32 %f0, %f1, %f1;\n}\n",
	  "ptx:4: unsupported instruction 'div.f32': needs a rounding modifier" },
	{ ".entry k()\n{\n.reg .f64 %d<2>;\nadd.rn.ftz.f64 %d0, %d1, %d1;\n}\n",
	  "ptx:4: unsupported instruction 'add.rn.ftz.f64': .ftz not allowed" },
	{ ".entry k()\n{\n.reg .b32 %r<2>;\nadd.sat.s32 %r0, %r1, %r1;\n}\n",
	  "unsupported instruction 'add.sat.s32': .sat not supported" },
	{ ".entry k()\n{\n.reg .f32 %f<2>;\nadd.rni.f32 %f0, %f1, %f1;\n}\n",
	  "unsupported instruction 'add.rni.f32': rounding modifier not allowed" },
	/* %clock is modelled (ptx_ops.h); the performance-monitoring
	 * counters %pm0..%pm7 are not */
	{ ".entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r0, %pm0;\n}\n",
	  "ptx:4: undeclared register '%pm0'" },
	{ ".entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %tid.x, %r0;\n}\n",
	  "ptx:4: '%tid.x' is read-only" },
	{ ".entry k()\n{\n.shared .b8 s[2097152];\nret;\n}\n",
	  "ptx:3: .shared 's' exceeds the interpreter's limit of 1048576 bytes" },
	{ ".entry k()\n{\n.reg .b32 %r<2>;\nadd.s32 %r0, %r1, 1\n}\n",
	  "ptx:5: expected ';', found '}'" },
	{ ".entry k()\n{\n/* open comment\nret;\n}\n", "ptx:3: unterminated comment" },
	/* Sizes that wrap 64 bits: 65535 * 641 * 65537 * 6700417 = 2^64 - 1
	 * (the factorization of 2^64 - 1), which once gave a 0-byte .local
	 * buffer (SIZE_MAX + 1) with an unbounded limit; 2^24 * 2^24 * 2^16
	 * = 2^64 wraps to 0; 4 * 5 * 5581 * 8681 * 49477 * 384773 = 2^64 + 4
	 * (2^62 + 1 = 5 * 5581 * 8681 * 49477 * 384773) wraps to 4 bytes. */
	{ ".entry k()\n{\n.reg .b32 %r<2>;\n"
	  ".local .b8 a[65535][641][65537][6700417];\nret;\n}\n",
	  "ptx:4: .local 'a' of 'k' exceeds the interpreter's limit of 524288 "
	  "bytes of .local memory per thread" },
	/* the attributes come after the type (PTX ISA, "Kernel Function
	 * Parameter Attributes"), never before it */
	{ ".entry k(.param .ptr .u64 p)\n{\nret;\n}\n", "ptx:1: unsupported type '.ptr'" },
	{ ".entry k(.param .b8 p[16777216][16777216][65536])\n{\nret;\n}\n",
	  "ptx:1: .param 'p' of 'k' exceeds the interpreter's limit of 4096 "
	  "bytes of parameters per function" },
	{ ".global .b8 g[4][5][5581][8681][49477][384773];\n.entry k()\n{\nret;\n}\n",
	  "ptx:1: .global 'g' exceeds the interpreter's limit of 268435456 "
	  "bytes of .global/.const arrays per module" },
	/* Limits reached by adding declarations: 2 * 300000 bytes of .local
	 * (a call site's .param lives there too); 4000 + 100 bytes of .param;
	 * 2 * 2^27 + 1 bytes of module arrays. */
	{ ".entry k()\n{\n.local .b8 a[300000];\n.param .b8 b[300000];\nret;\n}\n",
	  "ptx:4: .param 'b' of 'k' exceeds the interpreter's limit of 524288 bytes" },
	{ ".entry k(.param .b8 a[4000], .param .b32 b[25])\n{\nret;\n}\n",
	  "ptx:1: .param 'b' of 'k' exceeds the interpreter's limit of 4096 bytes" },
	{ ".global .b64 g[4096][4096];\n.const .b64 h[4096][4096];\n"
	  ".global .b8 i[1];\n.entry k()\n{\nret;\n}\n",
	  "ptx:3: .global 'i' exceeds the interpreter's limit of 268435456 bytes" },
	/* Register declarations: each slot costs 64 lanes of 8 bytes in a
	 * batch, so 2^23 registers once asked for 4.4 GB per thread of
	 * ulpbench; 2^20 registers and constants per function at most. */
	{ ".entry k()\n{\n.reg .b32 %r<8388608>;\nret;\n}\n",
	  "ptx:3: .reg '%r<8388608>' of 'k': more than 1048576 registers and "
	  "constants in one function" },
	{ ".entry k()\n{\n.reg .b32 %r<600000>;\n{\n.reg .b64 %s<600000>;\n}\nret;\n}\n",
	  "ptx:5: .reg '%s<600000>' of 'k': more than 1048576 registers" },
	/* PTX alignments are powers of two. */
	{ ".entry k()\n{\n.local .align 12 .b8 a[24];\nret;\n}\n",
	  "ptx:3: bad .align (a power of two)" },
};

START_TEST(parse_errors)
{
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	int rc = ptx_parse(bad_ptx[_i].ptx, &m, &err);
	ck_assert_int_eq(rc, UB_RUNTIME);
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(err.msg, bad_ptx[_i].msg) != NULL,
		      "message '%s' lacks '%s'", err.msg, bad_ptx[_i].msg);
}
END_TEST

/* A statement cut short at the end of the text, whose mnemonic makes the
 * decoder look ahead (mov and cvta: is a '{' 0 or 2 tokens on?).  The
 * text has exactly 1024 tokens, the lexer's first array size, so a look
 * past the closing END token reads outside the array (ASan). */
static const char *const cut_tails[] = { "mov", "mov %r1", "cvta", "@%p1 mov",
					 "mov.b64 %rd1,", "L" };

/* How many tokens text lexes into, END included. */
static size_t ntokens(const char *text)
{
	struct ptx_tok *toks;
	struct ub_error err = { "" };
	size_t n = 0;
	ck_assert_msg(ptx_lex(text, &toks, &n, &err) == 0, "%s", err.msg);
	free(toks);
	return n;
}

START_TEST(lookahead_at_end)
{
	char text[4096] = ".entry k()\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<2>;\n"
			  ".reg .pred %p<2>;\n";
	const char *tail = cut_tails[_i];
	/* filled up with "ret;" (two tokens) and a '{' when the count is odd */
	size_t room = 1024 - (ntokens(text) - 1) - ntokens(tail);
	if (room % 2)
		strcat(text, "{\n"), room--;
	for (; room; room -= 2)
		strcat(text, "ret;\n");
	strcat(text, tail);
	ck_assert_uint_eq(ntokens(text), 1024);
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_int_eq(ptx_parse(text, &m, &err), UB_RUNTIME);
	ck_assert_ptr_null(m);
	ck_assert_msg(strstr(err.msg, "ptx:"), "%s", err.msg);
}
END_TEST

/* 5 functions of 900,000 registers each: 4.5 million slots, past the
 * module's 2^22; and one of 20,000 (under the function's limit, over the
 * batched executor's 2^14) runs thread by thread. */
START_TEST(register_limits)
{
	char text[2048] = "";
	for (int k = 0; k < 5; k++)
		snprintf(text + strlen(text), sizeof text - strlen(text),
			 ".entry k%d()\n{\n.reg .b32 %%r<900000>;\nret;\n}\n", k);
	struct ub_error err = { "" };
	struct ptx_module *m = NULL;
	ck_assert_int_eq(ptx_parse(text, &m, &err), UB_RUNTIME);
	ck_assert_msg(strstr(err.msg, "ptx:23: 'k4' has more than 4194304 registers "
			     "and constants (the interpreter's limit per module)"),
		      "%s", err.msg);
	static const char wide[] =
		".entry w(.param .u64 p)\n{\n.reg .b32 %r<20000>;\n.reg .b64 %rd<2>;\n"
		"ld.param.u64 %rd1, [p];\nmov.u32 %r19999, 7;\n"
		"st.global.u32 [%rd1], %r19999;\nret;\n}\n";
	ck_assert_msg(ptx_parse(wide, &m, &err) == 0, "%s", err.msg);
	ck_assert_uint_gt(m->funcs[0].nslots, 1u << 14);
	ck_assert_int_eq(ptx_batchable(&m->funcs[0]), 0);
	uint32_t out = 0;
	struct ptx_buffer b = { &out, sizeof out, 1, NULL };
	uint64_t arg = (uint64_t)(uintptr_t)&out;
	struct ptx_launch l = { { 1, 1, 1 }, { 1, 1, 1 }, &arg, 1, &b, 1, 0, 0, 0, 0, 0 };
	struct ptx_run_info info;
	ck_assert_msg(ptx_run(m, "w", &l, &info, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(out, 7);
	ptx_free(m);
}
END_TEST

Suite *ub_ptx_suite(void)
{
	Suite *s = suite_create("ptx");
	TCase *tc = tcase_create("parse_errors");
	tcase_add_loop_test(tc, parse_errors, 0,
			    (int)(sizeof bad_ptx / sizeof *bad_ptx));
	tcase_add_test(tc, register_limits);
	tcase_add_loop_test(tc, lookahead_at_end, 0,
			    (int)(sizeof cut_tails / sizeof *cut_tails));
	suite_add_tcase(s, tc);
	suite_add_tcase(s, ptx_fp_tcase());
	suite_add_tcase(s, ptx_int_tcase());
	suite_add_tcase(s, ptx_kernel_tcase());
	suite_add_tcase(s, ptx_ext_tcase());
	suite_add_tcase(s, ptx_batch_tcase());
	suite_add_tcase(s, ptx_dir_tcase());
	suite_add_tcase(s, ptx_cvt_tcase());
	suite_add_tcase(s, ptx_vec_tcase());
	suite_add_tcase(s, ptx_module_tcase());
	suite_add_tcase(s, ptx_block_tcase());
	suite_add_tcase(s, ptx_ldmatrix_tcase());
	suite_add_tcase(s, ptx_mma_tcase());
	suite_add_tcase(s, ptx_more_tcase());
	return s;
}

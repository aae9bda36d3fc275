/* check_mufu.c — the measured models of the approximate instructions
 * (src/exec/mufu.h).
 *
 * Independent source: captures/approx-sm90.ubx, what `ulpbench
 * capture-approx` recorded on an H200 in a run of its own (not the tables
 * the models are built from): 2^16 evenly spaced mantissas of two binades
 * of every instruction, the subnormals of the forms without .ftz, 262,144
 * random encodings and the special values.  Every output of every f32
 * instruction the sim models from measurements must be the GPU's, bit for
 * bit; tanh.approx.f32, not measured, must differ somewhere (else it
 * should be).  And the compact tables give back every entry they were
 * built from (the build's hash of each). */
#include "suites.h"

#include <stdio.h>
#include <string.h>

#include "capture_file.h"
#include "mufu.h"
#include "paths.h"

static int mufu_fn(enum ub_approx_fn fn)
{
	switch (fn) {
	case UB_AF_RCP: return UB_MF_RCP;
	case UB_AF_RSQRT: return UB_MF_RSQRT;
	case UB_AF_SQRT: return UB_MF_SQRT;
	case UB_AF_EX2: return UB_MF_EX2;
	case UB_AF_LG2: return UB_MF_LG2;
	case UB_AF_SIN: return UB_MF_SIN;
	case UB_AF_COS: return UB_MF_COS;
	default: return -1;
	}
}

START_TEST(test_models_vs_gpu)
{
	char path[4096];
	struct ub_error err;
	struct ub_capture c;
	ck_assert_msg(ub_mufu_ready(), "no tables: %s", ub_mufu_where());
	ck_assert_int_eq(ub_data_path("captures/approx-sm90.ubx", path, sizeof path, &err), 0);
	ck_assert_msg(ub_capture_read(path, &c, &err) == 0, "%s", err.msg);
	ck_assert_msg(strstr(c.info, "H200") != NULL, "%s", c.info);
	size_t checked = 0, tanh_differ = 0;
	for (int k = 0; k < c.ntables; k++) {
		const struct ub_capture_table *t = &c.tables[k];
		const struct ub_approx_info *ai = &ub_approx[t->insn];
		int fn = mufu_fn(ai->fn);
		for (uint32_t i = 0; i < t->count; i++) {
			if (fn < 0) { /* tanh.approx.f32: the documented-error model */
				tanh_differ += t->out[i] != ub_approx_predict(t->insn, t->in[i]);
				continue;
			}
			uint32_t got = ub_mufu_eval(fn, t->in[i], 0, ai->ftz, 0);
			UB_ASSERT(got == t->out[i], "%s(0x%08x): model 0x%08x, GPU 0x%08x (%s)",
				  ai->ptx, t->in[i], got, t->out[i], ub_sweep_describe(t, path, 64));
			checked++;
		}
	}
	ck_assert_uint_ge(checked, 14 * 200000);
	ck_assert_uint_gt(tanh_differ, 0);
	ub_capture_free(&c);
}
END_TEST

/* FNV-1a of every entry the table gives back (through its sure and quick
 * forms where it has them, else the compact form), against the hash
 * the build took of the table it compacted. */
START_TEST(test_compact_entries)
{
	char path[4096];
	struct ub_error err;
	ck_assert(ub_mufu_ready());
	ck_assert_int_eq(ub_data_path("captures/mufu-sm90.tab", path, sizeof path, &err), 0);
	FILE *f = fopen(path, "rb");
	unsigned char dir[16 + UB_NMT * 72];
	ck_assert(f && fread(dir, 1, sizeof dir, f) == sizeof dir);
	fclose(f);
	int id = _i;
	uint64_t want = ub_le_get(dir + 16 + id * 72 + 64, 8), h = UINT64_C(0xcbf29ce484222325);
	for (uint32_t i = 0; i < ub_mufu_sizes[id]; i++) {
		uint32_t v = ub_mufu_entry(id, i);
		for (int b = 0; b < 4; b++)
			h = (h ^ (v >> (8 * b) & 0xff)) * UINT64_C(0x100000001b3);
	}
	ck_assert_msg(h == want, "table %d: entries hash to %llx, built from %llx", id,
		      (unsigned long long)h, (unsigned long long)want);
}
END_TEST

/* A few entries by hand, from the GPU's outputs (probe.txt, capture):
 * rcp at 1 is 1, ex2 at 0 is 1, lg2 at 1 is 0, sin at 0 is 0. */
START_TEST(test_hand)
{
	ck_assert(ub_mufu_ready());
	ck_assert_uint_eq(ub_mufu_eval(UB_MF_RCP, 0x3f800000u, 0, 1, 0), 0x3f800000u);
	ck_assert_uint_eq(ub_mufu_eval(UB_MF_EX2, 0x00000000u, 0, 1, 0), 0x3f800000u);
	ck_assert_uint_eq(ub_mufu_eval(UB_MF_LG2, 0x3f800000u, 0, 1, 0), 0x00000000u);
	ck_assert_uint_eq(ub_mufu_eval(UB_MF_SIN, 0x00000000u, 0, 1, 0), 0x00000000u);
	/* the documented special values: rcp(+-0) = +-inf, rsqrt(-0) = -inf,
	 * ex2(-inf) = +0, lg2(+0) = -inf, NaN -> 0x7fffffff */
	ck_assert_uint_eq(ub_mufu_eval(UB_MF_RCP, 0x80000000u, 0, 1, 0), 0xff800000u);
	ck_assert_uint_eq(ub_mufu_eval(UB_MF_RSQRT, 0x80000000u, 0, 1, 0), 0xff800000u);
	ck_assert_uint_eq(ub_mufu_eval(UB_MF_EX2, 0xff800000u, 0, 1, 0), 0x00000000u);
	ck_assert_uint_eq(ub_mufu_eval(UB_MF_LG2, 0x00000000u, 0, 1, 0), 0xff800000u);
	ck_assert_uint_eq(ub_mufu_eval(UB_MF_SQRT, 0x7fc00000u, 0, 0, 0), 0x7fffffffu);
}
END_TEST

/* div.approx.ftz.f32 and rcp.approx.ftz.f32 inline
 * (ub_mufu_div_approx_ftz, ub_mufu_rcp_approx_ftz: the sure form of
 * MUFU.RCP, b's kind and the product's flush by masks) against the models
 * they stand for, ub_mufu_eval's MUFU.RCP(b) and FMUL.FTZ(a, MUFU.RCP(b))
 * (themselves checked against the GPU's outputs by selftest --insns):
 * rcp on every 1021st encoding and on every one whose reciprocal is
 * 2^-126 or below; the division on every 1021st encoding of
 * b with a random a; both on the special b's (zeros, subnormals, the ends
 * of the binades, the exponents whose reciprocal is flushed, infinities,
 * NaNs), the division with every special a; and a's whose product with
 * MUFU.RCP(b) lies within a few units of 2^-126, where the flush is
 * decided on the value rounded to 24 bits. */
START_TEST(test_div_approx_ftz)
{
	ck_assert(ub_mufu_ready());
	/* rcp.approx.ftz.f32 inline (ub_mufu_rcp_approx_ftz), every 1021st
	 * encoding and every special value with either sign */
	for (uint64_t k = 0; k < (UINT64_C(1) << 32); k += 1021)
		UB_ASSERT(ub_mufu_rcp_approx_ftz((uint32_t)k) ==
				  ub_mufu_eval(UB_MF_RCP, (uint32_t)k, 0, 1, 0),
			  "rcp.approx.ftz(0x%08x)", (uint32_t)k);
	/* and every encoding from 2^125 to 2^128 (either sign in turn), the
	 * reciprocals at 2^-126 and below: the flush of the result */
	for (uint32_t k = 0x7e000000u; k < 0x7f800000u; k++) {
		uint32_t b = k | (k & 1) << 31;
		UB_ASSERT(ub_mufu_rcp_approx_ftz(b) == ub_mufu_eval(UB_MF_RCP, b, 0, 1, 0),
			  "rcp.approx.ftz(0x%08x)", b);
	}
	static const uint32_t special[] = {
		0x00000000u, 0x00000001u, 0x007fffffu, 0x00800000u, 0x00800001u, 0x3f800000u,
		0x3fffffffu, 0x40000000u, 0x3f7fffffu, 0x7e800000u, 0x7e7fffffu, 0x7e800001u,
		0x7eff0000u, 0x7f000000u, 0x7f000001u, 0x7f7fffffu, 0x7f800000u, 0x7f800001u,
		0x7fc00000u, 0x7fffffffu, 0x0c000000u, 0x1f000000u, 0x33800000u};
	const size_t ns = sizeof special / sizeof special[0];
	uint64_t st = UINT64_C(0x9e3779b97f4a7c15), n = 0;
	for (uint64_t k = 0; k < (UINT64_C(1) << 32); k += 1021) {
		st ^= st << 13;
		st ^= st >> 7;
		st ^= st << 17;
		uint32_t a = (uint32_t)(st >> 17), b = (uint32_t)k;
		UB_ASSERT(ub_mufu_div_approx_ftz(a, b) == ub_mufu_eval(UB_MF_DIV_APPROX, a, b, 1, 0),
			  "div.approx.ftz(0x%08x, 0x%08x)", a, b);
		n++;
	}
	for (size_t i = 0; i < 2 * ns; i++)
		for (size_t j = 0; j < 2 * ns; j++) {
			uint32_t a = special[i / 2] | (uint32_t)(i & 1) << 31,
				 b = special[j / 2] | (uint32_t)(j & 1) << 31;
			ck_assert_msg(ub_mufu_div_approx_ftz(a, b) ==
					      ub_mufu_eval(UB_MF_DIV_APPROX, a, b, 1, 0),
				      "div.approx.ftz(0x%08x, 0x%08x)", a, b);
			ck_assert_msg(ub_mufu_rcp_approx_ftz(b) == ub_mufu_eval(UB_MF_RCP, b, 0, 1, 0),
				      "rcp.approx.ftz(0x%08x)", b);
			n++;
		}
	/* a = 2^-126 / MUFU.RCP(b) and its neighbours: the product's
	 * rounding lands on 2^-126 from below and above */
	int at_min = 0;
	for (uint32_t k = 0; k < 100000; k++) {
		uint32_t b = 0x3f800000u + k * 41u % 0x00800000u + (k % 3) * 0x00800000u,
			 r = ub_mufu_eval(UB_MF_RCP, b, 0, 1, 0), a0;
		float rf, a0f;
		memcpy(&rf, &r, 4);
		a0f = (float)(0x1p-126 / (double)rf);
		memcpy(&a0, &a0f, 4);
		for (int d = -3; d <= 3; d++) {
			uint32_t a = (a0 + (uint32_t)d) | (k & 1) << 31,
				 want = ub_mufu_eval(UB_MF_DIV_APPROX, a, b, 1, 0);
			at_min += (want & 0x7fffffffu) == 0x00800000u;
			UB_ASSERT(ub_mufu_div_approx_ftz(a, b) == want,
				  "div.approx.ftz(0x%08x, 0x%08x)", a, b);
			n++;
		}
	}
	ck_assert_int_gt(at_min, 500);
	ck_assert_uint_ge(n, 4900000);
}
END_TEST

/* ex2.approx.ftz.f32 inline (ub_mufu_ex2_approx_ftz: the truncated fixed
 * point of x, the compact table and the scaling written out) against the
 * model it stands for (ub_mufu_eval's, checked against the GPU's outputs
 * by selftest --insns): every 1021st encoding, and the 65 encodings
 * around every integer of [-1030, 1030] and around 0, where the integer
 * part, the table's sign half and the flush or overflow of the result
 * change. */
START_TEST(test_ex2_approx_ftz)
{
	ck_assert(ub_mufu_ready());
	for (uint64_t k = 0; k < (UINT64_C(1) << 32); k += 1021)
		UB_ASSERT(ub_mufu_ex2_approx_ftz((uint32_t)k) ==
				  ub_mufu_eval(UB_MF_EX2, (uint32_t)k, 0, 1, 0),
			  "ex2.approx.ftz(0x%08x)", (uint32_t)k);
	size_t n = 0;
	for (int v = -1030; v <= 1030; v++) {
		float f = (float)v;
		uint32_t c;
		memcpy(&c, &f, 4);
		for (int d = -32; d <= 32; d++) {
			uint32_t x = v ? c + (uint32_t)d : d < 0 ? 0x80000000u + (uint32_t)-d : (uint32_t)d;
			UB_ASSERT(ub_mufu_ex2_approx_ftz(x) == ub_mufu_eval(UB_MF_EX2, x, 0, 1, 0),
				  "ex2.approx.ftz(0x%08x)", x);
			n++;
		}
	}
	ck_assert_uint_eq(n, 2061 * 65);
}
END_TEST

Suite *ub_mufu_suite(void)
{
	Suite *s = suite_create("mufu");
	TCase *tc = tcase_create("mufu");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hand);
	tcase_add_test(tc, test_models_vs_gpu);
	tcase_add_test(tc, test_div_approx_ftz);
	tcase_add_test(tc, test_ex2_approx_ftz);
	tcase_add_loop_test(tc, test_compact_entries, 0, UB_NMT);
	suite_add_tcase(s, tc);
	return s;
}

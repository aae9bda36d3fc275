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
			ck_assert_msg(got == t->out[i], "%s(0x%08x): model 0x%08x, GPU 0x%08x (%s)",
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

Suite *ub_mufu_suite(void)
{
	Suite *s = suite_create("mufu");
	TCase *tc = tcase_create("mufu");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hand);
	tcase_add_test(tc, test_models_vs_gpu);
	tcase_add_loop_test(tc, test_compact_entries, 0, UB_NMT);
	suite_add_tcase(s, tc);
	return s;
}

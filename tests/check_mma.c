/* check_mma.c — the MMA unit's model (src/exec/mma_unit.h): one test
 * vector per modelled feature, its expected bits derived by hand from the
 * published descriptions (Fasi, Higham, Mikaitis and Pranesh, "Numerical
 * behavior of NVIDIA tensor cores", PeerJ CS 2021; Khattak and Mikaitis,
 * "Accurate models of NVIDIA tensor cores", arXiv:2512.07004, whose model
 * parameters are the block FMA size `fma`, the extra alignment bits
 * `neab` and the final rounding `frmode`; Xie et al., MMA-Sim,
 * arXiv:2511.10909), for sm_80 (A100: fma 8, neab 1, RZ) and sm_90 (H100:
 * fma 16, neab 2, RZ).  The same vectors run through mma.sync on the
 * interpreter in check_ptx_mma.c.
 *
 * f16 encodings used: 1 = 0x3c00, 2^10 = 0x6400, -2^10 = 0xe400,
 * 2^-5 = 0x2800, 2^-6 = 0x2400, 2^-12 = 0x0c00, 2^-13 = 0x0800,
 * 1.5 * 2^-12 = 0x0e00, 1.5 * 2^-5 = 0x2a00, 2^-24 (least subnormal) =
 * 0x0001, inf = 0x7c00. */
#include "suites.h"
#include "mma_unit.h"

#include <string.h>

/* One block FMA's worth of products: a . b + c on sm, k products. */
struct vec {
	const char *what;
	int sm, fa, k, fc;
	uint64_t a[32], b[32], c;   /* k up to 32 (fp8): the rest 0 */
	uint64_t want;
	unsigned doubt;       /* the doubts it must report */
};

#define ONE16 0x3c00
static const struct vec vecs[] = {
	/* Extra alignment bits (Khattak and Mikaitis: neab; MMA-Sim:
	 * n_fractional_bits 24 on Ampere, 25 on Hopper).  c = 1 fixes the
	 * largest exponent at 0; four products 2^-13 * 2^-12 = 2^-25.  With
	 * F = 24 fraction bits below 2^0 each truncates to 0: 1.0.  With
	 * F = 25 each is one unit: 1 + 4 * 2^-25 = 1 + 2^-23, exact in f32. */
	{ "neab: sm_80 drops 2^-25", 80, UB_MF16, 16, UB_MF32,
	  { 0x0800, 0x0800, 0x0800, 0x0800 }, { 0x0c00, 0x0c00, 0x0c00, 0x0c00 },
	  0x3f800000, 0x3f800000, 0 },
	{ "neab: sm_90 keeps 2^-25", 90, UB_MF16, 16, UB_MF32,
	  { 0x0800, 0x0800, 0x0800, 0x0800 }, { 0x0c00, 0x0c00, 0x0c00, 0x0c00 },
	  0x3f800000, 0x3f800001, 0 },
	/* Two products of 2^-24 (2^-12 * 2^-12): one unit each with F = 24:
	 * 1 + 2^-23 on both (an architecture without extra bits, F = 23,
	 * would give 1). */
	{ "neab: sm_80 keeps 2^-24", 80, UB_MF16, 16, UB_MF32,
	  { 0x0c00, 0x0c00 }, { 0x0c00, 0x0c00 }, 0x3f800000, 0x3f800001, 0 },
	/* Final rounding toward zero (frmode 'rz'; Fasi et al.: results are
	 * truncated): 1 + 1.5 * 2^-24 kept whole below 2^-25, then truncated
	 * to f32: 1.0 (to nearest would give 1 + 2^-23). */
	{ "rz: sm_90 truncates", 90, UB_MF16, 16, UB_MF32,
	  { 0x0e00 }, { 0x0c00 }, 0x3f800000, 0x3f800000, 0 },
	{ "rz: sm_80 truncates", 80, UB_MF16, 16, UB_MF32,
	  { 0x0e00 }, { 0x0c00 }, 0x3f800000, 0x3f800000, 0 },
	/* Alignment to the largest exponent before the sum (Fasi et al.: no
	 * normalisation inside the block): 2^10 * 2^10 - 2^10 * 2^10 +
	 * 2^-5 * 2^-5.  The largest exponent is 20, the window ends 24 (25)
	 * bits below: 2^-10 is truncated away before the cancellation, the sum
	 * is exactly 0, and +0 (an exact sum gives 2^-10). */
	{ "align: cancellation after truncation, sm_80", 80, UB_MF16, 16, UB_MF32,
	  { 0x6400, 0xe400, 0x2800 }, { 0x6400, 0x6400, 0x2800 }, 0, 0, 0 },
	{ "align: cancellation after truncation, sm_90", 90, UB_MF16, 16, UB_MF32,
	  { 0x6400, 0xe400, 0x2800 }, { 0x6400, 0x6400, 0x2800 }, 0, 0, 0 },
	/* Block FMA size (fma 8 on A100, 16 on H100): 1 * 1 at k = 0 and four
	 * 2^-25 at k = 8..11.  sm_80: the first block gives 1.0, the second
	 * adds the four to c = 1 with F = 24: 1.0.  sm_90: one block of 16
	 * with F = 25: 1 + 2^-23. */
	{ "fma size: sm_80 two blocks", 80, UB_MF16, 16, UB_MF32,
	  { ONE16, 0, 0, 0, 0, 0, 0, 0, 0x0800, 0x0800, 0x0800, 0x0800 },
	  { ONE16, 0, 0, 0, 0, 0, 0, 0, 0x0c00, 0x0c00, 0x0c00, 0x0c00 },
	  0, 0x3f800000, 0 },
	{ "fma size: sm_90 one block", 90, UB_MF16, 16, UB_MF32,
	  { ONE16, 0, 0, 0, 0, 0, 0, 0, 0x0800, 0x0800, 0x0800, 0x0800 },
	  { ONE16, 0, 0, 0, 0, 0, 0, 0, 0x0c00, 0x0c00, 0x0c00, 0x0c00 },
	  0, 0x3f800001, 0 },
	/* Subnormal inputs kept (Fasi et al.: subnormals are supported):
	 * 2^-24 * 2^10 = 2^-14 = 0x38800000. */
	{ "subnormal input", 80, UB_MF16, 16, UB_MF32, { 0x0001 }, { 0x6400 }, 0,
	  0x38800000, 0 },
	/* Subnormal output kept: bf16 2^-65 * 2^-65 = 2^-130 (bf16 2^-65:
	 * exponent field 62, 0x1f00), f32 subnormal 2^19 * 2^-149 = 0x00080000. */
	{ "subnormal output", 90, UB_MBF16, 16, UB_MF32, { 0x1f00 }, { 0x1f00 }, 0,
	  0x00080000, 0 },
	/* ... and truncated: 1.5 * 2^-75 * 2^-74 = 1.5 * 2^-149 to 2^-149
	 * (0x00000001; to nearest even: 0x00000002); the product lies below
	 * 2^-133 inside the window, where the models differ: a doubt. */
	{ "subnormal output truncated", 90, UB_MBF16, 16, UB_MF32, { 0x1a40 },
	  { 0x1a80 }, 0, 0x00000001, UB_MMA_DOUBT_TINY },
	/* Special values (MMA-Sim: an infinite or NaN exact sum decides): inf *
	 * 1 = inf; inf * 0 = NaN (0x7fffffff); inf - inf = NaN; NaN c gives
	 * the canonical NaN; c = -inf and finite products: -inf. */
	{ "inf", 90, UB_MF16, 16, UB_MF32, { 0x7c00 }, { ONE16 }, 0, 0x7f800000, 0 },
	{ "inf * 0", 90, UB_MF16, 16, UB_MF32, { 0x7c00 }, { 0 }, 0, 0x7fffffff, 0 },
	{ "inf - inf", 80, UB_MF16, 16, UB_MF32, { 0x7c00, 0xfc00 }, { ONE16, ONE16 }, 0,
	  0x7fffffff, 0 },
	{ "NaN c", 80, UB_MF16, 16, UB_MF32, { ONE16 }, { ONE16 }, 0x7fa00001, 0x7fffffff, 0 },
	{ "-inf c", 80, UB_MF16, 16, UB_MF32, { ONE16 }, { ONE16 }, 0xff800000, 0xff800000, 0 },
	/* Signed zeros: c = -0 and the product -0 * 1: an exact zero sum is +0
	 * in both models (IEEE would keep -0). */
	{ "-0 + -0 = +0", 90, UB_MF16, 16, UB_MF32, { 0x8000 }, { ONE16 }, 0x80000000,
	  0x00000000, 0 },
	/* f16 accumulator: the result rounded to nearest even (frmode 'rne'
	 * for fp16 output): 1 + 1.5 * 2^-5 * 2^-6 = 1 + 0.75 * 2^-10 rounds up
	 * to 1 + 2^-10 = 0x3c01 (truncation would give 0x3c00). */
	{ "f16 output to nearest", 90, UB_MF16, 16, UB_MF16, { 0x2a00 }, { 0x2400 },
	  0x3c00, 0x3c01, 0 },
	/* tf32: the low 13 bits of the f32 encoding are ignored (MMA-Sim:
	 * truncate_to_tf32): (1 + 2^-23) * 1 = 1; (1 + 2^-10) * 1 kept. */
	{ "tf32 ignores 13 bits", 80, UB_MTF32, 8, UB_MF32, { 0x3f800001 }, { 0x3f800000 },
	  0, 0x3f800000, 0 },
	{ "tf32 keeps 10 bits", 90, UB_MTF32, 8, UB_MF32, { 0x3f802000 }, { 0x3f800000 },
	  0, 0x3f802000, 0 },
	/* Exact products: bf16 (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 exactly. */
	{ "exact product", 80, UB_MBF16, 16, UB_MF32, { 0x3f81 }, { 0x3f81 }, 0,
	  0x3f820200, 0 },
	/* fp8 on sm_89 (MMA-Sim: 13 fraction bits, output e8m13): c = 1 and
	 * e4m3 2^-6 * 2^-6 = 2^-12 kept (0x3f800800); 2^-7 * 2^-7 = 2^-14
	 * (e4m3 subnormal 0x04) truncated away: 1.0. */
	{ "fp8 13 bits keep", 89, UB_ME4M3, 32, UB_MF32, { 0x08 }, { 0x08 },
	  0x3f800000, 0x3f800800, 0 },
	{ "fp8 13 bits drop", 89, UB_ME4M3, 32, UB_MF32, { 0x04 }, { 0x04 },
	  0x3f800000, 0x3f800000, 0 },
};

START_TEST(features)
{
	const struct vec *v = &vecs[_i];
	struct ub_mma_model m;
	ck_assert_int_eq(ub_mma_model_get(v->sm, UB_MMA_SYNC, v->fa, v->k, &m), 0);
	unsigned doubt = 0;
	uint64_t r = ub_mma_dot(&m, v->fa, v->fa, v->a, v->b, v->k, v->fc, v->c, &doubt);
	ck_assert_msg(r == v->want, "%s: 0x%08llx, want 0x%08llx", v->what,
		      (unsigned long long)r, (unsigned long long)v->want);
	ck_assert_msg(doubt == v->doubt, "%s: doubt %u, want %u", v->what, doubt, v->doubt);
}
END_TEST

/* The model table: which architectures and formats are known. */
START_TEST(models)
{
	struct ub_mma_model m;
	ck_assert_int_eq(ub_mma_model_get(80, UB_MMA_SYNC, UB_MF16, 16, &m), 0);
	ck_assert(m.known && m.frac == 24 && m.block == 8 && m.out_frac == 23);
	ck_assert_int_eq(ub_mma_model_get(80, UB_MMA_SYNC, UB_MTF32, 8, &m), 0);
	ck_assert(m.known && m.block == 4);
	ck_assert_int_eq(ub_mma_model_get(90, UB_MMA_SYNC, UB_MF16, 16, &m), 0);
	ck_assert(m.known && m.frac == 25 && m.block == 16);
	ck_assert_int_eq(ub_mma_model_get(90, UB_MMA_WGMMA, UB_ME4M3, 32, &m), 0);
	ck_assert(m.known && m.frac == 13 && m.out_frac == 13 && m.block == 32);
	/* mma.sync with fp8 on sm_90: no source measured it */
	ck_assert_int_eq(ub_mma_model_get(90, UB_MMA_SYNC, UB_ME4M3, 32, &m), 0);
	ck_assert(!m.known);
	ck_assert_int_eq(ub_mma_model_get(86, UB_MMA_SYNC, UB_MF16, 16, &m), 0);
	ck_assert(!m.known);
	ck_assert_int_eq(ub_mma_model_get(70, UB_MMA_WMMA, UB_MF16, 16, &m), 0);
	ck_assert(m.known && m.frac == 23 && m.block == 4);
	ck_assert_int_eq(ub_mma_model_get(80, UB_MMA_SYNC, UB_ME4M3, 32, &m), -1);
	ck_assert_int_eq(ub_mma_model_get(70, UB_MMA_SYNC, UB_MBF16, 16, &m), -1);
	ck_assert_int_eq(ub_mma_model_get(60, UB_MMA_SYNC, UB_MF16, 16, &m), -1);
}
END_TEST

/* A nonzero sum that truncates to zero: +0, with the doubt (Khattak and
 * Mikaitis's model keeps the sign: -0).  bf16 -2^-75 * 2^-75 = -2^-150. */
START_TEST(zero_doubt)
{
	struct ub_mma_model m;
	unsigned doubt = 0;
	uint64_t a = 0x9a00, b = 0x1a00;
	ck_assert_int_eq(ub_mma_model_get(90, UB_MMA_SYNC, UB_MBF16, 16, &m), 0);
	ck_assert_uint_eq(ub_mma_dot(&m, UB_MBF16, UB_MBF16, &a, &b, 1, UB_MF32, 0, &doubt), 0);
	ck_assert_uint_eq(doubt, UB_MMA_DOUBT_ZERO | UB_MMA_DOUBT_TINY);
}
END_TEST

/* f64 (DMMA): fused multiply-adds in order from c (MMA-Sim): 1*1 + 0 = 1;
 * fma(2^-53, 1, 1) = 1 (a tie, to even), twice: 1.0, where one rounding of
 * the whole sum would give 1 + 2^-52. */
START_TEST(f64_chain)
{
	struct ub_mma_model m;
	unsigned doubt = 0;
	uint64_t a[4] = { 0x3ff0000000000000ull, 0x3ca0000000000000ull,
			  0x3ca0000000000000ull, 0 };
	uint64_t b[4] = { 0x3ff0000000000000ull, 0x3ff0000000000000ull,
			  0x3ff0000000000000ull, 0 };
	ck_assert_int_eq(ub_mma_model_get(80, UB_MMA_SYNC, UB_MF64, 4, &m), 0);
	ck_assert(m.known);
	ck_assert_uint_eq(ub_mma_dot(&m, UB_MF64, UB_MF64, a, b, 4, UB_MF64, 0, &doubt),
			  0x3ff0000000000000ull);
	ck_assert_uint_eq(doubt, 0);
}
END_TEST

Suite *ub_mma_suite(void)
{
	Suite *s = suite_create("mma");
	TCase *tc = tcase_create("unit");
	tcase_add_loop_test(tc, features, 0, (int)(sizeof vecs / sizeof *vecs));
	tcase_add_test(tc, models);
	tcase_add_test(tc, zero_doubt);
	tcase_add_test(tc, f64_chain);
	suite_add_tcase(s, tc);
	return s;
}

/* check_ptx_dir.c — the directed rounding modes without fesetround
 * (src/exec/ptx/ptx_dir.c) against the host's own IEEE arithmetic in that
 * mode (fesetround, the independent oracle: the same operation in the
 * FPU's directed mode is correctly rounded by IEEE 754), for every
 * operation, mode and f32/f64, bit for bit, zeros' signs included.
 *
 * Operands: the special values (zeros, subnormals, the normal limits,
 * infinities, NaN, 1 and its neighbours) pairwise, then seeded random
 * encodings of three kinds: any bits, few significand bits (exact results
 * and ties are frequent: products of short significands, sums of
 * neighbours) and exponents near the ends of the range (overflow,
 * underflow onto the subnormal grid). */
#include "check_ptx.h"
#include "ptx_dir.h"

#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static const int modes[] = { PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP };
static const int fe[] = { [PTX_RND_RZ] = FE_TOWARDZERO, [PTX_RND_RM] = FE_DOWNWARD,
			  [PTX_RND_RP] = FE_UPWARD };
static const char *const fopname[] = { "add", "sub", "mul", "fma", "div", "rcp", "sqrt" };

static float oracle32(int fop, int rnd, float a, float b, float c)
{
	volatile float va = a, vb = b, vc = c, r = 0;
	fesetround(fe[rnd]);
	switch (fop) {
	case PTX_FOP_ADD: r = va + vb; break;
	case PTX_FOP_SUB: r = va - vb; break;
	case PTX_FOP_MUL: r = va * vb; break;
	case PTX_FOP_FMA: r = fmaf(va, vb, vc); break;
	case PTX_FOP_DIV: r = va / vb; break;
	case PTX_FOP_RCP: r = 1.0f / va; break;
	default: r = sqrtf(va); break;
	}
	fesetround(FE_TONEAREST);
	return r;
}

static double oracle64(int fop, int rnd, double a, double b, double c)
{
	volatile double va = a, vb = b, vc = c, r = 0;
	fesetround(fe[rnd]);
	switch (fop) {
	case PTX_FOP_ADD: r = va + vb; break;
	case PTX_FOP_SUB: r = va - vb; break;
	case PTX_FOP_MUL: r = va * vb; break;
	case PTX_FOP_FMA: r = fma(va, vb, vc); break;
	case PTX_FOP_DIV: r = va / vb; break;
	case PTX_FOP_RCP: r = 1.0 / va; break;
	default: r = sqrt(va); break;
	}
	fesetround(FE_TONEAREST);
	return r;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;   /* fixed seed: replayable */

static uint64_t next(void)
{
	rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
	return rng;
}

/* Equal encodings, any NaN equal to any NaN (the payload of a NaN result
 * is not what ptx_dir.c decides: ptx_res32 makes it canonical). */
static int same32(float x, float y)
{
	uint32_t u, v;
	memcpy(&u, &x, 4), memcpy(&v, &y, 4);
	return u == v || (x != x && y != y);
}

static int same64(double x, double y)
{
	uint64_t u, v;
	memcpy(&u, &x, 8), memcpy(&v, &y, 8);
	return u == v || (x != x && y != y);
}

static int check32(int fop, float a, float b, float c)
{
	int bad = 0;
	for (int m = 0; m < 3; m++) {
		float got = ptx_f32_rnd(fop, modes[m], a, b, c);
		float want = oracle32(fop, modes[m], a, b, c);
		if (!same32(got, want) && bad++ < 3)
			fprintf(stderr, "%s.%d.f32 %a %a %a: got %a, want %a\n",
				fopname[fop], modes[m], a, b, c, got, want);
	}
	return bad;
}

static int check64(int fop, double a, double b, double c)
{
	int bad = 0;
	for (int m = 0; m < 3; m++) {
		double got = ptx_f64_rnd(fop, modes[m], a, b, c);
		double want = oracle64(fop, modes[m], a, b, c);
		if (!same64(got, want) && bad++ < 3)
			fprintf(stderr, "%s.%d.f64 %a %a %a: got %a, want %a\n",
				fopname[fop], modes[m], a, b, c, got, want);
	}
	return bad;
}

static const uint32_t special32[] = {
	0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x00800000, 0x80800000,
	0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000,
	0x3f800000, 0xbf800000, 0x3f7fffff, 0x3f800001, 0x40000000, 0x3f000000,
	0x33800000, 0x34000000, 0x0c000000, 0x73000000,
};

/* A random f32 encoding of kind k (see the file comment). */
static uint32_t rand32(int k)
{
	uint32_t u = (uint32_t)next();
	if (k == 1)   /* few significand bits */
		u &= 0xfff00007u | (uint32_t)(next() & 0x30) << 12;
	if (k == 2)   /* exponent near the ends */
		u = (u & 0x807fffffu) | (uint32_t)((next() & 1) ? 0xe0 + (next() & 0x1f)
								: next() & 0x1f) << 23;
	return u;
}

static uint64_t rand64(int k)
{
	uint64_t u = next();
	if (k == 1)
		u &= 0xfff0000000000007ull | (next() & 0x30) << 44;
	if (k == 2)
		u = (u & 0x800fffffffffffffull) |
		    ((next() & 1) ? 0x7c0 + (next() & 0x3f) : next() & 0x3f) << 52;
	return u;
}

static float f32_of(uint32_t u)
{
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static double f64_of(uint64_t u)
{
	double d;
	memcpy(&d, &u, 8);
	return d;
}

START_TEST(dir_f32_special)
{
	int bad = 0, n = sizeof special32 / sizeof special32[0];
	for (int fop = 0; fop <= PTX_FOP_SQRT; fop++)
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				bad += check32(fop, f32_of(special32[i]), f32_of(special32[j]),
					       f32_of(special32[(i + j) % n]));
	ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(dir_f32_random)
{
	int bad = 0;
	for (int fop = 0; fop <= PTX_FOP_SQRT; fop++)
		for (int i = 0; i < 30000; i++) {
			int k = i % 3;
			float a = f32_of(rand32(k)), b = f32_of(rand32(k)), c = f32_of(rand32(k));
			if (k == 1 && fop == PTX_FOP_FMA && (i & 4))   /* cancellation */
				c = -a * b;
			if (k == 1 && (fop == PTX_FOP_ADD || fop == PTX_FOP_SUB) && (i & 8))
				/* exact zero, or a neighbour: cancellation */
				b = (i & 16) ? (fop == PTX_FOP_ADD ? -a : a)
					     : nextafterf(fop == PTX_FOP_ADD ? -a : a, 0);
			bad += check32(fop, a, b, c);
		}
	ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(dir_f64)
{
	int bad = 0;
	for (int fop = 0; fop <= PTX_FOP_SQRT; fop++) {
		for (int i = 0; i < 30000; i++) {
			int k = i % 3;
			double a = f64_of(rand64(k)), b = f64_of(rand64(k)), c = f64_of(rand64(k));
			if (k == 1 && (fop == PTX_FOP_ADD || fop == PTX_FOP_SUB) && (i & 8))
				b = (i & 16) ? (fop == PTX_FOP_ADD ? -a : a)
					     : nextafter(fop == PTX_FOP_ADD ? -a : a, 0);
			bad += check64(fop, a, b, c);
		}
		int n = sizeof special32 / sizeof special32[0];
		for (int i = 0; i < n; i++)   /* the f32 specials, widened, and the ends */
			for (int j = 0; j < n; j++)
				bad += check64(fop, f32_of(special32[i]), f32_of(special32[j]), 0x1p-1074);
		bad += check64(fop, 0x1.fffffffffffffp1023, 0x1.fffffffffffffp1023, -0.0);
		bad += check64(fop, -0x1.fffffffffffffp1023, 0x1p970, 0.0);
		bad += check64(fop, 0x1p-1074, 0x1p-1, 0x1p-1074);
		bad += check64(fop, 0x1.8p-1070, 0x1.8p-5, 0);
	}
	ck_assert_int_eq(bad, 0);
}
END_TEST

TCase *ptx_dir_tcase(void)
{
	TCase *tc = tcase_create("directed_rounding");
	tcase_add_test(tc, dir_f32_special);
	tcase_add_test(tc, dir_f32_random);
	tcase_add_test(tc, dir_f64);
	return tc;
}

/* check_ptx_cvt.c — ptx_cvt's float shortcuts (f32 -> f32 with an
 * integral rounding, .sat, .ftz; an integer below 2^24 to f32) against
 * ptx_cvt_exact, the exact integer method every cvt had before them (the
 * source decoded exactly, rounded once by integer arithmetic): the same
 * bits for every variant, over every f32 encoding near the integers and
 * half-integers where the rounding decides (each of them within 3 encodings
 * of k/2 for |k| <= 2^13), the ends of every binade, the special values,
 * every 65,521st encoding, and integers around 2^24 and the ends of each
 * integer type, and pseudo-random integers of every size. */
#include "check_bits.h"
#include "check_ptx.h"
#include "ptx_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static const int irnd[] = { PTX_RND_NONE, PTX_RND_RNI, PTX_RND_RZI, PTX_RND_RMI, PTX_RND_RPI };
static const int fflags[] = { 0, PTX_F_FTZ, PTX_F_SAT, PTX_F_FTZ | PTX_F_SAT };

/* Every f32 -> f32 variant at encoding u; the number that differ. */
static int ff_at(uint32_t u)
{
	int bad = 0;
	for (size_t r = 0; r < sizeof irnd / sizeof irnd[0]; r++)
		for (size_t f = 0; f < sizeof fflags / sizeof fflags[0]; f++) {
			struct ptx_insn in = { .op = PTX_CVT_FF, .aux = PTX_T_F32,
					       .dtype = PTX_T_F32, .rnd = (uint8_t)irnd[r],
					       .flags = (uint16_t)fflags[f], .bits = 32,
					       .sbits = 32 };
			uint64_t got = ptx_cvt(&in, u), want = ptx_cvt_exact(&in, u);
			if (got != want && bad++ < 5)
				fprintf(stderr, "cvt f32 rnd %d flags %d of 0x%08x: 0x%08llx, exact 0x%08llx\n",
					irnd[r], fflags[f], u, (unsigned long long)got,
					(unsigned long long)want);
		}
	return bad;
}

START_TEST(cvt_f32_f32)
{
	int bad = 0;
	for (int k = -(1 << 13); k <= 1 << 13; k++) {
		uint32_t c = bits((float)k / 2);
		for (int d = -3; d <= 3; d++)
			bad += ff_at(c + (uint32_t)d) + ff_at((c ^ 0x80000000u) + (uint32_t)d);
	}
	for (uint32_t e = 0; e < 256; e++)   /* the ends of every binade, both signs */
		for (uint32_t s = 0; s < 2; s++) {
			uint32_t b = s << 31 | e << 23;
			bad += ff_at(b) + ff_at(b | 1) + ff_at(b | 0x400000) + ff_at(b | 0x7fffff);
		}
	for (uint64_t u = 0; u < (1ull << 32); u += 65521)
		bad += ff_at((uint32_t)u);
	ck_assert_int_eq(bad, 0);
}
END_TEST

/* An integer of bits width (signed or not) to f32 in every mode. */
static int fi_at(uint64_t a, int bits, int sgn)
{
	static const int rnd[] = { PTX_RND_RN, PTX_RND_RZ, PTX_RND_RM, PTX_RND_RP };
	static const int sty[2][2] = { { PTX_T_U32, PTX_T_U64 }, { PTX_T_S32, PTX_T_S64 } };
	int bad = 0;
	for (int r = 0; r < 4; r++) {
		struct ptx_insn in = { .op = PTX_CVT_FI, .aux = (uint8_t)sty[sgn][bits == 64],
				       .dtype = PTX_T_F32, .rnd = (uint8_t)rnd[r],
				       .flags = sgn ? PTX_F_SIGNED : 0, .bits = 32,
				       .sbits = (uint8_t)bits };
		uint64_t got = ptx_cvt(&in, a), want = ptx_cvt_exact(&in, a);
		if (got != want && bad++ < 5)
			fprintf(stderr, "cvt f32 of %s%d 0x%llx rnd %d: 0x%08llx, exact 0x%08llx\n",
				sgn ? "s" : "u", bits, (unsigned long long)a, rnd[r],
				(unsigned long long)got, (unsigned long long)want);
	}
	return bad;
}

START_TEST(cvt_int_f32)
{
	int bad = 0;
	for (int bits = 32; bits <= 64; bits += 32)
		for (int sgn = 0; sgn < 2; sgn++) {
			uint64_t m = bits == 64 ? ~0ull : 0xffffffffull;
			for (int64_t d = -40; d <= 40; d++) {
				uint64_t around[] = { 0, 1u << 24, (1u << 24) * 3, 1ull << 31, m,
						      m >> 1 };
				for (size_t k = 0; k < sizeof around / sizeof around[0]; k++) {
					bad += fi_at((around[k] + (uint64_t)d) & m, bits, sgn);
					bad += fi_at((0 - around[k] + (uint64_t)d) & m, bits, sgn);
				}
			}
			uint64_t x = 1;   /* and seeded pseudo-random ones of every size */
			for (int i = 0; i < 4000; i++) {
				x = x * 6364136223846793005ull + 1442695040888963407ull;
				bad += fi_at((x >> (i % 64)) & m, bits, sgn);
			}
		}
	ck_assert_int_eq(bad, 0);
}
END_TEST

TCase *ptx_cvt_tcase(void)
{
	TCase *tc = tcase_create("cvt_shortcuts");
	tcase_add_test(tc, cvt_f32_f32);
	tcase_add_test(tc, cvt_int_f32);
	return tc;
}

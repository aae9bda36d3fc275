/* check_capture.c — capture-approx's pieces: the predictors against MPFR,
 * the coding of distances, the sweeps' inputs, the file format.
 *
 * Independent sources: MPFR (correctly rounded exp2, log2, 1/x, 1/sqrt,
 * sqrt, tanh, and sin(2 pi t) by mpfr_sinu/mpfr_cosu, with t = x * 0x3e22f983
 * rounded toward zero by MPFR itself), hand-worked encodings, and the
 * published first output of splitmix64 from state 0 (0xe220a8397b1dcdaf,
 * also checked with a separate Python implementation). */
#include "suites.h"
#include "check_bits.h"

#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "approx.h"
#include "approx_code.h"
#include "capture_file.h"

/* Sets y, a float-format number (precision 24, exponents of binary32,
 * subnormals), to fn of x correctly rounded. */
static float mpfr_ref(enum ub_approx_fn fn, float x)
{
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_t a, y, c;
	int inex = 0;
	mpfr_set_emin(-148); /* 2^-149 = 0.5 * 2^-148 */
	mpfr_set_emax(128);
	mpfr_inits2(24, a, y, c, (mpfr_ptr)0);
	mpfr_set_flt(a, x, MPFR_RNDN);
	switch (fn) {
	case UB_AF_RCP: inex = mpfr_ui_div(y, 1, a, MPFR_RNDN); break;
	case UB_AF_RSQRT: inex = mpfr_rec_sqrt(y, a, MPFR_RNDN); break;
	case UB_AF_SQRT: inex = mpfr_sqrt(y, a, MPFR_RNDN); break;
	case UB_AF_EX2: inex = mpfr_exp2(y, a, MPFR_RNDN); break;
	case UB_AF_LG2: inex = mpfr_log2(y, a, MPFR_RNDN); break;
	case UB_AF_TANH: inex = mpfr_tanh(y, a, MPFR_RNDN); break;
	case UB_AF_SIN:
	case UB_AF_COS: /* t = RZ(x * 0x3e22f983), then sin or cos of 2 pi t */
		mpfr_set_flt(c, f32(0x3e22f983u), MPFR_RNDN);
		inex = mpfr_mul(a, a, c, MPFR_RNDZ);
		mpfr_subnormalize(a, inex, MPFR_RNDZ);
		inex = fn == UB_AF_SIN ? mpfr_sinu(y, a, 1, MPFR_RNDN) :
					 mpfr_cosu(y, a, 1, MPFR_RNDN);
		break;
	}
	mpfr_subnormalize(y, inex, MPFR_RNDN);
	float r = mpfr_get_flt(y, MPFR_RNDN);
	mpfr_clears(a, y, c, (mpfr_ptr)0);
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	return r;
}

/* The value of a 16-bit encoding (f16: 5 exponent bits, 10 fraction bits;
 * bf16: the top half of an f32), by hand from its fields. */
static double val16(uint32_t h, int fmt)
{
	if (fmt == 17)
		return f32(h << 16);
	int e = h >> 10 & 31;
	double m = h & 0x3ff, v;
	if (e == 31)
		v = m ? NAN : INFINITY;
	else
		v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
	return h & 0x8000 ? -v : v;
}

/* fn (ex2 or tanh) at x correctly rounded by MPFR to f16 (precision 11,
 * smallest subnormal 2^-24, largest finite 65504) or bf16 (precision 8,
 * 2^-133, f32's range), encoded by hand; NaN as 0x7fff. */
static uint32_t mpfr_ref16(enum ub_approx_fn fn, double x, int fmt)
{
	if (x != x)
		return 0x7fff;
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_t a, y;
	mpfr_set_emin(fmt == 17 ? -132 : -23);
	mpfr_set_emax(fmt == 17 ? 128 : 16);
	mpfr_inits2(fmt == 17 ? 8 : 11, y, (mpfr_ptr)0);
	mpfr_init2(a, 53);
	mpfr_set_d(a, x, MPFR_RNDN);
	int inex = fn == UB_AF_EX2 ? mpfr_exp2(y, a, MPFR_RNDN) : mpfr_tanh(y, a, MPFR_RNDN);
	mpfr_subnormalize(y, inex, MPFR_RNDN);
	double r = mpfr_get_d(y, MPFR_RNDN);
	mpfr_clears(a, y, (mpfr_ptr)0);
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	uint32_t s = signbit(r) ? 0x8000u : 0;
	r = fabs(r);
	if (fmt == 17)
		return s | bits((float)r) >> 16; /* exact: 8 bits */
	if (isinf(r))
		return s | 0x7c00;
	if (r < 0x1p-14)
		return s | (uint32_t)(r * 0x1p24);
	int e;
	double m = frexp(r, &e); /* r = m 2^e, m in [0.5, 1) */
	return s | (uint32_t)(e + 14) << 10 | ((uint32_t)(m * 2048) & 0x3ff);
}

/* A 16-bit instruction's predictor equals MPFR's correctly rounded value
 * at the format's precision on every input; with .ftz, subnormal inputs
 * and outputs are zeros of their sign. */
static int predict16_vs_mpfr(enum ub_approx_insn insn)
{
	const struct ub_approx_info *ai = &ub_approx[insn];
	int bad = 0;
	for (uint32_t h = 0; h < 0x10000; h++) {
		uint32_t hx = h;
		if (ai->ftz && (h & 0x7f80u) == 0)
			hx = h & 0x8000u;
		uint32_t want = mpfr_ref16(ai->fn, val16(hx, ai->fmt), ai->fmt);
		if (ai->ftz && (want & 0x7f80u) == 0)
			want &= 0x8000u;
		uint32_t got = ub_approx_predict(insn, h);
		int nan = ai->fmt == 17 ? (want & 0x7f80u) == 0x7f80u && (want & 0x7f)
					: (want & 0x7c00u) == 0x7c00u && (want & 0x3ff);
		if (nan ? got != 0x7fff : got != want) {
			if (bad++ < 5)
				fprintf(stderr, "%s: x=0x%04x: predicted 0x%04x, MPFR 0x%04x\n",
					ai->ptx, h, got, want);
		}
	}
	return bad;
}

/* Each predictor equals MPFR's correctly rounded value on both binades it
 * is swept over (4096 mantissas each), the subnormals and 20000 random
 * encodings; NaN equals any NaN. */
START_TEST(test_predict_vs_mpfr)
{
	enum ub_approx_insn insn = (enum ub_approx_insn)_i;
	const struct ub_approx_info *ai = &ub_approx[insn];
	uint32_t in[20000];
	int bad = 0;
	if (ai->fmt != 32) {
		bad = predict16_vs_mpfr(insn);
		ck_assert_msg(bad == 0, "%s: %d inputs differ from MPFR", ai->ptx, bad);
		return;
	}
	for (int sw = 0; sw < 4; sw++) {
		uint32_t n = sw < 3 ? 4096 : 20000;
		if (sw < 3)
			ub_sweep_inputs(UB_SWEEP_MANTISSA, 12, sw < 2 ? (uint64_t)(ai->exps[sw] + 127) : 0, n, in);
		else
			ub_sweep_inputs(UB_SWEEP_RANDOM, 0, 99, n, in);
		for (uint32_t i = 0; i < n; i++) {
			float x = ai->ftz ? flush(f32(in[i])) : f32(in[i]);
			float want = mpfr_ref(ai->fn, x);
			if (ai->ftz)
				want = flush(want);
			if (ai->fn == UB_AF_RSQRT && bits(x) == 0x80000000u)
				want = -INFINITY; /* PTX ISA: rsqrt(-0) = -inf; MPFR: +inf */
			uint32_t got = ub_approx_predict(insn, in[i]);
			int same = isnan(want) ? got == 0x7fffffffu : got == bits(want);
			if (!same && bad++ < 5)
				fprintf(stderr, "%s: x=%a (0x%08x): predicted 0x%08x, MPFR 0x%08x\n",
					ai->ptx, (double)f32(in[i]), in[i], got, bits(want));
		}
	}
	ck_assert_msg(bad == 0, "%s: %d inputs differ from MPFR", ai->ptx, bad);
}
END_TEST

START_TEST(test_ord)
{
	/* hand: +0 -> 0, -0 -> -1, smallest -subnormal -> -2, +inf 0x7f800000 */
	ck_assert_int_eq(ub_ord32(0x00000000u), 0);
	ck_assert_int_eq(ub_ord32(0x80000000u), -1);
	ck_assert_int_eq(ub_ord32(0x80000001u), -2);
	ck_assert_int_eq(ub_ord32(0x7f800000u), 0x7f800000);
	ck_assert_int_eq(ub_ord32(0xffffffffu), -(INT64_C(1) << 31));
	const uint32_t us[] = {0, 1, 0x7fffffffu, 0x80000000u, 0xbf800000u, 0xffffffffu};
	for (size_t i = 0; i < sizeof us / sizeof us[0]; i++)
		ck_assert_uint_eq(ub_unord32(ub_ord32(us[i])), us[i]);
	/* 1.0f and its neighbours: adjacent floats are 1 apart */
	ck_assert_int_eq(ub_ord32(0x3f800001u) - ub_ord32(0x3f800000u), 1);
	ck_assert_int_eq(ub_ord32(0x3f800000u) - ub_ord32(0x3f7fffffu), 1);
}
END_TEST

static uint32_t rng(uint64_t *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(*s >> 32);
}

/* Round trips of very different tables, both codings. */
START_TEST(test_code_round_trip)
{
	enum { N = 100000 };
	static uint32_t y[N], pred[N], back[N];
	uint64_t s = 5;
	for (int kind = 0; kind < 5; kind++) {
		for (int i = 0; i < N; i++) {
			pred[i] = rng(&s);
			uint32_t r = rng(&s);
			switch (kind) {
			case 0: y[i] = pred[i]; break;                           /* all zero */
			case 1: y[i] = pred[i] + (r % 8 == 0 ? (r & 8 ? 1 : -1) : 0); break;
			case 2: y[i] = r; break;                                 /* anything */
			case 3: y[i] = i & 1 ? 0xffffffffu : 0; pred[i] = i & 1 ? 0 : 0xffffffffu; break;
			default: y[i] = pred[i] + (uint32_t)(i / 1000) - 50; break; /* drift */
			}
		}
		for (int coding = 0; coding < 2; coding++) {
			struct ub_bytes b = {0};
			ck_assert_int_eq(ub_code_encode(y, pred, N, (enum ub_coding)coding, &b), 0);
			ck_assert_int_eq(ub_code_decode(b.p, b.len, pred, N, (enum ub_coding)coding, back), 0);
			for (int i = 0; i < N; i++)
				UB_ASSERT(back[i] == y[i], "kind %d coding %d: element %d: "
					  "0x%08x, decoded 0x%08x", kind, coding, i, y[i], back[i]);
			if (kind == 0) /* zeros: well under a bit each */
				ck_assert_msg(b.len < N / 32, "%zu bytes for zeros", b.len);
			if (kind == 2) /* truncated data: detected */
				ck_assert_int_eq(ub_code_decode(b.p, b.len / 2, pred, N,
								(enum ub_coding)coding, back), -1);
			ub_bytes_free(&b);
		}
	}
}
END_TEST

START_TEST(test_sweep_inputs)
{
	uint32_t in[4];
	/* [1, 2) with 2 bits: 1, 1.25, 1.5, 1.75 */
	ub_sweep_inputs(UB_SWEEP_MANTISSA, 2, 127, 4, in);
	ck_assert_uint_eq(in[0], 0x3f800000u);
	ck_assert_uint_eq(in[1], 0x3fa00000u);
	ck_assert_uint_eq(in[3], 0x3fe00000u);
	/* the sign bit is the 9th bit of param: -[2, 4) */
	ub_sweep_inputs(UB_SWEEP_MANTISSA, 2, 256 + 128, 1, in);
	ck_assert_uint_eq(in[0], 0xc0000000u);
	/* splitmix64 from state 0: first output 0xe220a8397b1dcdaf */
	ub_sweep_inputs(UB_SWEEP_RANDOM, 0, 0, 1, in);
	ck_assert_uint_eq(in[0], 0x7b1dcdafu);
}
END_TEST

/* A table of insn over a sweep, outputs from f (host arithmetic standing in
 * for a GPU). */
static void add(struct ub_capture *c, enum ub_approx_insn insn, enum ub_capture_sweep kind,
		int bits, uint64_t param, uint32_t count, uint32_t (*f)(uint32_t))
{
	struct ub_capture_table t = {.insn = insn, .kind = kind, .bits = bits,
				     .param = param, .count = count};
	struct ub_error err;
	t.in = malloc(count * 4);
	t.out = malloc(count * 4);
	if (kind == UB_SWEEP_LIST)
		for (uint32_t i = 0; i < count; i++)
			t.in[i] = 0x3f800000u + i * 12345u;
	else
		ub_sweep_inputs(kind, bits, param, count, t.in);
	for (uint32_t i = 0; i < count; i++)
		t.out[i] = f(t.in[i]);
	ck_assert_int_eq(ub_capture_add(c, &t, &err), 0);
}

/* 1/x rounded, then every 7th output one unit up: a "hardware" that
 * differs from the predictor */
static uint32_t noisy_rcp(uint32_t x)
{
	uint32_t r = bits(1.0f / f32(x));
	return x % 7 == 0 ? r + 1 : r;
}

START_TEST(test_file_round_trip)
{
	struct ub_capture c = {0}, back;
	struct ub_error err;
	char path[] = "/tmp/ubcapXXXXXX";
	int fd = mkstemp(path);
	ck_assert(fd >= 0);
	FILE *f = fdopen(fd, "wb");
	snprintf(c.info, sizeof c.info, "device=test\n");
	add(&c, UB_AI_RCP_FTZ, UB_SWEEP_MANTISSA, 16, 127, 1u << 16, noisy_rcp);
	add(&c, UB_AI_RCP, UB_SWEEP_MANTISSA, 16, 127, 1u << 16, noisy_rcp);
	add(&c, UB_AI_RCP, UB_SWEEP_RANDOM, 0, 3, 5000, noisy_rcp);
	add(&c, UB_AI_RCP, UB_SWEEP_LIST, 0, 0, 40, noisy_rcp);
	ck_assert_int_eq(ub_capture_write(f, &c, &err), 0);
	fclose(f);
	/* the plain form's identical table is stored against the .ftz one */
	ck_assert_int_eq(c.tables[0].pred, UB_PRED_MODEL);
	ck_assert_int_eq(c.tables[1].pred, UB_PRED_TABLE);
	ck_assert_int_eq(c.tables[1].base, 0);
	ck_assert_msg(c.tables[1].bytes < 200, "%llu bytes", (unsigned long long)c.tables[1].bytes);
	/* statistics against the predictor (1/x correctly rounded): the
	 * inputs that are multiples of 7 are one unit off */
	uint32_t sevens = 0;
	for (uint32_t i = 0; i < c.tables[0].count; i++)
		sevens += c.tables[0].in[i] % 7 == 0;
	ck_assert_uint_eq(c.tables[0].differ, sevens);
	ck_assert_int_eq(c.tables[0].max_dist, 1);
	int s = ub_capture_read(path, &back, &err);
	ck_assert_msg(s == 0, "%s", err.msg);
	ck_assert_str_eq(back.info, "device=test\n");
	ck_assert_int_eq(back.ntables, 4);
	for (int k = 0; k < 4; k++) {
		ck_assert_int_eq(back.tables[k].insn, c.tables[k].insn);
		ck_assert_int_eq(back.tables[k].kind, c.tables[k].kind);
		ck_assert_uint_eq(back.tables[k].count, c.tables[k].count);
		ck_assert(!memcmp(back.tables[k].in, c.tables[k].in, 4 * c.tables[k].count));
		ck_assert(!memcmp(back.tables[k].out, c.tables[k].out, 4 * c.tables[k].count));
		ck_assert_uint_eq(back.tables[k].differ, c.tables[k].differ);
	}
	ub_capture_free(&back);
	/* damage: one byte in the middle of table 0's data (after the file
	 * header, 8+4+4+4 bytes and the info, and the table's, 68 bytes) */
	long at = 20 + (long)strlen(c.info) + 68 + (long)c.tables[0].bytes / 2;
	ub_capture_free(&c);
	f = fopen(path, "r+b");
	fseek(f, at, SEEK_SET);
	int byte = fgetc(f);
	fseek(f, at, SEEK_SET);
	fputc(0x55 ^ byte, f);
	fclose(f);
	ck_assert_int_eq(ub_capture_read(path, &back, &err), UB_USAGE);
	ub_capture_free(&back);
	ck_assert_msg(strstr(err.msg, ": table 0 (rcp.approx.ftz.f32): corrupt data"), "%s", err.msg);
	ck_assert_int_eq(truncate(path, 100), 0);
	ck_assert_int_eq(ub_capture_read(path, &back, &err), UB_USAGE);
	ub_capture_free(&back);
	ck_assert_msg(strstr(err.msg, ": truncated (table "), "%s", err.msg);
	f = fopen(path, "wb");
	fputs("hello, not a capture file", f);
	fclose(f);
	ck_assert_int_eq(ub_capture_read(path, &back, &err), UB_USAGE);
	ck_assert_msg(strstr(err.msg, ": not a capture-approx file"), "%s", err.msg);
	ub_capture_free(&back);
	f = fopen(path, "wb");   /* an empty file: no buffer at all */
	fclose(f);
	ck_assert_int_eq(ub_capture_read(path, &back, &err), UB_USAGE);
	ck_assert_msg(strstr(err.msg, ": empty file"), "%s", err.msg);
	ub_capture_free(&back);
	remove(path);
}
END_TEST

/* Data of all-ones bytes decodes to the largest codes: z = 2^64 - 1,
 * a distance of -2^63, which no float32 is from another; adding it to the
 * previous distance (delta coding) or to a prediction's rank must be
 * refused, not overflow (UBSan). */
START_TEST(test_decode_huge)
{
	unsigned char ones[64];
	uint32_t y[4], pred[4] = { 0x80000000u, 0xff800000u, 1, 0 };
	memset(ones, 0xff, sizeof ones);
	for (int coding = UB_CODE_RESIDUAL; coding <= UB_CODE_DELTA; coding++) {
		ck_assert_int_eq(ub_code_decode(ones, sizeof ones, NULL, 4,
						(enum ub_coding)coding, y), -1);
		ck_assert_int_eq(ub_code_decode(ones, sizeof ones, pred, 4,
						(enum ub_coding)coding, y), -1);
	}
}
END_TEST

Suite *ub_capture_suite(void)
{
	Suite *s = suite_create("capture");
	TCase *tc = tcase_create("capture");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_predict_vs_mpfr, 0, UB_NAPPROX);
	tcase_add_test(tc, test_ord);
	tcase_add_test(tc, test_code_round_trip);
	tcase_add_test(tc, test_sweep_inputs);
	tcase_add_test(tc, test_file_round_trip);
	tcase_add_test(tc, test_decode_huge);
	suite_add_tcase(s, tc);
	return s;
}

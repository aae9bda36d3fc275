/* check_reference.c — the MPFR reference: correct rounding to f32, f16,
 * bf16 and f64, special values, and the exact value.
 *
 * Independent sources of the expected values:
 * - hand derivations from the binary expansions, written beside each row
 *   (well-known constants: float pi = 0x40490fdb, sqrt(2) = 0x3fb504f3,
 *   0.001f = 0x3a83126f, checked with Python's struct module);
 * - IEEE 754-2019 and C11 Annex F for signed zeros, NaN and infinities;
 * - MPFR used directly, without intervals or Ziv: the exact rational
 *   g/(x*x+1) (GMP mpq) rounded once by mpfr_set_q in the target range and
 *   mpfr_subnormalize; transcendental functions evaluated at 300 bits. */
#include "suites.h"

#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <string.h>

#include "ref_internal.h"
#include "reference.h"
#include "catalog.h"

/* The math of (FPCore t (a b c) BODY); the catalog stays in *cat. */
static const struct ub_expr *math(const char *body, struct ub_catalog *cat)
{
	char text[300];
	struct ub_error err = {""};
	snprintf(text, sizeof text, "(FPCore t (a b c) %s)", body);
	int st = ub_catalog_parse(text, "t", cat, &err);
	ck_assert_msg(st == 0, "%s", err.msg);
	return cat->ops[0].math;
}

#define NAN32 0x7fffffff /* the canonical quiet NaN of each format */
#define NAN16 0x7fff

static const struct {
	const char *body;
	enum ub_dtype dt;
	uint64_t in[3], want;
} rows[] = {
	/* atan backward g / (x*x + 1) as (/ b (+ (* a a) 1)): a = x, b = g */
#define ATAN "(/ b (+ (* a a) 1))"
	{ATAN, UB_F32, {0x3f800000, 0x40400000}, 0x3fc00000}, /* 3/(1+1) = 1.5 */
	{ATAN, UB_F32, {0x3f800000, 0x00000200}, 0x00000100}, /* 2^-140/2 = 2^8 * 2^-149 */
	/* ties to even among subnormals: 3*2^-149 / 2 = 1.5 units -> 2 units,
	 * 5*2^-149 / 2 = 2.5 units -> 2 units, 2^-149 / 2 = 0.5 unit -> +0 */
	{ATAN, UB_F32, {0x3f800000, 0x00000003}, 0x00000002},
	{ATAN, UB_F32, {0xbf800000, 0x00000005}, 0x00000002},
	{ATAN, UB_F32, {0x3f800000, 0x00000001}, 0x00000000},
	{ATAN, UB_F32, {0x3f800000, 0x80000001}, 0x80000000}, /* -0.5 unit -> -0 */
	/* x = 2^70: 1/(2^140 + 1) is 2^-140 (1 - 2^-140 ...), 2^-140 = 0x200 */
	{ATAN, UB_F32, {0x62800000, 0x3f800000}, 0x00000200},
	/* x = 2^64, g = max = (1 - 2^-24) 2^128: g/(2^128 + 1) is below
	 * 1 - 2^-24 = 0x3f7fffff by about 2^-128, far less than half its ulp */
	{ATAN, UB_F32, {0x5f800000, 0x7f7fffff}, 0x3f7fffff},
	{ATAN, UB_F32, {0x00000000, 0x7f7fffff}, 0x7f7fffff}, /* g / 1 */
	{ATAN, UB_F32, {0x80000000, 0xc0400000}, 0xc0400000}, /* (-0)^2 + 1 = 1 */
	/* signed zeros: -0/2 = -0, +0/2 = +0 (IEEE 754 6.3: xor of signs) */
	{ATAN, UB_F32, {0x3f800000, 0x80000000}, 0x80000000},
	{ATAN, UB_F32, {0x3f800000, 0x00000000}, 0x00000000},
	/* x = +-inf: x*x + 1 = +inf, g/inf = 0 with the sign of g */
	{ATAN, UB_F32, {0x7f800000, 0x3f800000}, 0x00000000},
	{ATAN, UB_F32, {0xff800000, 0xbf800000}, 0x80000000},
	{ATAN, UB_F32, {0x7f800000, 0x7f800000}, NAN32},      /* inf/inf */
	{ATAN, UB_F32, {0x3f800000, 0xff800000}, 0xff800000}, /* -inf/2 */
	{ATAN, UB_F32, {0xffc00001, 0x3f800000}, NAN32},      /* NaN in */
	{ATAN, UB_F32, {0x3f800000, 0x7fc00000}, NAN32},
	{ATAN, UB_F16, {0x3c00, 0xfe01}, NAN16},
	/* 1/3 = 0.010101...b.  f32: 1.0101..b * 2^-2, 23 fraction bits
	 * 0101...010 then 1010... (2/3 ulp): round up -> 0x3eaaaaab.  f16: 10
	 * bits 0101010101 then 0101... (1/3 ulp): down, exponent 13 ->
	 * 0x3555.  bf16: 7 bits 0101010 then 1010...: up -> 0x3eab.  f64: 52
	 * bits ...0101 then 0101...: down -> 0x3fd5555555555555. */
	{"(/ a b)", UB_F32, {0x3f800000, 0x40400000}, 0x3eaaaaab},
	{"(/ a b)", UB_F16, {0x3c00, 0x4200}, 0x3555},
	{"(/ a b)", UB_BF16, {0x3f80, 0x4040}, 0x3eab},
	{"(/ a b)", UB_F64, {0x3ff0000000000000, 0x4008000000000000}, 0x3fd5555555555555},
	{"(+ a 1/3)", UB_F32, {0}, 0x3eaaaaab}, /* a rational literal */
	/* 2^-140/3 = (512/3) 2^-149 = 170.67 units -> 171 = 0xab */
	{"(/ a b)", UB_F32, {0x00000200, 0x40400000}, 0x000000ab},
	/* 2^-149/3 = 1/3 unit -> 0, signed */
	{"(/ a b)", UB_F32, {0x00000001, 0x40400000}, 0x00000000},
	{"(/ a b)", UB_F32, {0x00000001, 0xc0400000}, 0x80000000},
	/* 2^127/0.5 = 2^128 overflows */
	{"(/ a b)", UB_F32, {0x7f000000, 0x3f000000}, 0x7f800000},
	{"(/ a b)", UB_F32, {0xff000000, 0x3f000000}, 0xff800000},
	/* IEEE division by zero and invalid: 1/+0 = +inf, 1/-0 = -inf,
	 * -1/+0 = -inf, 0/0 = NaN */
	{"(/ a b)", UB_F32, {0x3f800000, 0x00000000}, 0x7f800000},
	{"(/ a b)", UB_F32, {0x3f800000, 0x80000000}, 0xff800000},
	{"(/ a b)", UB_F32, {0xbf800000, 0x00000000}, 0xff800000},
	{"(/ a b)", UB_F32, {0x00000000, 0x00000000}, NAN32},
	/* f16: 65504/0.5 = 131008 > 65520 (max + half ulp) -> inf; 2^-24/2
	 * ties to 0; 3*2^-24/2 = 1.5 units -> 2 units */
	{"(/ a b)", UB_F16, {0x7bff, 0x3800}, 0x7c00},
	{"(/ a b)", UB_F16, {0x0001, 0x4000}, 0x0000},
	{"(/ a b)", UB_F16, {0x0003, 0x4000}, 0x0002},
	{"(/ a b)", UB_BF16, {0x0003, 0x4000}, 0x0002}, /* 1.5 units of 2^-133 */
	{"(/ a b)", UB_F64, {0x3, 0x4000000000000000}, 0x2},
	/* (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the midpoint between 1 + 2^-11
	 * (fraction 0x001000, even) and the next float: even */
	{"(* a b)", UB_F32, {0x3f800800, 0x3f800800}, 0x3f801000},
	/* (31*601 * 2^90) * (1801 * 2^13) = (2^25 - 1) 2^103 = 2^128 - 2^103:
	 * exactly between the largest float 2^128 - 2^104 (odd) and 2^128, so
	 * ties to even give 2^128: overflow to inf */
	{"(* a b)", UB_F32, {0x73918e00, 0x4b612000}, 0x7f800000},
	{"(* a b)", UB_F32, {0xf3918e00, 0x4b612000}, 0xff800000},
	{"(* a b)", UB_F32, {0x80000000, 0x40400000}, 0x80000000}, /* -0 * 3 */
	/* 1 + 2^-24: midpoint of 1 and 1 + 2^-23 -> 1; (1 + 2^-23) + 2^-24:
	 * midpoint of an odd and an even fraction -> 1 + 2^-22 */
	{"(+ a b)", UB_F32, {0x3f800000, 0x33800000}, 0x3f800000},
	{"(+ a b)", UB_F32, {0x3f800001, 0x33800000}, 0x3f800002},
	/* exact zero sums: -0 + -0 = -0, -0 + +0 = +0, 1 + -1 = +0, 1 - 1 = +0 */
	{"(+ a b)", UB_F32, {0x80000000, 0x80000000}, 0x80000000},
	{"(+ a b)", UB_F32, {0x80000000, 0x00000000}, 0x00000000},
	{"(+ a b)", UB_F32, {0x3f800000, 0xbf800000}, 0x00000000},
	{"(- a b)", UB_F32, {0x3f800000, 0x3f800000}, 0x00000000},
	{"(- a b)", UB_F32, {0x7f800000, 0x7f800000}, NAN32},
	/* (2^100 + 2^-100) - 2^100 = 2^-100 = 0x0d800000: the sum needs 201
	 * bits, so this is decided only after a refinement */
	{"(- (+ a b) a)", UB_F32, {0x71800000, 0x0d800000}, 0x0d800000},
	/* sqrt(-0) = -0, sqrt(4) = 2, sqrt(-1) = NaN, sqrt(2) */
	{"(sqrt a)", UB_F32, {0x80000000}, 0x80000000},
	{"(sqrt a)", UB_F32, {0x40800000}, 0x40000000},
	{"(sqrt a)", UB_F32, {0xbf800000}, NAN32},
	{"(sqrt a)", UB_F32, {0x40000000}, 0x3fb504f3},
	/* rSqrt (IEEE 754-2019 9.2): rSqrt(-0) = -inf, +0 -> +inf, 4 -> 0.5 */
	{"(rsqrt a)", UB_F32, {0x80000000}, 0xff800000},
	{"(rsqrt a)", UB_F32, {0x00000000}, 0x7f800000},
	{"(rsqrt a)", UB_F32, {0x40800000}, 0x3f000000},
	{"(rsqrt a)", UB_F32, {0xbf800000}, NAN32},
	/* fma(1, -0, -0) = -0 + -0 = -0; (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24
	 * exactly (fraction bit 2^-13 of 2^-11: 0x400) */
	{"(fma a b c)", UB_F32, {0x3f800000, 0x80000000, 0x80000000}, 0x80000000},
	{"(fma a a b)", UB_F32, {0x3f800800, 0xbf800000}, 0x3a000400},
	/* C11 F.10.4.4 pow: pow(1, NaN) = 1, pow(NaN, 0) = 1, pow(-8, y) for a
	 * non-integer y is NaN, pow(+0, -1) = +inf, pow(-0, -1) = -inf */
	{"(pow a b)", UB_F32, {0x3f800000, 0x7fc00000}, 0x3f800000},
	{"(pow a b)", UB_F32, {0x7fc00000, 0x00000000}, 0x3f800000},
	{"(pow a 1/3)", UB_F32, {0xc1000000}, NAN32},
	{"(pow a b)", UB_F32, {0x00000000, 0xbf800000}, 0x7f800000},
	{"(pow a b)", UB_F32, {0x80000000, 0xbf800000}, 0xff800000},
	{"(pow a b)", UB_F32, {0x40000000, 0x41200000}, 0x44800000}, /* 2^10 */
	{"(pow a b)", UB_F32, {0xc0000000, 0x40400000}, 0xc1000000}, /* -8 */
	/* fmin/fmax (C11 F.10.9, PTX min): NaN yields the other operand;
	 * -0 < +0 */
	{"(fmin a b)", UB_F32, {0x7fc00000, 0x3f800000}, 0x3f800000},
	{"(fmin a b)", UB_F32, {0x80000000, 0x00000000}, 0x80000000},
	{"(fmax a b)", UB_F32, {0x80000000, 0x00000000}, 0x00000000},
	/* exp(0) = 1, exp(-inf) = +0, e^100 > 2^128 -> inf, e^-200 < 2^-150
	 * -> +0; log(1) = +0, log(+-0) = -inf, log(-1) = NaN */
	{"(exp a)", UB_F32, {0x00000000}, 0x3f800000},
	{"(exp a)", UB_F32, {0xff800000}, 0x00000000},
	{"(exp a)", UB_F32, {0x42c80000}, 0x7f800000},
	{"(exp a)", UB_F32, {0xc3480000}, 0x00000000},
	{"(log a)", UB_F32, {0x3f800000}, 0x00000000},
	{"(log a)", UB_F32, {0x80000000}, 0xff800000},
	{"(log a)", UB_F32, {0xbf800000}, NAN32},
	/* atan(inf) = pi/2 = 0x3fc90fdb (float pi 0x40490fdb, exponent - 1),
	 * atan(-0) = -0, sin(-0) = -0, sin(inf) = NaN */
	{"(atan a)", UB_F32, {0x7f800000}, 0x3fc90fdb},
	{"(atan a)", UB_F32, {0x80000000}, 0x80000000},
	{"(sin a)", UB_F32, {0x80000000}, 0x80000000},
	{"(sin a)", UB_F32, {0x7f800000}, NAN32},
	/* exp(0x1.fffffep127) = 2^(4.9e38) is finite but beyond MPFR's
	 * exponent range: an enclosure with an infinite bound.  0 * finite is
	 * 0 with the sign of the product, 1/finite rounds to +0, finite + -inf
	 * is -inf, 1 * finite overflows f32 */
	{"(* b (exp a))", UB_F32, {0x7f7fffff, 0x00000000}, 0x00000000},
	{"(* b (exp a))", UB_F32, {0x7f7fffff, 0x80000000}, 0x80000000},
	{"(* b (exp a))", UB_F32, {0x7f7fffff, 0x3f800000}, 0x7f800000},
	{"(/ b (exp a))", UB_F32, {0x7f7fffff, 0x3f800000}, 0x00000000},
	{"(+ (exp a) b)", UB_F32, {0x7f7fffff, 0xff800000}, 0xff800000},
	/* NaN meets an inexact 1/3: pow(1/3, NaN) = NaN, fmin(1/3, NaN) = 1/3 */
	{"(pow (/ a 3) b)", UB_F32, {0x3f800000, 0x7fc00000}, NAN32},
	{"(fmin (/ a 3) b)", UB_F32, {0x3f800000, 0x7fc00000}, 0x3eaaaaab},
	/* constants and literals */
	{"PI", UB_F32, {0}, 0x40490fdb},
	{"(* 2 PI)", UB_F32, {0}, 0x40c90fdb},
	{"E", UB_F32, {0}, 0x402df854},
	{"INFINITY", UB_F32, {0}, 0x7f800000},
	{"NAN", UB_F16, {0}, NAN16},
	{"0x1.8p1", UB_F32, {0}, 0x40400000},
	{"1e-3", UB_F32, {0}, 0x3a83126f},
	{"(- -0.5)", UB_F32, {0}, 0x3f000000},
	{"(+ a -0)", UB_F32, {0x80000000}, 0x80000000}, /* -0 + -0 = -0 */
};

START_TEST(test_rows)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	const struct ub_expr *e = math(rows[_i].body, &cat);
	enum ub_dtype dt = rows[_i].dt;
	uint64_t got = 0, want = rows[_i].want;
	struct ub_exact x;
	int st = ub_ref_eval(e, dt, rows[_i].in, 3, &got, &x, &err);
	ck_assert_msg(st == 0, "%s: %s", rows[_i].body, err.msg);
	ck_assert_msg(got == want, "%s %s (0x%llx, 0x%llx): got %a (0x%llx), "
		      "want %a (0x%llx)", rows[_i].body, ub_dtypes[dt].name,
		      (unsigned long long)rows[_i].in[0],
		      (unsigned long long)rows[_i].in[1], ub_bits_to_double(dt, got),
		      (unsigned long long)got, ub_bits_to_double(dt, want),
		      (unsigned long long)want);
	ub_catalog_free(&cat);
}
END_TEST

/* The exact value: 1/3 = sum of 2^-2k.  hi keeps k = 1..27 (53 bits down
 * to 2^-54): 0x1.5555555555555p-2; the rest is sum_{k>=28} 2^-2k =
 * (4/3) 2^-56 = 2^-54 / 3, whose nearest double is 0x1.5555555555555p-56.
 * The same for every target format. */
START_TEST(test_exact_third)
{
	struct ub_catalog cat;
	struct ub_error err;
	const struct ub_expr *e = math("(/ a b)", &cat);
	static const uint64_t in[UB_NDTYPES][2] = {
		[UB_F32] = {0x3f800000, 0x40400000}, [UB_F16] = {0x3c00, 0x4200},
		[UB_BF16] = {0x3f80, 0x4040},
		[UB_F64] = {0x3ff0000000000000, 0x4008000000000000}};
	for (int dt = 0; dt < UB_NDTYPES; dt++) {
		uint64_t cr;
		struct ub_exact x;
		ck_assert_int_eq(ub_ref_eval(e, dt, in[dt], 2, &cr, &x, &err), 0);
		ck_assert_msg(x.hi == 0x1.5555555555555p-2 && x.lo == 0x1.5555555555555p-56,
			      "%s: %a + %a", ub_dtypes[dt].name, x.hi, x.lo);
	}
	uint64_t g3[2] = {0x3f800000, 0x40400000}, cr; /* x = 1, g = 3: 1.5 + 0 */
	struct ub_exact x;
	ub_catalog_free(&cat);
	e = math(ATAN, &cat);
	ck_assert_int_eq(ub_ref_eval(e, UB_F32, g3, 2, &cr, &x, &err), 0);
	ck_assert(x.hi == 1.5 && x.lo == 0);
	uint64_t inf[2] = {0x3f800000, 0xff800000}, nan[2] = {0x7fc00000, 0};
	ck_assert_int_eq(ub_ref_eval(e, UB_F32, inf, 2, &cr, &x, &err), 0);
	ck_assert(x.hi == -INFINITY);
	ck_assert_int_eq(ub_ref_eval(e, UB_F32, nan, 2, &cr, &x, &err), 0);
	ck_assert(isnan(x.hi));
	ub_catalog_free(&cat);
}
END_TEST

static uint64_t next(uint64_t *s) /* xorshift64* */
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dULL;
}

/* A random finite value of dt; every other one has an exponent within 12
 * of 0, where x*x + 1 is neither 1 nor x*x. */
static uint64_t random_finite(enum ub_dtype dt, uint64_t *s)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	int mb = f->prec - 1;
	uint64_t all = f->bits == 64 ? ~0ULL : (1ULL << f->bits) - 1;
	uint64_t emask = ((1ULL << (f->bits - 1)) - 1) & ~((1ULL << mb) - 1);
	for (;;) {
		uint64_t r = next(s), bits = r & all;
		if (r >> 63)
			bits = (bits & ~emask) |
			       ((uint64_t)(f->emax + (int)(r >> 40) % 25 - 12) << mb);
		if ((bits & emask) != emask)
			return bits;
	}
}

/* g / (x*x + 1) by MPFR alone: the exact rational, rounded once to dt by
 * mpfr_set_q in dt's exponent range with mpfr_subnormalize (the method of
 * MPFR's manual for emulating IEEE formats), as a double. */
static double quotient(enum ub_dtype dt, double x, double g)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	mpq_t qx, q;
	mpfr_t y;
	mpq_inits(qx, q, NULL);
	mpfr_init2(y, f->prec);
	mpq_set_d(qx, x);
	mpq_mul(qx, qx, qx);
	mpq_set_ui(q, 1, 1);
	mpq_add(qx, qx, q);
	mpq_set_d(q, g);
	mpq_div(q, q, qx);
	mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
	mpfr_set_emin(f->emin - f->prec + 2);
	mpfr_set_emax(f->emax + 1);
	int t = mpfr_set_q(y, q, MPFR_RNDN);
	mpfr_subnormalize(y, t, MPFR_RNDN);
	mpfr_set_emin(emin);
	mpfr_set_emax(emax);
	double d = g == 0 ? g : mpfr_get_d(y, MPFR_RNDN); /* 0/t keeps g's sign */
	mpfr_clear(y);
	mpq_clears(qx, q, NULL);
	return d;
}

START_TEST(test_random_quotients)
{
	enum ub_dtype dt = (enum ub_dtype)_i;
	struct ub_catalog cat;
	struct ub_error err;
	const struct ub_expr *e = math(ATAN, &cat);
	uint64_t seed = 0x9e3779b97f4a7c15ULL + (uint64_t)_i;
	for (int k = 0; k < 3000; k++) {
		uint64_t in[2] = {random_finite(dt, &seed), random_finite(dt, &seed)};
		uint64_t got;
		struct ub_exact x;
		ck_assert_int_eq(ub_ref_eval(e, dt, in, 2, &got, &x, &err), 0);
		double want = quotient(dt, ub_bits_to_double(dt, in[0]),
				       ub_bits_to_double(dt, in[1]));
		double g = ub_bits_to_double(dt, got);
		ck_assert_msg(g == want && signbit(g) == signbit(want),
			      "%s seed 0x%llx: x=0x%llx g=0x%llx: got %a (0x%llx), want %a",
			      ub_dtypes[dt].name, (unsigned long long)seed,
			      (unsigned long long)in[0], (unsigned long long)in[1],
			      g, (unsigned long long)got, want);
	}
	ub_catalog_free(&cat);
}
END_TEST

/* Transcendental functions against MPFR at 300 bits: the f32 result is
 * mpfr_get_flt of the 300-bit value (a double rounding that could differ
 * only within 2^-276 of a midpoint), the exact value its nearest
 * double-double. */
static const struct {
	const char *body;
	int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
	int third; /* f(a/3): an argument that is not exact */
} funcs[] = {
	{"(atan a)", mpfr_atan, 0},        {"(exp a)", mpfr_exp, 0},
	{"(expm1 a)", mpfr_expm1, 0},      {"(tanh a)", mpfr_tanh, 0},
	{"(erf a)", mpfr_erf, 0},          {"(log1p a)", mpfr_log1p, 0},
	{"(sin (/ a 3))", mpfr_sin, 1},    {"(cos (/ a 3))", mpfr_cos, 1},
	{"(tan (/ a 3))", mpfr_tan, 1},    {"(log (/ a 3))", mpfr_log, 1},
	{"(asin (/ a 3))", mpfr_asin, 1},  {"(acos (/ a 3))", mpfr_acos, 1},
	{"(exp (/ a 3))", mpfr_exp, 1},    {"(sqrt (/ a 3))", mpfr_sqrt, 1},
	{"(exp2 a)", mpfr_exp2, 0},        {"(log2 (/ a 3))", mpfr_log2, 1},
	{"(log10 (/ a 3))", mpfr_log10, 1}, {"(cbrt (/ a 3))", mpfr_cbrt, 1},
	{"(sinh a)", mpfr_sinh, 0},        {"(cosh a)", mpfr_cosh, 0},
	{"(asinh (/ a 3))", mpfr_asinh, 1}, {"(acosh a)", mpfr_acosh, 0},
	{"(atanh (/ a 3))", mpfr_atanh, 1}, {"(erfc a)", mpfr_erfc, 0},
	{"(floor (/ a 3))", mpfr_rint_floor, 1}, {"(ceil (/ a 3))", mpfr_rint_ceil, 1},
	{"(trunc (/ a 3))", mpfr_rint_trunc, 1}, {"(round (/ a 3))", mpfr_rint_round, 1},
	{"(nearbyint (/ a 3))", mpfr_rint_roundeven, 1},
};

START_TEST(test_transcendental)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	const struct ub_expr *e = math(funcs[_i].body, &cat);
	uint64_t seed = 0x243f6a8885a308d3ULL + (uint64_t)_i;
	mpfr_t v;
	mpfr_init2(v, 300);
	for (int k = 0; k < 300; k++) {
		uint64_t a = random_finite(UB_F32, &seed), got;
		struct ub_exact x;
		int st = ub_ref_eval(e, UB_F32, &a, 1, &got, &x, &err);
		ck_assert_msg(st == 0, "%s", err.msg);
		mpfr_set_d(v, ub_bits_to_double(UB_F32, a), MPFR_RNDN);
		if (funcs[_i].third)
			mpfr_div_ui(v, v, 3, MPFR_RNDN);
		funcs[_i].f(v, v, MPFR_RNDN);
		float w = mpfr_get_flt(v, MPFR_RNDN);
		uint32_t want;
		memcpy(&want, &w, sizeof want);
		want = mpfr_nan_p(v) ? NAN32 : want;
		/* hi = RN(v); |hi + lo - v| < 2^-104 |hi| (ref_mpfr.c's bound
		 * is 2^-106 or so), or < 2^-1074 where lo is subnormal */
		double hi = mpfr_get_d(v, MPFR_RNDN);
		int close = 1;
		if (isfinite(hi) && hi != 0) {
			mpfr_sub_d(v, v, x.hi, MPFR_RNDN);
			mpfr_sub_d(v, v, x.lo, MPFR_RNDN);
			int e = ilogb(hi) + 1 - 104;
			close = mpfr_zero_p(v) ||
				mpfr_get_exp(v) <= (e > -1074 ? e : -1074);
		} else {
			close = x.lo == 0;
		}
		ck_assert_msg(got == want && (x.hi == hi || (isnan(hi) && isnan(x.hi))) &&
			      close,
			      "%s a=%a (0x%08llx): got 0x%08llx %a%+a, want 0x%08x %a",
			      funcs[_i].body, ub_bits_to_double(UB_F32, a),
			      (unsigned long long)a, (unsigned long long)got, x.hi,
			      x.lo, want, hi);
	}
	mpfr_clear(v);
	ub_catalog_free(&cat);
}
END_TEST

START_TEST(test_array)
{
	struct ub_catalog cat;
	struct ub_error err;
	const struct ub_expr *e = math(ATAN, &cat);
	uint32_t xs[3] = {0x3f800000, 0x7f800000, 0x3f800000};
	uint32_t gs[3] = {0x40400000, 0xbf800000, 0x00000003};
	struct ub_array in[2] = {{UB_F32, 3, xs}, {UB_F32, 3, gs}}, cr;
	struct ub_exact x[3];
	ck_assert_int_eq(ub_ref_eval_array(e, UB_F32, in, 2, &cr, x, &err), 0);
	/* rows of test_rows: 1.5, -1/inf = -0, 1.5 units -> 2 units */
	ck_assert_int_eq(cr.dt, UB_F32);
	ck_assert_uint_eq(ub_array_get(&cr, 0), 0x3fc00000);
	ck_assert_uint_eq(ub_array_get(&cr, 1), 0x80000000);
	ck_assert_uint_eq(ub_array_get(&cr, 2), 0x00000002);
	ck_assert(x[0].hi == 1.5 && x[2].hi == 0x1.8p-149);
	ub_array_free(&cr);
	in[1].n = 2;
	ck_assert_int_eq(ub_ref_eval_array(e, UB_F32, in, 2, &cr, x, &err), UB_USAGE);
	ub_catalog_free(&cat);
}
END_TEST

START_TEST(test_errors)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	uint64_t in[1] = {0x3f800000}, cr;
	struct ub_exact x;
	/* at a = 2, log 2 + log 3 - log 6 is exactly 0, but no finite
	 * precision proves that from enclosures, and the exact evaluation has
	 * log 2, log 3 and log 6 as three atoms (it does not know log 6 = log
	 * 2 + log 3).  Undecided, never guessed: no value, the exact value
	 * marked, the two candidates named. */
	const struct ub_expr *e = math("(- (+ (log a) (log 3)) (log (* 3 a)))", &cat);
	in[0] = 0x40000000; /* a = 2: log 2 + log 3 - log 6 */
	ck_assert_int_eq(ub_ref_eval(e, UB_F32, in, 1, &cr, &x, &err), UB_REF_UNDECIDED);
	ck_assert_msg(strstr(err.msg, "cannot decide") &&
		      strstr(err.msg, "between 0x80000000 and 0x00000000"), "%s", err.msg);
	ck_assert_uint_eq(cr, 0x7fffffff);
	ck_assert(ub_exact_undecided(&x));
	ub_catalog_free(&cat);
	e = math("(+ a b)", &cat); /* b without an input */
	ck_assert_int_eq(ub_ref_eval(e, UB_F32, in, 1, &cr, NULL, &err), UB_USAGE);
	ub_catalog_free(&cat);
}
END_TEST

/* The interval layer on its own: for random enclosures [x - d, x + d]
 * (and points), every value of the operator at points of the arguments'
 * intervals, computed by MPFR at 400 bits, lies in the result, and
 * lo <= hi.  This checks soundness, which a wrong but lucky enclosure
 * would hide from the rounding tests above. */
static const struct {
	enum ub_expr_op op;
	int (*f1)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
	int (*f2)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
} encl[] = {
	{UB_NEG, mpfr_neg, NULL},     {UB_SQRT, mpfr_sqrt, NULL},
	{UB_RSQRT, mpfr_rec_sqrt, NULL}, {UB_FABS, mpfr_abs, NULL},
	{UB_EXP, mpfr_exp, NULL},     {UB_EXPM1, mpfr_expm1, NULL},
	{UB_LOG, mpfr_log, NULL},     {UB_LOG1P, mpfr_log1p, NULL},
	{UB_SIN, mpfr_sin, NULL},     {UB_COS, mpfr_cos, NULL},
	{UB_TAN, mpfr_tan, NULL},     {UB_ASIN, mpfr_asin, NULL},
	{UB_ACOS, mpfr_acos, NULL},   {UB_ATAN, mpfr_atan, NULL},
	{UB_TANH, mpfr_tanh, NULL},   {UB_ERF, mpfr_erf, NULL},
	{UB_ADD, NULL, mpfr_add},     {UB_SUB, NULL, mpfr_sub},
	{UB_MUL, NULL, mpfr_mul},     {UB_DIV, NULL, mpfr_div},
	{UB_POW, NULL, mpfr_pow},     {UB_FMIN, NULL, mpfr_min},
	{UB_FMAX, NULL, mpfr_max},    {UB_FMA, NULL, NULL},
	{UB_EXP2, mpfr_exp2, NULL},   {UB_LOG2, mpfr_log2, NULL},
	{UB_LOG10, mpfr_log10, NULL}, {UB_CBRT, mpfr_cbrt, NULL},
	{UB_SINH, mpfr_sinh, NULL},   {UB_COSH, mpfr_cosh, NULL},
	{UB_ASINH, mpfr_asinh, NULL}, {UB_ACOSH, mpfr_acosh, NULL},
	{UB_ATANH, mpfr_atanh, NULL}, {UB_ERFC, mpfr_erfc, NULL},
	{UB_FLOOR, mpfr_rint_floor, NULL}, {UB_CEIL, mpfr_rint_ceil, NULL},
	{UB_TRUNC, mpfr_rint_trunc, NULL}, {UB_ROUND, mpfr_rint_round, NULL},
	{UB_NEARBYINT, mpfr_rint_roundeven, NULL},
	{UB_HYPOT, NULL, mpfr_hypot}, {UB_ATAN2, NULL, mpfr_atan2},
};

/* An argument: a random float, half the time scaled into [0.5, 1) so that
 * asin, acos and log1p see their domains; a point (mode) or x +- 2^-90 x. */
static void random_arg(struct ub_ival *a, double *x, int point, uint64_t *s)
{
	*x = ub_bits_to_double(UB_F32, random_finite(UB_F32, s));
	if (next(s) >> 63 && *x != 0)
		*x = ldexp(*x, -ilogb(*x) - 1);
	mpfr_set_d(a->lo, *x, MPFR_RNDN);
	mpfr_set_d(a->hi, *x, MPFR_RNDN);
	if (point)
		return;
	if (*x == 0) {
		mpfr_set_si_2exp(a->lo, -1, -200, MPFR_RNDN);
		mpfr_set_si_2exp(a->hi, 1, -200, MPFR_RNDN);
		return;
	}
	mpfr_set_d(a->lo, ldexp(fabs(*x), -90), MPFR_RNDN);
	mpfr_sub_d(a->hi, a->lo, -*x, MPFR_RNDU); /* x + d */
	mpfr_sub_d(a->lo, a->lo, *x, MPFR_RNDU);
	mpfr_neg(a->lo, a->lo, MPFR_RNDD);        /* x - d */
}

static void exact_at(int i, mpfr_ptr v, mpfr_srcptr *p)
{
	if (encl[i].f1)
		encl[i].f1(v, p[0], MPFR_RNDN);
	else if (encl[i].f2)
		encl[i].f2(v, p[0], p[1], MPFR_RNDN);
	else
		mpfr_fma(v, p[0], p[1], p[2], MPFR_RNDN);
}

START_TEST(test_enclosure)
{
	enum ub_expr_op op = encl[_i].op;
	int n = ub_expr_ops[op].arity, refined = 0, trials = 600;
	double x[3] = {0, 0, 0};
	struct ub_ival arg[3], r;
	const struct ub_ival *a[3] = {&arg[0], &arg[1], &arg[2]};
	mpfr_t t, v;
	uint64_t seed = 0x3c6ef372fe94f82bULL + (uint64_t)_i;
	for (int k = 0; k < 3; k++)
		mpfr_inits2(127, arg[k].lo, arg[k].hi, (mpfr_ptr)0);
	mpfr_inits2(127, r.lo, r.hi, t, (mpfr_ptr)0);
	mpfr_init2(v, 400);
	for (int k = 0; k < trials; k++) {
		int mode = k % (n + 1); /* 0: no point, else argument mode-1 */
		for (int j = 0; j < n; j++)
			random_arg(&arg[j], &x[j], mode == j + 1, &seed);
		if (ub_iv_apply(op, &r, a, t) == UB_IV_REFINE) {
			refined++;
			continue;
		}
		int nan = mpfr_nan_p(r.lo) != 0;
		ck_assert_msg(nan || mpfr_lessequal_p(r.lo, r.hi), "%s: lo > hi",
			      ub_expr_ops[op].name);
		for (int c = 0; c < (1 << n); c++) { /* every corner */
			mpfr_srcptr p[3];
			for (int j = 0; j < n; j++)
				p[j] = c >> j & 1 ? arg[j].hi : arg[j].lo;
			exact_at(_i, v, p);
			int in = nan ? mpfr_nan_p(v) != 0
				     : mpfr_lessequal_p(r.lo, v) && mpfr_lessequal_p(v, r.hi);
			UB_ASSERT(in, "%s(%a, %a, %a) mode %d: corner %d = %a "
				  "outside [%a, %a]", ub_expr_ops[op].name, x[0],
				  x[1], x[2], mode, c, mpfr_get_d(v, MPFR_RNDN),
				  mpfr_get_d(r.lo, MPFR_RNDD), mpfr_get_d(r.hi, MPFR_RNDU));
		}
	}
	/* refined by design: pow of a negative base whose exponent is not a
	 * point (it might be an integer), about a third of pow's trials */
	ck_assert_msg(refined < trials / (op == UB_POW ? 2 : 8), "%s: %d of %d refined",
		      ub_expr_ops[op].name, refined, trials);
	for (int k = 0; k < 3; k++)
		mpfr_clears(arg[k].lo, arg[k].hi, (mpfr_ptr)0);
	mpfr_clears(r.lo, r.hi, t, v, (mpfr_ptr)0);
}
END_TEST

static void teardown(void)
{
	ub_ref_release();
}

Suite *ub_reference_suite(void)
{
	Suite *s = suite_create("reference");
	TCase *tc = tcase_create("reference");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_rows, 0, sizeof rows / sizeof rows[0]);
	tcase_add_test(tc, test_exact_third);
	tcase_add_loop_test(tc, test_random_quotients, 0, UB_NDTYPES);
	tcase_add_loop_test(tc, test_transcendental, 0, sizeof funcs / sizeof funcs[0]);
	tcase_add_loop_test(tc, test_enclosure, 0, sizeof encl / sizeof encl[0]);
	tcase_add_test(tc, test_array);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

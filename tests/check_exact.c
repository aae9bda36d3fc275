/* check_exact.c — the reference on rounding boundaries: the rounding of
 * an exact rational to each format (ref_round.c).
 *
 * Independent source: a rounding written here with integer arithmetic
 * only (GMP's mpz: scale by a power of two, compare the remainder with one
 * half, ties to even). */
#include "suites.h"

#include <gmp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ref_internal.h"

/* ---- rounding a rational, by integer arithmetic ----------------------- */

/* floor(log2 a) for a rational a > 0. */
static long ilog2_q(mpq_srcptr a)
{
	long e = (long)mpz_sizeinbase(mpq_numref(a), 2) -
		 (long)mpz_sizeinbase(mpq_denref(a), 2);
	mpz_t l, r; /* a >= 2^e  <=>  num * 2^-e >= den (e < 0: num >= den 2^e) */
	mpz_inits(l, r, (mpz_ptr)0);
	mpz_set(l, mpq_numref(a));
	mpz_set(r, mpq_denref(a));
	if (e >= 0)
		mpz_mul_2exp(r, r, (mp_bitcnt_t)e);
	else
		mpz_mul_2exp(l, l, (mp_bitcnt_t)-e);
	if (mpz_cmp(l, r) < 0)
		e--;
	mpz_clears(l, r, (mpz_ptr)0);
	return e;
}

/* q rounded to nearest even in dt, as an encoding. */
static uint64_t int_round(enum ub_dtype dt, mpq_srcptr q, int negzero)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	int p = f->prec;
	uint64_t sign = (uint64_t)(mpq_sgn(q) < 0 || (!mpq_sgn(q) && negzero)) << (f->bits - 1);
	uint64_t inf = (uint64_t)(2 * f->emax + 1) << (p - 1);
	if (!mpq_sgn(q))
		return sign;
	mpq_t a, m;
	mpz_t n, r2;
	mpq_inits(a, m, (mpq_ptr)0);
	mpz_inits(n, r2, (mpz_ptr)0);
	mpq_abs(a, q);
	long e = ilog2_q(a), k = (e > f->emin ? e : f->emin) - (p - 1);
	mpq_set(m, a); /* m = a / 2^k */
	if (k >= 0)
		mpq_div_2exp(m, m, (mp_bitcnt_t)k);
	else
		mpq_mul_2exp(m, m, (mp_bitcnt_t)-k);
	mpz_fdiv_qr(n, r2, mpq_numref(m), mpq_denref(m)); /* m = n + r2/den */
	mpz_mul_2exp(r2, r2, 1);                          /* compare r with 1/2 */
	int c = mpz_cmp(r2, mpq_denref(m));
	if (c > 0 || (c == 0 && mpz_odd_p(n)))
		mpz_add_ui(n, n, 1);
	if (mpz_sizeinbase(n, 2) > (size_t)p) { /* n = 2^p: the next binade */
		mpz_fdiv_q_2exp(n, n, 1);
		k++;
	}
	uint64_t bits, mant = mpz_get_ui(n);
	long E = k + p - 1;
	if (mant < (UINT64_C(1) << (p - 1))) /* subnormal (k = emin - p + 1) */
		bits = sign | mant;
	else if (E > f->emax)
		bits = sign | inf;
	else
		bits = sign | (uint64_t)(E + f->emax) << (p - 1) |
		       (mant - (UINT64_C(1) << (p - 1)));
	mpq_clears(a, m, (mpq_ptr)0);
	mpz_clears(n, r2, (mpz_ptr)0);
	return bits;
}

/* Rationals of every kind near the boundaries of dt: midpoints between
 * neighbours (normal, subnormal, at the top, half the smallest subnormal),
 * those moved by tiny non-dyadic amounts, and random quotients. */
static void sample(enum ub_dtype dt, gmp_randstate_t rs, int kind, mpq_ptr q)
{
	const struct ub_dtype_info *f = &ub_dtypes[dt];
	int p = f->prec;
	long lo = f->emin - p - 2, hi = f->emax + 2;
	long e = lo + (long)gmp_urandomm_ui(rs, (unsigned long)(hi - lo + 1));
	mpz_urandomb(mpq_numref(q), rs, (mp_bitcnt_t)p + 1); /* p+1 bits: odd = midpoint */
	mpz_setbit(mpq_numref(q), 0);
	mpz_set_ui(mpq_denref(q), 1);
	if (kind == 1) /* the largest finite number plus half its spacing */
		mpz_set_ui(mpq_numref(q), (UINT64_C(1) << (p + 1)) - 1), e = f->emax - p;
	if (kind == 2) /* half, three quarters of the smallest subnormal */
		mpz_set_ui(mpq_numref(q), 2 + gmp_urandomm_ui(rs, 2)), e = f->emin - p - 1;
	if (e >= 0)
		mpq_mul_2exp(q, q, (mp_bitcnt_t)e);
	else
		mpq_div_2exp(q, q, (mp_bitcnt_t)-e);
	if (kind == 3 || kind == 4) { /* moved by 1/3^30 of the spacing */
		mpq_t d;
		mpq_init(d);
		mpz_ui_pow_ui(mpq_denref(d), 3, 30);
		mpz_set_ui(mpq_numref(d), 1);
		if (e >= 0)
			mpq_mul_2exp(d, d, (mp_bitcnt_t)e);
		else
			mpq_div_2exp(d, d, (mp_bitcnt_t)-e);
		if (kind == 3)
			mpq_add(q, q, d);
		else
			mpq_sub(q, q, d);
		mpq_clear(d);
	}
	if (kind == 5) { /* a random quotient */
		mpz_urandomb(mpq_numref(q), rs, 80);
		mpz_urandomb(mpq_denref(q), rs, 1 + gmp_urandomm_ui(rs, 80));
		mpz_setbit(mpq_denref(q), 0);
		mpq_canonicalize(q);
	}
	if (gmp_urandomm_ui(rs, 2))
		mpq_neg(q, q);
}

START_TEST(test_round_q)
{
	enum ub_dtype dt = (enum ub_dtype)_i;
	gmp_randstate_t rs;
	mpq_t q;
	gmp_randinit_default(rs);
	gmp_randseed_ui(rs, 17 + (unsigned long)_i);
	mpq_init(q);
	for (int i = 0; i < 30000; i++) {
		sample(dt, rs, i % 6, q);
		int nz = i % 7 == 0;
		uint64_t got = ub_ref_round_q(dt, q, nz), want = int_round(dt, q, nz);
		ck_assert_msg(got == want, "%s: %s rounds to 0x%llx, expected 0x%llx",
			      ub_dtypes[dt].name, mpq_get_str(NULL, 10, q),
			      (unsigned long long)got, (unsigned long long)want);
	}
	mpq_set_ui(q, 0, 1);
	ck_assert_uint_eq(ub_ref_round_q(dt, q, 1), UINT64_C(1) << (ub_dtypes[dt].bits - 1));
	mpq_clear(q);
	gmp_randclear(rs);
}
END_TEST

Suite *ub_exact_suite(void)
{
	Suite *s = suite_create("exact");
	TCase *tc = tcase_create("round");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_round_q, 0, UB_NDTYPES);
	suite_add_tcase(s, tc);
	return s;
}

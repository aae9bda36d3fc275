/* check_hash.c — the digest of cache keys and checksums (hash.h): every
 * change of one byte, or of a run of up to eight in one word, changes
 * both lanes (each step a bijection of the word); the length enters (a
 * field cut at another place is another key); a string hashes with its
 * NUL; the same bytes give the same digest. */
#include "suites.h"
#include "hash.h"

#include <stdint.h>
#include <string.h>

static void digest(const unsigned char *p, size_t n, uint64_t h[2])
{
	const uint64_t h0[2] = UB_HASH0;
	memcpy(h, h0, sizeof h0);
	ub_hash_bytes(h, p, n);
}

/* A pseudo-random byte (a fixed LCG: the same inputs in every run). */
static unsigned char next(uint64_t *s)
{
	*s = *s * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
	return (unsigned char)(*s >> 56);
}

/* n pseudo-random bytes into a (s the LCG's state), their digest in h. */
static void random_bytes(unsigned char *a, size_t n, uint64_t *s, uint64_t h[2])
{
	for (size_t i = 0; i < n; i++)
		a[i] = next(s);
	digest(a, n, h);
}

/* Whether b's digest differs from h in both lanes. */
static int both_differ(const unsigned char *b, size_t n, const uint64_t h[2])
{
	uint64_t hb[2];
	digest(b, n, hb);
	return hb[0] != h[0] && hb[1] != h[1];
}

START_TEST(test_one_byte)
{
	enum { N = 203 };   /* 25 words and 3 bytes: the tail word too */
	unsigned char a[N], b[N];
	uint64_t s = 1, ha[2];
	int bad = 0;
	random_bytes(a, N, &s, ha);
	for (int i = 0; i < N; i++)
		for (int d = 1; d < 256; d += 17) {   /* 15 changes of each byte */
			memcpy(b, a, N);
			b[i] ^= (unsigned char)d;
			bad += !both_differ(b, N, ha);
		}
	ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_one_word)
{
	enum { N = 64 };
	unsigned char a[N], b[N];
	uint64_t s = 7, ha[2];
	int bad = 0;
	random_bytes(a, N, &s, ha);
	for (int t = 0; t < 2000; t++) {   /* 8 bytes of word w, all at once */
		int w = t % (N / 8);
		memcpy(b, a, N);
		for (int k = 0; k < 8; k++)
			b[8 * w + k] ^= (unsigned char)(next(&s) | 1);
		bad += !both_differ(b, N, ha);
	}
	ck_assert_int_eq(bad, 0);
}
END_TEST

START_TEST(test_fields)
{
	uint64_t h1[2] = UB_HASH0, h2[2] = UB_HASH0, h3[2] = UB_HASH0;
	/* "ab","c" against "a","bc": the NULs and lengths keep them apart */
	ub_hash_str(h1, "ab");
	ub_hash_str(h1, "c");
	ub_hash_str(h2, "a");
	ub_hash_str(h2, "bc");
	ck_assert(h1[0] != h2[0] && h1[1] != h2[1]);
	/* trailing zero bytes are not the same as none: the length enters */
	const unsigned char z[16] = {0};
	uint64_t a[2], b[2];
	digest(z, 3, a);
	digest(z, 4, b);
	ck_assert(a[0] != b[0] && a[1] != b[1]);
	digest(z, 0, a);
	digest(z, 8, b);
	ck_assert(a[0] != b[0] && a[1] != b[1]);
	/* a string is its bytes and NUL; the same bytes, the same digest */
	ub_hash_str(h3, "ab");
	ub_hash_str(h3, "c");
	ck_assert(h3[0] == h1[0] && h3[1] == h1[1]);
	uint64_t h4[2] = UB_HASH0;
	ub_hash_bytes(h4, "ab", 3);
	ub_hash_bytes(h4, "c", 2);
	ck_assert(h4[0] == h1[0] && h4[1] == h1[1]);
	char hex[33];
	ub_hash_hex(h1, hex);
	ck_assert_uint_eq(strlen(hex), 32);
	ck_assert_uint_eq(strspn(hex, "0123456789abcdef"), 32);
}
END_TEST

Suite *ub_hash_suite(void)
{
	Suite *s = suite_create("hash");
	TCase *tc = tcase_create("digest");
	tcase_add_test(tc, test_one_byte);
	tcase_add_test(tc, test_one_word);
	tcase_add_test(tc, test_fields);
	suite_add_tcase(s, tc);
	return s;
}

/* check_arena.c — the arena of a worker's buffers (arena.h): pieces
 * aligned, zeroed, apart from one another, within the room asked for. */
#include "suites.h"
#include "arena.h"

#include <stdint.h>
#include <string.h>

START_TEST(test_pieces)
{
	enum { N = 5, SZ = 256 << 10 };   /* a chunk's arrays: a power of two */
	struct ub_arena a;
	unsigned char *p[N];
	size_t cap = 0;
	for (int k = 0; k < N; k++)
		cap += ub_arena_size(k ? SZ : 100);
	ck_assert_int_eq(ub_arena_init(&a, cap), 0);
	for (int k = 0; k < N; k++) {
		size_t n = k ? SZ : 100;
		p[k] = ub_arena_get(&a, n);
		ck_assert_ptr_nonnull(p[k]);
		ck_assert_uint_eq((uintptr_t)p[k] % UB_ARENA_ALIGN, 0);
		size_t i = 0;   /* one assertion: check marks each one it passes */
		while (i < n && p[k][i] == 0)
			i++;
		ck_assert_msg(i == n, "piece %d byte %zu not zero", k, i);
		memset(p[k], 0xa0 + k, n);   /* the whole piece is usable */
	}
	for (int k = 0; k < N; k++) {   /* no piece overlaps another */
		size_t n = k ? SZ : 100;
		ck_assert(p[k][0] == 0xa0 + k && p[k][n - 1] == 0xa0 + k);
	}
	if (a.base)   /* one mapping: arrays of the same size start apart in a page */
		for (int k = 2; k < N; k++)
			ck_assert_uint_ne((uintptr_t)p[k] % 4096, (uintptr_t)p[k - 1] % 4096);
	ck_assert_ptr_null(ub_arena_get(&a, 1));   /* the room is spent */
	ub_arena_free(&a);
	ck_assert_ptr_null(a.base);
	ub_arena_free(&a);   /* again: nothing */
}
END_TEST

START_TEST(test_room)
{
	struct ub_arena a;
	ck_assert_int_eq(ub_arena_init(&a, ub_arena_size(1000)), 0);
	ck_assert_ptr_null(ub_arena_get(&a, 1100));   /* more than the room */
	ck_assert_ptr_nonnull(ub_arena_get(&a, 1000));
	ck_assert_ptr_null(ub_arena_get(&a, 1));
	ub_arena_free(&a);
	/* as many pieces as a worker of an op with every input it may have */
	enum { MANY = 300 };
	ck_assert_int_eq(ub_arena_init(&a, MANY * ub_arena_size(8)), 0);
	for (int k = 0; k < MANY; k++)
		ck_assert_msg(ub_arena_get(&a, 8) != NULL, "piece %d", k);
	ub_arena_free(&a);
}
END_TEST

Suite *ub_arena_suite(void)
{
	Suite *s = suite_create("arena");
	TCase *tc = tcase_create("pieces");
	tcase_add_test(tc, test_pieces);
	tcase_add_test(tc, test_room);
	suite_add_tcase(s, tc);
	return s;
}

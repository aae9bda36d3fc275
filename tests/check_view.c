/* check_view.c — the view's lists (src/run/view.c): offered in any order
 * and split into parts merged in any order, each list holds what a
 * brute-force reference says: all offered elements sorted by the list's
 * order (qsort here, with the comparison written from view.h's
 * definition), the first `max` kept.  And the sample positions: the
 * ranges of consecutive blocks hold every sample exactly once, each in
 * its block (i_j = floor(j n / min(n, 1500)) by the definition). */
#include "suites.h"

#include "view.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng;

static uint64_t next(void) /* xorshift64 */
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int ref_worst(const void *pa, const void *pb)
{
	const struct ub_elem *a = pa, *b = pb;
	if (a->err != b->err)
		return a->err > b->err ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

static int ref_index(const void *pa, const void *pb)
{
	const struct ub_elem *a = pa, *b = pb;
	return a->i < b->i ? -1 : a->i > b->i;
}

static void check_list(const struct ub_view *v, enum ub_view_list l,
		       struct ub_elem *all, size_t n)
{
	size_t max = ub_view_lists[l].max, want = n < max ? n : max;
	qsort(all, n, sizeof *all, ub_view_lists[l].order == UB_ORDER_WORST ?
	      ref_worst : ref_index);
	ck_assert_uint_eq(v->list[l].n, want);
	for (size_t k = 0; k < want; k++)
		ck_assert_msg(v->list[l].e[k].i == all[k].i &&
			      v->list[l].e[k].err == all[k].err,
			      "%s[%zu]: %llu, expected %llu", ub_view_lists[l].name, k,
			      (unsigned long long)v->list[l].e[k].i,
			      (unsigned long long)all[k].i);
}

/* _i: how many elements each list is offered (fewer than max, or many
 * more); errors from a few values so that ties between parts happen. */
START_TEST(test_view_merge)
{
	enum { PARTS = 7 };
	size_t n = _i ? 5000 : 60;
	struct ub_elem *all[UB_VIEW_NLISTS];
	struct ub_view part[PARTS], whole;
	struct ub_error err;
	rng = 0x5eed0b1e + (uint64_t)_i;
	memset(part, 0, sizeof part);
	for (int l = 0; l < UB_VIEW_NLISTS; l++) {
		ck_assert_ptr_nonnull(all[l] = calloc(n, sizeof *all[l]));
		for (size_t k = 0; k < n; k++) { /* distinct indices, shuffled */
			all[l][k].i = 3 * k + (uint64_t)l;
			all[l][k].err = (double)(next() % 5) * 0.25 + 0.25;
			all[l][k].y = next();
		}
		for (size_t k = n - 1; k > 0; k--) {
			size_t j = (size_t)(next() % (k + 1));
			struct ub_elem t = all[l][k];
			all[l][k] = all[l][j];
			all[l][j] = t;
		}
		for (size_t k = 0; k < n; k++)
			ub_view_offer(&part[next() % PARTS], (enum ub_view_list)l,
				      &all[l][k]);
	}
	memset(&whole, 0, sizeof whole);
	for (int p = 0; p < PARTS; p++)
		ub_view_finish(&part[p]);
	for (int p = 0; p < PARTS; p++) /* in another order than made */
		ck_assert_int_eq(ub_view_merge(&whole, &part[(3 * p + 2) % PARTS], &err), 0);
	for (int l = 0; l < UB_VIEW_NLISTS; l++)
		check_list(&whole, (enum ub_view_list)l, all[l], n);
	/* a part merged twice: its best element is in both */
	ck_assert_int_eq(ub_view_merge(&whole, &part[0], &err), UB_USAGE);
	for (int p = 0; p < PARTS; p++)
		ub_view_free(&part[p]);
	ub_view_free(&whole);
	for (int l = 0; l < UB_VIEW_NLISTS; l++)
		free(all[l]);
}
END_TEST

START_TEST(test_view_samples)
{
	static const size_t totals[] = {1, 7, 1499, 1500, 1501, 65536, 65537,
					3000000, UINT64_C(1) << 32};
	static const size_t blocks[] = {1, 1000, 65536};
	size_t total = totals[_i];
	size_t ns = ub_view_nsamples(total);
	ck_assert_uint_eq(ns, total < 1500 ? total : 1500);
	for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++) {
		size_t seen = 0;
		if (blocks[b] > 1 && total / blocks[b] > 100000)
			continue; /* too many blocks to walk quickly */
		for (size_t first = 0; first < total && (blocks[b] > 1 || first < 5000);
		     first += blocks[b]) {
			size_t len = total - first < blocks[b] ? total - first : blocks[b];
			size_t jlo, jhi;
			ub_view_sample_range(total, first, len, &jlo, &jhi);
			ck_assert_uint_eq(jlo, seen); /* no sample skipped or twice */
			for (size_t j = jlo; j < jhi; j++) {
				size_t i = ub_view_sample_index(total, j);
				ck_assert_msg(i >= first && i < first + len, "sample %zu at %zu "
					      "outside [%zu, %zu)", j, i, first, first + len);
				ck_assert_uint_eq(i, (size_t)((unsigned __int128)j * total / ns));
			}
			seen = jhi;
		}
		if (blocks[b] > 1 || total <= 5000)
			ck_assert_uint_eq(seen, ns);
	}
}
END_TEST

Suite *ub_view_suite(void)
{
	Suite *s = suite_create("view");
	TCase *tc = tcase_create("view");
	tcase_add_loop_test(tc, test_view_merge, 0, 2);
	tcase_add_loop_test(tc, test_view_samples, 0, 9);
	suite_add_tcase(s, tc);
	return s;
}

/* suites.h — every Check suite of the unit tests, declared once. */
#ifndef UB_TEST_SUITES_H
#define UB_TEST_SUITES_H

#include <check.h>

/* ck_assert_msg for an assertion made a million times: Check records the
 * place of every assertion that holds (a write to its pipe each, most of
 * the unit tests' time when made in a loop); this one records only the
 * place of one that fails. */
#define UB_ASSERT(expr, ...)                     \
	do {                                     \
		if (!(expr))                     \
			ck_abort_msg(__VA_ARGS__); \
	} while (0)

#define UB_TEST_SUITES(X) \
	X(ptx)            \
	X(reference)      \
	X(catalog)        \
	X(npy)            \
	X(metrics)        \
	X(metrics_pass)   \
	X(inputs)         \
	X(pipeline)       \
	X(trace)          \
	X(userkernel)     \
	X(fpcore)         \
	X(backend)        \
	X(capture)         \
	X(mufu)           \
	X(ref_fast)         \
	X(ew_host)        \
	X(stats)          \
	X(figures)        \
	X(ew)             \
	X(dag)            \
	X(exact)          \
	X(tmpfiles)       \
	X(arena)          \
	X(hash)           \
	X(xsum)           \
	X(torchplan)      \
	X(shaped)         \
	X(cli)            \
	X(mma)            \
	X(wide)

#define X(name) Suite *ub_##name##_suite(void);
UB_TEST_SUITES(X)
#undef X

#endif

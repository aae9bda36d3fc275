/* check_main.c — runs every unit-test suite (tests/suites.h), or all but
 * those named after -x (check_ub -x ref_fast: tests/unit.test, which
 * leaves the longest suite to tests/unit_ref_fast.test so that the two
 * run side by side under make -j).  CK_RUN_SUITE=NAME runs one suite;
 * CK_FORK=no helps debugging. */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether suite name is excluded by an -x of argv. */
static int excluded(const char *name, int argc, char **argv)
{
	for (int i = 1; i + 1 < argc; i++)
		if (!strcmp(argv[i], "-x") && !strcmp(argv[i + 1], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i += 2)
		if (strcmp(argv[i], "-x") || i + 1 == argc) {
			fprintf(stderr, "usage: %s [-x SUITE]...\n", argv[0]);
			return 2;
		}
	SRunner *sr = srunner_create(NULL);
#define X(name)                                                   \
	if (!excluded(#name, argc, argv))                         \
		srunner_add_suite(sr, ub_##name##_suite());
	UB_TEST_SUITES(X)
#undef X
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

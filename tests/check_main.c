/* check_main.c — runs every unit-test suite (tests/suites.h).
 * CK_RUN_SUITE=NAME runs one suite; CK_FORK=no helps debugging. */
#include "suites.h"

#include <stdlib.h>

int main(void)
{
	SRunner *sr = srunner_create(NULL);
#define X(name) srunner_add_suite(sr, ub_##name##_suite());
	UB_TEST_SUITES(X)
#undef X
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

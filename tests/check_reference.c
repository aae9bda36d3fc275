/* check_reference.c — unit tests of the reference module (to be written). */
#include "suites.h"

Suite *ub_reference_suite(void)
{
	Suite *s = suite_create("reference");
	return s;
}

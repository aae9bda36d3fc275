/* check_catalog.c — unit tests of the catalog module (to be written). */
#include "suites.h"

Suite *ub_catalog_suite(void)
{
	Suite *s = suite_create("catalog");
	return s;
}

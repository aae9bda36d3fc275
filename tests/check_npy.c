/* check_npy.c — unit tests of the npy module (to be written). */
#include "suites.h"

Suite *ub_npy_suite(void)
{
	Suite *s = suite_create("npy");
	return s;
}

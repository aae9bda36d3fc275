/* check_ptx.c — unit tests of the ptx module (to be written). */
#include "suites.h"

Suite *ub_ptx_suite(void)
{
	Suite *s = suite_create("ptx");
	return s;
}

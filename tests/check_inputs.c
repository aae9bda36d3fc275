/* check_inputs.c — unit tests of the inputs module (to be written). */
#include "suites.h"

Suite *ub_inputs_suite(void)
{
	Suite *s = suite_create("inputs");
	return s;
}

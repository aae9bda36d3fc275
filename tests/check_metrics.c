/* check_metrics.c — unit tests of the metrics module (to be written). */
#include "suites.h"

Suite *ub_metrics_suite(void)
{
	Suite *s = suite_create("metrics");
	return s;
}

/* ref_budget.c — the reference's time budget per element
 * (docs/reference.md): each thread's budget, in CPU seconds of that
 * thread (not wall time: a loaded machine slows an element down, it does
 * not shorten its budget), and the clock it is measured on. */
#include "ref_internal.h"

#include <time.h>

static _Thread_local double budget = UB_REF_BUDGET_DEFAULT;

void ub_ref_set_budget(double seconds)
{
	budget = seconds > 0 ? seconds : 0;
}

double ub_ref_budget(void)
{
	return budget;
}

double ub_ref_clock(void)
{
	struct timespec t;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0)
		clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

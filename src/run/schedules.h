/* schedules.h — whether a kernel's bits depend on the schedule
 * (--schedules K): the kernel runs again under K - 1 other legal
 * schedules of the simulator (the order of the blocks, of the warps of a
 * block, and of the lanes of each atomic: --atomic-order seed=S, S the
 * run's own seed, or 0, plus 1 .. K - 1), and every element is compared
 * across the K results: how many differ (any NaN equal to any NaN), and
 * the largest distance between two of them in units of the format (over
 * pairs neither of which is NaN; ub_distance). */
#ifndef UB_SCHEDULES_H
#define UB_SCHEDULES_H

#include "sim.h"

/* Schedules a kernel runs under when --schedules is not given: this many
 * for a kernel whose results may depend on it (a float atomic add ran,
 * or racecheck found a hazard), else 1. */
#define UB_SCHEDULES_DEFAULT 4

/* How many schedules: asked (--schedules K), or 0 for the default given
 * what the checks of the run's own launch saw; 1 for a kernel that was
 * not tracked (the PTX proves it has no .shared memory and no atomics:
 * every order gives its bits). */
int ub_schedules_for(int asked, const struct ub_checks *c);

/* The comparison itself: ub_sched_init with the run's own results,
 * ub_sched_fold with each other schedule's, ub_sched_end for the figures
 * (and the memory back). */
struct ub_sched {
	enum ub_dtype dt;
	size_t n;
	int64_t *lo, *hi;     /* per element: the least and greatest ordered
				 encoding of a number seen */
	unsigned char *seen;  /* 1: a number, 2: a NaN */
};
int ub_sched_init(struct ub_sched *s, const struct ub_array *out,
		  struct ub_error *err);
void ub_sched_fold(struct ub_sched *s, const struct ub_array *y);
void ub_sched_end(struct ub_sched *s, size_t *diff, uint64_t *dist);

/* The K - 1 other schedules of a launch whose results are out: run(ctx,
 * seed, y) runs it with the atomic order seed into y (out's dtype and
 * size), for seed = seed0 + 1 .. seed0 + k - 1; *diff and *dist as
 * above, over out and every y.  run's failure is returned (its message
 * in err). */
int ub_schedules_run(const struct ub_array *out, int k, uint64_t seed0,
		     int (*run)(void *ctx, uint64_t seed, struct ub_array *y,
				struct ub_error *err),
		     void *ctx, size_t *diff, uint64_t *dist, struct ub_error *err);

#endif

/* schedules.c — a kernel under several schedules (schedules.h). */
#include "schedules.h"
#include "ub_bits.h"

#include <stdlib.h>
#include <string.h>

int ub_schedules_for(int asked, const struct ub_checks *c)
{
	if (!c->tracked)
		return 1;
	if (asked > 0)
		return asked;
	return c->float_atomics || c->hazards ? UB_SCHEDULES_DEFAULT : 1;
}

int ub_sched_init(struct ub_sched *s, const struct ub_array *out,
		  struct ub_error *err)
{
	s->dt = out->dt;
	s->n = out->n;
	s->lo = malloc((s->n + 1) * sizeof *s->lo);
	s->hi = malloc((s->n + 1) * sizeof *s->hi);
	s->seen = calloc(s->n + 1, 1);
	if (!s->lo || !s->hi || !s->seen) {
		free(s->lo);
		free(s->hi);
		free(s->seen);
		memset(s, 0, sizeof *s);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	ub_sched_fold(s, out);
	return 0;
}

void ub_sched_fold(struct ub_sched *s, const struct ub_array *y)
{
	enum ub_dtype dt = s->dt;
	for (size_t i = 0; i < s->n && i < y->n; i++) {
		uint64_t b = ub_load(dt, y->data, i);
		if (ub_bits_isnan_i(dt, b)) {
			s->seen[i] |= 2;
			continue;
		}
		int64_t o = ub_bits_ordered_i(dt, b);
		if (!(s->seen[i] & 1) || o < s->lo[i])
			s->lo[i] = o;
		if (!(s->seen[i] & 1) || o > s->hi[i])
			s->hi[i] = o;
		s->seen[i] |= 1;
	}
}

void ub_sched_end(struct ub_sched *s, size_t *diff, uint64_t *dist)
{
	*diff = 0;
	*dist = 0;
	for (size_t i = 0; s->seen && i < s->n; i++) {
		/* the true difference is below 2^64: modular arithmetic is exact */
		uint64_t d = (s->seen[i] & 1) ? (uint64_t)s->hi[i] - (uint64_t)s->lo[i] : 0;
		*diff += d != 0 || s->seen[i] == 3;
		*dist = d > *dist ? d : *dist;
	}
	free(s->lo);
	free(s->hi);
	free(s->seen);
	memset(s, 0, sizeof *s);
}

int ub_schedules_run(const struct ub_array *out, int k, uint64_t seed0,
		     int (*run)(void *ctx, uint64_t seed, struct ub_array *y,
				struct ub_error *err),
		     void *ctx, size_t *diff, uint64_t *dist, struct ub_error *err)
{
	struct ub_sched sc;
	struct ub_array y = { 0 };
	int s = ub_sched_init(&sc, out, err);
	if (!s && ub_array_alloc(&y, out->dt, out->n))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	for (int i = 1; !s && i < k; i++)
		if (!(s = run(ctx, seed0 + (uint64_t)i, &y, err)))
			ub_sched_fold(&sc, &y);
	ub_sched_end(&sc, diff, dist);
	ub_array_free(&y);
	return s;
}

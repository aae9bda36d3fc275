/* inputs.h — the points an op is tested at.
 *
 * Seeded sampling that covers every binade: each input is drawn uniformly
 * over the ordered encodings between the domain's ends, so each binade
 * (and the subnormals) gets its share, not only values near 1; the special
 * values of the format (+-0, subnormal extremes, smallest/largest normal,
 * +-inf, NaN, neighbours of powers of two) come first, in every
 * combination across inputs, as far as n allows.  Sample i depends only on
 * (seed, input index, i), so any chunk can be generated alone. */
#ifndef UB_INPUTS_H
#define UB_INPUTS_H

#include "catalog.h"

/* Fills out[0..nin-1] (allocated, length n each) for dtype dt. */
int ub_inputs_generate(enum ub_dtype dt, int nin,
		       const struct ub_domain *dom, size_t n, uint64_t seed,
		       struct ub_array *out, struct ub_error *err);

/* The special values of dt inside dom (+-inf and NaN always), in a fixed
 * order; returns how many were written (at most max). */
size_t ub_special_values(enum ub_dtype dt, const struct ub_domain *dom,
			 uint64_t *out, size_t max);

#endif

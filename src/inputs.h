/* inputs.h — the points an op is tested at.
 *
 * Seeded sampling that covers every binade: each input is drawn uniformly
 * over the ordered encodings between the domain's ends, so each binade
 * (and the subnormals) gets its share, not only values near 1; the special
 * values of the format (+-0, subnormal extremes, smallest/largest normal,
 * +-inf, NaN, neighbours of powers of two) come first, in every
 * combination across inputs, as far as n allows (one input: its specials;
 * two: the full cross product, input 0 slowest; three or more: each input
 * in turn walks its specials while the others take their random samples).
 * Sample i depends only on (seed, input index, i), so any chunk can be
 * generated alone and a larger n only appends.
 *
 * A domain is a closed set of values: its ends round inward to the dtype,
 * a zero end includes both zeros ([0, inf] holds -0), infinite ends are
 * possible samples; NaN comes only from the specials.  dom NULL means
 * -inf..inf for every input.  A domain holding no value of dt (or a NaN
 * end) is a UB_USAGE error. */
#ifndef UB_INPUTS_H
#define UB_INPUTS_H

#include "catalog.h"

/* Fills out[0..nin-1] (allocated, length n each) for dtype dt; dom is
 * NULL or nin domains. */
int ub_inputs_generate(enum ub_dtype dt, int nin,
		       const struct ub_domain *dom, size_t n, uint64_t seed,
		       struct ub_array *out, struct ub_error *err);

/* The special values of dt inside dom (+-inf and NaN always), in a fixed
 * order (listed in inputs.c), no duplicates; returns how many were written
 * (at most max; 64 always suffices). */
size_t ub_special_values(enum ub_dtype dt, const struct ub_domain *dom,
			 uint64_t *out, size_t max);

/* --exhaustive: out (allocated) holds every encoding of the 16-bit dtype
 * dt in order, 65,536 elements.  ub_exhaustive_check refuses (UB_USAGE,
 * one line) an op of more than one input or a dtype that is not 16-bit. */
int ub_inputs_exhaustive(enum ub_dtype dt, struct ub_array *out,
			 struct ub_error *err);
int ub_exhaustive_check(const struct ub_op *op, const enum ub_dtype *dts,
			int ndtypes, struct ub_error *err);

#endif

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
 * possible samples; nothing outside it is ever fed, special values
 * included: +-inf only where that end is infinite, NaN (the default quiet
 * NaN, from the specials only) only for the whole line -inf..inf.  dom
 * NULL means -inf..inf for every input.  A domain holding no value of dt (or a NaN
 * end) is a UB_USAGE error.
 *
 * Conditions (the part of an op's :pre that its domains do not say,
 * catalog.h): each element's candidate inputs are tested, and one that
 * fails (or that the reference cannot decide) is replaced by a fresh draw,
 * attempt a of element i depending on (seed, input, i, a) only, so that
 * chunks and threads do not change what is drawn; a rejected combination
 * of special values gives way to random draws.  The number of rejected
 * candidates is counted; an element still rejected after
 * UB_SAMPLE_MAX_TRIES draws stops the run (UB_USAGE): the condition holds
 * almost nowhere in the domains.
 *
 * Two ways to draw in a domain: uniform over its encodings (the default,
 * as above, as Herbie samples) or uniform in value between its ends
 * (infinite ends replaced by the largest finite values), then rounded to
 * the nearest encoding.  An input may be drawn in a narrower format than
 * dt (an FPCore argument annotated with its own precision): its values
 * are that format's, held exactly in dt. */
#ifndef UB_INPUTS_H
#define UB_INPUTS_H

#include "catalog.h"

/* Fills out[0..nin-1] (allocated, length n each) for dtype dt; dom is
 * NULL or nin domains. */
int ub_inputs_generate(enum ub_dtype dt, int nin,
		       const struct ub_domain *dom, size_t n, uint64_t seed,
		       struct ub_array *out, struct ub_error *err);

/* The same for elements first..first+n-1 only, into out[k][0..n-1]
 * (allocated by the caller, at least n elements each): what
 * ub_inputs_generate puts at those indices. */
int ub_inputs_generate_at(enum ub_dtype dt, int nin,
			  const struct ub_domain *dom, uint64_t seed,
			  size_t first, size_t n, struct ub_array *out,
			  struct ub_error *err);

#define UB_SAMPLE_MAX_TRIES 10000

enum ub_sample { UB_SAMPLE_ENCODING, UB_SAMPLE_VALUE };

/* What :pre says of an input beyond its domain (inputs_pre.c): a choice
 * of points (encodings in the input's format), or a hole (-hole, hole)
 * its magnitude bound from below leaves out. */
#define UB_PRE_POINTS 16
struct ub_pre_shape {
	int npts;
	uint64_t pts[UB_PRE_POINTS];
	double hole;
};

struct ub_sampling {
	const struct ub_domain *dom;  /* nin domains, or NULL: the whole line */
	enum ub_sample mode;
	int sdt[UB_MAX_INPUTS];       /* the format input k is drawn in (dt
				         or narrower: see ub_sampling_init) */
	int npred;
	const struct ub_expr **pred;  /* conditions over the inputs */
	struct ub_pre_shape *shape;   /* per input, or NULL: none */
};

/* s->shape from op's :pre (after s->sdt is set): 0 or UB_RUNTIME. */
int ub_pre_shapes(const struct ub_op *op, struct ub_sampling *s,
		  struct ub_error *err);
/* A draw of an input of shape sh in format sdt, its domain's ordered ends
 * lo..hi, from the random word r: 1 with *b, or 0 (the plain draw).
 * by_value: uniform in value rather than over the encodings. */
int ub_pre_draw(const struct ub_pre_shape *sh, enum ub_dtype sdt, int64_t lo,
		int64_t hi, int by_value, uint64_t r, uint64_t *b);

/* An element whose first UB_SAMPLE_VALUE_FROM candidates (drawn over the
 * encodings) all fail :pre draws every other candidate after them in
 * value: a thin region that the encodings almost never hit is found
 * without --sample value (docs/fpcore.md). */
#define UB_SAMPLE_VALUE_FROM 100

/* The sampling of op's inputs in dtype dt: its domains, the conditions of
 * its :pre that they do not say (a bound of an input whose domain --domain
 * replaced is not tested either), each argument's format.  UB_USAGE when
 * an argument's precision is one that dt cannot hold. */
int ub_sampling_init(const struct ub_op *op, enum ub_dtype dt,
		     enum ub_sample mode, struct ub_sampling *s,
		     struct ub_error *err);
void ub_sampling_free(struct ub_sampling *s);

/* Elements first..first+n-1 drawn as s says into out[k][0..n-1]
 * (allocated by the caller); *rejected (not NULL) gets the number of
 * candidates the conditions rejected for them added. */
int ub_inputs_sample_at(enum ub_dtype dt, int nin, const struct ub_sampling *s,
			uint64_t seed, size_t first, size_t n,
			struct ub_array *out, uint64_t *rejected,
			struct ub_error *err);

/* The special values of dt inside dom (NaN only when dom is NULL or
 * -inf..inf), in a fixed order (listed in inputs.c), no duplicates; returns how many were written
 * (at most max; 64 always suffices). */
size_t ub_special_values(enum ub_dtype dt, const struct ub_domain *dom,
			 uint64_t *out, size_t max);

/* --exhaustive [--range LO:HI] (inputs_exhaustive.c): which encodings. */
struct ub_range {
	int given;           /* 0: every encoding of the dtype */
	int is_bits;         /* LO:HI are encodings (else values) */
	uint64_t blo, bhi;
	double vlo, vhi;
	const char *spec;    /* as given */
};
int ub_range_parse(const char *spec, struct ub_range *r, struct ub_error *err);

/* The sweep of one dtype: for one input, element i is encoding first + i
 * (unsigned order) or, for a range of values, ub_from_ordered(first + i);
 * for two inputs of a 16-bit dtype (pairs), element i is the pair of pair
 * index p = first + i: input 0 = p >> 16, input 1 = p & 0xffff (p = a
 * 65536 + b, all 2^32 pairs in that order). */
struct ub_sweep {
	enum ub_dtype dt;
	int ordered, pairs;
	uint64_t first, count;
};
#define UB_EXHAUSTIVE_MAX (UINT64_C(1) << 32)
#define UB_EXHAUSTIVE_KEEP_MAX (UINT64_C(1) << 26)
/* The sweep of nin inputs (1, or 2 for f16/bf16 pairs); r NULL or not
 * given: every encoding (every pair).  For pairs, --range LO:HI gives
 * pair indices (0x0:0xffffff, or decimal integers).  UB_USAGE when r holds
 * no value of dt, more than UB_EXHAUSTIVE_MAX elements, or the op's inputs
 * cannot be swept. */
int ub_sweep_make(enum ub_dtype dt, int nin, const struct ub_range *r,
		  struct ub_sweep *sw, struct ub_error *err);
/* Input k of element i. */
uint64_t ub_sweep_at(const struct ub_sweep *sw, int k, uint64_t i);
/* Elements first .. first + out[0].n - 1 of the sweep into out[0] (and
 * out[1] for pairs; of the sweep's dtype, each at least out[0].n long). */
void ub_sweep_fill(const struct ub_sweep *sw, uint64_t first,
		   struct ub_array *out);

/* The whole sweep in nin arrays (allocated; at most UB_EXHAUSTIVE_KEEP_MAX
 * elements, else UB_USAGE).  ub_exhaustive_check refuses (UB_USAGE, one
 * line) an op that cannot be swept (more than two inputs, or two of
 * f32/f64) or a sweep ub_sweep_make refuses. */
int ub_inputs_exhaustive(enum ub_dtype dt, int nin, const struct ub_range *r,
			 struct ub_array *out, struct ub_error *err);
int ub_exhaustive_check(const struct ub_op *op, const enum ub_dtype *dts,
			int ndtypes, const struct ub_range *r,
			struct ub_error *err);

#endif

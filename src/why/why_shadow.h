/* why_shadow.h — each instruction of a traced run carried along with the
 * exact value of the subexpression it computes (a "shadow", in MPFR at
 * 256 bits), and its local error as Herbie's localization defines it: the
 * instruction applied in its own format to the correctly rounded exact
 * values of its operands, against the exact value of its result, in ulps
 * of that exact value.  An instruction that loses accuracy by itself
 * (a rounding, an approximation) or that amplifies its operands' own
 * rounding (cancellation: 1 + x*(1 - s) near 0) has a large local error;
 * one that only passes on earlier errors has a small one.
 *
 * Values are followed register by register (the trace says which; a
 * register whose bits changed since, by an instruction that is not traced,
 * and a value that arrives through memory, are looked up by their bits
 * among the results computed so far, else taken as exact: an input or a
 * constant).  Instructions that round on purpose (rz, rm, rp, the integer
 * roundings of cvt, .sat) are exact by definition: their result is the
 * value the program means, as in libdevice's range reductions. */
#ifndef UB_WHY_SHADOW_H
#define UB_WHY_SHADOW_H

#include "ptx.h"

struct ub_shadow;

/* The instruction of one element that loses the most. */
struct ub_shadow_worst {
	int found;
	uint32_t line;         /* its PTX line */
	char mn[64];
	double local;          /* ulps (inf: its result overflows to inf or
				  becomes NaN where the exact value is finite) */
	double result_err;     /* its result against the exact value of its
				  subexpression, ulps */
	char note[96];
};

/* A new analysis (NULL when out of memory); feed it a traced run's
 * events in order (as a ptx_trace callback, thread 0 only), then read the
 * instruction of largest local error. */
struct ub_shadow *ub_shadow_new(void);
void ub_shadow_event(void *self, const struct ptx_trace_event *ev);
void ub_shadow_worst(const struct ub_shadow *s, struct ub_shadow_worst *w);
void ub_shadow_free(struct ub_shadow *s);

#endif

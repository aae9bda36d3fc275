/* applicable.h — what a run may ask of an op before any work: mode
 * native16 needs a 16-bit dtype, --exhaustive a one-input op and 16-bit
 * dtypes (and no --input files); and the exhaustive inputs themselves. */
#ifndef UB_APPLICABLE_H
#define UB_APPLICABLE_H

#include "run.h"

/* modes_given: --mode was on the command line (an explicit native16 with
 * only f32/f64 dtypes is an error; from the default list it is skipped).
 * Errors: UB_USAGE, one line. */
int ub_check_applicable(const struct ub_config *cfg, int modes_given,
			struct ub_error *err);

/* Every encoding of the 16-bit dtype dt, in order 0x0000..0xffff, into
 * out (allocated). */
int ub_exhaustive_inputs(enum ub_dtype dt, struct ub_array *out,
			 struct ub_error *err);

#endif

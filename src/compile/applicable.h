/* applicable.h — what a run may ask before any work: mode native16 needs
 * a 16-bit dtype.  (--exhaustive is checked by ub_exhaustive_check.) */
#ifndef UB_APPLICABLE_H
#define UB_APPLICABLE_H

#include "result.h"

/* modes_given: --mode was on the command line (an explicit native16 with
 * only f32/f64 dtypes is an error; from the default list it is skipped).
 * Errors: UB_USAGE, one line. */
int ub_check_applicable(const struct ub_config *cfg, int modes_given,
			struct ub_error *err);

#endif

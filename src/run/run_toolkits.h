/* run_toolkits.h — one run under several CUDA toolkits (--toolkit LIST):
 * each mode's row under each toolkit, compared element by element with
 * the same mode's row under the first (result.h: has_tkdiff). */
#ifndef UB_RUN_TOOLKITS_H
#define UB_RUN_TOOLKITS_H

#include "result.h"

/* Elements a dtype may have in a run of several toolkits, which keeps
 * every element of every row. */
#define UB_TK_MAX_ELEMS (UINT64_C(1) << 26)

/* ub_run (run.h) for cfg->ntoolkits < 2; else the first toolkit's run,
 * its elements kept (cfg->stream is cleared, cfg->toolkit set to the
 * first), then each further toolkit's rows; row labels MODE@NAME. */
int ub_run_toolkits(struct ub_config *cfg, struct ub_result *res,
		    struct ub_error *err);

/* What a run of several toolkits refuses, before anything runs: a
 * --triton kernel, a sharded run (partial set), a dtype of more than
 * UB_TK_MAX_ELEMS elements.  UB_USAGE, one line. */
int ub_toolkits_check(const struct ub_config *cfg, int partial,
		      struct ub_error *err);

/* The PTX of cfg's kernel under test in mode cfg->modes[m] and dtype dt,
 * compiled by cfg->toolkit for the virtual architecture of the run's
 * (malloc'd; NULL when it cannot be had, e.g. a --triton kernel). */
char *ub_mode_ptx(const struct ub_config *cfg, enum ub_dtype dt, int m);

#endif

/* setup.h — what every command does before it runs an op: load the
 * catalog, find the op, check the dtypes against its kernel. */
#ifndef UB_SETUP_H
#define UB_SETUP_H

#include "run.h"

/* Loads path, or the shipped suites/ops.fpcore when path is NULL. */
int ub_load_catalog(const char *path, struct ub_catalog *cat,
		    struct ub_error *err);
/* UB_USAGE "unknown op 'x' (valid: ...)" when cat has no op name. */
int ub_find_op(const struct ub_catalog *cat, const char *name,
	       const struct ub_op **op, struct ub_error *err);
/* Every dtype of cfg must be one op's kernel is written for (:dtypes). */
int ub_check_dtypes(const struct ub_config *cfg, const struct ub_op *op,
		    struct ub_error *err);

#endif

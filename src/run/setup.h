/* setup.h — what every command does before it runs an op: load the
 * catalog, find the op, check the dtypes against its kernel, apply the
 * command line's --domain and --input. */
#ifndef UB_SETUP_H
#define UB_SETUP_H

#include "cli.h"
#include "user_kernel.h"

/* Loads path, or the shipped suites/ops.fpcore when path is NULL. */
int ub_load_catalog(const char *path, struct ub_catalog *cat,
		    struct ub_error *err);
/* UB_USAGE "unknown op 'x' (valid: ...)" when cat has no op name. */
int ub_find_op(const struct ub_catalog *cat, const char *name,
	       const struct ub_op **op, struct ub_error *err);
/* Every dtype of cfg must be one op's kernel is written for (:dtypes):
 * a --kernel file's (cfg->kernel_src set); a catalog op's kernel file is
 * replaced by the generated kernel in the others (prepare.h). */
int ub_check_dtypes(const struct ub_config *cfg, const struct ub_op *op,
		    struct ub_error *err);

/* --catalog (or the shipped catalog), then every --fpcore file's ops
 * beside them. */
int ub_load_catalogs(const struct ub_cli *cli, struct ub_catalog *cat,
		     struct ub_error *err);

/* The op of a run as cli asks for it: found in cat, --kernel bound (uk
 * holds it; NULL refuses --kernel), its kernel written for the dtypes,
 * --domain and --input applied to *op, a copy of the catalog's; *cfg is
 * cli->cfg bound to it. */
int ub_setup_op(struct ub_cli *cli, const struct ub_catalog *cat,
		struct ub_op *op, struct ub_config *cfg,
		struct ub_user_kernel *uk, struct ub_error *err);

/* What identifies the run of cfg (made from cli): partial.h's UB_RUN_ID,
 * made as partial_id.c says. */
struct ub_run_id;
int ub_run_id_make(const struct ub_cli *cli, const struct ub_config *cfg,
		   struct ub_run_id *id, struct ub_error *err);
/* The options of cli that `ulpbench explain` needs to trace the same
 * kernels (--catalog, --fpcore, --kernel, --entry, --args), each with its
 * value shell-quoted, into buf ("" when none); the HTML page prints them
 * in its explain commands.  -1 when they do not fit in len. */
int ub_explain_opts(const struct ub_cli *cli, char *buf, size_t len);

#endif

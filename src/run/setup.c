/* setup.c — catalog, op and dtype checks shared by the commands (setup.h). */
#include "setup.h"
#include "shaped.h"
#include "applicable.h"
#include "paths.h"
#include "rowop.h"
#include "triton.h"

#include <stdio.h>
#include <string.h>

int ub_load_catalog(const char *path, struct ub_catalog *cat,
		    struct ub_error *err)
{
	char buf[4096];
	struct ub_catalog rows;
	if (path)
		return ub_catalog_load(path, cat, err);
	int s = ub_data_path("suites/ops.fpcore", buf, sizeof buf, err);
	if (!s)
		s = ub_catalog_load(buf, cat, err);
	/* the shipped ops over rows and of several outputs (docs/rowops.md) */
	if (!s && !(s = ub_data_path("suites/rowops.fpcore", buf, sizeof buf, err)) &&
	    !(s = ub_catalog_load(buf, &rows, err))) {
		s = ub_catalog_merge(cat, &rows, err);
		ub_catalog_free(&rows);
	}
	return s;
}

int ub_find_op(const struct ub_catalog *cat, const char *name,
	       const struct ub_op **op, struct ub_error *err)
{
	char valid[1024] = "";
	*op = ub_catalog_find(cat, name);
	if (*op)
		return 0;
	const struct ub_broken *b = ub_catalog_find_broken(cat, name);
	if (b) /* the core is there but did not read: why */
		return ub_fail(err, UB_USAGE, "op '%s' did not load: %s", name, b->msg);
	if (ub_catalog_find_rowop(cat, name))
		return ub_fail(err, UB_USAGE, "op '%s' is an op over rows (docs/rowops.md): "
			       "`ulpbench --op %s --shape R,C` runs it; this takes an elementwise "
			       "op", name, name);
	for (int i = 0; i < cat->nops; i++)
		snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
			 i ? ", " : "", cat->ops[i].name);
	for (int i = 0; i < ub_nshaped_ops; i++) /* those the catalog leaves */
		if (!ub_catalog_find(cat, ub_shaped_ops[i].name) &&
		    !ub_catalog_find_rowop(cat, ub_shaped_ops[i].name))
			snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
				 valid[0] ? ", " : "", ub_shaped_ops[i].name);
	for (int i = 0; i < cat->nrowops; i++)
		snprintf(valid + strlen(valid), sizeof valid - strlen(valid), "%s%s",
			 valid[0] ? ", " : "", cat->rowops[i].name);
	return ub_fail(err, UB_USAGE, "unknown op '%s' (valid: %s)", name, valid);
}

int ub_check_dtypes(const struct ub_config *cfg, const struct ub_op *op,
		    struct ub_error *err)
{
	char valid[64] = "";
	for (int t = 0; t < UB_NDTYPES; t++)
		if (op->kernel_dtypes >> t & 1)
			snprintf(valid + strlen(valid), sizeof valid - strlen(valid),
				 "%s%s", valid[0] ? ", " : "", ub_dtypes[t].name);
	for (int t = 0; cfg->kernel_src && t < cfg->ndtypes; t++)
		if (!(op->kernel_dtypes >> cfg->dtypes[t] & 1))
			return ub_fail(err, UB_USAGE, "%s: kernel %s is written for %s "
				       "only (its :dtypes in the catalog), not %s",
				       op->name, op->kernel ? op->kernel : "(generated)", valid,
				       ub_dtypes[cfg->dtypes[t]].name);
	return 0;
}

int ub_load_catalogs(const struct ub_cli *cli, struct ub_catalog *cat,
		     struct ub_error *err)
{
	int s = ub_load_catalog(cli->catalog, cat, err);
	for (int i = 0; !s && i < cli->nfpcore; i++) { /* user ops beside them */
		struct ub_catalog more;
		s = ub_catalog_load(cli->fpcore[i], &more, err);
		if (!s)
			s = ub_catalog_merge(cat, &more, err);
		ub_catalog_free(&more);
	}
	return s;
}

/* Appends text to buf, as much as fits. */
static void append(char *buf, size_t len, const char *text)
{
	size_t l = strlen(buf);
	if (l + 1 < len)
		snprintf(buf + l, len - l, "%s", text);
}

/* Appends " OPT VALUE", the value quoted for a POSIX shell ('...', a '
 * as '\'') when it holds anything but letters, digits and _./=,:+-@%. */
static void add_opt(char *buf, size_t len, const char *opt, const char *v)
{
	int plain = *v != 0;
	for (const char *p = v; *p; p++)
		if (!strchr("_./=,:+-@%", *p) && !(*p >= 'a' && *p <= 'z') &&
		    !(*p >= 'A' && *p <= 'Z') && !(*p >= '0' && *p <= '9'))
			plain = 0;
	append(buf, len, buf[0] ? " " : "");
	append(buf, len, opt);
	append(buf, len, plain ? " " : " '");
	for (const char *p = v; *p; p++) {
		char c[2] = { *p, 0 };
		append(buf, len, *p == '\'' ? "'\\''" : c);
	}
	if (!plain)
		append(buf, len, "'");
}

int ub_explain_opts(const struct ub_cli *cli, char *buf, size_t len)
{
	if (!len)
		return -1;
	buf[0] = 0;
	if (cli->catalog)
		add_opt(buf, len, "--catalog", cli->catalog);
	for (int i = 0; i < cli->nfpcore; i++)
		add_opt(buf, len, "--fpcore", cli->fpcore[i]);
	if (cli->kernel)
		add_opt(buf, len, "--kernel", cli->kernel);
	if (cli->entry)
		add_opt(buf, len, "--entry", cli->entry);
	if (cli->args)
		add_opt(buf, len, "--args", cli->args);
	return strlen(buf) + 1 < len ? 0 : -1; /* else it may be cut short */
}

/* --toolkit LIST and --torch-toolkit NAME into cfg (toolkit.h): the
 * kernel under test with the first, the torch plan with NAME or that
 * first; rows are named by release, so two toolkits of one release (two
 * directories) cannot run together. */
static int setup_toolkits(const struct ub_cli *cli, struct ub_config *cfg,
			  struct ub_error *err)
{
	char buf[1024];
	int s = 0;
	cfg->ntoolkits = 0;
	snprintf(buf, sizeof buf, "%s", cli->toolkit ? cli->toolkit : "");
	for (char *save, *t = strtok_r(buf, ",", &save); !s && t;
	     t = strtok_r(NULL, ",", &save)) {
		const struct ub_toolkit *tk;
		if (cfg->ntoolkits == UB_MAX_TOOLKITS)
			return ub_fail(err, UB_USAGE, "--toolkit: at most %d toolkits",
				       UB_MAX_TOOLKITS);
		if ((s = ub_toolkit_resolve(t, &tk, err)) != 0)
			return ub_prefix(err, s, "--toolkit: ");
		for (int i = 0; i < cfg->ntoolkits; i++)
			if (!strcmp(cfg->toolkits[i]->name, tk->name))
				return ub_fail(err, UB_USAGE, "--toolkit: %s and %s are both "
					       "release %s (rows are named by release: give "
					       "one)", cfg->toolkits[i]->dir, tk->dir, tk->name);
		cfg->toolkits[cfg->ntoolkits++] = tk;
	}
	if (cli->toolkit && !cfg->ntoolkits)
		return ub_fail(err, UB_USAGE, "--toolkit: empty list (see ulpbench toolkits)");
	cfg->toolkit = cfg->ntoolkits ? cfg->toolkits[0] : NULL;
	cfg->torch_toolkit = cfg->toolkit;
	if (cli->torch_toolkit && (s = ub_toolkit_resolve(cli->torch_toolkit,
							  &cfg->torch_toolkit, err)) != 0)
		return ub_prefix(err, s, "--torch-toolkit: ");
	return 0;
}

int ub_setup_op(struct ub_cli *cli, const struct ub_catalog *cat,
		struct ub_op *op, struct ub_config *cfg,
		struct ub_user_kernel *uk, struct ub_error *err)
{
	const struct ub_op *found;
	int s = ub_find_op(cat, cli->op, &found, err);
	if (!s)
		s = setup_toolkits(cli, &cli->cfg, err);
	if (s)
		return s;
	*op = *found; /* a copy: --domain and --kernel change it for this run */
	if (op->noargs && (cli->cfg.exhaustive || cli->ninputs))
		return ub_fail(err, UB_USAGE, "%s: a core without arguments is one "
			       "element: %s does not apply", op->name,
			       cli->cfg.exhaustive ? "--exhaustive" : "--input");
	if (op->noargs)
		cli->cfg.n = 1;   /* its one value (docs/fpcore.md) */
	if (!cli->dtypes_given && op->precision >= 0) { /* :precision: the default */
		cli->cfg.ndtypes = 1;
		cli->cfg.dtypes[0] = (enum ub_dtype)op->precision;
	}
	if (cli->kernel && !uk)
		return ub_fail(err, UB_USAGE, "--kernel is not supported here");
	if (cli->triton && !uk)
		return ub_fail(err, UB_USAGE, "--triton is not supported here");
	s = ub_cli_apply_params(cli, op, err);   /* before a kernel takes them */
	if (s)
		return s;
	int launch = cli->cfg.geom.block || cli->cfg.geom.per_block || cli->cfg.geom.grid;
	if (cli->triton && launch)
		return ub_fail(err, UB_USAGE, "--launch is for --kernel files: a "
			       "--triton kernel is launched as Triton does (--grid, "
			       "--num-warps)");
	if (cli->triton) {
		struct ub_triton_req req = { cli->triton, cli->args, cli->constexprs,
					     cli->grid, cli->python, cli->num_warps, 0,
					     cli->num_stages };
		s = ub_user_kernel_triton(&req, op, &cli->cfg, uk, err);
	} else if (cli->kernel) {
		struct ub_kernel_req req = { cli->kernel, cli->entry, cli->args,
					     cli->launcher, cli->nflags, {0}, cli->python };
		static char flags[UB_NVCC_MAX_FLAGS][4100];  /* copied by the bind */
		for (int i = 0; i < cli->nflags; i++) {
			snprintf(flags[i], sizeof flags[i], "-%c%s", cli->flag_kind[i],
				 cli->flag_arg[i]);
			req.flags[i] = flags[i];
		}
		s = ub_user_kernel_bind(&req, op, &cli->cfg, uk, err);
	}
	if (!s && launch && !op->kernel)
		s = ub_fail(err, UB_USAGE, "--launch: %s's kernel is generated from its "
			    "math, one thread per element: --launch is for kernel "
			    "files (--kernel FILE.cu)", op->name);
	/* the op's own kernel file launched as its :launch says (checked
	 * when the catalog was read), unless --launch says otherwise; a
	 * --kernel or --triton file is not the one it describes */
	if (!s && !launch && op->launch && op->kernel && !cli->kernel && !cli->triton &&
	    (s = ub_geom_parse(":launch", op->launch, &cli->cfg.geom, err)) != 0)
		s = ub_prefix(err, s, "%s:%d: %s: ", op->file, op->line, op->name);
	if (!s)
		s = ub_check_dtypes(&cli->cfg, op, err);
	if (!s)
		s = ub_cli_apply_domains(cli, op, err);
	if (!s)
		s = ub_cli_bind_inputs(cli, op, err);
	*cfg = cli->cfg; /* with the inputs bound */
	cfg->op = op;
	if (!s)
		s = ub_check_applicable(cfg, cli->modes_given, err);
	return s;
}

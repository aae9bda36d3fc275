/* partial_id.c — what identifies a run (UB_RUN_ID, partial.h): the texts
 * two parts must share to be parts of one run.
 *
 *   ulpbench_version, toolkit  the program and the NVRTC that compiled
 *                              the kernels (what the reports print)
 *   op, catalog                the op and the file it was defined in
 *   catalog_hash               ub_hash64 of the --catalog (or shipped)
 *                              file and each --fpcore file, in order:
 *                              the math, domains and torch plans
 *   kernel, kernel_hash        the kernel file (or "generated"), its
 *                              entry and parameter binding, and ub_hash64
 *                              of the source compiled for each dtype
 *   dtypes, modes, n, seed, inputs, domain, reference, backend, arch
 *                              what was asked: the inputs as the reports
 *                              describe them (exhaustive and its range;
 *                              --sample value marked),
 *                              each input's sampling domain (%a, exact)
 *   shards                     N of --shard K/N (1 without)
 * Nothing here grows with the run: the files are read once. */
#include "config.h"

#include "backend.h"
#include "nvrtc.h"
#include "partial.h"
#include "paths.h"
#include "setup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ub_run_id_names[UB_NID] = {
#define X(name) #name,
	UB_RUN_ID(X)
#undef X
};

static int hash_file(const char *path, uint64_t *h, struct ub_error *err)
{
	char *text = NULL;
	int s = ub_read_file(path, &text, err);
	if (!s)
		*h = ub_hash64(ub_hash64(*h, text, strlen(text)), "", 1);
	free(text);
	return s;
}

static int catalog_hash(const struct ub_cli *cli, char *out, size_t len,
			struct ub_error *err)
{
	char shipped[4096];
	const char *cat = cli->catalog;
	uint64_t h = UB_HASH64_INIT;
	int s = cat ? 0 : ub_data_path("suites/ops.fpcore", shipped, sizeof shipped, err);
	if (!s)
		s = hash_file(cat ? cat : shipped, &h, err);
	for (int i = 0; !s && i < cli->nfpcore; i++)
		s = hash_file(cli->fpcore[i], &h, err);
	snprintf(out, len, "%016llx", (unsigned long long)h);
	return s;
}

static int kernel_hash(const struct ub_config *cfg, char *out, size_t len,
		       struct ub_error *err)
{
	uint64_t h = UB_HASH64_INIT;
	int s = 0;
	for (int t = 0; !s && t < cfg->ndtypes; t++) {
		char *src = NULL;
		const char *dt = ub_dtypes[cfg->dtypes[t]].name;
		s = ub_kernel_source(cfg, cfg->dtypes[t], &src, err);
		if (!s)
			h = ub_hash64(ub_hash64(ub_hash64(h, dt, strlen(dt) + 1), src,
						strlen(src)), "", 1);
		free(src);
	}
	snprintf(out, len, "%016llx", (unsigned long long)h);
	return s;
}

/* "NAME,NAME" of n names from a table by index */
static void names(char *out, size_t len, int n, const int *ids,
		  const char *(*name)(int))
{
	size_t used = 0;
	out[0] = '\0';
	for (int i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", i ? "," : "",
					 name(ids[i]));
}

static const char *dtype_name(int i) { return ub_dtypes[i].name; }
static const char *mode_name(int i) { return ub_modes[i].name; }

static void kernel_text(const struct ub_op *op, char *out, size_t len)
{
	size_t used = (size_t)snprintf(out, len, "%s", op->kernel ? op->kernel : "generated");
	if (op->kernel && used < len)
		used += (size_t)snprintf(out + used, len - used, " entry=%s args=",
					 op->entry ? op->entry : "");
	for (int a = 0; op->kernel && a < op->nargs && used < len; a++)
		used += (size_t)snprintf(out + used, len - used, "%s%s", a ? "," : "",
					 op->args[a]);
}

int ub_run_id_make(const struct ub_cli *cli, const struct ub_config *cfg,
		   struct ub_run_id *id, struct ub_error *err)
{
	const struct ub_op *op = cfg->op;
	const struct ub_backend *be = ub_config_backend(cfg);
	int ids[UB_NMODES + UB_NDTYPES];
	char (*v)[sizeof id->v[0]] = id->v;
	memset(id, 0, sizeof *id);
	snprintf(v[UB_ID_ulpbench_version], sizeof v[0], "%s", PACKAGE_VERSION);
	snprintf(v[UB_ID_toolkit], sizeof v[0], "nvrtc %s", ub_nvrtc_version());
	snprintf(v[UB_ID_op], sizeof v[0], "%s", op->name);
	snprintf(v[UB_ID_catalog], sizeof v[0], "%s", op->file ? op->file : "");
	kernel_text(op, v[UB_ID_kernel], sizeof v[0]);
	for (int t = 0; t < cfg->ndtypes; t++)
		ids[t] = cfg->dtypes[t];
	names(v[UB_ID_dtypes], sizeof v[0], cfg->ndtypes, ids, dtype_name);
	for (int m = 0; m < cfg->nmodes; m++)
		ids[m] = cfg->modes[m];
	names(v[UB_ID_modes], sizeof v[0], cfg->nmodes, ids, mode_name);
	snprintf(v[UB_ID_n], sizeof v[0], "%zu", cfg->n);
	snprintf(v[UB_ID_seed], sizeof v[0], "%llu", (unsigned long long)cfg->seed);
	ub_describe_inputs(cfg, v[UB_ID_inputs], sizeof v[0]);
	if (cfg->sample == UB_SAMPLE_VALUE && !cfg->nfiles && !cfg->exhaustive)
		snprintf(v[UB_ID_inputs] + strlen(v[UB_ID_inputs]),
			 sizeof v[0] - strlen(v[UB_ID_inputs]), " (--sample value)");
	size_t used = 0;
	for (int k = 0; k < op->ninputs && used < sizeof v[0]; k++)
		used += (size_t)snprintf(v[UB_ID_domain] + used, sizeof v[0] - used,
					 "%s%s=%a:%a", k ? ";" : "", op->inputs[k],
					 op->dom[k].lo, op->dom[k].hi);
	snprintf(v[UB_ID_reference], sizeof v[0], "%s", cfg->ref_mpfr ? "mpfr" : "fast");
	snprintf(v[UB_ID_backend], sizeof v[0], "%s", be->name);
	snprintf(v[UB_ID_arch], sizeof v[0], "%s", be->arch(cfg->arch, cfg->arch_set));
	snprintf(v[UB_ID_shards], sizeof v[0], "%zu", cfg->nshards > 1 ? cfg->nshards : 1);
	int s = catalog_hash(cli, v[UB_ID_catalog_hash], sizeof v[0], err);
	return s ? s : kernel_hash(cfg, v[UB_ID_kernel_hash], sizeof v[0], err);
}

int ub_run_id_diff(const struct ub_run_id *a, const struct ub_run_id *b)
{
	for (int f = 0; f < UB_NID; f++)
		if (strcmp(a->v[f], b->v[f]))
			return f;
	return -1;
}

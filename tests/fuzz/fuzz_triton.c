/* fuzz_triton.c — what the Triton front end reads back from its helper
 * (src/compile/triton.c, triton_bind.c): the input is, in parts ended by
 * a line "@@", the describe answer (the kernel's parameters, Triton's
 * version), the compile answer (its "meta" line and the PTX), and the
 * --args, --constexpr and --grid of the command line.  The parameters are
 * bound to the shipped atan_bwd as a run binds them, the compile request
 * made for every mode and dtype, the answer read and its PTX parsed.
 * Invariants (abort): a bound kernel has every value parameter bound and
 * a grid or a block of elements; a request that fits is one line of
 * JSON text; an answer that reads has PTX. */
#include "fuzz.h"
#include "catalog.h"
#include "ptx.h"
#include "paths.h"
#include "triton.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DESC, ENTRY, ARGS, CONSTEXPR, GRID, NPARTS };

static struct ub_catalog cat;
static const struct ub_op *atan_bwd;

/* text cut in place at each "\n@@\n" into at most NPARTS parts */
static int parts(char *text, char **part)
{
	int n = 0;
	part[n++] = text;
	for (char *p; n < NPARTS && (p = strstr(part[n - 1], "\n@@\n")); n++) {
		*p = '\0';
		part[n] = p + 4;
	}
	return n;
}

static void one_mode(struct ub_triton *t, enum ub_mode m, char *entry)
{
	char req[8192];
	for (int dt = 0; dt < UB_NDTYPES; dt++)
		if (!ub_triton_request(t, m, (enum ub_dtype)dt, dt & 1, req, sizeof req) &&
		    (strchr(req, '\n') || req[0] != '{'))
			abort();
	struct ub_triton_ptx p;
	struct ub_error err;
	char *copy = strdup(entry);
	memset(&p, 0, sizeof p);
	if (copy && !ub_triton_parse_entry(t, m, copy, &p, &err)) {
		struct ptx_module *mod = NULL;
		if (!p.ptx)
			abort();
		if (!ptx_parse(p.ptx, &mod, &err))
			ptx_free(mod);
		struct ub_geom g;
		ub_triton_geom(t, &p, 100000, &g, &err);
		free(p.ptx);
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ub_error err;
	if (!atan_bwd) { /* the shipped catalog's */
		char path[4096];
		if (ub_data_path("suites/ops.fpcore", path, sizeof path, &err) ||
		    ub_catalog_load(path, &cat, &err) ||
		    !(atan_bwd = ub_catalog_find(&cat, "atan_bwd")))
			abort();
	}
	char *text = fuzz_text(data, size), *part[NPARTS] = {0};
	if (!text)
		return 0;
	int n = parts(text, part);
	static struct ub_triton t;
	memset(&t, 0, sizeof t);
	t.file = strdup("k.py");
	t.kernel = strdup("k");
	t.num_warps = 4;
	snprintf(t.arch, sizeof t.arch, "sm_90");
	struct ub_triton_req req = {
		.spec = "k.py:k", .args = n > ARGS && part[ARGS][0] ? part[ARGS] : NULL,
		.constexprs = n > CONSTEXPR && part[CONSTEXPR][0] ? part[CONSTEXPR] : NULL,
		.grid = n > GRID && part[GRID][0] ? part[GRID] : NULL,
	};
	struct ub_op op = *atan_bwd;
	if (t.file && t.kernel && !ub_triton_parse_desc(&t, part[DESC], &err) &&
	    !ub_triton_bind_params(&t, &req, &op, &err)) {
		int values = 0;
		for (int k = 0; k < t.d.nparams; k++)
			values += !t.d.params[k].is_constexpr;
		if (t.nargs != values || (!t.grid && !t.per_program))
			abort();
		for (int a = 0; a < t.nargs; a++)
			if (!t.args[a] || !t.args[a][0])
				abort();
		if (n > ENTRY)
			for (int m = 0; m < UB_NMODES; m++)
				if (!ub_triton_mode_na((enum ub_mode)m))
					one_mode(&t, (enum ub_mode)m, part[ENTRY]);
	}
	ub_triton_free(&t);
	free(text);
	return 0;
}

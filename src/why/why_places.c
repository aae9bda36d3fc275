/* why_places.c — the source place of each line of a mode's PTX, for
 * `explain` (why.h): the kernel compiled as the run compiles it and again
 * with line information; when their instructions are the same, each line
 * of the first gets the .loc of its twin. */
#include "why_internal.h"

#include <stdlib.h>
#include <string.h>

int ub_why_own_file(const struct ub_config *cfg, const char *path)
{
	const char *name = cfg->triton ? cfg->op->kernel : cfg->kernel_unit
			   ? cfg->kernel_unit->abspath : cfg->op->kernel;
	char gen[160];
	if (!name) {
		snprintf(gen, sizeof gen, "%s.generated.cu", cfg->op->name);
		name = gen;
	}
	const char *a = path ? strrchr(path, '/') : NULL, *b = strrchr(name, '/');
	return path && (!strcmp(path, name) || !strcmp(a ? a + 1 : path, b ? b + 1 : name));
}

static void fill(const struct ub_config *cfg, const struct ub_ptxtext *t,
		 const char *src, struct ub_why_places *p)
{
	for (uint32_t k = 1; k <= t->nlines; k++) {
		uint32_t q = t->lines[k].plain;
		const struct ub_loc *l = &t->lines[k].loc;
		if (!q || q > p->n || l->file < 0)
			continue;
		ub_loc_format(t, l, 1, p->place[q], sizeof p->place[q]);
		if (src && ub_why_own_file(cfg, ub_ptxtext_file(t, l->file)))
			ub_why_src_line(src, l->line, p->code[q], sizeof p->code[q]);
	}
}

int ub_why_places(const struct ub_config *cfg, enum ub_dtype dt, enum ub_mode mode,
		  struct ub_why_places *p, struct ub_error *err)
{
	char *plain = NULL, *lined = NULL, *src = NULL;
	struct ub_ptxtext t = {0};
	memset(p, 0, sizeof *p);
	int s = ub_why_compile_mode(cfg, dt, mode, 1, NULL, "", NULL, NULL, &plain, err);
	if (!s)
		s = ub_why_compile_mode(cfg, dt, mode, 1, NULL, "-lineinfo", NULL, NULL,
					&lined, err);
	if (!s)
		s = ub_ptxtext_read(lined, &t, err);
	if (!s && ub_ptxtext_align(&t, plain) == 1) {
		for (const char *c = plain; *c; c++)
			p->n += *c == '\n';
		p->n += 2;
		p->place = calloc(p->n, sizeof *p->place);
		p->code = calloc(p->n, sizeof *p->code);
		if (cfg->kernel_src)
			src = strdup(cfg->kernel_src);
		else
			ub_kernel_source(cfg, dt, &src, NULL);
		if (p->place && p->code)
			fill(cfg, &t, src, p);
		else
			s = ub_fail(err, UB_RUNTIME, "out of memory");
	}
	ub_ptxtext_free(&t);
	free(plain);
	free(lined);
	free(src);
	if (s)
		ub_why_places_free(p);
	return s;
}

void ub_why_places_free(struct ub_why_places *p)
{
	free(p->place);
	free(p->code);
	memset(p, 0, sizeof *p);
}

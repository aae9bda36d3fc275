/* why_exec.c — compiling a row's kernel again and running PTX texts over
 * sets of its elements, for `ulpbench why` (why_internal.h). */
#include "why_internal.h"
#include "backend.h"
#include "native.h"
#include "run.h"
#include "triton.h"
#include "codegen.h"

#include <stdlib.h>
#include <string.h>

int ub_why_compile_mode(const struct ub_config *cfg, enum ub_dtype dt, enum ub_mode mode,
			size_t n, const char *mopts, const char *extra, const char *src,
			const struct ub_nvcc_unit *u, char **ptx, struct ub_error *err)
{
	*ptx = NULL;
	if (cfg->triton) {
		struct ub_triton_ptx p;
		enum ub_mode m = strstr(extra, "-fmad=false") ? UB_MODE_NOFMA : mode;
		int s = ub_triton_compile(cfg->triton, m, dt, n > INT32_MAX, &p, err);
		if (!s)
			*ptx = p.ptx;
		return s;
	}
	char opts[600], name[160], *own = NULL;
	if (!mopts)
		mopts = ub_modes[mode].opts;
	snprintf(opts, sizeof opts, "%s%s%s", mopts, mopts[0] && extra[0] ? " " : "", extra);
	int s = src ? 0 : ub_kernel_source(cfg, dt, &own, err);
	struct ub_job job = { .src = src ? src : own,
			      .unit = u ? u : cfg->kernel_unit,
			      .name = ub_kernel_name(cfg, name, sizeof name),
			      .opts = opts, .arch = cfg->arch,
			      .entry = cfg->op->kernel ? cfg->op->entry : UB_KERNEL_ENTRY };
	size_t size;
	if (!s)
		s = ub_job_compile(&job, 0, ptx, &size, err);
	free(own);
	return s;
}

int ub_why_compile(const struct ub_why_ctx *x, const char *mopts, const char *extra,
		   const char *src, const struct ub_nvcc_unit *u, char **ptx,
		   struct ub_error *err)
{
	return ub_why_compile_mode(x->cfg, x->row->dt, x->mode, x->all.n, mopts, extra,
				   src, u, ptx, err);
}

/* The data of set s as ub_run_mode takes it. */
static struct ub_data data_of(const struct ub_why_set *s)
{
	struct ub_data d = s->d;
	d.n = s->n;
	return d;
}

int ub_why_exec(const struct ub_why_ctx *x, const char *ptx,
		const struct ub_why_set *s, struct ub_array *out,
		struct ub_error *err)
{
	struct ub_config c = *x->cfg;
	struct ub_data d = data_of(s);
	uint64_t approx = 0;
	const char *na = NULL;
	c.ptx = ptx;
	c.exec = UB_EXEC_INTERP; /* variants are many and run once: no native build */
	c.trace = NULL;
	*out = (struct ub_array){0};
	int st = ub_run_mode(&c, x->mode, &d, out, &approx, &na, err);
	if (!st && na)
		st = ub_fail(err, UB_USAGE, "mode %s: %s", ub_modes[x->mode].name, na);
	return st;
}

int ub_why_trace(const struct ub_why_ctx *x, const char *ptx,
		 const struct ub_why_set *s, size_t k, const struct ptx_trace *tr,
		 uint64_t *result, struct ub_error *err)
{
	struct ub_config c = *x->cfg;
	struct ub_data d = { .dt = s->d.dt, .nin = s->d.nin, .n = 1 };
	struct ub_array out = {0};
	uint64_t approx = 0;
	const char *na = NULL;
	int st = 0;
	for (int i = 0; !st && i < s->d.nin; i++)
		if (ub_array_alloc(&d.in[i], s->d.dt, 1))
			st = ub_fail(err, UB_RUNTIME, "out of memory");
		else
			ub_array_set(&d.in[i], 0, ub_array_get(&s->d.in[i], k));
	c.ptx = ptx;
	c.exec = UB_EXEC_INTERP;
	c.trace = tr;
	if (!st)
		st = ub_run_mode(&c, x->mode, &d, &out, &approx, &na, err);
	if (!st && !na)
		*result = ub_array_get(&out, 0);
	ub_array_free(&out);
	for (int i = 0; i < s->d.nin; i++)
		ub_array_free(&d.in[i]);
	return st;
}

int ub_why_torch_differs(const struct ub_why_set *s, size_t i, uint64_t v)
{
	return s->d.torch.data && !ub_same(s->d.dt, v, ub_array_get(&s->d.torch, i));
}

int ub_why_cr_differs(const struct ub_why_set *s, size_t i, uint64_t v)
{
	return !ub_exact_undecided(&s->d.exact[i]) &&
	       !ub_same(s->d.dt, v, ub_array_get(&s->d.cr, i));
}

struct ub_why_count ub_why_count(const struct ub_why_set *s, const struct ub_array *out)
{
	struct ub_why_count c = {0};
	for (size_t i = 0; i < s->n; i++) {
		uint64_t v = ub_array_get(out, i);
		c.torch += (size_t)ub_why_torch_differs(s, i, v);
		c.cr += (size_t)ub_why_cr_differs(s, i, v);
	}
	return c;
}

int ub_why_figs(const struct ub_why_ctx *x, const struct ub_array *out,
		struct ub_why_figs *f, struct ub_error *err)
{
	const struct ub_why_set *s = &x->all;
	struct ub_stats st;
	struct ub_measure m = { .y = out, .cr = &s->d.cr, .exact = s->d.exact,
				.torch = s->d.torch.data ? &s->d.torch : NULL };
	if (ub_stats_measure(&m, &st))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	*f = (struct ub_why_figs){ .done = 1, .torch_mismatch = st.torch_mismatch,
				   .cr_mismatch = st.cr_mismatch,
				   .nan_mismatch = st.nan_mismatch,
				   .max_ulp = st.max_ulp };
	return 0;
}

void ub_why_set_free(struct ub_why_set *s)
{
	if (s->owned) {
		for (int k = 0; k < s->d.nin; k++)
			ub_array_free(&s->d.in[k]);
		ub_array_free(&s->d.cr);
		ub_array_free(&s->d.torch);
		ub_array_free(&s->y);
		free(s->d.exact);
	}
	free(s->idx);
	memset(s, 0, sizeof *s);
}

/* Element i of all into element j of sub. */
static void gather(const struct ub_why_set *a, struct ub_why_set *b, size_t i, size_t j)
{
	for (int k = 0; k < a->d.nin; k++)
		ub_array_set(&b->d.in[k], j, ub_array_get(&a->d.in[k], i));
	ub_array_set(&b->d.cr, j, ub_array_get(&a->d.cr, i));
	if (a->d.torch.data)
		ub_array_set(&b->d.torch, j, ub_array_get(&a->d.torch, i));
	ub_array_set(&b->y, j, ub_array_get(&a->y, i));
	b->d.exact[j] = a->d.exact[i];
	b->idx[j] = i;
}

static int alloc_sub(const struct ub_why_set *a, struct ub_why_set *b, size_t n)
{
	enum ub_dtype dt = a->d.dt;
	int bad = 0;
	b->owned = 1;
	b->n = n;
	b->d.dt = dt;
	b->d.nin = a->d.nin;
	for (int k = 0; k < a->d.nin; k++)
		bad |= ub_array_alloc(&b->d.in[k], dt, n ? n : 1);
	bad |= ub_array_alloc(&b->d.cr, dt, n ? n : 1);
	if (a->d.torch.data)
		bad |= ub_array_alloc(&b->d.torch, dt, n ? n : 1);
	bad |= ub_array_alloc(&b->y, dt, n ? n : 1);
	b->d.exact = calloc(n ? n : 1, sizeof *b->d.exact);
	b->idx = calloc(n ? n : 1, sizeof *b->idx);
	return bad || !b->d.exact || !b->idx;
}

int ub_why_sets(struct ub_why_ctx *x, struct ub_error *err)
{
	const struct ub_data *d = ub_row_data(x->res, x->row);
	const struct ub_array *y = ub_row_output(x->res, x->row);
	struct ub_why_set *a = &x->all, *b = &x->sub;
	size_t n = 0;
	if (!d || !y)
		return ub_fail(err, UB_USAGE, "why: the run kept no results");
	*a = (struct ub_why_set){ .d = *d, .y = *y, .n = d->n };
	for (size_t i = 0; i < a->n; i++) {
		uint64_t v = ub_array_get(y, i);
		n += ub_why_torch_differs(a, i, v) || ub_why_cr_differs(a, i, v);
	}
	if (alloc_sub(a, b, n)) {
		ub_why_set_free(b);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	for (size_t i = 0, j = 0; i < a->n; i++) {
		uint64_t v = ub_array_get(y, i);
		if (ub_why_torch_differs(a, i, v) || ub_why_cr_differs(a, i, v))
			gather(a, b, i, j++);
	}
	for (int k = 0; k < a->d.nin; k++) /* ub_run_mode reads in[0].n */
		b->d.in[k].n = n;
	b->d.cr.n = b->y.n = n;
	if (b->d.torch.data)
		b->d.torch.n = n;
	return 0;
}

const char *ub_why_src_line(const char *text, unsigned k, char *buf, size_t len)
{
	const char *p = text;
	buf[0] = '\0';
	for (unsigned i = 1; p && i < k; i++)
		if ((p = strchr(p, '\n')))
			p++;
	if (!p || !k)
		return buf;
	size_t n = strcspn(p, "\n");
	while (n && (*p == ' ' || *p == '\t'))
		p++, n--;
	while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\r'))
		n--;
	snprintf(buf, len, "%.*s", (int)(n < len - 1 ? n : len - 1), p);
	return buf;
}

/* Whether `path` (a .loc file) is the kernel's own source file. */
int ub_why_is_kernel_file(const struct ub_why_ctx *x, const char *path)
{
	return ub_why_own_file(x->cfg, path);
}

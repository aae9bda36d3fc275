/* why_run.c — `ulpbench why`'s analysis of a run's rows (why.h): for each
 * measured mode row that differs, the kernel compiled again with line
 * information, its candidates, the attribution, the fix and the blame. */
#include "why_internal.h"
#include "backend.h"
#include "ptx.h"

#include <stdlib.h>
#include <string.h>

/* A candidate as the report shows it. */
static void item_of(const struct ub_why_ctx *x, int k, struct ub_why_item *it)
{
	const struct ub_why_cand *c = &x->cand[k];
	memset(it, 0, sizeof *it);
	it->c = *c;
	for (int j = 0; j < c->nlines; j++)
		it->plain[j] = x->t.lines[c->line[j]].plain;
	ub_loc_format(&x->t, &c->loc, 1, it->place, sizeof it->place);
	if (x->src && ub_why_is_kernel_file(x, ub_ptxtext_file(&x->t, c->loc.file)))
		ub_why_src_line(x->src, c->loc.line, it->code, sizeof it->code);
}

/* The PTX texts of the row's mode: as run, with line information, with
 * -fmad=false; read and aligned. */
static int texts(struct ub_why_ctx *x, struct ub_why_row *wr, struct ub_error *err)
{
	int s = ub_why_compile(x, NULL, "", NULL, NULL, &x->plain, err);
	if (!s)
		s = ub_why_compile(x, NULL, "-lineinfo", NULL, NULL, &x->lined, err);
	if (!s && x->mode != UB_MODE_NOFMA)
		s = ub_why_compile(x, NULL, "-fmad=false -lineinfo", NULL, NULL,
				   &x->nofma, err);
	if (!s)
		s = ub_ptxtext_read(x->lined, &x->t, err);
	if (!s && x->nofma)
		s = ub_ptxtext_read(x->nofma, &x->tn, err);
	int a = s ? 0 : ub_ptxtext_align(&x->t, x->plain);
	if (a < 0)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s && !a) { /* places of another compile would mislead: none */
		snprintf(wr->note, sizeof wr->note, "the compile with line "
			 "information differs from the run's: no source places");
		ub_ptxtext_free(&x->t);
		free(x->lined);
		x->lined = strdup(x->plain);
		s = x->lined ? ub_ptxtext_read(x->lined, &x->t, err)
			     : ub_fail(err, UB_RUNTIME, "out of memory");
		for (uint32_t k = 1; !s && k <= x->t.nlines; k++)
			x->t.lines[k].plain = x->t.lines[k].kind == UB_PL_INSN ? k : 0;
		x->t.has_loc = 0;
	} else if (!s && !x->t.has_loc) {
		snprintf(wr->note, sizeof wr->note, "the PTX has no line information");
	}
	return s;
}

/* The fma a traced run executed: line, operands, result. */
struct fmas {
	size_t n, cap;
	struct { uint32_t line; uint64_t a, b, c, d; } *v;
};

static void on_fma(void *user, const struct ptx_trace_event *ev)
{
	struct fmas *f = user;
	if (ev->thread != 0 || strncmp(ev->text, "fma.rn.", 7) || ev->nsrc != 3)
		return;
	if (f->n == f->cap) {
		size_t cap = f->cap ? 2 * f->cap : 64;
		void *v = realloc(f->v, cap * sizeof *f->v);
		if (!v)
			return;
		f->v = v;
		f->cap = cap;
	}
	f->v[f->n].line = ev->line;
	f->v[f->n].a = ev->src[0];
	f->v[f->n].b = ev->src[1];
	f->v[f->n].c = ev->src[2];
	f->v[f->n++].d = ev->dst;
}

/* The verdict on each fma of the lined text that a differing element's
 * trace executes: the source's own when the -fmad=false compile computes
 * an fma of the same operands and result there, else a contraction (its
 * product and sum round apart there); NULL when not traced. */
static unsigned char *verdicts(struct ub_why_ctx *x)
{
	struct fmas a = {0}, b = {0};
	struct ptx_trace ta = { on_fma, &a }, tb = { on_fma, &b };
	struct ub_error err;
	uint64_t r;
	unsigned char *v = NULL;
	const struct ub_why_set *s = x->sub.n ? &x->sub : &x->all;
	if (x->nofma && s->n && !ub_why_trace(x, x->lined, s, 0, &ta, &r, &err) &&
	    !ub_why_trace(x, x->nofma, s, 0, &tb, &r, &err) &&
	    (v = calloc(x->t.nlines + 1u, 1)))
		for (size_t i = 0; i < a.n; i++) {
			int same = 0;
			for (size_t j = 0; j < b.n && !same; j++)
				same = b.v[j].c == a.v[i].c && b.v[j].d == a.v[i].d &&
				       ((b.v[j].a == a.v[i].a && b.v[j].b == a.v[i].b) ||
					(b.v[j].a == a.v[i].b && b.v[j].b == a.v[i].a));
			if (a.v[i].line <= x->t.nlines && v[a.v[i].line] != UB_FMA_CONTRACTED)
				v[a.v[i].line] = same ? UB_FMA_EXPLICIT : UB_FMA_CONTRACTED;
		}
	free(a.v);
	free(b.v);
	return v;
}

/* The candidates of the lined text (the ptxas model's fused muls from
 * the interpreter's own reading of it). */
static int candidates(struct ub_why_ctx *x, struct ub_error *err)
{
	struct ptx_module *m = NULL;
	uint32_t fused[UB_WHY_MAX_CANDS];
	int s = ptx_parse(x->lined, &m, err), nf = 0;
	if (!s)
		nf = ptx_fused_mul_lines(m, fused, UB_WHY_MAX_CANDS);
	ptx_free(m);
	unsigned char *v = s ? NULL : verdicts(x);
	if (!s)
		x->ncand = ub_why_candidates(&x->t, x->nofma ? &x->tn : NULL, v, fused, nf,
					     x->cand, UB_WHY_MAX_CANDS);
	free(v);
	return s;
}

/* The lined PTX must give the row's bits: on the differing elements alone
 * (then variants run on them only), else on every element. */
static int check_base(struct ub_why_ctx *x, struct ub_why_row *wr,
		      struct ub_error *err)
{
	struct ub_array out = {0};
	int s = ub_why_exec(x, x->lined, &x->sub, &out, err);
	x->sub_ok = !s && x->sub.n && !memcmp(out.data, x->sub.y.data,
					      x->sub.n * ub_dtypes[x->row->dt].bits / 8);
	ub_array_free(&out);
	if (s || x->sub_ok)
		return s;
	s = ub_why_exec(x, x->lined, &x->all, &out, err);
	if (!s && memcmp(out.data, x->all.y.data,
			 x->all.n * ub_dtypes[x->row->dt].bits / 8))
		snprintf(wr->na, sizeof wr->na, "the kernel compiled again does not "
			 "give the run's results");
	ub_array_free(&out);
	return s;
}

/* The torch set on every element. */
static int chosen_figs(struct ub_why_ctx *x, struct ub_why_row *wr,
		       struct ub_error *err)
{
	unsigned char on[UB_WHY_MAX_CANDS] = {0};
	int any = 0;
	for (int k = 0; k < x->ncand; k++)
		any |= on[k] = (unsigned char)wr->item[k].in_torch;
	if (!any)
		return 0;
	char *ptx = NULL;
	struct ub_array out = {0};
	int s = ub_why_variant(&x->t, x->cand, on, x->ncand, &ptx, err);
	if (!s)
		s = ub_why_exec(x, ptx, &x->all, &out, err);
	if (!s)
		s = ub_why_figs(x, &out, &wr->chosen, err);
	ub_array_free(&out);
	free(ptx);
	return s;
}

/* The first approximate instruction with no IEEE form in PTX (the
 * fix's second phase deals with them at the source). */
static void noieee(const struct ub_why_ctx *x, struct ub_why_row *wr)
{
	static const char *const kinds[] = { "ex2.approx", "lg2.approx", "sin.approx",
					     "cos.approx", "tanh.approx", "rsqrt.approx" };
	struct ub_pinsn in;
	for (uint32_t k = 1; k <= x->t.nlines && !wr->noieee[0]; k++) {
		if (ub_pinsn_line(&x->t, k, &in))
			continue;
		for (size_t j = 0; j < sizeof kinds / sizeof kinds[0]; j++)
			if (!strncmp(in.mn, kinds[j], strlen(kinds[j])))
				snprintf(wr->noieee, sizeof wr->noieee, "%s", in.mn);
	}
}

static void ctx_free(struct ub_why_ctx *x)
{
	ub_why_set_free(&x->sub);
	ub_ptxtext_free(&x->t);
	ub_ptxtext_free(&x->tn);
	free(x->plain);
	free(x->lined);
	free(x->nofma);
	free(x->src);
}

static int analyse(const struct ub_result *res, int r, const char *fix_dir,
		   struct ub_why_row *wr, struct ub_error *err)
{
	const struct ub_row *row = &res->rows[r];
	struct ub_why_ctx x = { .res = res, .row = row, .cfg = &res->cfgs[row->data],
				.mode = (enum ub_mode)ub_mode_find(row->mode),
				.fix_dir = fix_dir };
	wr->row = r;
	wr->torch_n = row->has_torch ? row->st.torch_mismatch : 0;
	wr->cr_n = row->st.cr_mismatch;
	int s = ub_why_sets(&x, err);
	if (!s && x.cfg->kernel_src && !(x.src = strdup(x.cfg->kernel_src)))
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	else if (!s && !x.cfg->kernel_src)
		s = ub_kernel_source(x.cfg, row->dt, &x.src, err);
	if (!s)
		s = texts(&x, wr, err);
	if (!s)
		s = candidates(&x, err);
	if (!s)
		s = check_base(&x, wr, err);
	for (int k = 0; !s && k < x.ncand; k++)
		item_of(&x, k, &wr->item[k]);
	if (!s)
		noieee(&x, wr);
	wr->nitems = s ? 0 : x.ncand;
	if (!s && !wr->na[0])
		s = ub_why_attribute(&x, wr, err);
	if (!s && !wr->na[0])
		s = chosen_figs(&x, wr, err);
	if (!s && !wr->na[0])
		s = ub_why_fix(&x, wr, err);
	if (!s && !wr->na[0])
		s = ub_why_blame(&x, wr, err);
	ctx_free(&x);
	return s;
}

static int wants(const struct ub_row *r)
{
	return !r->na && r->out >= 0 && ub_mode_find(r->mode) >= 0 &&
	       ((r->has_torch && r->st.torch_mismatch) || r->st.cr_mismatch);
}

int ub_why_run(const struct ub_result *res, struct ub_why *w, struct ub_error *err)
{
	const struct ub_backend *be = ub_config_backend(res->cfg);
	int s = be == &ub_backend_sim ? 0 : ub_fail(err, UB_USAGE, "why: the "
		"variants run on the sim backend (here: %s; give --backend sim)",
		be->name);
	w->nrows = 0;
	w->rows = calloc((size_t)res->nrows + 1, sizeof *w->rows);
	if (!s && !w->rows)
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	for (int r = 0; !s && r < res->nrows; r++) {
		if (!wants(&res->rows[r]))
			continue;
		s = analyse(res, r, w->fix_dir, &w->rows[w->nrows], err);
		w->nrows++;
	}
	return s;
}

void ub_why_free(struct ub_why *w)
{
	free(w->rows);
	w->rows = NULL;
	w->nrows = 0;
}

const struct ub_why_row *ub_why_of(const struct ub_why *w, int r)
{
	for (int k = 0; w && k < w->nrows; k++)
		if (w->rows[k].row == r)
			return &w->rows[k];
	return NULL;
}

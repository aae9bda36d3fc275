/* why_fix.c — the fix (why.h, step 4): for each chosen instruction the
 * source change that realizes its variant, found by trying the sites at
 * its source lines (why_src.h) one at a time and keeping the first whose
 * kernel gives, on the differing elements, the variant's bits exactly;
 * where none does, the file's option (-fmad=false, -prec-div=true,
 * -prec-sqrt=true).  Flush-to-zero is an option of the file (-ftz=false).
 * Then the approximate instructions with no IEEE form in PTX: a fast
 * intrinsic at their line called by its accurate name (expf for __expf),
 * or -use_fast_math spelled without its fast library calls, each kept
 * when it leaves fewer differences.  The whole change is compiled in the
 * mode and run on every element: those are the fixed kernel's figures. */
#include "why_internal.h"
#include "why_src.h"
#include "ptx.h"
#include "triton.h"

#include <stdlib.h>
#include <string.h>

struct fix {
	struct ub_why_ctx *x;
	struct ub_why_row *wr;
	const struct ub_why_set *s;   /* where trials run */
	int nsite;
	struct ub_src_site site[UB_WHY_MAX_EDITS];
	char what[UB_WHY_MAX_EDITS][128];
	unsigned char on[UB_WHY_MAX_CANDS]; /* items the sites realize */
	int exact;                    /* every change so far realizes its
					 variant bit for bit */
	char opts[600], flags[256];   /* the file's options; what changed */
	int niopt;                    /* the intrinsics at approximate */
	struct ub_src_site iopt[24];  /* instructions' lines not yet taken */
};

static int eq(const struct ub_array *a, const struct ub_array *b, size_t n)
{
	return !memcmp(a->data, b->data, n * (ub_dtypes[a->dt].bits / 8));
}

/* The kernel of the source with sites[0..n-1] applied, under opts, run
 * on set s into out: 0; 1 when the change does not apply or does not
 * compile (a trial, not an error); else the error. */
static int trial(struct fix *f, const struct ub_src_site *sites, int n,
		 const char *opts, const struct ub_why_set *s, struct ub_array *out,
		 char **text, struct ub_error *err)
{
	char *t = NULL, *ptx = NULL;
	int r = ub_src_apply(f->x->src, sites, n, &t);
	if (r == -2)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	if (r)
		return 1;
	if (f->x->cfg->triton) /* its options: enable_fp_fusion only */
		r = ub_why_compile_triton_copy(f->x, t, strstr(opts, "-fmad=false") ?
					       UB_MODE_NOFMA : f->x->mode, &ptx, err);
	else
		r = ub_why_compile_copy(f->x, t, opts, "", &ptx, err);
	if (r == UB_COMPILE)
		r = 1;
	if (!r)
		r = ub_why_exec(f->x, ptx, s, out, err);
	free(ptx);
	if (!r && text)
		*text = t;
	else
		free(t);
	return r;
}

/* The fix aims at the torch plan's bits (at the correctly rounded ones
 * for an op without a torch plan): the chosen set for that. */
static int chosen(const struct ub_why_row *wr, int k)
{
	return wr->torch_n ? wr->item[k].in_torch : wr->item[k].in_cr;
}

/* The candidates one source change at k's place realizes: those of its
 * kind and mnemonic there that the search chose (an unrolled loop's
 * copies), into g. */
static void group(const struct fix *f, int k, unsigned char *g)
{
	const struct ub_why_cand *c = f->x->cand;
	memset(g, 0, UB_WHY_MAX_CANDS);
	for (int j = 0; j < f->x->ncand; j++)
		g[j] = j == k || (chosen(f->wr, j) && c[j].kind == c[k].kind &&
				  !strcmp(c[j].mn, c[k].mn) && c[k].loc.file >= 0 &&
				  ub_loc_same(&c[j].loc, &c[k].loc));
}

/* The variant with f->on and k's group on set s. */
static int target(struct fix *f, int k, struct ub_array *out, struct ub_error *err)
{
	unsigned char on[UB_WHY_MAX_CANDS], g[UB_WHY_MAX_CANDS];
	char *ptx = NULL;
	group(f, k, g);
	for (int j = 0; j < UB_WHY_MAX_CANDS; j++)
		on[j] = f->on[j] | g[j];
	int s = ub_why_variant(&f->x->t, f->x->cand, on, f->x->ncand, &ptx, err);
	if (!s)
		s = ub_why_exec(f->x, ptx, f->s, out, err);
	free(ptx);
	return s;
}

struct events {
	uint32_t line;      /* wanted line (0: every mul.rn) */
	uint64_t a, b;      /* the fma's first two operands */
	int got;
	uint32_t found;     /* a mul.rn with operands a, b: its line */
};

static void on_event(void *user, const struct ptx_trace_event *ev)
{
	struct events *e = user;
	if (ev->thread != 0)
		return;
	if (e->line && ev->line == e->line && !e->got && ev->nsrc >= 2) {
		e->a = ev->src[0];
		e->b = ev->src[1];
		e->got = 1;
	} else if (!e->line && !e->found && !strncmp(ev->text, "mul.rn.", 7) &&
		   ((ev->src[0] == e->a && ev->src[1] == e->b) ||
		    (ev->src[0] == e->b && ev->src[1] == e->a))) {
		e->found = ev->line;
	}
}

/* Line k of the nofma text is in the file of candidate c: its source
 * line, else 0. */
static unsigned nofma_line(const struct ub_why_ctx *x, const struct ub_why_cand *c,
			   uint32_t k)
{
	const struct ub_loc *l = k && k <= x->tn.nlines ? &x->tn.lines[k].loc : NULL;
	const char *file = l ? ub_ptxtext_file(&x->tn, l->file) : NULL;
	const char *mine = ub_ptxtext_file(&x->t, c->loc.file);
	return file && mine && !strcmp(file, mine) ? l->line : 0;
}

/* The same read from the text (for a kernel the trace does not follow):
 * an add.rn or sub.rn of the nofma text at c's source line, one of whose
 * operands the last instruction writing it before is a mul.rn: that
 * mul's line. */
static unsigned mul_line_static(const struct ub_why_ctx *x, const struct ub_why_cand *c)
{
	struct ub_pinsn a, m;
	for (uint32_t k = 1; k <= x->tn.nlines; k++) {
		if (ub_pinsn_line(&x->tn, k, &a) || nofma_line(x, c, k) != c->loc.line ||
		    (strncmp(a.mn, "add.rn.", 7) && strncmp(a.mn, "sub.rn.", 7)))
			continue;
		for (int o = 1; o < a.nops; o++)
			for (uint32_t j = k - 1; j >= 1; j--) {
				if (ub_pinsn_line(&x->tn, j, &m) || !m.nops ||
				    strcmp(m.op[0], a.op[o]))
					continue;
				if (!strncmp(m.mn, "mul.rn.", 7) && nofma_line(x, c, j))
					return nofma_line(x, c, j);
				break;
			}
	}
	return 0;
}

/* The source line of the multiply that -fmad=false leaves rounded where
 * candidate c fuses it: its operands traced in both compiles on the
 * first differing element (else read from the text); 0 when not found. */
static unsigned mul_line(struct fix *f, const struct ub_why_cand *c)
{
	struct ub_why_ctx *x = f->x;
	struct events e = { .line = c->line[0] };
	struct ptx_trace tr = { on_event, &e };
	struct ub_error err;
	uint64_t r;
	if (!x->nofma || !c->nlines)
		return 0;
	if (!f->s->n || ub_why_trace(x, x->lined, f->s, 0, &tr, &r, &err) || !e.got)
		return mul_line_static(x, c);
	e.line = 0;
	if (ub_why_trace(x, x->nofma, f->s, 0, &tr, &r, &err) || !e.found)
		return mul_line_static(x, c);
	return nofma_line(x, c, e.found);
}

/* The function that replaces operator op ('*', '/', 's' sqrt) for type ty
 * (NULL: none, in Triton). */
static const char *rn_fn(const struct fix *f, char op, const char *ty)
{
	if (f->x->cfg->triton)
		return op == '/' ? "tl.math.div_rn" : NULL;
	int d = !strcmp(ty, "f64"), h = ty[0] == 'b' || !strcmp(ty, "f16") ||
					strstr(ty, "x2") != NULL;
	return op == '*' ? (d ? "__dmul_rn" : h ? "__hmul_rn" : "__fmul_rn")
	       : op == '/' ? (d ? "__ddiv_rn" : h ? "__hdiv" : "__fdiv_rn")
	       : (d ? "__dsqrt_rn" : "__fsqrt_rn");
}

/* The sites that may realize item k's variant, at its source lines. */
static int sites_for(struct fix *f, int k, struct ub_src_site *out, int max)
{
	const struct ub_why_cand *c = &f->x->cand[k];
	const char *ty = ub_mn_ftype(c->mn) ? ub_mn_ftype(c->mn) : "f32";
	char op = c->kind == UB_EDIT_IEEE ? (c->mn[0] == 's' ? 's' : '/') : '*';
	static const struct { char op; int type; const char *name; } forms[] = {
		{ '*', UB_SRC_CALL, "UB_MUL" }, { '*', UB_SRC_BIN, "*" },
		{ '/', UB_SRC_CALL, "UB_DIV" }, { '/', UB_SRC_CALL, "__fdividef" },
		{ '/', UB_SRC_BIN, "/" }, { 's', UB_SRC_CALL, "sqrtf" },
		{ 's', UB_SRC_CALL, "sqrt" } };
	unsigned lines[3] = { op == '*' ? mul_line(f, c) : 0, c->loc.line,
			      c->loc.at_file == c->loc.file ? c->loc.at_line : 0 };
	int n = 0;
	for (int i = 0; i < 3; i++) {
		if (!lines[i] || (i == 1 && lines[1] == lines[0]) ||
		    (i == 2 && (lines[2] == lines[0] || lines[2] == lines[1])))
			continue;
		for (size_t j = 0; j < sizeof forms / sizeof forms[0]; j++) {
			if (forms[j].op != op)
				continue;
			int cnt = rn_fn(f, op, ty) ? ub_src_count(f->x->src, lines[i],
								forms[j].type, forms[j].name) : 0;
			for (int o = 0; o < cnt && n < max; o++) {
				out[n] = (struct ub_src_site){ .line = lines[i], .type = forms[j].type,
							       .ord = o };
				snprintf(out[n].op, sizeof out[n].op, "%s", forms[j].name);
				snprintf(out[n].to, sizeof out[n].to, "%s", rn_fn(f, op, ty));
				n++;
			}
		}
	}
	return n;
}

/* The file's option that does item k's job when no site does. */
static void fallback(struct fix *f, int k)
{
	const struct ub_why_cand *c = &f->x->cand[k];
	const char *o = c->kind != UB_EDIT_IEEE ? "-fmad=false"
		      : c->mn[0] == 's' ? "-prec-sqrt=true" : "-prec-div=true";
	const char *shown = f->x->cfg->triton ? "enable_fp_fusion=False" : o;
	if (strstr(f->opts, o) || (f->x->cfg->triton && c->kind == UB_EDIT_IEEE))
		return; /* Triton: no option for its divisions */
	snprintf(f->opts + strlen(f->opts), sizeof f->opts - strlen(f->opts), "%s%s",
		 f->opts[0] ? " " : "", o);
	snprintf(f->flags + strlen(f->flags), sizeof f->flags - strlen(f->flags), "%s%s",
		 f->flags[0] ? " " : "", shown);
	f->exact = 0;
}

static int left_with(struct fix *f, const struct ub_src_site *sites, int n,
		     const char *opts, size_t *left, struct ub_error *err);

/* Whether the site at f->site[f->nsite] realizes item k: it gives the
 * variant's bits exactly (want), or, once an option made the fix inexact,
 * it leaves fewer differences than the fix without it (*before). */
static int realizes(struct fix *f, const struct ub_array *want, size_t *before,
		    struct ub_error *err)
{
	struct ub_array got = {0};
	size_t l;
	int s = f->exact ? trial(f, f->site, f->nsite + 1, f->opts, f->s, &got, NULL, err)
		: left_with(f, f->site, f->nsite + 1, f->opts, &l, err);
	int yes = !s && (f->exact ? eq(&got, want, f->s->n) : l < *before);
	if (yes && !f->exact)
		*before = l;
	ub_array_free(&got);
	return s == 1 ? 0 : s ? -s : yes;
}

/* Item k realized by a source change (or by an option). */
static int fix_item(struct fix *f, int k, struct ub_error *err)
{
	const struct ub_why_cand *c = &f->x->cand[k];
	struct ub_src_site cand[24];
	struct ub_array want = {0};
	size_t before = 0;
	int n = sites_for(f, k, cand, 24);
	int s = f->exact ? target(f, k, &want, err)
		: left_with(f, f->site, f->nsite, f->opts, &before, err);
	s = s == 1 ? 0 : s;
	for (int i = 0; !s && i < n && f->nsite < UB_WHY_MAX_EDITS; i++) {
		f->site[f->nsite] = cand[i];
		int r = realizes(f, &want, &before, err);
		if (r < 0)
			s = -r;
		if (r != 1)
			continue;
		snprintf(f->what[f->nsite++], sizeof f->what[0], "%s %s %s%s", cand[i].to,
			 c->kind == UB_EDIT_IEEE ? "instead of the approximate"
			 : c->kind == UB_EDIT_SPLIT ? "for the multiply of the contracted"
			 : "for the", c->mn, c->kind == UB_EDIT_ROUND ?
			 " that ptxas fuses into its add" : "");
		unsigned char g[UB_WHY_MAX_CANDS];
		group(f, k, g);
		for (int j = 0; j < UB_WHY_MAX_CANDS; j++)
			f->on[j] |= g[j];
		ub_array_free(&want);
		return 0;
	}
	ub_array_free(&want);
	if (!s)
		fallback(f, k);
	return s;
}

/* The fast intrinsics and what replaces them (CUDA Math API: the
 * accurate function of each; __fdividef by IEEE division). */
static const char *const intrinsics[][2] = {
	{ "__expf", "expf" }, { "__exp10f", "exp10f" }, { "__logf", "logf" },
	{ "__log2f", "log2f" }, { "__log10f", "log10f" }, { "__sinf", "sinf" },
	{ "__cosf", "cosf" }, { "__tanf", "tanf" }, { "__powf", "powf" },
	{ "__tanhf", "tanhf" }, { "__fdividef", "__fdiv_rn" }, { "__frsqrt_rn", "rsqrtf" },
};
#define NINTRINSICS (int)(sizeof intrinsics / sizeof intrinsics[0])

/* Differences left on f->s by the source with sites and opts (1: the
 * change does not apply). */
static int left_with(struct fix *f, const struct ub_src_site *sites, int n,
		     const char *opts, size_t *left, struct ub_error *err)
{
	struct ub_array out = {0};
	int s = trial(f, sites, n, opts, f->s, &out, NULL, err);
	if (!s) {
		struct ub_why_count c = ub_why_count(f->s, &out);
		*left = f->wr->torch_n ? c.torch : c.cr;
	}
	ub_array_free(&out);
	return s;
}

/* The lines of the kernel's file where an approximate instruction with
 * no IEEE form in PTX runs (ex2, lg2, sin, cos, tanh, rsqrt .approx). */
static int approx_lines(const struct ub_why_ctx *x, unsigned *lines, int max)
{
	static const char *const kinds[] = { "ex2.approx", "lg2.approx", "sin.approx",
					     "cos.approx", "tanh.approx", "rsqrt.approx" };
	int n = 0;
	struct ub_pinsn in;
	for (uint32_t k = 1; k <= x->t.nlines; k++) {
		if (ub_pinsn_line(&x->t, k, &in))
			continue;
		for (size_t j = 0; j < sizeof kinds / sizeof kinds[0]; j++) {
			unsigned l = x->t.lines[k].loc.line;
			int dup = 0;
			for (int i = 0; i < n; i++)
				dup |= lines[i] == l;
			if (!strncmp(in.mn, kinds[j], strlen(kinds[j])) && l && !dup && n < max)
				lines[n++] = l;
		}
	}
	return n;
}

/* The second phase's changes: each tried alone on top of the fix so far,
 * the best kept while it leaves fewer differences. */
static int phase2(struct fix *f, struct ub_error *err)
{
	struct ub_src_site *opt = f->iopt;
	unsigned lines[16];
	int n = 0, nl = approx_lines(f->x, lines, 16), s = 0;
	size_t cur;
	for (int i = 0; i < nl; i++)
		for (int j = 0; j < NINTRINSICS; j++) {
			int cnt = ub_src_count(f->x->src, lines[i], UB_SRC_CALL, intrinsics[j][0]);
			for (int o = 0; o < cnt && n < 24; o++) {
				opt[n] = (struct ub_src_site){ .line = lines[i], .type = UB_SRC_CALL,
							       .ord = o };
				snprintf(opt[n].op, sizeof opt[n].op, "%s", intrinsics[j][0]);
				snprintf(opt[n++].to, sizeof opt[0].to, "%s", intrinsics[j][1]);
			}
		}
	f->niopt = n;
	if (!n || (s = left_with(f, f->site, f->nsite, f->opts, &cur, err)))
		return s == 1 ? 0 : s;
	while (cur && f->nsite < UB_WHY_MAX_EDITS) {
		int pick = -1;
		size_t best = cur, l;
		for (int i = 0; !s && i < n; i++) {
			if (!opt[i].line)
				continue;
			f->site[f->nsite] = opt[i];
			s = left_with(f, f->site, f->nsite + 1, f->opts, &l, err);
			if (!s && l < best) {
				best = l;
				pick = i;
			}
			s = s == 1 ? 0 : s;
		}
		if (s || pick < 0)
			return s;
		f->site[f->nsite] = opt[pick];
		snprintf(f->what[f->nsite++], sizeof f->what[0], "%s instead of %s: %zu fewer "
			 "differences", opt[pick].to, opt[pick].op, cur - best);
		opt[pick].line = 0;
		cur = best;
	}
	return 0;
}

/* -use_fast_math spelled without its fast library calls, when the mode
 * has it and differences remain, alone or with the intrinsics not taken
 * yet (under -use_fast_math expf is __expf: only both together may
 * help): the better kept when it leaves fewer differences. */
static int fast_math_flags(struct fix *f, struct ub_error *err)
{
	static const char fm[] = "-use_fast_math";
	char *p = strstr(f->opts, fm), opts[600];
	size_t before, alone = 0, both = 0;
	int n = f->nsite, m = 0;
	if (!p)
		return 0;
	snprintf(opts, sizeof opts, "%.*s%s%s%s%s", (int)(p - f->opts), f->opts,
		 strstr(f->opts, "-ftz=") ? "" : "-ftz=true ",
		 strstr(f->opts, "-prec-div=") ? "" : "-prec-div=false ",
		 strstr(f->opts, "-prec-sqrt=") ? "" : "-prec-sqrt=false", p + strlen(fm));
	for (int i = 0; i < f->niopt && n + m < UB_WHY_MAX_EDITS; i++)
		if (f->iopt[i].line)
			f->site[n + m++] = f->iopt[i];
	int s = left_with(f, f->site, n, f->opts, &before, err);
	if (!s && before)
		s = left_with(f, f->site, n, opts, &alone, err);
	if (!s && before && m)
		s = left_with(f, f->site, n + m, opts, &both, err);
	if (s || !before || (alone >= before && (!m || both >= before)))
		return s == 1 ? 0 : s;
	if (m && both < alone) {
		for (int i = n; i < n + m; i++)
			snprintf(f->what[i], sizeof f->what[0], "%s instead of %s (with the "
				 "options below)", f->site[i].to, f->site[i].op);
		f->nsite = n + m;
		alone = both;
	}
	snprintf(f->opts, sizeof f->opts, "%s", opts);
	snprintf(f->flags + strlen(f->flags), sizeof f->flags - strlen(f->flags),
		 "%s-use_fast_math as -ftz=true -prec-div=false -prec-sqrt=false (accurate "
		 "library calls: %zu fewer differences)", f->flags[0] ? "; " : "", before - alone);
	return 0;
}

/* The fix's lines: before and after, what changed. */
static void edits(struct fix *f, const char *text)
{
	struct ub_why_row *wr = f->wr;
	char place[160];
	const char *file = f->x->cfg->kernel_unit ? f->x->cfg->kernel_unit->file
			 : f->x->cfg->op->kernel ? f->x->cfg->op->kernel : NULL;
	char gen[160];
	if (!file) {
		snprintf(gen, sizeof gen, "%s.generated.cu", f->x->cfg->op->name);
		file = gen;
	}
	const char *base = strrchr(file, '/');
	for (int i = 0; i < f->nsite && wr->nedits < UB_WHY_MAX_EDITS; i++) {
		int seen = 0;
		for (int j = 0; j < i; j++)
			seen |= f->site[j].line == f->site[i].line;
		if (seen)
			continue;
		struct ub_why_edit *e = &wr->edit[wr->nedits++];
		snprintf(place, sizeof place, "%.140s:%u", base ? base + 1 : file,
			 f->site[i].line);
		snprintf(e->place, sizeof e->place, "%s", place);
		ub_why_src_line(f->x->src, f->site[i].line, e->before, sizeof e->before);
		ub_why_src_line(text, f->site[i].line, e->after, sizeof e->after);
		for (int j = i; j < f->nsite; j++)
			if (f->site[j].line == f->site[i].line)
				snprintf(e->what + strlen(e->what), sizeof e->what - strlen(e->what),
					 "%s%s", strlen(e->what) ? "; " : "", f->what[j]);
	}
	const char *was = ub_modes[f->x->mode].opts;
	if (f->x->cfg->triton)
		snprintf(wr->fix_flags, sizeof wr->fix_flags, "%s", f->flags);
	else if (strcmp(f->opts, was))
		snprintf(wr->fix_flags, sizeof wr->fix_flags, "%.100s%s (the mode's: %.100s)",
			 f->opts[0] ? f->opts : "(defaults)", f->x->cfg->kernel_unit ?
			 " for nvcc" : "", was[0] ? was : "(defaults)");
}

/* The whole change on every element: the fixed kernel's figures. */
static int verify(struct fix *f, struct ub_error *err)
{
	struct ub_array out = {0};
	char *text = NULL;
	int s = trial(f, f->site, f->nsite, f->opts, &f->x->all, &out, &text, err);
	if (s == 1) {
		snprintf(f->wr->fix_na, sizeof f->wr->fix_na, "the changed source does "
			 "not compile");
		return 0;
	}
	if (!s)
		s = ub_why_figs(f->x, &out, &f->wr->fixed, err);
	struct ub_why_figs *g = &f->wr->fixed;
	if (!s && (f->wr->torch_n ? g->torch_mismatch >= f->wr->torch_n
			       : g->cr_mismatch >= f->wr->cr_n)) {
		snprintf(f->wr->fix_na, sizeof f->wr->fix_na, "no source change found: "
			 "the best one tried (%.150s) leaves %zu differences of %zu", f->flags[0]
			 ? f->flags : "at the candidates' lines",
			 f->wr->torch_n ? g->torch_mismatch : g->cr_mismatch,
			 f->wr->torch_n ? f->wr->torch_n : f->wr->cr_n);
		g->done = 0;
		s = 1; /* no edits */
	}
	if (!s)
		edits(f, text);
	if (!s && f->x->fix_dir)
		s = ub_why_save(f->x, text, f->wr->fix_file, sizeof f->wr->fix_file, err);
	ub_array_free(&out);
	free(text);
	return s == 1 ? 0 : s;
}

/* What is left after the fix, and why, when it is not everything. */
static void left_note(struct fix *f)
{
	struct ub_why_row *wr = f->wr;
	size_t t = wr->fixed.torch_mismatch;
	if (!wr->fixed.done || (wr->torch_n ? !t : !wr->fixed.cr_mismatch) || wr->fix_na[0])
		return;
	snprintf(wr->fix_na, sizeof wr->fix_na, "%zu differences from the torch plan "
		 "remain: %s", t, wr->torch_left ? "no candidate explains them (another "
		 "algorithm, or an approximation the source cannot avoid in this mode)"
		 : "a change the variants made has no source form here (see above)");
	if (!wr->torch_n)
		snprintf(wr->fix_na, sizeof wr->fix_na, "%zu differences from the "
			 "correctly rounded result remain: they come from the kernel's own "
			 "roundings", wr->fixed.cr_mismatch);
}

int ub_why_fix(struct ub_why_ctx *x, struct ub_why_row *wr, struct ub_error *err)
{
	struct fix *f = calloc(1, sizeof *f);
	int s = f ? 0 : ub_fail(err, UB_RUNTIME, "out of memory");
	if (s || !x->src) {
		free(f);
		return s;
	}
	*f = (struct fix){ .x = x, .wr = wr, .s = x->sub_ok ? &x->sub : &x->all, .exact = 1 };
	snprintf(f->opts, sizeof f->opts, "%s", x->cfg->triton ? "" : ub_modes[x->mode].opts);
	if (!wr->torch_n && x->row->has_torch) {
		snprintf(wr->fix_na, sizeof wr->fix_na, "none needed: the mode gives the "
			 "torch plan's bits");
		free(f);
		return 0;
	}
	for (int k = 0; k < x->ncand; k++)   /* an option of the file, first */
		if (chosen(wr, k) && x->cand[k].kind == UB_EDIT_NOFTZ && !x->cfg->triton) {
			snprintf(f->opts + strlen(f->opts), sizeof f->opts - strlen(f->opts),
				 "%s-ftz=false", f->opts[0] ? " " : "");
			snprintf(f->flags, sizeof f->flags, "-ftz=false");
			f->on[k] = 1;
		}
	for (int k = 0; !s && k < x->ncand; k++)
		if (chosen(wr, k) && x->cand[k].kind != UB_EDIT_NOFTZ && !f->on[k])
			s = fix_item(f, k, err);
	if (!s && !x->cfg->triton)
		s = phase2(f, err);
	if (!s && !x->cfg->triton)
		s = fast_math_flags(f, err);
	if (!s && (f->nsite || f->flags[0]))
		s = verify(f, err);
	else if (!s)
		snprintf(wr->fix_na, sizeof wr->fix_na, "no source change found: %s",
			 wr->nitems ? "no candidate explains the differences"
			 : "no candidate in the PTX, and no fast intrinsic at an approximate "
			 "instruction's line");
	if (!s)
		left_note(f);
	free(f);
	return s;
}

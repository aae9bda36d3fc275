/* why_cand.c — candidates and variants (why_cand.h). */
#include "why_cand.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ub_edit_names[UB_NEDITS] = {
#define X(id, name, what) name,
	UB_WHY_EDITS(X)
#undef X
};
const char *const ub_edit_what[UB_NEDITS] = {
#define X(id, name, what) what,
	UB_WHY_EDITS(X)
#undef X
};

static int starts(const char *s, const char *w)
{
	return !strncmp(s, w, strlen(w));
}

/* A contractible fma: fma.rn[.ftz][.sat].TYPE of a float type. */
static int is_fma(const struct ub_pinsn *in)
{
	return starts(in->mn, "fma.rn.") && ub_mn_ftype(in->mn) && in->nops == 4 &&
	       !ub_mn_has(in->mn, "relu") && !ub_mn_has(in->mn, "oob");
}

/* The IEEE form of an approximate instruction, into to; 0 when it has
 * one. */
static int ieee_of(const struct ub_pinsn *in, char *to, size_t len)
{
	const char *ty = ub_mn_ftype(in->mn);
	int ftz = ub_mn_has(in->mn, "ftz") && strcmp(ty ? ty : "", "f64");
	if (!ty || (strcmp(ty, "f32") && strcmp(ty, "f64")))
		return -1;
	if ((starts(in->mn, "div.approx.") || starts(in->mn, "div.full.")) &&
	    in->nops == 3 && !strcmp(ty, "f32"))
		snprintf(to, len, "div.rn%s.f32", ftz ? ".ftz" : "");
	else if ((starts(in->mn, "rcp.approx.") || starts(in->mn, "sqrt.approx.")) &&
		 in->nops == 2 && (!strcmp(ty, "f32") || in->mn[0] == 'r'))
		snprintf(to, len, "%s.rn%s.%s", in->mn[0] == 'r' ? "rcp" : "sqrt",
			 ftz ? ".ftz" : "", ty);
	else
		return -1;
	return 0;
}

int ub_loc_same(const struct ub_loc *a, const struct ub_loc *b)
{
	return a->file == b->file && a->line == b->line && a->col == b->col &&
	       a->at_file == b->at_file && a->at_line == b->at_line &&
	       a->at_col == b->at_col;
}

/* fma instructions of t at loc (any place when loc is NULL); the files of
 * two texts compare by path. */
static int fmas_at(const struct ub_ptxtext *t, const struct ub_ptxtext *of,
		   const struct ub_loc *loc)
{
	int n = 0;
	struct ub_pinsn in;
	for (uint32_t k = 1; k <= t->nlines; k++) {
		if (ub_pinsn_line(t, k, &in) || !is_fma(&in))
			continue;
		struct ub_loc l = t->lines[k].loc;
		if (loc) { /* t's file indices to of's, by path */
			const char *f = ub_ptxtext_file(t, l.file);
			const char *af = ub_ptxtext_file(t, l.at_file);
			l.file = l.at_file = -1;
			for (int j = 0; j < of->nfiles; j++) {
				if (f && !strcmp(f, of->file[j]))
					l.file = j;
				if (af && !strcmp(af, of->file[j]))
					l.at_file = j;
			}
		}
		n += !loc || ub_loc_same(&l, loc);
	}
	return n;
}

/* Adds the instruction at line (0: none, noftz) as a candidate; returns
 * it, or NULL when there is no room. */
static struct ub_why_cand *add(struct ub_why_cand *c, int *n, int max, int kind,
			       uint32_t line, const struct ub_pinsn *in, const char *to,
			       const struct ub_loc *loc)
{
	const char *mn = in ? in->mn : "";
	if (*n == max)
		return NULL;
	c[*n] = (struct ub_why_cand){ .kind = kind, .loc = *loc };
	if (line)
		c[*n].line[c[*n].nlines++] = line;
	snprintf(c[*n].mn, sizeof c[*n].mn, "%s", mn);
	snprintf(c[*n].to, sizeof c[*n].to, "%s", to);
	return &c[(*n)++];
}

/* The instruction lines of t and their mnemonics, mul/add/sub without
 * ".rn" (the nofma compile marks what the fma one leaves unmarked), with
 * their source operands: registers as "%", immediates as written. */
static int mnemonics(const struct ub_ptxtext *t, uint32_t **line, char (**mn)[96])
{
	int n = 0;
	struct ub_pinsn in;
	*line = calloc(t->nlines + 1u, sizeof **line);
	*mn = calloc(t->nlines + 1u, sizeof **mn);
	if (!*line || !*mn)
		return -1;
	for (uint32_t k = 1; k <= t->nlines; k++) {
		if (ub_pinsn_line(t, k, &in))
			continue;
		char *r = strstr(in.mn, ".rn.");
		if (r && (starts(in.mn, "mul.") || starts(in.mn, "add.") || starts(in.mn, "sub.")))
			memmove(r, r + 3, strlen(r + 3) + 1);
		/* the immediates too: an fma of the source's with a constant
		 * pairs with its twin, not with a contraction of registers */
		size_t used = (size_t)snprintf((*mn)[n], sizeof (*mn)[n], "%.31s", in.mn);
		for (int o = 1; o < in.nops && used < sizeof (*mn)[n]; o++)
			used += (size_t)snprintf((*mn)[n] + used, sizeof (*mn)[n] - used, " %s",
						 in.op[o][0] == '%' ? "%" : in.op[o]);
		(*line)[n++] = k;
	}
	return n;
}

/* Which fma of t the nofma compile has too (so the source wrote it: an
 * fmaf, or libdevice's own): a longest common subsequence of the two
 * texts' mnemonics pairs the instructions that both compiles emit alike;
 * an fma of t paired with an fma is explicit.  Per line of t; NULL when
 * not worked out (no nofma text, or texts too long for the table). */
static unsigned char *explicit_fmas(const struct ub_ptxtext *t,
				    const struct ub_ptxtext *nofma)
{
	uint32_t *la = NULL, *lb = NULL;
	char (*ma)[96] = NULL, (*mb)[96] = NULL;
	unsigned char *ex = NULL;
	uint16_t *L = NULL;
	int n = nofma ? mnemonics(t, &la, &ma) : -1, m = n < 0 ? -1 : mnemonics(nofma, &lb, &mb);
	if (n > 0 && m > 0 && n < 65535 && m < 65535 && (size_t)(n + 1) * (m + 1) <= (1u << 24) &&
	    (L = calloc((size_t)(n + 1) * (m + 1), sizeof *L)) &&
	    (ex = calloc(t->nlines + 1u, 1))) {
		for (int i = n - 1; i >= 0; i--)   /* L[i][j]: LCS of a[i..], b[j..] */
			for (int j = m - 1; j >= 0; j--) {
				uint16_t *c = &L[(size_t)i * (m + 1) + j];
				*c = !strcmp(ma[i], mb[j]) ? c[m + 2] + 1
				     : c[m + 1] > c[1] ? c[m + 1] : c[1];
			}
		for (int i = 0, j = 0; i < n && j < m;) {
			const uint16_t *c = &L[(size_t)i * (m + 1) + j];
			if (!strcmp(ma[i], mb[j])) {
				ex[la[i]] = starts(ma[i], "fma.rn.");
				i++, j++;
			} else if (c[m + 1] >= c[1]) {
				i++;
			} else {
				j++;
			}
		}
	}
	free(L);
	free(la);
	free(lb);
	free(ma);
	free(mb);
	return ex;
}

/* A split candidate for the fma at line k unless it is the source's own:
 * as a trace showed (verdict), else paired with an fma of the nofma
 * compile (ex), else when the nofma compile has as many fma at its
 * place. */
static void split_cand(const struct ub_ptxtext *t, const struct ub_ptxtext *nofma,
		       const unsigned char *ex, const unsigned char *verdict, uint32_t k,
		       const struct ub_pinsn *in, struct ub_why_cand *c, int *n, int max)
{
	const struct ub_loc *loc = &t->lines[k].loc;
	char to[96], ty[16];
	snprintf(ty, sizeof ty, "%s", ub_mn_ftype(in->mn));
	snprintf(to, sizeof to, "mul.rn.%s + add.rn.%s", ty, ty);
	if (verdict && verdict[k] != UB_FMA_UNKNOWN) {
		if (verdict[k] == UB_FMA_CONTRACTED)
			add(c, n, max, UB_EDIT_SPLIT, k, in, to, loc);
		return;
	}
	if (ex) {
		if (!ex[k])
			add(c, n, max, UB_EDIT_SPLIT, k, in, to, loc);
		return;
	}
	int here = t->has_loc && nofma && nofma->has_loc;
	int mine = here ? fmas_at(t, t, loc) : fmas_at(t, t, NULL);
	int kept = !nofma ? 0 : here ? fmas_at(nofma, t, loc) : fmas_at(nofma, t, NULL);
	if (kept >= mine && nofma)
		return;
	struct ub_why_cand *a = add(c, n, max, UB_EDIT_SPLIT, k, in, to, loc);
	if (a)
		a->maybe_explicit |= kept > 0 || !nofma;
}

static int is_fused_mul(uint32_t k, const uint32_t *fused, int nfused)
{
	for (int i = 0; i < nfused; i++)
		if (fused[i] == k)
			return 1;
	return 0;
}

int ub_why_candidates(const struct ub_ptxtext *t, const struct ub_ptxtext *nofma,
		      const unsigned char *verdict, const uint32_t *fused, int nfused,
		      struct ub_why_cand *c, int max)
{
	int n = 0, ftz = 0;
	struct ub_pinsn in;
	struct ub_loc none = { .file = -1, .at_file = -1 };
	char to[96];
	unsigned char *ex = explicit_fmas(t, nofma);
	for (uint32_t k = 1; k <= t->nlines; k++) {
		if (ub_pinsn_line(t, k, &in))
			continue;
		ftz |= ub_mn_has(in.mn, "ftz");
		if (is_fma(&in))
			split_cand(t, nofma, ex, verdict, k, &in, c, &n, max);
		else if (!ieee_of(&in, to, sizeof to))
			add(c, &n, max, UB_EDIT_IEEE, k, &in, to, &t->lines[k].loc);
		else if (starts(in.mn, "mul.") && !ub_mn_has(in.mn, "rn") &&
			 is_fused_mul(k, fused, nfused)) {
			snprintf(to, sizeof to, "mul.rn%.60s", in.mn + 3);
			add(c, &n, max, UB_EDIT_ROUND, k, &in, to, &t->lines[k].loc);
		}
	}
	if (ftz)
		add(c, &n, max, UB_EDIT_NOFTZ, 0, NULL, "every .ftz removed", &none);
	free(ex);
	return n;
}

/* mn without its .ftz part, unless the instruction has no other form. */
static void drop_ftz(char *mn)
{
	char *p = strstr(mn, ".ftz");
	if (!p || (p[4] != '.' && p[4]) ||
	    ((starts(mn, "rcp.approx") || starts(mn, "rsqrt.approx")) &&
	     !strcmp(ub_mn_ftype(mn) ? ub_mn_ftype(mn) : "", "f64")))
		return;
	memmove(p, p + 4, strlen(p + 4) + 1);
}

/* The register type that holds values of float type ty. */
static const char *reg_type(const char *ty)
{
	return !strcmp(ty, "f32") ? ".f32" : !strcmp(ty, "f64") ? ".f64"
	       : strstr(ty, "x2") ? ".b32" : ".b16";
}

/* Appends printf-style text to the growing buffer *b (*len used, *cap). */
static int put(char **b, size_t *len, size_t *cap, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int put(char **b, size_t *len, size_t *cap, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int w = vsnprintf(*b + *len, *cap - *len, fmt, ap);
		va_end(ap);
		if (w < 0)
			return -1;
		if ((size_t)w < *cap - *len) {
			*len += (size_t)w;
			return 0;
		}
		char *nb = realloc(*b, 2 * *cap + (size_t)w);
		if (!nb)
			return -1;
		*b = nb;
		*cap = 2 * *cap + (size_t)w;
	}
}

static int put_ops(char **b, size_t *len, size_t *cap, const struct ub_pinsn *in,
		   int from)
{
	for (int k = from; k < in->nops; k++)
		if (put(b, len, cap, "%s%s", k > from ? ", " : " ", in->op[k]))
			return -1;
	return put(b, len, cap, ";");
}

/* Line k rewritten by candidate c (NULL: only noftz), noftz: drop .ftz. */
static int rewrite(char **b, size_t *len, size_t *cap, uint32_t k,
		   const struct ub_pinsn *in0, const struct ub_why_cand *c, int noftz)
{
	struct ub_pinsn in = *in0;
	const char *g = in.guard[0] ? " " : "";
	if (c && c->kind == UB_EDIT_SPLIT) {
		const char *ty = ub_mn_ftype(in.mn);
		int ftz = ub_mn_has(in.mn, "ftz") && !noftz;
		int sat = ub_mn_has(in.mn, "sat");
		return put(b, len, cap, "\t%s.reg %s %%ubw%u; %s%smul.rn%s.%s %%ubw%u, %s, %s; "
			   "%s%sadd.rn%s%s.%s %s, %%ubw%u, %s;%s", in.open ? "{ " : "",
			   reg_type(ty), k, in.guard, g, ftz ? ".ftz" : "", ty, k, in.op[1],
			   in.op[2], in.guard, g, ftz ? ".ftz" : "", sat ? ".sat" : "", ty,
			   in.op[0], k, in.op[3], in.close ? " }" : "");
	}
	if (c)   /* round and ieee: another mnemonic, the same operands */
		snprintf(in.mn, sizeof in.mn, "%.63s", c->to);
	if (noftz)
		drop_ftz(in.mn);
	if (put(b, len, cap, "\t%s%s%s%s", in.open ? "{ " : "", in.guard, g, in.mn) ||
	    put_ops(b, len, cap, &in, 0))
		return -1;
	return in.close ? put(b, len, cap, " }") : 0;
}

int ub_why_variant(const struct ub_ptxtext *t, const struct ub_why_cand *c,
		   const unsigned char *on, int n, char **out,
		   struct ub_error *err)
{
	size_t len = 0, cap = strlen(t->text) + 4096;
	char *b = malloc(cap);
	int noftz = 0, s = b ? 0 : -1;
	for (int i = 0; i < n; i++)
		noftz |= on[i] && c[i].kind == UB_EDIT_NOFTZ;
	for (uint32_t k = 1; !s && k <= t->nlines; k++) {
		const struct ub_why_cand *ck = NULL;
		struct ub_pinsn in;
		for (int i = 0; i < n; i++)
			for (int j = 0; on[i] && j < c[i].nlines; j++)
				if (c[i].line[j] == k)
					ck = &c[i];
		int parsed = !ub_pinsn_line(t, k, &in);
		if (ck && !parsed) {
			free(b);
			return ub_fail(err, UB_USAGE, "ptx:%u: cannot rewrite the "
				       "instruction", k);
		}
		if (parsed && (ck || (noftz && ub_mn_has(in.mn, "ftz"))))
			s = rewrite(&b, &len, &cap, k, &in, ck, noftz);
		else
			s = put(&b, &len, &cap, "%.*s", (int)t->lines[k].len,
				t->text + t->lines[k].off);
		if (!s && k < t->nlines)
			s = put(&b, &len, &cap, "\n");
	}
	if (s) {
		free(b);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	*out = b;
	return 0;
}

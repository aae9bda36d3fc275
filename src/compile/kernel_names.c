/* kernel_names.c — a --kernel's parameter names, from its declaration in
 * the source (kernel_find.h): the compiler gives the types, only the
 * source has the names that --args binds.
 *
 * The declaration is the one of the kernel's name and parameter count, a
 * definition before a prototype, in the file or else in a header it
 * includes with "" (beside it, or in a -I directory).  Overloads of one
 * name and count are told apart by their types as written against the
 * demangler's (qualifiers and blanks left out); if that does not decide,
 * overloads that name their parameters alike need no deciding. */
#include "kernel_find.h"
#include "paths.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A type with const, volatile, restrict, struct and blanks left out. */
static void bare(const char *s, char *buf, size_t len)
{
	static const char *const drop[] = { "const", "volatile", "__restrict__",
					    "__restrict", "restrict", "struct", NULL };
	size_t n = 0;
	while (*s && n + 1 < len) {
		if (isalpha((unsigned char)*s) || *s == '_') {
			size_t w = 0;
			while (isalnum((unsigned char)s[w]) || s[w] == '_')
				w++;
			int skip = 0;
			for (int i = 0; drop[i] && !skip; i++)
				skip = strlen(drop[i]) == w && !strncmp(s, drop[i], w);
			for (size_t i = 0; !skip && i < w && n + 1 < len; i++)
				buf[n++] = s[i];
			s += w;
		} else {
			if (!isspace((unsigned char)*s))
				buf[n++] = *s;
			s++;
		}
	}
	buf[n] = '\0';
}

/* Whether declaration d's types are the demangler's `types`. */
static int types_match(const struct ub_kdecl *d, const char *types)
{
	char want[1024], have[1024] = "", t[128];
	bare(types, want, sizeof want);
	for (int i = 0; i < d->nparams; i++) {
		bare(d->params[i].type, t, sizeof t);
		snprintf(have + strlen(have), sizeof have - strlen(have), "%s%s",
			 i ? "," : "", t);
	}
	return !strcmp(want, have);
}

static int same_names(const struct ub_kdecl *a, const struct ub_kdecl *b)
{
	for (int i = 0; i < a->nparams; i++)
		if (strcmp(a->params[i].name, b->params[i].name))
			return 0;
	return 1;
}

/* The declaration of k among d: 0 none, 1 found (*pick), -1 ambiguous. */
static int pick_decl(const struct ub_kdecl *d, int nd, const struct ub_kfound *k,
		     const struct ub_kdecl **pick)
{
	const struct ub_kdecl *c[UB_KSIG_MAX_DECLS];
	int nc = 0, typed = -1, ntyped = 0, alike = 1;
	for (int i = 0; i < nd; i++)
		if (!strcmp(d[i].name, k->base) && d[i].nparams == k->nparams)
			c[nc++] = &d[i];
	if (!nc)
		return 0;
	const struct ub_kdecl *named = c[0];
	for (int i = 0; i < nc && named->unnamed; i++)
		named = c[i];
	*pick = c[0];
	for (int i = 0; i < nc; i++) {
		/* a definition before a prototype, a named one before not */
		if ((c[i]->has_body && !(*pick)->has_body) ||
		    (!(*pick)->has_body && (*pick)->unnamed && !c[i]->unnamed))
			*pick = c[i];
		alike &= c[i]->unnamed || same_names(named, c[i]);
		if (!k->extern_c && types_match(c[i], k->types)) {
			ntyped++;
			if (typed < 0 || (!c[typed]->has_body && c[i]->has_body))
				typed = i;
		}
	}
	if (typed >= 0 && (ntyped == 1 || alike))
		*pick = c[typed];
	return ntyped == 1 || alike ? 1 : -1;
}

/* The headers src includes with "" that exist beside the file or in a -I
 * directory, scanned in turn until k is found there. */
static int in_headers(const char *src, const struct ub_nvcc_unit *u,
		      const struct ub_kfound *k, struct ub_kdecl *d,
		      const struct ub_kdecl **pick, char *where, size_t wlen)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%.4000s", u->abspath);
	*(strrchr(dir, '/') ? strrchr(dir, '/') : dir) = '\0';
	for (const char *p = strstr(src, "#include"); p; p = strstr(p + 8, "#include")) {
		const char *q = p + 8;
		while (*q == ' ' || *q == '\t')
			q++;
		if (*q != '"')
			continue;
		size_t l = strcspn(q + 1, "\"\n");
		for (int i = -1; i < u->nflags; i++) {
			char path[8300], *text;
			const char *base = i < 0 ? dir : u->flags[i] + 2;
			struct ub_error e;
			int nd = 0;
			if (i >= 0 && strncmp(u->flags[i], "-I", 2))
				continue;
			snprintf(path, sizeof path, "%s/%.*s", base, (int)l, q + 1);
			if (ub_read_file(path, &text, &e))
				continue;
			int r = ub_ksig_scan(text, path, d, UB_KSIG_MAX_DECLS, &nd, &e) ? 0
				: pick_decl(d, nd, k, pick);
			free(text);
			if (r) {
				snprintf(where, wlen, "%.4000s", path);
				return r;
			}
			break;   /* found the header: not the kernel */
		}
	}
	return 0;
}

int ub_kernel_names(const struct ub_kdecl *d, int nd,
		    const struct ub_nvcc_unit *u, struct ub_kfound *k,
		    struct ub_error *err)
{
	const struct ub_kdecl *pick = NULL;
	struct ub_kdecl *hd = calloc(UB_KSIG_MAX_DECLS, sizeof *hd);
	char where[4096], *src = NULL;
	snprintf(where, sizeof where, "%s", u->file);
	int r = pick_decl(d, nd, k, &pick);
	struct ub_error e;
	if (!r && hd && !ub_read_file(u->abspath, &src, &e))
		r = in_headers(src, u, k, hd, &pick, where, sizeof where);
	free(src);
	int s = 0;
	if (!hd)
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	else if (r == 0)
		s = ub_fail(err, UB_USAGE, "%s: no declaration of %s with %d parameters "
			    "in the file or a header it includes with \"\": ulpbench "
			    "reads the parameters' names there", u->file, k->base,
			    k->nparams);
	else if (r < 0)
		s = ub_fail(err, UB_USAGE, "%s: several declarations of %s with %d "
			    "parameters name them differently: cannot tell which is "
			    "%s", u->file, k->base, k->nparams, k->shown);
	else if (pick->unnamed)
		s = ub_fail(err, UB_USAGE, "%s:%d: parameter %d of %s has no name: "
			    "ulpbench binds parameters by name", where, pick->line,
			    pick->unnamed, k->base);
	for (int i = 0; !s && i < k->nparams; i++) {
		snprintf(k->params[i].name, sizeof k->params[i].name, "%s",
			 pick->params[i].name);
		snprintf(k->params[i].type, sizeof k->params[i].type, "%s",
			 pick->params[i].type);
	}
	if (!s)
		k->line = pick->line;
	free(hd);
	return s;
}

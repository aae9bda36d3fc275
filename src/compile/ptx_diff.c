/* ptx_diff.c — the first differing instruction of two PTX texts
 * (ptx_diff.h).
 *
 * A statement is the text up to its ';' (or a label's ':'), comments
 * removed; an instruction is a statement inside a function body ('{' seen)
 * that does not start with '.', i.e. no directive such as .reg or .loc
 * (nor a variable's initializer, "= {1, 2}").
 * Two instructions are the same when their normalized forms are: runs of
 * blanks as one space, and the digits after '%' or '$' in a name dropped
 * (%f12 and %f7, $L__BB0_3 and $L__BB0_5 are the same), since toolkits
 * number registers and labels differently for the same computation. */
#include "ptx_diff.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct cursor {
	const char *p;
	int depth;   /* braces open */
};

/* Skips blanks and comments. */
static const char *skip(const char *p)
{
	for (;;) {
		while (*p && isspace((unsigned char)*p))
			p++;
		if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
		} else if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");
			p = e ? e + 2 : p + strlen(p);
		} else {
			return p;
		}
	}
}

/* The next instruction of c into raw (as written, blanks trimmed) and
 * norm (normalized); 0 at the end of the text. */
static int next_insn(struct cursor *c, char *raw, char *norm, size_t len)
{
	for (;;) {
		const char *p = skip(c->p);
		if (!*p) {
			c->p = p;
			return 0;
		}
		if (*p == '{' || *p == '}') {
			c->depth += *p == '{' ? 1 : -1;
			c->p = p + 1;
			continue;
		}
		size_t r = 0, n = 0;
		int space = 0, label = 0;
		while (*p && *p != ';') {
			/* a body's brace ends a directive (.entry k(...) {); an
			 * instruction's braces are its vector operands */
			if ((*p == '{' || *p == '}') && (r == 0 || raw[0] == '.') &&
			    !memchr(raw, '=', r))
				break;   /* an initializer's braces stay in its directive */
			if (p[0] == '/' && (p[1] == '/' || p[1] == '*')) {
				p = skip(p);
				space = 1;
				continue;
			}
			if (*p == ':' && c->depth > 0 && r && !memchr(raw, ' ', r)) {
				label = 1;   /* $L__BB0_2: */
				p++;
				break;
			}
			if (isspace((unsigned char)*p)) {
				space = 1;
				p++;
				continue;
			}
			if (space && r && r + 1 < len)
				raw[r++] = ' ';
			if (space && n && n + 1 < len)
				norm[n++] = ' ';
			space = 0;
			if (r + 1 < len)
				raw[r++] = *p;
			if (n + 1 < len)
				norm[n++] = *p;
			if ((*p == '%' || *p == '$') && p[1]) {
				/* the name's letters stay, its numbers go */
				p++;
				while (*p && (isalnum((unsigned char)*p) || *p == '_')) {
					if (r + 1 < len)
						raw[r++] = *p;
					if (!isdigit((unsigned char)*p) && n + 1 < len)
						norm[n++] = *p;
					p++;
				}
				continue;
			}
			p++;
		}
		if (*p == ';')
			p++;
		c->p = p;
		raw[r] = norm[n] = '\0';
		if (!label && c->depth > 0 && r && raw[0] != '.')
			return 1;
	}
}

int ub_ptx_first_diff(const char *a, const char *b, char *out, size_t len)
{
	struct cursor ca = { a, 0 }, cb = { b, 0 };
	char ra[200], na[200], rb[200], nb[200];
	for (int k = 1;; k++) {
		int ha = next_insn(&ca, ra, na, sizeof ra), hb = next_insn(&cb, rb, nb, sizeof rb);
		if (!ha && !hb)
			return 0;
		if (ha && hb && !strcmp(na, nb))
			continue;
		snprintf(out, len, "instruction %d: %s%s vs %s%s", k, ha ? ra : "(end)",
			 ha ? ";" : "", hb ? rb : "(end)", hb ? ";" : "");
		return 1;
	}
}

/* The instructions of a text, as written and normalized. */
struct insns {
	int n;
	char (*raw)[200], (*norm)[200];
};

static int insns_of(const char *text, struct insns *v)
{
	struct cursor c = { text, 0 };
	char raw[200], norm[200];
	v->n = 0;
	v->raw = malloc(UB_PTX_DIFF_MAX * sizeof *v->raw);
	v->norm = malloc(UB_PTX_DIFF_MAX * sizeof *v->norm);
	if (!v->raw || !v->norm)
		return -1;
	while (next_insn(&c, raw, norm, sizeof raw)) {
		if (v->n == UB_PTX_DIFF_MAX)
			return -1;
		memcpy(v->raw[v->n], raw, sizeof raw);
		memcpy(v->norm[v->n++], norm, sizeof norm);
	}
	return 0;
}

int ub_ptx_diff_print(FILE *f, const char *a, const char *b, const char *indent,
		      int max)
{
	struct insns x, y;
	int ra = insns_of(a, &x), rb = insns_of(b, &y); /* both, always */
	int ok = ra == 0 && rb == 0, shown = 0, changed = 0;
	/* l[i][j]: the longest common subsequence of x[i..] and y[j..] */
	int (*l)[UB_PTX_DIFF_MAX + 1] = ok ? calloc((size_t)x.n + 1, sizeof *l) : NULL;
	if (!l)
		ok = 0;
	for (int i = x.n - 1; ok && i >= 0; i--)
		for (int j = y.n - 1; j >= 0; j--)
			l[i][j] = !strcmp(x.norm[i], y.norm[j]) ? l[i + 1][j + 1] + 1 :
				  l[i + 1][j] > l[i][j + 1] ? l[i + 1][j] : l[i][j + 1];
	for (int i = 0, j = 0; ok && (i < x.n || j < y.n);) {
		if (i < x.n && j < y.n && !strcmp(x.norm[i], y.norm[j])) {
			i++, j++;
			continue;
		}
		changed++;
		int del = j == y.n || (i < x.n && l[i + 1][j] >= l[i][j + 1]);
		if (shown++ < max)
			fprintf(f, "%s%c %4d: %s;\n", indent, del ? '-' : '+', del ? i + 1 : j + 1,
				del ? x.raw[i] : y.raw[j]);
		if (del)
			i++;
		else
			j++;
	}
	if (ok && shown > max)
		fprintf(f, "%s  (%d more lines)\n", indent, shown - max);
	free(l);
	free(x.raw), free(x.norm), free(y.raw), free(y.norm);
	return ok ? changed : -1;
}

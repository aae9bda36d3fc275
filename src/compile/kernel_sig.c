/* kernel_sig.c — the __global__ declarations of a CUDA source and their
 * parameters' names (see kernel_sig.h).  Tokens first (identifiers,
 * numbers, strings, single punctuation, '::', and whole preprocessor
 * lines), then a walk that tracks extern "C" { } blocks and reads each
 * __global__ declaration. */
#include "kernel_sig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum tk { T_ID, T_NUM, T_STR, T_PUNCT, T_PP };

struct tok {
	enum tk kind;
	const char *s;
	int len, line;
};

struct toks {
	struct tok *t;
	int n, cap;
};

static int push(struct toks *v, enum tk kind, const char *s, int len, int line)
{
	if (v->n == v->cap) {
		int cap = v->cap ? 2 * v->cap : 256;
		struct tok *t = realloc(v->t, (size_t)cap * sizeof *t);
		if (!t)
			return -1;
		v->t = t;
		v->cap = cap;
	}
	v->t[v->n++] = (struct tok){kind, s, len, line};
	return 0;
}

/* End of a quoted literal starting at p (the opening quote); an
 * unterminated one ends at the end of its line. */
static const char *quoted(const char *p)
{
	char q = *p++;
	for (; *p && *p != q && *p != '\n'; p++)
		if (*p == '\\' && p[1] && p[1] != '\n')
			p++;
	return *p == q ? p + 1 : p;
}

/* End of a preprocessor line (backslash continuations included). */
static const char *pp_line(const char *p, int *line)
{
	for (; *p && *p != '\n'; p++)
		if (*p == '\\' && p[1] == '\n') {
			p++;
			(*line)++;
		}
	return p;
}

static int tokenize(const char *p, struct toks *v)
{
	int line = 1, bol = 1, st = 0;
	while (*p && !st) {
		const char *s = p;
		int l0 = line;
		if (*p == '\n') {
			line++, bol = 1, p++;
			continue;
		}
		if (isspace((unsigned char)*p)) {
			p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				p++;
			continue;
		}
		if (p[0] == '/' && p[1] == '*') {
			for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
				line += *p == '\n';
			p += *p ? 2 : 0;
			continue;
		}
		if (*p == '#' && bol) {
			p = pp_line(p, &line);
			st = push(v, T_PP, s, (int)(p - s), l0);
			continue;
		}
		bol = 0;
		if (isalpha((unsigned char)*p) || *p == '_') {
			while (isalnum((unsigned char)*p) || *p == '_')
				p++;
			st = push(v, T_ID, s, (int)(p - s), l0);
		} else if (isdigit((unsigned char)*p) || (*p == '.' && isdigit((unsigned char)p[1]))) {
			for (p++; isalnum((unsigned char)*p) || *p == '.' ||
				  ((*p == '+' || *p == '-') && strchr("eEpP", p[-1])); p++)
				;
			st = push(v, T_NUM, s, (int)(p - s), l0);
		} else if (*p == '"' || *p == '\'') {
			p = quoted(p);
			st = push(v, T_STR, s, (int)(p - s), l0);
		} else {
			p += p[0] == ':' && p[1] == ':' ? 2 : 1;
			st = push(v, T_PUNCT, s, (int)(p - s), l0);
		}
	}
	return st;
}

static int is(const struct tok *t, const char *s)
{
	return t->len == (int)strlen(s) && strncmp(t->s, s, (size_t)t->len) == 0;
}

/* Index of the token that closes the bracket at i, or n. */
static int closing(const struct toks *v, int i)
{
	char open = v->t[i].s[0], close = open == '(' ? ')' : open == '[' ? ']' : '}';
	int depth = 0;
	for (; i < v->n; i++) {
		if (v->t[i].kind != T_PUNCT)
			continue;
		depth += v->t[i].s[0] == open;
		depth -= v->t[i].s[0] == close;
		if (depth == 0)
			return i;
	}
	return v->n;
}

/* Qualifiers and the words of built-in types: never a parameter name. */
static const char *const type_words[] = {
	"const", "volatile", "__restrict__", "__restrict", "restrict", "unsigned",
	"signed", "long", "short", "int", "char", "float", "double", "bool",
	"void", "__half", "half", "__nv_bfloat16", "nv_bfloat16", "size_t",
	"ssize_t", "ptrdiff_t", "int64_t", "uint64_t", "int32_t", "uint32_t",
	"std", "struct", NULL};

static int listed(const char *const *list, const struct tok *t)
{
	for (; *list; list++)
		if (is(t, *list))
			return 1;
	return 0;
}

static void append(char *buf, size_t len, const struct tok *t)
{
	size_t used = strlen(buf);
	int glue = is(t, "*") || is(t, "&") || is(t, "::") || is(t, "<") ||
		   is(t, ">") || is(t, ",") ||
		   (used && (buf[used - 1] == ':' || buf[used - 1] == '<'));
	snprintf(buf + used, len - used, "%s%.*s", used && !glue ? " " : "",
		 t->len, t->s);
}

/* Tokens [a, b) of one parameter (a default value cut off): its name (""
 * when it has none) and its type as written. */
static void param(const struct toks *v, int a, int b, struct ub_kdecl_param *p)
{
	int name = -1, depth = 0;
	memset(p, 0, sizeof *p);
	for (int i = a; i < b; i++) {
		depth += is(&v->t[i], "<") - is(&v->t[i], ">");
		if (depth == 0 && is(&v->t[i], "="))
			b = i;
	}
	int end = b;
	if (b > a && is(&v->t[b - 1], "]")) { /* T name[] is a pointer */
		while (b > a && !is(&v->t[b - 1], "["))
			b--;
		b--;
	}
	if (b > a && v->t[b - 1].kind == T_ID && !listed(type_words, &v->t[b - 1]) &&
	    b - 1 > a && !is(&v->t[b - 2], "::"))
		name = b - 1;
	if (name >= 0)
		snprintf(p->name, sizeof p->name, "%.*s", v->t[name].len, v->t[name].s);
	for (int i = a; i < (name >= 0 ? name : b); i++)
		append(p->type, sizeof p->type, &v->t[i]);
	if (end > b)
		snprintf(p->type + strlen(p->type), sizeof p->type - strlen(p->type), "*");
}

/* The parameters between the parentheses at lp and rp; -1 if more than
 * UB_KSIG_MAX_PARAMS. */
static int params(const struct toks *v, int lp, int rp, struct ub_kdecl *d)
{
	int a = lp + 1, depth = 0;
	d->nparams = 0;
	if (rp == lp + 1 || (rp == lp + 2 && is(&v->t[lp + 1], "void")))
		return 0;
	for (int i = lp + 1; i <= rp; i++) {
		const struct tok *t = &v->t[i];
		if (t->kind == T_PUNCT && strchr("([<{", t->s[0]) && t->len == 1)
			depth++;
		else if (t->kind == T_PUNCT && strchr(")]>}", t->s[0]) && t->len == 1 && i < rp)
			depth--;
		if (i < rp && !(depth == 0 && is(t, ",")))
			continue;
		if (d->nparams == UB_KSIG_MAX_PARAMS)
			return -1;
		param(v, a, i, &d->params[d->nparams]);
		if (!d->params[d->nparams].name[0] && !d->unnamed)
			d->unnamed = d->nparams + 1;
		d->nparams++;
		a = i + 1;
	}
	return 0;
}

/* Whether the statement before token g (back to ; { } or the start) says
 * extern "C" (*c) or template (*tmpl). */
static void prefix(const struct toks *v, int g, int *c, int *tmpl)
{
	int depth = 0;
	*c = *tmpl = 0;
	for (int i = g - 1; i >= 0; i--) {
		const struct tok *t = &v->t[i];
		depth += is(t, ">") - is(t, "<");   /* template <class T = int> */
		if (depth == 0 && (is(t, ";") || is(t, "{") || is(t, "}") || t->kind == T_PP))
			break;
		*tmpl |= is(t, "template");
		*c |= is(t, "extern") && i + 1 < g && is(&v->t[i + 1], "\"C\"");
	}
}

/* The kernel declared by the __global__ at token g: its name and the
 * parentheses of its parameters; 0 when g starts no declaration. */
static int declaration(const struct toks *v, int g, int *name, int *lp, int *rp)
{
	for (int i = g + 1; i + 1 < v->n; i++) {
		const struct tok *t = &v->t[i];
		if (is(t, ";") || is(t, "{") || is(t, "}"))
			return 0;
		if (t->kind != T_ID || !is(&v->t[i + 1], "("))
			continue;
		if (is(t, "__launch_bounds__") || is(t, "__attribute__") ||
		    is(t, "__declspec") || is(t, "alignas") || is(t, "__align__") ||
		    is(t, "__cluster_dims__")) {
			i = closing(v, i + 1);
			continue;
		}
		*name = i;
		*lp = i + 1;
		*rp = closing(v, i + 1);
		return *rp < v->n;
	}
	return 0;
}

/* Every __global__ declaration, with the extern "C" blocks around it. */
static int scan(const struct toks *v, struct ub_kdecl *out, int max, int *n)
{
	int depth = 0, cblock[64] = {0};
	*n = 0;
	for (int i = 0; i < v->n; i++) {
		const struct tok *t = &v->t[i];
		int name, lp, rp;
		if (is(t, "{") && depth < 63) {
			depth++;
			cblock[depth] = cblock[depth - 1] ||
					(i >= 2 && is(&v->t[i - 1], "\"C\"") &&
					 is(&v->t[i - 2], "extern"));
		} else if (is(t, "}") && depth > 0) {
			depth--;
		} else if (is(t, "__global__") && *n < max &&
			   declaration(v, i, &name, &lp, &rp)) {
			struct ub_kdecl *d = &out[*n];
			memset(d, 0, sizeof *d);
			snprintf(d->name, sizeof d->name, "%.*s", v->t[name].len, v->t[name].s);
			d->line = v->t[name].line;
			prefix(v, i, &d->extern_c, &d->is_template);
			d->extern_c |= cblock[depth];
			d->has_body = rp + 1 < v->n && is(&v->t[rp + 1], "{");
			if (params(v, lp, rp, d))
				return -1;
			++*n;
		}
	}
	return 0;
}

int ub_ksig_scan(const char *src, const char *file, struct ub_kdecl *out,
		 int max, int *n, struct ub_error *err)
{
	struct toks v = {0};
	int st = tokenize(src, &v) ? ub_fail(err, UB_RUNTIME, "out of memory") : 0;
	*n = 0;
	if (!st && scan(&v, out, max, n))
		st = ub_fail(err, UB_USAGE, "%s: a kernel with more than %d parameters",
			     file, UB_KSIG_MAX_PARAMS);
	free(v.t);
	return st;
}

int ub_ksig_uses_macros(const char *src)
{
	static const char *const macros[] = {"UB_MUL", "UB_ADD", "UB_SUB", "UB_DIV", NULL};
	struct toks v = {0};
	int inc = 0, uses = 0;
	if (tokenize(src, &v) == 0)
		for (int i = 0; i < v.n; i++) {
			const struct tok *t = &v.t[i];
			if (t->kind == T_PP) {
				char line[256];
				snprintf(line, sizeof line, "%.*s", t->len, t->s);
				inc |= strstr(line, "include") && strstr(line, "ulpbench.h");
			}
			uses |= t->kind == T_ID && listed(macros, t);
		}
	free(v.t);
	return inc && uses;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Whether the source tests the macro name: an identifier, or a word of a
 * preprocessor line (#ifdef NAME, #if defined(NAME)). */
int ub_ksig_mentions(const char *src, const char *name)
{
	struct toks v = {0};
	size_t len = strlen(name);
	int found = 0;
	if (tokenize(src, &v) == 0)
		for (int i = 0; i < v.n && !found; i++) {
			const struct tok *t = &v.t[i];
			if (t->kind == T_ID)
				found = is(t, name);
			for (int k = 0; t->kind == T_PP && !found &&
					k + (int)len <= t->len; k++)
				found = strncmp(t->s + k, name, len) == 0 &&
					(k == 0 || !ident_char(t->s[k - 1])) &&
					(k + (int)len == t->len ||
					 !ident_char(t->s[k + len]));
		}
	free(v.t);
	return found;
}

/* The definition of host function `name` at file scope (outside every
 * brace but extern "C" { } and namespaces): the identifier followed by
 * parentheses and then a body, so that calls and prototypes do not count. */
int ub_ksig_find_function(const char *src, const char *file, const char *name,
			  struct ub_kdecl *d, struct ub_error *err)
{
	struct toks v = {0};
	int st = tokenize(src, &v) ? ub_fail(err, UB_RUNTIME, "out of memory") : 0, found = 0;
	memset(d, 0, sizeof *d);
	for (int i = 0, depth = 0; !st && !found && i + 1 < v.n; i++) {
		const struct tok *t = &v.t[i];
		if (is(t, "{")) {   /* namespaces and extern "C" blocks stay open */
			int open = i >= 1 && (is(&v.t[i - 1], "\"C\"") ||
					      (i >= 2 && is(&v.t[i - 2], "namespace")) ||
					      is(&v.t[i - 1], "namespace"));
			if (!open)
				i = closing(&v, i);
			else
				depth++;
			continue;
		}
		if (is(t, "}") && depth > 0)
			depth--;
		if (t->kind != T_ID || !is(t, name) || !is(&v.t[i + 1], "("))
			continue;
		int rp = closing(&v, i + 1);
		if (rp + 1 >= v.n || !is(&v.t[rp + 1], "{"))
			continue;
		snprintf(d->name, sizeof d->name, "%s", name);
		d->line = t->line;
		d->has_body = 1;
		prefix(&v, i, &d->extern_c, &d->is_template);
		if (params(&v, i + 1, rp, d))
			st = ub_fail(err, UB_USAGE, "%s: %s takes more than %d parameters", file,
				     name, UB_KSIG_MAX_PARAMS);
		found = 1;
	}
	if (!st && !found)
		st = ub_fail(err, UB_USAGE, "%s: no host function '%s' defined at file scope "
			     "(--launcher names the function that launches the kernels)", file,
			     name);
	free(v.t);
	return st;
}

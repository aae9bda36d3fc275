/* kernel_sig.c — a kernel's parameter list from its CUDA source (see
 * kernel_sig.h).  Tokens first (identifiers, numbers, strings, single
 * punctuation, '::', and whole preprocessor lines), then a walk that
 * tracks extern "C" { } blocks and reads each __global__ declaration. */
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
static const char *const qualifiers[] = {
	"const", "volatile", "__restrict__", "__restrict", "restrict", "std",
	"struct", NULL};

static int listed(const char *const *list, const struct tok *t)
{
	for (; *list; list++)
		if (is(t, *list))
			return 1;
	return 0;
}

/* The element dtype of a pointer whose base type is `base`. */
static int element_dtype(const char *base)
{
	static const struct { const char *c; int dt; } el[] = {
		{"float", UB_F32}, {"double", UB_F64}, {"__half", UB_F16},
		{"half", UB_F16}, {"__nv_bfloat16", UB_BF16},
		{"nv_bfloat16", UB_BF16}};
	for (size_t i = 0; i < sizeof el / sizeof el[0]; i++)
		if (strcmp(base, el[i].c) == 0)
			return el[i].dt;
	return -1;
}

/* Width of an integer base type, 0 if it is none. */
static int int_bits(const char *base)
{
	static const struct { const char *c; int bits; } ints[] = {
		{"int", 32}, {"unsigned", 32}, {"unsigned int", 32},
		{"signed", 32}, {"signed int", 32}, {"int32_t", 32},
		{"uint32_t", 32}, {"long", 64}, {"long int", 64},
		{"unsigned long", 64}, {"long long", 64}, {"long long int", 64},
		{"unsigned long long", 64}, {"unsigned long long int", 64},
		{"size_t", 64}, {"ssize_t", 64}, {"ptrdiff_t", 64},
		{"int64_t", 64}, {"uint64_t", 64}};
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		if (strcmp(base, ints[i].c) == 0)
			return ints[i].bits;
	return 0;
}

static void append(char *buf, size_t len, const struct tok *t)
{
	size_t used = strlen(buf);
	int glue = is(t, "*") || is(t, "::") || (used && buf[used - 1] == ':');
	snprintf(buf + used, len - used, "%s%.*s", used && !glue ? " " : "",
		 t->len, t->s);
}

/* Tokens [a, b) of one parameter (a default value cut off). */
static int param(const struct toks *v, int a, int b, struct ub_kparam *p,
		 const char *file, const char *entry, int k, struct ub_error *err)
{
	char base[96] = "";
	int stars = 0, ref = 0, name = -1, cbefore = 0;
	memset(p, 0, sizeof *p);
	for (int i = a; i < b; i++)
		if (is(&v->t[i], "="))
			b = i;
	if (b > a && is(&v->t[b - 1], "]")) { /* T name[] is a pointer */
		while (b > a && !is(&v->t[b - 1], "["))
			b--;
		b--;
		stars++;
	}
	if (b > a && v->t[b - 1].kind == T_ID && !listed(type_words, &v->t[b - 1]))
		name = b - 1;
	if (name < 0)
		return ub_fail(err, UB_USAGE, "%s:%d: parameter %d of %s has no "
			       "name: ulpbench binds parameters by name", file,
			       b > a ? v->t[b - 1].line : v->t[a].line, k + 1, entry);
	snprintf(p->name, sizeof p->name, "%.*s", v->t[name].len, v->t[name].s);
	for (int i = a; i < name; i++) {
		const struct tok *t = &v->t[i];
		append(p->type, sizeof p->type, t);
		stars += is(t, "*");
		ref += is(t, "&");
		cbefore |= stars == 0 && is(t, "const");
		if (t->kind == T_ID && !listed(qualifiers, t))
			append(base, sizeof base, t);
	}
	if (stars == 1 && !ref) {
		p->kind = UB_KP_ARRAY;
		p->dtype = element_dtype(base);
		p->is_const = cbefore;
	} else if (stars == 0 && !ref && int_bits(base)) {
		p->kind = UB_KP_INT;
		p->bits = int_bits(base);
	} else {
		p->kind = UB_KP_OTHER;
	}
	return 0;
}

/* The parameters between the parentheses at lp and rp. */
static int params(const struct toks *v, int lp, int rp, struct ub_ksig *sig,
		  const char *file, struct ub_error *err)
{
	int a = lp + 1, depth = 0;
	sig->nparams = 0;
	if (rp == lp + 1 || (rp == lp + 2 && is(&v->t[lp + 1], "void")))
		return 0;
	for (int i = lp + 1; i <= rp; i++) {
		const struct tok *t = &v->t[i];
		if (t->kind == T_PUNCT && strchr("([<", t->s[0]) && t->len == 1)
			depth++;
		else if (t->kind == T_PUNCT && strchr(")]>", t->s[0]) && t->len == 1 && i < rp)
			depth--;
		if (i < rp && !(depth == 0 && is(t, ",")))
			continue;
		if (sig->nparams == UB_KSIG_MAX_PARAMS)
			return ub_fail(err, UB_USAGE, "%s:%d: %s has more than %d "
				       "parameters", file, sig->line, sig->entry,
				       UB_KSIG_MAX_PARAMS);
		int st = param(v, a, i, &sig->params[sig->nparams], file,
			       sig->entry, sig->nparams, err);
		if (st)
			return st;
		sig->nparams++;
		a = i + 1;
	}
	return 0;
}

/* Whether the statement before token g (back to ; { } or the start) says
 * extern "C" (*c) or template (*tmpl). */
static void prefix(const struct toks *v, int g, int *c, int *tmpl)
{
	*c = *tmpl = 0;
	for (int i = g - 1; i >= 0; i--) {
		const struct tok *t = &v->t[i];
		if (is(t, ";") || is(t, "{") || is(t, "}") || t->kind == T_PP)
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
		    is(t, "__declspec") || is(t, "alignas")) {
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

struct found {
	int name, lp, rp, body, extern_c, tmpl;
};

/* Every __global__ declaration, with the extern "C" blocks around it. */
static int scan(const struct toks *v, struct found *f, int max)
{
	int nf = 0, depth = 0, cblock[64] = {0};
	for (int i = 0; i < v->n; i++) {
		const struct tok *t = &v->t[i];
		if (is(t, "{") && depth < 63) {
			depth++;
			cblock[depth] = cblock[depth - 1] ||
					(i >= 2 && is(&v->t[i - 1], "\"C\"") &&
					 is(&v->t[i - 2], "extern"));
		} else if (is(t, "}") && depth > 0) {
			depth--;
		} else if (is(t, "__global__") && nf < max) {
			struct found *x = &f[nf];
			if (!declaration(v, i, &x->name, &x->lp, &x->rp))
				continue;
			prefix(v, i, &x->extern_c, &x->tmpl);
			x->extern_c |= cblock[depth];
			x->body = x->rp + 1 < v->n && is(&v->t[x->rp + 1], "{");
			nf++;
		}
	}
	return nf;
}

static int same(const struct tok *a, const struct tok *b)
{
	return a->len == b->len && strncmp(a->s, b->s, (size_t)a->len) == 0;
}

/* "a, b" (each kernel once, prototypes and definitions alike). */
static void names(const struct toks *v, const struct found *f, int nf,
		  char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int i = 0; i < nf && used < len; i++) {
		int seen = 0;
		for (int j = 0; j < i; j++)
			seen |= same(&v->t[f[j].name], &v->t[f[i].name]);
		if (!seen)
			used += (size_t)snprintf(buf + used, len - used, "%s%.*s",
						 used ? ", " : "", v->t[f[i].name].len,
						 v->t[f[i].name].s);
	}
}

/* The declaration of entry (NULL: the only kernel) among f, a definition
 * before a prototype; -1 if none, -2 if entry is NULL and there are
 * several kernels. */
static int pick(const struct toks *v, const struct found *f, int nf,
		const char *entry)
{
	int best = -1;
	for (int i = 0; i < nf; i++) {
		const struct tok *t = &v->t[f[i].name];
		if (entry && !is(t, entry))
			continue;
		if (!entry && best >= 0 && !same(t, &v->t[f[best].name]))
			return -2;
		if (best < 0 || (f[i].body && !f[best].body))
			best = i;
	}
	return best;
}

int ub_ksig_find(const char *src, const char *file, const char *entry,
		 struct ub_ksig *sig, struct ub_error *err)
{
	struct toks v = {0};
	struct found f[64];
	char list[512];
	int st = tokenize(src, &v) ? ub_fail(err, UB_RUNTIME, "out of memory") : 0;
	int nf = st ? 0 : scan(&v, f, 64), k = st ? -1 : pick(&v, f, nf, entry);
	names(&v, f, nf, list, sizeof list);
	memset(sig, 0, sizeof *sig);
	if (st) {
		/* out of memory, said above */
	} else if (nf == 0) {
		st = ub_fail(err, UB_USAGE, "%s: no __global__ kernel in the file", file);
	} else if (k == -2) {
		st = ub_fail(err, UB_USAGE, "%s: several kernels (%s): choose one "
			     "with --entry", file, list);
	} else if (k < 0) {
		st = ub_fail(err, UB_USAGE, "%s: no __global__ kernel '%s' (valid: %s)",
			     file, entry, list);
	} else {
		const struct tok *t = &v.t[f[k].name];
		snprintf(sig->entry, sizeof sig->entry, "%.*s", t->len, t->s);
		sig->line = t->line;
		sig->extern_c = f[k].extern_c;
		if (f[k].tmpl)
			st = ub_fail(err, UB_USAGE, "%s:%d: %s is a template: wrap one "
				     "instance in an extern \"C\" __global__ kernel",
				     file, t->line, sig->entry);
		else
			st = params(&v, f[k].lp, f[k].rp, sig, file, err);
	}
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

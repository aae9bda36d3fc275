/* json_read.c — a strict JSON reader (json_read.h): recursive descent over
 * the bytes, the position kept for messages. */
#include "json_read.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jp {
	const char *start, *s, *end, *what;
	struct ub_error *err;
};

/* UB_USAGE "WHAT:LINE:COL: why" at the current place. */
static int fail(struct jp *p, const char *why)
{
	int line = 1, col = 1;
	for (const char *q = p->start; q < p->s; q++)
		if (*q == '\n')
			line++, col = 1;
		else
			col++;
	return ub_fail(p->err, UB_USAGE, "%s:%d:%d: %s", p->what, line, col, why);
}

static void blanks(struct jp *p)
{
	while (p->s < p->end && (*p->s == ' ' || *p->s == '\t' || *p->s == '\n' ||
				 *p->s == '\r'))
		p->s++;
}

static int value(struct jp *p, struct ub_jval *v, int depth);

/* Four hex digits at p->s. */
static int hex4(struct jp *p, unsigned *u)
{
	*u = 0;
	for (int i = 0; i < 4; i++, p->s++) {
		char c = p->s < p->end ? *p->s : 0;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
			c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return fail(p, "\\u needs four hex digits");
		*u = *u << 4 | (unsigned)d;
	}
	return 0;
}

/* \uXXXX (p->s after the u) as UTF-8 into o; a surrogate pair joined. */
static int escape_u(struct jp *p, char *o, size_t *n)
{
	unsigned u, lo;
	if (hex4(p, &u))
		return UB_USAGE;
	if (u >= 0xdc00 && u <= 0xdfff)
		return fail(p, "a lone low surrogate");
	if (u >= 0xd800 && u <= 0xdbff) {
		if (p->end - p->s < 6 || p->s[0] != '\\' || p->s[1] != 'u')
			return fail(p, "a high surrogate without its low one");
		p->s += 2;
		if (hex4(p, &lo))
			return UB_USAGE;
		if (lo < 0xdc00 || lo > 0xdfff)
			return fail(p, "a high surrogate without its low one");
		u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (u == 0)
		return fail(p, "\\u0000 in a string");
	if (u < 0x80) {
		o[(*n)++] = (char)u;
	} else if (u < 0x800) {
		o[(*n)++] = (char)(0xc0 | u >> 6);
		o[(*n)++] = (char)(0x80 | (u & 0x3f));
	} else if (u < 0x10000) {
		o[(*n)++] = (char)(0xe0 | u >> 12);
		o[(*n)++] = (char)(0x80 | (u >> 6 & 0x3f));
		o[(*n)++] = (char)(0x80 | (u & 0x3f));
	} else {
		o[(*n)++] = (char)(0xf0 | u >> 18);
		o[(*n)++] = (char)(0x80 | (u >> 12 & 0x3f));
		o[(*n)++] = (char)(0x80 | (u >> 6 & 0x3f));
		o[(*n)++] = (char)(0x80 | (u & 0x3f));
	}
	return 0;
}

/* A string (p->s at its '"') into *out, malloc'd.  Its text is never
 * longer than the JSON that spells it. */
static int string(struct jp *p, char **out)
{
	const char *q = ++p->s;
	while (q < p->end && *q != '"')
		q += *q == '\\' && q + 1 < p->end ? 2 : 1;
	if (q >= p->end)
		return fail(p, "a string without its closing quote");
	char *o = malloc((size_t)(q - p->s) + 1);
	size_t n = 0;
	if (!o)
		return ub_fail(p->err, UB_RUNTIME, "out of memory");
	while (*p->s != '"') {
		unsigned char c = (unsigned char)*p->s++;
		if (c < 0x20) {
			free(o);
			p->s--;
			return fail(p, "a control character in a string");
		}
		if (c != '\\') {
			o[n++] = (char)c;
			continue;
		}
		c = (unsigned char)*p->s++;
		const char *map = c ? strchr("\"\"\\\\//b\bf\fn\nr\rt\t", c) : NULL;
		if (c == 'u') {
			if (escape_u(p, o, &n)) {
				free(o);
				return UB_USAGE;
			}
		} else if (map && (map - "\"\"\\\\//b\bf\fn\nr\rt\t") % 2 == 0) {
			o[n++] = map[1];
		} else {
			free(o);
			p->s -= 2;
			return fail(p, "an unknown escape in a string");
		}
	}
	p->s++;
	o[n] = '\0';
	*out = o;
	return 0;
}

/* A number as RFC 8259 spells it. */
static int number(struct jp *p, double *d)
{
	const char *q = p->s;
	if (q < p->end && *q == '-')
		q++;
	if (q < p->end && *q == '0')
		q++;
	else if (q < p->end && *q >= '1' && *q <= '9')
		while (q < p->end && *q >= '0' && *q <= '9')
			q++;
	else
		return fail(p, "not a value");
	if (q < p->end && *q == '.') {
		const char *f = ++q;
		while (q < p->end && *q >= '0' && *q <= '9')
			q++;
		if (q == f)
			return fail(p, "a number without digits after its point");
	}
	if (q < p->end && (*q == 'e' || *q == 'E')) {
		q++;
		if (q < p->end && (*q == '+' || *q == '-'))
			q++;
		const char *e = q;
		while (q < p->end && *q >= '0' && *q <= '9')
			q++;
		if (q == e)
			return fail(p, "a number without digits in its exponent");
	}
	char buf[64];
	if (q - p->s >= (long)sizeof buf)
		return fail(p, "a number too long");
	memcpy(buf, p->s, (size_t)(q - p->s));
	buf[q - p->s] = '\0';
	errno = 0;
	*d = strtod(buf, NULL);
	p->s = q;
	return 0;
}

/* Members or elements (p->s after '[' or '{'), into v. */
static int items(struct jp *p, struct ub_jval *v, int obj, int depth)
{
	size_t cap = 0;
	char close = obj ? '}' : ']';
	blanks(p);
	if (p->s < p->end && *p->s == close) {
		p->s++;
		return 0;
	}
	for (;;) {
		if (v->n == cap) {
			cap = cap ? 2 * cap : 8;
			struct ub_jval *nv = realloc(v->v, cap * sizeof *nv);
			char **nk = obj ? realloc(v->keys, cap * sizeof *nk) : NULL;
			if (nv)
				v->v = nv;
			if (nk)
				v->keys = nk;
			if (!nv || (obj && !nk))
				return ub_fail(p->err, UB_RUNTIME, "out of memory");
		}
		memset(&v->v[v->n], 0, sizeof v->v[0]);
		blanks(p);
		if (obj) {
			if (p->s >= p->end || *p->s != '"')
				return fail(p, "expected a member's name (a string)");
			if (string(p, &v->keys[v->n]))
				return UB_USAGE;
			for (size_t i = 0; i < v->n; i++)
				if (!strcmp(v->keys[i], v->keys[v->n])) {
					free(v->keys[v->n]);
					return fail(p, "a member's name given twice");
				}
			blanks(p);
			if (p->s >= p->end || *p->s != ':') {
				free(v->keys[v->n]);
				return fail(p, "expected ':'");
			}
			p->s++;
		}
		v->n++;
		if (value(p, &v->v[v->n - 1], depth + 1))
			return UB_USAGE;
		blanks(p);
		if (p->s < p->end && *p->s == ',') {
			p->s++;
			continue;
		}
		if (p->s < p->end && *p->s == close) {
			p->s++;
			return 0;
		}
		return fail(p, obj ? "expected ',' or '}'" : "expected ',' or ']'");
	}
}

static int value(struct jp *p, struct ub_jval *v, int depth)
{
	static const struct { const char *w; enum ub_jkind k; int b; } words[] = {
		{"null", UB_JNULL, 0}, {"true", UB_JBOOL, 1}, {"false", UB_JBOOL, 0}};
	memset(v, 0, sizeof *v);
	blanks(p);
	if (p->s >= p->end)
		return fail(p, "expected a value");
	if (*p->s == '{' || *p->s == '[') {
		if (depth >= UB_JSON_DEPTH)
			return fail(p, "nested too deep");
		v->kind = *p->s++ == '{' ? UB_JOBJ : UB_JARR;
		return items(p, v, v->kind == UB_JOBJ, depth);
	}
	if (*p->s == '"') {
		v->kind = UB_JSTR;
		return string(p, &v->str);
	}
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t l = strlen(words[i].w);
		if ((size_t)(p->end - p->s) >= l && !memcmp(p->s, words[i].w, l)) {
			p->s += l;
			v->kind = words[i].k;
			v->b = words[i].b;
			return 0;
		}
	}
	v->kind = UB_JNUM;
	return number(p, &v->num);
}

int ub_json_parse(const char *text, size_t n, const char *what,
		  struct ub_jval *out, struct ub_error *err)
{
	struct jp p = { text, text, text + n, what, err };
	if (memchr(text, 0, n))
		return ub_fail(err, UB_USAGE, "%s: a NUL byte: not JSON", what);
	int s = value(&p, out, 0);
	if (!s) {
		blanks(&p);
		if (p.s < p.end)
			s = fail(&p, "more after the value");
	}
	if (s)
		ub_json_free(out);
	return s;
}

void ub_json_free(struct ub_jval *v)
{
	for (size_t i = 0; i < v->n; i++) {
		ub_json_free(&v->v[i]);
		if (v->keys)
			free(v->keys[i]);
	}
	free(v->v);
	free(v->keys);
	free(v->str);
	memset(v, 0, sizeof *v);
}

const struct ub_jval *ub_json_get(const struct ub_jval *o, const char *key)
{
	for (size_t i = 0; o->kind == UB_JOBJ && i < o->n; i++)
		if (!strcmp(o->keys[i], key))
			return &o->v[i];
	return NULL;
}

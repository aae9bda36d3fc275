/* sexp.c — the s-expression reader (see sexp.h): one pass over the text,
 * recursive descent over lists, nesting bounded so that hostile input
 * cannot exhaust the stack. */
#include "sexp.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 200

struct rd {
	const char *p, *file;
	int line, col;
	struct ub_error *err;
};

int ub_sx_fail(struct ub_error *err, const char *file, int line, int col,
	       const char *fmt, ...)
{
	char msg[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return ub_fail(err, UB_USAGE, "%s:%d:%d: %s", file, line, col, msg);
}

int ub_sx_is(const struct ub_sx *x, const char *s)
{
	return x->kind == UB_SX_SYM && strcmp(x->text, s) == 0;
}

void ub_sx_free(struct ub_sx *x)
{
	for (int i = 0; i < x->n; i++)
		ub_sx_free(&x->kids[i]);
	free(x->kids);
	free(x->text);
	memset(x, 0, sizeof *x);
}

static void advance(struct rd *r)
{
	if (*r->p == '\n') {
		r->line++;
		r->col = 1;
	} else {
		r->col++;
	}
	r->p++;
}

static void skip_space(struct rd *r)
{
	for (;;) {
		if (isspace((unsigned char)*r->p))
			advance(r);
		else if (*r->p == ';')
			while (*r->p && *r->p != '\n')
				advance(r);
		else
			return;
	}
}

static int delimiter(char c)
{
	return !c || isspace((unsigned char)c) || strchr("()[];\"", c);
}

/* Number grammar (FPCore 2.0): decimal [+-]?(d+(.d*)?|.d+)(e[+-]?d+)?,
 * rational [+-]?d+/d+, hex [+-]?0x(h+(.h*)?|.h+)(p[+-]?d+)?. */
static const char *digits(const char *s, int hex, int *count)
{
	*count = 0;
	while (hex ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s)) {
		s++;
		++*count;
	}
	return s;
}

/* 1 for a number, 0 for anything else, -1 for a rational n/0. */
static int is_number(const char *s)
{
	int a, b, hex = 0;
	if (*s == '+' || *s == '-')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		hex = 1;
		s += 2;
	}
	s = digits(s, hex, &a);
	if (!hex && a && *s == '/') {
		const char *den = s + 1;
		s = digits(den, 0, &b);
		if (!b || *s)
			return 0;
		return strspn(den, "0") == (size_t)b ? -1 : 1; /* n/0 */
	}
	b = 0;
	if (*s == '.')
		s = digits(s + 1, hex, &b);
	if (!a && !b)
		return 0;
	if (*s == (hex ? 'p' : 'e') || *s == (hex ? 'P' : 'E') ||
	    (!hex && (*s == 'f' || *s == 'F'))) { /* Racket's 0.5f0: read_atom */
		s++;
		if (*s == '+' || *s == '-')
			s++;
		s = digits(s, 0, &a);
		if (!a)
			return 0;
	}
	return !*s;
}

static int oom(struct rd *r)
{
	return ub_fail(r->err, UB_RUNTIME, "%s: out of memory", r->file);
}

/* The length of the string starting at q (after its quote), unescaped;
 * -1 if it does not end. */
static long string_length(const char *q)
{
	long n = 0;
	for (; *q != '"'; q++, n++) {
		if (!*q)
			return -1;
		q += *q == '\\' && q[1];
	}
	return n;
}

static int read_string(struct rd *r, struct ub_sx *x)
{
	long len = string_length(r->p + 1), n = 0;
	if (len < 0)
		return ub_sx_fail(r->err, r->file, r->line, r->col,
				  "unterminated string");
	if (!(x->text = malloc((size_t)len + 1)))
		return oom(r);
	x->kind = UB_SX_STR;
	advance(r); /* the opening quote */
	for (; *r->p != '"'; advance(r)) {
		if (*r->p == '\\') {
			if (r->p[1] != '"' && r->p[1] != '\\')
				return ub_sx_fail(r->err, r->file, r->line, r->col,
						  "unknown escape in string (only \\\" and \\\\)");
			advance(r);
		}
		x->text[n++] = *r->p;
	}
	advance(r);
	x->text[n] = '\0';
	return 0;
}

static int read_form(struct rd *r, struct ub_sx *x, int depth);

static int read_atom(struct rd *r, struct ub_sx *x)
{
	const char *start = r->p;
	while (!delimiter(*r->p))
		advance(r);
	x->text = strndup(start, (size_t)(r->p - start));
	if (!x->text)
		return oom(r);
	if (x->text[0] == ':') {
		if (!x->text[1])
			return ub_sx_fail(r->err, r->file, x->line, x->col,
					  "empty keyword ':'");
		x->kind = UB_SX_KEY;
	} else {
		int num = is_number(x->text);
		if (num < 0)
			return ub_sx_fail(r->err, r->file, x->line, x->col,
					  "rational %s has a zero denominator", x->text);
		x->kind = num ? UB_SX_NUM : UB_SX_SYM;
		/* Herbie's files write 0.6931f0 (Racket's single-float syntax):
		 * the same decimal as 0.6931e0, exact (docs/fpcore.md) */
		char *f = num && !strchr(x->text, 'x') && !strchr(x->text, 'X') ?
			  strpbrk(x->text, "fF") : NULL;
		if (f)
			*f = 'e';
	}
	return 0;
}

/* FPCore 2.0's shorthand #e, (! :precision integer e): the list
 * (! :precision integer e) at the '#'. */
static int read_hash(struct rd *r, struct ub_sx *x, int depth)
{
	static const char *const head[3] = {"!", ":precision", "integer"};
	advance(r); /* the '#' */
	if (delimiter(*r->p) && *r->p != '(' && *r->p != '[')
		return ub_sx_fail(r->err, r->file, x->line, x->col,
				  "'#' must be followed by an expression (#e is "
				  "(! :precision integer e))");
	x->kind = UB_SX_LIST;
	if (!(x->kids = calloc(4, sizeof *x->kids)))
		return oom(r);
	for (int i = 0; i < 3; i++) {
		struct ub_sx *k = &x->kids[x->n++];
		k->kind = i == 1 ? UB_SX_KEY : UB_SX_SYM;
		k->line = x->line;
		k->col = x->col;
		if (!(k->text = strdup(head[i])))
			return oom(r);
	}
	x->n = 4;   /* the fourth, zeroed, is freed with x if reading it fails */
	int st = read_form(r, &x->kids[3], depth + 1);
	x->eline = r->line;
	x->ecol = r->col > 1 ? r->col - 1 : 1;
	return st;
}

static int append(struct rd *r, struct ub_sx *list, const struct ub_sx *kid)
{
	if ((list->n & (list->n - 1)) == 0) { /* 0, 1, 2, 4, ...: grow */
		size_t cap = list->n ? 2 * (size_t)list->n : 1;
		struct ub_sx *k = realloc(list->kids, cap * sizeof *k);
		if (!k)
			return oom(r);
		list->kids = k;
	}
	list->kids[list->n++] = *kid;
	return 0;
}

/* Reads forms into list until `close` (or end of text when close is 0). */
static int read_items(struct rd *r, struct ub_sx *list, char close, int depth)
{
	for (;;) {
		skip_space(r);
		char c = *r->p;
		if (c == close) {
			list->eline = r->line;
			list->ecol = r->col;
			if (c)
				advance(r);
			return 0;
		}
		if (!c)
			return ub_sx_fail(r->err, r->file, list->line, list->col,
					  "unclosed '%c'", close == ')' ? '(' : '[');
		if (c == ')' || c == ']') {
			if (!close)
				return ub_sx_fail(r->err, r->file, r->line, r->col,
						  "unexpected '%c'", c);
			return ub_sx_fail(r->err, r->file, r->line, r->col,
					  "'%c' closes '%c' opened at %d:%d", c,
					  close == ')' ? '(' : '[', list->line, list->col);
		}
		struct ub_sx kid = {0};
		int st = read_form(r, &kid, depth + 1);
		if (!st)
			st = append(r, list, &kid);
		if (st) {
			ub_sx_free(&kid);
			return st;
		}
	}
}

static int read_form(struct rd *r, struct ub_sx *x, int depth)
{
	x->line = r->line;
	x->col = r->col;
	if (depth > MAX_DEPTH)
		return ub_sx_fail(r->err, r->file, r->line, r->col,
				  "nesting deeper than %d", MAX_DEPTH);
	if (*r->p == '"')
		return read_string(r, x);
	if (*r->p == '#')
		return read_hash(r, x, depth);
	if (*r->p != '(' && *r->p != '[')
		return read_atom(r, x);
	char close = *r->p == '(' ? ')' : ']';
	x->kind = UB_SX_LIST;
	advance(r);
	return read_items(r, x, close, depth);
}

int ub_sx_read(const char *text, const char *file, struct ub_sx *top,
	       struct ub_error *err)
{
	struct rd r = {text, file, 1, 1, err};
	memset(top, 0, sizeof *top);
	top->kind = UB_SX_LIST;
	top->line = top->col = 1;
	int st = read_items(&r, top, '\0', 0);
	if (st)
		ub_sx_free(top);
	return st;
}

static void print_to(const struct ub_sx *x, char *buf, size_t len, size_t *used)
{
	size_t room = *used < len ? len - *used : 0;
	int k;
	if (x->kind == UB_SX_LIST) {
		k = snprintf(buf + (room ? *used : 0), room, "(");
		*used += k > 0 ? (size_t)k : 0;
		for (int i = 0; i < x->n && *used < len; i++) {
			if (i) {
				room = *used < len ? len - *used : 0;
				k = snprintf(buf + (room ? *used : 0), room, " ");
				*used += k > 0 ? (size_t)k : 0;
			}
			print_to(&x->kids[i], buf, len, used);
		}
		room = *used < len ? len - *used : 0;
		k = snprintf(buf + (room ? *used : 0), room, ")");
	} else {
		k = snprintf(buf + (room ? *used : 0), room,
			     x->kind == UB_SX_STR ? "\"%s\"" : "%s", x->text);
	}
	*used += k > 0 ? (size_t)k : 0;
}

char *ub_sx_print(const struct ub_sx *x, char *buf, size_t len)
{
	size_t used = 0;
	if (len)
		buf[0] = '\0';
	if (len)
		print_to(x, buf, len, &used);
	return buf;
}

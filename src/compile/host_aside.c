/* host_aside.c — a kernel file's device code for NVRTC (host_aside.h).
 *
 * One pass over the text at file scope: preprocessor lines are read as
 * lines, everything else as declarations, each ending at a ';' or at the
 * '}' that closes its first brace (then at the ';' after it for a
 * struct, class, union or enum, or an initializer after '=').  A
 * namespace or extern "C" block is entered and filtered the same way. */
#include "host_aside.h"
#include "paths.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The <math.h> constants a kernel may use, defined when the file does
 * not define them (its <math.h> is set aside). */
static const char prelude[] =
	"#ifndef M_PI\n#define M_PI 3.14159265358979323846\n#endif\n"
	"#ifndef M_PI_2\n#define M_PI_2 1.57079632679489661923\n#endif\n"
	"#ifndef M_1_PI\n#define M_1_PI 0.31830988618379067154\n#endif\n"
	"#ifndef M_2_SQRTPI\n#define M_2_SQRTPI 1.12837916709551257390\n#endif\n"
	"#ifndef M_SQRT2\n#define M_SQRT2 1.41421356237309504880\n#endif\n"
	"#ifndef M_SQRT1_2\n#define M_SQRT1_2 0.70710678118654752440\n#endif\n"
	"#ifndef M_LN2\n#define M_LN2 0.69314718055994530942\n#endif\n"
	"#ifndef M_E\n#define M_E 2.7182818284590452354\n#endif\n"
	/* <cstdint>'s types as glibc's for x86-64 and CUDA (LP64) */
	"typedef signed char int8_t; typedef short int16_t; typedef int int32_t;\n"
	"typedef long int64_t; typedef unsigned char uint8_t;\n"
	"typedef unsigned short uint16_t; typedef unsigned int uint32_t;\n"
	"typedef unsigned long uint64_t; typedef long intptr_t;\n"
	"typedef unsigned long uintptr_t;\n"
	"namespace std { using ::int8_t; using ::int16_t; using ::int32_t; using ::int64_t;\n"
	"using ::uint8_t; using ::uint16_t; using ::uint32_t; using ::uint64_t; }\n";

/* The headers of the device kept from #include <...>. */
static int device_header(const char *name, size_t n)
{
	static const char *const keep[] = { "cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h",
					    "cuda_fp16.hpp", "cuda_bf16.hpp" };
	for (size_t i = 0; i < sizeof keep / sizeof keep[0]; i++)
		if (strlen(keep[i]) == n && !strncmp(name, keep[i], n))
			return 1;
	return n > 5 && !strncmp(name, "cuda/", 5);
}

/* The end of the comment, string or character literal at p (p itself when
 * none starts there). */
static const char *skip_lexeme(const char *p)
{
	if (p[0] == '/' && p[1] == '/')
		return p + strcspn(p, "\n");
	if (p[0] == '/' && p[1] == '*') {
		const char *e = strstr(p + 2, "*/");
		return e ? e + 2 : p + strlen(p);
	}
	if (*p == '"' || *p == '\'') {
		char q = *p++;
		while (*p && *p != q && *p != '\n')
			p += p[0] == '\\' && p[1] ? 2 : 1;
		return *p == q ? p + 1 : p;
	}
	return p;
}

/* The end of the preprocessor line at p (continuations included). */
static const char *line_end(const char *p)
{
	for (;;) {
		const char *e = p + strcspn(p, "\n");
		if (e > p && e[-1] == '\\' && *e) {
			p = e + 1;
			continue;
		}
		return *e ? e + 1 : e;
	}
}

/* Whether the text [a, b) holds word w as a whole word. */
static int has_word(const char *a, const char *b, const char *w)
{
	size_t n = strlen(w);
	for (const char *p = a; p + n <= b; p++)
		if (!strncmp(p, w, n) && (p == a || !(isalnum((unsigned char)p[-1]) || p[-1] == '_')) &&
		    (p + n == b || !(isalnum((unsigned char)p[n]) || p[n] == '_')))
			return 1;
	return 0;
}

/* The text made, and the headers inlined into it so far. */
#define MAX_INLINED 32
struct out {
	char *buf;
	size_t len, cap;
	int bad;            /* out of memory */
	int ninl;
	char inl[MAX_INLINED][4096];
};

/* Where the text being read comes from: its name as #line gives it, its
 * directory (its "" includes), its text, how deep in includes. */
struct place {
	const char *file, *dir, *text;
	int depth;
};

static void put(struct out *o, const char *a, const char *b)
{
	size_t n = (size_t)(b - a);
	if (o->len + n + 1 > o->cap) {
		size_t cap = 2 * (o->len + n + 1);
		char *nb = o->bad ? NULL : realloc(o->buf, cap);
		if (!nb) {
			o->bad = 1;
			return;
		}
		o->buf = nb;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, a, n);
	o->len += n;
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, s + strlen(s));
}

/* [a, b) set aside: its newlines only. */
static void blank(struct out *o, const char *a, const char *b)
{
	for (const char *p = a; p < b; p++)
		if (*p == '\n')
			put(o, p, p + 1);
}

/* The declaration from p: where its head ends (the first '{' at depth 0,
 * or its end) into *brace, and its end. */
static const char *decl_end(const char *p, const char **brace)
{
	int depth = 0, eq = 0, tagged = 0;
	const char *start = p;
	*brace = NULL;
	while (*p) {
		const char *q = skip_lexeme(p);
		if (q != p) {
			p = q;
			continue;
		}
		if (*p == '#' && depth == 0) { /* a directive inside: as it is */
			p = line_end(p);
			continue;
		}
		if (*p == '=' && depth == 0 && !*brace)
			eq = 1;
		if (*p == '{') {
			if (depth++ == 0 && !*brace) {
				*brace = p;
				tagged = has_word(start, p, "struct") || has_word(start, p, "class") ||
					 has_word(start, p, "union") || has_word(start, p, "enum");
			}
		} else if (*p == '}') {
			if (--depth == 0 && !eq && !tagged)
				return p + 1;   /* a function body, a namespace */
			if (depth < 0)
				return p;       /* the enclosing scope's end */
		} else if (*p == ';' && depth == 0) {
			return p + 1;
		}
		p++;
	}
	return p;
}

static const char *filter(struct out *o, const struct place *pl, const char *p,
			  int nested);

/* The line number of p in text. */
static int line_of(const char *text, const char *p)
{
	int n = 1;
	for (const char *q = text; q < p; q++)
		n += *q == '\n';
	return n;
}

/* Reads the header at path whole (ub_read_file: NUL-terminated,
 * malloc'd, at most UB_SOURCE_MAX bytes, no NUL byte), or NULL.  A
 * regular file only, tested before it is opened: a device would read on
 * (#include "../../dev/zero") and a FIFO block in open. */
static char *slurp(const char *path)
{
	struct stat st;
	struct ub_error err;
	char *text = NULL;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		ub_read_file(path, &text, &err);
	return text;
}

/* #include "name" ([d, e) the directive in pl): the header beside the
 * file, filtered the same way, in its place (#line keeps the places in
 * messages), once (as its #pragma once or guard would have it); 0 when it
 * is not there (the directive stays, for NVRTC's own search). */
static int inline_header(struct out *o, const struct place *pl, const char *name,
			 size_t n, const char *d, const char *e)
{
	char path[4096], line[4400], dir[4096];
	snprintf(path, sizeof path, "%s/%.*s", pl->dir, (int)n, name);
	char *text = pl->depth < 8 ? slurp(path) : NULL;
	if (!text)
		return 0;
	int seen = 0;
	for (int i = 0; i < o->ninl; i++)
		seen |= !strcmp(o->inl[i], path);
	if (seen || o->ninl == MAX_INLINED) {
		blank(o, d, e);
		free(text);
		return 1;
	}
	snprintf(o->inl[o->ninl++], sizeof o->inl[0], "%s", path);
	snprintf(dir, sizeof dir, "%.*s", (int)(strrchr(path, '/') - path), path);
	struct place sub = { path, dir, text, pl->depth + 1 };
	snprintf(line, sizeof line, "#line 1 \"%s\"\n", path);
	puts_(o, line);
	filter(o, &sub, text, 0);
	snprintf(line, sizeof line, "\n#line %d \"%s\"\n", line_of(pl->text, e), pl->file);
	puts_(o, line);
	free(text);
	return 1;
}

/* namespace NAME { ... } or extern "C" { ... }: [p, brace] kept, the
 * inside filtered, its '}' kept. */
static const char *scope(struct out *o, const struct place *pl, const char *p,
			 const char *brace)
{
	put(o, p, brace + 1);
	p = filter(o, pl, brace + 1, 1);
	if (*p == '}') {
		put(o, p, p + 1);
		p++;
	}
	return p;
}

static const char *filter(struct out *o, const struct place *pl, const char *p,
			  int nested)
{
	while (*p) {
		const char *q = skip_lexeme(p);
		if (q != p || isspace((unsigned char)*p)) { /* comments, blanks */
			q = q != p ? q : p + 1;
			put(o, p, q);
			p = q;
			continue;
		}
		if (*p == '}' && nested)
			return p;
		if (*p == '}') {   /* a '}' closing nothing: as it is */
			put(o, p, p + 1);
			p++;
			continue;
		}
		if (*p == '#') {
			const char *e = line_end(p), *h = p + 1;
			while (*h == ' ' || *h == '\t')
				h++;
			if (!strncmp(h, "include", 7)) {
				h += 7 + strspn(h + 7, " \t");
				/* the name after '<' or '"' (none at the text's end) */
				size_t n = *h == '<' || *h == '"' ?
					   strcspn(h + 1, *h == '<' ? ">\n" : "\"\n") : 0;
				if ((*h == '<' && !device_header(h + 1, n)) ||
				    (*h == '"' && inline_header(o, pl, h + 1, n, p, e))) {
					p = e;
					continue;
				}
			}
			put(o, p, e);
			p = e;
			continue;
		}
		const char *brace, *e = decl_end(p, &brace);
		if (brace && (has_word(p, brace, "namespace") ||
			      (has_word(p, brace, "extern") && strstr(p, "\"C\"") &&
			       strstr(p, "\"C\"") < brace)))
			p = scope(o, pl, p, brace);
		else if ((brace && strchr(p, '(') && strchr(p, '(') < brace &&
			  !has_word(p, brace, "__global__") && !has_word(p, brace, "__device__") &&
			  !memchr(p, '=', (size_t)(brace - p)) && e[-1] == '}') ||
			 (!brace && has_word(p, e, "using") && has_word(p, e, "namespace") &&
			  has_word(p, e, "std")))
			blank(o, p, e), p = e;   /* host code */
		else
			put(o, p, e), p = e;
	}
	return p;
}

char *ub_host_aside(const char *src, const char *file, const char *dir)
{
	static struct out o;   /* large: its list of inlined headers */
	struct place pl = { file, dir, src, 0 };
	char line[4200];
	memset(&o, 0, sizeof o);
	puts_(&o, prelude);
	/* the file's own line 1 after the prelude */
	snprintf(line, sizeof line, "#line 1 \"%s\"\n", file);
	puts_(&o, line);
	filter(&o, &pl, src, 0);
	put(&o, "", "");
	if (o.bad) {
		free(o.buf);
		return NULL;
	}
	o.buf[o.len] = '\0';
	return o.buf;
}

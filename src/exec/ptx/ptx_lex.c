/* ptx_lex.c — splits PTX text into tokens, once, for the parser.
 *
 * Words are runs of [A-Za-z0-9_$%.] (so "ld.global.f32", "%rd12",
 * "$L__BB0_6", "0f3F800000", "1.5e3" and "%tid.x" are one token each; a
 * "::" between word characters, as in "L1::no_allocate", stays inside the
 * word), strings are "..." and everything else is a one-character
 * punctuation token.  Comments (// and block comments) are dropped.  Each
 * token keeps its line number for messages.
 *
 * Literals (ptx_imm): integers 123, 0x7f, 017 (octal), 0b101, optional U
 * suffix; f32 bits 0f3F800000; f64 bits 0d3FF0000000000000; decimal
 * floats 1.5 (as f64).  A literal given to an instruction of another type
 * is converted by value (f64 1.5 -> f32 1.5, rounded to nearest); integers
 * and bit patterns keep their low bits. */
#include "ptx_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int is_word(int c)
{
	return isalnum(c) || c == '_' || c == '$' || c == '%' || c == '.';
}

/* Length of the word at s (s[0] is a word character). */
static size_t word_len(const char *s)
{
	size_t n = 0;
	for (;;) {
		if (is_word((unsigned char)s[n]))
			n++;
		else if (s[n] == ':' && s[n + 1] == ':' && n > 0 &&
			 is_word((unsigned char)s[n + 2]))
			n += 2;
		else
			return n;
	}
}

/* Exponent sign inside a number such as 1.5e-3: "e-" after digits. */
static size_t number_len(const char *s, size_t n)
{
	if (!isdigit((unsigned char)s[0]) ||
	    (s[0] == '0' && (s[1] == 'f' || s[1] == 'd' || s[1] == 'x' ||
			     s[1] == 'X')))
		return n;
	while ((s[n] == '-' || s[n] == '+') && (s[n - 1] == 'e' || s[n - 1] == 'E') &&
	       isdigit((unsigned char)s[n + 1]))
		n += 1 + word_len(s + n + 1);
	return n;
}

static int push(struct ptx_tok **v, size_t *n, size_t *cap, const char *s,
		size_t len, uint32_t line, int kind, struct ub_error *err)
{
	if (*n == *cap) {
		size_t nc = *cap ? *cap * 2 : 1024;
		struct ptx_tok *nv = realloc(*v, nc * sizeof **v);
		if (!nv)
			return ub_fail(err, UB_RUNTIME, "ptx: out of memory");
		*v = nv;
		*cap = nc;
	}
	(*v)[(*n)++] = (struct ptx_tok){ s, (uint32_t)len, line, (uint8_t)kind };
	return 0;
}

/* Skips a comment at *s if there is one; 1 if skipped, -1 (nothing
 * moved) if it is unterminated. */
static int skip_comment(const char **s, uint32_t *line)
{
	const char *p = *s;
	uint32_t l = *line;
	if (p[0] == '/' && p[1] == '/') {
		while (*p && *p != '\n')
			p++;
	} else if (p[0] == '/' && p[1] == '*') {
		for (p += 2; *p && !(p[0] == '*' && p[1] == '/'); p++)
			l += *p == '\n';
		if (!*p)
			return -1;
		p += 2;
	} else {
		return 0;
	}
	*s = p;
	*line = l;
	return 1;
}

int ptx_lex(const char *text, struct ptx_tok **out, size_t *nout,
	    struct ub_error *err)
{
	struct ptx_tok *v = NULL;
	size_t n = 0, cap = 0;
	uint32_t line = 1;
	const char *s = text;
	int rc = 0;
	while (!rc && *s) {
		int c = (unsigned char)*s, k;
		if (c == '\n') {
			line++;
			s++;
		} else if (isspace(c)) {
			s++;
		} else if ((k = skip_comment(&s, &line)) != 0) {
			if (k < 0)   /* s and line were left at its start */
				rc = ub_fail(err, UB_RUNTIME,
					     "ptx:%u: unterminated comment", line);
		} else if (c == '"') {
			const char *e = s + 1;
			while (*e && *e != '"' && *e != '\n')
				e++;
			if (*e != '"')
				rc = ub_fail(err, UB_RUNTIME,
					     "ptx:%u: unterminated string", line);
			else
				rc = push(&v, &n, &cap, s + 1, (size_t)(e - s - 1),
					  line, PTX_TK_STRING, err);
			s = e + 1;
		} else if (is_word(c)) {
			size_t len = number_len(s, word_len(s));
			rc = push(&v, &n, &cap, s, len, line, PTX_TK_WORD, err);
			s += len;
		} else {
			rc = push(&v, &n, &cap, s, 1, line, PTX_TK_PUNCT, err);
			s++;
		}
	}
	if (!rc)
		rc = push(&v, &n, &cap, s, 0, line, PTX_TK_END, err);
	if (rc) {
		free(v);
		return rc;
	}
	*out = v;
	*nout = n;
	return 0;
}

enum { LIT_INT, LIT_F32, LIT_F64 };

/* Parses the literal text s: its kind and bits (LIT_F64: double bits). */
static int literal(const char *s, int *kind, uint64_t *v)
{
	char *end;
	size_t n = strlen(s);
	if (s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D')) {
		*kind = (s[1] | 0x20) == 'f' ? LIT_F32 : LIT_F64;
		if (n != (*kind == LIT_F32 ? 10u : 18u))
			return -1;
		*v = strtoull(s + 2, &end, 16);
		return *end ? -1 : 0;
	}
	*kind = LIT_INT;
	if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		*v = strtoull(s + 2, &end, 2);
	else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		*v = strtoull(s + 2, &end, 16);
	else if (strpbrk(s, ".eE")) {
		double d = strtod(s, &end);
		memcpy(v, &d, sizeof d);
		*kind = LIT_F64;
	} else {
		*v = strtoull(s, &end, s[0] == '0' ? 8 : 10);
	}
	if (*kind == LIT_INT && *end == 'U')
		end++;
	return *end || end == s ? -1 : 0;
}

/* The literal's value as the bits of type ty. */
static uint64_t lit_as(int kind, uint64_t v, int neg, int ty)
{
	unsigned bits = ptx_type_bits(ty);
	uint64_t sign = kind == LIT_F32 ? 1ull << 31 : 1ull << 63;
	if (neg)
		v = kind == LIT_INT ? 0 - v : v ^ sign;
	double d;
	float f;
	uint32_t u;
	if (kind == LIT_INT)
		d = (double)(int64_t)v;
	else if (kind == LIT_F32)
		u = (uint32_t)v, memcpy(&f, &u, 4), d = f;
	else
		memcpy(&d, &v, 8);
	if (ptx_type_kind(ty) == 'F' && bits == 32 && kind != LIT_F32) {
		f = kind == LIT_INT ? (float)(int64_t)v : (float)d;
		memcpy(&u, &f, 4);
		return u;
	}
	if (ptx_type_kind(ty) == 'F' && bits == 64 && kind != LIT_F64) {
		memcpy(&v, &d, 8);
		return v;
	}
	return bits >= 64 ? v : v & ((1ull << bits) - 1);
}

int ptx_imm(struct ptx_pstate *st, int ty, uint64_t *v)
{
	size_t p = st->pos;
	int neg = ptx_tok_is(ptx_peek(st, 0), "-"), kind;
	const struct ptx_tok *t = ptx_peek(st, (size_t)neg);
	char buf[64];
	if (ptx_tok_is(t, "WARP_SZ")) {   /* PTX ISA 4.4 Identifiers: the
					     predefined constant, the warp
					     size, wherever an immediate is */
		kind = LIT_INT;
		*v = 32;
	} else if (t->kind != PTX_TK_WORD || !isdigit((unsigned char)t->s[0]) ||
		   t->len >= sizeof buf) {
		return -1;
	} else {
		memcpy(buf, t->s, t->len);
		buf[t->len] = 0;
		if (literal(buf, &kind, v))
			return -1;
	}
	*v = lit_as(kind, *v, neg, ty);
	st->pos = p + (size_t)neg + 1;
	return 0;
}


int ptx_split_mnemonic(const struct ptx_tok *t, size_t maxlen, char *base, size_t blen,
		       char (*part)[24], int max, int *n)
{
	char buf[256];
	if (t->len >= maxlen || t->len >= sizeof buf)
		return -1;
	memcpy(buf, t->s, t->len);
	buf[t->len] = 0;
	*n = 0;
	char *save, *s = strtok_r(buf, ".", &save);
	if (!s || strlen(s) >= blen)
		return -1;
	strcpy(base, s);
	while ((s = strtok_r(NULL, ".", &save))) {
		if (*n == max || strlen(s) >= 24)
			return -1;
		strcpy(part[(*n)++], s);
	}
	return 0;
}

/* why_src.c — source changes on one line of a kernel (why_src.h): a small
 * tokenizer of a C (or Python) line and the operands of a binary
 * operator as C's grammar reads them. */
#include "why_src.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TOKS 512

struct tok {
	size_t at, len;  /* in the line */
	char kind;       /* 'w' word (identifier or number), 'p' punctuator */
};

struct line {
	const char *s;
	size_t len;
	int n;
	struct tok t[MAX_TOKS];
};

static int is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '$';
}

/* A number: digits, dots, exponents with signs, suffixes (1.f, 0x1p-3f). */
static size_t number(const char *s, size_t i, size_t len)
{
	size_t j = i;
	while (j < len && (is_word(s[j]) || s[j] == '.' ||
			   ((s[j] == '+' || s[j] == '-') && j > i &&
			    strchr("eEpP", s[j - 1]) && !(s[i] == '0' && j == i + 2 &&
							 strchr("xX", s[i + 1])))))
		j++;
	return j;
}

static const char *const puncts[] = { "->", "++", "--", "<<", ">>", "<=", ">=", "==",
				       "!=", "&&", "||", "::", NULL };

/* Splits the line into tokens; 0, or -1 when it has too many or an
 * unterminated literal or comment (then nothing on it is rewritten). */
static int tokenize(struct line *l)
{
	const char *s = l->s;
	size_t i = 0, len = l->len;
	l->n = 0;
	while (i < len) {
		size_t j = i + 1;
		if (isspace((unsigned char)s[i])) {
			i++;
			continue;
		}
		if ((s[i] == '/' && i + 1 < len && s[i + 1] == '/') || s[i] == '#')
			break; /* a comment, or Python's; a preprocessor line */
		if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			const char *e = strstr(s + i + 2, "*/");
			if (!e || (size_t)(e - s) > len - 2)
				return -1;
			i = (size_t)(e - s) + 2;
			continue;
		}
		if (s[i] == '"' || s[i] == '\'') {
			while (j < len && s[j] != s[i])
				j += s[j] == '\\' ? 2 : 1;
			if (j >= len)
				return -1;
			j++;
		} else if (isdigit((unsigned char)s[i]) ||
			   (s[i] == '.' && i + 1 < len && isdigit((unsigned char)s[i + 1]))) {
			j = number(s, i, len);
		} else if (is_word(s[i])) {
			while (j < len && is_word(s[j]))
				j++;
		} else {
			for (int k = 0; puncts[k]; k++)
				if (i + 1 < len && !strncmp(s + i, puncts[k], 2))
					j = i + 2;
		}
		if (l->n == MAX_TOKS)
			return -1;
		l->t[l->n++] = (struct tok){ i, j - i, (char)(is_word(s[i]) || s[i] == '.'
						   ? (s[i] == '.' && j == i + 1 ? 'p' : 'w')
						   : s[i] == '"' || s[i] == '\'' ? 'w' : 'p') };
		i = j;
	}
	return 0;
}

static int is(const struct line *l, int k, const char *p)
{
	return k >= 0 && k < l->n && l->t[k].len == strlen(p) &&
	       !strncmp(l->s + l->t[k].at, p, l->t[k].len);
}

static int is_type(const struct line *l, int k)
{
	static const char *const types[] = { "float", "double", "int", "long", "short",
		"char", "unsigned", "signed", "const", "void", "auto", "bool", "half",
		"__half", "__nv_bfloat16", "__restrict__", "volatile", "size_t", NULL };
	for (int i = 0; types[i]; i++)
		if (is(l, k, types[i]))
			return 1;
	return 0;
}

/* Token k ends an operand (so that an operator after it is binary). */
static int ends_operand(const struct line *l, int k)
{
	return k >= 0 && ((l->t[k].kind == 'w' && !is_type(l, k)) || is(l, k, ")") ||
			  is(l, k, "]"));
}

/* The bracket matching token k (open -> forward, close -> backward); -1. */
static int match(const struct line *l, int k)
{
	const char *o = "([{", *c = ")]}";
	int depth = 0, step = strchr(o, l->s[l->t[k].at]) ? 1 : -1;
	for (int j = k; j >= 0 && j < l->n; j += step) {
		char ch = l->s[l->t[j].at];
		if (l->t[j].kind != 'p')
			continue;
		depth += (strchr(o, ch) ? 1 : strchr(c, ch) ? -1 : 0) * step;
		if (!depth)
			return j;
	}
	return -1;
}

/* A parenthesized group (k: its ')') holding a type name only: a cast. */
static int is_cast(const struct line *l, int k)
{
	int m = match(l, k);
	if (m < 0 || m + 1 == k)
		return 0;
	for (int j = m + 1; j < k; j++)
		if (!is_type(l, j) && !is(l, j, "*"))
			return 0;
	return 1;
}

static int is_unary_op(const struct line *l, int k)
{
	return is(l, k, "-") || is(l, k, "+") || is(l, k, "!") || is(l, k, "~") ||
	       is(l, k, "*") || is(l, k, "&");
}

/* The first token of the postfix expression that ends at token k; -1. */
static int postfix_back(const struct line *l, int k)
{
	if (k < 0)
		return -1;
	if (is(l, k, ")") || is(l, k, "]")) {
		int m = match(l, k);
		if (m < 0)
			return -1;
		if (is(l, k, "]") || (m > 0 && (l->t[m - 1].kind == 'w' || is(l, m - 1, ")") ||
						 is(l, m - 1, "]")) && !is_type(l, m - 1)))
			return is(l, k, "]") || m > 0 ? postfix_back(l, m - 1) : m;
		return m;
	}
	if (l->t[k].kind != 'w')
		return -1;
	if (is(l, k - 1, ".") || is(l, k - 1, "->"))
		return postfix_back(l, k - 2);
	return k;
}

/* The first token of the left operand of the binary operator at k: a
 * unary expression (prefix operators, casts) and, * / % associating to
 * the left, the multiplicative expression before it. */
static int left_operand(const struct line *l, int k)
{
	int s = postfix_back(l, k - 1);
	for (;;) {
		if (s < 0)
			return -1;
		if (is_unary_op(l, s - 1) && !ends_operand(l, s - 2))
			s--;
		else if (is(l, s - 1, ")") && is_cast(l, s - 1))
			s = match(l, s - 1);
		else if ((is(l, s - 1, "*") || is(l, s - 1, "/") || is(l, s - 1, "%")) &&
			 ends_operand(l, s - 2))
			s = postfix_back(l, s - 2);
		else
			return s;
	}
}

/* The last token of the right operand of the binary operator at k. */
static int right_operand(const struct line *l, int k)
{
	int j = k + 1;
	while (j < l->n && (is_unary_op(l, j) || (is(l, j, "(") && match(l, j) > j &&
						  is_cast(l, match(l, j)))))
		j = is(l, j, "(") ? match(l, j) + 1 : j + 1;
	if (j >= l->n)
		return -1;
	if (is(l, j, "("))
		j = match(l, j);
	else if (l->t[j].kind != 'w')
		return -1;
	while (j >= 0 && j + 1 < l->n) {
		if (is(l, j + 1, "[") || is(l, j + 1, "("))
			j = match(l, j + 1);
		else if ((is(l, j + 1, ".") || is(l, j + 1, "->")) && j + 2 < l->n &&
			 l->t[j + 2].kind == 'w')
			j += 2;
		else if (is(l, j + 1, "++") || is(l, j + 1, "--"))
			j++;
		else
			break;
	}
	return j;
}

/* The token of site (type, op, ord) on l, with its operand range [*a, *b]
 * for a binary operator; -1 when there is none. */
static int find(const struct line *l, int type, const char *op, int ord,
		int *a, int *b)
{
	for (int k = 0; k < l->n; k++) {
		if (!is(l, k, op))
			continue;
		if (type == UB_SRC_CALL) {
			if (!is(l, k + 1, "(") || is(l, k - 1, ".") || is(l, k - 1, "->"))
				continue;
			if (ord-- == 0)
				return k;
			continue;
		}
		if (!ends_operand(l, k - 1))
			continue;
		int x = left_operand(l, k), y = right_operand(l, k);
		if (x < 0 || y < 0)
			continue;
		if (ord-- == 0) {
			*a = x;
			*b = y;
			return k;
		}
	}
	return -1;
}

/* Line `line` of text: its start and length; -1 when there is none. */
static int line_of(const char *text, unsigned line, struct line *l)
{
	const char *p = text;
	for (unsigned i = 1; i < line && p; i++)
		if ((p = strchr(p, '\n')))
			p++;
	if (!p || !line)
		return -1;
	l->s = p;
	l->len = strcspn(p, "\n");
	return tokenize(l);
}

int ub_src_count(const char *text, unsigned line, int type, const char *op)
{
	struct line *l = malloc(sizeof *l);
	int n = 0, a, b;
	if (l && !line_of(text, line, l))
		while (find(l, type, op, n, &a, &b) >= 0)
			n++;
	free(l);
	return n;
}

/* An operand's text p[0..*n) without the parentheses around it when they
 * enclose all of it and hold no comma at their level (an argument of the
 * replacing call needs none). */
static const char *unparen(const char *p, size_t *n)
{
	int depth = 0, comma = 0;
	if (*n < 2 || p[0] != '(' || p[*n - 1] != ')')
		return p;
	for (size_t i = 0; i < *n; i++) {
		depth += (p[i] == '(' || p[i] == '[') - (p[i] == ')' || p[i] == ']');
		comma |= depth == 1 && p[i] == ',';
		if (depth == 0 && i + 1 < *n)
			return p; /* (a) * (b): not one group */
	}
	if (comma)
		return p;
	*n -= 2;
	return p + 1;
}

/* One site applied to *text (replaced by a new malloc'd text). */
static int apply1(char **text, const struct ub_src_site *s, struct line *l)
{
	int a = 0, b = 0, k;
	if (line_of(*text, s->line, l) || (k = find(l, s->type, s->op, s->ord, &a, &b)) < 0)
		return -1;
	size_t off = (size_t)(l->s - *text), total = strlen(*text), from, to;
	char mid[2048];
	if (s->type == UB_SRC_CALL) {
		from = l->t[k].at;
		to = from + l->t[k].len;
		snprintf(mid, sizeof mid, "%s", s->to);
	} else {
		from = l->t[a].at;
		to = l->t[b].at + l->t[b].len;
		size_t opat = l->t[k].at, opend = opat + l->t[k].len;
		size_t ln = opat - from, rn = to - opend;
		const char *lp = l->s + from, *rp = l->s + opend;
		while (ln && isspace((unsigned char)lp[ln - 1]))
			ln--;
		while (rn && isspace((unsigned char)*rp))
			rp++, rn--;
		lp = unparen(lp, &ln);
		rp = unparen(rp, &rn);
		if (ln + rn + strlen(s->to) + 8 > sizeof mid)
			return -1;
		snprintf(mid, sizeof mid, "%s(%.*s, %.*s)", s->to, (int)ln, lp, (int)rn, rp);
	}
	char *out = malloc(total + strlen(mid) + 1);
	if (!out)
		return -2;
	memcpy(out, *text, off + from);
	strcpy(out + off + from, mid);
	strcat(out + off + from, *text + off + to);
	free(*text);
	*text = out;
	return 0;
}

int ub_src_apply(const char *text, const struct ub_src_site *s, int n, char **out)
{
	struct line *l = malloc(sizeof *l);
	char *t = strdup(text);
	int st = l && t ? 0 : -2;
	for (int i = 0; !st && i < n; i++) {
		struct ub_src_site si = s[i];
		for (int j = 0; j < i; j++) /* applied operators of its kind before it */
			si.ord -= s[j].line == si.line && s[j].type == UB_SRC_BIN &&
				  si.type == UB_SRC_BIN && !strcmp(s[j].op, si.op) &&
				  s[j].ord < s[i].ord;
		st = apply1(&t, &si, l);
	}
	free(l);
	if (st) {
		free(t);
		return st;
	}
	*out = t;
	return 0;
}

/* why_ptx.c — reading PTX text for `ulpbench why` (why_ptx.h): lines,
 * .file/.loc places, instructions, alignment with the plain compile. */
#include "why_ptx.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s[0..len) without leading and trailing blanks, and without a // comment
 * (PTX strings appear only in .file, read before this). */
static void trim(const char **s, size_t *len)
{
	const char *p = *s, *e = *s + *len;
	for (const char *c = p; c + 1 < e; c++)
		if (c[0] == '/' && c[1] == '/') {
			e = c;
			break;
		}
	while (p < e && isspace((unsigned char)*p))
		p++;
	while (e > p && isspace((unsigned char)e[-1]))
		e--;
	*s = p;
	*len = (size_t)(e - p);
}

static int starts(const char *s, size_t len, const char *w)
{
	size_t n = strlen(w);
	return len >= n && !memcmp(s, w, n) &&
	       (len == n || isspace((unsigned char)s[n]));
}

/* The file index of `.file`/`.loc` number id, or -1. */
static int file_index(const struct ub_ptxtext *t, long id)
{
	for (int k = 0; k < t->nfiles; k++)
		if (t->file_id[k] == id)
			return k;
	return -1;
}

/* .file N "PATH" [, TIME, SIZE] */
static int read_file_dir(struct ub_ptxtext *t, const char *s, size_t len)
{
	char buf[4200], *end;
	snprintf(buf, sizeof buf, "%.*s", (int)(len < 4199 ? len : 4199), s);
	long id = strtol(buf + 5, &end, 10);
	char *q = strchr(end, '"'), *e = q ? strchr(q + 1, '"') : NULL;
	if (!q || !e || end == buf + 5 || t->nfiles == UB_PTX_MAX_FILES ||
	    file_index(t, id) >= 0)
		return 0; /* not understood: no place for its lines */
	*e = '\0';
	if (!(t->file[t->nfiles] = strdup(q + 1)))
		return UB_RUNTIME;
	t->file_id[t->nfiles++] = (int)id;
	return 0;
}

/* Three numbers "F L C" at *p; 0 when read. */
static int three(const char **p, long v[3])
{
	char *end;
	for (int k = 0; k < 3; k++) {
		v[k] = strtol(*p, &end, 10);
		if (end == *p || v[k] < 0 || v[k] > 0x7fffffff)
			return -1;
		*p = end;
	}
	return 0;
}

/* .loc F L C [, function_name NAME, inlined_at F L C]: the file numbers
 * are kept as read (resolved once every .file is known: nvcc writes them
 * after the code). */
static void read_loc(const char *s, size_t len, struct ub_loc *loc)
{
	char buf[512];
	long v[3], a[3];
	snprintf(buf, sizeof buf, "%.*s", (int)(len < 511 ? len : 511), s);
	const char *p = buf + 4, *at = strstr(buf, "inlined_at");
	*loc = (struct ub_loc){ .file = -1, .at_file = -1 };
	if (three(&p, v))
		return;
	*loc = (struct ub_loc){ .file = (int)v[0], .line = (unsigned)v[1],
				.col = (unsigned)v[2], .at_file = -1 };
	if (at && (p = at + 10, !three(&p, a))) {
		loc->at_file = (int)a[0];
		loc->at_line = (unsigned)a[1];
		loc->at_col = (unsigned)a[2];
	}
}

/* s[0..*len) without a '{' before and a '}' after (inline assembly's
 * braces around an instruction), said in open and close. */
static const char *unbrace(const char *s, size_t *len, int *open, int *close)
{
	*open = *close = 0;
	if (*len && s[0] == '{') {
		*open = 1;
		for (s++, (*len)--; *len && isspace((unsigned char)*s); s++, (*len)--)
			;
	}
	if (*len && s[*len - 1] == '}') {
		*close = 1;
		for ((*len)--; *len && isspace((unsigned char)s[*len - 1]); (*len)--)
			;
	}
	return s;
}

static int is_insn(const char *s, size_t len)
{
	int open, close;
	s = unbrace(s, &len, &open, &close);
	return len > 1 && s[len - 1] == ';' && s[0] != '.' && s[0] != '{' &&
	       s[0] != '}';
}

/* Classifies line k (s, len: its text); *section: inside a .section
 * block (0: no, 1: before its '{', 2: inside). */
static int classify(struct ub_ptxtext *t, uint32_t k, const char *s, size_t len,
		    int *section, struct ub_loc *cur)
{
	struct ub_pline *l = &t->lines[k];
	while (len && isspace((unsigned char)*s))
		s++, len--;
	if (starts(s, len, ".file"))
		return read_file_dir(t, s, len);
	trim(&s, &len);
	if (*section || starts(s, len, ".section")) {
		l->kind = UB_PL_SKIPPED;
		if (!*section)
			*section = 1;
		if (memchr(s, '{', len))
			*section = 2;
		if (*section == 2 && memchr(s, '}', len))
			*section = 0;
	} else if (starts(s, len, ".loc")) {
		read_loc(s, len, cur);
	} else if (is_insn(s, len)) {
		l->kind = UB_PL_INSN;
		l->loc = *cur;
	}
	return 0;
}

/* .loc file numbers to file indices, once every .file is read. */
static void resolve_files(struct ub_ptxtext *t)
{
	for (uint32_t k = 1; k <= t->nlines; k++) {
		struct ub_loc *l = &t->lines[k].loc;
		if (t->lines[k].kind != UB_PL_INSN)
			continue;
		l->file = l->file >= 0 ? file_index(t, l->file) : -1;
		l->at_file = l->at_file >= 0 ? file_index(t, l->at_file) : -1;
		t->has_loc |= l->file >= 0;
	}
}

int ub_ptxtext_read(const char *text, struct ub_ptxtext *t, struct ub_error *err)
{
	uint32_t n = 1, k = 0;
	memset(t, 0, sizeof *t);
	t->text = text;
	for (const char *p = text; *p; p++)
		n += *p == '\n';
	if (!(t->lines = calloc((size_t)n + 1, sizeof *t->lines)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	struct ub_loc cur = { .file = -1, .at_file = -1 };
	int section = 0;
	for (const char *p = text; *p || k == 0;) {
		const char *e = strchr(p, '\n');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		t->lines[++k] = (struct ub_pline){ .off = (uint32_t)(p - text),
						   .len = (uint32_t)len };
		if (classify(t, k, p, len, &section, &cur)) {
			ub_ptxtext_free(t);
			return ub_fail(err, UB_RUNTIME, "out of memory");
		}
		if (!e)
			break;
		p = e + 1;
	}
	t->nlines = k;
	resolve_files(t);
	return 0;
}

void ub_ptxtext_free(struct ub_ptxtext *t)
{
	for (int k = 0; k < t->nfiles; k++)
		free(t->file[k]);
	free(t->lines);
	memset(t, 0, sizeof *t);
}

const char *ub_ptxtext_file(const struct ub_ptxtext *t, int k)
{
	return k >= 0 && k < t->nfiles ? t->file[k] : NULL;
}

/* Two instruction texts equal, blanks aside. */
static int same_code(const char *a, size_t na, const char *b, size_t nb)
{
	trim(&a, &na);
	trim(&b, &nb);
	size_t i = 0, j = 0;
	while (i < na && j < nb) {
		int sa = isspace((unsigned char)a[i]), sb = isspace((unsigned char)b[j]);
		if (sa && sb) {
			while (i < na && isspace((unsigned char)a[i]))
				i++;
			while (j < nb && isspace((unsigned char)b[j]))
				j++;
		} else if (a[i++] != b[j++]) {
			return 0;
		}
	}
	return i == na && j == nb;
}

int ub_ptxtext_align(struct ub_ptxtext *t, const char *plain)
{
	struct ub_ptxtext p;
	struct ub_error e;
	if (ub_ptxtext_read(plain, &p, &e))
		return -UB_RUNTIME;
	uint32_t i = 1, j = 1;
	int ok = 1;
	while (ok) {
		while (i <= t->nlines && t->lines[i].kind != UB_PL_INSN)
			i++;
		while (j <= p.nlines && p.lines[j].kind != UB_PL_INSN)
			j++;
		if (i > t->nlines || j > p.nlines) {
			ok = i > t->nlines && j > p.nlines;
			break;
		}
		ok = same_code(t->text + t->lines[i].off, t->lines[i].len,
			       plain + p.lines[j].off, p.lines[j].len);
		t->lines[i++].plain = j++;
	}
	for (uint32_t k = 1; !ok && k <= t->nlines; k++)
		t->lines[k].plain = 0;
	ub_ptxtext_free(&p);
	return ok;
}

/* The next operand of an instruction at *p (up to ',' or ';' at depth
 * 0) into out; 0, or -1 when it is too long or holds braces. */
static int operand(const char **p, const char *e, char *out, size_t cap)
{
	const char *s = *p;
	int depth = 0;
	while (*p < e && (depth > 0 || (**p != ',' && **p != ';'))) {
		char c = **p;
		if (c == '{' || c == '}')
			return -1;
		depth += (c == '[' || c == '(') - (c == ']' || c == ')');
		if (depth < 0)
			return -1;
		(*p)++;
	}
	const char *q = s, *r = *p;
	while (q < r && isspace((unsigned char)*q))
		q++;
	while (r > q && isspace((unsigned char)r[-1]))
		r--;
	if (depth || r == q || (size_t)(r - q) >= cap)
		return -1;
	snprintf(out, cap, "%.*s", (int)(r - q), q);
	return 0;
}

/* A word of non-blank characters at *p into out (cap bytes). */
static int word(const char **p, const char *e, char *out, size_t cap)
{
	const char *s = *p;
	while (*p < e && !isspace((unsigned char)**p) && **p != ';')
		(*p)++;
	if (*p == s || (size_t)(*p - s) >= cap)
		return -1;
	snprintf(out, cap, "%.*s", (int)(*p - s), s);
	while (*p < e && isspace((unsigned char)**p))
		(*p)++;
	return 0;
}

int ub_pinsn_parse(const char *s, size_t len, struct ub_pinsn *in)
{
	trim(&s, &len);
	memset(in, 0, sizeof *in);
	if (!is_insn(s, len))
		return -1;
	s = unbrace(s, &len, &in->open, &in->close);
	const char *p = s, *e = s + len;
	if (memchr(s, ';', len - 1))
		return -1; /* not one instruction alone */
	if (*p == '@' && word(&p, e, in->guard, sizeof in->guard))
		return -1;
	if (word(&p, e, in->mn, sizeof in->mn))
		return -1;
	while (p < e && *p != ';') {
		if (in->nops == UB_PINSN_MAX_OPS ||
		    operand(&p, e, in->op[in->nops++], sizeof in->op[0]))
			return -1;
		if (*p == ',')
			p++;
	}
	return 0;
}

int ub_pinsn_line(const struct ub_ptxtext *t, uint32_t k, struct ub_pinsn *in)
{
	if (k < 1 || k > t->nlines || t->lines[k].kind != UB_PL_INSN)
		return -1;
	return ub_pinsn_parse(t->text + t->lines[k].off, t->lines[k].len, in);
}

int ub_mn_has(const char *mn, const char *part)
{
	size_t n = strlen(part);
	for (const char *p = strchr(mn, '.'); p; p = strchr(p, '.')) {
		p++;
		if (!strncmp(p, part, n) && (p[n] == '.' || p[n] == '\0'))
			return 1;
	}
	return 0;
}

const char *ub_mn_ftype(const char *mn)
{
	static const char *const types[] = { "f32", "f64", "f16", "bf16", "f16x2",
					     "bf16x2" };
	const char *last = strrchr(mn, '.');
	for (size_t k = 0; last && k < sizeof types / sizeof types[0]; k++)
		if (!strcmp(last + 1, types[k]))
			return types[k];
	return NULL;
}

static const char *base_of(const char *path, int base)
{
	const char *b = strrchr(path, '/');
	return base && b ? b + 1 : path;
}

const char *ub_loc_format(const struct ub_ptxtext *t, const struct ub_loc *loc,
			  int base, char *buf, size_t len)
{
	const char *f = ub_ptxtext_file(t, loc->file);
	const char *af = ub_ptxtext_file(t, loc->at_file);
	buf[0] = '\0';
	if (!f || !loc->line)
		return buf;
	if (af && loc->at_line && af == f)
		snprintf(buf, len, "%s:%u (inlined at line %u)", base_of(f, base),
			 loc->line, loc->at_line);
	else if (af && loc->at_line)
		snprintf(buf, len, "%s:%u (inlined at %s:%u)", base_of(f, base),
			 loc->line, base_of(af, base), loc->at_line);
	else
		snprintf(buf, len, "%s:%u", base_of(f, base), loc->line);
	return buf;
}

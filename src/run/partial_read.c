/* partial_read.c — reading a partial file back (partial.h).
 *
 * The whole file is read, its first line must name the format (else it
 * is "not a ulpbench partial file") and its last line must be the
 * checksum of everything before it (else it is "damaged": cut short by a
 * killed job, edited, or a disk error); only then is it parsed, item by
 * item in the order partial.h lists, every number checked to its last
 * character.  The sets of a row's figures must be in index order, as
 * they are written: no element is in one twice. */
#include "partial.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 1024 /* the words of a line, at most */
/* every stat line fits: its name and values, after "stat" */
#define X(kind, name, dims)                                                    \
	_Static_assert(sizeof ((struct ub_stats *)0)->name / sizeof(ub_stats_##kind) + 2 \
		       <= MAX_WORDS, "stat " #name " has more values than a line holds");
UB_STATS_FIELDS(X)
#undef X

struct rd {
	const char *path;
	char *p, *end;       /* the unread text */
	int line;
	char *w[MAX_WORDS];  /* the current line's words */
	int nw;
	struct ub_error *err;
};

static int bad(struct rd *r, const char *what)
{
	return ub_fail(r->err, UB_USAGE, "%s: line %d: %s (a partial file this "
		       "ulpbench did not write?)", r->path, r->line, what);
}

/* The next line, split into words at spaces (each NUL-terminated in
 * place); 0, or -1 at the end.  By hand, not strtok: merging 10,000
 * parts reads millions of lines. */
static int next_line(struct rd *r)
{
	if (r->p >= r->end)
		return -1;
	char *c = r->p;
	r->line++;
	r->nw = 0;
	for (;;) {
		while (*c == ' ')
			*c++ = '\0';
		if (*c == '\n')
			break;
		if (r->nw < MAX_WORDS)
			r->w[r->nw] = c;
		r->nw++; /* past MAX_WORDS: the caller's count check fails */
		while (*c != ' ' && *c != '\n')
			c++;
	}
	*c = '\0';
	r->p = c + 1;
	if (r->nw > MAX_WORDS)
		r->nw = MAX_WORDS + 1, r->w[0] = "";
	return 0;
}

/* The next line is KEY followed by nargs words (-1: any number). */
static int expect(struct rd *r, const char *key, int nargs)
{
	char what[96];
	if (next_line(r) || r->nw < 1 || strcmp(r->w[0], key) ||
	    (nargs >= 0 && r->nw != nargs + 1)) {
		snprintf(what, sizeof what, "expected '%s'", key);
		return bad(r, what);
	}
	return 0;
}

/* A hex digit's value (either case), or -1. */
static int hexdigit(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Digits of base 10 or 16 to the end of s, without overflow, into *v;
 * the number of digits, or -1.  16 hex or 19 decimal digits cannot
 * overflow 64 bits; a 20th decimal one is checked. */
static int digits(const char *s, int base, uint64_t *v)
{
	uint64_t x = 0;
	int n = 0;
	for (; *s; s++, n++) {
		int d = base == 16 ? hexdigit((unsigned char)*s) :
			*s >= '0' && *s <= '9' ? *s - '0' : -1;
		if (d < 0 || n == (base == 16 ? 16 : 20))
			return -1;
		if (n == 19 && x > (UINT64_MAX - (uint64_t)d) / 10)
			return -1;
		x = x * (uint64_t)base + (uint64_t)d;
	}
	*v = x;
	return n ? n : -1;
}

static int num(struct rd *r, const char *s, int base, uint64_t *v)
{
	return digits(s, base, v) < 0 ? bad(r, "not a number") : 0;
}

/* What %a writes: [-]0xH[.HHH]p[+-]D, [-]inf or [-]nan.  The value is
 * the integer of the hex digits times 2^(D - 4 * fraction digits): at
 * most 53 bits, so the conversion and ldexp are exact. */
static int real(struct rd *r, const char *s, double *v)
{
	int neg = *s == '-';
	s += neg;
	if (!strcmp(s, "inf") || !strcmp(s, "nan")) {
		*v = *s == 'i' ? INFINITY : NAN;
		*v = neg ? -*v : *v;
		return 0;
	}
	uint64_t m = 0;
	int frac = -1, n = 0;
	if (s[0] != '0' || s[1] != 'x')
		return bad(r, "not a real number");
	for (s += 2; *s && *s != 'p'; s++) {
		int d = hexdigit((unsigned char)*s);
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (d < 0 || ++n > 15)
			return bad(r, "not a real number");
		m = m << 4 | (uint64_t)d;
		frac += frac >= 0;
	}
	uint64_t e;
	int eneg = s[0] == 'p' && s[1] == '-';
	if (!n || s[0] != 'p' || (s[1] != '-' && s[1] != '+') || digits(s + 2, 10, &e) < 0 ||
	    e > 2000 || m >> 53)
		return bad(r, "not a real number");
	*v = ldexp((double)m, (eneg ? -(int)e : (int)e) - 4 * (frac > 0 ? frac : 0));
	*v = neg ? -*v : *v;
	return 0;
}

static int hexval(int c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Undoes the %-escapes of partial_write.c's text() into out. */
static int text(struct rd *r, const char *s, char *out, size_t len)
{
	size_t n = 0;
	if (!strcmp(s, "-"))
		s = "";
	for (; *s; s++) {
		int c = (unsigned char)*s;
		if (c == '%') {
			int a = hexval((unsigned char)s[1]), b = a < 0 ? -1 : hexval((unsigned char)s[2]);
			if (b < 0)
				return bad(r, "bad %-escape");
			c = a * 16 + b;
			s += 2;
		}
		if (n + 1 >= len)
			return bad(r, "text too long");
		out[n++] = (char)c;
	}
	out[n] = '\0';
	return 0;
}

static int get_COUNT(struct rd *r, size_t *v, size_t n)
{
	uint64_t x;
	for (size_t k = 0; k < n; k++) {
		if (num(r, r->w[2 + k], 10, &x))
			return -1;
		v[k] = (size_t)x;
	}
	return 0;
}

static int get_MAXU(struct rd *r, uint64_t *v, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (num(r, r->w[2 + k], 10, &v[k]))
			return -1;
	return 0;
}

static int get_XSUM(struct rd *r, struct ub_xsum *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		for (char *c = r->w[2 + k]; *c; c++)
			if (*c == '_')
				*c = ' ';
		if (ub_xsum_parse(r->w[2 + k], &v[k]))
			return bad(r, "not an exact sum");
	}
	return 0;
}

/* "e I ERR IN,... Y CR TORCH DIST EXACT" */
static int elem(struct rd *r, int nin, struct ub_fig_elem *e)
{
	uint64_t v[4];
	memset(e, 0, sizeof *e);
	if (expect(r, "e", 8) || num(r, r->w[1], 10, &e->idx) || real(r, r->w[2], &e->err))
		return -1;
	e->key = ub_fig_key(e->idx);
	char *t = r->w[3];
	for (int k = 0; k < nin; k++) {
		char *comma = strchr(t, ',');
		if (!comma != (k == nin - 1))
			return bad(r, comma ? "too many inputs" : "too few inputs");
		if (comma)
			*comma = '\0';
		if (num(r, t, 16, &e->in[k]))
			return -1;
		if (comma) /* the last input ends the word */
			t = comma + 1;
	}
	for (int k = 0; k < 4; k++)
		if (num(r, r->w[4 + k], 16, &v[k]))
			return -1;
	e->y = v[0], e->cr = v[1], e->torch = v[2], e->dist = v[3];
	return real(r, r->w[8], &e->exact);
}

/* Set i of set[] (partial_write.c's figs()): its elements in index
 * order, each one that could be in it. */
static int figset(struct rd *r, int nin, size_t n_run, struct ub_figset *set, int i)
{
	uint64_t count;
	if (expect(r, "set", 2) || strcmp(r->w[1], set[i].name) ||
	    num(r, r->w[2], 10, &count))
		return r->err->msg[0] ? -1 : bad(r, "expected another set");
	if (count > set[i].cap)
		return bad(r, "set larger than its maximum");
	for (size_t j = 0; j < count; j++) {
		struct ub_fig_elem *x = &set[i].e[j];
		if (elem(r, nin, x))
			return -1;
		if (x->idx >= n_run)
			return bad(r, "element index past the run's end");
		if (j && x[-1].idx >= x->idx)
			return bad(r, "set out of order");
		if (i == 2 ? x->err != -1 : i >= 3 ? !(x->err >= 0) || ub_fig_band(x->err) != i - 3
						   : !(x->err >= 0 || x->err == -1))
			return bad(r, "an element's error does not belong in its set");
	}
	*set[i].n = (size_t)count;
	return 0;
}

/* "fine BIN COUNT" lines, bins increasing, then "cell K COL ..." lines,
 * (K, COL) increasing, into g. */
static int fine_cells(struct rd *r, struct ub_figs *g)
{
	uint64_t b, v[5];
	long last = -1;
	while (r->p < r->end && !strncmp(r->p, "fine ", 5)) {
		if (expect(r, "fine", 2) || num(r, r->w[1], 10, &b) || num(r, r->w[2], 10, &v[0]))
			return -1;
		if (b >= UB_FINE_BINS || (long)b <= last || !v[0])
			return bad(r, "bad fine bin");
		g->fine[b] = v[0];
		last = (long)b;
	}
	last = -1;
	while (r->p < r->end && !strncmp(r->p, "cell ", 5)) {
		uint64_t k, c;
		if (expect(r, "cell", 7) || num(r, r->w[1], 10, &k) || num(r, r->w[2], 10, &c))
			return -1;
		for (int i = 0; i < 4; i++)
			if (num(r, r->w[3 + i], 10, &v[i]))
				return -1;
		struct ub_fig_cell *x = &g->cell[k < UB_MAX_INPUTS ? k : 0][c < UB_FIG_COLS ? c : 0];
		if (k >= (uint64_t)g->nin || c >= (uint64_t)ub_fig_ncols(g->dt) ||
		    (long)(k * UB_FIG_COLS + c) <= last || !v[0])
			return bad(r, "bad cell");
		last = (long)(k * UB_FIG_COLS + c);
		x->n = v[0], x->nan = v[1], x->torch = v[2], x->max_dist = v[3];
		if (real(r, r->w[7], &x->max_ulp))
			return -1;
		if (!(x->max_ulp >= 0))
			return bad(r, "bad cell");
	}
	return 0;
}

/* A row's figures: read as written, then added into an empty one, which
 * makes its sets the heaps figures.h keeps (and the merge's input). */
static int figs(struct rd *r, int nin, size_t n_run, struct ub_prow *pr)
{
	uint64_t t;
	struct ub_figset set[UB_PARTIAL_NSETS];
	if (expect(r, "figs", 1) || num(r, r->w[1], 10, &t))
		return -1;
	if (t > 1)
		return bad(r, "bad 'figs'");
	struct ub_figs *g = ub_figs_new(pr->dt, nin, (int)t);
	if (!g || !(pr->fig = ub_figs_new(pr->dt, nin, (int)t))) {
		free(g);
		return ub_fail(r->err, UB_RUNTIME, "out of memory");
	}
	int s = fine_cells(r, g);
	ub_partial_figsets(g, set);
	for (int i = 0; !s && i < UB_PARTIAL_NSETS; i++)
		s = figset(r, nin, n_run, set, i);
	if (!s)
		ub_figs_merge(pr->fig, g);
	free(g);
	return s;
}

static int row(struct rd *r, struct ub_partial *p, struct ub_prow *pr)
{
	uint64_t v;
	int t, s;
	if (expect(r, "row", 2) || (t = ub_dtype_find(r->w[1])) < 0)
		return r->err->msg[0] ? -1 : bad(r, "unknown dtype");
	pr->dt = (enum ub_dtype)t;
	size_t n_run = 0;
	for (int d = 0; d < p->ndata; d++)
		if (p->data[d].dt == pr->dt)
			n_run = p->data[d].n;
	if ((s = text(r, r->w[2], pr->mode, sizeof pr->mode)) || expect(r, "na", 1) ||
	    text(r, r->w[1], pr->na, sizeof pr->na) || expect(r, "approx", 1) ||
	    num(r, r->w[1], 16, &pr->approx))
		return -1;
#define X(kind, name, dims)                                                    \
	if (expect(r, "stat", (int)(sizeof pr->st.name / sizeof(ub_stats_##kind)) + 1) || \
	    strcmp(r->w[1], #name))                                            \
		return r->err->msg[0] ? -1 : bad(r, "expected 'stat " #name "'"); \
	if (get_##kind(r, (ub_stats_##kind *)&pr->st.name,                     \
		       sizeof pr->st.name / sizeof(ub_stats_##kind)))         \
		return -1;
	UB_STATS_FIELDS(X)
#undef X
	if (expect(r, "worst", 2 + p->nin) || real(r, r->w[1], &pr->st.max_ulp) ||
	    num(r, r->w[2], 10, &v))
		return -1;
	pr->st.worst = (size_t)v;
	for (int k = 0; k < p->nin; k++)
		if (num(r, r->w[3 + k], 16, &pr->st.worst_in[k]))
			return -1;
	if (expect(r, "first_undecided", 1 + p->nin) || num(r, r->w[1], 10, &v))
		return -1;
	pr->st.first_undecided = (size_t)v;
	for (int k = 0; k < p->nin; k++)
		if (num(r, r->w[2 + k], 16, &pr->st.undecided_in[k]))
			return -1;
	if (pr->st.n > n_run)
		return bad(r, "more elements than the run has");
	return pr->na[0] ? 0 : figs(r, p->nin, n_run, pr);
}

/* Everything after the first line and before the checksum. */
static int parse(struct rd *r, struct ub_partial *p)
{
	uint64_t a, b;
	if (expect(r, "shard", 2) || num(r, r->w[1], 10, &a) || num(r, r->w[2], 10, &b))
		return -1;
	if (b < 1 || a >= b)
		return bad(r, "shard K N with K >= N");
	p->shard = (size_t)a, p->nshards = (size_t)b;
	for (int i = 0; i < UB_NID; i++)
		if (expect(r, "id", 2) || strcmp(r->w[1], ub_run_id_names[i]) ||
		    text(r, r->w[2], p->id.v[i], sizeof p->id.v[i]))
			return r->err->msg[0] ? -1 : bad(r, "expected another id");
	while (next_line(r) == 0 && r->nw == 2 && !strcmp(r->w[0], "arg")) {
		char buf[4096], **args = realloc(p->args, (size_t)(p->nargs + 1) * sizeof *args);
		if (!args)
			return ub_fail(r->err, UB_RUNTIME, "out of memory");
		p->args = args;
		if (text(r, r->w[1], buf, sizeof buf))
			return -1;
		if (!(p->args[p->nargs++] = strdup(buf)))
			return ub_fail(r->err, UB_RUNTIME, "out of memory");
	}
	if (r->nw != 2 || strcmp(r->w[0], "inputs") || num(r, r->w[1], 10, &a) ||
	    a < 1 || a > UB_MAX_INPUTS)
		return r->err->msg[0] ? -1 : bad(r, "expected 'inputs'");
	p->nin = (int)a;
	while (r->p < r->end && !strncmp(r->p, "data ", 5)) {
		int t = expect(r, "data", 3) ? -2 : ub_dtype_find(r->w[1]);
		if (t < 0 || p->ndata == UB_NDTYPES || num(r, r->w[2], 10, &a) ||
		    num(r, r->w[3], 10, &b))
			return r->err->msg[0] ? -1 : bad(r, "bad 'data'");
		p->data[p->ndata].dt = (enum ub_dtype)t;
		p->data[p->ndata].rejected = b;
		p->data[p->ndata++].n = (size_t)a;
	}
	while (r->p < r->end && strncmp(r->p, "end\n", 4)) {
		if (p->nrows == (int)(sizeof p->rows / sizeof p->rows[0]))
			return bad(r, "too many rows");
		if (row(r, p, &p->rows[p->nrows++]))
			return -1;
	}
	if (expect(r, "end", 0))
		return -1;
	return r->p == r->end ? 0 : bad(r, "text after 'end'");
}

/* The file whole, NUL-terminated, into *buf: one that does not start
 * with the format's name is read no further ("not a ulpbench partial
 * file", e.g. /dev/zero), nor one of more than 4 GiB. */
static int slurp(const char *path, char **buf, size_t *len, struct ub_error *err)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 1 << 16, mlen = strlen(UB_PARTIAL_MAGIC);
	*len = 0;
	if (!f)
		return ub_fail(err, UB_USAGE, "%s: cannot read: %s", path, strerror(errno));
	*buf = malloc(cap);
	for (size_t got; *buf && (got = fread(*buf + *len, 1, cap - *len - 1, f)) > 0;) {
		*len += got;
		if (*len > mlen && memcmp(*buf, UB_PARTIAL_MAGIC " ", mlen + 1))
			break; /* the caller says what it is not */
		if (*len + 1 == cap) {
			char *more = cap < ((size_t)1 << 32) ? realloc(*buf, cap *= 2) : NULL;
			if (!more) {
				free(*buf);
				*buf = NULL;
			}
			*buf = more;
		}
	}
	int e = ferror(f) ? errno : 0;
	fclose(f);
	if (!*buf)
		return ub_fail(err, UB_RUNTIME, "%s: cannot read: out of memory, or "
			       "more than 4 GiB", path);
	(*buf)[*len] = '\0';
	return e ? ub_fail(err, UB_USAGE, "%s: cannot read: %s", path, strerror(e)) : 0;
}

int ub_partial_read(const char *path, struct ub_partial *p, struct ub_error *err)
{
	char *buf = NULL, head[64];
	size_t len, mlen = strlen(UB_PARTIAL_MAGIC);
	memset(p, 0, sizeof *p);
	int s = slurp(path, &buf, &len, err);
	if (s)
		return s;
	if (len < mlen + 1 || memcmp(buf, UB_PARTIAL_MAGIC " ", mlen + 1)) {
		free(buf);
		return ub_fail(err, UB_USAGE, "%s: not a ulpbench partial file", path);
	}
	snprintf(head, sizeof head, "%s %d\n", UB_PARTIAL_MAGIC, UB_PARTIAL_VERSION);
	const char *cr = strchr(buf, '\r'), *nl = strchr(buf, '\n');
	if (cr && (!nl || cr < nl)) {
		free(buf);
		return ub_fail(err, UB_USAGE, "%s: its lines end in CR LF, not LF: a "
			       "part copied as text (copy it as binary, or run its shard "
			       "again)", path);
	}
	if (strncmp(buf, head, strlen(head))) {
		free(buf);
		return ub_fail(err, UB_USAGE, "%s: a partial file of another format "
			       "than this ulpbench's (%d): merge it with the ulpbench "
			       "that wrote it", path, UB_PARTIAL_VERSION);
	}
	/* the last line: "checksum " and 16 hex digits of what comes before */
	const size_t clen = 9 + 16 + 1;
	char *sum = len >= clen ? buf + len - clen : NULL;
	uint64_t want = 0;
	char *end = NULL;
	if (sum && !memcmp(sum, "checksum ", 9) && sum[clen - 1] == '\n' &&
	    (sum == buf || sum[-1] == '\n'))
		want = strtoull(sum + 9, &end, 16);
	if (!sum || memcmp(sum, "checksum ", 9) || end != sum + clen - 1 ||
	    ub_hash64(UB_HASH64_INIT, buf, (size_t)(sum - buf)) != want) {
		free(buf);
		return ub_fail(err, UB_USAGE, "%s: damaged or incomplete (its checksum "
			       "does not match): run its shard again", path);
	}
	struct rd r = {.path = path, .p = buf, .end = sum, .err = err};
	err->msg[0] = '\0';
	next_line(&r); /* the format line */
	s = parse(&r, p);
	/* the helpers return -1 once bad() said why: the status is bad()'s */
	if (s < 0)
		s = r.err->msg[0] ? UB_USAGE : bad(&r, "malformed");
	free(buf);
	if (s)
		ub_partial_free(p);
	return s;
}

/* npy.c — NumPy .npy files, read and written.
 *
 * Format (numpy/lib/format.py, NEP 1): the magic "\x93NUMPY", a major and
 * a minor version byte, the header length (uint16 little-endian for 1.0,
 * uint32 for 2.0 and 3.0), then a Python dict literal such as
 *   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
 * padded with spaces and ended by '\n' (ASCII; UTF-8 in 3.0), then the
 * elements, raw, in C order.
 *
 * Method: the header is parsed by a small strict tokenizer, never
 * evaluated: exactly the three keys in any order, a quoted descr, True or
 * False, a tuple of non-negative integers ("(5)" is an int in Python, not a
 * tuple, and is refused).  The descr must name the dtype asked for:
 * "<f4" f32, "<f2" f16, "<u2" bf16 bits, "<f8" f64; "=f4" (native) and
 * "f4" (no byte order, native) are accepted too since hosts are
 * little-endian; ">f4" and "|f4" are not.  Elements are converted from
 * little-endian byte by byte, so the code is right on any host.
 * The data must fill the file exactly: short files and trailing bytes are
 * both errors.  ub_npy_open checks all of that from the header and the
 * file's size without reading the data, which ub_npy_read_range then
 * reads in pieces (pread: no shared file position), each one checked
 * again against a file that shrank since.
 *
 * Writing uses version 1.0 and pads the header with spaces so the data
 * starts at a multiple of 64 bytes (numpy's ARRAY_ALIGN rule, padding
 * 1..64 bytes), into a temporary file beside the target that is renamed
 * over it at the end, or removed on any error. */
#include "npy.h"
#include "tmpfiles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char npy_magic[6] = "\x93NUMPY";
#define NPY_ALIGN 64
#define NPY_MAX_HEADER (1u << 20) /* v2/v3 header length accepted */

/* ----------------------------------------------------------------------
 * Header parsing */

struct hdr {
	const char *p, *end;
	const char *why;        /* reason when malformed */
	char descr[32];
	int fortran;
	struct ub_shape shape;
	unsigned seen;          /* bit per key */
	int structured;         /* descr was a list */
};

#define NPY_KEYS(X) X(DESCR, "descr") X(FORTRAN, "fortran_order") X(SHAPE, "shape")
enum {
#define X(id, s) KEY_##id,
	NPY_KEYS(X)
#undef X
	NKEYS
};
static const char *const key_names[NKEYS] = {
#define X(id, s) s,
	NPY_KEYS(X)
#undef X
};

static void skip_ws(struct hdr *h)
{
	while (h->p < h->end && (*h->p == ' ' || *h->p == '\t' ||
				 *h->p == '\n' || *h->p == '\r'))
		h->p++;
}

static int bad(struct hdr *h, const char *why)
{
	if (!h->why)
		h->why = why;
	return -1;
}

static int expect(struct hdr *h, char c, const char *why)
{
	skip_ws(h);
	if (h->p >= h->end || *h->p != c)
		return bad(h, why);
	h->p++;
	return 0;
}

/* A Python string literal without escapes, '...' or "...". */
static int parse_str(struct hdr *h, char *buf, size_t len)
{
	skip_ws(h);
	if (h->p >= h->end || (*h->p != '\'' && *h->p != '"'))
		return bad(h, "expected a quoted string");
	char q = *h->p++;
	size_t k = 0;
	while (h->p < h->end && *h->p != q) {
		if (*h->p == '\\' || k + 1 >= len)
			return bad(h, "unsupported string");
		buf[k++] = *h->p++;
	}
	if (h->p >= h->end)
		return bad(h, "unterminated string");
	h->p++;
	buf[k] = '\0';
	return 0;
}

static int parse_word(struct hdr *h, const char *w)
{
	size_t n = strlen(w);
	if ((size_t)(h->end - h->p) < n || memcmp(h->p, w, n) != 0)
		return 0;
	h->p += n;
	return 1;
}

static int parse_bool(struct hdr *h, int *v)
{
	skip_ws(h);
	if (parse_word(h, "True"))
		*v = 1;
	else if (parse_word(h, "False"))
		*v = 0;
	else
		return bad(h, "fortran_order is not True or False");
	return 0;
}

static int parse_dim(struct hdr *h, size_t *d)
{
	skip_ws(h);
	if (h->p >= h->end || *h->p < '0' || *h->p > '9')
		return bad(h, "bad shape");
	size_t v = 0;
	while (h->p < h->end && *h->p >= '0' && *h->p <= '9') {
		unsigned dig = (unsigned)(*h->p++ - '0');
		if (v > (SIZE_MAX - dig) / 10)
			return bad(h, "shape dimension too large");
		v = v * 10 + dig;
	}
	if (h->p < h->end && *h->p == 'L') /* Python 2 long: (3L,) */
		h->p++;
	*d = v;
	return 0;
}

/* "()", "(5,)", "(2, 3)", "(2, 3,)": a tuple, so one element needs its comma. */
static int parse_shape(struct hdr *h, struct ub_shape *s)
{
	int comma = 0;
	if (expect(h, '(', "shape is not a tuple"))
		return -1;
	s->ndim = 0;
	for (;;) {
		skip_ws(h);
		if (h->p < h->end && *h->p == ')')
			break;
		if (s->ndim == UB_NPY_MAXDIM)
			return bad(h, "shape has too many dimensions (at most "
				   "8 supported)");
		if (parse_dim(h, &s->dim[s->ndim++]))
			return -1;
		skip_ws(h);
		comma = h->p < h->end && *h->p == ',';
		if (comma)
			h->p++;
		else if (h->p >= h->end || *h->p != ')')
			return bad(h, "bad shape");
	}
	h->p++;
	if (s->ndim == 1 && !comma)
		return bad(h, "shape is not a tuple");
	return 0;
}

static int parse_value(struct hdr *h, int key)
{
	switch (key) {
	case KEY_DESCR:
		skip_ws(h);
		if (h->p < h->end && *h->p == '[') {
			h->structured = 1;
			return bad(h, "structured dtype");
		}
		return parse_str(h, h->descr, sizeof h->descr);
	case KEY_FORTRAN:
		return parse_bool(h, &h->fortran);
	default:
		return parse_shape(h, &h->shape);
	}
}

static int parse_dict(struct hdr *h)
{
	if (expect(h, '{', "expected '{'"))
		return -1;
	for (;;) {
		char key[32];
		skip_ws(h);
		if (h->p < h->end && *h->p == '}')
			break;
		if (parse_str(h, key, sizeof key))
			return -1;
		int k = 0;
		while (k < NKEYS && strcmp(key, key_names[k]) != 0)
			k++;
		if (k == NKEYS)
			return bad(h, "unexpected key");
		if (h->seen & (1u << k))
			return bad(h, "duplicate key");
		h->seen |= 1u << k;
		if (expect(h, ':', "expected ':'") || parse_value(h, k))
			return -1;
		skip_ws(h);
		if (h->p < h->end && *h->p == ',')
			h->p++;
		else if (h->p >= h->end || *h->p != '}')
			return bad(h, "expected ',' or '}'");
	}
	h->p++;
	skip_ws(h);
	if (h->p != h->end)
		return bad(h, "text after the dict");
	if (h->seen != (1u << NKEYS) - 1)
		return bad(h, "missing key (needs descr, fortran_order, shape)");
	return 0;
}

/* ----------------------------------------------------------------------
 * Shapes, dtypes, byte order */

static const char *shape_str(const struct ub_shape *s, char *buf, size_t len)
{
	size_t k = (size_t)snprintf(buf, len, "(");
	for (int i = 0; i < s->ndim && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%zu", i ? ", " : "",
				      s->dim[i]);
	if (k < len)
		snprintf(buf + k, len - k, "%s)", s->ndim == 1 ? "," : "");
	return buf;
}

/* Element count of a shape; -1 on overflow of size_t or of bytes. */
static int shape_count(const struct ub_shape *s, size_t elsize, size_t *n)
{
	size_t c = 1;
	for (int i = 0; i < s->ndim; i++)
		if (s->dim[i] == 0)
			c = 0;
	for (int i = 0; i < s->ndim && c; i++) {
		if (c > SIZE_MAX / s->dim[i])
			return -1;
		c *= s->dim[i];
	}
	if (c > (SIZE_MAX / 2) / elsize) /* bytes must fit off_t too */
		return -1;
	*n = c;
	return 0;
}

/* "<f4" matches "<f4", "=f4" and "f4" (native on little-endian hosts). */
static int descr_ok(const char *found, const char *want)
{
	if (strcmp(found, want) == 0)
		return 1;
	if (found[0] == '=')
		found++;
	return strcmp(found, want + 1) == 0;
}

static uint64_t le_load(const unsigned char *p, size_t es)
{
	uint64_t v = 0;
	for (size_t b = es; b-- > 0;)
		v = v << 8 | p[b];
	return v;
}

static void le_store(unsigned char *p, uint64_t v, size_t es)
{
	for (size_t b = 0; b < es; b++, v >>= 8)
		p[b] = (unsigned char)v;
}

/* ----------------------------------------------------------------------
 * Reading */

/* Magic, version and header bytes into *text (malloc'd); *off is where
 * the data starts. */
static int read_header(FILE *f, const char *path, char **text, size_t *hlen,
		       size_t *off, struct ub_error *err)
{
	unsigned char pre[12];
	size_t got = fread(pre, 1, 8, f);
	if (got < 6 || memcmp(pre, npy_magic, 6) != 0)
		return ub_fail(err, UB_USAGE, "%s: not a .npy file (bad magic)",
			       path);
	if (got < 8)
		return ub_fail(err, UB_USAGE, "%s: truncated header", path);
	int major = pre[6], minor = pre[7];
	if (major < 1 || major > 3 || minor != 0)
		return ub_fail(err, UB_USAGE, "%s: unsupported .npy version "
			       "%d.%d (1.0, 2.0 and 3.0 are)", path, major,
			       minor);
	size_t lenbytes = major == 1 ? 2 : 4;
	if (fread(pre + 8, 1, lenbytes, f) != lenbytes)
		return ub_fail(err, UB_USAGE, "%s: truncated header", path);
	*hlen = (size_t)le_load(pre + 8, lenbytes);
	if (*hlen > NPY_MAX_HEADER)
		return ub_fail(err, UB_USAGE, "%s: malformed header: length "
			       "%zu too large", path, *hlen);
	*off = 8 + lenbytes + *hlen;
	*text = malloc(*hlen ? *hlen : 1);
	if (!*text)
		return ub_fail(err, UB_RUNTIME, "%s: out of memory", path);
	if (fread(*text, 1, *hlen, f) != *hlen) {
		free(*text);
		*text = NULL;
		return ub_fail(err, UB_USAGE, "%s: truncated header", path);
	}
	return 0;
}

/* The header names dtype want (or, want NULL, <i8 or <i4). */
static int check_header(struct hdr *h, const char *path, const char *want,
			struct ub_error *err)
{
	int any_int = !want;
	if (any_int)
		want = "<i8, <i4 or |u1 (integers)";
	if (parse_dict(h) != 0 && !h->structured)
		return ub_fail(err, UB_USAGE, "%s: malformed header: %s", path,
			       h->why);
	if (h->structured)
		return ub_fail(err, UB_USAGE, "%s: expected dtype %s, found a "
			       "structured dtype", path, want);
	if (any_int ? !descr_ok(h->descr, "<i8") && !descr_ok(h->descr, "<i4") &&
		      strcmp(h->descr, "|u1")
		    : !descr_ok(h->descr, want))
		return ub_fail(err, UB_USAGE, "%s: expected dtype %s, found %s",
			       path, want, h->descr);
	if (h->fortran)
		return ub_fail(err, UB_USAGE, "%s: fortran order not supported,"
			       " save with np.ascontiguousarray", path);
	return 0;
}

/* The data of a regular file of size bytes: exactly n elements of es
 * bytes after the header at off. */
static int check_size(const char *path, uint64_t size, size_t off, size_t n,
		      size_t es, struct ub_error *err)
{
	size_t need = n * es;
	size_t have = size > off ? (size_t)(size - off) : 0;
	if (have < need)
		return ub_fail(err, UB_USAGE, "%s: truncated: header says %zu "
			       "elements, file holds %zu", path, n, have / es);
	if (have > need)
		return ub_fail(err, UB_USAGE, "%s: trailing data: %zu bytes "
			       "after %zu elements", path, have - need, n);
	return 0;
}

/* .npy data is little-endian ('<'): the host's order on every other
 * host, where the first n elements read raw into a are turned round in
 * place. */
static void from_le(struct ub_array *a, size_t n)
{
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
	size_t es = (size_t)ub_dtypes[a->dt].bits / 8;
	const unsigned char *bytes = a->data;
	for (size_t i = 0; i < n; i++)
		ub_array_set(a, i, le_load(bytes + i * es, es));
#else
	(void)a, (void)n;
#endif
}

/* The n elements after the header: exactly n*es bytes must remain. */
static int read_data(FILE *f, const char *path, size_t off, size_t n,
		     struct ub_array *a, struct ub_error *err)
{
	size_t es = (size_t)ub_dtypes[a->dt].bits / 8, need = n * es;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    check_size(path, (uint64_t)st.st_size, off, n, es, err))
		return UB_USAGE;
	if (ub_array_alloc(a, a->dt, n))
		return ub_fail(err, UB_RUNTIME, "%s: out of memory for %zu "
			       "elements", path, n);
	size_t got = fread(a->data, 1, need, f);
	if (got != need)
		return ub_fail(err, UB_USAGE, "%s: truncated: header says %zu "
			       "elements, file holds %zu", path, n, got / es);
	if (fgetc(f) != EOF)
		return ub_fail(err, UB_USAGE, "%s: trailing data after %zu "
			       "elements", path, n);
	from_le(a, n);
	return 0;
}

/* Opens path (*f) and checks its header against dtype dt: *off is where
 * the data starts, *n its elements, *shape the header's. */
static int open_checked(const char *path, enum ub_dtype dt, FILE **f,
			size_t *off, size_t *n, struct ub_shape *shape,
			struct ub_error *err)
{
	*f = fopen(path, "rb");
	if (!*f)
		return ub_fail(err, UB_USAGE, "%s: cannot open: %s", path,
			       strerror(errno));
	char *text = NULL;
	size_t hlen = 0;
	int rc = read_header(*f, path, &text, &hlen, off, err);
	struct hdr h = {0};
	if (rc == 0) {
		h.p = text;
		h.end = text + hlen;
		rc = check_header(&h, path, ub_dtypes[dt].npy, err);
	}
	if (rc == 0 && shape_count(&h.shape, (size_t)ub_dtypes[dt].bits / 8,
				   n)) {
		char buf[256];
		rc = ub_fail(err, UB_USAGE, "%s: shape %s has too many "
			     "elements", path, shape_str(&h.shape, buf,
							 sizeof buf));
	}
	free(text);
	if (rc) {
		fclose(*f);
		*f = NULL;
	} else {
		*shape = h.shape;
	}
	return rc;
}

int ub_npy_read(const char *path, enum ub_dtype dt, struct ub_array *a,
		struct ub_shape *shape, struct ub_error *err)
{
	a->dt = dt;
	a->n = 0;
	a->data = NULL;
	FILE *f;
	size_t off = 0, n = 0;
	struct ub_shape sh;
	int rc = open_checked(path, dt, &f, &off, &n, &sh, err);
	if (rc == 0) {
		rc = read_data(f, path, off, n, a, err);
		fclose(f);
	}
	if (rc) {
		ub_array_free(a);
		return rc;
	}
	if (shape)
		*shape = sh;
	return 0;
}

int ub_npy_open(const char *path, enum ub_dtype dt, struct ub_npy_in *in,
		struct ub_error *err)
{
	*in = (struct ub_npy_in){.path = path, .dt = dt, .fd = -1,
				 .mem = {.dt = dt}};
	FILE *f;
	size_t off = 0;
	int rc = open_checked(path, dt, &f, &off, &in->n, &in->shape, err);
	if (rc)
		return rc;
	size_t es = (size_t)ub_dtypes[dt].bits / 8;
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		/* a pipe: no offsets, so its data is read here, whole */
		rc = read_data(f, path, off, in->n, &in->mem, err);
	} else if (!(rc = check_size(path, (uint64_t)st.st_size, off, in->n,
				     es, err))) {
		in->off = off;
		if ((in->fd = dup(fileno(f))) < 0)
			rc = ub_fail(err, UB_USAGE, "%s: cannot open: %s", path,
				     strerror(errno));
	}
	fclose(f);
	if (rc)
		ub_npy_close(in);
	return rc;
}

/* The whole elements in's file holds now (at least when it cannot be
 * told: an end of file was met there). */
static size_t holds(const struct ub_npy_in *in, size_t at_least)
{
	struct stat st;
	size_t es = (size_t)ub_dtypes[in->dt].bits / 8;
	if (fstat(in->fd, &st) != 0 || st.st_size < 0)
		return at_least;
	uint64_t size = (uint64_t)st.st_size;
	return size > in->off ? (size_t)((size - in->off) / es) : 0;
}

int ub_npy_read_range(const struct ub_npy_in *in, size_t first, size_t count,
		      struct ub_array *a, struct ub_error *err)
{
	size_t es = (size_t)ub_dtypes[in->dt].bits / 8;
	if (a->dt != in->dt || a->n < count || first > in->n ||
	    count > in->n - first)
		return ub_fail(err, UB_RUNTIME, "%s: elements %zu to %zu of %zu "
			       "asked into an array of %zu", in->path, first,
			       first + count, in->n, a->n);
	if (count == 0)
		return 0;
	if (in->fd < 0) {   /* read whole at open */
		memcpy(a->data, (const char *)in->mem.data + first * es,
		       count * es);
		return 0;
	}
	unsigned char *p = a->data;
	size_t need = count * es, got = 0;
	while (got < need) {
		ssize_t r = pread(in->fd, p + got, need - got,
				  (off_t)(in->off + first * es + got));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return ub_fail(err, UB_USAGE, "%s: changed during the run: "
				       "cannot read: %s", in->path, strerror(errno));
		if (r == 0)
			return ub_fail(err, UB_USAGE, "%s: changed during the run: "
				       "it holds %zu elements now, its header "
				       "says %zu", in->path,
				       holds(in, first + got / es), in->n);
		got += (size_t)r;
	}
	from_le(a, count);
	return 0;
}

void ub_npy_close(struct ub_npy_in *in)
{
	if (in->fd >= 0)
		close(in->fd);
	in->fd = -1;
	ub_array_free(&in->mem);
}

/* n integers of es bytes after the header, sign-extended into *v (one
 * byte: unsigned, zero-extended). */
static int read_ints(FILE *f, const char *path, size_t n, size_t es, int64_t **v,
		     struct ub_error *err)
{
	unsigned char *b = malloc(n * es != 0 ? n * es : 1);
	*v = malloc((n ? n : 1) * sizeof **v);
	int rc = b && *v ? 0 : ub_fail(err, UB_RUNTIME, "%s: out of memory", path);
	size_t got = rc ? 0 : fread(b, 1, n * es, f);
	if (!rc && got != n * es)
		rc = ub_fail(err, UB_USAGE, "%s: truncated: header says %zu elements, "
			     "file holds %zu", path, n, got / es);
	if (!rc && fgetc(f) != EOF)
		rc = ub_fail(err, UB_USAGE, "%s: trailing data after %zu elements", path, n);
	for (size_t i = 0; !rc && i < n; i++) {
		uint64_t u = le_load(b + i * es, es);
		if (es == 4)
			u = (uint64_t)(int64_t)(int32_t)(uint32_t)u;
		(*v)[i] = (int64_t)u;
	}
	free(b);
	if (rc) {
		free(*v);
		*v = NULL;
	}
	return rc;
}

int ub_npy_read_int(const char *path, int64_t **v, size_t *n, struct ub_shape *shape,
		    struct ub_error *err)
{
	*v = NULL;
	*n = 0;
	FILE *f = fopen(path, "rb");
	if (!f)
		return ub_fail(err, UB_USAGE, "%s: cannot open: %s", path, strerror(errno));
	char *text = NULL;
	size_t hlen = 0, off = 0, es = 8;
	int rc = read_header(f, path, &text, &hlen, &off, err);
	struct hdr h = {0};
	if (rc == 0) {
		h.p = text;
		h.end = text + hlen;
		rc = check_header(&h, path, NULL, err);
		es = descr_ok(h.descr, "<i4") ? 4 : !strcmp(h.descr, "|u1") ? 1 : 8;
	}
	if (rc == 0 && shape_count(&h.shape, es, n)) {
		char buf[256];
		rc = ub_fail(err, UB_USAGE, "%s: shape %s has too many elements", path,
			     shape_str(&h.shape, buf, sizeof buf));
	}
	if (rc == 0)
		rc = read_ints(f, path, *n, es, v, err);
	free(text);
	fclose(f);
	if (!rc && shape)
		*shape = h.shape;
	return rc;
}

/* ----------------------------------------------------------------------
 * Writing */

/* Version 1.0 magic, length and padded dict; returns the total size. */
static size_t make_header(char *buf, size_t len, const char *descr,
			  const struct ub_shape *s)
{
	char sh[256];
	int dict = snprintf(buf + 10, len - 10, "{'descr': '%s', "
			    "'fortran_order': False, 'shape': %s, }",
			    descr, shape_str(s, sh, sizeof sh));
	size_t hl = (size_t)dict + 1; /* with the '\n' */
	size_t pad = NPY_ALIGN - (10 + hl) % NPY_ALIGN;
	memset(buf + 10 + dict, ' ', pad);
	buf[10 + (size_t)dict + pad] = '\n';
	memcpy(buf, npy_magic, 6);
	buf[6] = 1;
	buf[7] = 0;
	le_store((unsigned char *)buf + 8, hl + pad, 2);
	return 10 + hl + pad;
}

static int write_all(FILE *f, const struct ub_array *a, const char *hdr,
		     size_t hsize)
{
	size_t es = (size_t)ub_dtypes[a->dt].bits / 8;
	unsigned char chunk[8192];
	if (fwrite(hdr, 1, hsize, f) != hsize)
		return -1;
	for (size_t i = 0; i < a->n;) {
		size_t k = 0;
		for (; i < a->n && k + es <= sizeof chunk; i++, k += es)
			le_store(chunk + k, ub_array_get(a, i), es);
		if (fwrite(chunk, 1, k, f) != k)
			return -1;
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* Writes a temporary file beside path (tmpfiles.h: a signal removes it)
 * and renames it over path. */
static int write_tmp(const char *path, char *tmp, size_t tmplen,
		     const struct ub_array *a, const char *hdr, size_t hsize,
		     struct ub_error *err)
{
	int slot, fd = ub_tmp_create(path, tmp, tmplen, &slot);
	if (fd < 0)
		return ub_fail(err, UB_IO, "%s: cannot write: %s", path,
			       strerror(errno));
	int e = 0;
	FILE *f = fdopen(fd, "wb");
	if (!f) {
		e = errno;
		close(fd);
	} else {
		errno = 0;
		if (write_all(f, a, hdr, hsize) != 0)
			e = errno ? errno : EIO;
		if (fclose(f) != 0 && !e)
			e = errno ? errno : EIO;
	}
	if (!e && rename(tmp, path) != 0)
		e = errno;
	if (!e) {
		ub_tmp_forget(slot);
		return 0;
	}
	ub_tmp_discard(slot);
	return ub_fail(err, UB_IO, "%s: cannot write: %s", path, strerror(e));
}

int ub_npy_write(const char *path, const struct ub_array *a,
		 const struct ub_shape *shape, struct ub_error *err)
{
	return ub_npy_write_as(path, a, shape, ub_dtypes[a->dt].npy, err);
}

int ub_npy_write_as(const char *path, const struct ub_array *a,
		    const struct ub_shape *shape, const char *descr, struct ub_error *err)
{
	struct ub_shape flat = {.ndim = 1, .dim = {a->n}};
	const struct ub_shape *s = shape ? shape : &flat;
	size_t n = 0, es = (size_t)ub_dtypes[a->dt].bits / 8;
	char buf[256];
	if (s->ndim < 0 || s->ndim > UB_NPY_MAXDIM)
		return ub_fail(err, UB_IO, "%s: cannot write: %d dimensions "
			       "(at most %d)", path, s->ndim, UB_NPY_MAXDIM);
	if (shape_count(s, es, &n) || n != a->n)
		return ub_fail(err, UB_IO, "%s: cannot write: shape %s does "
			       "not hold %zu elements", path,
			       shape_str(s, buf, sizeof buf), a->n);
	char hdr[10 + 256 + 16 + NPY_ALIGN];
	size_t hsize = make_header(hdr, sizeof hdr, descr, s);
	size_t tmplen = strlen(path) + 64; /* PATH.tmpPID.N */
	char *tmp = malloc(tmplen);
	if (!tmp)
		return ub_fail(err, UB_IO, "%s: cannot write: out of memory",
			       path);
	int rc = write_tmp(path, tmp, tmplen, a, hdr, hsize, err);
	free(tmp);
	return rc;
}

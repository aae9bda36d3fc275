/* check_npy.c — unit tests of the npy module (src/run/npy.c).
 *
 * Expected bytes come from the .npy format description (numpy's
 * numpy/lib/format.py docstring, NEP 1): magic "\x93NUMPY", version bytes,
 * little-endian header length (2 bytes in 1.0, 4 in 2.0/3.0), a dict
 * literal padded with spaces and ended by '\n' so that the data starts at
 * a multiple of 64, then little-endian elements.  Files are composed by
 * hand here, byte by byte; element bits are IEEE encodings (1.0f =
 * 0x3f800000, -2.0f = 0xc0000000, 0.5f = 0x3f000000, ...). */
#include "suites.h"

#include "npy.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* A fresh directory per test (each test runs in its own process). */
static char dir[256];

static void setup(void)
{
	const char *t = getenv("TMPDIR");
	snprintf(dir, sizeof dir, "%s/ub-npy-XXXXXX", t && *t ? t : "/tmp");
	ck_assert_msg(mkdtemp(dir) != NULL, "mkdtemp %s", dir);
}

/* Removes the directory's files (one level of subdirectories). */
static void rm_tree(const char *d)
{
	DIR *dd = opendir(d);
	struct dirent *e;
	char p[512];
	while (dd && (e = readdir(dd)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof p, "%s/%s", d, e->d_name);
			if (unlink(p) != 0)
				rm_tree(p);
		}
	if (dd)
		closedir(dd);
	rmdir(d);
}

static void teardown(void)
{
	rm_tree(dir);
}

static const char *in_dir(const char *name)
{
	static char p[512];
	snprintf(p, sizeof p, "%s/%s", dir, name);
	return p;
}

static int count_entries(const char *d)
{
	DIR *dd = opendir(d);
	struct dirent *e;
	int n = 0;
	ck_assert(dd != NULL);
	while ((e = readdir(dd)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dd);
	return n;
}

static void put_file(const char *path, const void *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	ck_assert(f != NULL);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

/* magic, version major.0, dict padded with `pad` spaces and '\n', data. */
static size_t compose(unsigned char *buf, int major, const char *dict,
		      size_t pad, const void *data, size_t ndata)
{
	size_t hl = strlen(dict) + pad + 1, k = 0, lb = major == 1 ? 2 : 4;
	memcpy(buf, "\x93NUMPY", 6);
	buf[6] = (unsigned char)major;
	buf[7] = 0;
	for (size_t b = 0; b < lb; b++)
		buf[8 + b] = (unsigned char)(hl >> (8 * b));
	k = 8 + lb;
	memcpy(buf + k, dict, strlen(dict));
	k += strlen(dict);
	memset(buf + k, ' ', pad);
	k += pad;
	buf[k++] = '\n';
	memcpy(buf + k, data, ndata);
	return k + ndata;
}

/* ------------------------------------------------------------ round trip */

static const struct ub_shape shapes[] = {
	{0, {0}}, {1, {0}}, {1, {5}}, {2, {2, 3}}};
static const char *const shape_text[] = {"()", "(0,)", "(5,)", "(2, 3)"};

START_TEST(test_round_trip)
{
	enum ub_dtype dt = (enum ub_dtype)(_i / 4);
	const struct ub_shape *s = &shapes[_i % 4];
	size_t n = 1, es = (size_t)ub_dtypes[dt].bits / 8;
	for (int d = 0; d < s->ndim; d++)
		n *= s->dim[d];
	struct ub_array a, b;
	struct ub_shape got;
	struct ub_error err = {""};
	ck_assert_int_eq(ub_array_alloc(&a, dt, n), 0);
	for (size_t i = 0; i < n; i++) /* varied bits, NaN payloads too */
		ub_array_set(&a, i, (UINT64_C(0x9e3779b97f4a7c15) * (i + 1)) ^
			     (UINT64_C(0x7fc1) << (i * 3)));
	const char *p = in_dir("a.npy");
	ck_assert_msg(ub_npy_write(p, &a, s, &err) == 0, "%s", err.msg);
	ck_assert_msg(ub_npy_read(p, dt, &b, &got, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(b.n, n);
	ck_assert_int_eq(got.ndim, s->ndim);
	for (int d = 0; d < s->ndim; d++)
		ck_assert_uint_eq(got.dim[d], s->dim[d]);
	for (size_t i = 0; i < n; i++)
		ck_assert_msg(ub_array_get(&a, i) == ub_array_get(&b, i),
			      "element %zu: 0x%llx", i,
			      (unsigned long long)ub_array_get(&b, i));

	/* the bytes: numpy's v1.0 header, data at a multiple of 64 */
	unsigned char buf[512];
	FILE *f = fopen(p, "rb");
	size_t size = fread(buf, 1, sizeof buf, f);
	fclose(f);
	char dict[128];
	snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, "
		 "'shape': %s, }", ub_dtypes[dt].npy, shape_text[_i % 4]);
	size_t hl = (size_t)buf[8] | (size_t)buf[9] << 8;
	ck_assert(memcmp(buf, "\x93NUMPY\x01\x00", 8) == 0);
	ck_assert_msg((10 + hl) % 64 == 0, "data starts at %zu", 10 + hl);
	ck_assert_uint_eq(size, 10 + hl + n * es);
	ck_assert(memcmp(buf + 10, dict, strlen(dict)) == 0);
	for (size_t k = 10 + strlen(dict); k < 9 + hl; k++)
		ck_assert_int_eq(buf[k], ' ');
	ck_assert_int_eq(buf[9 + hl], '\n');
	for (size_t i = 0; i < n; i++) /* little-endian elements */
		for (size_t j = 0; j < es; j++)
			ck_assert_int_eq(buf[10 + hl + i * es + j],
					 (ub_array_get(&a, i) >> (8 * j)) & 0xff);
	ub_array_free(&a);
	ub_array_free(&b);
}
END_TEST

/* Shape NULL writes (n,); writing replaces an existing file; mode 0644
 * under umask 022. */
START_TEST(test_write_flat)
{
	struct ub_array a, b;
	struct ub_shape got;
	struct ub_error err;
	const char *p = in_dir("flat.npy");
	put_file(p, "old", 3);
	ck_assert_int_eq(ub_array_alloc(&a, UB_F32, 3), 0);
	ub_array_set(&a, 0, 0x3f800000);
	ub_array_set(&a, 1, 0x80000000);
	ub_array_set(&a, 2, 0x7fc00001);
	umask(022);
	ck_assert_int_eq(ub_npy_write(p, &a, NULL, &err), 0);
	ck_assert_int_eq(ub_npy_read(p, UB_F32, &b, &got, &err), 0);
	ck_assert_int_eq(got.ndim, 1);
	ck_assert_uint_eq(got.dim[0], 3);
	ck_assert(memcmp(a.data, b.data, 12) == 0);
	struct stat st;
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0644);
	ck_assert_int_eq(count_entries(dir), 1);
	ub_array_free(&a);
	ub_array_free(&b);
}
END_TEST

/* ----------------------------------------------------- hand-made files */

static const unsigned char f32_data[] = {
	0x00, 0x00, 0x80, 0x3f, /* 1.0 */
	0x00, 0x00, 0x00, 0xc0, /* -2.0 */
	0x00, 0x00, 0x00, 0x3f, /* 0.5 */
};

static const struct {
	int major;
	const char *dict;
	size_t pad;
} good[] = {
	{1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 5},
	{2, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 0},
	{3, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 70},
	{1, "{\"shape\": (3,),\"descr\":\"=f4\" ,'fortran_order':False}", 0},
	{1, "{'descr': 'f4', 'fortran_order': False, 'shape': (3L,)}", 1},
	{1, "{ 'descr' : '<f4' , 'fortran_order' : False , 'shape' : ( 1 , 3 ) , }",
	 3},
	{1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,1,1,1,1,1,1,1), }",
	 0},
};

START_TEST(test_read_handmade)
{
	unsigned char buf[512];
	size_t n = compose(buf, good[_i].major, good[_i].dict, good[_i].pad,
			   f32_data, sizeof f32_data);
	const char *p = in_dir("h.npy");
	struct ub_array a;
	struct ub_shape s;
	struct ub_error err = {""};
	put_file(p, buf, n);
	ck_assert_msg(ub_npy_read(p, UB_F32, &a, &s, &err) == 0, "%s",
		      err.msg);
	ck_assert_uint_eq(a.n, 3);
	ck_assert_uint_eq(ub_array_get(&a, 0), 0x3f800000);
	ck_assert_uint_eq(ub_array_get(&a, 1), 0xc0000000);
	ck_assert_uint_eq(ub_array_get(&a, 2), 0x3f000000);
	ub_array_free(&a);
}
END_TEST

/* The 16- and 64-bit dtypes, and a scalar. */
START_TEST(test_read_dtypes)
{
	static const struct {
		enum ub_dtype dt;
		const char *dict;
		unsigned char data[8];
		size_t ndata;
		uint64_t bits;
	} c[] = {
		{UB_F16, "{'descr': '<f2', 'fortran_order': False, 'shape': (1,), }",
		 {0x00, 0x3c}, 2, 0x3c00}, /* 1.0 */
		{UB_BF16, "{'descr': '<u2', 'fortran_order': False, 'shape': (1,), }",
		 {0x80, 0xbf}, 2, 0xbf80}, /* -1.0 */
		{UB_F64, "{'descr': '<f8', 'fortran_order': False, 'shape': (), }",
		 {0, 0, 0, 0, 0, 0, 0xf0, 0x3f}, 8, 0x3ff0000000000000},
	};
	for (size_t t = 0; t < N(c); t++) {
		unsigned char buf[256];
		size_t n = compose(buf, 1, c[t].dict, 0, c[t].data, c[t].ndata);
		struct ub_array a;
		struct ub_shape s;
		struct ub_error err = {""};
		put_file(in_dir("d.npy"), buf, n);
		ck_assert_msg(ub_npy_read(in_dir("d.npy"), c[t].dt, &a, &s,
					  &err) == 0, "%s", err.msg);
		ck_assert_uint_eq(a.n, 1);
		ck_assert_uint_eq(ub_array_get(&a, 0), c[t].bits);
		ub_array_free(&a);
	}
}
END_TEST

/* ------------------------------------------------------- malformed files */

#define DICT(descr, fortran, shape) \
	"{'descr': " descr ", 'fortran_order': " fortran ", 'shape': " shape ", }"

static const struct {
	const char *what;    /* raw bytes (NULL: compose from dict) */
	size_t nwhat;
	int major;
	const char *dict;
	size_t ndata;        /* bytes of f32_data appended */
	const char *msg;     /* expected in the message, after "PATH: " */
} bad[] = {
	{"", 0, 0, NULL, 0, "not a .npy file (bad magic)"},
	{"\x93NUMPZ\x01\x00", 8, 0, NULL, 0, "not a .npy file (bad magic)"},
	{"PK\x03\x04", 4, 0, NULL, 0, "not a .npy file (bad magic)"},
	{"\x93NUMPY\x01", 7, 0, NULL, 0, "truncated header"},
	{"\x93NUMPY\x01\x00\x10", 9, 0, NULL, 0, "truncated header"},
	{"\x93NUMPY\x01\x00\x40\x00{'descr'", 17, 0, NULL, 0,
	 "truncated header"},
	{"\x93NUMPY\x04\x00\x00\x00", 10, 0, NULL, 0,
	 "unsupported .npy version 4.0"},
	{"\x93NUMPY\x01\x01\x00\x00", 10, 0, NULL, 0,
	 "unsupported .npy version 1.1"},
	{"\x93NUMPY\x02\x00\x00\x00\x00\x10", 12, 0, NULL, 0,
	 "malformed header: length"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(3,)"), 8,
	 "truncated: header says 3 elements, file holds 2"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(2, 2)"), 12,
	 "truncated: header says 4 elements, file holds 3"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(2,)"), 12,
	 "trailing data: 4 bytes after 2 elements"},
	{NULL, 0, 1, DICT("'<i8'", "False", "(1,)"), 8,
	 "expected dtype <f4, found <i8"},
	{NULL, 0, 1, DICT("'>f4'", "False", "(3,)"), 12,
	 "expected dtype <f4, found >f4"},
	{NULL, 0, 1, DICT("'|f4'", "False", "(3,)"), 12,
	 "expected dtype <f4, found |f4"},
	{NULL, 0, 1, DICT("'<f2'", "False", "(6,)"), 12,
	 "expected dtype <f4, found <f2"},
	{NULL, 0, 1, DICT("[('a', '<f4')]", "False", "(3,)"), 12,
	 "expected dtype <f4, found a structured dtype"},
	{NULL, 0, 1, DICT("'<f4'", "True", "(3,)"), 12,
	 "fortran order not supported, save with np.ascontiguousarray"},
	{NULL, 0, 1, DICT("'<f4'", "'no'", "(3,)"), 12,
	 "malformed header: fortran_order is not True or False"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(3)"), 12,
	 "malformed header: shape is not a tuple"},
	{NULL, 0, 1, DICT("'<f4'", "False", "[3]"), 12,
	 "malformed header: shape is not a tuple"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(-3,)"), 12,
	 "malformed header: bad shape"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(3,,)"), 12,
	 "malformed header: bad shape"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(3 4)"), 12,
	 "malformed header: bad shape"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(1,1,1,1,1,1,1,1,3)"), 12,
	 "malformed header: shape has too many dimensions"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(99999999999999999999999,)"),
	 12, "malformed header: shape dimension too large"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(4294967296, 4294967296)"), 12,
	 "shape (4294967296, 4294967296) has too many elements"},
	{NULL, 0, 1, "{'descr': '<f4', 'shape': (3,)}", 12,
	 "malformed header: missing key"},
	{NULL, 0, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (3,),"
	 " 'x': 1}", 12, "malformed header: unexpected key"},
	{NULL, 0, 1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False,"
	 " 'shape': (3,)}", 12, "malformed header: duplicate key"},
	{NULL, 0, 1, DICT("'<f4'", "False", "(3,)") " x", 12,
	 "malformed header: text after the dict"},
	{NULL, 0, 1, "'descr': '<f4'", 12, "malformed header: expected '{'"},
	{NULL, 0, 1, "{'descr': '<f4'", 12, "malformed header: expected ','"},
	{NULL, 0, 1, "{'descr': '<f4", 12,
	 "malformed header: unterminated string"},
};

START_TEST(test_read_bad)
{
	unsigned char buf[512];
	size_t n;
	if (bad[_i].what) {
		memcpy(buf, bad[_i].what, bad[_i].nwhat);
		n = bad[_i].nwhat;
	} else {
		n = compose(buf, bad[_i].major, bad[_i].dict, 3, f32_data,
			    bad[_i].ndata);
	}
	const char *p = in_dir("bad.npy");
	char want[1024];
	struct ub_array a = {UB_F32, 99, (void *)1};
	struct ub_shape s = {-7, {0}};
	struct ub_error err = {""};
	put_file(p, buf, n);
	snprintf(want, sizeof want, "%s: %s", p, bad[_i].msg);
	ck_assert_int_eq(ub_npy_read(p, UB_F32, &a, &s, &err), UB_USAGE);
	ck_assert_msg(strncmp(err.msg, want, strlen(want)) == 0,
		      "got \"%s\", expected \"%s\"", err.msg, want);
	ck_assert_msg(strchr(err.msg, '\n') == NULL, "one line");
	ck_assert(a.data == NULL && a.n == 0);
	ck_assert_int_eq(s.ndim, -7); /* untouched */
	/* opened for reading in pieces: the same refusal, word for word */
	struct ub_npy_in in;
	struct ub_error err2 = {""};
	ck_assert_int_eq(ub_npy_open(p, UB_F32, &in, &err2), UB_USAGE);
	ck_assert_str_eq(err2.msg, err.msg);
	ck_assert_int_eq(in.fd, -1);
	ck_assert(in.mem.data == NULL);
}
END_TEST

START_TEST(test_read_missing)
{
	struct ub_array a;
	struct ub_error err;
	const char *p = in_dir("nope.npy");
	char want[1024];
	snprintf(want, sizeof want, "%s: cannot open: No such file or "
		 "directory", p);
	ck_assert_int_eq(ub_npy_read(p, UB_F32, &a, NULL, &err), UB_USAGE);
	ck_assert_str_eq(err.msg, want);
}
END_TEST

/* A pipe (not a regular file: no size known in advance) goes through the
 * reading path: good, short and long data.  Linux: /proc/self/fd. */
START_TEST(test_read_pipe)
{
	static const struct {
		size_t ndata;
		const char *msg; /* NULL: success */
	} c[] = {{12, NULL},
		 {8, "truncated: header says 3 elements, file holds 2"},
		 {13, "trailing data after 3 elements"}};
	unsigned char data[16] = {0};
	memcpy(data, f32_data, sizeof f32_data);
	if (access("/proc/self/fd", X_OK) != 0)
		return; /* not Linux: nothing to test */
	for (size_t t = 0; t < N(c); t++) {
		unsigned char buf[256];
		size_t n = compose(buf, 1, DICT("'<f4'", "False", "(3,)"), 0,
				   data, c[t].ndata);
		int fd[2];
		char p[64];
		struct ub_array a;
		struct ub_error err = {""};
		ck_assert_int_eq(pipe(fd), 0);
		ck_assert_int_eq(write(fd[1], buf, n), (ssize_t)n);
		close(fd[1]);
		snprintf(p, sizeof p, "/proc/self/fd/%d", fd[0]);
		int rc = ub_npy_read(p, UB_F32, &a, NULL, &err);
		close(fd[0]);
		if (!c[t].msg) {
			ck_assert_msg(rc == 0, "%s", err.msg);
			ck_assert_uint_eq(ub_array_get(&a, 2), 0x3f000000);
			ub_array_free(&a);
		} else {
			ck_assert_int_eq(rc, UB_USAGE);
			ck_assert_msg(strstr(err.msg, c[t].msg), "%s", err.msg);
		}
	}
}
END_TEST

/* ------------------------------------------------------ reading in pieces */

/* Element i of the files below: bits that differ in every byte. */
static uint64_t piece_bits(size_t i)
{
	return (uint64_t)(0x01020304u * (uint32_t)(i + 1)) ^ 0x80000000u;
}

/* ub_npy_open, then ranges with ub_npy_read_range: the elements asked,
 * wherever they lie (the first, the middle, the last); a range past the
 * end is refused; a file cut short after it was opened (as a file that
 * shrinks during a run) fails naming it, with the elements it still holds:
 * it is cut 2 bytes into element 500, so 500 whole elements remain, and a
 * range that starts past them or in them fails alike. */
START_TEST(test_read_range)
{
	const size_t n = 1000;
	struct ub_array a, b;
	struct ub_error err = {""};
	struct ub_npy_in in;
	const struct ub_shape s = {2, {10, 100}};
	ck_assert_int_eq(ub_array_alloc(&a, UB_F32, n), 0);
	for (size_t i = 0; i < n; i++)
		ub_array_set(&a, i, piece_bits(i));
	const char *p = in_dir("r.npy");
	ck_assert_msg(ub_npy_write(p, &a, &s, &err) == 0, "%s", err.msg);
	ck_assert_msg(ub_npy_open(p, UB_F32, &in, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(in.n, n);
	ck_assert_int_eq(in.shape.ndim, 2);
	ck_assert_uint_eq(in.shape.dim[1], 100);
	ck_assert_int_ge(in.fd, 0);
	ck_assert_uint_eq(in.off % 64, 0); /* numpy's alignment of the data */
	ck_assert_int_eq(ub_array_alloc(&b, UB_F32, 300), 0);
	static const size_t ranges[][2] = {{0, 1}, {0, 300}, {123, 77}, {700, 300}, {999, 1}};
	for (size_t r = 0; r < N(ranges); r++) {
		size_t first = ranges[r][0], count = ranges[r][1];
		memset(b.data, 0, 300 * 4);
		ck_assert_msg(ub_npy_read_range(&in, first, count, &b, &err) == 0,
			      "%s", err.msg);
		for (size_t i = 0; i < count; i++)
			ck_assert_uint_eq(ub_array_get(&b, i), piece_bits(first + i));
	}
	ck_assert_int_eq(ub_npy_read_range(&in, 800, 201, &b, &err), UB_RUNTIME);

	ck_assert_int_eq(truncate(p, (off_t)(in.off + 500 * 4 + 2)), 0);
	ck_assert_msg(ub_npy_read_range(&in, 200, 300, &b, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(ub_array_get(&b, 299), piece_bits(499));
	char want[1024];
	snprintf(want, sizeof want, "%s: changed during the run: it holds 500 "
		 "elements now, its header says 1000", p);
	ck_assert_int_eq(ub_npy_read_range(&in, 400, 300, &b, &err), UB_USAGE);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(ub_npy_read_range(&in, 700, 300, &b, &err), UB_USAGE);
	ck_assert_str_eq(err.msg, want);
	ck_assert_int_eq(truncate(p, 0), 0); /* all gone */
	ck_assert_int_eq(ub_npy_read_range(&in, 0, 1, &b, &err), UB_USAGE);
	ck_assert_msg(strstr(err.msg, "changed during the run: it holds 0 "
			     "elements now"), "%s", err.msg);
	ub_npy_close(&in);
	ck_assert_int_eq(in.fd, -1);
	ub_npy_close(&in); /* twice: nothing */
	ub_array_free(&a);
	ub_array_free(&b);
}
END_TEST

/* A pipe has no offsets: ub_npy_open reads it whole, and ranges come
 * from that copy.  Linux: /proc/self/fd. */
START_TEST(test_read_range_pipe)
{
	unsigned char buf[256];
	size_t n = compose(buf, 1, DICT("'<f4'", "False", "(3,)"), 0, f32_data,
			   sizeof f32_data);
	int fd[2];
	char p[64];
	struct ub_npy_in in;
	struct ub_array b;
	struct ub_error err = {""};
	if (access("/proc/self/fd", X_OK) != 0)
		return; /* not Linux: nothing to test */
	ck_assert_int_eq(pipe(fd), 0);
	ck_assert_int_eq(write(fd[1], buf, n), (ssize_t)n);
	close(fd[1]);
	snprintf(p, sizeof p, "/proc/self/fd/%d", fd[0]);
	ck_assert_msg(ub_npy_open(p, UB_F32, &in, &err) == 0, "%s", err.msg);
	close(fd[0]);
	ck_assert_int_eq(in.fd, -1);
	ck_assert_uint_eq(in.n, 3);
	ck_assert_int_eq(ub_array_alloc(&b, UB_F32, 2), 0);
	ck_assert_msg(ub_npy_read_range(&in, 1, 2, &b, &err) == 0, "%s", err.msg);
	ck_assert_uint_eq(ub_array_get(&b, 0), 0xc0000000);
	ck_assert_uint_eq(ub_array_get(&b, 1), 0x3f000000);
	ub_npy_close(&in);
	ck_assert(in.mem.data == NULL);
	ub_array_free(&b);
}
END_TEST

/* ---------------------------------------------------------- write errors */

START_TEST(test_write_errors)
{
	struct ub_array a;
	struct ub_error err;
	char p[512];
	ck_assert_int_eq(ub_array_alloc(&a, UB_F16, 6), 0);

	/* a directory that does not exist */
	snprintf(p, sizeof p, "%s/no/such/dir/x.npy", dir);
	ck_assert_int_eq(ub_npy_write(p, &a, NULL, &err), UB_IO);
	ck_assert_msg(strstr(err.msg, ": cannot write: No such file or "
			     "directory") != NULL, "%s", err.msg);
	ck_assert_int_eq(count_entries(dir), 0);

	/* the target is a directory: the rename fails after the data was
	 * written, and the temporary file must go */
	snprintf(p, sizeof p, "%s/adir", dir);
	ck_assert_int_eq(mkdir(p, 0700), 0);
	ck_assert_int_eq(ub_npy_write(p, &a, NULL, &err), UB_IO);
	ck_assert_msg(strncmp(err.msg, p, strlen(p)) == 0 &&
		      strstr(err.msg, ": cannot write: "), "%s", err.msg);
	ck_assert_int_eq(count_entries(dir), 1); /* only adir */
	ck_assert_int_eq(count_entries(p), 0);

	/* a shape that does not hold the array */
	const struct ub_shape s = {2, {2, 2}};
	snprintf(p, sizeof p, "%s/shape.npy", dir);
	ck_assert_int_eq(ub_npy_write(p, &a, &s, &err), UB_IO);
	ck_assert_msg(strstr(err.msg, "shape (2, 2) does not hold 6 elements"),
		      "%s", err.msg);
	ck_assert_int_eq(count_entries(dir), 1);
	ub_array_free(&a);
}
END_TEST

Suite *ub_npy_suite(void)
{
	Suite *s = suite_create("npy");
	TCase *tc = tcase_create("write");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_round_trip, 0, UB_NDTYPES * 4);
	tcase_add_test(tc, test_write_flat);
	tcase_add_test(tc, test_write_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("read");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_read_handmade, 0, (int)N(good));
	tcase_add_test(tc, test_read_dtypes);
	tcase_add_loop_test(tc, test_read_bad, 0, (int)N(bad));
	tcase_add_test(tc, test_read_missing);
	tcase_add_test(tc, test_read_pipe);
	tcase_add_test(tc, test_read_range);
	tcase_add_test(tc, test_read_range_pipe);
	suite_add_tcase(s, tc);
	return s;
}

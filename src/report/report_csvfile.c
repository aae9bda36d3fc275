/* report_csvfile.c — the CSV output file: header once, all-or-nothing
 * (report.h).  --append keeps the run's rows in memory and adds them to
 * the report in place when the run commits, holding an flock(2) on it:
 * runs appending to one report at once each add all their rows, and the
 * report stays the same file (its inode, so hard links, its mode).  A
 * failed write is cut off again (ftruncate), leaving the report as it
 * was. */
#include "report.h"
#include "fileid.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* This version's header line, without the newline, in a malloc'd string. */
static char *header_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m)
		return NULL;
	ub_report_csv_header(m);
	fclose(m);
	if (buf && len && buf[len - 1] == '\n')
		buf[len - 1] = '\0';
	return buf;
}

/* 0 when the header lines match, else fails naming the first column
 * where they differ. */
static int check_header(const char *path, const char *have,
			   const char *want, struct ub_error *err)
{
	int col = 1;
	for (;;) {
		size_t h = strcspn(have, ","), w = strcspn(want, ",");
		if (h != w || strncmp(have, want, h) != 0 || !have[h] != !want[w]) {
			if (h == w && strncmp(have, want, h) == 0) { /* one ends here */
				col++;
				have += h + !!have[h];
				want += w + !!want[w];
				h = strcspn(have, ",");
				w = strcspn(want, ",");
			}
			return ub_fail(err, UB_USAGE, "%s: not appending: its header "
				       "differs from this ulpbench's CSV columns at "
				       "column %d ('%.*s', expected '%.*s'; see "
				       "docs/csv.md)", path, col, (int)h, have, (int)w, want);
		}
		if (!have[h])
			return 0;
		have += h + 1;
		want += w + 1;
		col++;
	}
}

/* The first line of the report open on fd, without its end of line
 * ("\n" or "\r\n"), malloc'd; NULL with errno set if it cannot be read. */
static char *first_line(int fd)
{
	enum { MAX = 65536 }; /* longer than any header */
	char *buf = malloc(MAX + 1);
	ssize_t n = buf ? pread(fd, buf, MAX, 0) : -1;
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	size_t len = strcspn(buf, "\n");
	buf[len - (len && buf[len - 1] == '\r')] = '\0';
	return buf;
}

/* A last line without its newline is a row cut short (by a run killed
 * while it appended, or a copy cut short), which the new rows would keep
 * broken, unless it is the header alone: 0, or UB_USAGE. */
static int check_tail(int fd, const char *name, off_t size, const char *want,
		      struct ub_error *err)
{
	char last = '\n';
	if (pread(fd, &last, 1, size - 1) != 1 || last == '\n' ||
	    (size_t)size <= strlen(want) + 1) /* the header, perhaps with a \r */
		return 0;
	return ub_fail(err, UB_USAGE, "%s: not appending: its last line has no end "
		       "(a row cut short?): remove that line, or end it, first", name);
}

/* 0 when the report of size bytes open on fd is empty or starts with this
 * version's header and does not end in a row cut short; else fails
 * (UB_USAGE, naming the first column that differs), the report
 * untouched. */
static int check_report(int fd, const char *name, off_t size, struct ub_error *err)
{
	if (size == 0)
		return 0;
	char *have = first_line(fd), *want = header_text();
	int s = !have ? ub_fail(err, UB_IO, "%s: cannot read: %s", name, strerror(errno))
		: !want ? ub_fail(err, UB_RUNTIME, "out of memory")
		: check_header(name, have, want, err);
	if (!s)
		s = check_tail(fd, name, size, want, err);
	free(have);
	free(want);
	return s;
}

/* Before the run: the report is a writable regular file with this
 * version's header, or missing in a writable directory. */
static int check_before(const struct ub_csv *c, struct ub_error *err)
{
	struct stat st;
	int fd = open(c->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		char dir[sizeof c->path];
		snprintf(dir, sizeof dir, "%s", c->path);
		char *slash = strrchr(dir, '/');
		if (slash)
			slash[slash == dir] = '\0';
		if (access(slash ? dir : ".", W_OK | X_OK) == 0)
			return 0;
		return ub_fail(err, UB_IO, "%s: cannot write: %s", c->name, strerror(errno));
	}
	if (fd < 0)
		return ub_fail(err, UB_IO, "%s: cannot append: %s", c->name, strerror(errno));
	int s = fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)
		? ub_fail(err, UB_IO, "%s: cannot append: not a regular file", c->name)
		: access(c->path, W_OK) != 0
		? ub_fail(err, UB_IO, "%s: cannot append: %s", c->name, strerror(errno))
		: check_report(fd, c->name, st.st_size, err);
	close(fd);
	return s;
}

int ub_csv_open(struct ub_csv *c, const char *path, int append,
		struct ub_error *err)
{
	memset(c, 0, sizeof *c);
	c->need_header = 1;
	if (!append)
		return ub_outfile_open(&c->o, path, err);
	if (strcmp(path, "-") == 0)
		return ub_fail(err, UB_USAGE, "--append needs a CSV file, not '-'");
	snprintf(c->name, sizeof c->name, "%s", path);
	if (ub_path_follow(path, c->path, sizeof c->path) != 0)
		return ub_fail(err, UB_IO, "%s: cannot write: %s", path, strerror(errno));
	int s = check_before(c, err);
	if (s)
		return s;
	c->append = 1;
	c->need_header = 0; /* decided at the commit, under the lock */
	c->o.slot = -1;
	if (!(c->o.f = open_memstream(&c->buf, &c->len)))
		return ub_fail(err, UB_RUNTIME, "out of memory");
	return 0;
}

void ub_csv_add(struct ub_csv *c, const struct ub_result *res)
{
	if (c->need_header)
		ub_report_csv_header(c->o.f);
	c->need_header = 0;
	ub_report_csv_rows(c->o.f, res);
}

/* The report open for writing and locked (exclusive flock), created when
 * missing (*created); -1 with errno.  A file replaced or removed while we
 * waited for the lock is let go and the one now at the path taken. */
static int lock_report(const char *path, int *created)
{
	for (int tries = 0; tries < 100; tries++) {
		struct stat a, b;
		*created = 0;
		int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0 && errno == ENOENT) {
			fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
			*created = fd >= 0;
			if (fd < 0 && errno == EEXIST)
				continue; /* made meanwhile: open that one */
		}
		if (fd < 0)
			return -1;
		int r;
		while ((r = flock(fd, LOCK_EX)) != 0 && errno == EINTR)
			;
		if (r == 0 && fstat(fd, &a) == 0 && stat(path, &b) == 0 &&
		    a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_nlink > 0)
			return fd;
		int e = errno;
		close(fd);
		if (r != 0)
			return errno = e, -1;
	}
	return errno = EAGAIN, -1;
}

/* Writes all of len bytes at offset off; 0 or errno. */
static int write_at(int fd, const char *p, size_t len, off_t off)
{
	while (len) {
		ssize_t n = pwrite(fd, p, len, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		p += n;
		len -= (size_t)n;
		off += n;
	}
	return 0;
}

/* What goes before the rows at the end of the report of size bytes open
 * on fd: the header when it is empty, a newline when its last line lacks
 * one; malloc'd. */
static char *prefix(int fd, off_t size)
{
	if (size == 0) {
		char *h = header_text(), *p = h ? malloc(strlen(h) + 2) : NULL;
		if (p)
			strcat(strcpy(p, h), "\n");
		free(h);
		return p;
	}
	char last = '\n';
	if (pread(fd, &last, 1, size - 1) != 1)
		last = '\n';
	return strdup(last == '\n' ? "" : "\n");
}

/* --append's commit: under the lock, the header checked again (another
 * run may have made the report meanwhile), then the rows added at the
 * end. */
static int append_commit(struct ub_csv *c, struct ub_error *err)
{
	int e = ub_close_errno(c->o.f), created = 0;
	c->o.f = NULL;
	if (e)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	int fd = lock_report(c->path, &created);
	if (fd < 0)
		return ub_fail(err, UB_IO, "%s: cannot append: %s", c->name, strerror(errno));
	struct stat st;
	int s = fstat(fd, &st) != 0
		? ub_fail(err, UB_IO, "%s: cannot append: %s", c->name, strerror(errno))
		: check_report(fd, c->name, st.st_size, err);
	char *pre = s ? NULL : prefix(fd, st.st_size);
	if (!s && !pre)
		s = ub_fail(err, UB_RUNTIME, "out of memory");
	if (!s && ((e = write_at(fd, pre, strlen(pre), st.st_size)) ||
		   (e = write_at(fd, c->buf, c->len, st.st_size + (off_t)strlen(pre))))) {
		if (ftruncate(fd, st.st_size) != 0) /* the report as it was */
			e = e ? e : errno;
		s = ub_fail(err, UB_IO, "%s: cannot write: %s", c->name, strerror(e));
	}
	if (s && created)
		unlink(c->path); /* still locked: a waiting run sees it gone */
	if (close(fd) != 0 && !s)
		s = ub_fail(err, UB_IO, "%s: cannot write: %s", c->name, strerror(errno));
	free(pre);
	return s;
}

int ub_csv_commit(struct ub_csv *c, struct ub_error *err)
{
	if (c->append) {
		int s = append_commit(c, err);
		ub_csv_abort(c);
		return s;
	}
	if (c->need_header) /* a report with no rows still has its header */
		ub_report_csv_header(c->o.f);
	c->need_header = 0;
	return ub_outfile_commit(&c->o, err);
}

void ub_csv_abort(struct ub_csv *c)
{
	if (!c->append) {
		ub_outfile_abort(&c->o);
		return;
	}
	if (c->o.f)
		fclose(c->o.f);
	c->o.f = NULL;
	free(c->buf);
	c->buf = NULL;
	c->append = 0;
}

/* report_csvfile.c — the CSV output file: header once, --append to an
 * existing report with the same header, all-or-nothing (report.h). */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* Reads the existing report into *text (NULL when it does not exist). */
static int read_existing(const char *path, char **text, size_t *len,
			 mode_t *mode, struct ub_error *err)
{
	struct stat st;
	*text = NULL;
	FILE *f = fopen(path, "rb");
	if (!f && errno == ENOENT)
		return 0;
	if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
		int e = f ? EINVAL : errno;
		if (f)
			fclose(f);
		return ub_fail(err, UB_IO, "%s: cannot append: %s", path,
			       e == EINVAL ? "not a regular file" : strerror(e));
	}
	*mode = st.st_mode & 07777;
	*text = malloc((size_t)st.st_size + 1);
	*len = *text ? fread(*text, 1, (size_t)st.st_size, f) : 0;
	int bad = !*text || ferror(f) || *len != (size_t)st.st_size;
	fclose(f);
	if (bad) {
		free(*text);
		*text = NULL;
		return ub_fail(err, UB_IO, "%s: cannot read", path);
	}
	(*text)[*len] = '\0';
	return 0;
}

/* Checks the header of text and copies it into the open temporary file. */
static int copy_existing(struct ub_csv *c, const char *path, const char *text,
			 size_t len, mode_t mode, struct ub_error *err)
{
	char *want = header_text();
	if (!want)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	size_t hl = strcspn(text, "\n");
	char *have = strndup(text, hl - (hl && text[hl - 1] == '\r'));
	int s = have ? check_header(path, have, want, err)
		     : ub_fail(err, UB_RUNTIME, "out of memory");
	free(have);
	free(want);
	if (s)
		return s;
	s = ub_outfile_open(&c->o, path, err);
	if (s)
		return s;
	fchmod(fileno(c->o.f), mode);
	fwrite(text, 1, len, c->o.f);
	if (text[len - 1] != '\n')
		fputc('\n', c->o.f);
	return 0;
}

int ub_csv_open(struct ub_csv *c, const char *path, int append,
		struct ub_error *err)
{
	char *text = NULL;
	size_t len = 0;
	mode_t mode = 0644;
	memset(c, 0, sizeof *c);
	c->need_header = 1;
	if (append && strcmp(path, "-") == 0)
		return ub_fail(err, UB_USAGE, "--append needs a CSV file, not '-'");
	int s = append ? read_existing(path, &text, &len, &mode, err) : 0;
	if (!s && text && len) {
		s = copy_existing(c, path, text, len, mode, err);
		c->need_header = 0;
	} else if (!s) {
		s = ub_outfile_open(&c->o, path, err);
	}
	free(text);
	return s;
}

void ub_csv_add(struct ub_csv *c, const struct ub_result *res)
{
	if (c->need_header)
		ub_report_csv_header(c->o.f);
	c->need_header = 0;
	ub_report_csv_rows(c->o.f, res);
}

int ub_csv_commit(struct ub_csv *c, struct ub_error *err)
{
	if (c->need_header) /* a report with no rows still has its header */
		ub_report_csv_header(c->o.f);
	c->need_header = 0;
	return ub_outfile_commit(&c->o, err);
}

void ub_csv_abort(struct ub_csv *c)
{
	ub_outfile_abort(&c->o);
}

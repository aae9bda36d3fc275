/* paths.c — data directory lookup and whole-file reads. */
#include "paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ub_data_path(const char *rel, char *out, size_t len, struct ub_error *err)
{
	const char *env = getenv("ULPBENCH_DATADIR");
	/* the build tree holds what make builds from the sources (the
	 * compact tables, captures/mufu-sm90.tab) */
	const char *dirs[] = {env && *env ? env : NULL, SRCDIR, BUILDDIR, PKGDATADIR};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		if (!dirs[i])
			continue;
		snprintf(out, len, "%s/%s", dirs[i], rel);
		if (access(out, R_OK) == 0)
			return 0;
	}
	return ub_fail(err, UB_USAGE,
		       "%s: not found in $ULPBENCH_DATADIR, %s, %s or %s", rel,
		       SRCDIR, BUILDDIR, PKGDATADIR);
}

int ub_read_file(const char *path, char **text, struct ub_error *err)
{
	struct stat st;
	FILE *f = fopen(path, "rb");
	*text = NULL;
	if (!f)
		return ub_fail(err, UB_USAGE, "%s: cannot read: %s", path,
			       strerror(errno));
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		fclose(f);
		return ub_fail(err, UB_USAGE, "%s: cannot read: a directory, not a file",
			       path);
	}
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	const char *why = NULL;
	int e = 0;
	while (buf && !why) {
		size_t got = fread(buf + len, 1, cap - len - 1, f);
		if (memchr(buf + len, '\0', got)) /* text stops there: refuse */
			why = "a NUL byte";
		len += got;
		if (len > UB_SOURCE_MAX)
			why = "too large";
		if (len + 1 < cap || why)
			break;
		char *nb = realloc(buf, cap * 2);
		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		cap *= 2;
	}
	if (ferror(f))
		e = errno ? errno : EIO;
	fclose(f);
	if (!buf || e || why) {
		free(buf);
		if (why && why[0] == 't')
			return ub_fail(err, UB_USAGE, "%s: cannot read: more than %d MiB, "
				       "too large for a source file", path, UB_SOURCE_MAX >> 20);
		if (why)
			return ub_fail(err, UB_USAGE, "%s: cannot read: a NUL byte in the "
				       "first %zu bytes: not a text file", path, len);
		return ub_fail(err, UB_USAGE, "%s: cannot read: %s", path,
			       e ? strerror(e) : "out of memory");
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

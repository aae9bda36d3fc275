/* paths.c — data directory lookup and whole-file reads. */
#include "paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	FILE *f = fopen(path, "rb");
	if (!f)
		return ub_fail(err, UB_USAGE, "%s: cannot read: %s", path,
			       strerror(errno));
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	while (buf) {
		len += fread(buf + len, 1, cap - len - 1, f);
		if (len + 1 < cap)
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
	int bad = ferror(f);
	fclose(f);
	if (!buf || bad) {
		free(buf);
		return ub_fail(err, UB_USAGE, "%s: cannot read: %s", path,
			       bad ? "read error" : "out of memory");
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

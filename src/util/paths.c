/* paths.c — data directory lookup and whole-file reads. */
#include "paths.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *ub_program_prefix(char *buf, size_t len)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0 || n >= (ssize_t)sizeof exe - 1)
		return NULL;
	exe[n] = '\0';
	for (int up = 0; up < 2; up++) {   /* PREFIX/bin/ulpbench -> PREFIX */
		char *slash = strrchr(exe, '/');
		if (!slash || slash == exe)
			return NULL;
		*slash = '\0';
	}
	snprintf(buf, len, "%s", exe);
	return buf;
}

int ub_data_path(const char *rel, char *out, size_t len, struct ub_error *err)
{
	const char *env = getenv("ULPBENCH_DATADIR");
	char moved[4200], prefix[4096];
	/* installed elsewhere than configured (a wheel's bin/ulpbench in a
	 * virtual environment): PREFIX/share/ulpbench beside the program */
	if (ub_program_prefix(prefix, sizeof prefix))
		snprintf(moved, sizeof moved, "%s/share/ulpbench", prefix);
	/* the build tree holds what make builds from the sources (the
	 * compact tables, captures/mufu-sm90.tab) */
	const char *dirs[] = {env && *env ? env : NULL, SRCDIR, BUILDDIR, PKGDATADIR,
			      ub_program_prefix(prefix, sizeof prefix) ? moved : NULL};
	for (size_t i = 0; i < sizeof dirs / sizeof dirs[0]; i++) {
		if (!dirs[i])
			continue;
		snprintf(out, len, "%s/%s", dirs[i], rel);
		if (access(out, R_OK) == 0)
			return 0;
	}
	return ub_fail(err, UB_USAGE,
		       "%s: not found in $ULPBENCH_DATADIR, %s, %s, %s or PREFIX/share/ulpbench "
		       "beside the program", rel, SRCDIR, BUILDDIR, PKGDATADIR);
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

/* fileid.c — names and identities of files (fileid.h). */
#include "fileid.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ub_path_follow(const char *path, char *out, size_t len)
{
	char cur[4200], target[4200];
	if ((size_t)snprintf(cur, sizeof cur, "%s", path) >= sizeof cur)
		return errno = ENAMETOOLONG, -1;
	for (int hops = 0;; hops++) {
		struct stat st;
		/* /proc's links (/dev/stdout -> /proc/self/fd/1) name open
		 * files, not paths: they stay as they are */
		if (strncmp(cur, "/proc/", 6) == 0 || lstat(cur, &st) != 0 ||
		    !S_ISLNK(st.st_mode))
			break;
		if (hops == 40) /* as the kernel's limit */
			return errno = ELOOP, -1;
		ssize_t n = readlink(cur, target, sizeof target - 1);
		if (n < 0)
			return -1;
		target[n] = '\0';
		char *slash = strrchr(cur, '/');
		if (target[0] != '/' && slash) { /* relative to the link's directory */
			slash[1] = '\0';
			if (strlen(cur) + (size_t)n >= sizeof cur)
				return errno = ENAMETOOLONG, -1;
			strcat(cur, target);
		} else {
			strcpy(cur, target);
		}
	}
	if ((size_t)snprintf(out, len, "%s", cur) >= len)
		return errno = ENAMETOOLONG, -1;
	return 0;
}

void ub_fileid_get(const char *path, struct ub_fileid *id)
{
	struct stat st;
	memset(id, 0, sizeof *id);
	int is_stdout = strcmp(path, "-") == 0;
	if (is_stdout ? fstat(STDOUT_FILENO, &st) == 0 : stat(path, &st) == 0) {
		id->exists = 1;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		id->mode = st.st_mode;
	}
	if (is_stdout || ub_path_follow(path, id->path, sizeof id->path) != 0) {
		snprintf(id->path, sizeof id->path, "%s", path);
		return;
	}
	/* its directory resolved, then its name */
	char dir[4200], base[4200], real[PATH_MAX];
	const char *slash = strrchr(id->path, '/');
	snprintf(base, sizeof base, "%s", slash ? slash + 1 : id->path);
	if (!slash)
		strcpy(dir, ".");
	else if (slash == id->path)
		strcpy(dir, "/");
	else
		snprintf(dir, sizeof dir, "%.*s", (int)(slash - id->path), id->path);
	if (realpath(dir, real) && strlen(real) + strlen(base) + 2 <= sizeof id->path) {
		strcpy(id->path, strcmp(real, "/") ? real : "");
		strcat(id->path, "/");
		strcat(id->path, base);
	}
}

int ub_fileid_same(const struct ub_fileid *a, const struct ub_fileid *b)
{
	if (a->exists || b->exists)
		return a->exists && b->exists && a->dev == b->dev && a->ino == b->ino;
	return strcmp(a->path, b->path) == 0;
}

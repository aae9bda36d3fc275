/* fileid.h — which file a name means.  An output written through a
 * symbolic link goes to the link's target (the link stays), and two names
 * are told apart from two names of one file by device and inode, or, for
 * files not yet made, by their resolved paths. */
#ifndef UB_FILEID_H
#define UB_FILEID_H

#include <stddef.h>
#include <sys/types.h>

/* path with every symbolic link of its last component followed, dangling
 * ones too (the file a write would create); a relative target is taken
 * from the link's directory.  A name under /proc/ is not followed (its
 * links, such as /dev/stdout's /proc/self/fd/1, name open files).  0, or
 * -1 with errno (ELOOP, ENAMETOOLONG). */
int ub_path_follow(const char *path, char *out, size_t len);

struct ub_fileid {
	int exists;        /* dev and ino are the file's */
	dev_t dev;
	ino_t ino;
	mode_t mode;
	char path[4200];   /* links followed, the directory made absolute */
};

/* The identity of path; "-" is standard output's. */
void ub_fileid_get(const char *path, struct ub_fileid *id);
/* Both name one file (or the same file to be made). */
int ub_fileid_same(const struct ub_fileid *a, const struct ub_fileid *b);

#endif

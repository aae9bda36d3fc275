/* outfile.c — all-or-nothing output files (outfile.h). */
#include "outfile.h"
#include "fileid.h"
#include "tmpfiles.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static int cannot(struct ub_error *err, const char *name, int e)
{
	return ub_fail(err, UB_IO, "%s: cannot write: %s", name, strerror(e));
}

int ub_outfile_open(struct ub_outfile *o, const char *path,
		    struct ub_error *err)
{
	struct stat st;
	memset(o, 0, sizeof *o);
	o->slot = -1;
	o->is_stdout = strcmp(path, "-") == 0;
	if (o->is_stdout) {
		o->f = stdout;
		return 0;
	}
	snprintf(o->name, sizeof o->name, "%s", path);
	if (ub_path_follow(path, o->path, sizeof o->path) != 0)
		return cannot(err, path, errno);
	int exists = stat(o->path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode))
		return cannot(err, path, EISDIR);
	/* a file the rename would replace: only if it could be written in
	 * place, and by one of its mode */
	if (exists && S_ISREG(st.st_mode) && access(o->path, W_OK) != 0)
		return cannot(err, path, errno);
	o->keep_mode = exists && S_ISREG(st.st_mode);
	o->mode = (unsigned)(st.st_mode & 0777);
	/* a device, FIFO or an open file of /proc (/dev/stdout) */
	if ((exists && !S_ISREG(st.st_mode)) || strncmp(o->path, "/proc/", 6) == 0) {
		o->direct = 1;
		if (!(o->f = fopen(path, "w")))
			return cannot(err, path, errno);
		return 0;
	}
	int fd = ub_tmp_create(o->path, o->tmp, sizeof o->tmp, &o->slot);
	if (fd < 0)
		return cannot(err, path, errno);
	if (!(o->f = fdopen(fd, "w"))) {
		int e = errno;
		close(fd);
		ub_tmp_discard(o->slot);
		return cannot(err, path, e);
	}
	return 0;
}

int ub_close_errno(FILE *f)
{
	errno = 0;
	int e = fflush(f) != 0 ? (errno ? errno : EIO) : 0;
	if (!e && ferror(f))
		e = EIO; /* an earlier write failed and its cause is gone */
	errno = 0;
	if (fclose(f) != 0 && !e)
		e = errno ? errno : EIO;
	return e;
}

int ub_rename_locked(const char *tmp, const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		while (flock(fd, LOCK_EX) != 0 && errno == EINTR)
			;
	int r = rename(tmp, path), e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return r;
}

int ub_outfile_commit(struct ub_outfile *o, struct ub_error *err)
{
	if (o->is_stdout) {
		errno = 0;
		int bad = fflush(stdout) != 0 || ferror(stdout);
		return bad ? cannot(err, "stdout", errno ? errno : EIO) : 0;
	}
	int e = o->keep_mode && !o->direct && fchmod(fileno(o->f), (mode_t)o->mode) != 0
		? errno : 0;
	int c = ub_close_errno(o->f);
	e = e ? e : c;
	o->f = NULL;
	if (!e && !o->direct && ub_rename_locked(o->tmp, o->path) != 0)
		e = errno;
	if (e) {
		ub_tmp_discard(o->slot);
		o->slot = -1;
		return cannot(err, o->name, e);
	}
	ub_tmp_forget(o->slot);
	o->slot = -1;
	return 0;
}

void ub_outfile_abort(struct ub_outfile *o)
{
	if (o->is_stdout || !o->f)
		return;
	fclose(o->f);
	o->f = NULL;
	ub_tmp_discard(o->slot);
	o->slot = -1;
}

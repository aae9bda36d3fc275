/* outfile.c — all-or-nothing output files (outfile.h). */
#include "outfile.h"
#include "tmpfiles.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ub_outfile_open(struct ub_outfile *o, const char *path,
		    struct ub_error *err)
{
	memset(o, 0, sizeof *o);
	o->slot = -1;
	o->is_stdout = strcmp(path, "-") == 0;
	if (o->is_stdout) {
		o->f = stdout;
		return 0;
	}
	snprintf(o->path, sizeof o->path, "%s", path);
	int fd = ub_tmp_create(path, o->tmp, sizeof o->tmp, &o->slot);
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		int e = errno;
		if (fd >= 0) {
			close(fd);
			ub_tmp_discard(o->slot);
		}
		return ub_fail(err, UB_IO, "%s: cannot write: %s", path, strerror(e));
	}
	return 0;
}

int ub_outfile_commit(struct ub_outfile *o, struct ub_error *err)
{
	if (o->is_stdout)
		return fflush(stdout) ? ub_fail(err, UB_IO, "stdout: write error") : 0;
	int bad = ferror(o->f);
	bad |= fclose(o->f) != 0;
	o->f = NULL;
	if (!bad && rename(o->tmp, o->path) == 0) {
		ub_tmp_forget(o->slot);
		return 0;
	}
	int e = errno;
	ub_tmp_discard(o->slot);
	return ub_fail(err, UB_IO, "%s: cannot write: %s", o->path,
		       bad ? "write error" : strerror(e));
}

void ub_outfile_abort(struct ub_outfile *o)
{
	if (o->is_stdout || !o->f)
		return;
	fclose(o->f);
	o->f = NULL;
	ub_tmp_discard(o->slot);
}

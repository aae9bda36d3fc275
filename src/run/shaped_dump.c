/* shaped_dump.c — --dump DIR for a shaped run (shaped.h,
 * docs/reductions.md): every output of every mode, the torch plan's and
 * the correctly rounded values, and the inputs, as .npy files in their
 * shapes.  All or nothing, as the elementwise dump: each file is written
 * under a hidden staging name (removed on a signal), and only when the
 * whole run succeeded are they all renamed into place. */
#include "shaped.h"
#include "npy.h"
#include "tmpfiles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct ub_shaped_staged {
	char tmp[4200], final[4200];
	int slot; /* tmp's in tmpfiles.h */
};

int ub_shaped_dump_add(struct ub_shaped_dump *d, const char *name, enum ub_dtype dt,
		       const char *what, const struct ub_array *a, size_t rows,
		       size_t cols, struct ub_error *err)
{
	if (!d->dir)
		return 0;
	if (!d->nf && mkdir(d->dir, 0777) != 0 && errno != EEXIST)
		return ub_fail(err, UB_IO, "%s: cannot create directory: %s", d->dir,
			       strerror(errno));
	struct ub_shaped_staged *f = realloc(d->f, (size_t)(d->nf + 1) * sizeof *f);
	if (!f)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	d->f = f;
	f += d->nf;
	snprintf(f->final, sizeof f->final, "%s/%s.%s.%s.npy", d->dir, name,
		 ub_dtypes[dt].name, what);
	snprintf(f->tmp, sizeof f->tmp, "%s/.%s.%s.%s.npy.%ld.staging", d->dir, name,
		 ub_dtypes[dt].name, what, (long)getpid());
	if ((f->slot = ub_tmp_track(f->tmp)) < 0)
		return ub_fail(err, UB_IO, "%s: cannot write: %s", f->final, strerror(errno));
	d->nf++;
	struct ub_shape sh = {.ndim = cols ? 2 : 1, .dim = {rows, cols}};
	return ub_npy_write(f->tmp, a, &sh, err);
}

int ub_shaped_dump_finish(struct ub_shaped_dump *d, int s, struct ub_error *err)
{
	int done = 0;
	while (!s && done < d->nf)
		if (rename(d->f[done].tmp, d->f[done].final) != 0)
			s = ub_fail(err, UB_IO, "%s: cannot write: %s", d->f[done].final,
				    strerror(errno));
		else
			ub_tmp_forget(d->f[done++].slot);
	for (int i = done; i < d->nf; i++) /* staged, not renamed */
		ub_tmp_discard(d->f[i].slot);
	free(d->f);
	d->f = NULL;
	d->nf = 0;
	return s;
}

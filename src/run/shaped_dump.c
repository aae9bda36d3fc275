/* shaped_dump.c — a shaped run's per-element results as .npy (--dump DIR,
 * docs/reductions.md): DIR/OP.DTYPE.OUTPUT.MODE.npy per mode,
 * OP.DTYPE.OUTPUT.torch.npy, OP.DTYPE.OUTPUT.ref.npy (the correctly
 * rounded reference; NaN where undecided) in each output's shape, and the
 * inputs as OP.DTYPE.input.NAME.npy (so a run replays with --input).
 * All-or-nothing, as the elementwise dump: each file is written under a
 * hidden staging name (tmpfiles.h: a signal removes it), and renamed into
 * place only when every one of the run was written. */
#include "outfile.h"
#include "shaped.h"
#include "tmpfiles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct staged {
	char tmp[4200], final[4200];
	int slot;
};

struct ub_shaped_dump {
	const char *dir;
	int n, cap;
	struct staged *f;
};

struct ub_shaped_dump *ub_shaped_dump_new(const char *dir)
{
	struct ub_shaped_dump *dp = calloc(1, sizeof *dp);
	if (dp)
		dp->dir = dir;
	return dp;
}

int ub_shaped_dump_stage(struct ub_shaped_dump *dp, const char *op, enum ub_dtype dt,
			 const char *what, const struct ub_array *a, enum ub_extent e,
			 size_t rows, size_t cols, const char *descr, struct ub_error *err)
{
	if (dp->n == dp->cap) {
		int cap = dp->cap ? 2 * dp->cap : 16;
		struct staged *f = realloc(dp->f, (size_t)cap * sizeof *f);
		if (!f)
			return ub_fail(err, UB_RUNTIME, "out of memory");
		dp->f = f;
		dp->cap = cap;
	}
	struct staged *s = &dp->f[dp->n];
	struct ub_shape sh = {.ndim = e == UB_EXT_FULL ? 2 : 1,
			      .dim = {e == UB_EXT_COLS ? cols : rows, cols}};
	char stem[UB_STEM_MAX + 1];
	ub_file_stem(op, stem);
	snprintf(s->final, sizeof s->final, "%s/%s.%s.%s.npy", dp->dir, stem,
		 ub_dtypes[dt].name, what);
	snprintf(s->tmp, sizeof s->tmp, "%s/.%s.%s.%s.npy.%ld.staging", dp->dir, stem,
		 ub_dtypes[dt].name, what, (long)getpid());
	if ((s->slot = ub_tmp_track(s->tmp)) < 0)
		return ub_fail(err, UB_IO, "%s: cannot write: %s", s->final, strerror(errno));
	dp->n++;
	return ub_npy_write_as(s->tmp, a, &sh, descr ? descr : ub_dtypes[a->dt].npy, err);
}

int ub_shaped_dump_finish(struct ub_shaped_dump *dp, int s, struct ub_error *err)
{
	int done = 0;
	while (dp && !s && done < dp->n)
		if (rename(dp->f[done].tmp, dp->f[done].final) != 0)
			s = ub_fail(err, UB_IO, "%s: cannot write: %s", dp->f[done].final,
				    strerror(errno));
		else
			ub_tmp_forget(dp->f[done++].slot);
	for (int i = done; dp && i < dp->n; i++) /* staged, not renamed */
		ub_tmp_discard(dp->f[i].slot);
	if (dp)
		free(dp->f);
	free(dp);
	return s;
}

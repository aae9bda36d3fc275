/* dump.c — per-element results as .npy (--dump DIR):
 * DIR/OP.DTYPE.MODE.npy, DIR/OP.DTYPE.torch.npy, DIR/OP.DTYPE.ref.npy, in
 * the op's dtype and the inputs' shape, and the inputs themselves as
 * DIR/OP.DTYPE.input.NAME.npy (so a run can be replayed with --input); OP
 * and NAME are the names as file names (ub_file_stem: a core's name may
 * hold '/').  All-or-nothing: each file is
 * first written under a hidden staging name, and only when every one was
 * written are they renamed into place. */
#include "outfile.h"
#include "report.h"
#include "tmpfiles.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES (UB_NDTYPES * (UB_NMODES * UB_MAX_TOOLKITS + 2 + UB_MAX_INPUTS))

struct staged {
	char tmp[4200], final[4200];
	int slot; /* tmp's in tmpfiles.h, so a signal removes it */
};

static int stage(struct staged *s, const char *dir, const struct ub_result *res,
		 const struct ub_data *d, const char *what,
		 const struct ub_array *a, struct ub_error *err)
{
	char op[UB_STEM_MAX + 1];
	ub_file_stem(res->cfg->op->name, op);
	snprintf(s->final, sizeof s->final, "%s/%s.%s.%s.npy", dir, op,
		 ub_dtypes[d->dt].name, what);
	snprintf(s->tmp, sizeof s->tmp, "%s/.%s.%s.%s.npy.%ld.staging", dir, op,
		 ub_dtypes[d->dt].name, what, (long)getpid());
	if ((s->slot = ub_tmp_track(s->tmp)) < 0)
		return ub_fail(err, UB_IO, "%s: cannot write: %s", s->final,
			       strerror(errno));
	return ub_npy_write(s->tmp, a, &d->shape, err);
}

int ub_report_dump(const char *dir, const struct ub_result *res,
		   struct ub_error *err)
{
	struct staged *files = calloc(MAX_FILES, sizeof *files); /* 8 kB each */
	int nf = 0, s = 0;
	if (!files)
		return ub_fail(err, UB_RUNTIME, "out of memory");
	if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
		free(files);
		return ub_fail(err, UB_IO, "%s: cannot create directory: %s", dir,
			       strerror(errno));
	}
	for (int t = 0; !s && t < res->ndata; t++) {
		const struct ub_data *d = &res->data[t];
		/* each row's results through its own link to them: none for
		 * a mode that does not apply, none kept by a streamed run */
		for (int i = 0; !s && i < res->nrows; i++) {
			const struct ub_row *r = &res->rows[i];
			const struct ub_array *y = ub_row_output(res, r);
			if (r->data == t && y)
				s = stage(&files[nf++], dir, res, d, r->mode, y, err);
		}
		if (!s)
			s = stage(&files[nf++], dir, res, d, "ref", &d->cr, err);
		for (int k = 0; !s && k < d->nin; k++) {
			char what[UB_STEM_MAX + 8], in[UB_STEM_MAX + 1];
			ub_file_stem(ub_data_op(res, d)->inputs[k], in);
			snprintf(what, sizeof what, "input.%s", in);
			s = stage(&files[nf++], dir, res, d, what, &d->in[k], err);
		}
	}
	int done = 0; /* files renamed into place */
	while (!s && done < nf)
		if (rename(files[done].tmp, files[done].final) != 0)
			s = ub_fail(err, UB_IO, "%s: cannot write: %s",
				    files[done].final, strerror(errno));
		else
			ub_tmp_forget(files[done++].slot);
	for (int i = done; i < nf; i++) /* staging files not renamed */
		ub_tmp_discard(files[i].slot);
	free(files);
	return s;
}

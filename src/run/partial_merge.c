/* partial_merge.c — adding parts of one run together (partial.h).
 *
 * Two parts belong together when every field of their identity is the
 * same and they hold the same rows (dtypes, modes, the same reasons for a
 * mode that does not apply); then each row's statistics, figures and
 * approximate instructions add up (metrics.h, figures.h), in any order. */
#include "partial.h"

#include <stdio.h>
#include <string.h>

int ub_partial_compatible(const struct ub_partial *acc, const char *accname,
			  const struct ub_partial *part, const char *name,
			  struct ub_error *err)
{
	int f = ub_run_id_diff(&acc->id, &part->id);
	if (f >= 0)
		return ub_fail(err, UB_USAGE, "%s: not a part of the same run as %s: "
			       "its %s is '%.300s', %s's '%.300s'", name, accname,
			       ub_run_id_names[f], part->id.v[f], accname, acc->id.v[f]);
	int same = acc->nin == part->nin && acc->ndata == part->ndata &&
		   acc->nrows == part->nrows;
	for (int t = 0; same && t < acc->ndata; t++)
		same = acc->data[t].dt == part->data[t].dt && acc->data[t].n == part->data[t].n;
	for (int r = 0; same && r < acc->nrows; r++)
		same = acc->rows[r].dt == part->rows[r].dt &&
		       !strcmp(acc->rows[r].mode, part->rows[r].mode) &&
		       !strcmp(acc->rows[r].na, part->rows[r].na);
	if (!same)
		return ub_fail(err, UB_USAGE, "%s: its rows (dtypes, modes, elements) "
			       "differ from %s's, though both say they are one run",
			       name, accname);
	return 0;
}

int ub_partial_merge(struct ub_partial *acc, const struct ub_partial *part,
		     struct ub_error *err)
{
	for (int t = 0; t < acc->ndata; t++) /* each part's own draws */
		acc->data[t].rejected += part->data[t].rejected;
	for (int r = 0; r < acc->nrows; r++) {
		struct ub_prow *a = &acc->rows[r];
		const struct ub_prow *b = &part->rows[r];
		ub_stats_merge(&a->st, &b->st);
		a->approx |= b->approx;
		if (!a->fig != !b->fig || (a->fig && a->fig->has_torch != b->fig->has_torch))
			return ub_fail(err, UB_USAGE, "row %s %s: the parts' figures "
				       "differ in kind", ub_dtypes[a->dt].name, a->mode);
		if (a->fig)
			ub_figs_merge(a->fig, b->fig);
	}
	return 0;
}

/* fuzz_partial.c — partial files (src/run/partial_read.c): the input is
 * the file.  One that is refused must be refused with an exit status of
 * ub.h (1-5) and a message: anything else (the -1 of an inner helper,
 * which the command took for "no such subcommand") is a finding (abort).
 * One that reads is written back (partial_write.c) and read again, and
 * must hold the same statistics and figures: a difference is a finding. */
#include "fuzz.h"
#include "partial.h"

#include <stdlib.h>
#include <string.h>

static void same(const struct ub_partial *a, const struct ub_partial *b)
{
	if (a->nrows != b->nrows || a->ndata != b->ndata || a->nargs != b->nargs ||
	    a->shard != b->shard || a->nshards != b->nshards || ub_run_id_diff(&a->id, &b->id) >= 0)
		abort();
	for (int i = 0; i < a->nargs; i++)
		if (strcmp(a->args[i], b->args[i]))
			abort();
	for (int r = 0; r < a->nrows; r++)
		if (!ub_stats_equal(&a->rows[r].st, &b->rows[r].st) ||
		    a->rows[r].approx != b->rows[r].approx ||
		    strcmp(a->rows[r].mode, b->rows[r].mode) || strcmp(a->rows[r].na, b->rows[r].na))
			abort();
	for (int r = 0; r < a->nrows; r++) {
		const struct ub_figs *f = a->rows[r].fig, *g = b->rows[r].fig;
		if (!f != !g)
			abort();
		if (!f)
			continue;
		struct ub_figs *x = ub_figs_sorted(f), *y = ub_figs_sorted(g);
		if (x && y && memcmp(x, y, sizeof *x))
			abort();
		free(x);
		free(y);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ub_partial p, q;
	struct ub_error err;
	const char *path = fuzz_file("part.0", data, size);
	if (!path)
		return 0;
	err.msg[0] = '\0';
	int s = ub_partial_read(path, &p, &err);
	if (s && (s < UB_EXPECT_FAILED || s > UB_IO || !err.msg[0]))
		abort();
	if (s)
		return 0;
	const char *again = fuzz_file("part.1", (const uint8_t *)"", 0);
	if (again && !ub_partial_write(again, &p, &err) && !ub_partial_read(again, &q, &err)) {
		same(&p, &q);
		ub_partial_free(&q);
	}
	ub_partial_free(&p);
	return 0;
}

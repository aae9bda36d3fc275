/* mkparts.c — for bench/shard.sh: N partial files of one run made from
 * one real part, so that `ulpbench merge` can be timed on 10,000 parts
 * without running 10,000 shards.
 *
 * Usage: mkparts TEMPLATE N DIR
 *
 * TEMPLATE is shard 0 of N of a run of N chunks (one chunk a shard:
 * -n N*65536); part K is written to DIR/part.K as that template with
 * shard K and every element index (the worst elements', the figures' sets) moved
 * by K chunks, so the parts hold disjoint elements as real shards do and
 * the merge does all its work: read, check and add N parts of the size a
 * real shard writes.  The merged figures are the template's N times over,
 * not a run's: this times the merge, it measures nothing else. */
#include "partial.h"

#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	struct ub_partial p;
	struct ub_error err = {{0}};
	if (argc != 4) {
		fprintf(stderr, "usage: mkparts TEMPLATE N DIR\n");
		return 2;
	}
	size_t n = strtoull(argv[2], NULL, 10);
	if (ub_partial_read(argv[1], &p, &err)) {
		fprintf(stderr, "mkparts: %s\n", err.msg);
		return 2;
	}
	if (p.shard != 0 || p.nshards != n) {
		fprintf(stderr, "mkparts: %s is not shard 0 of %zu\n", argv[1], n);
		return 2;
	}
	size_t step = UB_STATS_CHUNK;
	for (size_t k = 0; k < n; k++) {
		char path[4096];
		snprintf(path, sizeof path, "%s/part.%zu", argv[3], k);
		if (ub_partial_write(path, &p, &err)) {
			fprintf(stderr, "mkparts: %s\n", err.msg);
			return 1;
		}
		/* the next part: one chunk further */
		p.shard++;
		for (int r = 0; r < p.nrows; r++) {
			p.rows[r].st.worst += step;
			struct ub_figset set[UB_PARTIAL_NSETS];
			if (!p.rows[r].fig)
				continue;
			ub_partial_figsets(p.rows[r].fig, set);
			for (int i = 0; i < UB_PARTIAL_NSETS; i++)
				for (size_t j = 0; j < *set[i].n; j++) {
					set[i].e[j].idx += step;
					set[i].e[j].key = ub_fig_key(set[i].e[j].idx);
				}
		}
	}
	ub_partial_free(&p);
	return 0;
}

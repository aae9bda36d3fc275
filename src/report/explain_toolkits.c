/* explain_toolkits.c — `ulpbench explain --toolkit A,B,...`: after each
 * further toolkit's explanation, what changed against the first's: each
 * mode's result under both, and the instructions of its kernel that
 * differ (ptx_diff.h). */
#include "explain.h"
#include "ptx_diff.h"
#include "run_toolkits.h"

#include <stdlib.h>

/* Lines of a PTX diff shown per mode */
#define UB_EXPLAIN_DIFF_LINES 24

void ub_explain_toolkits(FILE *f, const struct ub_explain *x0,
			 const struct ub_explain *xk)
{
	const struct ub_config *c0 = x0->cfg, *ck = xk->cfg;
	int hex = ub_dtypes[x0->dt].bits / 4;
	fprintf(f, "\nchanges from toolkit %s to %s\n", c0->toolkit->name, ck->toolkit->name);
	for (int m = 0; m < c0->nmodes; m++) {
		const struct ub_explained *a = &x0->modes[m], *b = &xk->modes[m];
		const char *name = ub_modes[c0->modes[m]].name;
		if (a->na || b->na) {
			fprintf(f, "mode %s: n/a\n", name);
			continue;
		}
		fprintf(f, "mode %s: 0x%0*llx under %s, 0x%0*llx under %s (%s)\n", name, hex,
			(unsigned long long)a->result, c0->toolkit->name, hex,
			(unsigned long long)b->result, ck->toolkit->name,
			a->result == b->result ? "the same bits" : "different bits");
		char *pa = ub_mode_ptx(c0, x0->dt, m), *pb = ub_mode_ptx(ck, xk->dt, m);
		int d = pa && pb ? ub_ptx_diff_print(f, pa, pb, "  ", UB_EXPLAIN_DIFF_LINES) : -1;
		if (d == 0)
			fprintf(f, "  the same PTX instructions (register names aside)\n");
		else if (d < 0)
			fprintf(f, "  (no PTX to compare)\n");
		free(pa);
		free(pb);
	}
}

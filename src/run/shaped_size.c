/* shaped_size.c — whether a shaped run can fit in memory (shaped.h).
 *
 * A shaped run keeps every element (its rows are not streamed as the
 * elementwise runs' chunks are): the inputs, each output's correctly
 * rounded reference and exact value (struct ub_exact), each mode's
 * outputs and the torch plan's.  Their sum is a floor of what the run
 * takes (work buffers, the figures and the program come on top: measured
 * about 43 bytes an element for softmax in f32 with one mode, against a
 * floor of 32), so a run whose floor exceeds the memory it may use
 * cannot fit and is refused before anything is allocated, with both
 * figures; one below it may still run out. */
#include "shaped_internal.h"
#include "triton.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

/* The bytes this process may use: the least of the machine's memory, its
 * address-space and data limits and its cgroup's (v2) memory.max; what
 * says it into why. */
static double memory_limit(char *why, size_t len)
{
	double lim = (double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE);
	snprintf(why, len, "this machine's memory");
	struct rlimit rl;
	if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (double)rl.rlim_cur < lim) {
		lim = (double)rl.rlim_cur;
		snprintf(why, len, "the address-space limit (ulimit -v)");
	}
	if (getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    (double)rl.rlim_cur < lim) {
		lim = (double)rl.rlim_cur;
		snprintf(why, len, "the data limit (ulimit -d)");
	}
	FILE *f = fopen("/sys/fs/cgroup/memory.max", "r");
	double cg;
	if (f && fscanf(f, "%lf", &cg) == 1 && cg > 0 && cg < lim) {
		lim = cg;
		snprintf(why, len, "this cgroup's memory.max");
	}
	if (f)
		fclose(f);
	return lim;
}

double ub_shaped_floor_bytes(const struct ub_shaped_req *q, enum ub_dtype dt,
			     size_t rows, size_t cols)
{
	const struct ub_shaped_op *op = q->op;
	double b = 0, es = ub_dtypes[dt].bits / 8;
	int nmodes = 0; /* those that run in dt (shaped_run.c's run_dtype) */
	for (int m = 0; q->cfg && m < q->cfg->nmodes; m++)
		nmodes += ub_mode_applies(q->cfg->modes[m], dt) &&
			  !(q->cfg->triton && ub_triton_mode_na(q->cfg->modes[m]));
	for (int k = 0; k < op->nin; k++)
		b += (double)ub_extent_count(op->in[k].ext, rows, cols) *
		     (ub_dtypes[ub_shaped_in_dtype(op, k, dt)].bits / 8);
	for (int o = 0; o < op->nout; o++) /* reference, exact, modes, torch */
		b += (double)ub_extent_count(op->out[o].ext, rows, cols) *
		     (es + sizeof(struct ub_exact) + (nmodes + 1) * es);
	return b;
}

int ub_shaped_fits(const struct ub_shaped_req *q, enum ub_dtype dt, size_t rows,
		   size_t cols, struct ub_error *err)
{
	char why[64];
	double need = ub_shaped_floor_bytes(q, dt, rows, cols), have = memory_limit(why, sizeof why);
	if (need <= have)
		return 0;
	return ub_fail(err, UB_USAGE, "--shape %zu,%zu: %s in %s keeps every element, at "
		       "least %.3g GB here (%.0f bytes an element), more than %s (%.3g GB): "
		       "give a smaller shape", rows, cols, q->op->name, ub_dtypes[dt].name,
		       need / 1e9, need / ((double)rows * (double)cols), why, have / 1e9);
}

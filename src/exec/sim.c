/* sim.c — bind ulpbench arrays to a kernel's parameters and run its PTX on
 * the interpreter (src/exec/ptx/). */
#include "sim.h"
#include "native.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARGS UB_MAX_KARGS

int ub_sim_run(const char *ptx, const char *entry, const struct ub_karg *args,
	       int nargs, size_t n, struct ptx_run_info *info,
	       struct ub_error *err)
{
	return ub_sim_run_traced(ptx, entry, args, nargs, n, NULL, NULL, info, err);
}

void ub_geom_grid(const struct ub_geom *g, size_t n, unsigned *grid,
		  unsigned *block)
{
	unsigned gd[3], bd[3];
	ub_geom_dims(g, n, gd, bd);
	*grid = gd[0];
	*block = bd[0] * bd[1] * bd[2];
}

void ub_geom_dims(const struct ub_geom *g, size_t n, unsigned *grid,
		  unsigned *block)
{
	block[0] = g && g->block ? g->block : UB_BLOCK;
	for (int d = 0; d < 2; d++) {
		block[d + 1] = g && g->block_yz[d] ? g->block_yz[d] : 1;
		grid[d + 1] = g && g->grid_yz[d] ? g->grid_yz[d] : 1;
	}
	unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
	unsigned long long per = g && g->per_block ? g->per_block : threads;
	unsigned long long blocks = g && g->grid ? g->grid : (n + per - 1) / per;
	grid[0] = (unsigned)(blocks < 1 ? 1 : blocks > UB_MAX_GRID ? UB_MAX_GRID : blocks);
}

/* --launch's keys, in the order ub_geom_parse stores them. */
static const char *const geom_keys[] = {"block", "per-thread", "per-block", "grid",
					 "shared"};
#define NKEYS 5

/* "X[xY[xZ]]" at s (block=, grid=) into d[0..2] (1 where not given),
 * each within max[]; 0, or -1 when it is not that. */
static int dims_parse(const char *s, const unsigned long long *max,
		      unsigned long long *d)
{
	d[1] = d[2] = 1;
	for (int k = 0; k < 3; k++) {
		char *end = NULL;
		if (*s < '0' || *s > '9')
			return -1;
		d[k] = strtoull(s, &end, 10);
		if (d[k] < 1 || d[k] > max[k])
			return -1;
		if (!*end)
			return 0;
		if (*end != 'x' || k == 2)
			return -1;
		s = end + 1;
	}
	return -1;
}

/* CUDA's limits (the programming guide's table of compute capabilities):
 * a block of at most 1024 x 1024 x 64 threads and 1024 in all, a grid of
 * at most 2^31 - 1 x 65535 x 65535 blocks. */
static const unsigned long long block_max[3] = {UB_MAX_BLOCK, 1024, 64};
static const unsigned long long grid_max[3] = {UB_MAX_GRID, 65535, 65535};

/* The error of a --launch part that is not one. */
static int geom_bad(const char *what, const char *it, struct ub_error *err)
{
	return ub_fail(err, UB_USAGE, "%s: '%s' is not block=B, "
		       "per-thread=K, per-block=E, grid=G or shared=BYTES "
		       "(B in 1..%d threads a block, or BXxBY[xBZ] with at most "
		       "1024 x 1024 x 64 and %d in all; K >= 1 elements a "
		       "thread, E elements a block, G blocks, or GXxGY[xGZ] with "
		       "GY, GZ at most 65535; BYTES of dynamic .shared memory a "
		       "block, at most 2^30; each once, one of per-thread, "
		       "per-block, grid; e.g. block=128,per-thread=8 or "
		       "block=32x4,grid=16x2)", what, it, UB_MAX_BLOCK, UB_MAX_BLOCK);
}

int ub_geom_parse(const char *what, const char *spec, struct ub_geom *g,
		  struct ub_error *err)
{
	static const unsigned long long max[] = {UB_MAX_BLOCK, 1ull << 24,
						 1ull << 34, UB_MAX_GRID, 1ull << 30};
	unsigned long long v[NKEYS] = {0}, bd[3] = {0, 1, 1}, gd[3] = {0, 1, 1};
	char buf[128];
	if (strlen(spec) >= sizeof buf)
		return ub_fail(err, UB_USAGE, "%s: '%s' is too long", what, spec);
	strcpy(buf, spec);
	for (char *save, *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(it, '='), *end = NULL;
		int k = 0;
		while (eq && k < NKEYS && ((size_t)(eq - it) != strlen(geom_keys[k]) ||
					   strncmp(it, geom_keys[k], (size_t)(eq - it))))
			k++;
		if (!eq || k == NKEYS || v[k] || (k > 0 && k < 4 && (v[1] || v[2] || v[3])))
			return geom_bad(what, it, err);
		if (k == 0 || k == 3) {
			unsigned long long *d = k ? gd : bd;
			if (dims_parse(eq + 1, k ? grid_max : block_max, d) ||
			    (!k && d[0] * d[1] * d[2] > UB_MAX_BLOCK))
				return geom_bad(what, it, err);
			v[k] = d[0];
			continue;
		}
		unsigned long long x = strtoull(eq + 1, &end, 10);
		if (end == eq + 1 || *end || x < 1 || x > max[k] || eq[1] == '-')
			return geom_bad(what, it, err);
		v[k] = x;
	}
	if (!v[0] && !v[1] && !v[2] && !v[3] && !v[4])
		return ub_fail(err, UB_USAGE, "%s: empty (e.g. block=128,per-thread=8)", what);
	g->block = v[0] ? (unsigned)v[0] : UB_BLOCK;
	g->block_yz[0] = v[0] ? (unsigned)bd[1] : 0;
	g->block_yz[1] = v[0] ? (unsigned)bd[2] : 0;
	unsigned long long threads = (unsigned long long)g->block *
				     (v[0] ? bd[1] * bd[2] : 1);
	g->per_block = v[1] ? v[1] * threads : v[2];
	g->grid = (unsigned)v[3];
	g->grid_yz[0] = v[3] ? (unsigned)gd[1] : 0;
	g->grid_yz[1] = v[3] ? (unsigned)gd[2] : 0;
	g->shared = v[4];
	return 0;
}

int ub_atomic_order_parse(const char *spec, struct ub_geom *g,
			  struct ub_error *err)
{
	char *end = NULL;
	unsigned long long s = strncmp(spec, "seed=", 5) ? 0 : strtoull(spec + 5, &end, 10);
	if (!end || end == spec + 5 || *end || spec[5] == '-')
		return ub_fail(err, UB_USAGE, "--atomic-order: '%s' is not seed=S "
			       "(S a number: another valid order of the atomics, "
			       "e.g. seed=1)", spec);
	g->atomic_seeded = 1;
	g->atomic_seed = s;
	return 0;
}

/* "X", "XxY" or "XxYxZ": the dimensions after the first that are not 1
 * (up to the last that is not). */
static const char *dims_format(unsigned x, const unsigned *yz, char *buf, size_t len)
{
	unsigned y = yz[0] ? yz[0] : 1, z = yz[1] ? yz[1] : 1;
	if (z > 1)
		snprintf(buf, len, "%ux%ux%u", x, y, z);
	else if (y > 1)
		snprintf(buf, len, "%ux%u", x, y);
	else
		snprintf(buf, len, "%u", x);
	return buf;
}

const char *ub_geom_format(const struct ub_geom *g, char *buf, size_t len)
{
	static const unsigned one[2] = {1, 1};
	unsigned grid[3], block[3];
	char bs[48], gs[48];
	ub_geom_dims(g, 0, grid, block);
	unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
	unsigned long long per = g && g->per_block ? g->per_block : threads;
	dims_format(block[0], g ? g->block_yz : one, bs, sizeof bs);
	if (g && g->grid)
		snprintf(buf, len, "block=%s,grid=%s", bs,
			 dims_format(g->grid, g->grid_yz, gs, sizeof gs));
	else if (per % threads == 0)
		snprintf(buf, len, "block=%s,per-thread=%llu", bs, per / threads);
	else
		snprintf(buf, len, "block=%s,per-block=%llu", bs, per);
	size_t at = strlen(buf);
	if (g && g->shared && at < len)
		snprintf(buf + at, len - at, ",shared=%llu", g->shared);
	at = strlen(buf);
	if (g && g->atomic_seeded && at < len)
		snprintf(buf + at, len - at, " atomic-order=seed=%llu", g->atomic_seed);
	return buf;
}

int ub_checks_kind(const struct ub_checks *c)
{
	return !c->ran ? UB_CHECKS_NONE : c->tracked ? UB_CHECKS_TRACKED
		       : UB_CHECKS_PROVED;
}

void ub_checks_add(struct ub_checks *to, const struct ptx_run_info *info)
{
	to->ran = 1;
	to->tracked |= info->checked;
	to->float_atomics |= info->float_atomics;
	if (info->hazards > to->hazards)
		to->hazards = info->hazards;
	if (!to->hazard[0])
		snprintf(to->hazard, sizeof to->hazard, "%s", info->hazard);
	to->unwritten = info->unwritten;
	to->unwritten_at = info->unwritten_at;
}

/* What the run says of writable array a (its parameter p) when the
 * kernel reads it before writing it, into buf. */
static const char *hint_of(const struct ub_karg *a, char *buf, size_t len)
{
	const char *p = a->param ? a->param : "PARAM";
	snprintf(buf, len, "a kernel that accumulates into its output (+=, "
		 "atomicAdd into a buffer the caller zeroed) declares it: bind it "
		 "with a zero start, --args %s=%s:acc (docs/block-kernels.md)", p,
		 a->name ? a->name : "out");
	return buf;
}

/* $ULPBENCH_ATOMIC_LOG, a diagnostic: one line per atomic as it lands,
 * "ORDER BLOCK THREAD" (ORDER: default, or the seed of --atomic-order or
 * a schedule; BLOCK in grid order; THREAD in the block). */
struct atomic_log {
	FILE *f;
	int seeded;
	uint64_t seed;
};

static void log_atomic(void *user, uint64_t block, unsigned thread)
{
	const struct atomic_log *g = user;
	if (g->seeded)
		fprintf(g->f, "%llu %llu %u\n", (unsigned long long)g->seed,
			(unsigned long long)block, thread);
	else
		fprintf(g->f, "default %llu %u\n", (unsigned long long)block, thread);
}

/* Device printf's lines of a launch on stderr after who ran it: the
 * first UB_PRINTF_LINES lines of the process (the launch keeps 2 KiB of
 * whole lines, ptx.h), then one line saying that the rest is not shown. */
#define UB_PRINTF_LINES 64
static void show_printf(const char *who, const struct ptx_run_info *info)
{
	static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
	static unsigned long shown;
	static int noted;
	uint64_t calls = 0;
	if (!info->printf_calls)
		return;
	pthread_mutex_lock(&mu);
	for (const char *p = info->printf_text; *p; p += strcspn(p, "\n") + 1) {
		calls += *p == '(';   /* a call's first line: "(block ..." */
		if (shown < UB_PRINTF_LINES)
			fprintf(stderr, "ulpbench: %s: printf %.*s\n", who,
				(int)strcspn(p, "\n"), p);
		shown++;
		if (!p[strcspn(p, "\n")])
			break;
	}
	if ((shown > UB_PRINTF_LINES || calls < info->printf_calls) && !noted) {
		fprintf(stderr, "ulpbench: device printf: only the first lines are shown "
			"(at most %d a process, 2 KiB of text a launch)\n", UB_PRINTF_LINES);
		noted = 1;
	}
	pthread_mutex_unlock(&mu);
}

/* Binds args to m's kernel `entry` and runs it over n elements. */
static int bind_run(const struct ptx_module *m, const char *entry,
		    const struct ub_karg *args, int nargs, size_t n,
		    const struct ub_geom *geom, const struct ptx_trace *trace,
		    struct ptx_run_info *info, struct ub_error *err)
{
	struct ptx_buffer bufs[MAX_ARGS];
	struct ptx_bufcheck bc[MAX_ARGS];
	uint64_t vals[MAX_ARGS];
	char names[MAX_ARGS][160];  /* "input 'x'", for messages */
	char hints[MAX_ARGS][200];
	int nbufs = 0;
	if (nargs > MAX_ARGS)
		return ub_fail(err, UB_USAGE, "%s: more than %d parameters",
			       entry, MAX_ARGS);
	int np = ptx_entry_nparams(m, entry);
	if (np < 0)
		return ub_fail(err, UB_USAGE, "%s: no such kernel in the PTX "
			       "(is it declared extern \"C\" __global__?)", entry);
	if (np != nargs)
		return ub_fail(err, UB_USAGE, "%s: the kernel takes %d parameters, "
			       "%d are bound", entry, np, nargs);
	for (int i = 0; i < nargs; i++) {
		if (!args[i].arr) {
			vals[i] = args[i].value;
			continue;
		}
		bufs[nbufs].base = args[i].arr->data;
		bufs[nbufs].size = ub_karg_bytes(&args[i]);
		bufs[nbufs].writable = args[i].writable;
		snprintf(names[nbufs], sizeof names[nbufs], "%s '%s'%s%s%s",
			 args[i].writable ? "output" : "input",
			 args[i].name ? args[i].name : "?",
			 args[i].param ? " (parameter '" : "",
			 args[i].param ? args[i].param : "", args[i].param ? "')" : "");
		bufs[nbufs].name = args[i].name ? names[nbufs] : NULL;
		/* an output starts unwritten (initcheck); :acc at +0, tracked */
		bc[nbufs].fresh = args[i].writable && !args[i].acc;
		bc[nbufs].must_write = args[i].writable && args[i].acc;
		bc[nbufs].elem = ub_dtypes[args[i].arr->dt].bits / 8;
		bc[nbufs].hint = args[i].writable ? hint_of(&args[i], hints[nbufs],
							    sizeof hints[nbufs]) : NULL;
		vals[i] = (uint64_t)(uintptr_t)args[i].arr->data;
		nbufs++;
	}
	unsigned grid[3], block[3];
	ub_geom_dims(geom, n, grid, block);
	struct ptx_launch l = {
		.grid = {grid[0], grid[1], grid[2]},
		.block = {block[0], block[1], block[2]},
		.args = vals, .nargs = nargs, .bufs = bufs, .nbufs = nbufs,
		/* a diagnostic: the same results, thread by thread (docs/speed.md) */
		.thread_by_thread = getenv("ULPBENCH_SIM_SCALAR") != NULL,
		.shared_bytes = geom ? geom->shared : 0,
		.atomic_seeded = geom && geom->atomic_seeded,
		.atomic_seed = geom ? geom->atomic_seed : 0,
	};
	memset(info, 0, sizeof *info);
	struct atomic_log log = { NULL, geom && geom->atomic_seeded, geom ? geom->atomic_seed : 0 };
	struct ptx_run_opts opts = { .bufs = bc, .user = &log };
	const char *path = getenv("ULPBENCH_ATOMIC_LOG");   /* docs/block-kernels.md */
	if (path && path[0] && (log.f = fopen(path, "a")))
		opts.atomic = log_atomic;
	int s = ptx_run_checked(m, entry, &l, &opts, trace, info, err);
	if (log.f && fclose(log.f) && !s)
		s = ub_fail(err, UB_RUNTIME, "ULPBENCH_ATOMIC_LOG: %s: cannot write", path);
	show_printf(geom && geom->label ? geom->label : entry, info);
	return s;
}

int ub_sim_run_traced(const char *ptx, const char *entry,
		      const struct ub_karg *args, int nargs, size_t n,
		      const struct ub_geom *geom, const struct ptx_trace *trace,
		      struct ptx_run_info *info, struct ub_error *err)
{
	return ub_sim_run_exec(ptx, entry, args, nargs, n, geom, trace,
			       UB_EXEC_INTERP, info, err);
}

int ub_sim_run_exec(const char *ptx, const char *entry,
		    const struct ub_karg *args, int nargs, size_t n,
		    const struct ub_geom *geom, const struct ptx_trace *trace,
		    int exec, struct ptx_run_info *info, struct ub_error *err)
{
	struct ptx_module *m = NULL;
	int status = ptx_parse_for(ptx, entry, &m, err);
	if (status)
		return status;
	if (!trace)   /* explain traces the interpreter */
		ub_native_use(m, exec);
	status = bind_run(m, entry, args, nargs, n, geom, trace, info, err);
	ptx_free(m);
	return status;
}

int ub_sim_run_module(const struct ptx_module *m, const char *entry,
		      const struct ub_karg *args, int nargs, size_t n,
		      const struct ub_geom *geom, struct ptx_run_info *info,
		      struct ub_error *err)
{
	return bind_run(m, entry, args, nargs, n, geom, NULL, info, err);
}

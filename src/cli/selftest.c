/* selftest.c — `ulpbench selftest`: the sim against the GPU, bit for bit.
 *
 * Every op of the catalog (or --op), in each dtype its kernel is written
 * for (or --dtype) and every mode (or --mode), plus its torch plan, runs
 * on both backends over the same inputs (same seed); each row reports how
 * many outputs differ in bits and the first that does.  Rows the sim
 * claims exact (sim_exact: only IEEE-exact instructions ran) must not
 * differ: a difference is a bug of the sim or of ulpbench, and the exit
 * status is 1.  Rows whose approximate instructions all ran through the
 * models measured on an sm_90 GPU (src/exec/mufu.h) claim the GPU's bits
 * too: class "measured", held to the same rule.  Rows that ran other
 * approximate instructions are modelled: their differences are expected
 * and only counted.  A row whose sim run
 * met float mul/add without a rounding modifier says "unmarked": ptxas may
 * have fused those into an FMA, the first suspect when such a row differs.
 * Without a usable GPU: one line saying why, status 4. */
#include "clash.h"
#include "backend.h"
#include "catalog.h"
#include "commands.h"
#include "cuda_driver.h"
#include "paths.h"
#include "ptx.h"
#include "report.h"
#include "run.h"
#include "selftest_insns.h"
#include "subopts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE "usage: ulpbench selftest [--op LIST] [--dtype LIST] [--mode LIST] [-n N]\n" \
	"       ulpbench selftest --insns [--list FILE] [--capture FILE | --replay FILE]\n" \
	"Runs every op x dtype x mode on the sim and on the GPU over the same inputs\n" \
	"and counts the outputs that differ in bits; --insns does the same for each\n" \
	"PTX instruction form of kernels/ptx-insns.txt.  Exit status 1 when a row\n" \
	"or form the sim claims exact differs, 4 without a usable GPU."

static const struct ub_subopt opts[] = {
	{"op", 1, "LIST", "comma-separated ops (default: every op of the catalog)"},
	{"dtype", 1, "LIST", "comma-separated dtypes (default: each op's :dtypes)"},
	{"mode", 1, "LIST", "comma-separated compile modes (default: all)"},
	{"n", 1, "N", "inputs per op and dtype, special values first (default: 65536)"},
	{"seed", 1, "S", "random seed (default: 1)"},
	{"arch", 1, "ARCH", "compile for ARCH on both (default: compute_90 on the sim, the GPU's sm_NN)"},
	{"catalog", 1, "FILE", "op catalog (default: the shipped suites/ops.fpcore)"},
	{"insns", 0, NULL, "compare single PTX instructions instead of ops"},
	{"list", 1, "FILE", "with --insns: the forms (default: kernels/ptx-insns.txt)"},
	{"capture", 1, "FILE", "with --insns: also write the GPU's outputs to FILE"},
	{"replay", 1, "FILE", "with --insns: compare the sim with FILE, no GPU needed"},
	{"every", 0, NULL, "with --insns: print every input that differs, not only the first"},
	{"help", 0, NULL, "show this help"},
};
#define NOPTS (int)(sizeof opts / sizeof opts[0])

struct selftest {
	struct ub_config cfg;  /* modes, n, seed, arch */
	const char *ops, *catalog;
	struct ub_insns_opts insns;
	int do_insns;
	unsigned dtypes;       /* bit dt: requested; 0: each op's own */
	int nrows, nexact, nexact_bad, nmeasured, nmeasured_bad, nmodelled, nmodelled_bad;
	size_t exact_diff, measured_diff, modelled_diff, modelled_n;
};

static int option(void *ctx, const char *name, const char *arg,
		  struct ub_error *err)
{
	struct selftest *t = ctx;
	char buf[512], valid[256];
	uint64_t v;
	int s = 0;
	if (!strcmp(name, "op"))
		t->ops = arg;
	else if (!strcmp(name, "insns"))
		t->do_insns = 1;
	else if (!strcmp(name, "list"))
		t->insns.list = arg;
	else if (!strcmp(name, "capture"))
		t->insns.capture = arg;
	else if (!strcmp(name, "replay"))
		t->insns.replay = arg;
	else if (!strcmp(name, "every"))
		t->insns.every = 1;
	else if (!strcmp(name, "catalog"))
		t->catalog = arg;
	else if (!strcmp(name, "arch")) {
		return ub_arch_parse(arg, &t->cfg.arch, &t->cfg.arch_set, err);
	} else if (!strcmp(name, "n")) {
		s = ub_subopt_count("n", arg, 1, UINT64_C(1) << 32, &v, err);
		t->cfg.n = (size_t)v;
	} else if (!strcmp(name, "seed")) {
		s = ub_subopt_count("seed", arg, 0, UINT64_MAX >> 11, &t->cfg.seed, err);
	} else if (!strcmp(name, "mode")) {
		t->cfg.nmodes = 0;
		snprintf(buf, sizeof buf, "%s", arg);
		for (char *sv, *tok = strtok_r(buf, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv)) {
			int m = ub_mode_find(tok);
			if (m < 0 || t->cfg.nmodes == UB_NMODES)
				return ub_fail(err, UB_USAGE, "unknown mode '%s' (valid: %s)",
					       tok, ub_mode_names(valid, sizeof valid));
			t->cfg.modes[t->cfg.nmodes++] = (enum ub_mode)m;
		}
		if (!t->cfg.nmodes)
			s = ub_fail(err, UB_USAGE, "--mode: empty list (valid: %s)",
				    ub_mode_names(valid, sizeof valid));
	} else if (!strcmp(name, "dtype")) {
		snprintf(buf, sizeof buf, "%s", arg);
		for (char *sv, *tok = strtok_r(buf, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv)) {
			int d = ub_dtype_find(tok);
			if (d < 0)
				return ub_fail(err, UB_USAGE, "unknown dtype '%s' (valid: %s)",
					       tok, ub_dtype_names(valid, sizeof valid));
			t->dtypes |= 1u << d;
		}
		if (!t->dtypes)
			s = ub_fail(err, UB_USAGE, "--dtype: empty list (valid: %s)",
				    ub_dtype_names(valid, sizeof valid));
	}
	return s;
}

/* Bits of element i of a, as hex of the dtype's width. */
static void hex(const struct ub_array *a, size_t i, char *buf, size_t len)
{
	snprintf(buf, len, "0x%0*llx", ub_dtypes[a->dt].bits / 4,
		 (unsigned long long)ub_array_get(a, i));
}

/* Compares one row's outputs and prints its line. */
static void compare(struct selftest *t, const struct ub_row *row,
		    const struct ub_data *d, const struct ub_array *sim,
		    const struct ub_array *gpu)
{
	size_t diff = 0, first = 0, payload = 0;
	for (size_t i = 0; i < sim->n; i++) {
		uint64_t a = ub_array_get(sim, i), b = ub_array_get(gpu, i);
		if (a == b)
			continue;
		/* two NaNs: an f64 NaN's payload comes from an operand, and
		 * which of two NaN operands ptxas puts first is not in the PTX
		 * (docs/gpu-results.md); counted, not a difference */
		if (ub_bits_isnan(sim->dt, a) && ub_bits_isnan(sim->dt, b)) {
			payload++;
			continue;
		}
		if (!diff++)
			first = i;
	}
	int exact = row->sim_exact;
	char where[512] = "-", a[40], b[40], note[256] = "";
	if (diff) {
		size_t used = 0;
		for (int k = 0; k < d->nin; k++) {
			hex(&d->in[k], first, a, sizeof a);
			used += (size_t)snprintf(where + used, sizeof where - used, "%s%s=%s",
						 k ? ";" : "", row->in_names[k], a);
		}
		hex(sim, first, a, sizeof a);
		hex(gpu, first, b, sizeof b);
		snprintf(where + used, sizeof where - used, " sim=%s gpu=%s", a, b);
	}
	int measured = exact && (row->approx_mask & PTX_AX_MEASURED_BITS) != 0;
	if (!exact || measured)
		ub_format_approx(row->approx_mask, note, sizeof note);
	else if (row->approx_mask & UB_APPROX_UNMARKED)
		snprintf(note, sizeof note, "unmarked mul/add");
	if (payload)
		snprintf(note + strlen(note), sizeof note - strlen(note), "%s%zu NaN payloads differ",
			 note[0] ? "; " : "", payload);
	printf("%-12s %-5s %-10s %-9s %9zu %9zu  %s%s%s%s\n", row->op,
	       ub_dtypes[row->dt].name, row->mode,
	       measured ? "measured" : exact ? "exact" : "modelled",
	       sim->n, diff, where, note[0] ? "  (" : "", note, note[0] ? ")" : "");
	t->nrows++;
	if (measured) {
		t->nmeasured++;
		t->nmeasured_bad += diff > 0;
		t->measured_diff += diff;
	} else if (exact) {
		t->nexact++;
		t->nexact_bad += diff > 0;
		t->exact_diff += diff;
	} else {
		t->nmodelled++;
		t->nmodelled_bad += diff > 0;
		t->modelled_diff += diff;
		t->modelled_n += sim->n;
	}
}

/* Runs op on both backends and compares every row. */
static int test_op(struct selftest *t, const struct ub_op *op,
		   struct ub_error *err)
{
	struct ub_config cfg = t->cfg;
	struct ub_result rs, rg;
	cfg.op = op;
	cfg.ndtypes = 0;
	for (int dt = 0; dt < UB_NDTYPES; dt++)
		if (op->kernel_dtypes >> dt & 1 && (!t->dtypes || t->dtypes >> dt & 1))
			cfg.dtypes[cfg.ndtypes++] = (enum ub_dtype)dt;
	if (!cfg.ndtypes)
		return 0;
	cfg.backend = "sim";
	int s = ub_run(&cfg, &rs, err);
	struct ub_config gcfg = cfg;
	gcfg.backend = "cuda";
	if (!s)
		s = ub_run(&gcfg, &rg, err);
	else
		memset(&rg, 0, sizeof rg);
	/* the same options give the same rows in the same order; each
	 * finds its results through its own link (an n/a row has none) */
	for (int i = 0; !s && i < rs.nrows && i < rg.nrows; i++) {
		const struct ub_row *r = &rs.rows[i];
		const struct ub_array *ys = ub_row_output(&rs, r),
				      *yg = ub_row_output(&rg, &rg.rows[i]);
		if (ys && yg)
			compare(t, r, ub_row_data(&rs, r), ys, yg);
	}
	fflush(stdout);
	ub_result_free(&rs);
	ub_result_free(&rg);
	return s;
}

static int load(const struct selftest *t, struct ub_catalog *cat,
		struct ub_error *err)
{
	char path[4096];
	if (t->catalog)
		return ub_catalog_load(t->catalog, cat, err);
	int s = ub_data_path("suites/ops.fpcore", path, sizeof path, err);
	return s ? s : ub_catalog_load(path, cat, err);
}

/* Every op named in t->ops exists (unknown names list the valid ones). */
static int check_ops(const struct selftest *t, const struct ub_catalog *cat,
		     struct ub_error *err)
{
	char buf[1024], valid[1024] = "";
	if (!t->ops)
		return 0;
	snprintf(buf, sizeof buf, "%s", t->ops);
	for (char *sv, *tok = strtok_r(buf, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv))
		if (!ub_catalog_find(cat, tok)) {
			for (int i = 0; i < cat->nops; i++)
				snprintf(valid + strlen(valid), sizeof valid - strlen(valid),
					 "%s%s", i ? ", " : "", cat->ops[i].name);
			return ub_fail(err, UB_USAGE, "unknown op '%s' (valid: %s)", tok, valid);
		}
	return 0;
}

static int selected(const struct selftest *t, const char *name)
{
	char buf[1024];
	if (!t->ops)
		return 1;
	snprintf(buf, sizeof buf, "%s", t->ops);
	for (char *sv, *tok = strtok_r(buf, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv))
		if (!strcmp(tok, name))
			return 1;
	return 0;
}

static int run_all(struct selftest *t, const struct ub_catalog *cat,
		   struct ub_error *err)
{
	const struct ub_cu *cu;
	const struct ub_cuda_device *dev;
	int s = ub_cuda_open(&cu, &dev, err);
	if (s)
		return s;
	printf("selftest: sim against cuda on %s (sm_%d%d, driver %d.%d), n=%zu seed=%llu\n",
	       dev->name, dev->major, dev->minor, dev->driver / 1000,
	       dev->driver % 1000 / 10, t->cfg.n, (unsigned long long)t->cfg.seed);
	printf("%-12s %-5s %-10s %-9s %9s %9s  %s\n", "op", "dtype", "mode", "class",
	       "n", "differ", "first_difference");
	for (int i = 0; !s && i < cat->nops; i++)
		if (selected(t, cat->ops[i].name))
			s = test_op(t, &cat->ops[i], err);
	if (s)
		return s;
	if (!t->nrows)
		return ub_fail(err, UB_USAGE, "selftest: no op of the selection is "
			       "written for the dtypes asked for");
	printf("selftest: %d rows; exact: %d, %d differ (%zu elements)%s; measured: "
	       "%d, %d differ (%zu elements)%s; modelled: %d, %d differ (%zu of %zu "
	       "elements)\n", t->nrows, t->nexact, t->nexact_bad, t->exact_diff,
	       t->nexact_bad ? " BUG" : "", t->nmeasured, t->nmeasured_bad,
	       t->measured_diff, t->nmeasured_bad ? " BUG" : "", t->nmodelled,
	       t->nmodelled_bad, t->modelled_diff, t->modelled_n);
	if (t->nexact_bad + t->nmeasured_bad)
		return ub_fail(err, UB_EXPECT_FAILED, "selftest: %d rows the sim "
			       "claims exact differ from the GPU",
			       t->nexact_bad + t->nmeasured_bad);
	return 0;
}

int ub_cmd_selftest(int argc, char **argv, struct ub_error *err)
{
	struct selftest t = {0};
	struct ub_catalog cat = {0};
	int first;
	t.cfg.n = 65536;
	t.cfg.seed = 1;
	t.cfg.arch = "compute_90";
	t.cfg.nmodes = UB_NMODES;
	for (int m = 0; m < UB_NMODES; m++)
		t.cfg.modes[m] = (enum ub_mode)m;
	int s = ub_subopts_parse(argc, argv, opts, NOPTS, USAGE, option, &t, &first, err);
	if (s < 0)
		return 0;
	if (!s && first < argc)
		s = ub_fail(err, UB_USAGE, "selftest: unexpected argument '%s'", argv[first]);
	if (!s && !t.do_insns && (t.insns.list || t.insns.capture || t.insns.replay ||
				  t.insns.every))
		s = ub_fail(err, UB_USAGE, "selftest: --list, --capture, --replay and --every "
			    "go with --insns");
	if (!s && t.insns.capture && t.insns.replay)
		s = ub_fail(err, UB_USAGE, "selftest: --capture records a GPU, --replay "
			    "replaces one: not both");
	if (!s && t.insns.capture) { /* clash.h: not over the list, nor stdout's file */
		struct ub_clash c = {0};
		int r = ub_clash_add(&c, 1, "--capture", t.insns.capture, t.insns.capture) |
			ub_clash_add(&c, 1, "stdout", "the lines", "-");
		if (t.insns.list)
			r |= ub_clash_add(&c, 0, "--list", t.insns.list, t.insns.list);
		s = r ? ub_fail(err, UB_RUNTIME, "out of memory") : ub_clash_check(&c, err);
		ub_clash_free(&c);
		if (s)
			ub_prefix(err, s, "selftest: ");
	}
	if (!s && t.do_insns) {
		t.insns.arch = t.cfg.arch;
		t.insns.arch_set = t.cfg.arch_set;
		return ub_selftest_insns(&t.insns, err);
	}
	const struct ub_backend *be;
	struct ub_error why;
	if (!s && (s = ub_backend_get("cuda", &be, &why)))
		ub_fail(err, s, "selftest needs a GPU: %s", why.msg);
	if (!s)
		s = load(&t, &cat, err);
	if (!s)
		s = check_ops(&t, &cat, err);
	if (!s)
		s = run_all(&t, &cat, err);
	ub_catalog_free(&cat);
	return s;
}

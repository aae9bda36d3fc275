/* capture.c — `ulpbench capture-approx FILE`: record what the GPU's
 * approximate instructions return, so the sim can later use measured
 * behaviour instead of its models.
 *
 * For each instruction of approx.h (ex2, lg2, rcp, rsqrt, sqrt, sin, cos
 * .approx.f32, with and without .ftz, tanh.approx.f32, and ex2 and tanh
 * .approx of f16 and bf16, on all their 2^16 inputs) a CUDA C kernel
 * applies it through inline PTX to every element of an input array; the
 * inputs are structured sweeps: every mantissa of two binades chosen per
 * instruction (reference/mufu.md), the subnormals for the forms without
 * .ftz, seeded random encodings and the special values of f32.  The
 * outputs go into one file (capture_file.h, docs/approx-capture.md),
 * written whole or not at all.  `--read FILE` decodes a file and
 * summarizes it.  Without a usable GPU: one line saying why, status 4;
 * `--backend sim` records the sim's own models instead (for tests). */
#include "config.h"

#include "backend.h"
#include "capture_file.h"
#include "clash.h"
#include "commands.h"
#include "cuda_driver.h"
#include "inputs.h"
#include "nvrtc.h"
#include "outfile.h"
#include "subopts.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define USAGE "usage: ulpbench capture-approx [options] FILE\n" \
	"       ulpbench capture-approx --read FILE\n" \
	"Records the outputs of the GPU's approximate instructions (ex2, lg2, rcp,\n" \
	"rsqrt, sqrt, sin, cos .approx.f32 with and without .ftz, tanh.approx.f32,\n" \
	"ex2 and tanh .approx of f16 and bf16)\n" \
	"over every mantissa of a few binades, random inputs and special values,\n" \
	"into FILE (docs/approx-capture.md); --read summarizes such a file."

static const struct ub_subopt opts[] = {
	{"insn", 1, "LIST", "instructions, by PTX name or function (rcp: both forms; default: all)"},
	{"mantissa-bits", 1, "K", "sweep 2^K mantissas of each binade, evenly spaced (default: 23, all)"},
	{"random", 1, "N", "random inputs per instruction (default: 262144)"},
	{"seed", 1, "S", "seed of the random inputs (default: 1)"},
	{"backend", 1, "NAME", "cuda (default) or sim (records the sim's models: for tests)"},
	{"arch", 1, "ARCH", "compile for ARCH (default: the GPU's own sm_NN)"},
	{"read", 1, "FILE", "decode FILE and summarize its tables"},
	{"help", 0, NULL, "show this help"},
};
#define NOPTS (int)(sizeof opts / sizeof opts[0])

struct capture {
	const char *insns, *backend, *arch, *read;
	int arch_set, bits;
	uint64_t random, seed;
};

static int option(void *ctx, const char *name, const char *arg,
		  struct ub_error *err)
{
	struct capture *c = ctx;
	uint64_t v;
	int s = 0;
	if (!strcmp(name, "insn")) {
		c->insns = arg;
	} else if (!strcmp(name, "mantissa-bits")) {
		s = ub_subopt_count(name, arg, 1, 23, &v, err);
		c->bits = (int)v;
	} else if (!strcmp(name, "random")) {
		s = ub_subopt_count(name, arg, 0, UB_CAPTURE_MAX, &c->random, err);
	} else if (!strcmp(name, "seed")) {
		s = ub_subopt_count(name, arg, 0, UINT64_MAX >> 11, &c->seed, err);
	} else if (!strcmp(name, "backend")) {
		if (strcmp(arg, "cuda") && strcmp(arg, "sim"))
			return ub_fail(err, UB_USAGE, "capture-approx: unknown backend "
				       "'%s' (valid: cuda, sim)", arg);
		c->backend = arg;
	} else if (!strcmp(name, "arch")) {
		return ub_arch_parse(arg, &c->arch, &c->arch_set, err);
	} else if (!strcmp(name, "read")) {
		c->read = arg;
	}
	return s;
}

/* Bit k: instruction k is selected by the LIST (full names or the
 * function before ".approx"). */
static int select_insns(const char *list, unsigned *sel, struct ub_error *err)
{
	char buf[512], valid[1024] = "";
	*sel = list ? 0 : (1u << UB_NAPPROX) - 1;
	if (!list)
		return 0;
	snprintf(buf, sizeof buf, "%s", list);
	for (char *sv, *tok = strtok_r(buf, ",", &sv); tok; tok = strtok_r(NULL, ",", &sv)) {
		unsigned before = *sel;
		size_t l = strlen(tok);
		for (int i = 0; i < UB_NAPPROX; i++)
			if (!strcmp(ub_approx[i].ptx, tok) ||
			    (!strncmp(ub_approx[i].ptx, tok, l) && ub_approx[i].ptx[l] == '.'))
				*sel |= 1u << i;
		if (*sel != before)
			continue;
		for (int i = 0; i < UB_NAPPROX; i++)
			snprintf(valid + strlen(valid), sizeof valid - strlen(valid),
				 "%s%s", i ? ", " : "", ub_approx[i].ptx);
		return ub_fail(err, UB_USAGE, "capture-approx: unknown instruction '%s' "
			       "(valid: %s, or the part before .approx)", tok, valid);
	}
	return 0;
}

/* out[i] = INSN(in[i]) through inline PTX: the instruction exactly as
 * written, whatever the compiler's flags; the body (%s: the instruction)
 * for an f32 instruction, or a 16-bit one whose in[i] and out[i] hold an
 * f16 or bf16 encoding in their low bits. */
static const char *kernel_src =
	"/* capture-approx: out[i] = %s(in[i]) */\n"
	"extern \"C\" __global__ void ub_capture(const unsigned *in, unsigned *out,\n"
	"                                        long long n)\n"
	"{\n"
	"    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
	"    if (i < n) {\n%s"
	"    }\n"
	"}\n";
static const char *body32 =
	"        float r;\n"
	"        asm volatile(\"%s %%0, %%1;\" : \"=f\"(r) : \"f\"(__uint_as_float(in[i])));\n"
	"        out[i] = __float_as_uint(r);\n";
static const char *body16 =
	"        unsigned short r, x = (unsigned short)in[i];\n"
	"        asm volatile(\"%s %%0, %%1;\" : \"=h\"(r) : \"h\"(x));\n"
	"        out[i] = r;\n";

/* Runs one sweep of insn on the backend and appends it as a table. */
static int sweep(const struct ub_backend *be, const struct capture *c,
		 struct ub_capture *cap, struct ub_capture_table *t,
		 struct ub_error *err)
{
	char src[1024], name[64];
	const char *ptx = ub_approx[t->insn].ptx;
	if (!t->in)
		t->in = malloc((size_t)t->count * 4 + 4);
	t->out = calloc((size_t)t->count + 1, 4);
	if (!t->in || !t->out) {
		free(t->in);
		free(t->out);
		return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	if (t->kind != UB_SWEEP_LIST)
		ub_sweep_inputs(t->kind, t->bits, t->param, t->count, t->in);
	char body[512];
	snprintf(body, sizeof body, ub_approx[t->insn].fmt == 32 ? body32 : body16, ptx);
	snprintf(src, sizeof src, kernel_src, ptx, body);
	snprintf(name, sizeof name, "capture.%s.cu", ptx);
	struct ub_array in = {UB_F32, t->count, t->in}, out = {UB_F32, t->count, t->out};
	struct ub_karg args[] = {{.arr = &in}, {.arr = &out, .writable = 1}, {.value = t->count}};
	struct ub_job job = {
		.src = src, .name = name, .opts = "", .entry = "ub_capture",
		.arch = be->arch(c->arch, c->arch_set), .args = args, .nargs = 3,
		.n = t->count,
	};
	uint64_t approx = 0;
	int s = be->run(&job, &approx, err);
	if (s) {
		free(t->in);
		free(t->out);
		return s;
	}
	return ub_capture_add(cap, t, err);
}

/* Every sweep of one instruction. */
static int capture_insn(const struct ub_backend *be, const struct capture *c,
			struct ub_capture *cap, enum ub_approx_insn insn,
			struct ub_error *err)
{
	const struct ub_approx_info *ai = &ub_approx[insn];
	int s = 0;
	if (ai->fmt != 32) { /* f16, bf16: every input */
		struct ub_capture_table t = {.insn = insn, .kind = UB_SWEEP_ALL16,
			.count = 65536};
		return sweep(be, c, cap, &t, err);
	}
	for (int k = 0; !s && k < 2; k++) {
		struct ub_capture_table t = {.insn = insn, .kind = UB_SWEEP_MANTISSA,
			.bits = c->bits, .count = 1u << c->bits,
			.param = (uint64_t)(ai->exps[k] + 127)};
		s = sweep(be, c, cap, &t, err);
	}
	if (!s && !ai->ftz) { /* subnormal inputs: what .ftz would flush */
		struct ub_capture_table t = {.insn = insn, .kind = UB_SWEEP_MANTISSA,
			.bits = c->bits, .count = 1u << c->bits, .param = 0};
		s = sweep(be, c, cap, &t, err);
	}
	if (!s && c->random) {
		struct ub_capture_table t = {.insn = insn, .kind = UB_SWEEP_RANDOM,
			.count = (uint32_t)c->random, .param = c->seed};
		s = sweep(be, c, cap, &t, err);
	}
	if (!s) {
		uint64_t sv[64];
		struct ub_capture_table t = {.insn = insn, .kind = UB_SWEEP_LIST};
		t.count = (uint32_t)ub_special_values(UB_F32, NULL, sv, 64);
		if (!(t.in = malloc((size_t)t.count * 4)))
			return ub_fail(err, UB_RUNTIME, "out of memory");
		for (uint32_t i = 0; i < t.count; i++)
			t.in[i] = (uint32_t)sv[i];
		s = sweep(be, c, cap, &t, err);
	}
	return s;
}

/* The info lines of the file: where and how it was captured. */
static void describe(const struct ub_backend *be, const struct capture *c,
		     struct ub_capture *cap)
{
	const struct ub_cu *cu;
	const struct ub_cuda_device *dev;
	char date[64];
	time_t now = time(NULL);
	strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	size_t used = (size_t)snprintf(cap->info, sizeof cap->info,
		"ulpbench=%s\nnvrtc=%s\nbackend=%s\narch=%s\ndate=%s\n"
		"mantissa_bits=%d\nrandom=%llu\nseed=%llu\n", PACKAGE_VERSION,
		ub_nvrtc_version(), be->name, be->arch(c->arch, c->arch_set), date,
		c->bits, (unsigned long long)c->random, (unsigned long long)c->seed);
	if (be == &ub_backend_cuda && !ub_cuda_open(&cu, &dev, NULL))
		snprintf(cap->info + used, sizeof cap->info - used,
			 "device=%s\ncompute_capability=%d.%d\ndriver=%d\n", dev->name,
			 dev->major, dev->minor, dev->driver);
}

/* One line per table: how it is stored and how far the outputs are from
 * the predictor. */
static void summarize(const struct ub_capture *cap)
{
	printf("%s", cap->info);
	printf("%-22s %-24s %9s %9s %8s %9s %8s  %s\n", "instruction", "inputs", "n",
	       "bytes", "bits/out", "differ", "max_dist", "stored against");
	for (int k = 0; k < cap->ntables; k++) {
		const struct ub_capture_table *t = &cap->tables[k];
		char what[64], how[64];
		if (t->pred == UB_PRED_TABLE)
			snprintf(how, sizeof how, "table %d", t->base);
		else
			snprintf(how, sizeof how, "%s", t->pred == UB_PRED_MODEL ? "predictor" : "nothing");
		printf("%-22s %-24s %9u %9llu %8.3f %9u %8lld  %s%s\n", ub_approx[t->insn].ptx,
		       ub_sweep_describe(t, what, sizeof what), t->count,
		       (unsigned long long)t->bytes, t->count ? 8.0 * (double)t->bytes / t->count : 0.0,
		       t->differ, (long long)t->max_dist, how, t->coding == UB_CODE_DELTA ? ", delta" : "");
	}
}

static int capture(const struct capture *c, const char *path, struct ub_error *err)
{
	const struct ub_backend *be = NULL;
	struct ub_capture cap = {0};
	struct ub_outfile of = {0};
	struct ub_error why, werr;
	unsigned sel;
	int s = select_insns(c->insns, &sel, err);
	if (!s && (s = ub_backend_get(c->backend, &be, &why)))
		ub_fail(err, s, "capture-approx needs a GPU: %s", why.msg);
	if (!s)
		s = ub_outfile_open(&of, path, err);
	if (s)
		return s;
	describe(be, c, &cap);
	for (int i = 0; !s && i < UB_NAPPROX; i++)
		if (sel >> i & 1)
			s = capture_insn(be, c, &cap, (enum ub_approx_insn)i, err);
	if (!s && (s = ub_capture_write(of.f, &cap, &werr)))
		ub_fail(err, s, "%s: %s", path, werr.msg);
	if (!s)
		s = ub_outfile_commit(&of, err);
	else
		ub_outfile_abort(&of);
	if (!s)
		summarize(&cap);
	ub_capture_free(&cap);
	return s;
}

int ub_cmd_capture_approx(int argc, char **argv, struct ub_error *err)
{
	struct capture c = {.backend = "cuda", .arch = "compute_90", .bits = 23,
			    .random = 262144, .seed = 1};
	int first;
	int s = ub_subopts_parse(argc, argv, opts, NOPTS, USAGE, option, &c, &first, err);
	if (s < 0)
		return 0;
	if (s)
		return s;
	if (c.read) {
		struct ub_capture cap;
		if (first < argc)
			return ub_fail(err, UB_USAGE, "capture-approx: --read takes no "
				       "other FILE ('%s')", argv[first]);
		s = ub_capture_read(c.read, &cap, err);
		if (!s)
			summarize(&cap);
		ub_capture_free(&cap);
		return s;
	}
	if (first != argc - 1)
		return ub_fail(err, UB_USAGE, "capture-approx: %s (see ulpbench "
			       "capture-approx --help)", first < argc ? "one FILE only" :
			       "no FILE given");
	struct ub_clash cl = {0}; /* clash.h: not in stdout's file */
	s = ub_clash_add(&cl, 1, "FILE", argv[first], argv[first]) |
	    ub_clash_add(&cl, 1, "stdout", "the summary", "-") ?
	    ub_fail(err, UB_RUNTIME, "out of memory") : ub_clash_check(&cl, err);
	ub_clash_free(&cl);
	if (s)
		return ub_prefix(err, s, "capture-approx: ");
	return capture(&c, argv[first], err);
}

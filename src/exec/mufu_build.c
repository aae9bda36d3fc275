/* mufu_build.c — ub_mufu_build: the compact table file (mufu.c) from a
 * capture-approx file that holds the tables the models need: the .ftz
 * instructions' mantissa sweeps (rcp over [1, 2); rsqrt and sqrt over
 * [1, 2) and [2, 4); ex2 over [1, 2) and -[1, 2); lg2 over [1, 2) and
 * [1/2, 1)), sin and cos by turns (W = 25, two tables of 2^24 keys) and
 * the four 16-bit instructions on all 2^16 inputs. */
#include "capture_file.h"
#include "mufu.h"
#include "mufu_model.h"
#include "outfile.h"

#include <stdlib.h>
#include <string.h>

/* The table of insn, kind and param in c, or NULL. */
static const struct ub_capture_table *find(const struct ub_capture *c, int insn,
					   int kind, uint64_t param, uint32_t count)
{
	for (int k = 0; k < c->ntables; k++) {
		const struct ub_capture_table *t = &c->tables[k];
		if ((int)t->insn == insn && (int)t->kind == kind && t->param == param &&
		    t->count == count)
			return t;
	}
	return NULL;
}

/* Fills T (n entries) for table id from c; the name of a missing table
 * in *missing. */
static int assemble(const struct ub_capture *c, int id, uint32_t *T, const char **missing)
{
	static const struct { int insn, kind; uint64_t param; int scale; } src[UB_NMT][2] = {
		[UB_MT_RCP] = {{UB_AI_RCP_FTZ, UB_SWEEP_MANTISSA, 127, 0}},
		[UB_MT_RSQ0] = {{UB_AI_RSQRT_FTZ, UB_SWEEP_MANTISSA, 127, 0}},
		[UB_MT_RSQ1] = {{UB_AI_RSQRT_FTZ, UB_SWEEP_MANTISSA, 128, 0}},
		[UB_MT_SQRT0] = {{UB_AI_SQRT_FTZ, UB_SWEEP_MANTISSA, 127, 0}},
		[UB_MT_SQRT1] = {{UB_AI_SQRT_FTZ, UB_SWEEP_MANTISSA, 128, 0}},
		/* ex2's T[0][f] = out(1 + f 2^-23) / 2, T[1][f] = 2 out(-(1 + f 2^-23)) */
		[UB_MT_EX2] = {{UB_AI_EX2_FTZ, UB_SWEEP_MANTISSA, 127, -1},
			       {UB_AI_EX2_FTZ, UB_SWEEP_MANTISSA, 256 | 127, 1}},
		[UB_MT_LG2_0] = {{UB_AI_LG2_FTZ, UB_SWEEP_MANTISSA, 127, 0}},
		[UB_MT_LG2_M1] = {{UB_AI_LG2_FTZ, UB_SWEEP_MANTISSA, 126, 0}},
		[UB_MT_SIN] = {{UB_AI_SIN_FTZ, UB_SWEEP_TURNS, 0, 0},
			       {UB_AI_SIN_FTZ, UB_SWEEP_TURNS, 1u << 24, 0}},
		[UB_MT_COS] = {{UB_AI_COS_FTZ, UB_SWEEP_TURNS, 0, 0},
			       {UB_AI_COS_FTZ, UB_SWEEP_TURNS, 1u << 24, 0}},
		[UB_MT_EX2_F16] = {{UB_AI_EX2_F16, UB_SWEEP_ALL16, 0, 0}},
		[UB_MT_EX2_BF16] = {{UB_AI_EX2_BF16, UB_SWEEP_ALL16, 0, 0}},
		[UB_MT_TANH_F16] = {{UB_AI_TANH_F16, UB_SWEEP_ALL16, 0, 0}},
		[UB_MT_TANH_BF16] = {{UB_AI_TANH_BF16, UB_SWEEP_ALL16, 0, 0}},
	};
	int parts = src[id][1].insn || src[id][1].param ? 2 : 1;
	uint32_t each = ub_mufu_sizes[id] / (uint32_t)parts;
	for (int p = 0; p < parts; p++) {
		const struct ub_capture_table *t = find(c, src[id][p].insn, src[id][p].kind,
							src[id][p].param, each);
		if (!t) {
			*missing = ub_approx[src[id][p].insn].ptx;
			return -1;
		}
		for (uint32_t i = 0; i < each; i++)
			T[(size_t)p * each + i] = src[id][p].scale
				? ub_mufu_scale(t->out[i], src[id][p].scale) : t->out[i];
	}
	return 0;
}

static void put(FILE *f, uint64_t v, int n)
{
	unsigned char b[8];
	ub_le_set(b, v, n);
	fwrite(b, 1, (size_t)n, f);
}

int ub_mufu_build(const char *capture, const char *out, struct ub_error *err)
{
	struct ub_capture c;
	struct ub_mufu_compact cp[UB_NMT] = {{0}};
	uint64_t hash[UB_NMT];
	int s = ub_capture_read(capture, &c, err);
	for (int id = 0; !s && id < UB_NMT; id++) {
		uint32_t *T = malloc((size_t)ub_mufu_sizes[id] * 4);
		const char *missing = "";
		if (!T || assemble(&c, id, T, &missing) || ub_mufu_compact(id, T, ub_mufu_sizes[id], &cp[id]))
			s = ub_fail(err, UB_USAGE, "%s: no table for %s (%s)", capture,
				    ub_mufu_names[id], missing[0] ? missing : "out of memory");
		else
			hash[id] = ub_capture_hash(T, ub_mufu_sizes[id]);
		free(T);
	}
	ub_capture_free(&c);
	struct ub_outfile of;
	if (!s)
		s = ub_outfile_open(&of, out, err);
	if (!s) {
		uint64_t off = 16 + (uint64_t)UB_NMT * 72;
		fwrite("UBMUFUT4", 1, 8, of.f);
		put(of.f, UB_NMT, 4);
		put(of.f, 0, 4);
		for (int id = 0; id < UB_NMT; id++) {
			char name[16] = {0};
			uint64_t na = ub_mufu_sizes[id] / 64 + 2, oa = off, orr = oa + 4 * na,
				 oe = (orr + ub_mufu_sizes[id] + 7) / 8 * 8,
				 oq = oe + 8 * (uint64_t)cp[id].nesc,
				 os = oq + (ub_mufu_sizes[id] / 4 + 7) / 8 * 8;
			snprintf(name, sizeof name, "%s", ub_mufu_names[id]);
			fwrite(name, 1, 16, of.f);
			put(of.f, ub_mufu_sizes[id], 4);
			put(of.f, cp[id].nesc, 4);
			put(of.f, oa, 8);
			put(of.f, orr, 8);
			put(of.f, oe, 8);
			put(of.f, cp[id].quick ? oq : 0, 8);
			put(of.f, cp[id].sure ? os : 0, 8);
			put(of.f, hash[id], 8);
			off = cp[id].quick ? os + UB_MUFU_SURE_BYTES(ub_mufu_sizes[id]) : oq;
		}
		for (int id = 0; id < UB_NMT; id++) {
			uint64_t na = ub_mufu_sizes[id] / 64 + 2;
			for (uint64_t j = 0; j < na; j++)
				put(of.f, (uint32_t)cp[id].anchor[j], 4);
			fwrite(cp[id].res, 1, ub_mufu_sizes[id], of.f);
			for (uint64_t pad = (4 * na + ub_mufu_sizes[id]) % 8; pad && pad < 8; pad++)
				fputc(0, of.f);
			for (uint64_t e = 0; e < 2 * (uint64_t)cp[id].nesc; e++)
				put(of.f, cp[id].esc[e], 4);
			if (cp[id].quick) {
				fwrite(cp[id].quick, 1, ub_mufu_sizes[id] / 4, of.f);
				for (uint64_t pad = ub_mufu_sizes[id] / 4 % 8; pad && pad < 8; pad++)
					fputc(0, of.f);
				for (uint64_t j = 0; j < 2 * (ub_mufu_sizes[id] >> UB_MUFU_SURE_SHIFT); j++)
					put(of.f, cp[id].sure[j], 2);
			}
		}
		s = ub_outfile_commit(&of, err);
	}
	for (int id = 0; id < UB_NMT; id++) {
		free(cp[id].anchor);
		free(cp[id].res);
		free(cp[id].esc);
		free(cp[id].quick);
		free(cp[id].sure);
	}
	return s;
}

/* mufu-pack.c — captures/mufu-sm90.ubx from what scripts/mufu-probe.cu
 * wrote on the GPU: the tables the sim's measured models need
 * (src/exec/mufu.h), as a capture-approx file (docs/approx-capture.md).
 *
 *   mufu-pack OUT INFO DIR...
 *
 * DIR: mufu-probe output folders (mufu-tables.bin, and mufu-half.bin where
 * the 16-bit tables were taken), read in order; INFO the file's info
 * lines.  Build from the source tree after `make`:
 *   cc -O2 -Isrc/exec -Isrc/util -Isrc/report -I. -o mufu-pack \
 *      scripts/mufu-pack.c libub.a -lmpfr -lgmp -lm -lpthread -ldl
 * The probe's tables are by structure key; this writes them as the
 * outputs at the inputs a capture names: ex2's T[0][f] as the outputs
 * over [1, 2) (twice T[0][f], by the structure the probe checked on every
 * input), T[1][f] over -[1, 2) (half T[1][f]); sin and cos as turns
 * tables, keys no input reaches holding the predictor's value. */
#include "capture_file.h"
#include "mufu_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct ub_capture cap;

static int ord(uint32_t u) { return u < 0x80000000u ? (int)u : -1 - (int)(u & 0x7fffffffu); }
static uint32_t unord(long long o) { return o >= 0 ? (uint32_t)o : (uint32_t)((-1 - o) | 0x80000000u); }

static void add(int insn, int kind, int bits, uint64_t param, uint32_t n, const uint32_t *out)
{
	struct ub_capture_table t = {.insn = (enum ub_approx_insn)insn,
		.kind = (enum ub_capture_sweep)kind, .bits = bits, .param = param, .count = n};
	struct ub_error err;
	t.in = malloc((size_t)n * 4);
	t.out = malloc((size_t)n * 4);
	ub_sweep_inputs(t.kind, bits, param, n, t.in);
	memcpy(t.out, out, (size_t)n * 4);
	for (uint32_t i = 0; kind == UB_SWEEP_TURNS && i < n; i++)
		if (t.out[i] == UB_MUFU_EMPTY)
			t.out[i] = ub_capture_predict(&t, i, t.in[i]);
	if (ub_capture_add(&cap, &t, &err)) {
		fprintf(stderr, "mufu-pack: %s\n", err.msg);
		exit(1);
	}
}

/* One table of a probe's mufu-tables.bin, decoded (its hash checked). */
static uint32_t *probe_table(const char *dir, const char *name, const char *model, uint32_t *n)
{
	char path[4096], nm[64], md[64];
	uint32_t *found = NULL, h[5];
	uint64_t fnv;
	snprintf(path, sizeof path, "%s/mufu-tables.bin", dir);
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	if (fread(nm, 1, 8, f) != 8) {
		fclose(f);
		return NULL;
	}
	while (!found && fread(nm, 1, 64, f) == 64 && fread(md, 1, 64, f) == 64 &&
	       fread(h, 4, 5, f) == 5 && fread(&fnv, 8, 1, f) == 1) {
		signed char *d = malloc(h[3]);
		uint32_t *esc = malloc(4 * (size_t)h[4] + 4), *T = malloc(4 * (size_t)h[3]), k = 0;
		int ok = d && esc && T && fread(d, 1, h[3], f) == h[3] &&
			 fread(esc, 4, h[4], f) == h[4];
		int want = ok && !strcmp(nm, name) && !strcmp(md, model);
		/* FNV-1a; the probe of 2026-12-04 started from 1469598103934665603
		 * (the standard basis without its last digit): both are taken */
		uint64_t hh = UINT64_C(0xcbf29ce484222325), ho = UINT64_C(1469598103934665603);
		for (uint32_t i = 0; want && i < h[3]; i++) {
			if (d[i] == -128) {
				T[i] = esc[k++];
			} else {
				double x = h[1] == 0 ? (double)ub_mufu_f32(h[2] << 23 | i)
					 : h[1] == 1 ? (double)i / (double)(1ull << h[2])
					 : h[1] == 3 ? -(double)i / (double)(1ull << h[2])
					 : (double)ub_mufu_f32(i << h[2]);
				T[i] = unord((long long)ord(ub_approx_predict_at((enum ub_approx_fn)h[0], x)) + d[i]);
			}
			for (int b = 0; b < 4; b++) {
				hh = (hh ^ (T[i] >> (8 * b) & 0xff)) * UINT64_C(0x100000001b3);
				ho = (ho ^ (T[i] >> (8 * b) & 0xff)) * UINT64_C(0x100000001b3);
			}
		}
		if (want && (hh == fnv || ho == fnv)) {
			found = T;
			*n = h[3];
		} else {
			free(T);
		}
		free(d);
		free(esc);
		if (!ok || (want && !found))
			break;
	}
	fclose(f);
	return found;
}

static uint32_t *need(int ndirs, char **dirs, const char *name, const char *model, uint32_t n)
{
	uint32_t got = 0, *T = NULL;
	for (int i = 0; !T && i < ndirs; i++)
		T = probe_table(dirs[i], name, model, &got);
	if (!T || got != n) {
		fprintf(stderr, "mufu-pack: no table %s %s\n", name, model);
		exit(1);
	}
	return T;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: mufu-pack OUT INFO DIR...\n");
		return 2;
	}
	char **dirs = argv + 3;
	int nd = argc - 3;
	const uint32_t M = 1u << 23;
	snprintf(cap.info, sizeof cap.info, "%s", argv[2]);
	add(UB_AI_RCP_FTZ, UB_SWEEP_MANTISSA, 23, 127, M, need(nd, dirs, "rcp.approx.ftz.f32", "mantissas e=0", M));
	add(UB_AI_RSQRT_FTZ, UB_SWEEP_MANTISSA, 23, 127, M, need(nd, dirs, "rsqrt.approx.ftz.f32", "mantissas e=0", M));
	add(UB_AI_RSQRT_FTZ, UB_SWEEP_MANTISSA, 23, 128, M, need(nd, dirs, "rsqrt.approx.ftz.f32", "mantissas e=1", M));
	add(UB_AI_SQRT_FTZ, UB_SWEEP_MANTISSA, 23, 127, M, need(nd, dirs, "sqrt.approx.ftz.f32", "mantissas e=0", M));
	add(UB_AI_SQRT_FTZ, UB_SWEEP_MANTISSA, 23, 128, M, need(nd, dirs, "sqrt.approx.ftz.f32", "mantissas e=1", M));
	uint32_t *p = need(nd, dirs, "ex2.approx.ftz.f32", "signed F=23 v=trunc", M);
	uint32_t *q = need(nd, dirs, "ex2.approx.ftz.f32", "negative half", M);
	for (uint32_t i = 0; i < M; i++) {
		p[i] = ub_mufu_scale(p[i], 1);
		q[i] = ub_mufu_scale(q[i], -1);
	}
	add(UB_AI_EX2_FTZ, UB_SWEEP_MANTISSA, 23, 127, M, p);
	add(UB_AI_EX2_FTZ, UB_SWEEP_MANTISSA, 23, 256 | 127, M, q);
	add(UB_AI_LG2_FTZ, UB_SWEEP_MANTISSA, 23, 127, M, need(nd, dirs, "lg2.approx.ftz.f32", "mantissas e=0", M));
	add(UB_AI_LG2_FTZ, UB_SWEEP_MANTISSA, 23, 126, M, need(nd, dirs, "lg2.approx.ftz.f32", "mantissas e=-1", M));
	const uint32_t W = 1u << 25;
	uint32_t *s = need(nd, dirs, "sin.approx.ftz.f32", "turns W=25 q=trunc sym", W);
	uint32_t *c = need(nd, dirs, "cos.approx.ftz.f32", "turns W=25 q=trunc sym", W);
	add(UB_AI_SIN_FTZ, UB_SWEEP_TURNS, 25, 0, W / 2, s);
	add(UB_AI_SIN_FTZ, UB_SWEEP_TURNS, 25, W / 2, W / 2, s + W / 2);
	add(UB_AI_COS_FTZ, UB_SWEEP_TURNS, 25, 0, W / 2, c);
	add(UB_AI_COS_FTZ, UB_SWEEP_TURNS, 25, W / 2, W / 2, c + W / 2);
	const char *h16[4] = {"ex2.approx.f16", "ex2.approx.ftz.bf16", "tanh.approx.f16", "tanh.approx.bf16"};
	const int i16[4] = {UB_AI_EX2_F16, UB_AI_EX2_BF16, UB_AI_TANH_F16, UB_AI_TANH_BF16};
	static uint32_t T[65536];
	static unsigned short v[65536];
	for (int k = 0; k < 4; k++) {
		int found = 0;
		for (int d = 0; !found && d < nd; d++) {
			char path[4096], nm[32];
			snprintf(path, sizeof path, "%s/mufu-half.bin", dirs[d]);
			FILE *f = fopen(path, "rb");
			while (f && !found && fread(nm, 1, 32, f) == 32 && fread(v, 2, 65536, f) == 65536)
				if (!strcmp(nm, h16[k])) {
					for (int i = 0; i < 65536; i++)
						T[i] = v[i];
					found = 1;
				}
			if (f)
				fclose(f);
		}
		if (!found) {
			fprintf(stderr, "mufu-pack: no table %s\n", h16[k]);
			return 1;
		}
		add(i16[k], UB_SWEEP_ALL16, 0, 0, 65536, T);
	}
	FILE *o = fopen(argv[1], "wb");
	struct ub_error err;
	if (!o || ub_capture_write(o, &cap, &err) || fclose(o)) {
		fprintf(stderr, "mufu-pack: %s: cannot write\n", argv[1]);
		return 1;
	}
	return 0;
}

/* refcost.c — the reference's cost per element and its undecided share,
 * for each op of an FPCore file: N inputs per op drawn with a fixed seed,
 * either uniformly over the f32 encodings ("enc", as --sample encoding
 * draws a core without :pre) or uniformly in value over [-1, 1] ("unit"),
 * each evaluated by ub_ref_eval (the MPFR path, no fast path) at the
 * reference's default budget.  Prints per op: the CPU microseconds per
 * element (mean and the slowest element), the undecided elements and
 * their share, and (where the tree has them) their classes.  It uses only the interface the reference had before its
 * time budget, so that bench/reference.sh can build it against an older
 * tree and compare the two in one run.
 * Usage: refcost FILE.fpcore N enc|unit */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog.h"
#include "reference.h"

static double cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t next(uint64_t *s) /* xorshift64* */
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * UINT64_C(0x2545F4914F6CDD1D);
}

static uint64_t draw(uint64_t *s, int unit)
{
	if (!unit)
		return next(s) >> 32;
	float v = (float)((double)(next(s) >> 11) * 0x1p-52 - 1.0); /* [-1, 1) */
	uint32_t b;
	memcpy(&b, &v, sizeof b);
	return b;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = malloc(1 << 20);
	size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
	fclose(f);
	if (buf)
		buf[n] = '\0';
	return buf;
}

int main(int argc, char **argv)
{
	struct ub_catalog cat;
	struct ub_error err = {""};
	char *text = argc == 4 ? slurp(argv[1]) : NULL;
	long n = argc == 4 ? atol(argv[2]) : 0;
	int unit = argc == 4 && !strcmp(argv[3], "unit");
	if (!text || n <= 0 || (!unit && strcmp(argv[3], "enc"))) {
		fprintf(stderr, "usage: refcost FILE.fpcore N enc|unit\n");
		return 2;
	}
	if (ub_catalog_parse(text, argv[1], &cat, &err)) {
		fprintf(stderr, "refcost: %s\n", err.msg);
		return 2;
	}
	for (int k = 0; k < cat.nops; k++) {
		const struct ub_op *op = &cat.ops[k];
		uint64_t seed = UINT64_C(0x9E3779B97F4A7C15), in[16], cr;
		long und = 0;
#ifdef UB_UNDECIDED_CLASSES
		long why[UB_UND_N] = {0};
#endif
		double t0 = cpu(), worst = 0;
		if (op->ninputs > 16)
			continue;
		for (long i = 0; i < n; i++) {
			struct ub_exact x;
			for (int j = 0; j < op->ninputs; j++)
				in[j] = draw(&seed, unit);
			double e0 = cpu();
			int st = ub_ref_eval(op->math, UB_F32, in, op->ninputs, &cr, &x, &err);
			double e = cpu() - e0;
			worst = e > worst ? e : worst;
			und += st == UB_REF_UNDECIDED;
#ifdef UB_UNDECIDED_CLASSES
			if (st == UB_REF_UNDECIDED)
				why[ub_exact_why(&x)]++;
#endif
		}
		double t = cpu() - t0;
		printf("%-44s %6ld elements %12.1f us/element (slowest %10.1f us) "
		       "undecided %5ld (%.2f%%)", op->name, n, 1e6 * t / (double)n,
		       1e6 * worst, und, 100.0 * (double)und / (double)n);
#ifdef UB_UNDECIDED_CLASSES
		for (int w = 0; w < UB_UND_N; w++)
			if (why[w])
				printf(" %s %ld", ub_undecided_names[w], why[w]);
#endif
		putchar('\n');
	}
	ub_catalog_free(&cat);
	return 0;
}

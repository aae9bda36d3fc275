/* torchplan_run.c — runs one torch plan of src/torchplan on encodings
 * read from stdin, for tests/torchplan_twin.py, which compares them bit
 * for bit with its own implementation of the same CUDA order.
 *
 * Usage: torchplan_run OP DTYPE ROWS COLS [EPS] < hex words
 *   OP: softmax, log_softmax, layer_norm (no affine), layer_norm_wb
 *   (weight and bias), sum, xent_none, xent_mean.
 * Input: ROWS*COLS encodings in hex; layer_norm_wb then COLS weights and
 * COLS biases; xent_* then ROWS targets (decimal).
 * Output: the status name, then one hex encoding per line: the outputs,
 * then (layer_norm*) the means and the rstds. */
#include "torch_reduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t *read_words(size_t n, int hex)
{
	uint64_t *v = calloc(n ? n : 1, sizeof *v);
	for (size_t i = 0; v && i < n; i++) {
		unsigned long long w;
		long long s;
		if (hex ? scanf("%llx", &w) != 1 : scanf("%lld", &s) != 1) {
			fprintf(stderr, "torchplan_run: short input at word %zu\n", i);
			exit(2);
		}
		v[i] = hex ? (uint64_t)w : (uint64_t)s;
	}
	return v;
}

static void put(const uint64_t *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%llx\n", (unsigned long long)v[i]);
}

int main(int argc, char **argv)
{
	if (argc < 5) {
		fprintf(stderr, "usage: torchplan_run OP DTYPE ROWS COLS [EPS]\n");
		return 2;
	}
	const char *op = argv[1];
	int dt = ub_dtype_find(argv[2]);
	size_t rows = strtoul(argv[3], NULL, 10), cols = strtoul(argv[4], NULL, 10);
	double eps = argc > 5 ? strtod(argv[5], NULL) : 1e-5;
	if (dt < 0) {
		fprintf(stderr, "torchplan_run: unknown dtype %s\n", argv[2]);
		return 2;
	}
	struct tp_device dev;
	tp_device_default(&dev);
	struct tp_tensor x = { (enum ub_dtype)dt, rows, cols, read_words(rows * cols, 1) };
	uint64_t *out = calloc(rows * cols + 1, sizeof *out);
	uint64_t *mean = calloc(rows, sizeof *mean), *rstd = calloc(rows, sizeof *rstd);
	struct tp_why why = { "" };
	enum tp_status st;
	size_t nout = rows * cols;
	if (!strcmp(op, "softmax") || !strcmp(op, "log_softmax")) {
		st = tp_softmax(&dev, NULL, &x, op[0] == 'l', out, &why);
	} else if (!strncmp(op, "layer_norm", 10)) {
		int wb = !strcmp(op, "layer_norm_wb");
		uint64_t *w = wb ? read_words(cols, 1) : NULL, *b = wb ? read_words(cols, 1) : NULL;
		enum ub_dtype sdt;
		st = tp_layer_norm_fwd(&dev, NULL, &x, w, b, eps, out, mean, rstd, &sdt, &why);
		free(w);
		free(b);
	} else if (!strcmp(op, "sum")) {
		st = tp_sum_lastdim(&dev, &x, out, &why);
		nout = rows;
	} else if (!strncmp(op, "xent_", 5)) {
		int m = !strcmp(op, "xent_mean");
		uint64_t *t = read_words(rows, 0);
		st = tp_cross_entropy(&dev, NULL, &x, (const int64_t *)t, m, out, &why);
		nout = m ? 1 : rows;
		free(t);
	} else {
		fprintf(stderr, "torchplan_run: unknown op %s\n", op);
		return 2;
	}
	printf("%s%s%s\n", tp_status_name(st), st == TP_NA ? ": " : "", st == TP_NA ? why.msg : "");
	if (st != TP_NA) {
		put(out, nout);
		if (!strncmp(op, "layer_norm", 10)) {
			put(mean, rows);
			put(rstd, rows);
		}
	}
	free((void *)x.bits);
	free(out);
	free(mean);
	free(rstd);
	return 0;
}

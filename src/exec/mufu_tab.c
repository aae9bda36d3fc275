/* mufu_tab.c — `mufu-tab CAPTURE OUT`: the compact table file of the
 * measured models (mufu.h) from a capture; `make` runs it on
 * captures/mufu-sm90.ubx.
 *
 * `mufu-tab --eval` evaluates the measured models as the sim does, for
 * tests that emulate a kernel on the host (tests/block_check.py): each
 * line of stdin, `FN FTZ A [B]` (FN one of rcp rsqrt sqrt ex2 lg2 sin cos
 * div.approx div.full, FTZ 0 or 1, A and B f32 encodings in hex), gives
 * one line of stdout, the result's encoding in hex. */
#include "mufu.h"

#include <stdio.h>
#include <string.h>

static int eval_lines(void)
{
	static const char *names[] = {
		[UB_MF_RCP] = "rcp", [UB_MF_RSQRT] = "rsqrt", [UB_MF_SQRT] = "sqrt",
		[UB_MF_EX2] = "ex2", [UB_MF_LG2] = "lg2", [UB_MF_SIN] = "sin",
		[UB_MF_COS] = "cos", [UB_MF_DIV_APPROX] = "div.approx",
		[UB_MF_DIV_FULL] = "div.full",
	};
	char line[256], fn[32];
	unsigned ftz, a, b;
	long no = 0;
	if (!ub_mufu_ready()) {
		fprintf(stderr, "mufu-tab: no measured tables: %s\n", ub_mufu_where());
		return 1;
	}
	while (fgets(line, sizeof line, stdin)) {
		no++;
		b = 0;
		int k = sscanf(line, "%31s %u %x %x", fn, &ftz, &a, &b), f = -1;
		for (int i = 0; k >= 3 && i < (int)(sizeof names / sizeof names[0]); i++)
			if (!strcmp(fn, names[i]))
				f = i;
		if (f < 0 || ftz > 1 || (k == 4) != (f == UB_MF_DIV_APPROX || f == UB_MF_DIV_FULL)) {
			fprintf(stderr, "mufu-tab: stdin:%ld: not 'FN FTZ A [B]'\n", no);
			return 2;
		}
		printf("%08x\n", ub_mufu_eval(f, a, b, (int)ftz, 0));
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ub_error err;
	if (argc == 2 && !strcmp(argv[1], "--eval"))
		return eval_lines();
	if (argc != 3) {
		fprintf(stderr, "usage: mufu-tab CAPTURE OUT\n       mufu-tab --eval\n");
		return 2;
	}
	if (ub_mufu_build(argv[1], argv[2], &err)) {
		fprintf(stderr, "mufu-tab: %s\n", err.msg);
		return 1;
	}
	return 0;
}

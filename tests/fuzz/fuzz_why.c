/* fuzz_why.c — what `ulpbench why` reads and rewrites (src/why/): PTX
 * text with line information (.file, .loc, instructions and their
 * operands; the alignment of two texts; the candidates and every variant
 * of them, parsed again by the interpreter's parser), and lines of C or
 * Python source (the operands of * and /, calls renamed; each site applied
 * alone and all together).  The input is the PTX, then a line "====",
 * then the source. */
#include "fuzz.h"
#include "ptx.h"
#include "why_cand.h"
#include "why_src.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINES 64

static void ptx_part(const char *ptx, const char *other)
{
	struct ub_ptxtext t, u;
	struct ub_error err;
	struct ub_pinsn in;
	struct ub_why_cand c[UB_WHY_MAX_CANDS];
	unsigned char on[UB_WHY_MAX_CANDS];
	uint32_t fused[4] = { 1, 2, 3, 4 };
	char buf[256], *v = NULL;
	if (ub_ptxtext_read(ptx, &t, &err))
		return;
	for (uint32_t k = 1; k <= t.nlines; k++)
		if (!ub_pinsn_line(&t, k, &in))
			ub_loc_format(&t, &t.lines[k].loc, k & 1, buf, sizeof buf);
	ub_ptxtext_align(&t, ptx);
	if (!ub_ptxtext_read(other, &u, &err)) {
		ub_ptxtext_align(&u, ptx);
		unsigned char *verdict = calloc(t.nlines + 1u, 1);
		for (uint32_t k = 0; verdict && k <= t.nlines; k++)
			verdict[k] = (unsigned char)(k % 3);
		int n = ub_why_candidates(&t, &u, verdict, fused, 4, c, UB_WHY_MAX_CANDS);
		free(verdict);
		ub_ptxtext_free(&u);
		memset(on, 1, sizeof on);
		if (!ub_why_variant(&t, c, on, n, &v, &err)) {
			struct ptx_module *m = NULL;
			if (!ptx_parse(v, &m, &err))
				ptx_free(m);
		}
		free(v);
	}
	ub_ptxtext_free(&t);
}

static void src_part(const char *src)
{
	static const struct { int type; const char *op; } forms[] = {
		{ UB_SRC_BIN, "*" }, { UB_SRC_BIN, "/" }, { UB_SRC_CALL, "UB_MUL" },
		{ UB_SRC_CALL, "__expf" } };
	struct ub_src_site all[16];
	int nall = 0;
	for (unsigned line = 1; line <= MAX_LINES; line++)
		for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
			int n = ub_src_count(src, line, forms[f].type, forms[f].op);
			for (int o = 0; o < n && o < 4; o++) {
				struct ub_src_site s = { .line = line, .type = forms[f].type, .ord = o };
				char *out = NULL;
				snprintf(s.op, sizeof s.op, "%s", forms[f].op);
				snprintf(s.to, sizeof s.to, "__fmul_rn");
				if (!ub_src_apply(src, &s, 1, &out))
					free(out);
				if (nall < 16)
					all[nall++] = s;
			}
		}
	char *out = NULL;
	if (!ub_src_apply(src, all, nall, &out))
		free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	if (!text)
		return 0;
	char *sep = strstr(text, "\n====\n"), *src = sep ? sep + 6 : text;
	if (sep)
		*sep = '\0';
	ptx_part(text, src);
	src_part(src);
	free(text);
	return 0;
}

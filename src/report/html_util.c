/* html_util.c — small pieces every part of the HTML page writes (html.h):
 * colours, escaped text, encodings with their values, numbers. */
#include "html.h"

#include <math.h>

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#17becf"
};

const char *ub_html_color(int i)
{
	return palette[i % (int)(sizeof palette / sizeof palette[0])];
}

void ub_html_text(FILE *f, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
}

/* Enough significant digits to tell neighbours apart:
 * ceil(p log10 2) + 1. */
void ub_html_bits(FILE *f, enum ub_dtype dt, uint64_t b)
{
	int digits = (int)ceil(ub_dtypes[dt].prec * 0.30102999566398120) + 1;
	fprintf(f, "<code>0x%0*llx</code> <small>%.*g</small>", ub_dtypes[dt].bits / 4,
		(unsigned long long)b, digits, ub_bits_to_double(dt, b));
}

void ub_html_num(FILE *f, double v)
{
	fprintf(f, "%.4g", v);
}

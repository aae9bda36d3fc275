/* html_why.c — the page's "why" panel of a section (html.h; a run with
 * --why, docs/why.md): for each mode that differs, the instructions and
 * source lines that explain it, the fix as changed lines, the fixed
 * kernel's figures, and the instruction that loses the most accuracy.
 * One block per mode (anchor why-DTYPE-MODE), after the section's
 * figures; nothing when the run had no --why. */
#include "html.h"
#include "why.h"

#include <math.h>
#include <string.h>

static void text(FILE *f, const char *s)
{
	ub_html_text(f, s);
}

/* The chosen set for the torch plan (torch) or the correctly rounded
 * results. */
static void set(FILE *f, const struct ub_why_row *w, int torch)
{
	size_t n = torch ? w->torch_n : w->cr_n, left = torch ? w->torch_left : w->cr_left;
	char buf[1200];
	if (!n)
		return;
	fprintf(f, "<p>%s: %zu of %zu differences go away", torch ? "the torch plan"
		: "the correctly rounded result", n - left, n);
	int any = 0;
	for (int k = 0; k < w->nitems; k++) {
		struct ub_why_item g, *it = &g;
		if (!ub_why_group(w, k, &g) || (torch ? !it->in_torch : !it->in_cr))
			continue;
		fprintf(f, "%s<br>&nbsp;&nbsp;", any++ ? "," : " when");
		snprintf(buf, sizeof buf, "%s%s%s %s", it->c.kind == UB_EDIT_NOFTZ
			 ? "flush-to-zero" : it->c.mn, it->place[0] ? " at " : "", it->place,
			 ub_edit_what[it->c.kind]);
		text(f, buf);
		if (it->code[0]) {
			fprintf(f, " <code>");
			text(f, it->code);
			fprintf(f, "</code>");
		}
	}
	if (left && left <= n && w->noieee[0]) {
		snprintf(buf, sizeof buf, "%zu left beside %s (no IEEE form in PTX)", left,
			 w->noieee);
		fprintf(f, "%s<br>&nbsp;&nbsp;", any ? ";" : ": none, alone or together;");
		text(f, buf);
		fprintf(f, "</p>\n");
		return;
	}
	fprintf(f, "%s</p>\n", any ? "" : ": none, alone or together");
}

static void fix(FILE *f, const struct ub_why_row *w)
{
	if (!w->nedits && !w->fix_flags[0]) {
		if (w->fix_na[0]) {
			fprintf(f, "<p>fix: ");
			text(f, w->fix_na);
			fprintf(f, "</p>\n");
		}
		return;
	}
	fprintf(f, "<p>fix (a copy of the source, compiled in this mode and run on every "
		   "element):</p>\n<pre>");
	for (int k = 0; k < w->nedits; k++) {
		const struct ub_why_edit *e = &w->edit[k];
		text(f, e->place);
		fprintf(f, ": ");
		text(f, e->what);
		fprintf(f, "\n- ");
		text(f, e->before);
		fprintf(f, "\n+ ");
		text(f, e->after);
		fprintf(f, "\n");
	}
	if (w->fix_flags[0]) {
		fprintf(f, "options: ");
		text(f, w->fix_flags);
		fprintf(f, "\n");
	}
	fprintf(f, "</pre>\n");
	if (w->fixed.done)
		fprintf(f, "<p>the fixed kernel: torch_mismatch %zu, cr_mismatch %zu, "
			"max_ulp %.4g</p>\n", w->fixed.torch_mismatch, w->fixed.cr_mismatch,
			w->fixed.max_ulp);
}

static void blame(FILE *f, const struct ub_hsec *sec, const struct ub_why_blame *b)
{
	char buf[512];
	if (!b->done)
		return;
	fprintf(f, "<p>accuracy: ");
	snprintf(buf, sizeof buf, "the %s%s%s loses the most", b->mn, b->place[0] ? " at " : "",
		 b->place);
	text(f, buf);
	fprintf(f, " (at ");
	ub_format_inputs(sec->dt, sec->in_names, b->in, sec->nin, buf, sizeof buf);
	text(f, buf);
	if (isinf(b->local)) {
		fprintf(f, ": its result ");
		text(f, b->note);
	} else {
		fprintf(f, ": %.4g ulp of local error", b->local);
	}
	fprintf(f, ")");
	if (b->code[0]) {
		fprintf(f, " <code>");
		text(f, b->code);
		fprintf(f, "</code>");
	}
	fprintf(f, "</p>\n");
}

void ub_html_why(FILE *f, const struct ub_hsec *sec)
{
	int any = 0;
	for (int i = 0; i < sec->nrows; i++)
		any |= sec->rows[i]->why != NULL;
	if (!any)
		return;
	fprintf(f, "<h3>Why the modes differ</h3>\n<p class=\"note\">Each mode that differs, "
		   "run again with contractions split, approximate instructions in their IEEE "
		   "form and flush-to-zero removed, alone and together (docs/why.md).</p>\n");
	for (int i = 0; i < sec->nrows; i++) {
		const struct ub_row *r = sec->rows[i];
		const struct ub_why_row *w = r->why;
		if (!w)
			continue;
		fprintf(f, "<div class=\"why\" id=\"why-%s-", ub_dtypes[sec->dt].name);
		text(f, r->mode);
		fprintf(f, "\">\n<h4>mode ");
		text(f, r->mode);
		fprintf(f, ": %zu differ from the torch plan, %zu from the correctly rounded "
			"result</h4>\n", w->torch_n, w->cr_n);
		if (w->na[0]) {
			fprintf(f, "<p>");
			text(f, w->na);
			fprintf(f, "</p>\n</div>\n");
			continue;
		}
		set(f, w, 1);
		set(f, w, 0);
		fix(f, w);
		blame(f, sec, &w->blame);
		fprintf(f, "</div>\n");
	}
}

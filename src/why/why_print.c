/* why_print.c — what `ulpbench why` prints (the report of each row that
 * differs), and the short texts of the table's line, the CSV and JSON. */
#include "why.h"
#include "report.h"

#include <math.h>
#include <string.h>

/* "ptx:84", "ptx:?" when unknown */
static const char *ptx_at(uint32_t plain, char *buf, size_t len)
{
	if (plain)
		snprintf(buf, len, "ptx:%u", plain);
	else
		snprintf(buf, len, "ptx:?");
	return buf;
}

/* "ptx:84", "ptx:84,108,115" or "ptx:84,108,115,... (12 lines)" */
static const char *ptx_lines(const struct ub_why_item *it, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "ptx:");
	for (int k = 0; k < it->c.nlines && k < 6 && used < len; k++) {
		if (it->plain[k])
			used += (size_t)snprintf(buf + used, len - used, "%s%u", k ? "," : "",
						 it->plain[k]);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s?", k ? "," : "");
	}
	if (it->c.nlines > 6 && used < len)
		snprintf(buf + used, len - used, ",... (%d lines)", it->c.nlines);
	return buf;
}

/* "fma.rn.f32 at ptx:84 (atan_bwd.cu:22)", or "flush-to-zero"; several
 * instructions at one place: "5 fma.rn.f32 at ptx:84,108,..." */
static const char *insn(const struct ub_why_item *it, char *buf, size_t len)
{
	char at[96], many[16] = "";
	if (it->c.kind == UB_EDIT_NOFTZ)
		return snprintf(buf, len, "flush-to-zero (.ftz)"), buf;
	if (it->c.nlines > 1)
		snprintf(many, sizeof many, "%d ", it->c.nlines);
	snprintf(buf, len, "%s%s at %s%s%.150s%s", many, it->c.mn,
		 ptx_lines(it, at, sizeof at), it->place[0] ? " (" : "", it->place,
		 it->place[0] ? ")" : "");
	return buf;
}

/* Items j and k shown as one: the same kind and mnemonic at one source
 * place, chosen alike (the copies of an unrolled loop). */
static int alike(const struct ub_why_row *wr, int j, int k)
{
	const struct ub_why_item *a = &wr->item[j], *b = &wr->item[k];
	return a->c.kind == b->c.kind && !strcmp(a->c.mn, b->c.mn) && a->place[0] &&
	       !strcmp(a->place, b->place) && a->c.loc.col == b->c.loc.col &&
	       a->in_torch == b->in_torch && a->in_cr == b->in_cr;
}

int ub_why_group(const struct ub_why_row *wr, int k, struct ub_why_item *g)
{
	for (int j = 0; j < k; j++)
		if (alike(wr, j, k))
			return 0;
	*g = wr->item[k];
	for (int j = k + 1; j < wr->nitems; j++) {
		const struct ub_why_item *it = &wr->item[j];
		if (!alike(wr, j, k))
			continue;
		for (int l = 0; l < it->c.nlines && g->c.nlines < UB_WHY_MAX_LINES; l++) {
			g->c.line[g->c.nlines] = it->c.line[l];
			g->plain[g->c.nlines++] = it->plain[l];
		}
		g->torch_fixed += it->torch_fixed;
		g->torch_broken += it->torch_broken;
		g->cr_fixed += it->cr_fixed;
		g->cr_broken += it->cr_broken;
	}
	return 1;
}

const char *ub_why_set_text(const struct ub_why_row *wr, int torch, char *buf,
			    size_t len)
{
	size_t n = torch ? wr->torch_n : wr->cr_n, left = torch ? wr->torch_left : wr->cr_left;
	size_t used = (size_t)snprintf(buf, len, "%zu/%zu", n - (left < n ? left : n), n);
	for (int k = 0; k < wr->nitems && used < len; k++) {
		struct ub_why_item g, *it = &g;
		char s[320];
		if (!ub_why_group(wr, k, &g) || (torch ? !it->in_torch : !it->in_cr))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s %s", used > 12 ? " | " : ": ",
					 insn(it, s, sizeof s), ub_edit_names[it->c.kind]);
	}
	if (left && left <= n && wr->noieee[0] && used < len)
		snprintf(buf + used, len - used, "%s%zu left beside %s (no IEEE form in PTX)",
			 used > 12 ? " | " : ": ", left, wr->noieee);
	return buf;
}

const char *ub_why_fix_text(const struct ub_why_row *wr, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	for (int k = 0; k < wr->nedits && used < len; k++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s: %s", used ? " | " : "",
					 wr->edit[k].place, wr->edit[k].after);
	if (wr->fix_flags[0] && used < len)
		snprintf(buf + used, len - used, "%s%s", used ? " | " : "", wr->fix_flags);
	return buf;
}

const char *ub_why_blame_text(const struct ub_why_row *wr, char *buf, size_t len)
{
	const struct ub_why_blame *b = &wr->blame;
	char at[32];
	buf[0] = '\0';
	if (b->done && isinf(b->local))
		snprintf(buf, len, "%s %s%s%s %s", b->mn, ptx_at(b->plain, at, sizeof at),
			 b->place[0] ? " " : "", b->place, b->note);
	else if (b->done)
		snprintf(buf, len, "%s %s%s%s %.4g ulp%s%s", b->mn,
			 ptx_at(b->plain, at, sizeof at), b->place[0] ? " " : "",
			 b->place, b->local, b->note[0] ? " " : "", b->note);
	return buf;
}

const char *ub_why_line(const struct ub_why_row *wr, char *buf, size_t len)
{
	char set[1024], fix[1024];
	size_t used = 0;
	if (wr->na[0])
		return snprintf(buf, len, "why: %s", wr->na), buf;
	if (wr->torch_n)
		used += (size_t)snprintf(buf + used, len - used, "why: torch %s",
					 ub_why_set_text(wr, 1, set, sizeof set));
	if (wr->cr_n && used < len)
		used += (size_t)snprintf(buf + used, len - used, "%scr %s",
					 used ? "; " : "why: ",
					 ub_why_set_text(wr, 0, set, sizeof set));
	if (wr->fixed.done && used < len)
		snprintf(buf + used, len - used, "; fix %s -> torch_mismatch %zu, "
			 "cr_mismatch %zu", ub_why_fix_text(wr, fix, sizeof fix),
			 wr->fixed.torch_mismatch, wr->fixed.cr_mismatch);
	return buf;
}

static void print_item(FILE *f, const struct ub_why_item *it, int torch)
{
	char s[320];
	fprintf(f, "    %-9s %-46s %s", ub_edit_names[it->c.kind], insn(it, s, sizeof s),
		it->c.maybe_explicit ? "(maybe an explicit fma) " : "");
	if (torch)
		fprintf(f, "torch %zu fixed, %zu new; ", it->torch_fixed, it->torch_broken);
	fprintf(f, "cr %zu fixed, %zu new\n", it->cr_fixed, it->cr_broken);
	if (it->code[0])
		fprintf(f, "              %s\n", it->code);
}

static void print_set(FILE *f, const struct ub_why_row *wr, int torch)
{
	size_t n = torch ? wr->torch_n : wr->cr_n;
	size_t left = torch ? wr->torch_left : wr->cr_left;
	size_t left_all = torch ? wr->torch_left_all : wr->cr_left_all;
	const char *what = torch ? "the torch plan" : "the correctly rounded result";
	char s[320];
	int any = 0;
	for (int k = 0; k < wr->nitems; k++)
		any |= torch ? wr->item[k].in_torch : wr->item[k].in_cr;
	if (!n)
		return;
	if (!any) {
		fprintf(f, "  %s: none of the %zu differences goes away with any "
			"candidate%s\n", what, n, wr->nitems ? ", alone or together" : "");
		if (wr->noieee[0])
			fprintf(f, "    the kernel runs %s, which has no IEEE form in PTX (the "
				"fix tries the source change that avoids it)\n", wr->noieee);
		return;
	}
	fprintf(f, "  %s: %zu of %zu differences go away when\n", what, n - left, n);
	for (int k = 0; k < wr->nitems; k++) {
		struct ub_why_item g, *it = &g;
		if (ub_why_group(wr, k, &g) && (torch ? it->in_torch : it->in_cr))
			fprintf(f, "      %s%s %s %s\n", it->c.kind == UB_EDIT_NOFTZ ? ""
				: "the ", insn(it, s, sizeof s), it->c.nlines > 1 ? "are" : "is",
				ub_edit_what[it->c.kind]);
	}
	fprintf(f, "    (%s)\n", torch ? wr->search_torch : wr->search_cr);
	if (left && wr->noieee[0])
		fprintf(f, "    %zu remain%s: no candidate explains them; the kernel also runs "
			"%s, which has no IEEE form in PTX (the fix tries the source change "
			"that avoids it)\n", left, left == 1 ? "s" : "", wr->noieee);
	else if (left)
		fprintf(f, "    %zu remain%s: %s\n", left, left == 1 ? "s" : "",
			left_all < left ? "fewer with every candidate"
			: "no contraction or approximate instruction explains them");
}

static void print_figs(FILE *f, const char *lead, const struct ub_why_figs *g)
{
	fprintf(f, "%storch_mismatch %zu, cr_mismatch %zu, nan_mismatch %zu, "
		"max_ulp %.4g\n", lead, g->torch_mismatch, g->cr_mismatch,
		g->nan_mismatch, g->max_ulp);
}

static void print_fix(FILE *f, const struct ub_why_row *wr)
{
	if (!wr->nedits && !wr->fix_flags[0]) {
		if (wr->fix_na[0])
			fprintf(f, "  fix: %s\n", wr->fix_na);
		return;
	}
	fprintf(f, "  fix (applied to a copy of the source, compiled in this mode and run "
		"on every element):\n");
	for (int k = 0; k < wr->nedits; k++) {
		const struct ub_why_edit *e = &wr->edit[k];
		fprintf(f, "    %s: %s\n      - %s\n      + %s\n", e->place, e->what,
			e->before, e->after);
	}
	if (wr->fix_flags[0])
		fprintf(f, "    options: %s\n", wr->fix_flags);
	if (wr->fixed.done)
		print_figs(f, "    the fixed kernel: ", &wr->fixed);
	if (wr->fix_na[0])
		fprintf(f, "    %s\n", wr->fix_na);
	if (wr->fix_file[0])
		fprintf(f, "    saved as %s\n", wr->fix_file);
}

static void print_blame(FILE *f, const struct ub_result *res, const struct ub_row *r,
			const struct ub_why_blame *b)
{
	char in[512], at[32];
	if (!b->done && b->note[0])
		fprintf(f, "  accuracy: not traced (%s)\n", b->note);
	if (!b->done)
		return;
	ub_format_inputs(r->dt, r->in_names, b->in, r->nin, in, sizeof in);
	fprintf(f, "  accuracy: over the %zu elements farthest from the exact value, the "
		"%s at %s%s%s%s loses the most (the largest local error at %zu of them)\n",
		b->elems, b->mn, ptx_at(b->plain, at, sizeof at), b->place[0] ? " (" : "",
		b->place, b->place[0] ? ")" : "", b->top);
	if (isinf(b->local))
		fprintf(f, "    at %s: its result %s\n", in, b->note);
	else
		fprintf(f, "    at %s: %.4g ulp of local error (its result %.4g ulp from the "
			"exact value of the same subexpression)%s%s\n", in, b->local,
			b->result_err, b->note[0] ? "; " : "", b->note);
	if (b->code[0])
		fprintf(f, "              %s\n", b->code);
	(void)res;
}

static void print_row(FILE *f, const struct ub_result *res, const struct ub_why_row *wr)
{
	const struct ub_row *r = &res->rows[wr->row];
	fprintf(f, "\nwhy %s %s mode %s: %zu differ from the torch plan, %zu from the "
		"correctly rounded result\n", r->op, ub_dtypes[r->dt].name, r->mode,
		wr->torch_n, wr->cr_n);
	fprintf(f, "  kernel: %s\n", r->kernel);
	if (wr->note[0])
		fprintf(f, "  note: %s\n", wr->note);
	if (wr->na[0]) {
		fprintf(f, "  %s\n", wr->na);
		return;
	}
	fprintf(f, "  candidates, each alone over the elements that differ:%s\n",
		wr->nitems ? "" : " none (no contraction, approximate instruction or "
		"flush-to-zero in the PTX)");
	for (int k = 0; k < wr->nitems; k++) {
		struct ub_why_item g;
		if (ub_why_group(wr, k, &g))
			print_item(f, &g, wr->torch_n > 0);
	}
	print_set(f, wr, 1);
	if (wr->chosen.done)
		print_figs(f, "    so computed, on every element: ", &wr->chosen);
	print_set(f, wr, 0);
	print_fix(f, wr);
	print_blame(f, res, r, &wr->blame);
}

void ub_why_print(FILE *f, const struct ub_result *res, const struct ub_why *w)
{
	if (!w->nrows)
		fprintf(f, "\nwhy: every mode agrees with the torch plan and the correctly "
			"rounded result: nothing to explain\n");
	for (int k = 0; k < w->nrows; k++)
		print_row(f, res, &w->rows[k]);
}

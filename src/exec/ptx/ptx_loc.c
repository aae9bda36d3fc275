/* ptx_loc.c — source lines of instructions, for messages: the PTX
 * directives `.file N "path"[, time, size]` (module level) and `.loc N
 * LINE COL[, ...]` (in a body: the source line of the instructions that
 * follow), which nvcc writes with -lineinfo and Triton always.
 *
 * Each instruction keeps one word, f->loc[pc]: the .file number in the
 * top PTX_LOC_FILE_BITS bits and the line below (0: no line known); the
 * module keeps the file names by number.  A file number or line beyond
 * those widths, or a .loc naming a file never declared, leaves the
 * instructions without a line: a message then gives the PTX line only. */
#include "ptx_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_BITS (32 - PTX_LOC_FILE_BITS)

/* The decimal number of token t, or -1 when it is not one (or too big). */
static long number(const struct ptx_tok *t)
{
	long v = 0;
	if (t->kind != PTX_TK_WORD || !t->len || t->len > 9)
		return -1;
	for (uint32_t k = 0; k < t->len; k++) {
		if (t->s[k] < '0' || t->s[k] > '9')
			return -1;
		v = v * 10 + (t->s[k] - '0');
	}
	return v;
}

/* Skips the rest of the directive's line. */
static void to_line_end(struct ptx_pstate *st, uint32_t line)
{
	while (ptx_peek(st, 0)->kind != PTX_TK_END && ptx_peek(st, 0)->line == line)
		st->pos++;
}

int ptx_parse_file(struct ptx_pstate *st)
{
	const struct ptx_tok *d = ptx_peek(st, 0), *n = ptx_peek(st, 1),
			     *s = ptx_peek(st, 2);
	long k = number(n);
	struct ptx_module *m = st->m;
	to_line_end(st, d->line);
	if (k < 1 || k >= (1l << PTX_LOC_FILE_BITS) || s->kind != PTX_TK_STRING ||
	    n->line != d->line || s->line != d->line)
		return 0;   /* not one we can use: no lines from it */
	if (k >= m->nfiles) {
		char **f = realloc(m->files, (size_t)(k + 1) * sizeof *f);
		if (!f)
			return ptx_perr(st, d->line, "out of memory");
		memset(f + m->nfiles, 0, (size_t)(k + 1 - m->nfiles) * sizeof *f);
		m->files = f;
		m->nfiles = (int)k + 1;
	}
	free(m->files[k]);
	if (!(m->files[k] = ptx_dup_tok(s)))
		return ptx_perr(st, d->line, "out of memory");
	return 0;
}

void ptx_parse_loc(struct ptx_pstate *st)
{
	const struct ptx_tok *d = ptx_peek(st, 0), *n = ptx_peek(st, 1),
			     *l = ptx_peek(st, 2);
	long k = number(n), line = number(l);
	st->loc = 0;
	if (k >= 1 && k < (1l << PTX_LOC_FILE_BITS) && line > 0 &&
	    line < (1l << LINE_BITS) && n->line == d->line && l->line == d->line)
		st->loc = (uint32_t)k << LINE_BITS | (uint32_t)line;
	to_line_end(st, d->line);
}

const char *ptx_src_line(const struct ptx_func *f, uint32_t pc, char *buf,
			 size_t len)
{
	uint32_t v = f->loc && pc < f->ncode ? f->loc[pc] : 0;
	uint32_t k = v >> LINE_BITS, line = v & ((1u << LINE_BITS) - 1);
	if (!v || !f->files || (int)k >= f->nfiles || !f->files[k])
		return NULL;
	const char *name = strrchr(f->files[k], '/');
	snprintf(buf, len, "%s:%u", name ? name + 1 : f->files[k], line);
	return buf;
}

void ptx_share_files(struct ptx_module *m)
{
	for (int i = 0; i < m->nfuncs; i++) {
		m->funcs[i].files = m->files;
		m->funcs[i].nfiles = m->nfiles;
	}
}

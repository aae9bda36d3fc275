/* ptx_insn_mma.c — decodes the warp-level matrix instructions (ptx_mma.h):
 * ldmatrix, stmatrix and movmatrix (PTX ISA 9.0, 9.7.14.5.15-.17).  A
 * form the interpreter does not run (the sm_100a shapes, .b8 types) is an
 * error naming what, never a guess.  Each makes its function block level
 * (its lanes run together, ptx_block.c). */
#include "ptx_mma.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT(a) ((int)(sizeof(a) / sizeof *(a)))

static const char *const families[] = { "ldmatrix", "stmatrix", "movmatrix" };

int ptx_is_mma_insn(const struct ptx_tok *t)
{
	size_t n = 0;
	while (n < t->len && t->s[n] != '.')
		n++;
	for (int i = 0; i < COUNT(families); i++)
		if (strlen(families[i]) == n && !memcmp(families[i], t->s, n))
			return 1;
	return 0;
}

/* The mnemonic's parts: the first word, then the rest in order; what is
 * understood is taken out of `left` as it is recognised. */
struct mparts {
	char base[12];
	char part[12][24];
	int n, used[12];
};

static int split(const struct ptx_tok *t, struct mparts *p)
{
	char buf[200];
	if (t->len >= sizeof buf)
		return -1;
	memcpy(buf, t->s, t->len);
	buf[t->len] = 0;
	memset(p, 0, sizeof *p);
	char *save, *s = strtok_r(buf, ".", &save);
	if (!s || strlen(s) >= sizeof p->base)
		return -1;
	strcpy(p->base, s);
	while ((s = strtok_r(NULL, ".", &save))) {
		if (p->n == COUNT(p->part) || strlen(s) >= sizeof p->part[0])
			return -1;
		strcpy(p->part[p->n++], s);
	}
	return 0;
}

/* Takes part s out (1), or 0 when it is not there. */
static int take(struct mparts *p, const char *s)
{
	for (int i = 0; i < p->n; i++)
		if (!p->used[i] && !strcmp(p->part[i], s))
			return p->used[i] = 1;
	return 0;
}

/* The first part not taken, or NULL. */
static const char *left(const struct mparts *p)
{
	for (int i = 0; i < p->n; i++)
		if (!p->used[i])
			return p->part[i];
	return NULL;
}

/* .shared, .shared::cta, .global or none (generic). */
static int take_space(struct mparts *p)
{
	if (take(p, "shared") || take(p, "shared::cta"))
		return PTX_WMMA_SHARED;
	return take(p, "global") ? PTX_WMMA_GLOBAL : PTX_WMMA_GENERIC;
}

static const struct ptx_tok *cur(struct ptx_pstate *st)
{
	return ptx_peek(st, 0);
}

/* ldmatrix, stmatrix (PTX ISA 9.7.14.5.15, .16): .m8n8 .x1/.x2/.x4
 * [.trans] [.shared{::cta}] .b16; movmatrix (9.7.14.5.17): .m8n8 .trans
 * .b16.  Their registers as a vector ld's or st's (ptx_mma.h). */
static const char *decode_move(struct ptx_pstate *st, struct mparts *p,
			       struct ptx_insn *in, int *rc)
{
	int mov = !strcmp(p->base, "movmatrix"), ldm = !strcmp(p->base, "ldmatrix");
	int types[2] = { PTX_T_B32, PTX_T_B32 };
	if (!take(p, "m8n8") || !take(p, "b16"))
		return "only .m8n8 with .b16 (the sm_100a shapes and .b8 types are "
		       "not supported)";
	in->cmp = (uint8_t)take(p, "trans");
	if (mov) {
		in->op = PTX_MOVMATRIX;
		in->bits = 32;
		if (!in->cmp)
			return "movmatrix needs .trans";
		*rc = ptx_operands(st, in, PTX_S_A, types);
		return NULL;
	}
	in->aux = take(p, "x1") ? 1 : take(p, "x2") ? 2 : take(p, "x4") ? 4 : 0;
	if (!in->aux)
		return "needs .x1, .x2 or .x4";
	in->sbits = (uint8_t)take_space(p);
	if (in->sbits == PTX_WMMA_GLOBAL)
		return "the matrix rows are in .shared memory";
	in->op = ldm ? PTX_LDMATRIX : PTX_STMATRIX;
	in->bits = 32;
	*rc = ptx_operands(st, in, ldm ? PTX_S_LD : PTX_S_ST, types);
	for (int i = 0; !*rc && i < in->aux; i++) {
		uint32_t s = i ? in->src[i] : in->dst;
		if (s != PTX_SLOT_SINK && st->f->width[s] != 32)
			*rc = ptx_perr(st, cur(st)->line, "%s: register %d is not of 32 bits",
				       p->base, i + 1);
	}
	return NULL;
}

int ptx_decode_mma(struct ptx_pstate *st, struct ptx_insn *in,
		   const struct ptx_tok *mnem, uint32_t line)
{
	struct mparts p;
	int rc = 0;
	const char *bad = NULL;
	if (split(mnem, &p))
		return ptx_perr(st, line, "unsupported instruction '%.*s'",
				(int)mnem->len, mnem->s);
	int sync = take(&p, "sync");
	take(&p, "aligned");
	if (!sync)
		bad = "needs .sync";
	else
		bad = decode_move(st, &p, in, &rc);
	if (!bad && !rc && left(&p))
		bad = "a qualifier the interpreter does not run";
	if (bad)
		return ptx_perr(st, line, "unsupported instruction '%.*s': %s%s%s%s",
				(int)mnem->len, mnem->s, bad, left(&p) ? " ('." : "",
				left(&p) ? left(&p) : "", left(&p) ? "')" : "");
	if (rc || ptx_expect(st, ";"))
		return UB_RUNTIME;
	st->f->block_level = 1;
	return ptx_emit(st, in, line, mnem);
}

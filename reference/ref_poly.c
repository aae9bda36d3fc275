/* ref_poly.c — polynomials over atoms with rational coefficients
 * (ref_poly.h): sums and products kept in one canonical form, and the one
 * reduction that makes square roots exact, sqrt(N) * sqrt(N) = N.
 *
 * Canonical form: terms sorted by monomial (degree, then the ascending
 * atom indices), no two with the same monomial, none with coefficient 0.
 * Atoms are interned by value (equal key and equal canonical arguments:
 * one atom), so two polynomials are equal as real numbers whenever they are
 * equal term by term; the converse need not hold (log 6 and log 2 + log 3
 * stay apart), which costs completeness, never soundness.  Sizes are
 * bounded (XP_MAX*), so every operation is cheap or gives up. */
#include "ref_poly.h"

#include <stdlib.h>
#include <string.h>

void xp_init(struct xpoly *p)
{
	memset(p, 0, sizeof *p);
}

void xp_clear(struct xpoly *p)
{
	for (int i = 0; i < p->n; i++)
		mpq_clear(p->t[i].c);
	free(p->t);
	xp_init(p);
}

void xp_ctx_clear(struct xctx *x)
{
	for (int i = 0; i < x->natoms; i++)
		for (int k = 0; k < x->atom[i].nargs; k++)
			xp_clear(&x->atom[i].arg[k]);
	x->natoms = 0;
}

static int too_big(mpq_srcptr c)
{
	return mpz_sizeinbase(mpq_numref(c), 2) > XP_MAXBITS ||
	       mpz_sizeinbase(mpq_denref(c), 2) > XP_MAXBITS;
}

/* Appends c * monomial (deg, atom) to p; limit: at most `most` terms. */
static int append(struct xpoly *p, mpq_srcptr c, int deg, const int *atom,
		  int most)
{
	if (p->n >= most || too_big(c))
		return XP_GIVEUP;
	if (p->n == p->cap) {
		int cap = p->cap ? 2 * p->cap : 4;
		struct xterm *t = realloc(p->t, (size_t)cap * sizeof *t);
		if (!t)
			return XP_GIVEUP;
		p->t = t;
		p->cap = cap;
	}
	struct xterm *t = &p->t[p->n++];
	mpq_init(t->c);
	mpq_set(t->c, c);
	t->deg = deg;
	if (deg) /* a rational term comes with no atoms (NULL) */
		memcpy(t->atom, atom, (size_t)deg * sizeof *atom);
	return 0;
}

int xp_set_q(struct xpoly *p, mpq_srcptr q, int negzero)
{
	xp_clear(p);
	p->negzero = mpq_sgn(q) == 0 && negzero;
	return mpq_sgn(q) ? append(p, q, 0, NULL, 1) : 0;
}

int xp_set_atom(struct xpoly *p, mpq_srcptr c, int a)
{
	xp_clear(p);
	return mpq_sgn(c) ? append(p, c, 1, &a, 1) : 0;
}

int xp_copy(struct xpoly *r, const struct xpoly *a)
{
	int st = 0;
	xp_clear(r);
	for (int i = 0; i < a->n && !st; i++)
		st = append(r, a->t[i].c, a->t[i].deg, a->t[i].atom, XP_MAXTERMS);
	r->negzero = a->negzero;
	return st;
}

int xp_is_rational(const struct xpoly *p)
{
	return p->n == 0 || (p->n == 1 && p->t[0].deg == 0);
}

mpq_srcptr xp_rational(const struct xpoly *p)
{
	return p->n == 1 && p->t[0].deg == 0 ? p->t[0].c : NULL;
}

static int mono_cmp(const struct xterm *a, const struct xterm *b)
{
	if (a->deg != b->deg)
		return a->deg < b->deg ? -1 : 1;
	for (int k = 0; k < a->deg; k++)
		if (a->atom[k] != b->atom[k])
			return a->atom[k] < b->atom[k] ? -1 : 1;
	return 0;
}

int xp_add(struct xctx *x, struct xpoly *r, const struct xpoly *a,
	   const struct xpoly *b, int sub)
{
	int i = 0, j = 0, st = 0;
	mpq_t c;
	(void)x;
	mpq_init(c);
	xp_clear(r);
	while (!st && (i < a->n || j < b->n)) {
		int k = i == a->n ? 1 : j == b->n ? -1 : mono_cmp(&a->t[i], &b->t[j]);
		const struct xterm *m = k <= 0 ? &a->t[i] : &b->t[j];
		if (k < 0)
			mpq_set(c, a->t[i].c);
		else if (k > 0 && sub)
			mpq_neg(c, b->t[j].c);
		else if (k > 0)
			mpq_set(c, b->t[j].c);
		else if (sub)
			mpq_sub(c, a->t[i].c, b->t[j].c);
		else
			mpq_add(c, a->t[i].c, b->t[j].c);
		i += k <= 0;
		j += k >= 0;
		if (mpq_sgn(c))
			st = append(r, c, m->deg, m->atom, XP_MAXTERMS);
	}
	mpq_clear(c);
	return st;
}

/* The monomial a * b into (c, deg, atom): atoms merged in order, then each
 * pair sqrt(N) sqrt(N) replaced by the factor N. */
static int mono_mul(const struct xctx *x, const struct xterm *a,
		    const struct xterm *b, mpq_ptr c, int *deg, int *atom)
{
	int m[2 * XP_MAXDEG], n = 0, i = 0, j = 0;
	while (i < a->deg || j < b->deg)
		m[n++] = j == b->deg || (i < a->deg && a->atom[i] <= b->atom[j])
			 ? a->atom[i++] : b->atom[j++];
	mpq_mul(c, a->c, b->c);
	*deg = 0;
	for (int k = 0; k < n; k++) {
		const struct xatom *t = &x->atom[m[k]];
		if (k + 1 < n && m[k + 1] == m[k] && t->key == XA_SQRT) {
			mpq_mul(c, c, xp_rational(&t->arg[0]));
			k++;
		} else if (*deg == XP_MAXDEG) {
			return XP_GIVEUP;
		} else {
			atom[(*deg)++] = m[k];
		}
	}
	return 0;
}

static int term_cmp(const void *a, const void *b)
{
	return mono_cmp(a, b);
}

int xp_mul(struct xctx *x, struct xpoly *r, const struct xpoly *a,
	   const struct xpoly *b)
{
	struct xpoly all;
	int atom[XP_MAXDEG], deg, st = 0;
	mpq_t c;
	mpq_init(c);
	xp_init(&all);
	xp_clear(r);
	for (int i = 0; i < a->n && !st; i++)
		for (int j = 0; j < b->n && !st; j++)
			if (!(st = mono_mul(x, &a->t[i], &b->t[j], c, &deg, atom)))
				st = append(&all, c, deg, atom, XP_MAXTERMS * XP_MAXTERMS);
	if (!st && all.n > 1)
		qsort(all.t, (size_t)all.n, sizeof *all.t, term_cmp);
	for (int i = 0; i < all.n && !st;) { /* equal monomials are adjacent */
		int k = i + 1;
		mpq_set(c, all.t[i].c);
		for (; k < all.n && !mono_cmp(&all.t[i], &all.t[k]); k++)
			mpq_add(c, c, all.t[k].c);
		if (mpq_sgn(c))
			st = append(r, c, all.t[i].deg, all.t[i].atom, XP_MAXTERMS);
		i = k;
	}
	xp_clear(&all);
	mpq_clear(c);
	return st;
}

int xp_scale(struct xpoly *r, const struct xpoly *a, mpq_srcptr q)
{
	int st = 0;
	mpq_t c;
	mpq_init(c);
	xp_clear(r);
	for (int i = 0; i < a->n && !st && mpq_sgn(q); i++) {
		mpq_mul(c, a->t[i].c, q);
		st = append(r, c, a->t[i].deg, a->t[i].atom, XP_MAXTERMS);
	}
	mpq_clear(c);
	return st;
}

int xp_equal(const struct xpoly *a, const struct xpoly *b)
{
	if (a->n != b->n)
		return 0;
	for (int i = 0; i < a->n; i++)
		if (mono_cmp(&a->t[i], &b->t[i]) || !mpq_equal(a->t[i].c, b->t[i].c))
			return 0;
	return 1;
}

int xp_sign(const struct xctx *x, const struct xpoly *p)
{
	if (p->n == 0)
		return 0;
	if (p->n > 1)
		return 2;
	int s = mpq_sgn(p->t[0].c);
	for (int k = 0; k < p->t[0].deg; k++) {
		int a = x->atom[p->t[0].atom[k]].sign;
		if (!a)
			return 2;
		s *= a;
	}
	return s;
}

int xp_nonzero(const struct xctx *x, const struct xpoly *p)
{
	if (p->n != 1)
		return 0;
	for (int k = 0; k < p->t[0].deg; k++)
		if (!x->atom[p->t[0].atom[k]].nonzero)
			return 0;
	return 1;
}

int xa_intern(struct xctx *x, int key, int konst, int nargs,
	      const struct xpoly *args, int sign, int nonzero)
{
	for (int i = 0; i < x->natoms; i++) {
		const struct xatom *a = &x->atom[i];
		int same = a->key == key && a->konst == konst && a->nargs == nargs;
		for (int k = 0; same && k < nargs; k++)
			same = xp_equal(&a->arg[k], &args[k]);
		if (same)
			return i;
	}
	if (x->natoms == XP_MAXATOMS)
		return XP_GIVEUP;
	struct xatom *a = &x->atom[x->natoms];
	memset(a, 0, sizeof *a);
	a->key = key;
	a->konst = konst;
	a->sign = sign;
	a->nonzero = nonzero || sign != 0;
	for (int k = 0; k < nargs; k++) {
		xp_init(&a->arg[k]);
		a->nargs = k + 1;
		if (xp_copy(&a->arg[k], &args[k])) {
			for (int j = 0; j <= k; j++)
				xp_clear(&a->arg[j]);
			return XP_GIVEUP;
		}
	}
	return x->natoms++;
}

/* shaped_fpcore.c — an FPCore row op (rowop.h) as a shaped op: its
 * description for the shaped run (shaped.h), and its exact reference,
 * each output element the row's math unrolled (rowop_build.c) and
 * decided by the MPFR reference (reference.h) like any expression:
 * correctly rounded, or counted as undecided, never guessed. */
#include "shaped.h"
#include "rowop.h"
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ub_shaped_acc_inputs(const struct ub_shaped_req *q, int *acc)
{
	for (int o = 0; o < UB_SHAPED_MAX_OUT; o++)
		acc[o] = -1;
	for (int a = 0; q->kernel && a < q->nargs; a++) {
		const char *c = strstr(q->args[a], ":acc=");
		for (int o = 0; c && o < q->op->nout; o++) {
			size_t l = strlen(q->op->out[o].name);
			if ((size_t)(c - q->args[a]) != l || strncmp(q->args[a], q->op->out[o].name, l))
				continue;
			for (int k = 0; k < q->op->nin; k++)
				if (!strcmp(q->op->in[k].name, c + 5))
					acc[o] = k;
		}
	}
}

static enum ub_extent extent(enum ub_ro_ext e)
{
	return e == UB_RO_FULL ? UB_EXT_FULL : e == UB_RO_ROWS ? UB_EXT_ROWS
	       : e == UB_RO_COLS ? UB_EXT_COLS : UB_EXT_TABLE;
}

void ub_shaped_of_rowop(const struct ub_rowop *ro, struct ub_shaped_op *sop)
{
	memset(sop, 0, sizeof *sop);
	sop->name = ro->name;
	sop->desc = ro->desc ? ro->desc : "an FPCore row op";
	sop->kind = UB_SH_FPCORE;
	sop->nin = ro->nin;
	sop->nout = ro->nout;
	sop->math = ro->text;
	sop->fp = ro;
	for (int k = 0; k < ro->nin; k++) {
		const struct ub_ro_in *a = &ro->in[k];
		struct ub_shaped_arg *s = &sop->in[k];
		s->name = a->name;
		s->ext = extent(a->ext);
		s->lo = a->lo;
		s->hi = a->hi;
		s->role = a->is_int ? UB_ARG_INT : UB_ARG_VALUE;
		s->doc = a->doc ? a->doc : a->is_int ? "integers" : "an input";
		s->trows = a->ext == UB_RO_TABLE ? (size_t)ro->size_val[a->table] : 0;
		s->ilo = a->ilo;
		s->ihi = a->ihi_size == -2 ? -1 : a->ihi_size >= 0 ? ro->size_val[a->ihi_size]
			 : a->ihi;
	}
	for (int o = 0; o < ro->nout; o++) {
		sop->out[o].name = ro->out[o].name;
		sop->out[o].ext = extent(ro->out[o].ext);
		sop->out[o].doc = "";
	}
}

/* Input k's element i, for the row builder: an encoding, or an integer
 * (held as int32). */
struct fetch {
	const struct ub_shaped_op *op;
	const struct ub_array *in;
};

static uint64_t get(void *ctx, int k, size_t i)
{
	const struct fetch *f = ctx;
	uint64_t v = ub_array_get(&f->in[k], i);
	return ub_shaped_is_int(&f->op->in[k]) ? (uint64_t)(int64_t)(int32_t)(uint32_t)v : v;
}

/* Element j of output o of row r (its index idx in the output); an
 * output that accumulates from input acc (>= 0) is that input's element
 * plus it, exactly. */
static int element(struct ub_ro_row *rb, const struct ub_rowop *ro, enum ub_dtype dt,
		   int o, int acc, size_t j, size_t idx, int fast, struct ub_array *cr,
		   struct ub_exact **exact, size_t *undecided, struct ub_error *err)
{
	struct ub_expr *e, *sum[2];
	int nv, s = ub_ro_row_elem(rb, o, j, &e, err);
	if (s)
		return s;
	if (acc >= 0) {
		if ((s = ub_ro_row_input(rb, acc, idx, &sum[0]))) {
			ub_expr_free(e);
			return s;
		}
		sum[1] = e;
		if (!(e = ub_expr_new_op(UB_ADD, 2, sum)))
			return ub_fail(err, UB_RUNTIME, "out of memory");
	}
	const uint64_t *v = ub_ro_row_vars(rb, &nv);
	uint64_t c;
	s = ub_ref_eval_auto(e, dt, v, nv, fast, &c, &exact[o][idx], err);
	ub_expr_free(e);
	if (s == UB_REF_UNDECIDED) {
		++*undecided;
		s = 0;
	} else if (s == UB_USAGE) {
		return ub_prefix(err, UB_USAGE, "%s: output %s, element %zu: ", ro->name,
				 ro->out[o].name, idx);
	}
	ub_array_set(&cr[o], idx, c);
	return s;
}

int ub_shaped_fp_ref(const struct ub_shaped_op *op, const struct ub_rowop *ro,
		     enum ub_dtype dt, const struct ub_array *in, size_t rows, size_t cols,
		     const int *acc, int fast, struct ub_array *cr, struct ub_exact **exact,
		     size_t *undecided, struct ub_error *err)
{
	struct fetch f = {op, in};
	struct ub_ro_data d = {rows, cols, get, &f, dt};
	int s = 0;
	for (size_t r = 0; !s && r < rows; r++) {
		struct ub_ro_row *rb = NULL;
		s = ro->elementwise ? 0 : ub_ro_row_begin(ro, &d, r, &rb, err);
		for (int o = 0; !s && o < ro->nout; o++) {
			size_t n = ro->out[o].ext == UB_RO_FULL ? cols : 1;
			for (size_t j = 0; !s && j < n; j++) {
				/* an elementwise op's element reads its own inputs
				 * alone: a row of its own, of a few variables */
				if (ro->elementwise && (s = ub_ro_row_begin(ro, &d, r, &rb, err)))
					break;
				s = element(rb, ro, dt, o, acc[o], j, n == 1 ? r : r * cols + j,
					    fast, cr, exact, undecided, err);
				if (ro->elementwise) {
					ub_ro_row_end(rb);
					rb = NULL;
				}
			}
		}
		ub_ro_row_end(rb);
	}
	ub_ref_release();
	return s;
}

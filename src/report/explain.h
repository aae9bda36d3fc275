/* explain.h — `ulpbench explain`: one input, every kernel that computes it
 * (each mode, each torch plan step) traced instruction by instruction, and
 * the reference.  explain.c parses the command and runs the kernels;
 * explain_print.c prints what they did. */
#ifndef UB_EXPLAIN_H
#define UB_EXPLAIN_H

#include <stdio.h>

#include "run.h"
#include "why.h"

/* One floating-point instruction thread 0 executed (ptx.h's event). */
struct ub_trace_line {
	char text[48];
	uint32_t line;
	int nsrc;
	uint64_t src[3];
	unsigned src_bits[3];
	uint64_t dst;
	unsigned dst_bits;
	int measured;      /* approximate, as measured on an sm_90 GPU */
};

#define UB_TRACE_MAX 20000 /* lines kept per kernel; more are counted */

struct ub_trace_log {
	struct ub_trace_line *v;
	size_t n, cap, dropped;
};

/* One kernel run on the explained input: a mode or a torch plan step. */
struct ub_explained {
	struct ub_trace_log log;
	uint64_t result;
	uint64_t approx;   /* approximate instructions executed (ptx.h) */
	const char *na;    /* a mode that does not apply to the kernel: why
			      (nothing ran; the run's row says n/a too) */
	struct ub_why_places places; /* a mode's: the source place of each
			      PTX line (why.h; empty when not known) */
};

struct ub_explain {
	const struct ub_config *cfg;   /* op, one dtype, modes, arch */
	enum ub_dtype dt;
	uint64_t in[UB_MAX_INPUTS];
	uint64_t cr;                   /* correctly rounded */
	struct ub_exact exact;
	char undecided[1024];          /* when the reference could not decide
					  the element (UB_REF_UNDECIDED): why;
					  else empty */
	struct ub_explained *steps;    /* cfg->op->nsteps of them */
	struct ub_explained modes[UB_NMODES];
	char origin[1024];              /* where the input came from (--at worst) */
};

/* Runs every kernel on x->in (x->cfg, x->dt set); frees with
 * ub_explain_free. */
int ub_explain_run(struct ub_explain *x, struct ub_error *err);
void ub_explain_free(struct ub_explain *x);
void ub_explain_print(FILE *f, const struct ub_explain *x);
/* A run of several toolkits (--toolkit): xk (one further toolkit's
 * explanation) against x0 (the first's), mode by mode: both results and
 * the diff of the kernel's PTX (explain_toolkits.c). */
void ub_explain_toolkits(FILE *f, const struct ub_explain *x0,
			 const struct ub_explain *xk);

#endif

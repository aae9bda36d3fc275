/* naive_atan_bwd.c — the baseline ulpbench is measured against: what one
 * writes without ulpbench to check atan_bwd on the CPU.
 *
 * Reads x and g (.npy, float32, as ulpbench --dump writes them) and, per
 * point: (b) the naive reference, one MPFR evaluation of g/(x*x+1) at 128
 * bits with fresh variables, rounded to float32 (mpfr_subnormalize), plus
 * native C for each mode (fmaf; separate roundings; the torch chain);
 * (b') the same with the MPFR variables and exponent range set up once
 * for all points (what a careful hand-written tool does); (c) the native
 * C alone.  Prints the seconds of each and a checksum so
 * nothing is optimised away.  Usage: naive_atan_bwd X.npy G.npy */
#include <math.h>
#include <mpfr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "npy.h"

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* CPU seconds of the process: on a shared machine, unlike the wall
 * clock, not inflated by other programs' load. */
static double cpu(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static float ref(float x, float g)
{
	mpfr_t mx, t, r;
	mpfr_inits2(128, mx, t, r, (mpfr_ptr)0);
	mpfr_set_flt(mx, x, MPFR_RNDN);
	mpfr_sqr(t, mx, MPFR_RNDN);
	mpfr_add_ui(t, t, 1, MPFR_RNDN);
	mpfr_set_flt(r, g, MPFR_RNDN);
	mpfr_div(r, r, t, MPFR_RNDN);
	mpfr_set_emin(-148);
	mpfr_set_emax(128);
	mpfr_prec_round(r, 24, MPFR_RNDN);
	int i = mpfr_check_range(r, 0, MPFR_RNDN);
	mpfr_subnormalize(r, i, MPFR_RNDN);
	float y = mpfr_get_flt(r, MPFR_RNDN);
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	mpfr_clears(mx, t, r, (mpfr_ptr)0);
	return y;
}

/* ref with variables made once: the same rounding, ulpbench's rival at
 * its best.  The exponent range stays [-148, 128] while it runs. */
static mpfr_t ox, ot, orr;

static float ref_once(float x, float g)
{
	mpfr_set_flt(ox, x, MPFR_RNDN);
	mpfr_sqr(ot, ox, MPFR_RNDN);
	mpfr_add_ui(ot, ot, 1, MPFR_RNDN);
	mpfr_set_flt(orr, g, MPFR_RNDN);
	mpfr_div(orr, orr, ot, MPFR_RNDN);
	mpfr_prec_round(orr, 24, MPFR_RNDN);
	int i = mpfr_check_range(orr, 0, MPFR_RNDN);
	mpfr_subnormalize(orr, i, MPFR_RNDN);
	float y = mpfr_get_flt(orr, MPFR_RNDN);
	mpfr_set_prec(orr, 128);
	return y;
}

/* The four modes' arithmetic and the torch chain, natively. */
static float native(float x, float g)
{
	volatile float s = x * x, t = s + 1.0f, a = g / t;
	volatile float b = g / fmaf(x, x, 1.0f);
	return a + b;
}

int main(int argc, char **argv)
{
	struct ub_array x, g;
	struct ub_error err;
	if (argc != 3 || ub_npy_read(argv[1], UB_F32, &x, NULL, &err) ||
	    ub_npy_read(argv[2], UB_F32, &g, NULL, &err)) {
		fprintf(stderr, "usage: naive_atan_bwd X.npy G.npy (%s)\n",
			argc == 3 ? err.msg : "");
		return 2;
	}
	const float *xs = x.data, *gs = g.data;
	double sum = 0, t0 = now(), c0 = cpu();
	for (size_t i = 0; i < x.n; i++)
		sum += ref(xs[i], gs[i]) + native(xs[i], gs[i]);
	double t1 = now(), c1 = cpu();
	for (size_t i = 0; i < x.n; i++)
		sum += native(xs[i], gs[i]);
	double t2 = now();
	mpfr_inits2(128, ox, ot, orr, (mpfr_ptr)0);
	mpfr_set_emin(-148);
	mpfr_set_emax(128);
	double sum2 = 0, t3 = now(), c3 = cpu();
	for (size_t i = 0; i < x.n; i++)
		sum2 += ref_once(xs[i], gs[i]) + native(xs[i], gs[i]);
	double t4 = now(), c4 = cpu();
	mpfr_set_emin(mpfr_get_emin_min());
	mpfr_set_emax(mpfr_get_emax_max());
	mpfr_clears(ox, ot, orr, (mpfr_ptr)0);
	printf("naive %.3f\nnaive_once %.3f\nnative %.4f\nnaive_cpu %.3f\n"
	       "naive_once_cpu %.3f\nchecksum %g %g\n", t1 - t0, t4 - t3, t2 - t1,
	       c1 - c0, c4 - c3, sum, sum2);
	ub_array_free(&x);
	ub_array_free(&g);
	return 0;
}

/* naive_atan_bwd.c — the baseline ulpbench is measured against: what one
 * writes without ulpbench to check atan_bwd on the CPU.
 *
 * Reads x and g (.npy, float32, as ulpbench --dump writes them) and, per
 * point: (b) the naive reference, one MPFR evaluation of g/(x*x+1) at 128
 * bits with fresh variables, rounded to float32 (mpfr_subnormalize), plus
 * native C for each mode (fmaf; separate roundings; the torch chain);
 * (c) the native C alone.  Prints the seconds of each and a checksum so
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
	double sum = 0, t0 = now();
	for (size_t i = 0; i < x.n; i++)
		sum += ref(xs[i], gs[i]) + native(xs[i], gs[i]);
	double t1 = now();
	for (size_t i = 0; i < x.n; i++)
		sum += native(xs[i], gs[i]);
	double t2 = now();
	printf("naive %.3f\nnative %.4f\nchecksum %g\n", t1 - t0, t2 - t1, sum);
	ub_array_free(&x);
	ub_array_free(&g);
	return 0;
}

/* ref_mpfr.c — (to be written) */

/* check_ew_host.h — the host model of check_ew_host.c, used by
 * check_ew_rows.c. */
#ifndef UB_CHECK_EW_HOST_H
#define UB_CHECK_EW_HOST_H

#include "suites.h"
#include "run.h"

/* Runs op in dt under modes ("fma,nofma,torch": "torch" checks the torch
 * plan) and checks every row, which must be exact, against the host
 * model; narrow: inputs in [-4, 4] (within the op's domain). */
void ew_check_op(const struct ub_op *op, enum ub_dtype dt, const char *modes,
		 int narrow);
/* res[i] = f(arg[i]) by the function's PTX alone on the sim (exact: no
 * approximate instruction may run). */
void ew_oracle_run(int fop, enum ub_dtype dt, int mode, const double *arg,
		   double *res, size_t n, int exact);
void ew_oracles_free(void);
double ew_bits_value(enum ub_dtype dt, uint64_t b);
uint64_t ew_value_bits(enum ub_dtype dt, double v);
double *ew_alloc(size_t n);

#endif

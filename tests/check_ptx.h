/* check_ptx.h — helpers shared by the ptx test files. */
#ifndef UB_CHECK_PTX_H
#define UB_CHECK_PTX_H

#include "suites.h"
#include "ptx.h"

/* One instruction run in a kernel of its own.  Registers: %x0..%x4 b32,
 * %y0..%y4 b64, %h0..%h4 b16, %p0..%p4 and %q0..%q4 pred.  Inputs a, b, c
 * are loaded into %x0-2, %y0-2, %h0-2 (their low bits) and %p0-2 (a
 * nonzero input is true); the output is read from %x3, %y3, %h3, %p3 or
 * %q3 as `out` says ('x', 'y', 'h', 'p', 'q'). */
struct ptx_case {
	const char *insn;
	uint64_t a, b, c;
	char out;
	uint64_t want;
	unsigned ulps;      /* 0: the exact bits; else the allowed distance in
			       f32 ulps (models of approximate instructions) */
	uint64_t mask;      /* the approx_mask the run must report */
};

/* Runs k and checks it with ck_assert (message with all bits). */
void ptx_check_case(const struct ptx_case *k);

/* Reads tests/data/ptx/NAME (malloc'd, NUL-terminated). */
char *ptx_read_data(const char *name);

TCase *ptx_fp_tcase(void);
TCase *ptx_int_tcase(void);
TCase *ptx_kernel_tcase(void);
TCase *ptx_ext_tcase(void);
TCase *ptx_batch_tcase(void);
TCase *ptx_dir_tcase(void);
TCase *ptx_cvt_tcase(void);
TCase *ptx_vec_tcase(void);
TCase *ptx_module_tcase(void);
TCase *ptx_block_tcase(void);
TCase *ptx_ldmatrix_tcase(void);
TCase *ptx_mma_tcase(void);
TCase *ptx_more_tcase(void);

#endif

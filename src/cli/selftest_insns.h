/* selftest_insns.h — `ulpbench selftest --insns` (selftest_insns.c). */
#ifndef UB_SELFTEST_INSNS_H
#define UB_SELFTEST_INSNS_H

#include "ub.h"

struct ub_insns_opts {
	const char *list;    /* the forms (default: kernels/ptx-insns.txt) */
	const char *capture; /* write the GPU's outputs here, or NULL */
	const char *replay;  /* compare the sim with this capture, no GPU */
	const char *arch;    /* --arch for the GPU, when arch_set */
	int arch_set;
	int every;           /* print every differing input, not the first */
};

/* Runs every form on the sim and the GPU (or the capture) and prints a
 * line each; UB_EXPECT_FAILED when an exact form differs, UB_RUNTIME when
 * a form could not be compared, 4 without a GPU and without --replay. */
int ub_selftest_insns(const struct ub_insns_opts *o, struct ub_error *err);

/* Reads a list of forms (when list is not NULL) and a capture (when
 * capture is not NULL) as selftest --insns does, and frees them: the
 * parsers alone, for tests/fuzz/fuzz_insns.c. */
int ub_insns_read_files(const char *list, const char *capture, struct ub_error *err);

#endif

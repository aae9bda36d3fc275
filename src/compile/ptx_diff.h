/* ptx_diff.h — where two compilations of one kernel first differ: their
 * PTX instructions compared in order, what does not change the
 * computation set aside (comments, the .version/.target header, register
 * declarations, the numbers in register and label names), so that what
 * two toolkits (or two modes) made of the same source shows as the first
 * instruction that changed. */
#ifndef UB_PTX_DIFF_H
#define UB_PTX_DIFF_H

#include <stddef.h>
#include <stdio.h>

/* Instructions of one text the listing below compares, at most */
#define UB_PTX_DIFF_MAX 4000

/* 0 when a and b hold the same instructions (as above); else 1 and one
 * line into out: "instruction 12: fma.rn.f32 %f3, %f1, %f1, 0f3F800000;
 * vs mul.rn.f32 %f3, %f1, %f1;" (as written in a, then b; "(end)" when
 * one ends first), the instruction counted from 1 over the whole text. */
int ub_ptx_first_diff(const char *a, const char *b, char *out, size_t len);

/* The instructions that differ, as a diff of the two lists (the longest
 * common subsequence kept): "- 12: fma.rn.f32 %f3, %f1, %f1, 0f3F800000;"
 * for a's, "+ 12: ..." for b's, numbered in each, each line after indent,
 * at most max lines (then how many more).  How many differ (0: the same),
 * or -1 when a text holds more than UB_PTX_DIFF_MAX instructions or
 * memory runs out (nothing printed). */
int ub_ptx_diff_print(FILE *f, const char *a, const char *b, const char *indent,
		      int max);

#endif

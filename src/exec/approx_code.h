/* approx_code.h — compact coding of a table of float outputs against a
 * prediction (capture-approx's tables; the format is docs/approx-capture.md).
 *
 * Each output y[i] becomes its signed distance from the prediction p[i]
 * in ordered encodings (adjacent floats are 1 apart, -0 and +0 too), either
 * as is (UB_CODE_RESIDUAL) or as the change from the previous element's
 * distance (UB_CODE_DELTA, for errors that drift smoothly); the values go
 * through an adaptive binary range coder: a zero costs a small fraction of
 * a bit when most distances are zero, a +-1 about two bits. */
#ifndef UB_APPROX_CODE_H
#define UB_APPROX_CODE_H

#include <stddef.h>
#include <stdint.h>

enum ub_coding { UB_CODE_RESIDUAL = 0, UB_CODE_DELTA = 1 };

/* A growing byte buffer; oom is set (and bytes dropped) when malloc
 * fails. */
struct ub_bytes {
	unsigned char *p;
	size_t len, cap;
	int oom;
};
void ub_bytes_put(struct ub_bytes *b, const void *data, size_t len);
void ub_bytes_free(struct ub_bytes *b);

/* The ordered integer of a float encoding: monotonic, adjacent floats
 * differ by 1 (-0 is -1, +0 is 0), and back. */
int64_t ub_ord32(uint32_t u);
uint32_t ub_unord32(int64_t o);

/* Appends the coding of y[0..n-1] against pred (NULL: all 0) to b; 0, or
 * -1 when out of memory. */
int ub_code_encode(const uint32_t *y, const uint32_t *pred, size_t n,
		   enum ub_coding coding, struct ub_bytes *b);

/* Decodes n outputs from p[0..len-1] against pred into y; 0, or -1 when
 * the data are corrupt (they run out, or a distance leaves the 32-bit
 * range). */
int ub_code_decode(const unsigned char *p, size_t len, const uint32_t *pred,
		   size_t n, enum ub_coding coding, uint32_t *y);

#endif

/* npy.h — NumPy .npy files (format versions 1.0 to 3.0), read and written.
 * Accepted: little-endian '<f4' (f32), '<f2' (f16), '<u2' (bf16 bits),
 * '<f8' (f64), C order, any shape (flattened); integers '<i8', '<i4' by
 * ub_npy_read_int. */
#ifndef UB_NPY_H
#define UB_NPY_H

#include "ub.h"

#define UB_NPY_MAXDIM 8

struct ub_shape {
	int ndim;
	size_t dim[UB_NPY_MAXDIM];
};

/* Reads path into a (allocated) checking the descr against dt.  Errors
 * (UB_USAGE) name the file: "x.npy: expected dtype <f4, found <i8",
 * "x.npy: truncated: header says 1000 elements, file holds 12". */
int ub_npy_read(const char *path, enum ub_dtype dt, struct ub_array *a,
		struct ub_shape *shape, struct ub_error *err);

/* Reads an integer file ('<i8' or '<i4', class indices) into *v
 * (allocated, *n elements, sign-extended); errors as ub_npy_read's. */
int ub_npy_read_int(const char *path, int64_t **v, size_t *n, struct ub_shape *shape,
		    struct ub_error *err);

/* Writes a to path atomically (a temporary file in the same directory,
 * renamed at the end); shape NULL means 1-D.  Errors are UB_IO. */
int ub_npy_write(const char *path, const struct ub_array *a,
		 const struct ub_shape *shape, struct ub_error *err);
/* The same with the header's dtype descr given (of a's element size:
 * "<i4" for int32 bits held in an f32 array). */
int ub_npy_write_as(const char *path, const struct ub_array *a,
		    const struct ub_shape *shape, const char *descr, struct ub_error *err);

#endif

/* npy.h — NumPy .npy files (format versions 1.0 to 3.0), read and written.
 * Accepted: little-endian '<f4' (f32), '<f2' (f16), '<u2' (bf16 bits),
 * '<f8' (f64), C order, any shape (flattened); integers '<i8', '<i4', '|u1' by
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

/* A file opened for reading in pieces (ub_npy_open): its header checked
 * and its size found to hold exactly n elements, no data read yet.  A
 * file that is not regular (a pipe) has no offsets: its elements are
 * read whole at open into mem, and fd is -1. */
struct ub_npy_in {
	const char *path;       /* as given (not copied): for messages */
	enum ub_dtype dt;
	int fd;                 /* -1: none */
	uint64_t off;           /* where the elements start in the file */
	size_t n;               /* elements */
	struct ub_shape shape;
	struct ub_array mem;    /* a pipe's elements */
};

/* Opens path and checks it as ub_npy_read does, with the same errors
 * (nothing is left open on failure). */
int ub_npy_open(const char *path, enum ub_dtype dt, struct ub_npy_in *in,
		struct ub_error *err);
/* Elements first..first+count-1 of in into a's first count elements
 * (a->dt is in->dt, a->n at least count) with pread, so any number of
 * threads may read one file at once.  A file that shrank since it was
 * opened, or that cannot be read, fails (UB_USAGE) naming it:
 * "x.npy: changed during the run: it holds 70000 elements now, its
 * header says 2000000". */
int ub_npy_read_range(const struct ub_npy_in *in, size_t first, size_t count,
		      struct ub_array *a, struct ub_error *err);
/* Closes in (again: nothing). */
void ub_npy_close(struct ub_npy_in *in);

/* Reads an integer file ('<i8', '<i4' or '|u1': class indices, ids,
 * masks) into *v (allocated, *n elements, sign-extended; '|u1'
 * zero-extended); errors as ub_npy_read's. */
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

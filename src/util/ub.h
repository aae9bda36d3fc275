/* ub.h — types and conventions shared by every stage of ulpbench.
 *
 * Error convention: functions return 0 on success or a non-zero exit status
 * (enum ub_status) and fill a struct ub_error with one line of text, prefixed
 * by the thing at fault ("x.npy: expected dtype <f4, found <i8").  Only main.c
 * prints it (as "ulpbench: MSG") and exits. */
#ifndef UB_H
#define UB_H

#include <stddef.h>
#include <stdint.h>

/* Exit statuses, declared once (documented in docs/cli.md). */
#define UB_STATUSES(X)                                              \
	X(UB_OK, 0, "success")                                          \
	X(UB_EXPECT_FAILED, 1, "an accuracy expectation failed")        \
	X(UB_USAGE, 2, "usage or input error")                          \
	X(UB_COMPILE, 3, "compile (NVRTC) failure")                     \
	X(UB_RUNTIME, 4, "kernel execution failed (interpreter or GPU)") \
	X(UB_IO, 5, "an output file could not be written")

enum ub_status {
#define X(name, code, text) name = code,
	UB_STATUSES(X)
#undef X
};

struct ub_error {
	char msg[1024];
};

/* Sets err->msg (printf style) and returns status; a NULL err is allowed. */
int ub_fail(struct ub_error *err, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Puts the text (printf style) before err->msg, for the context a caller
 * knows ("my.cu: kernel k, mode fma: "); returns status. */
int ub_prefix(struct ub_error *err, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Floating-point formats under test, declared once.
 * X(ID, name, storage bits, precision p (incl. hidden bit), emin, emax,
 *   npy descr, CUDA C type) */
#define UB_DTYPES(X)                                                   \
	X(UB_F32, "f32", 32, 24, -126, 127, "<f4", "float")              \
	X(UB_F16, "f16", 16, 11, -14, 15, "<f2", "__half")               \
	X(UB_BF16, "bf16", 16, 8, -126, 127, "<u2", "__nv_bfloat16")     \
	X(UB_F64, "f64", 64, 53, -1022, 1023, "<f8", "double")

enum ub_dtype {
#define X(id, name, bits, prec, emin, emax, npy, ctype) id,
	UB_DTYPES(X)
#undef X
	UB_NDTYPES
};

struct ub_dtype_info {
	const char *name;
	int bits, prec, emin, emax;
	const char *npy, *ctype;
};
extern const struct ub_dtype_info ub_dtypes[UB_NDTYPES];

/* Looks a dtype up by name; -1 if unknown. */
int ub_dtype_find(const char *name);
/* "f32, f16, bf16, f64" into buf. */
const char *ub_dtype_names(char *buf, size_t len);

/* Bit-pattern helpers: every value flows through ulpbench as its encoding
 * (uint64_t, low bits used), never as a host float, so -0/+0 and NaN
 * payloads survive. */
double ub_bits_to_double(enum ub_dtype dt, uint64_t bits); /* exact */
int ub_bits_isnan(enum ub_dtype dt, uint64_t bits);
int ub_bits_isinf(enum ub_dtype dt, uint64_t bits);
/* Bits equal, any NaN equal to any NaN. */
int ub_same(enum ub_dtype dt, uint64_t a, uint64_t b);
/* Distance: the difference of the encodings as ordered integers (+0 and
 * -0 are 1 apart); NaN vs NaN is 0, NaN vs a number UINT64_MAX. */
uint64_t ub_distance(enum ub_dtype dt, uint64_t a, uint64_t b);

/* Encodings as ordered integers: +0 -> 0, -0 -> -1, +x -> its magnitude
 * bits, -x -> -(magnitude bits) - 1, so that a < b as values implies
 * ub_ordered(a) < ub_ordered(b) and neighbours differ by 1.  NaNs land
 * beyond +-inf.  ub_from_ordered is the inverse. */
int64_t ub_ordered(enum ub_dtype dt, uint64_t bits);
uint64_t ub_from_ordered(enum ub_dtype dt, int64_t o);
/* The ordered encoding of the smallest value of dt >= v (up) or the
 * largest <= v (!up), between -inf and +inf; v is not NaN.  A zero v is
 * a value: up gives -0, !up +0. */
int64_t ub_ordered_bound(enum ub_dtype dt, double v, int up);


/* One tensor of one dtype, flattened in C order. */
struct ub_array {
	enum ub_dtype dt;
	size_t n;
	void *data; /* n elements of ub_dtypes[dt].bits/8 bytes */
};
uint64_t ub_array_get(const struct ub_array *a, size_t i);
void ub_array_set(struct ub_array *a, size_t i, uint64_t bits);
/* Allocates n elements (zeroed); returns 0 or UB_RUNTIME on ENOMEM. */
int ub_array_alloc(struct ub_array *a, enum ub_dtype dt, size_t n);
void ub_array_free(struct ub_array *a);

/* The exact value of a result, for fractional ULP: hi + lo with
 * |lo| <= ulp(hi)/2 (a double-double).  hi is NaN or +-inf when the exact
 * value is (0/0, x/0, ...).  For f32, f16 and bf16 hi alone is accurate to
 * 2^-53 relative, far below what a ULP metric can show. */
struct ub_exact {
	double hi, lo;
};

/* An element whose correctly rounded result the reference could not
 * decide (reference.h, UB_REF_UNDECIDED) has lo NaN, which no decided
 * value has; hi is then the middle of its last enclosure (NaN if none).
 * Metrics leave such elements out and count them (metrics.h). */
static inline int ub_exact_undecided(const struct ub_exact *v)
{
	return v->lo != v->lo;
}

/* Why an element is undecided (docs/reference.md), declared once:
 * X(ID, name, what it means). */
#define UB_UNDECIDED_CLASSES(X)                                             \
	X(UB_UND_BOUNDARY, "boundary", "the exact value is on a rounding "     \
	  "boundary, or a condition on an equality, that neither precision "  \
	  "nor the exact rules prove (a tie reached through transcendental "   \
	  "terms)")                                                           \
	X(UB_UND_PRECISION, "precision", "the enclosure stayed wider than a "  \
	  "rounding, at the most precision the element's budget allowed")     \
	X(UB_UND_RANGE, "range", "a value beyond the exponents the reference " \
	  "represents, where it could not continue")                          \
	X(UB_UND_TIME, "time", "the element's time budget (--ref-budget) ran " \
	  "out")                                                              \
	X(UB_UND_LOOP, "loop", "a loop ran past its iterations' limit")      \
	X(UB_UND_SIGN, "zero sign", "the exact value rounds to zero, but its " \
	  "sign (+0 or -0) stays undecided (an exact zero of transcendental " \
	  "terms, or a value too small to separate from it)")

enum ub_undecided {
#define X(id, name, what) id,
	UB_UNDECIDED_CLASSES(X)
#undef X
	UB_UND_N
};
extern const char *const ub_undecided_names[UB_UND_N];

/* v marked undecided for reason why (its lo a NaN carrying why). */
void ub_exact_mark(struct ub_exact *v, enum ub_undecided why);
/* The reason of an undecided v (UB_UND_PRECISION when none was given). */
enum ub_undecided ub_exact_why(const struct ub_exact *v);

/* The most inputs (FPCore arguments) of an op: a generated kernel takes
 * one array per input, and CUDA's 4 KB of kernel parameters hold 500
 * pointers.  The most parameters of a kernel ulpbench launches: the
 * inputs, the earlier steps of a torch plan, out and n. */
#define UB_MAX_INPUTS 256
#define UB_MAX_KARGS (UB_MAX_INPUTS + 64 + 2)

/* A 64-bit hash of n bytes in the manner of FNV-1a, continuing from h
 * (UB_HASH64_INIT to start; ub.c): a check against damage (any change
 * within one 8-byte word, so any one-byte change, alters it), not a
 * defence against an attacker. */
#define UB_HASH64_INIT UINT64_C(0xcbf29ce484222325)
uint64_t ub_hash64(uint64_t h, const void *data, size_t n);

/* The file formats' integers: n bytes (1..8) at p, least significant
 * first, as an integer; v into n such bytes at p. */
uint64_t ub_le_get(const unsigned char *p, int n);
void ub_le_set(unsigned char *p, uint64_t v, int n);

#endif

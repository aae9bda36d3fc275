/* backend.h — where kernels run: one interface, two backends.
 *
 *   sim   the PTX interpreter (src/exec/ptx/), on the CPU, everywhere
 *   cuda  the GPU, through the driver loaded at run time (src/exec/cuda.c)
 *
 * Both run the same launch: the geometry of sim.h (UB_BLOCK threads a
 * block, one thread per element), the same parameters bound the same way,
 * so a kernel gives the sim's bits and the GPU's bits for the same inputs.
 * `auto` picks cuda when a GPU is usable, else sim. */
#ifndef UB_BACKEND_H
#define UB_BACKEND_H

#include "sim.h"

struct ub_nvcc_unit;
struct ub_toolkit;

/* Bit 63 of an approx mask (the bits below are ptx.h's approximate
 * kinds): the sim ran f32/f64/f16/bf16 mul, add or sub without a rounding
 * modifier, which ptxas may fuse into an FMA on the GPU.  Not an
 * approximation of the sim's: a row stays sim_exact; `selftest` uses it
 * to tell why a GPU may differ. */
#define UB_APPROX_UNMARKED (UINT64_C(1) << 63)

/* One kernel launch over n elements. */
struct ub_job {
	const char *src;     /* CUDA C source (NVRTC) */
	const struct ub_nvcc_unit *unit; /* or a unit nvcc compiles (nvcc.h) */
	const char *ptx;     /* or its PTX, compiled already (a Triton
				kernel: sim only); NULL: compile src or unit */
	const char *name;    /* its file name, for messages */
	const char *opts;    /* NVRTC options (the mode's) */
	const char *arch;    /* what to compile for: ub_backend.arch() */
	const char *entry;   /* the kernel's .entry (mangled for C++) */
	const char *shown;   /* what messages call it (NULL: entry) */
	const struct ub_karg *args;
	int nargs;
	size_t n;
	struct ub_geom geom; /* the launch (zeros: the default, sim.h) */
	const struct ptx_trace *trace; /* sim only: explain's trace, or NULL */
	const char *what;    /* "mode fma", "torch step 1": for messages */
	int exec;            /* sim only: enum ub_exec (native.h), how the
				kernel runs when not traced */
	struct ub_launcher *launcher; /* sim only: the kernels are launched by
				this host function of the unit's file
				(launcher.h), args its parameters; entry,
				n and geom's grid unused */
	struct ub_checks *checks; /* sim only: what the checks saw is folded
				in (NULL: nobody; the GPU leaves it) */
	const struct ub_toolkit *toolkit; /* what compiles it (toolkit.h);
				NULL: the default toolkit */
};

struct ub_backend {
	const char *name;
	/* 0 when usable; else UB_RUNTIME and one line saying why ("cuda: no
	 * NVIDIA driver: ..."). Cheap after the first call. */
	int (*probe)(struct ub_error *err);
	/* The architecture run() compiles for, given --arch (arch_set) or
	 * the default (e.g. compute_90): the sim takes it as is, cuda the
	 * device's own sm_XY unless --arch was given. */
	const char *(*arch)(const char *arch, int arch_set);
	/* Compiles and runs the job; ORs into *approx the approximate
	 * instructions it modelled (ptx.h kinds, UB_APPROX_UNMARKED); the GPU
	 * models nothing and adds none.  Errors: UB_COMPILE, UB_USAGE (the
	 * kernel does not match its bindings), UB_RUNTIME. */
	int (*run)(const struct ub_job *job, uint64_t *approx,
		   struct ub_error *err);
};

/* Every backend, declared once: X(name, variable, help). */
#define UB_BACKENDS(X)                                                    \
	X("sim", ub_backend_sim, "the PTX interpreter (CPU, every machine)") \
	X("cuda", ub_backend_cuda, "the GPU, through the NVIDIA driver (libcuda.so.1)")

#define X(name, var, help) extern const struct ub_backend var;
UB_BACKENDS(X)
#undef X

/* The backend for a --backend value: "sim", "cuda" (fails with the probe's
 * reason when no GPU is usable) or "auto" (cuda when usable, else sim);
 * NULL means "sim".  Unknown names: UB_USAGE listing the valid ones. */
int ub_backend_get(const char *name, const struct ub_backend **be,
		   struct ub_error *err);

/* The job's PTX (compute_NN arch) or CUBIN (sm_NN with cubin set; *size
 * bytes), with job->toolkit: nvcc compiles job->unit when there is one,
 * NVRTC job->src. */
int ub_job_compile(const struct ub_job *job, int cubin, char **out,
		   size_t *size, struct ub_error *err);

/* "auto, sim, cuda" */
const char *ub_backend_names(char *buf, size_t len);
/* 1 if name is a --backend value (auto or a backend). */
int ub_backend_valid(const char *name);

/* --arch ARG: compute_NN or sm_NN (a or f may follow NN), NN an
 * architecture NVRTC supports, into *arch, *arch_set = 1; else UB_USAGE
 * with one line listing NVRTC's architectures. */
int ub_arch_parse(const char *arg, const char **arch, int *arch_set,
		  struct ub_error *err);

#endif

/* toolkit.h — CUDA toolkits side by side: each the NVRTC of one CUDA
 * release, with the headers its kernels include and, where the toolkit has
 * them, nvcc and ptxas.  A toolkit is a CUDA install (/usr/local/cuda,
 * configure --with-cuda=DIR) or the Python wheels of PyPI
 * (nvidia-cuda-nvrtc-cu11, -cu12, nvidia-cuda-nvrtc and nvidia-cuda-nvcc
 * for 13.x, each with its nvidia-cuda-runtime for the headers) in a
 * virtual environment, a site-packages or a `pip install --target`
 * directory, PyTorch's own environment included.
 *
 * A directory is read as the first of these that fits it:
 *   a toolkit root    lib64/ or lib/ holding libnvrtc.so*, and include/
 *                     (/usr/local/cuda; site-packages/nvidia/cu13, the
 *                     layout of the 13.x wheels)
 *   11.x/12.x wheels  cuda_nvrtc/lib/libnvrtc.so*, cuda_runtime/include,
 *                     cuda_nvcc/bin/ptxas (site-packages/nvidia)
 *   a site-packages   nvidia/cu13 and nvidia/ (each toolkit found there)
 *   a prefix, a venv  lib/python3.X/site-packages
 *   a folder          each subdirectory (only in a search place)
 *
 * A toolkit's name is its NVRTC's release, MAJOR.MINOR ("12.9"), taken
 * from the file name of libnvrtc-builtins.so.MAJOR.MINOR without loading
 * the library.  Its identity, the key of every compile cache entry it
 * makes (nvrtc_cache.h, native code through the PTX), is that release and
 * a digest of its libnvrtc and libnvrtc-builtins, so two toolkits never
 * share an entry; the identity is cached too, keyed by the files (path,
 * device, inode, size, time), so a cached run never loads NVRTC.
 *
 * The default toolkit is $ULPBENCH_CUDA (a directory read as above), else
 * the one configure found, else, when that one is gone (a wheel of
 * ulpbench built in pip's build environment), the one in the prefix the
 * program runs from (PREFIX/bin/ulpbench; PREFIX's site-packages).  Names are looked up (`--toolkit 12.9`,
 * `ulpbench toolkits`) among, in order: the default toolkit, each
 * directory of $ULPBENCH_TOOLKITS (colon-separated), $VIRTUAL_ENV,
 * $CONDA_PREFIX, $XDG_DATA_HOME/ulpbench/toolkits/NAME (default
 * ~/.local/share/ulpbench/toolkits/NAME, where `ulpbench toolkits` says
 * to pip install more), the source tree's .toolkits/NAME, /usr/local/cuda*
 * and the user's and the system's site-packages; the first toolkit of a
 * release wins. */
#ifndef UB_TOOLKIT_H
#define UB_TOOLKIT_H

#include <stdio.h>

#include "ub.h"

#define UB_TK_MAX_INC 3
/* Toolkits one process knows (found, given, the default) */
#define UB_TK_MAX 24
/* Toolkits of one run (--toolkit LIST) */
#define UB_MAX_TOOLKITS 6

struct ub_toolkit {
	char name[24];          /* "12.9": the NVRTC release */
	char dir[4096];         /* where it was found: its root, or the
				   nvidia/ folder of 11.x/12.x wheels */
	char nvrtc[4096];       /* its libnvrtc.so */
	char builtins[4096];    /* libnvrtc-builtins.so.MAJOR.MINOR ("" when
				   not found beside it) */
	int ninc;               /* include directories of its kernels: */
	char inc[UB_TK_MAX_INC][4096]; /* nvrtc.h's, cuda_fp16.h's, CCCL */
	char nvcc[4096];        /* its nvcc, "" when it has none (the
				   11.x/12.x wheels ship no nvcc driver) */
	char ptxas[4096];       /* its ptxas, or "" */
	char cufilt[4096];      /* its cu++filt, or "" */
	char wheel[96];         /* "nvidia-cuda-nvrtc-cu12 12.9.86" when it came
				   from a wheel, else "" */
	const char *origin;     /* "default", "configured", "wheel",
				   "directory" (ulpbench toolkits) */
	int slot;               /* its index among the process's toolkits */
};

/* The default toolkit: $ULPBENCH_CUDA, else configure's (CUDA_HOME,
 * UB_NVRTC_LIB).  Never NULL: one whose NVRTC is missing fails when it is
 * loaded, saying so. */
const struct ub_toolkit *ub_toolkit_default(void);

/* The toolkit named by spec: "default", a release ("12.9"; also "12"
 * when one 12.x is found), or a directory (containing a '/') read as
 * above.  UB_USAGE when none fits: "toolkit 12.9 not found (found: 13.0,
 * 11.8); install it with: python3 -m pip install ...", for the caller to
 * prefix with its option. */
int ub_toolkit_resolve(const char *spec, const struct ub_toolkit **tk,
		       struct ub_error *err);

/* Every toolkit found in the search places, the default first, one per
 * release; how many (at most max). */
int ub_toolkit_scan(const struct ub_toolkit **all, int max);

/* Reads dir as above into *tk (the first toolkit it holds); 0, or -1
 * when it holds none. */
int ub_toolkit_probe(const char *dir, struct ub_toolkit *tk);

/* The toolkit's identity: "MAJOR.MINOR HEX32", its release and the digest
 * of its libraries (cached, see above); "unknown" when they cannot be
 * read. */
const char *ub_toolkit_id(const struct ub_toolkit *tk);

/* The pip command that installs release name ("11.8", "12.9", "13.0")
 * into dir into buf; NULL when no pinned wheels of it are known. */
const char *ub_toolkit_pip_line(const char *name, const char *dir, char *buf,
				size_t len);
/* The releases whose pinned wheels are known, "11.8, 12.9, ..." */
const char *ub_toolkit_pip_names(char *buf, size_t len);

/* Where `ulpbench toolkits` suggests installing release name: the
 * toolkits folder of the search places into buf. */
const char *ub_toolkit_home(const char *name, char *buf, size_t len);

#endif

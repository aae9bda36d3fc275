/* torch_ext.h — a PyTorch extension's .cu file (#include <torch/extension.h>)
 * compiled with no flags beyond what torch.utils.cpp_extension would pass:
 * ulpbench asks the torch of the Python (--python, $ULPBENCH_PYTHON,
 * python3) for them as cpp_extension computes them (its include_paths(),
 * Python's include directory, TORCH_EXTENSION_NAME, the pybind11 and
 * libstdc++ ABI, COMMON_NVCC_FLAGS) and gives them to nvcc after the
 * user's -I and -D. */
#ifndef UB_TORCH_EXT_H
#define UB_TORCH_EXT_H

#include "nvcc.h"

/* Whether src #includes a header of PyTorch's C++ API (torch/..., ATen/...,
 * c10/...). */
int ub_torch_ext_uses(const char *src);

/* The Python to ask: python (--python), else $ULPBENCH_PYTHON, else
 * python3. */
const char *ub_torch_python(const char *python);

/* Appends those flags to u's (strdup'd, the unit's owner frees them with
 * its own).  Errors: UB_USAGE naming file and saying how to name a Python
 * whose torch can be imported. */
int ub_torch_ext_flags(const char *file, const char *python,
		       struct ub_nvcc_unit *u, struct ub_error *err);

#endif

#!/usr/bin/env python3
"""torch_ext_flags.py NAME OUT - into OUT, the flags a PyTorch extension's .cu file is
compiled with by torch.utils.cpp_extension, one a line, for ulpbench's
nvcc: its include directories (torch's, then Python's), the -D flags it
adds (the extension's name NAME, the pybind11 and libstdc++ ABI it was
built with) and its nvcc flags (COMMON_NVCC_FLAGS).  Read from the torch
that this Python imports, as cpp_extension reads them: nothing is built
and no GPU is needed.

Exit status: 0 done; 3 torch cannot be imported (one line on stderr).
"""
import sys
import sysconfig


def main(argv):
    if len(argv) != 3:
        sys.stderr.write("usage: torch_ext_flags.py NAME OUT\n")
        return 2
    try:
        import torch
        import torch.utils.cpp_extension as ce
    except Exception as e:  # ImportError, or a broken install
        sys.stderr.write(("%s: %s" % (type(e).__name__, e)).replace("\n", " ") + "\n")
        return 3
    flags = ["-I" + p for p in ce.include_paths()]
    flags.append("-I" + sysconfig.get_paths()["include"])
    flags += ["-DTORCH_API_INCLUDE_EXTENSION_H", "-DTORCH_EXTENSION_NAME=" + argv[1]]
    if hasattr(ce, "_get_pybind11_abi_build_flags"):  # torch 2.x
        flags += ce._get_pybind11_abi_build_flags()
    else:  # as torch 1.x's BuildExtension adds them
        for name in ("COMPILER_TYPE", "STDLIB", "BUILD_ABI"):
            value = getattr(torch._C, "_PYBIND11_" + name, None)
            if value is not None:
                flags.append('-DPYBIND11_%s="%s"' % (name, value))
    if hasattr(ce, "_get_glibcxx_abi_build_flags"):
        flags += ce._get_glibcxx_abi_build_flags()
    else:
        flags.append("-D_GLIBCXX_USE_CXX11_ABI=%d" % int(torch._C._GLIBCXX_USE_CXX11_ABI))
    flags += list(getattr(ce, "COMMON_NVCC_FLAGS", []))
    with open(argv[2], "w") as f:
        f.write("".join(x + "\n" for x in flags))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

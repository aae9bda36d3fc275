"""An extension author's tests of atan_backward.cu against PyTorch, with
the ulpbench pytest plugin (pip install ./python provides the fixture).

PyTorch computes atan's backward as three kernels, each rounding: x*x,
then +1, then the division.  Built with -fmad=false the kernel does the
same and matches PyTorch bit for bit.  nvcc's default (-fmad=true) fuses
x*x + 1 into one FMA, which rounds once: closer to the exact value, but
different bits from PyTorch in a few elements of every thousand.  The
second test asserts the default build matches PyTorch, so it fails, and
its message shows what ulpbench reports: how many elements differ, the
worst one with its inputs and both results, and the command that
explains why.

    pytest python/examples/test_atan_backward.py"""
import os

KERNEL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "atan_backward.cu")
# the kernel's parameters by the op's names: x is the input, dout the
# incoming gradient g, din the result
ARGS = {"dout": "g", "din": "out"}


def test_nofma_build_matches_pytorch(ulpbench):
    ulpbench.assert_matches_torch(op="atan_bwd", kernel=KERNEL, args=ARGS,
                                  mode="nofma", n=20000)


def test_default_build_matches_pytorch(ulpbench):
    # fails: the FMA's single rounding gives other bits than PyTorch
    ulpbench.assert_matches_torch(op="atan_bwd", kernel=KERNEL, args=ARGS,
                                  mode="fma", n=20000)


def test_default_build_within_2_5_ulp(ulpbench):
    # where x*x cannot overflow (|x| < 2^64), every IEEE build is within
    # 2.5 ulp of the exact value: three roundings, the division's
    # conditioning at most doubling them
    ulpbench.assert_max_ulp(op="atan_bwd", kernel=KERNEL, args=ARGS, mode="fma",
                            bound=2.5, n=20000, domain={"x": (-1e18, 1e18)})

"""torch_check.py — compare ulpbench's torch plan with a real PyTorch.

  torch_check.py make DIR    writes DIR/x.npy and DIR/g.npy (float32)
  torch_check.py check DIR   compares DIR/dump/atan_bwd.f32.{torch,nofma,rn}.npy
                             with torch.autograd on the CPU, bit for bit

PyTorch's CPU and CUDA kernels for atan's backward compute the same chain
of IEEE operations (x*x, +1, /, each rounded to float32), so a CPU run is an
independent oracle for the torch plan.  Prints one line per comparison and
exits 1 on any mismatch that should not be there.
"""
import sys

import numpy as np
import torch

N = 200_000


def make(d):
    rng = np.random.default_rng(20261129)
    # half the inputs: any float32 encoding (every binade, NaN, inf); half:
    # values near 1 where the fused and unfused x*x+1 differ most often
    bits = rng.integers(0, 2**32, size=N, dtype=np.uint64).astype(np.uint32)
    x = bits.view(np.float32).copy()
    x[: N // 2] = rng.uniform(-10, 10, N // 2).astype(np.float32)
    g = rng.integers(0, 2**32, size=N, dtype=np.uint64).astype(np.uint32).view(np.float32)
    np.save(f"{d}/x.npy", x)
    np.save(f"{d}/g.npy", g)


def same(a, b):
    """Encodings equal, any NaN equal to any NaN."""
    ua, ub = a.view(np.uint32), b.view(np.uint32)
    return (ua == ub) | (np.isnan(a) & np.isnan(b))


def check(d):
    x = torch.from_numpy(np.load(f"{d}/x.npy")).requires_grad_()
    g = torch.from_numpy(np.load(f"{d}/g.npy"))
    torch.atan(x).backward(g)
    want = x.grad.numpy()
    bad = 0
    for mode, must_match in (("torch", True), ("nofma", True), ("rn", True), ("fma", False)):
        got = np.load(f"{d}/dump/atan_bwd.f32.{mode}.npy")
        diff = int((~same(got, want)).sum())
        print(f"atan_bwd f32 {mode}: {diff} of {N} differ from torch {torch.__version__} autograd")
        if must_match and diff:
            i = int(np.argmax(~same(got, want)))
            print(f"  first: x={x[i].item()!r} g={g[i].item()!r} got={got[i]!r} torch={want[i]!r}")
            bad += 1
        if not must_match and diff == 0:
            print("  expected some differences for fma (fused x*x+1)")
            bad += 1
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "make":
        make(sys.argv[2])
    else:
        sys.exit(1 if check(sys.argv[2]) else 0)
